#!/bin/bash
# make bench: boot the unpatched kernel, v1 and v2 in turn on one topology,
# run tests/bench/cas-bench's workloads RUNS times in each boot; then boot
# each once more under the cache model (qemu/plugins/llc.c; BENCH_MODEL=0
# leaves it out) for fit, ring, pair, stream and hackbench-1 RUNS times,
# each workload's measured seconds a window of the model; boot each kernel
# LAT_BOOTS - 1 more times (default 3 boots in all) for the latency
# workload alone, whose p99 is judged by boot medians; and write
#   BUILD/bench/results.tsv    kernel workload metric median min max
#   BUILD/bench/table.txt      the same, side by side, for the cover letter
#   BUILD/bench/occupancy.png  threads per LLC over time, fit and saturate
#   BUILD/bench/run.env        topology, runs, seconds, the project commit, the
#                              kernels measured (release and code identity),
#                              the bench's own code hashed (qemu/bench-code.sh),
#                              the kernel command line added (no KUnit suite
#                              runs), the caveat, and CHECKS=passed|failed
#   BUILD/bench/checks.tap     the checks below
# then check what v2 must show against the others (TAP; exit 1 if not).
#
#   qemu/bench.sh BUILD TOPOLOGY RUNS [PLUGIN]
set -eu

b=$1 topo=$2 runs=$3 plugin=${4:-}
top=$(cd "$(dirname "$0")/.." && pwd)
out=$b/bench
SECS=${SECS:-10}
# the modeled boots' measured seconds: the model slows the host down
MODEL_SECS=${MODEL_SECS:-5}
SETTLE=${SETTLE:-10}
# boots of each kernel whose latency p99 is judged (the plain boot is the
# first): one boot's p99 swings more between boots than between its runs
LAT_BOOTS=${LAT_BOOTS:-3}
KERNELS="none v1 v2"
# The metric names results.tsv may carry (the issue's list)
METRICS="top_llc_share_pct llc_migrations_per_s lb_llc_migrations_per_s
wakeup_llc_migrations_per_s pref_llc_changes_per_s scans_per_mm_per_s oncpu_pct
runq_wait_pct ops_per_s p50_us p90_us p99_us time_s distinct_pref_llcs scan_cpu_pct
scan_us scan_max_us proc_top_llc_share_pct apart_llc_share_pct pref_is_top_llc p99_boot_us
llc_misses_per_kacc llc_transfers_per_s mem_fills_per_s
user_llc_misses_per_kacc user_llc_transfers_per_s user_mem_fills_per_s
top_llc_share_pct-llc apart_llc_share_pct-llc"
MODELED="fit ring pair stream hackbench-1"
CAVEAT="QEMU TCG models no cache: placement and overhead figures come from plain boots; the llc_* and mem_fills figures from boots under our cache model (qemu/plugins/llc.c: one shared LRU cache per LLC with the geometry the guest reports, MSI-like coherence between LLCs, data accesses only: no private L1/L2, no prefetch, no bandwidth limit, no timing effect of a miss). Under TCG operations per second are bound by the host."
die() { printf 'bench: error: %s\n' "$*" >&2; exit 2; }
# No KUnit suite runs in a benchmark boot (kunit.enable=0; only v2 has one):
# on 2x1x4, where v2 is inert, booting with its suite run doubled
# hackbench's cross-LLC wakeups; without it they matched the unpatched
# kernel's (CHANGELOG, patch 9 notes).
append="kunit.enable=0${APPEND:+ $APPEND}"

case $runs in ''|*[!0-9]*|0) die "RUNS=$runs: give a positive number of runs" ;; esac
case $LAT_BOOTS in ''|*[!0-9]*|0) die "LAT_BOOTS=$LAT_BOOTS: give a positive number of boots" ;; esac
[ -x "$b/bench-guest/cas-bench" ] || die "no $b/bench-guest/cas-bench (make bench builds it)"
for s in $KERNELS; do
	[ -f "$b/out-$s/arch/x86/boot/bzImage" ] || die "no kernel for SERIES=$s: run 'make kernel SERIES=$s'"
