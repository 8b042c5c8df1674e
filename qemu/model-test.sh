#!/bin/bash
# The cache model's self-test: tests/model.c (and the short topology
# test, so that the boot without the model passes something) booted once
# without the model and once with it (qemu/plugins/llc.c), on 2x2x4, then
# with it on 1x2x4x2 (SMT siblings in the map); the modeled boots' counts
# and geometry are judged by qemu/verdict.sh (qemu/model-judge.sh).
# 2x2x4 has four LLCs, so the three-LLC case runs there; 1x2x4x2 has two,
# where it skips (tests/expect.tsv). Prints
# the model's slowdown: the host time of the same boot with it and without.
#
#   qemu/model-test.sh KERNEL INITRAMFS LOGROOT PLUGIN
set -eu

kernel=$1 initrd=$2 logroot=$3 plugin=$4
top=$(cd "$(dirname "$0")/.." && pwd)
die() { printf 'model-test: error: %s\n' "$*" >&2; exit 1; }
[ -f "$plugin" ] || die "$plugin not found (run 'make plugin')"

now() { date +%s.%N; }
t0=$(now)
"$top/qemu/boot-test.sh" "$kernel" "$initrd" "$logroot/plain" topology,model 2x2x4 ||
	die "the boot without the model failed (logs in $logroot/plain)"
t1=$(now)
LLC_PLUGIN=$plugin "$top/qemu/boot-test.sh" "$kernel" "$initrd" "$logroot/llc" topology,model 2x2x4 ||
	die "the boot under the model failed (logs in $logroot/llc)"
t2=$(now)
awk -v a="$t0" -v b="$t1" -v c="$t2" 'BEGIN {
	printf "model-test: host time of the boot %.0f s without the model, %.0f s with it: slowdown %.2fx\n",
		b - a, c - b, (c - b) / (b - a) }'
# and on SMT (two LLCs of 4 cores and 8 CPUs each): the vCPU to LLC map
# with siblings, which the guest's shared CPU lists must match
LLC_PLUGIN=$plugin "$top/qemu/boot-test.sh" "$kernel" "$initrd" "$logroot/llc" topology,model 1x2x4x2 ||
	die "the boot under the model on 1x2x4x2 failed (logs in $logroot/llc)"
