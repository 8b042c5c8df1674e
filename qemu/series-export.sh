#!/bin/bash
# Write series-SERIES/ back from the commits in BUILD/src-SERIES.
#
#   qemu/series-export.sh BUILD SERIES
#
# The way to change a patch: edit in BUILD/src-SERIES (the worktree that
# `make tree` made with `git am`), commit with `git commit --fixup` and
# `git rebase -i --autosquash base`, then run this. It writes exactly what
# the patches were made with (git format-patch --zero-commit --no-signature
# --abbrev=9: a tree applied and written back unchanged gives the same
# bytes), replaces only the numbered patches (the cover letter and bench/
# stay), and records the new series stamp so that `make tree` does not
# apply the series again.
#
# A patch's history (what changed since v1 and earlier drafts) goes below
# its "---" line, where git am ignores it: it is kept in the worktree as a
# git note (ref cas-history, which tree.sh fills from the patch files and
# which rebases carry along), and written back there.
set -eu

build=$1 series=$2
top=$(cd "$(dirname "$0")/.." && pwd)
die() { printf 'series-export: error: %s\n' "$*" >&2; exit 1; }

case $series in
v1|v2) ;;
*) die "SERIES=$series: only v1 or v2 have patches to write" ;;
esac
src=$build/src-$series
dst=$top/series-$series
[ -d "$src" ] || die "$src does not exist (run 'make tree SERIES=$series' first)"
[ -z "$(git -C "$src" status --porcelain --untracked-files=no)" ] ||
	die "$src has uncommitted changes: commit them (git commit --fixup, then git rebase -i --autosquash base)"
# (REBASE_HEAD can outlive a finished rebase; its state directories do not)
gitdir=$(git -C "$src" rev-parse --git-dir)
[ ! -d "$gitdir/rebase-merge" ] && [ ! -d "$gitdir/rebase-apply" ] ||
	die "$src is in the middle of a rebase: finish or abort it first"
n=$(git -C "$src" rev-list --count base..HEAD)
[ "$n" -gt 0 ] || die "$src has no commits on top of base"

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
git -C "$src" format-patch -q --zero-commit --no-signature --abbrev=9 -o "$tmp" base..HEAD
# each commit's history note, after its patch's "---" line
i=0
for c in $(git -C "$src" rev-list --reverse base..HEAD); do
	i=$((i + 1))
	f=$(printf '%s/%04d-*.patch' "$tmp" "$i")
	f=$(echo $f)
	git -C "$src" notes --ref=cas-history show "$c" >"$tmp/note" 2>/dev/null || continue
	awk -v note="$tmp/note" '!done && /^---$/ {
		print; while ((getline l < note) > 0) print l; print ""; done = 1; next } { print }' \
		"$f" >"$f.new"
	mv "$f.new" "$f"
done
rm -f "$tmp/note"
rm -f "$dst"/[0-9]*.patch
mv "$tmp"/*.patch "$dst"/
# the stamp qemu/tree.sh computes: the base fixes' stamp, then the patches
fstamp=$(cat /dev/null "$top"/qemu/base-fixes/[0-9]*.patch | sha1sum | cut -c1-12)
(echo "$fstamp"; cat "$dst"/[0-9]*.patch) | sha1sum | cut -c1-12 >"$src/.series-stamp"
echo "series-export: wrote $n patches to series-$series/ ($(cat "$src/.series-stamp"))"
git -C "$top" status --short -- "series-$series" | sed 's/^/  /'
