# Common helpers of the static gate, sourced by checks/*.sh (bash).
#
# Environment (set by checks/check.mk, defaults for running by hand):
#   BUILD        build folder (default: build)
#   CHECK_JOBS   make -j for kernel builds (default 2)
# Layout under $BUILD:
#   linux-base/            the base repository (never modified here)
#   check-base/            worktree at 'base', for base-side builds
#   check-NAME/            worktree: base + the series, one commit per patch
#   check-out/NAME-CFG/    out-of-tree build folders
#   check-cache/           results keyed by content hashes (safe to delete)

top=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
BUILD=${BUILD:-build}
case $BUILD in /*) ;; *) BUILD=$top/$BUILD ;; esac
BASE_REPO=$BUILD/linux-base
CACHE=$BUILD/check-cache
# CHECK_NOCACHE=1: recompute every result (a fresh cache for this run)
if [ "${CHECK_NOCACHE:-0}" = 1 ]; then
	[ -n "${CHECK_NOCACHE_DIR:-}" ] || { CHECK_NOCACHE_DIR=$(mktemp -d); export CHECK_NOCACHE_DIR; }
	CACHE=$CHECK_NOCACHE_DIR
fi
CHECK_JOBS=${CHECK_JOBS:-2}
export CCACHE_DIR=${CCACHE_DIR:-$BUILD/ccache}
export CCACHE_MAXSIZE=${CCACHE_MAXSIZE:-5G} CCACHE_BASEDIR=$BUILD
export KBUILD_BUILD_TIMESTAMP='Thu Jan  1 00:00:00 UTC 2026' KBUILD_BUILD_USER=cas KBUILD_BUILD_HOST=qemu
export LC_ALL=C

me=${me:-check}
die()  { printf '%s: error: %s\n' "$me" "$*" >&2; exit 2; }
say()  { printf '%s: %s\n' "$me" "$*" >&2; }

# need_tool COMMAND PACKAGE
need_tool() {
	command -v "$1" >/dev/null 2>&1 ||
		die "'$1' not found: install the Debian package '$2' (apt-get install $2, or 'make deps')"
}

need_base() {
	git -C "$BASE_REPO" rev-parse -q --verify base >/dev/null 2>&1 ||
		die "$BASE_REPO has no 'base' branch: run 'make tree' first"
}

# series_patches DIR: the numbered patches of a series, in order.
series_patches() {
	local p found=0
	for p in "$1"/[0-9]*.patch; do
		[ -f "$p" ] || continue
		found=1
		printf '%s\n' "$p"
	done
	[ $found = 1 ] || die "$1/ has no numbered patches ([0-9]*.patch)"
}

# hash_of FILE|STRING...: a short content hash (files by content, else the word).
hash_of() {
	local a
	for a in "$@"; do
		if [ -f "$a" ]; then cat "$a"; else printf '%s\n' "$a"; fi
	done | sha1sum | cut -c1-16
}

# checks_hash GATE: hash of that gate's code and of lib.sh; a change to
# them invalidates the gate's cached results (and only that gate's).
checks_hash() { cat "$top/checks/lib.sh" "$top/checks/$1.sh" | sha1sum | cut -c1-12; }

# worktree_at PATH BRANCH: a worktree of the base repository at 'base'.
worktree_at() {
	local path=$1 branch=$2
	if [ ! -e "$path/.git" ]; then
		git -C "$BASE_REPO" worktree prune
		git -C "$BASE_REPO" worktree add -q -f -B "$branch" "$path" base >/dev/null ||
			die "cannot create worktree $path"
	fi
}

# base_tree: $BUILD/check-base, a clean checkout of 'base'.
base_tree() {
	need_base
	local t=$BUILD/check-base
	worktree_at "$t" check-base
	if [ "$(git -C "$t" rev-parse HEAD)" != "$(git -C "$BASE_REPO" rev-parse base)" ] ||
	   [ -n "$(git -C "$t" status --porcelain --untracked-files=no)" ]; then
		git -C "$t" reset -q --hard base
	fi
	echo "$t"
}

# series_tree NAME SERIESDIR: $BUILD/check-NAME = base + every patch of the
# series applied by 'git am', one commit per patch. Writes .check-map
# (commit<TAB>patch file name). A patch that does not apply is named.
# Reapplies only when the patches changed. Prints the tree path.
series_tree() {
	local name=$1 sdir=$2 t=$BUILD/check-$1 p stamp
	need_base
	local patches
	patches=$(series_patches "$sdir") || exit 2
	# the base's commit is part of the stamp: new base fixes apply the
	# series again, never reusing a tree built on the old base
	stamp="$(hash_of $patches)-$(git -C "$BASE_REPO" rev-parse --short=12 base)"
	worktree_at "$t" "check-$name"
	if [ "$(cat "$t/.check-stamp" 2>/dev/null)" = "$stamp" ] &&
	   [ "$(git -C "$t" rev-parse HEAD)" = "$(cut -f1 "$t/.check-map" | tail -1)" ] &&
	   [ -z "$(git -C "$t" status --porcelain --untracked-files=no)" ]; then
		echo "$t"; return 0
	fi
	git -C "$t" am --abort >/dev/null 2>&1 || true
	git -C "$t" checkout -q -f "check-$name" 2>/dev/null || true
	git -C "$t" reset -q --hard base
	rm -f "$t/.check-stamp" "$t/.check-map"
	for p in $patches; do
		if ! out=$(git -C "$t" -c user.name=check -c user.email=check@localhost \
				am -q --committer-date-is-author-date "$(cd "$(dirname "$p")" && pwd)/$(basename "$p")" 2>&1); then
			git -C "$t" am --abort >/dev/null 2>&1 || true
			printf '%s: error: %s does not apply on base + the patches before it:\n%s\n' \
				"$me" "$(basename "$p")" "$out" >&2
			printf 'FAIL %s: does not apply\n' "$(basename "$p")"
			exit 3
		fi
		printf '%s\t%s\n' "$(git -C "$t" rev-parse HEAD)" "$(basename "$p")" >>"$t/.check-map"
	done
	echo "$stamp" >"$t/.check-stamp"
	echo "$t"
}

# touched_files TREE [COMMIT]: files changed by the series (or by one commit).
touched_files() {
	if [ -n "${2:-}" ]; then
		git -C "$1" diff --name-only --diff-filter=AM "$2^" "$2"
	else
		git -C "$1" diff --name-only --diff-filter=AM base HEAD
	fi
}

# blame_patch TREE FILE LINE [REV]: the patch that last changed FILE:LINE
# (at REV, default HEAD; "base" when the line is from the unpatched tree).
blame_patch() {
	local c
	c=$(git -C "$1" blame -l -s -L "$3,$3" ${4:-HEAD} -- "$2" 2>/dev/null | cut -c1-41 | tr -d '^ ') || c=
	[ -n "$c" ] || { echo "?"; return; }
	awk -F'\t' -v c="$c" '$1 == c { print $2; f = 1 } END { if (!f) print "base" }' "$1/.check-map"
}

# new_findings BASELIST PATCHEDLIST: lines of PATCHEDLIST ("file<TAB>line<TAB>msg")
# whose (file, msg) is new or more frequent than in BASELIST. Line numbers
# are ignored for the comparison (also inside messages: "at line 12",
# "x.c:12"), duplicates are counted. Output: "excess<TAB>file<TAB>line<TAB>msg"
# for every patched occurrence of a key with excess > 0 (see pick_new).
new_findings() {
	awk -F'\t' '
		{ m = $3; gsub(/line [0-9]+/, "line N", m); gsub(/:[0-9]+/, ":N", m); k = $1 "\t" m }
		FILENAME == ARGV[1] { nb[k]++; next }
		{ np[k]++; occ[k] = occ[k] $0 "\n" }
		END { for (k in np) if (np[k] > nb[k]) {
			n = split(occ[k], o, "\n")
			for (i = 1; i < n; i++) print np[k] - nb[k] "\t" o[i]
		} }' "$1" "$2"
}

# pick_new TREE [REV] < new_findings output: for each key with excess E,
# the E occurrences to blame, preferring lines the series brought (so the
# extra one of two alike warnings is the patch's, not the base's), as
# "FAIL patch: file:line: msg".
pick_new() {
	local e f l m who
	while IFS=$'\t' read -r e f l m; do
		who=$(blame_patch "$1" "$f" "$l" "${2:-HEAD}")
		printf '%s\t%s\t%s\t%s\t%s\t%s\n' "$([ "$who" = base ] && echo 1 || echo 0)" "$e" "$f" "$m" "$l" "$who"
	done | sort -t$'\t' -k3,3 -k4,4 -k1,1n -k5,5n | awk -F'\t' '
		{ m = $4; gsub(/line [0-9]+/, "line N", m); gsub(/:[0-9]+/, ":N", m); k = $3 "\t" m }
		++seen[k] <= $2 {
			who = $6 == "base" ? "(base line, changed by the series)" : $6
			print "FAIL " who ": " $3 ":" $5 ": " $4
		}' | sort -t: -k1,1 -k3,3n
}

# attribute TREE [REV] < "file<TAB>line<TAB>msg": "FAIL patch: file:line: msg"
attribute() {
	local f l m who
	while IFS=$'\t' read -r f l m; do
		who=$(blame_patch "$1" "$f" "$l" "${2:-HEAD}")
		[ "$who" != base ] || who="(base line, changed by the series)"
		printf 'FAIL %s: %s:%s: %s\n' "$who" "$f" "$l" "$m"
	done
}

# kconfig TREE OUT SCHED_CACHE(y|n|base): tinyconfig + qemu/configs/base.config
# (+ CONFIG_SCHED_CACHE and its KUnit test), in OUT.
kconfig() {
	local tree=$1 out=$2 sc=$3 frag
	mkdir -p "$out"
	frag=$out/.check-fragment
	{
		cat "$top/qemu/configs/base.config"
		case $sc in
		y) printf 'CONFIG_SCHED_CACHE=y\nCONFIG_SCHED_CACHE_KUNIT_TEST=y\n' ;;
		n) printf '# CONFIG_SCHED_CACHE is not set\n' ;;
		esac
	} >"$frag"
	kmake "$tree" "$out" tinyconfig >/dev/null 2>&1 || die "tinyconfig failed in $out"
	"$tree/scripts/kconfig/merge_config.sh" -m -O "$out" "$out/.config" "$frag" >/dev/null 2>&1 ||
		die "merge_config failed in $out"
	kmake "$tree" "$out" olddefconfig >/dev/null 2>&1 || die "olddefconfig failed in $out"
}

# ensure_config TREE OUT CFG: (re)generate OUT/.config when the fragment or a
# Kconfig file of TREE changed since it was made.
ensure_config() {
	local kc
	kc=$( { git -C "$1" ls-files -s -- '*Kconfig*'; cat "$top/qemu/configs/base.config"; echo "$3"; } |
		sha1sum | cut -c1-16)
	if [ "$(cat "$2/.check-kconfig" 2>/dev/null)" != "$kc" ] || [ ! -f "$2/.config" ]; then
		kconfig "$1" "$2" "$3"
		echo "$kc" >"$2/.check-kconfig"
	fi
}

# kmake TREE OUT ARGS...
kmake() {
	local tree=$1 out=$2; shift 2
	make -s -C "$tree" O="$out" ARCH=x86_64 CC="ccache gcc" -j"$CHECK_JOBS" "$@"
}

# compiler_findings TREE < make output: "file<TAB>line<TAB>kind: msg" for every
# warning/error line, file relative to the tree.
compiler_findings() {
	local tree=$1
	sed -n -E 's/^([^ :]+\.[chS]):([0-9]+):([0-9]+:)? *(warning|error): (.*)$/\1\t\2\t\4: \5/p' |
		sed -E "s#^$tree/##; s#^(\.\./)+([^/]+/)*check-[^/]+/##; s#^\./##"
}

# series_targets TREE: kbuild targets for the files the series touches:
# kernel/sched/ when a file there or any header is touched, and the
# object of each touched .c file outside kernel/sched/.
series_targets() {
	local f
	! touched_files "$1" | grep -qE '^kernel/sched/|\.h$' || echo kernel/sched/
	touched_files "$1" | grep -E '\.c$' | grep -v '^kernel/sched/' | while read -r f; do
		echo "${f%.c}.o"
	done
}

# build_objects TREE OUT TARGETS...: rebuild the targets' objects with W=1
# (ccache makes that cheap) so that every warning is printed again; make's
# output on stdout. An object the config does not build is skipped with a
# note. Fails if make fails.
build_objects() {
	local tree=$1 out=$2 t dirs= objs= rc=0 o; shift 2
	for t in "$@"; do
		case $t in
		*/) rm -f "$out/$t"*.o; dirs="$dirs $t" ;;
		*)  [ -f "$tree/${t%.o}.c" ] || continue
		    rm -f "$out/$t"; objs="$objs $t" ;;
		esac
	done
	# shellcheck disable=SC2086
	[ -z "$dirs" ] || kmake "$tree" "$out" W=1 $dirs 2>&1 || rc=1
	for t in $objs; do
		o=$(kmake "$tree" "$out" W=1 "$t" 2>&1) || {
			if printf '%s\n' "$o" | grep -q "No rule to make target '$t'"; then
				echo "note: $t is not built in this configuration"
				continue
			fi
			rc=1
		}
		[ -z "$o" ] || printf '%s\n' "$o"
	done
	return $rc
}
