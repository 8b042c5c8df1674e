#!/bin/bash
# From make bench's results.tsv: the checks of what v2 must show
# (qemu/bench-checks.sh: TAP in checks.tap, printed last; exit 1 when one
# fails), the side-by-side table with the checks counted by kind
# (table.txt), the occupancy plot (occupancy.png) and the cache model's
# figures beside the placement of the same modeled boots (cache.png, when
# the bench ran the model).
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

# ---- what v2 must show: tests/bench/checks.tsv, with its control
rc=0
"$top/qemu/bench-checks.sh" "$res" >"$out/checks.tap" || rc=$?
[ "$rc" -le 1 ] || { cat "$out/checks.tap"; die "the checks could not be judged (qemu/bench-checks.sh exit $rc)"; }

# ---- the table
"$top/qemu/bench-table.sh" "$res" "$out/run.env" "$out/checks.tap" >"$out/table.txt"
cat "$out/table.txt"

# ---- the plot: threads per LLC over time, fit and saturate on each kernel
nllc=$(awk '{ print NF - 1; exit }' "$out/occ-v2-fit.dat")
gnuplot <<EOG
set terminal png size 1500,800
set output "$out/occupancy.png"
set multiplot layout 2,3 title "Threads in each LLC over time, stacked ($topo, run 1)\n{/*0.8 placement only: QEMU TCG models no cache}"
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
# ---- the cache model's figures (medians, bars per kernel) beside the
# top-LLC share of the same modeled boots, one panel a figure: the
# workload's own (user_) and every access's; a figure the results lack is
# left out (a panel without a point stops gnuplot)
cm=$(for m in top_llc_share_pct-llc user_llc_transfers_per_s llc_transfers_per_s \
	user_llc_misses_per_kacc llc_misses_per_kacc user_mem_fills_per_s; do
	! grep -q "	$m	" "$res" || printf '%s ' "$m"
done)
if grep -q $'\tllc_transfers_per_s\t' "$res"; then
	for m in $cm; do
		for w in fit ring pair stream hackbench-1; do
			printf '%s' "$w"
			for k in none v1 v2; do
				awk -F'\t' -v k="$k" -v w="$w" -v m="$m" '
					$1 == k && $2 == w && $3 == m { v = $4 } END { printf " %s", v == "" ? "NaN" : v }' "$res"
			done
			echo
		done >"$out/cache-$m.dat"
	done
	gnuplot <<EOG
set terminal png size 1500,800
set output "$out/cache.png"
set multiplot layout 2,3 title "make bench on $topo, medians of $RUNS runs under the cache model (qemu/plugins/llc.c): placement and counts of the same boots; user figures: user addresses only"
set style data histograms
set style histogram clustered gap 1
set style fill solid 0.8 noborder
set key top left font ",8"
set xtics rotate by -30 font ",8"
set yrange [0:*]
do for [m in "$cm"] {
	set title m noenhanced
	plot sprintf("$out/cache-%s.dat", m) using 2:xtic(1) title "none", '' using 3 title "v1", '' using 4 title "v2"
}
unset multiplot
EOG
	echo "bench: wrote $out/cache.png"
fi

cat "$out/checks.tap"
exit "$rc"
