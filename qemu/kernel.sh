#!/bin/bash
# Build bzImage for one series out of tree, with ccache.
#
#   qemu/kernel.sh SRC OUT FRAGMENT...
#
# The .config is x86_64 tinyconfig with the fragments merged on top; any
# fragment option that Kconfig did not keep as written is an error. The
# kernel's release names the code it was built from (qemu/identity.sh).
set -eu

src=$1 out=$2; shift 2
top=$(cd "$(dirname "$0")/.." && pwd)
die() { printf 'kernel: error: %s\n' "$*" >&2; exit 1; }

[ -f "$src/Makefile" ] || die "$src is not a kernel tree (run 'make tree')"
command -v ccache >/dev/null || die "ccache not found: install package ccache (run 'make deps')"
mkdir -p "$out"
out=$(cd "$out" && pwd)
# The compiler cache belongs to the build folder (OUT's parent), as in
# make check (checks/lib.sh): a checkout that builds into another BUILD=
# (a clean clone running make sweep BUILD=...) reuses that folder's
# cache instead of starting a cold one under its own build/
build=$(dirname "$out")
# one kernel build at a time per build folder (make kernel, make bench,
# make sweep of one checkout): a second one waits for the first (the lock
# is released when this script exits); make check's builds and another
# BUILD= folder do not take it
exec 9>"$build/.kernel.lock"
flock -n 9 || { echo "kernel: waiting for another kernel build to finish ($build/.kernel.lock)" >&2; flock 9; }
: "${CCACHE_DIR:=$build/ccache}"
export CCACHE_DIR CCACHE_MAXSIZE=${CCACHE_MAXSIZE:-5G} CCACHE_BASEDIR=$build
export KBUILD_BUILD_TIMESTAMP='Thu Jan  1 00:00:00 UTC 2026' KBUILD_BUILD_USER=cas KBUILD_BUILD_HOST=qemu
# LOCALVERSION set (empty): no "+" for a git tree off a tag; the identity
# below says which code it is
kmake() { make -s -C "$src" O="$out" ARCH=x86_64 CC="ccache gcc" LOCALVERSION= -j"$(nproc)" "$@"; }

# Regenerate the config only when a fragment (or the tree's Kconfig) changed.
want=$(cat "$@" "$src/.series-stamp" 2>/dev/null | sha1sum | cut -c1-12)
if [ "$(cat "$out/.fragment-stamp" 2>/dev/null)" != "$want" ] || [ ! -f "$out/.config" ]; then
	kmake tinyconfig >/dev/null
	"$src/scripts/kconfig/merge_config.sh" -m -O "$out" "$out/.config" "$@" >/dev/null
	kmake olddefconfig >/dev/null
	# what the fragments want, the last fragment naming an option winning
	# (as merge_config.sh merges them: CONFIG=nofeature turns off what the
	# series fragment turned on)
	cat "$@" | grep -E '^(# )?CONFIG_[A-Z0-9_]+( is not set|=.*)$' | awk '
		{ opt = $0; sub(/^# /, "", opt); sub(/[ =].*/, "", opt)
		  if (!(opt in want)) order[n++] = opt; want[opt] = $0 }
		END { for (i = 0; i < n; i++) print want[order[i]] }' | while read -r line; do
		case $line in
		"# "*) opt=${line#\# }; opt=${opt%% *}
		       ! grep -q "^$opt=" "$out/.config" || echo "$opt"
		       ;;
		*)     grep -qxF "$line" "$out/.config" || echo "${line%%=*}" ;;
		esac
	done >"$out/.config-missed"
	if [ -s "$out/.config-missed" ]; then
		while read -r opt; do
			printf 'kernel: error: %s: wanted "%s", got "%s"\n' "$opt" \
				"$(grep -h -E "(^|# )$opt[= ]" "$@" | tail -1)" \
				"$(grep -E "(^|# )$opt[= ]" "$out/.config" || echo 'not set (dependency missing?)')" >&2
		done <"$out/.config-missed"
		exit 1
	fi
	echo "$want" >"$out/.fragment-stamp"
fi
# The configuration and the code in the release string,
# "6.12.118-cfg<config>-cas-<identity>": <config> is 6 hex digits of the
# hash of the .config's settings (so CONFIG=base, nofeature and debug
# builds of one code differ by name, not by the host's word), <identity>
# the code's (qemu/identity.sh), last, where every reader takes it from
# (${release##*-cas-}). Kbuild appends the object folder's localversion*
# files; rewritten only when it changes, so a rebuild does not relink.
cfg=$(grep '^CONFIG_' "$out/.config" | sha1sum | cut -c1-6)
lv=-cfg$cfg-cas-$("$top/qemu/identity.sh" "$src")
[ "$(cat "$out/localversion-cas" 2>/dev/null)" = "$lv" ] || echo "$lv" >"$out/localversion-cas"
kmake bzImage
echo "kernel: $out/arch/x86/boot/bzImage ($(cat "$out/include/config/kernel.release"))"
