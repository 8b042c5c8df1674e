#!/bin/bash
# What a measurement is of, for the scripts that record one (bench.sh,
# sweep.sh): sourced, after the caller has defined die().
#
#   provenance_commit TOP      the project's commit, with "+local-changes"
#                              when the series, tests or harness differ
#                              from it (the checkout as it is now)
#   provenance_release LOG S   the release the guest of series S printed
#                              in LOG ("# cas: RELEASE ..."), which names
#                              the code it was built from (qemu/identity.sh)

provenance_commit() {
	local c
	c=$(git -C "$1" rev-parse --short HEAD 2>/dev/null || echo unknown)
	[ -z "$(git -C "$1" status --porcelain -- series-v1 series-v2 tests qemu 2>/dev/null)" ] ||
		c="$c+local-changes"
	echo "$c"
}

provenance_release() {
	local rel
	rel=$(tr -d '\r' <"$1" | sed -n 's/^# cas: \([^ ]*\) .*/\1/p' | head -1)
	case $rel in
	*-cas-*) echo "$rel" ;;
	*) die "the $2 guest reported release '$rel', which names no code (see $1)" ;;
	esac
}
