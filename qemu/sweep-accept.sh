#!/bin/bash
# Whether a make sweep folder (BUILD/sweep/TOPOLOGY, or one recorded in
# series-v2/sweep/) may stand for a series: the v2 kernel it booted was
# built from the code whose identity (qemu/identity.sh) is given, it ran
# the whole grid, and today's judge (qemu/sweep-judge.awk, through
# qemu/sweep-report.sh) makes of its raw.tsv exactly the stored cells.tsv
# and checks.tap, every cell passing.
#
#   qemu/sweep-accept.sh SWEEP_DIR IDENTITY
#
# Exit 0 and one line saying what was measured, or exit 1 and why not.
set -eu

top=$(cd "$(dirname "$0")/.." && pwd)
usage="usage: qemu/sweep-accept.sh SWEEP_DIR IDENTITY"
dir=${1:?$usage} want=${2:?$usage}
no() { printf 'sweep-accept: %s: %s\n' "$dir" "$*" >&2; exit 1; }

[ -s "$dir/run.env" ] || no "no run.env (not a make sweep folder)"
get() { sed -n "s/^$1=//p" "$dir/run.env"; }
rel=$(get KERNEL_v2) got=$(get SERIES_v2) topo=$(get TOPOLOGY)
# SERIES_v2 is the identity in the release the v2 guest printed
[ -n "$got" ] && [ "${rel##*-cas-}" = "$got" ] ||
	no "run.env names no v2 identity (no KERNEL_v2 release carrying SERIES_v2)"
[ "$got" = "$want" ] ||
	no "measured v2 $got, but the series is $want: run 'make sweep TOPOLOGY=${topo:-?}' on this series"
[ -n "$(get KERNEL_none)" ] || no "run.env names no unpatched kernel (KERNEL_none)"
[ -s "$dir/raw.tsv" ] || no "no raw.tsv: its figures cannot be judged again"
for f in cells.tsv checks.tap; do
	[ -s "$dir/$f" ] || no "no $f: its verdict was not recorded"
done

# the whole grid: every cell of THREADS (A-B) x DUTIES x BURSTS (D 100
# with the first burst length only), as qemu/sweep.sh lists them
threads=$(get THREADS)
case $threads in [0-9]*-[0-9]*) ;; *) no "run.env's THREADS='$threads' is not A-B" ;; esac
# written with printf %q: "10\ 25\ ..."
duties=$(get DUTIES | sed 's/\\ / /g') bursts=$(get BURSTS | sed 's/\\ / /g')
cells=0
for d in $duties; do
	if [ "$d" = 100 ]; then cells=$((cells + 1)); else cells=$((cells + $(echo "$bursts" | wc -w))); fi
done
cells=$((cells * (${threads#*-} - ${threads%-*} + 1)))
n=$(($(wc -l <"$dir/cells.tsv") - 1))
[ "$n" = "$cells" ] || no "$n cells judged, the grid ($threads threads, duties $duties, bursts $bursts) has $cells"

# the stored verdict is what today's judge makes of the stored figures: a
# check changed since (a bound, a new check) is judged again, not trusted
now=$(mktemp -d)
trap 'rm -rf "$now"' EXIT
cp "$dir/raw.tsv" "$dir/run.env" "$now/"
"$top/qemu/sweep-report.sh" "$now" verdict >"$now/out" 2>&1 ||
	no "its raw.tsv cannot be judged: $(tail -1 "$now/out")"
for f in cells.tsv checks.tap; do
	cmp -s "$dir/$f" "$now/$f" ||
		no "its $f is not what today's judge makes of its raw.tsv:
$(diff "$dir/$f" "$now/$f" | grep '^[<>]' | cut -c1-160 | head -6)
  (the judge changed since the sweep: write its verdict again with
   qemu/sweep-report.sh $dir, or run 'make sweep TOPOLOGY=$topo')"
done
grep -q '^not ok' "$now/checks.tap" && no "cells failed:
$(grep -A1 '^not ok' "$now/checks.tap" | cut -c1-160 | head -12)"
echo "sweep-accept: $dir: v2 $got on $topo, all $n cells passed ($(get BOOTS) boots for cells near an edge, $(get MINUTES) min)"
