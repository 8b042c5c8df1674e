#!/bin/bash
# Prepare the kernel source tree for one series.
#
#   qemu/tree.sh BUILD SERIES [FORCE]
#
# BUILD/linux-base  Debian's linux-source tarball, extracted once, as a git
#                   repository whose first commit (tag 'tarball') is the
#                   unmodified tarball; branch 'base' is that commit plus
#                   qemu/base-fixes/*.patch, fixes to the base kernel that
#                   every series (and the unpatched kernel) is built on.
# BUILD/src-SERIES  a git worktree of that repository with series-SERIES/*.patch
#                   applied by `git am` (SERIES=none: the base itself;
#                   SERIES=v2-nodebug: series-v2 without its patches marked
#                   "DEBUG, do not merge", the series as a maintainer would
#                   take it).
#
# A tree with local changes is never reset unless FORCE=1.
set -eu

build=$1 series=$2 force=${3:-0}
top=$(cd "$(dirname "$0")/.." && pwd)
. "$top/qemu/base.env"

die() { printf 'tree: error: %s\n' "$*" >&2; exit 1; }
say() { printf 'tree: %s\n' "$*"; }

. "$top/qemu/am.sh"

case $series in
none) patches= ;;
v1|v2) patches=$(ls "$top"/series-"$series"/[0-9]*.patch 2>/dev/null || true)
       [ -n "$patches" ] || die "series-$series/ has no numbered patches" ;;
v2-nodebug)
       # the patches whose subject does not say "DEBUG, do not merge"
       patches= dropped=0
       for p in "$top"/series-v2/[0-9]*.patch; do
               [ -r "$p" ] || die "series-v2/ has no numbered patches"
               if grep -q -E '^Subject: .*DEBUG, do not merge' "$p"; then
                       dropped=$((dropped + 1))
               else
                       patches="$patches $p"
               fi
       done
       [ "$dropped" = 1 ] ||
               die "series-v2/ has $dropped patches marked 'DEBUG, do not merge' in their subject; v2-nodebug leaves out exactly one" ;;
*) die "unknown SERIES '$series' (use none, v1, v2 or v2-nodebug)" ;;
esac

mkdir -p "$build"
base=$build/linux-base
if ! git -C "$base" rev-parse -q --verify base >/dev/null 2>&1; then
	[ -r "$BASE_TARBALL" ] ||
		die "$BASE_TARBALL not found: install package $BASE_PACKAGE=$BASE_VERSION (run 'make deps')"
	have=$(dpkg-query -W -f '${Version}' "$BASE_PACKAGE" 2>/dev/null || true)
	[ "$have" = "$BASE_VERSION" ] ||
		die "$BASE_PACKAGE is '${have:-not installed}', the project is pinned to $BASE_VERSION (run 'make deps')"
	[ ! -e "$base" ] || die "$base exists but has no base commit (interrupted extraction?); remove it"
	say "extracting $BASE_TARBALL (takes a minute)"
	tmp=$build/.extract.$$
	rm -rf "$tmp"; mkdir -p "$tmp"
	tar -C "$tmp" -xf "$BASE_TARBALL"
	mv "$tmp"/linux-source-* "$base"; rmdir "$tmp"
	# The Debian tarball's top-level .gitignore ignores every top-level
	# entry ('/*'), so nothing could be committed: drop those lines.
	sed -i -e '/^\/\*$/d' -e '/^!\//d' "$base/.gitignore"
	git -C "$base" init -q -b base
	git -C "$base" add -A
	GIT_AUTHOR_DATE=2000-01-01T00:00:00Z GIT_COMMITTER_DATE=2000-01-01T00:00:00Z \
	git -C "$base" -c user.name=base -c user.email=base@localhost \
		commit -q -m "Debian $BASE_PACKAGE $BASE_VERSION" \
		-m "Extracted from $BASE_TARBALL; top-level .gitignore '/*' lines dropped."
	n=$(git -C "$base" ls-files | wc -l)
	[ "$n" -gt 50000 ] || die "base commit holds only $n files: extraction went wrong"
	say "base commit $(git -C "$base" rev-parse --short HEAD) ($n files)"
fi

# Rebases in the series worktrees keep the patches' history notes
git -C "$base" config notes.rewriteRef refs/notes/cas-history

# The base fixes, applied once on top of the tarball commit. A change to
# them resets branch 'base' to the tarball and applies them again, which
# the series trees below then follow; a linux-base with local changes is
# never reset.
fixes=$(ls "$top"/qemu/base-fixes/[0-9]*.patch 2>/dev/null || true)
fstamp=$(cat /dev/null $fixes | sha1sum | cut -c1-12)
fstampf=$(git -C "$base" rev-parse --absolute-git-dir)/cas-base-fixes
if [ "$(cat "$fstampf" 2>/dev/null)" != "$fstamp" ]; then
	git -C "$base" rev-parse -q --verify tarball >/dev/null ||
		git -C "$base" tag tarball "$(git -C "$base" rev-list --max-parents=0 base)"
	[ "$(git -C "$base" symbolic-ref -q --short HEAD)" = base ] ||
		die "$base is not on branch 'base'; check out base there and rerun"
	[ -z "$(git -C "$base" status --porcelain --untracked-files=no)" ] ||
		die "$base has local changes and its base fixes must be reapplied; commit or stash them"
	git -C "$base" reset -q --hard tarball
	rm -f "$fstampf"
	am_all "$base" "base fix " $fixes || { git -C "$base" reset -q --hard tarball; exit 1; }
	echo "$fstamp" >"$fstampf"
	say "base: $(git -C "$base" rev-parse --short base) (tarball + $(echo $fixes | wc -w) fix(es))"
fi

src=$build/src-$series
if [ "$series" = none ]; then
	# The base checkout itself is the unpatched tree.
	[ -e "$src" ] || ln -s linux-base "$src"
	say "$src: unpatched base"
	exit 0
fi

# The series stamp covers the base fixes: a new base re-applies the series
stamp=$( (echo "$fstamp"; cat $patches) | sha1sum | cut -c1-12)
if [ -d "$src" ]; then
	if [ -n "$(git -C "$src" status --porcelain --untracked-files=no)" ]; then
		[ "$force" = 1 ] ||
			die "$src has local changes; commit or stash them, or rerun with FORCE=1 to discard them"
		say "FORCE=1: discarding local changes in $src"
	fi
	if [ "$(cat "$src/.series-stamp" 2>/dev/null)" = "$stamp" ] &&
	   [ "$force" != 1 ]; then
		say "$src: series-$series already applied ($stamp)"
		exit 0
	fi
	git -C "$src" am --abort >/dev/null 2>&1 || true
	git -C "$src" reset -q --hard base
else
	git -C "$base" worktree prune
	git -C "$base" worktree add -q -f -B "series-$series" "$(cd "$build" && pwd)/src-$series" base
fi

rm -f "$src/.series-stamp"
am_all "$src" "" $patches
echo "$stamp" >"$src/.series-stamp"
say "$src: series-$series applied ($stamp)"
