#!/bin/bash
# make sweep: the load sweep. A grid of processes (tests/bench/cas-bench's
# sweep-T-D-B: T threads, each on-CPU about D% of the time in bursts of
# B ms) run on the unpatched kernel and on v2, one cell after another in
# one boot of each kernel, the two kernels booted side by side (one QEMU per
# core). The first round runs every cell; the cells its results put near
# an edge (qemu/sweep-edges.sh) run again in BOOTS - 1 more boots of each
# kernel, and the report judges each cell by its worst boot.
#
#   qemu/sweep.sh BUILD TOPOLOGY BOOTS
#
# Writes BUILD/sweep/TOPOLOGY/: raw.tsv (kernel boot workload metric value:
# cas-bench's figures, and llc_moves_seen_w0, w1, ...: the threads its
# placement samples, every 100 ms, saw in another LLC than at the sample
# before, in each 2 s window of the measured seconds), then
# qemu/sweep-report.sh's results.tsv, heatmaps and checks.tap, and
# run.env (what was measured: kernels, commit, grid, time taken).
set -eu

b=$1 topo=$2 boots=$3
top=$(cd "$(dirname "$0")/.." && pwd)
out=$b/sweep/$topo
SECS=${SWEEP_SECS:-6}
KERNELS="none v2"
# on-CPU share per thread (%) and burst length (ms); D 100 never sleeps,
# so it runs with the first burst length only
DUTIES="10 25 40 55 70 85 100"
BURSTS="1 2 4"
die() { printf 'sweep: error: %s\n' "$*" >&2; exit 2; }

case $boots in ''|*[!0-9]*|0) die "BOOTS=$boots: give a positive number of boots" ;; esac
case $SECS in ''|*[!0-9]*|0) die "SWEEP_SECS=$SECS: give a positive whole number of seconds" ;; esac
"$top/qemu/topology.sh" "$topo" 1 >/dev/null || exit 2
[ -x "$b/bench-guest/cas-bench" ] || die "no $b/bench-guest/cas-bench (make sweep builds it)"
for s in $KERNELS; do
	[ -f "$b/out-$s/arch/x86/boot/bzImage" ] || die "no kernel for SERIES=$s: run 'make kernel SERIES=$s'"
done
command -v gnuplot >/dev/null || die "gnuplot not found: install package gnuplot-nox (run 'make deps')"

# threads: 1 up to the LLC's CPUs plus two
IFS=x read -r _ _ cores smt <<<"$topo"
llc_cpus=$((cores * ${smt:-1}))

. "$top/qemu/provenance.sh"
commit=$(provenance_commit "$top")

rm -rf "$out"
mkdir -p "$out"
for t in $(seq 1 $((llc_cpus + 2))); do
	for d in $DUTIES; do
		for bu in $BURSTS; do
			echo "$t $d $bu"
			[ "$d" != 100 ] || break
		done
	done
done >"$out/cells-1"

# One round: every kernel booted once, side by side, on the cells listed
round() {
	local r=$1 cells=$out/cells-$1 s pids=() n
	n=$(wc -l <"$cells")
	mkdir -p "$out/round-$r/extra" "$out/round-$r/empty"
	cp "$b/bench-guest/cas-bench" "$out/round-$r/extra/"
	cp "$cells" "$out/round-$r/extra/cells"
	cat >"$out/round-$r/extra/run" <<EOS
#!/bin/sh
set -e
sleep 5
while read -r t d b; do
	./cas-bench sweep-\$t-\$d-\$b $SECS occ
done </extra/cells
EOS
	chmod +x "$out/round-$r/extra/run"
	"$top/qemu/initramfs.sh" "$out/round-$r/initramfs.cpio.gz" "$out/round-$r/empty" \
		"$out/round-$r/extra"
	echo "sweep: $topo boot $r of $boots: $n cells of ${SECS}s on $KERNELS side by side"
	for s in $KERNELS; do
		APPEND="kunit.enable=0 cas.series=$s cas.config=base" \
		TIMEOUT=$((600 + n * (SECS + 8) * 2)) GUEST_TIMEOUT=$((300 + n * (SECS + 8) * 2)) \
		"$top/qemu/boot-test.sh" "$b/out-$s/arch/x86/boot/bzImage" \
			"$out/round-$r/initramfs.cpio.gz" "$out/round-$r/logs/$s" none "$topo" \
			>"$out/round-$r/boot-$s.log" 2>&1 &
		pids+=($!)
	done
	for i in "${!pids[@]}"; do
		s=$(echo $KERNELS | cut -d' ' -f$((i + 1)))
		wait "${pids[$i]}" ||
			die "the $s boot $r failed: see $out/round-$r/boot-$s.log and $out/round-$r/logs/$s/$topo"
		tr -d '\r' <"$out/round-$r/logs/$s/$topo/results.log" |
			awk -v k="$s" -v r="$r" -v nwin=$(( (SECS + 1) / 2 )) -f "$top/qemu/sweep-raw.awk" \
			>>"$out/raw.tsv"
		provenance_release "$out/round-$r/logs/$s/$topo/results.log" "$s" >"$out/release-$s"
	done
}

start=$(date +%s)
: >"$out/raw.tsv"
round 1
for r in $(seq 2 "$boots"); do
	"$top/qemu/sweep-edges.sh" "$out/raw.tsv" "$out/cells-1" "$topo" "$SECS" >"$out/cells-$r"
	[ -s "$out/cells-$r" ] || { echo "sweep: no cell near an edge: one boot is enough"; break; }
	round "$r"
done

{
	printf 'TOPOLOGY=%s\nBOOTS=%s\nSECS=%s\n' "$topo" "$boots" "$SECS"
	printf 'DUTIES=%q\nBURSTS=%q\nTHREADS=%q\n' "$DUTIES" "$BURSTS" "1-$((llc_cpus + 2))"
	printf 'COMMIT=%s\n' "$commit"
	for s in $KERNELS; do
		rel=$(cat "$out/release-$s")
		printf 'KERNEL_%s=%s\nSERIES_%s=%s\n' "$s" "$rel" "$s" "${rel##*-cas-}"
	done
	printf 'MINUTES=%s\n' "$(( ($(date +%s) - start + 59) / 60 ))"
} >"$out/run.env"
exec "$top/qemu/sweep-report.sh" "$out"
