#!/bin/bash
# Whether a recorded debug-kernel run (qemu/debug-record.sh) vouches for a
# series: the v2 kernel it booted was built from the code whose identity
# (qemu/identity.sh) is given, and its verdict passed.
#
#   qemu/debug-accept.sh DIR IDENTITY
#
# Exit 0 and one line saying what ran, or exit 1 and why not.
set -eu

dir=${1:?usage: qemu/debug-accept.sh DIR IDENTITY} want=${2:?usage: qemu/debug-accept.sh DIR IDENTITY}
no() { printf 'debug-accept: %s: %s\n' "$dir" "$*" >&2; exit 1; }

[ -s "$dir/run.env" ] || no "no run.env (no recorded debug-kernel run)"
get() { sed -n "s/^$1=//p" "$dir/run.env"; }
rel=$(get KERNEL_v2) got=$(get SERIES_v2)
[ -n "$got" ] && [ "${rel##*-cas-}" = "$got" ] || no "run.env names no v2 identity"
[ "$got" = "$want" ] || no "the debug kernel ran v2 $got, but the series is $want: run 'make debug-check'"
[ "$(get CONFIG)" = debug ] || no "run.env says CONFIG=$(get CONFIG), not debug"
[ "$(get VERDICT)" = passed ] && tail -1 "$dir/verdict.log" 2>/dev/null | grep -qx 'verdict: PASS' ||
	no "its verdict did not pass"
# the storms are what the sanitizers are there for: run, at full counts
[ "$(get STRESS)" = full ] || no "its storms ran at STRESS=$(get STRESS) counts, not full"
grep -qx 'ok [0-9]* stress' "$dir/results.ktap" 2>/dev/null ||
	no "its results have no passing stress run (TESTS=$(get TESTS))"
echo "debug-accept: $dir: v2 $got passed on the debug kernel ($(get TOPOLOGY), stress $(get STRESS), $(get DATE))"
