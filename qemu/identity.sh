#!/bin/bash
# The identity of the code in a kernel tree: what every result names.
#
#   qemu/identity.sh TREE
#
# Prints 12 hex digits: the SHA-1 of the tree's tracked files' difference
# from the Debian tarball (tag 'tarball'), committed or not, followed by
# the name and content hash of each untracked file git does not ignore (a
# new source file not yet added builds into the kernel too; the harness's
# own stamps at the top, .series-stamp and .check-*, are not code), so the
# base fixes and the series count and changelog text does not. With no
# untracked file the identity is the diff's alone, as before. The same code
# gives the same identity however it got there: git am of series-v2 on a
# fresh base (make tree, make rfc) or a development branch. qemu/kernel.sh
# builds it into the kernel's release string ("6.12.118-cfg<config>-cas-<identity>"),
# which the guest prints in the first lines of its results.
set -eu

tree=${1:?usage: qemu/identity.sh TREE}
die() { printf 'identity: error: %s\n' "$*" >&2; exit 1; }

git -C "$tree" rev-parse -q --verify 'tarball^{commit}' >/dev/null ||
	die "$tree is not a worktree of the base repository (no tag 'tarball'; run 'make tree')"
# The diff's every format option is pinned: a user's git settings (prefixes,
# algorithm, renames, context, order) must not change it
set -o pipefail
id=$({
git -C "$tree" -c core.quotePath=true -c diff.noprefix=false -c diff.mnemonicPrefix=false \
	-c diff.relative=false diff --binary --full-index --no-ext-diff --no-textconv --no-color \
	--no-renames --diff-algorithm=myers -U3 --inter-hunk-context=0 --src-prefix=a/ \
	--dst-prefix=b/ -O/dev/null tarball -- .
# NUL-separated: a name git would quote (non-ASCII, a newline) is still
# the file's own name; a file that cannot be hashed is an error
git -C "$tree" ls-files -z -o --exclude-standard -- . \
	':(exclude,top).series-stamp' ':(exclude,top).check-*' | LC_ALL=C sort -z |
	while IFS= read -r -d '' f; do
		h=$(git -C "$tree" hash-object -- "$f") || die "cannot hash untracked $tree/$f"
		printf 'untracked %s %s\n' "$f" "$h"
	done
} | sha1sum | cut -c1-12) || exit 1
echo "$id"
