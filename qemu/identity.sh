#!/bin/bash
# The identity of the code in a kernel tree: what every result names.
#
#   qemu/identity.sh TREE
#
# Prints 12 hex digits: the SHA-1 of the tree's tracked files' difference
# from the Debian tarball (tag 'tarball'), committed or not, so the base
# fixes and the series count and changelog text does not. The same code
# gives the same identity however it got there: git am of series-v2 on a
# fresh base (make tree, make rfc) or a development branch. qemu/kernel.sh
# builds it into the kernel's release string ("6.12.118-cas-<identity>"),
# which the guest prints in the first lines of its results.
set -eu

tree=${1:?usage: qemu/identity.sh TREE}
die() { printf 'identity: error: %s\n' "$*" >&2; exit 1; }

git -C "$tree" rev-parse -q --verify 'tarball^{commit}' >/dev/null ||
	die "$tree is not a worktree of the base repository (no tag 'tarball'; run 'make tree')"
# The diff's every format option is pinned: a user's git settings (prefixes,
# algorithm, renames, context, order) must not change it
set -o pipefail
git -C "$tree" -c core.quotePath=true -c diff.noprefix=false -c diff.mnemonicPrefix=false \
	-c diff.relative=false diff --binary --full-index --no-ext-diff --no-textconv --no-color \
	--no-renames --diff-algorithm=myers -U3 --inter-hunk-context=0 --src-prefix=a/ \
	--dst-prefix=b/ -O/dev/null tarball -- . | sha1sum | cut -c1-12
