#!/bin/bash
# The load sweep's report, from SWEEP_DIR/raw.tsv and run.env (qemu/sweep.sh):
#   results.tsv   kernel workload metric worst median min max boots
#                 (worst: the smallest share, on-CPU time or preference
#                 time, the largest count per second, over the boots)
#   cells.tsv     each cell's verdict (qemu/sweep-judge.awk)
#   heat-KERNEL-METRIC.png  one heatmap per kernel and figure, a panel per
#                 burst length, threads by duty, the worst boot's value
#   checks.tap    one TAP line per cell; exit 1 when one fails
#
#   qemu/sweep-report.sh SWEEP_DIR [verdict]
#
# "verdict": results.tsv, cells.tsv and checks.tap only (no heatmaps, no
# summary; qemu/sweep-accept.sh judging stored figures again), exit 0.
set -eu

out=$1 only=${2:-}
top=$(cd "$(dirname "$0")/.." && pwd)
die() { printf 'sweep: error: %s\n' "$*" >&2; exit 2; }
[ -s "$out/raw.tsv" ] || die "no $out/raw.tsv (run 'make sweep')"
[ -s "$out/run.env" ] || die "no $out/run.env (run 'make sweep')"
# shellcheck disable=SC1091
. "$out/run.env"
tab=$(printf '\t')
METRICS="top_llc_share_pct llc_migrations_per_s lb_llc_migrations_per_s
wakeup_llc_migrations_per_s pref_llc_changes_per_s pref_pct thread_oncpu_pct
runq_wait_pct scans_per_mm_per_s"

# ---- results.tsv
printf 'kernel\tworkload\tmetric\tworst\tmedian\tmin\tmax\tboots\n' >"$out/results.tsv"
sort -t"$tab" -k1,1 -k3,3 -k4,4 -k5,5g "$out/raw.tsv" |
	awk -F'\t' -v list="$METRICS" '
	BEGIN { n = split(list, l, /[ \n]+/); for (i = 1; i <= n; i++) ok[l[i]] = 1 }
	function flush(   med, worst) {
		if (bad)
			printf "%s\tinvalid\tinvalid\tinvalid\tinvalid\t%d\n", key, cnt + bad
		else if (cnt) {
			med = cnt % 2 ? v[(cnt + 1) / 2] : (v[cnt / 2] + v[cnt / 2 + 1]) / 2
			worst = (met ~ /share|oncpu|pref_pct/) ? v[1] : v[cnt]
			printf "%s\t%.2f\t%.2f\t%.2f\t%.2f\t%d\n", key, worst, med, v[1], v[cnt], cnt
		}
		cnt = bad = 0
	}
	!($4 in ok) && $4 !~ /^llc_moves_seen_w[0-9]+$/ { next }
	{ k = $1 "\t" $3 "\t" $4; if (k != key) { flush(); key = k; met = $4 } }
	$5 == "invalid" { bad++; next }
	{ v[++cnt] = $5 }
	END { flush() }' >>"$out/results.tsv"

# ---- cells.tsv and checks.tap
printf 'workload\tT\tD\tB\tmig_none\tmig_v2\tmig_bound\toncpu_none\toncpu_v2\toncpu_bound\tpref_pct_max\tshare_pref_min\tclaimed\tpref_pct_min\tshare_min\tpref_changes_max\tmoving_windows_max\tboots_none\tboots_v2\tverdict\tnear\n' \
	>"$out/cells.tsv"
IFS=x read -r _ _ cores smt <<<"$TOPOLOGY"
awk -F'\t' -v duties="$DUTIES" -v bursts="$BURSTS" -v llc_cpus=$((cores * ${smt:-1})) \
	-v llc_cores="$cores" -v secs="$SECS" -f "$top/qemu/sweep-judge.awk" \
	"$out/raw.tsv" >>"$out/cells.tsv"
