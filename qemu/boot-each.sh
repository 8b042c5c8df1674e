#!/bin/bash
# Build and boot every patch of a series in turn: the kernels a bisection
# can land on.
#
#   qemu/boot-each.sh BUILD SERIES TOPOLOGY [FIRST]
#
# For k = 1..N, the base with patches 1..k of series-SERIES applied (a
# scratch worktree, BUILD/each-SERIES), built into BUILD/out-each-SERIES
# with the boot tests' configuration (qemu/configs/base.config, and the
# options of qemu/configs/series-SERIES.config that the tree has at patch
# k), and booted on TOPOLOGY with every guest test and the SCHED_CACHE
# scheduler feature switched on from the start: the series leaves it off
# until its enabling patch, and this runs each stage of the mechanism
# rather than a kernel that only carries its code. A boot passes as the
# unpatched kernel's does: every test passes or skips, no kernel splat.
# FIRST skips the boots (not the builds' patches) before patch FIRST.
# Logs: BUILD/logs/each-SERIES/NN-<patch>/TOPOLOGY.
set -eu

series=$2 topo=$3 first=${4:-1}
top=$(cd "$(dirname "$0")/.." && pwd)
# absolute: git -C runs the worktree commands from the base tree
build=$(cd "$1" && pwd)
. "$top/qemu/base.env"
me=boot-each
die() { printf '%s: error: %s\n' "$me" "$*" >&2; exit 1; }
say() { printf '%s: %s\n' "$me" "$*"; }
. "$top/qemu/am.sh"

case $series in
v1|v2) ;;
*) die "SERIES=$series: only v1 or v2 have patches" ;;
esac
base=$build/linux-base
git -C "$base" rev-parse -q --verify base >/dev/null || die "no base tree: run 'make tree' first"
patches=("$top"/series-"$series"/[0-9]*.patch)
[ -e "${patches[0]}" ] || die "series-$series/ has no numbered patches"
initrd=$build/initramfs-each.cpio.gz
[ -d "$build/guest" ] || die "no guest programs in $build/guest: run 'make guest'"
"$top/qemu/initramfs.sh" "$initrd" "$build/guest"

src=$build/each-$series out=$build/out-each-$series
# A scratch tree, but never reset with local changes in it
if [ -d "$src" ]; then
	[ -z "$(git -C "$src" status --porcelain --untracked-files=no)" ] ||
		die "$src has local changes; commit, stash or remove them"
	git -C "$base" worktree remove --force "$src"
fi
git -C "$base" worktree prune
git -C "$base" worktree add -q --detach "$src" base

frag=$build/each-$series.config
results=() rc=0
for i in "${!patches[@]}"; do
	k=$((i + 1)) p=${patches[$i]}
	name=$(basename "$p" .patch)
	am_all "$src" "" "$p" || exit 1
	[ "$k" -ge "$first" ] || continue
	# the series' options this tree has (a later patch adds its KUnit test)
	: >"$frag"
	while read -r line; do
		opt=${line%%=*}
		grep -rqsE "^(menu)?config ${opt#CONFIG_}\$" "$src/init/Kconfig" "$src/kernel" \
			--include='Kconfig*' && echo "$line" >>"$frag"
	done < <(grep -E '^CONFIG_[A-Z0-9_]+=' "$top/qemu/configs/series-$series.config")
	# a new patch, a new configuration (kernel.sh keys it on this stamp)
	echo "$series-$k" >"$src/.series-stamp"
	say "patch $k/${#patches[@]}: $name: building"
	"$top/qemu/kernel.sh" "$src" "$out" "$top/qemu/configs/base.config" "$frag" ||
		die "patch $k ($name) does not build"
	# the last stage is the whole series: named as such, it must do all
	# that tests/expect.tsv asks of the series (a stage's name lets the
	# feature's tests skip)
	stage=$series-1..$k
	[ "$k" != "${#patches[@]}" ] || stage=$series
	brc=0
	APPEND="${APPEND:-} cas.series=$stage cas.config=base cas.features=SCHED_CACHE cas.stress=short" \
		"$top/qemu/boot-test.sh" "$out/arch/x86/boot/bzImage" "$initrd" \
		"$build/logs/each-$series/$(printf %02d "$k")-${name#[0-9][0-9][0-9][0-9]-}" '*' "$topo" \
		>"$build/each-$series-$k.log" 2>&1 || brc=$?
	sed -n '/^boot-test summary:/,$p' "$build/each-$series-$k.log" | sed 's/^/  /'
	if [ $brc = 0 ]; then
		results+=("  PASS  $k $name")
	else
		results+=("  FAIL  $k $name (log $build/each-$series-$k.log)")
		rc=1
	fi
done
say "summary ($topo, SCHED_CACHE on from the start):"
printf '%s\n' "${results[@]}"
exit $rc