done
hb=$(command -v hackbench) || die "hackbench not found: install package rt-tests (run 'make deps')"
command -v gnuplot >/dev/null || die "gnuplot not found: install package gnuplot-nox (run 'make deps')"
model=${BENCH_MODEL:-1}
[ "$model" = 0 ] || [ -f "$plugin" ] || die "no cache model ${plugin:-(none given)}: run 'make plugin' (or BENCH_MODEL=0)"

# the checkout as it is now, when the bench's programs were just built
. "$top/qemu/provenance.sh"
commit=$(provenance_commit "$top")
code=$("$top/qemu/bench-code.sh" "$top")

rm -rf "$out"
mkdir -p "$out/extra/lib" "$out/empty"
cp "$b/bench-guest/cas-bench" "$out/extra/"
cp "$hb" "$out/extra/hackbench"
# hackbench is dynamically linked: its libraries and loader go along
ldd "$hb" | awk '$2 == "=>" && $3 ~ /^\// { print $3 } $1 ~ /^\// { print $1 }' |
	while read -r lib; do cp -L "$lib" "$out/extra/lib/"; done
# both boots' run scripts start alike: hackbench's libraries where its
# loader looks, then the system settles
cat >"$out/extra/setup" <<EOS
mkdir -p /lib64 /lib/x86_64-linux-gnu
for l in /extra/lib/*; do
	ln -sf "\$l" /lib64/
	ln -sf "\$l" /lib/x86_64-linux-gnu/
done
sleep $SETTLE
EOS
cat >"$out/extra/run" <<EOS
#!/bin/sh
set -e
. /extra/setup
r=1
while [ \$r -le $runs ]; do
	echo "# run \$r of $runs"
	for w in fit ring saturate pair stream latency; do
		occ=
		[ \$r = 1 ] && occ=occ
		./cas-bench \$w $SECS \$occ
	done
	./cas-bench hackbench-1
	./cas-bench hackbench-N
	r=\$((r + 1))
done
EOS
chmod +x "$out/extra/run"
"$top/qemu/initramfs.sh" "$out/initramfs.cpio.gz" "$out/empty" "$out/extra"
# The modeled boots: the same programs, each workload a window of its own
cp -r "$out/extra" "$out/extra-llc"
cat >"$out/extra-llc/run" <<EOS
#!/bin/sh
set -e
. /extra/setup
r=1 id=1
while [ \$r -le $runs ]; do
	echo "# run \$r of $runs (under the cache model)"
	for w in $MODELED; do
		case \$w in hackbench-*) CAS_LLC_WINDOW=\$id ./cas-bench \$w ;;
		*) CAS_LLC_WINDOW=\$id ./cas-bench \$w $MODEL_SECS ;; esac
		id=\$((id + 1))
	done
	r=\$((r + 1))
done
EOS
"$top/qemu/initramfs.sh" "$out/initramfs-llc.cpio.gz" "$out/empty" "$out/extra-llc"
# The latency boots: the same programs, latency alone, as the plain boot
# runs it
cp -r "$out/extra" "$out/extra-lat"
cat >"$out/extra-lat/run" <<EOS
#!/bin/sh
set -e
. /extra/setup
r=1
while [ \$r -le $runs ]; do
	echo "# run \$r of $runs (latency alone)"
	./cas-bench latency $SECS
	r=\$((r + 1))
done
EOS
"$top/qemu/initramfs.sh" "$out/initramfs-lat.cpio.gz" "$out/empty" "$out/extra-lat"

: >"$out/raw.tsv"
for s in $KERNELS; do
	echo "bench: booting SERIES=$s on $topo ($runs runs of each workload)"
	start=$(date +%s)
	APPEND="$append cas.series=$s cas.config=base" \
	TIMEOUT=${BENCH_TIMEOUT:-2400} GUEST_TIMEOUT=${BENCH_TIMEOUT:-2400} \
	"$top/qemu/boot-test.sh" "$b/out-$s/arch/x86/boot/bzImage" "$out/initramfs.cpio.gz" \
		"$out/logs/$s" none "$topo" >"$out/boot-$s.log" 2>&1 ||
		die "the $s boot failed: see $out/boot-$s.log and $out/logs/$s/$topo"
	echo "bench: SERIES=$s done in $(( $(date +%s) - start ))s"
	tr -d '\r' <"$out/logs/$s/$topo/results.log" >"$out/$s.log"
	awk -v k="$s" '$1 == "metric" { printf "%s\t%s\t%s\t%s\n", k, $2, $3, $4 }' \
		"$out/$s.log" >>"$out/raw.tsv"
	for w in fit saturate; do
		awk -v w="$w" '$1 == "occ" && $2 == w {
			printf "%.1f", $3 / 1000; for (i = 4; i <= NF; i++) printf " %s", $i; print "" }' \
			"$out/$s.log" >"$out/occ-$s-$w.dat"
		[ -s "$out/occ-$s-$w.dat" ] || die "no occupancy samples for $w on $s (see $out/$s.log)"
	done
done

# latency p99 by boot: each boot's median over its runs (the plain boot's
# first), LAT_BOOTS boots of each kernel, interleaved as the plain boots
# are; results.tsv then gives the median, min and max of the boot medians
boot_p99() {	# LOG: the median of the latency runs' p99 in a boot's log
	awk '$1 == "metric" && $2 == "latency" && $3 == "p99_us" { print $4 }' "$1" | sort -g |
		awk '{ v[++n] = $1 } END { if (n) printf "%.2f\n", n % 2 ? v[(n + 1) / 2] : (v[n / 2] + v[n / 2 + 1]) / 2 }'
}
for s in $KERNELS; do
	p=$(boot_p99 "$out/$s.log")
	[ -n "$p" ] || die "no latency p99 from $s (see $out/$s.log)"
	printf '%s\tlatency\tp99_boot_us\t%s\n' "$s" "$p" >>"$out/raw.tsv"
done
i=2
while [ $i -le "$LAT_BOOTS" ]; do
	for s in $KERNELS; do
		echo "bench: booting SERIES=$s on $topo for latency alone (boot $i of $LAT_BOOTS)"
		start=$(date +%s)
		APPEND="$append cas.series=$s cas.config=base" \
		TIMEOUT=${BENCH_TIMEOUT:-2400} GUEST_TIMEOUT=${BENCH_TIMEOUT:-2400} \
		"$top/qemu/boot-test.sh" "$b/out-$s/arch/x86/boot/bzImage" "$out/initramfs-lat.cpio.gz" \
			"$out/logs/$s-lat$i" none "$topo" >"$out/boot-$s-lat$i.log" 2>&1 ||
			die "the $s latency boot $i failed: see $out/boot-$s-lat$i.log and $out/logs/$s-lat$i/$topo"
		echo "bench: SERIES=$s latency boot $i done in $(( $(date +%s) - start ))s"
		tr -d '\r' <"$out/logs/$s-lat$i/$topo/results.log" >"$out/$s-lat$i.log"
		n=$(grep -c '^ *metric latency p99_us ' "$out/$s-lat$i.log" || true)
		[ "$n" = "$runs" ] || die "$s latency boot $i: $n runs reported, $runs expected (see $out/$s-lat$i.log)"
		printf '%s\tlatency\tp99_boot_us\t%s\n' "$s" "$(boot_p99 "$out/$s-lat$i.log")" >>"$out/raw.tsv"
	done
	i=$((i + 1))
done

# The modeled boots: per window (a workload's measured seconds), from the
# model's counts summed over every LLC, misses per thousand accesses
# (llc_misses_per_kacc: accesses, not cas-bench's ops, a 4 KiB page walk
# each), transfers between LLCs and fills from memory per second, for
# every access (the model's space 'all': the kernel, the /proc sampler and
# every other process included) and, prefixed user_, for user addresses
# alone (space 'user': mostly the workload's own data); and the modeled
# boot's own placement of the same run, top_llc_share_pct-llc (and pair's
# apart_llc_share_pct-llc), so a cache figure and the placement behind it
# come from one run
# The three modeled boots run two at a time, one QEMU a core: the
# plugin makes each several times slower, and -icount keeps guest time
# what it is whatever the host's load
modeled_boot() {
	local s=$1 start
	start=$(date +%s)
	LLC_PLUGIN=$plugin APPEND="$append cas.series=$s cas.config=base" \
	TIMEOUT=${BENCH_MODEL_TIMEOUT:-7200} GUEST_TIMEOUT=${BENCH_MODEL_TIMEOUT:-7200} \
	"$top/qemu/boot-test.sh" "$b/out-$s/arch/x86/boot/bzImage" "$out/initramfs-llc.cpio.gz" \
		"$out/logs/$s-llc" none "$topo" >"$out/boot-$s-llc.log" 2>&1 || return 1
	echo "bench: SERIES=$s under the cache model done in $(( $(date +%s) - start ))s"
}
if [ "$model" != 0 ]; then
	echo "bench: booting $KERNELS on $topo under the cache model, two at a time ($runs runs of $MODELED, ${MODEL_SECS}s each)"
	set -- $KERNELS
	pids=() names=()
	for s in "$@"; do
		if [ ${#pids[@]} = 2 ]; then
			wait "${pids[0]}" || die "the ${names[0]} boot under the cache model failed: see $out/boot-${names[0]}-llc.log and $out/logs/${names[0]}-llc/$topo"
			pids=("${pids[@]:1}") names=("${names[@]:1}")
		fi
		modeled_boot "$s" & pids+=($!) names+=("$s")
	done
	for i in "${!pids[@]}"; do
		wait "${pids[$i]}" || die "the ${names[$i]} boot under the cache model failed: see $out/boot-${names[$i]}-llc.log and $out/logs/${names[$i]}-llc/$topo"
	done
fi
for s in $KERNELS; do
	[ "$model" = 0 ] && break
	tr -d '\r' <"$out/logs/$s-llc/$topo/results.log" >"$out/$s-llc.log"
	n=$(grep -c '^ *llc-window ' "$out/$s-llc.log" || true)
	[ "$n" = $(( runs * $(echo $MODELED | wc -w) )) ] ||
		die "$s under the cache model: $n windows reported, $(( runs * $(echo $MODELED | wc -w) )) expected (see $out/$s-llc.log)"
	grep '^ *llc-window ' "$out/$s-llc.log" | awk -v k="$s" -v tsv="$out/logs/$s-llc/$topo/llc.tsv" '
		BEGIN {
			while ((getline l < tsv) > 0) {
				nf = split(l, f, "\t")
				if (f[1] == "window") { for (i = 1; i <= nf; i++) c[f[i]] = i; continue }
				if (l ~ /^#/ || (f[3] != "all" && f[3] != "user")) continue
				sp = f[1] SUBSEP f[3]
				acc[sp] += f[c["accesses"]]; miss[sp] += f[c["misses"]]
				xin[sp] += f[c["xfer_in"]]; fill[sp] += f[c["mem_fills"]]
			}
		}
		{
			id = $2; w = $3; secs = $4
			if (!((id, "all") in acc) || !acc[id, "all"] || !((id, "user") in acc) || secs <= 0) {
				print "bench: window " id " (" w ") has no counts of both spaces in " tsv > "/dev/stderr"
				bad = 1; next
			}
			for (p = 0; p < 2; p++) {
				sp = p ? "user" : "all"; pre = p ? "user_" : ""
				printf "%s\t%s\t%sllc_misses_per_kacc\t%.3f\n", k, w, pre,
					acc[id, sp] ? 1000 * miss[id, sp] / acc[id, sp] : 0
				printf "%s\t%s\t%sllc_transfers_per_s\t%.1f\n", k, w, pre, xin[id, sp] / secs
				printf "%s\t%s\t%smem_fills_per_s\t%.1f\n", k, w, pre, fill[id, sp] / secs
			}
		}
		END { exit bad }' >>"$out/raw.tsv" || die "$s: the model's counts are incomplete"
	awk -v k="$s" '$1 == "metric" && ($3 == "top_llc_share_pct" || $3 == "apart_llc_share_pct") {
		printf "%s\t%s\t%s-llc\t%s\n", k, $2, $3, $4 }' "$out/$s-llc.log" >>"$out/raw.tsv"
	n=$(awk -F'\t' -v k="$s" '$1 == k && $3 == "top_llc_share_pct-llc"' "$out/raw.tsv" | wc -l)
	[ "$n" = $(( runs * $(echo $MODELED | wc -w) - runs )) ] ||
		die "$s under the cache model: $n placements reported, $(( runs * $(echo $MODELED | wc -w) - runs )) expected (see $out/$s-llc.log)"
done

# median, min and max over the runs, for the metrics in METRICS only; a
# figure that any run reported invalid (the trace overflowed) is invalid
printf 'kernel\tworkload\tmetric\tmedian\tmin\tmax\n' >"$out/results.tsv"
sort -t"$(printf '\t')" -k1,1 -k2,2 -k3,3 -k4,4g "$out/raw.tsv" |
	awk -F'\t' -v list="$METRICS" '
	BEGIN { n = split(list, l, /[ \n]+/); for (i = 1; i <= n; i++) ok[l[i]] = 1 }
	function flush() {
		if (bad)
			printf "%s\tinvalid\tinvalid\tinvalid\n", key
		else if (cnt) {
			med = cnt % 2 ? v[(cnt + 1) / 2] : (v[cnt / 2] + v[cnt / 2 + 1]) / 2
			printf "%s\t%.2f\t%.2f\t%.2f\n", key, med, v[1], v[cnt]
		}
		cnt = bad = 0
	}
	!($3 in ok) { next }
	{ k = $1 "\t" $2 "\t" $3; if (k != key) { flush(); key = k } }
	$4 == "invalid" { bad = 1; next }
	{ v[++cnt] = $4 }
	END { flush() }' >"$out/results.tsv.body"
# kernels in the order none, v1, v2
for s in $KERNELS; do
	awk -F'\t' -v k="$s" '$1 == k' "$out/results.tsv.body"
done >>"$out/results.tsv"
rm -f "$out/results.tsv.body"
for s in $KERNELS; do
	n=$(awk -F'\t' -v k="$s" '$1 == k' "$out/results.tsv" | wc -l)
	[ "$n" -gt 0 ] || die "no figures from $s in $out/$s.log"
done

# What these figures are of: the project commit (and whether the checkout
# had local changes, as it was when the bench started), and each kernel as
# its guest named it: the release carries the identity of the code it was
# built from (qemu/identity.sh)
{
	printf 'TOPOLOGY=%s\nRUNS=%s\nSECS=%s\n' "$topo" "$runs" "$SECS"
	printf 'MODEL=%q\n' "$([ "$model" = 0 ] && echo none || echo "llc, ${MODEL_SECS}s a workload, $(head -1 "$out/logs/none-llc/$topo/llc.tsv" | sed 's/^# cas llc model: //')")"
	printf 'COMMIT=%s\n' "$commit"
	printf 'APPEND=%q\n' "$append"
	printf 'LAT_BOOTS=%s\n' "$LAT_BOOTS"
	# the bench's own code as it was when its programs were built
	printf '%s\n' "$code"
	for s in $KERNELS; do
		rel=$(provenance_release "$out/$s.log" "$s")
		printf 'KERNEL_%s=%s\nSERIES_%s=%s\n' "$s" "$rel" "$s" "${rel##*-cas-}"
	done
	printf 'CAVEAT=%q\n' "$CAVEAT"
} >"$out/run.env"
# The report's checks (TAP, in checks.tap) are kept, and whether they all
# passed, so that make rfc quotes no bench whose checks failed
# (qemu/bench-accept.sh)
rc=0
"$top/qemu/bench-report.sh" "$out" >"$out/report.txt" || rc=$?
cat "$out/report.txt"
[ -s "$out/checks.tap" ] || rc=1
printf 'CHECKS=%s\n' "$([ $rc = 0 ] && echo passed || echo failed)" >>"$out/run.env"
exit $rc
