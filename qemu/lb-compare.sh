#!/bin/bash
# Boot the unpatched kernel, v1 and v2 in turn on one topology with the
# same workloads (tests/bench/cas-bench), then compare them:
#   bounce    (the fit workload) v2's load-balancer migrations out of the home LLC per second
#             at most BOUNCE_MAX_PCT percent of v1's
#   saturate  v2's on-CPU time at least SAT_MIN_PCT percent of the
#             unpatched kernel's
#
#   qemu/lb-compare.sh BUILD TOPOLOGY
#
# Prints TAP; the per-kernel figures go to BUILD/lb-compare/metrics.tsv.
set -eu

b=$1 topo=$2
top=$(cd "$(dirname "$0")/.." && pwd)
out=$b/lb-compare
SECS=${SECS:-10}
# The issue's figures: v2 at most 20% of v1, within 5% of unpatched.
BOUNCE_MAX_PCT=20
SAT_MIN_PCT=95
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

printf 'kernel\tworkload\tmetric\tvalue\n' >"$out/metrics.tsv"
for s in none v1 v2; do
	"$top/qemu/boot-test.sh" "$b/out-$s/arch/x86/boot/bzImage" "$out/initramfs.cpio.gz" \
		"$out/logs/$s" none "$topo" >"$out/boot-$s.log" 2>&1 ||
		die "the $s boot failed: see $out/boot-$s.log and $out/logs/$s/$topo"
	tr -d '\r' <"$out/logs/$s/$topo/results.log" |
		awk -v k="$s" '$1 == "metric" { printf "%s\t%s\t%s\t%s\n", k, $2, $3, $4 }' >>"$out/metrics.tsv"
done

get() { awk -F'\t' -v k="$1" -v w="$2" -v m="$3" '$1 == k && $2 == w && $3 == m { print $4 }' "$out/metrics.tsv"; }
v1b=$(get v1 fit lb_out_of_home_per_s) v2b=$(get v2 fit lb_out_of_home_per_s)
nos=$(get none saturate oncpu_pct) v2s=$(get v2 saturate oncpu_pct)
for v in "$v1b" "$v2b" "$nos" "$v2s"; do
	[ -n "$v" ] || die "a figure is missing from $out/metrics.tsv"
done

echo "TAP version 13"
echo "1..2"
sed "s/^/# /" "$out/metrics.tsv"
rc=0
if awk -v a="$v2b" -v b="$v1b" -v p=$BOUNCE_MAX_PCT 'BEGIN { exit !(b > 0 && a * 100 <= b * p) }'; then
	echo "ok 1 bounce: v2 $v2b/s load-balancer moves out of the home LLC, v1 $v1b/s (at most ${BOUNCE_MAX_PCT}%)"
else
	echo "not ok 1 bounce: v2 $v2b/s load-balancer moves out of the home LLC, v1 $v1b/s (at most ${BOUNCE_MAX_PCT}%; v1 must show some)"
	rc=1
fi
if awk -v a="$v2s" -v b="$nos" -v p=$SAT_MIN_PCT 'BEGIN { exit !(a * 100 >= b * p) }'; then
	echo "ok 2 saturate: v2 on-CPU $v2s%, unpatched $nos% (at least ${SAT_MIN_PCT}%)"
else
	echo "not ok 2 saturate: v2 on-CPU $v2s%, unpatched $nos% (at least ${SAT_MIN_PCT}%)"
	rc=1
fi
exit $rc