n=$(($(wc -l <"$out/cells.tsv") - 1))
[ "$n" -gt 0 ] || die "no cell in $out/raw.tsv"
awk -F'\t' -v n="$n" -v topo="$TOPOLOGY" '
	BEGIN { print "TAP version 13"; print "1.." n }
	NR == 1 { next }
	{
		what = sprintf("%s on %s: migrations/s v2 %s <= %s (none %s); per-thread on-CPU %% v2 %s >= %s; lowest top-LLC share with a preference most of the time %s; %s; preference changes in a boot %s <= 1; windows with moves in a gathering boot %s; boots none %s, v2 %s",
			$1, topo, $6, $7, $5, $9, $10, $12 < 0 ? "n/a" : $12 "%",
			$13 == 1 ? "claimed: lowest preference " $14 "% >= 90, share " $15 "% >= 90" : "not claimed",
			$16, $17 < 0 ? "n/a" : $17 " <= 1 + changes", $18, $19)
		if ($20 == "ok")
			printf "ok %d - %s\n", NR - 1, what
		else {
			printf "not ok %d - %s\n", NR - 1, what
			printf "# failed: %s\n", $20
			fails++
		}
	}
	END { printf "# %d of %d cells failed\n", fails, n }' "$out/cells.tsv" >"$out/checks.tap"
[ "$only" != verdict ] || exit 0

# ---- heatmaps: threads (y) by duty (x), a panel per burst length; D 100
# never sleeps and ran with the first burst length: drawn in every panel
plot() {
	local k=$1 m=$2 title=$3 dat=$out/heat-$1-$2 b
	awk -F'\t' -v k="$k" -v m="$m" -v bursts="$BURSTS" -v dat="$dat" '
		BEGIN { nb = split(bursts, bl, " ") }
		$1 == k && $3 == m && $4 != "invalid" {
			split($2, f, "-")
			for (j = 1; j <= nb; j++)
				if (f[4] == bl[j] || f[3] == 100)
					print f[3], f[2], $4 >(dat "-" bl[j] ".dat")
		}' "$out/results.tsv"
	[ -s "$dat-$(echo $BURSTS | cut -d' ' -f1).dat" ] || return 0
	# one colour scale for every panel and kernel: 0-100 for shares, else
	# up to the largest value of either kernel
	case $m in
	*pct) cb=100 ;;
	*) cb=$(awk -F'\t' -v m="$m" '$3 == m && $4 != "invalid" && $4 + 0 > x { x = $4 + 0 }
		END { print (x > 0 ? x : 1) }' "$out/results.tsv") ;;
	esac
	{
		echo "set terminal png size 1500,520"
		echo "set output '$dat.png'"
		echo "set multiplot layout 1,$(echo $BURSTS | wc -w) title \"$title, $k, TOPOLOGY=$TOPOLOGY (worst of up to $BOOTS boots; series ${SERIES_v2:-?})\""
		echo "set xlabel 'on-CPU share per thread, %'"
		echo "set ylabel 'threads'"
		echo "set xtics 15"
		echo "set xrange [0:110]"
		echo "set yrange [0.5:*]"
		echo "set ytics 1"
		echo "set cbrange [0:$cb]"
		echo "set palette defined (0 '#ffffff', 1 '#2166ac')"
		echo "unset key"
		for b in $BURSTS; do
			echo "set title 'bursts of $b ms'"
			echo "plot '$dat-$b.dat' using 1:2:(7.5):(0.5):3 with boxxyerror fs solid 1.0 noborder lc palette, '' using 1:2:(sprintf('%.3g', \$3)) with labels font ',8'"
		done
		echo "unset multiplot"
	} | gnuplot
	rm -f "$dat"-*.dat
}
for k in none v2; do
	plot "$k" top_llc_share_pct "top-LLC share, %"
	plot "$k" llc_migrations_per_s "cross-LLC migrations per second"
	plot "$k" thread_oncpu_pct "on-CPU time per thread, %"
done
plot v2 pref_pct "time with a preferred LLC, %"
plot v2 pref_llc_changes_per_s "preferred-LLC changes per second"

cat "$out/checks.tap" | grep -v '^ok ' || true
echo "sweep: $TOPOLOGY: $n cells, $(grep -c '^ok ' "$out/checks.tap") passed;" \
	"results in $out/results.tsv, heatmaps $out/heat-*.png (run.env: series ${SERIES_v2:-?}," \
	"${MINUTES:-?} min)"
! grep -q '^not ok' "$out/checks.tap"
