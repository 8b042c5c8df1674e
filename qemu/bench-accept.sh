#!/bin/bash
# Whether a make bench folder may be quoted for a series: its checks all
# passed, and the v2 kernel it booted was built from the code whose
# identity (qemu/identity.sh) is given.
#
#   qemu/bench-accept.sh BENCH_DIR IDENTITY
#
# Reads BENCH_DIR/run.env (KERNEL_v2: the release the v2 guest printed;
# SERIES_v2: the identity in it; CHECKS: passed or failed; BENCH_CODE and
# its "# code:" lines: the bench's own code, qemu/bench-code.sh, which must
# be the tree's: a workload, the runner or the cache model changed since
# measured something else),
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
# the code that made the figures is the tree's (qemu/bench-code.sh)
code=$(sed -n 's/^BENCH_CODE=//p' "$dir/run.env")
[ -n "$code" ] ||
	no "run.env records no hash of the bench's code (BENCH_CODE): a bench from before it was recorded; run 'make bench'"
then=$(grep '^# code: ' "$dir/run.env" || true)
[ "$(printf '%s\n' "$then" | sha256sum | cut -c1-12)" = "$code" ] ||
	no "run.env's list of the bench's code (# code: lines) does not give its BENCH_CODE $code: the record was edited"
tree=$("$top/qemu/bench-code.sh" "$top" | grep '^# code: ')
if [ "$then" != "$tree" ]; then
	changed=$(LC_ALL=C join -j 4 -a 1 -a 2 -e - -o 0,1.3,2.3 <(printf '%s\n' "$then" | LC_ALL=C sort -k4) \
		<(printf '%s\n' "$tree" | LC_ALL=C sort -k4) | awk '
		$2 == "-" { print "  " $1 ": new since the bench"; next }
		$3 == "-" { print "  " $1 ": gone since the bench"; next }
		$2 != $3 { print "  " $1 ": changed since the bench" }')
	no "the bench's code is not the tree's (BENCH_CODE $code):
$changed
  (its figures are of other code: run 'make bench')"
fi
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
echo "bench-accept: $dir: v2 $got, bench code $code, every check passed"
