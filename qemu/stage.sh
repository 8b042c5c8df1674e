#!/bin/bash
# Run one stage of make test or make test-full and say how long it took,
# so that a CI log shows where its time went (make test should take under
# an hour cold).
#
#   qemu/stage.sh NAME COMMAND [ARG...]
#
# Prints "stage NAME: passed in MmSSs" or "stage NAME: FAILED (exit N)
# after MmSSs" and exits with the command's status.
set -eu

name=${1:?usage: qemu/stage.sh NAME COMMAND [ARG...]}
shift
[ $# -gt 0 ] || { echo "stage: error: no command for stage $name" >&2; exit 2; }
t0=$(date +%s)
rc=0
"$@" || rc=$?
t=$(($(date +%s) - t0))
if [ "$rc" = 0 ]; then
	printf 'stage %s: passed in %dm%02ds\n' "$name" $((t / 60)) $((t % 60))
else
	printf 'stage %s: FAILED (exit %d) after %dm%02ds\n' "$name" "$rc" $((t / 60)) $((t % 60))
fi
exit "$rc"
