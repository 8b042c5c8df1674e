#!/bin/bash
# Record a passing boot of the debug kernel (CONFIG=debug: KASAN, UBSAN,
# kmemleak, lockdep, full preemption) as evidence for the posting.
#
#   qemu/debug-record.sh LOGDIR OUTDIR
#
# LOGDIR is a boot's log folder (make boot-test SERIES=v2 CONFIG=debug)
# whose verdict passed. Writes OUTDIR/run.env (KERNEL_v2: the release the
# guest printed; SERIES_v2: the code identity in it; CONFIG, TOPOLOGY,
# STRESS, TESTS from the guest's header; COMMIT; DATE) and keeps the
# guest's results (results.ktap) and the verdict beside it. A boot that
# did not pass, or of another config than debug, is refused: nothing is
# written.
set -eu

logdir=${1:?usage: qemu/debug-record.sh LOGDIR OUTDIR} out=${2:?usage: qemu/debug-record.sh LOGDIR OUTDIR}
top=$(cd "$(dirname "$0")/.." && pwd)
die() { printf 'debug-record: error: %s\n' "$*" >&2; exit 1; }
. "$top/qemu/provenance.sh"

[ -s "$logdir/verdict.log" ] || die "no $logdir/verdict.log: boot it first (make debug-check)"
tail -1 "$logdir/verdict.log" | grep -qx 'verdict: PASS' ||
	die "the boot in $logdir did not pass: $(grep -m1 'verdict: FAIL' "$logdir/verdict.log")"
hdr=$(grep -m1 '^# cas: ' "$logdir/results.ktap") || die "no guest header in $logdir/results.ktap"
field() { printf '%s\n' "$hdr" | tr ' ' '\n' | sed -n "s/^$1=//p"; }
[ "$(field config)" = debug ] || die "$logdir is a boot of config=$(field config), not the debug kernel"
rel=$(provenance_release "$logdir/results.ktap" v2)
stress=$(grep -m1 -o 'cas.stress=[a-z]*' "$logdir/qemu.cmd" 2>/dev/null | cut -d= -f2)

mkdir -p "$out"
cp "$logdir/results.ktap" "$out/results.ktap"
cp "$logdir/verdict.log" "$out/verdict.log"
{
	echo "KERNEL_v2=$rel"
	echo "SERIES_v2=${rel##*-cas-}"
	echo "SERIES=$(field series)"
	echo "CONFIG=debug"
	echo "TOPOLOGY=$(field topology)"
	echo "TESTS=$(field tests)"
	echo "STRESS=${stress:-unknown}"
	echo "COMMIT=$(provenance_commit "$top")"
	echo "DATE=$(date -u +%Y-%m-%dT%H:%MZ)"
	echo "VERDICT=passed"
} >"$out/run.env"
echo "debug-record: $out: $rel on $(field topology), stress $stress, passed"
