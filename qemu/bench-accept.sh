#!/bin/bash
# Whether a make bench folder may be quoted for a series: its checks all
# passed, and the v2 kernel it booted was built from the code whose
# identity (qemu/identity.sh) is given.
#
#   qemu/bench-accept.sh BENCH_DIR IDENTITY
#
# Reads BENCH_DIR/run.env (KERNEL_v2: the release the v2 guest printed;
# SERIES_v2: the identity in it; CHECKS: passed or failed),
# BENCH_DIR/checks.tap, and BENCH_DIR/results.tsv, judged again by today's
# tests/bench/checks.tsv, which must give checks.tap exactly. Exit 0
# and one line saying what was measured, or exit 1 and why not.
set -eu

top=$(cd "$(dirname "$0")/.." && pwd)
dir=${1:?usage: qemu/bench-accept.sh BENCH_DIR IDENTITY} want=${2:?usage: qemu/bench-accept.sh BENCH_DIR IDENTITY}
no() { printf 'bench-accept: %s: %s\n' "$dir" "$*" >&2; exit 1; }

[ -s "$dir/run.env" ] || no "no run.env (not a make bench folder)"
got=$(sed -n 's/^SERIES_v2=//p' "$dir/run.env")
rel=$(sed -n 's/^KERNEL_v2=//p' "$dir/run.env")
checks=$(sed -n 's/^CHECKS=//p' "$dir/run.env")
# SERIES_v2 is the identity in the release the v2 guest printed; a run.env
# without that release is from before kernels named their code (its
# SERIES_v2 was a hash of the patch files)
[ -n "$got" ] && [ "${rel##*-cas-}" = "$got" ] ||
	no "run.env names no v2 identity (no KERNEL_v2 release carrying SERIES_v2): a bench from before kernels named their code; run 'make bench'"
[ "$got" = "$want" ] ||
	no "measured v2 $got, but the series is $want: run 'make bench' on this series"
[ -s "$dir/checks.tap" ] || no "no checks.tap: the bench's checks were not recorded"
grep -q '^not ok' "$dir/checks.tap" && no "its checks failed:
$(grep '^not ok' "$dir/checks.tap")"
# a skipped check passed nothing (BENCH_MODEL=0: no cache model figures)
grep -q '# SKIP' "$dir/checks.tap" && no "it skipped checks:
$(grep '# SKIP' "$dir/checks.tap")"
[ "$checks" = passed ] || no "run.env says CHECKS=${checks:-(none)}, not passed"
# the stored verdict is what today's checks make of the stored figures: a
# check changed since (a stat, a bound) is judged again, not trusted
[ -s "$dir/results.tsv" ] || no "no results.tsv: its figures cannot be judged again"
now=$(mktemp)
trap 'rm -f "$now"' EXIT
if ! "$top/qemu/bench-checks.sh" "$dir/results.tsv" >"$now" 2>&1 ||
   ! cmp -s "$dir/checks.tap" "$now"; then
	no "its checks.tap is not what tests/bench/checks.tsv makes of its results.tsv now:
$(diff "$dir/checks.tap" "$now" | grep '^[<>]' | cut -c1-160 | head -8)
  (a check changed since the bench: write its verdict again with
   qemu/bench-checks.sh $dir/results.tsv >$dir/checks.tap, or run 'make bench')"
fi
echo "bench-accept: $dir: v2 $got, every check passed"
