#!/bin/bash
# make bench: boot the unpatched kernel, v1 and v2 in turn on one topology,
# run tests/bench/cas-bench's workloads RUNS times in each boot, and write
#   BUILD/bench/results.tsv    kernel workload metric median min max
#   BUILD/bench/table.txt      the same, side by side, for the cover letter
#   BUILD/bench/occupancy.png  threads per LLC over time, fit and saturate
#   BUILD/bench/run.env        topology, runs, seconds, the project commit, the
#                              kernels measured (release and code identity),
#                              the kernel command line added (no KUnit suite
#                              runs), the caveat, and CHECKS=passed|failed
#   BUILD/bench/checks.tap     the checks below
# then check what v2 must show against the others (TAP; exit 1 if not).
#
#   qemu/bench.sh BUILD TOPOLOGY RUNS
set -eu

b=$1 topo=$2 runs=$3
top=$(cd "$(dirname "$0")/.." && pwd)
out=$b/bench
SECS=${SECS:-10}
SETTLE=${SETTLE:-10}
KERNELS="none v1 v2"
# The metric names results.tsv may carry (the issue's list)
METRICS="top_llc_share_pct llc_migrations_per_s lb_llc_migrations_per_s
wakeup_llc_migrations_per_s pref_llc_changes_per_s scans_per_mm_per_s oncpu_pct
runq_wait_pct ops_per_s p50_us p90_us p99_us time_s distinct_pref_llcs scan_cpu_pct"
CAVEAT="QEMU TCG does not model caches: these are placement and overhead figures, not cache-miss figures; under TCG operations per second are bound by the host."
die() { printf 'bench: error: %s\n' "$*" >&2; exit 2; }
# No KUnit suite runs in a benchmark boot (kunit.enable=0; only v2 has one):
# on 2x1x4, where v2 is inert, booting with its suite run doubled
# hackbench's cross-LLC wakeups; without it they matched the unpatched
# kernel's (CHANGELOG, patch 8 notes).
append="kunit.enable=0${APPEND:+ $APPEND}"

case $runs in ''|*[!0-9]*|0) die "RUNS=$runs: give a positive number of runs" ;; esac
[ -x "$b/bench-guest/cas-bench" ] || die "no $b/bench-guest/cas-bench (make bench builds it)"
for s in $KERNELS; do
	[ -f "$b/out-$s/arch/x86/boot/bzImage" ] || die "no kernel for SERIES=$s: run 'make kernel SERIES=$s'"
done
hb=$(command -v hackbench) || die "hackbench not found: install package rt-tests (run 'make deps')"
command -v gnuplot >/dev/null || die "gnuplot not found: install package gnuplot-nox (run 'make deps')"

# the checkout as it is now, when the bench's programs were just built
. "$top/qemu/provenance.sh"
commit=$(provenance_commit "$top")

rm -rf "$out"
mkdir -p "$out/extra/lib" "$out/empty"
cp "$b/bench-guest/cas-bench" "$out/extra/"
cp "$hb" "$out/extra/hackbench"
# hackbench is dynamically linked: its libraries and loader go along
ldd "$hb" | awk '$2 == "=>" && $3 ~ /^\// { print $3 } $1 ~ /^\// { print $1 }' |
	while read -r lib; do cp -L "$lib" "$out/extra/lib/"; done
cat >"$out/extra/run" <<EOS
#!/bin/sh
set -e
mkdir -p /lib64 /lib/x86_64-linux-gnu
for l in /extra/lib/*; do
	ln -sf "\$l" /lib64/
	ln -sf "\$l" /lib/x86_64-linux-gnu/
done
sleep $SETTLE
r=1
while [ \$r -le $runs ]; do
	echo "# run \$r of $runs"
	for w in fit ring saturate pair latency; do
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
	printf 'COMMIT=%s\n' "$commit"
	printf 'APPEND=%q\n' "$append"
	for s in $KERNELS; do
		rel=$(provenance_release "$out/$s.log" "$s")
		printf 'KERNEL_%s=%s\nSERIES_%s=%s\n' "$s" "$rel" "$s" "${rel##*-cas-}"
	done
	printf 'CAVEAT=%q\n' "$CAVEAT"
} >"$out/run.env"
# The report's checks (TAP) are kept, and whether they all passed, so that
# make rfc quotes no bench whose checks failed (qemu/bench-accept.sh)
rc=0
"$top/qemu/bench-report.sh" "$out" >"$out/report.txt" || rc=$?
cat "$out/report.txt"
sed -n '/^TAP version/,$p' "$out/report.txt" >"$out/checks.tap"
[ -s "$out/checks.tap" ] || rc=1
printf 'CHECKS=%s\n' "$([ $rc = 0 ] && echo passed || echo failed)" >>"$out/run.env"
exit $rc
