#!/bin/bash
# A quick comparison of the three kernels: boot the unpatched kernel, v1
# and v2 in turn on one topology, run tests/bench/cas-bench's fit and
# saturate workloads once in each boot, and judge them by make bench's
# checks of those two workloads (tests/bench/checks.tsv, with the control;
# qemu/bench-checks.sh). One run each: make bench, with its RUNS and
# spread, is what a posting quotes.
#
#   qemu/lb-compare.sh BUILD TOPOLOGY
#
# Prints TAP; the figures go to BUILD/lb-compare/results.tsv (make bench's
# format: median, min and max are the one run's value).
set -eu

b=$1 topo=$2
top=$(cd "$(dirname "$0")/.." && pwd)
out=$b/lb-compare
SECS=${SECS:-10}
die() { printf 'lb-compare: error: %s\n' "$*" >&2; exit 2; }

[ -x "$b/bench-guest/cas-bench" ] || die "no $b/bench-guest/cas-bench (make lb-compare builds it)"
for s in none v1 v2; do
	[ -f "$b/out-$s/arch/x86/boot/bzImage" ] || die "no kernel for SERIES=$s: run 'make kernel SERIES=$s'"
done
rm -rf "$out"
mkdir -p "$out/extra"
cp "$b/bench-guest/cas-bench" "$out/extra/"
cat >"$out/extra/run" <<EOS
#!/bin/sh
set -e
sleep \${SETTLE:-10}
./cas-bench fit $SECS
./cas-bench saturate $SECS
EOS
chmod +x "$out/extra/run"
mkdir -p "$out/empty"
"$top/qemu/initramfs.sh" "$out/initramfs.cpio.gz" "$out/empty" "$out/extra"

# measured as make bench measures: no KUnit suite runs in the boot
printf 'kernel\tworkload\tmetric\tmedian\tmin\tmax\n' >"$out/results.tsv"
for s in none v1 v2; do
	APPEND="kunit.enable=0 cas.series=$s cas.config=base${APPEND:+ $APPEND}" \
	"$top/qemu/boot-test.sh" "$b/out-$s/arch/x86/boot/bzImage" "$out/initramfs.cpio.gz" \
		"$out/logs/$s" none "$topo" >"$out/boot-$s.log" 2>&1 ||
		die "the $s boot failed: see $out/boot-$s.log and $out/logs/$s/$topo"
	tr -d '\r' <"$out/logs/$s/$topo/results.log" |
		awk -v k="$s" '$1 == "metric" { printf "%s\t%s\t%s\t%s\t%s\t%s\n", k, $2, $3, $4, $4, $4 }' \
		>>"$out/results.tsv"
done
sed 's/^/# /' "$out/results.tsv"

# make bench's checks of fit and saturate
awk -F'\t' '/^#/ || $2 == "fit" || $2 == "saturate"' "$top/tests/bench/checks.tsv" >"$out/checks.tsv"
exec "$top/qemu/bench-checks.sh" "$out/results.tsv" "$out/checks.tsv"
