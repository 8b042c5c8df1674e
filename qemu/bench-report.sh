#!/bin/bash
# From make bench's results.tsv: the side-by-side table (table.txt), the
# occupancy plot (occupancy.png) and the checks of what v2 must show
# (qemu/bench-checks.sh: TAP, exit 1 when one fails).
#
#   qemu/bench-report.sh BENCH_DIR
set -eu

out=$1
res=$out/results.tsv
top=$(cd "$(dirname "$0")/.." && pwd)
die() { printf 'bench: error: %s\n' "$*" >&2; exit 2; }
[ -s "$res" ] || die "no $res (run 'make bench')"
[ -s "$out/run.env" ] || die "no $out/run.env (run 'make bench')"
# shellcheck disable=SC1091
. "$out/run.env"
topo=$TOPOLOGY caveat=$CAVEAT

# ---- the table
"$top/qemu/bench-table.sh" "$res" "$out/run.env" >"$out/table.txt"
cat "$out/table.txt"

# ---- the plot: threads per LLC over time, fit and saturate on each kernel
nllc=$(awk '{ print NF - 1; exit }' "$out/occ-v2-fit.dat")
gnuplot <<EOG
set terminal png size 1500,800
set output "$out/occupancy.png"
set multiplot layout 2,3 title "Threads in each LLC over time, stacked ($topo, run 1)\n{/*0.8 $caveat}"
set xlabel "seconds"
set ylabel "threads"
set yrange [0:*]
set key outside right font ",8"
set style fill solid 0.7 noborder
do for [w in "fit saturate"] {
	do for [k in "none v1 v2"] {
		set title sprintf("%s on %s", w, k)
		plot for [l=$nllc+1:2:-1] sprintf("$out/occ-%s-%s.dat", k, w) \
			using 1:(sum [c=2:l] column(c)) with filledcurves x1 title sprintf("LLC %d", l-2)
	}
}
unset multiplot
EOG
echo "bench: wrote $res, $out/table.txt and $out/occupancy.png"

# ---- what v2 must show: tests/bench/checks.tsv, with its control
exec "$top/qemu/bench-checks.sh" "$res"
