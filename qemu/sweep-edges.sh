#!/bin/bash
# The load sweep's cells near an edge (qemu/sweep-judge.awk), judged on the
# first boot of each kernel, as "T D B" lines for the next boots to rerun.
#
#   qemu/sweep-edges.sh RAW_TSV CELLS_OF_BOOT_1 TOPOLOGY SECS
set -eu

raw=$1 cells=$2 topo=$3 secs=$4
top=$(cd "$(dirname "$0")/.." && pwd)
IFS=x read -r _ _ cores smt <<<"$topo"
duties=$(awk '{ print $2 }' "$cells" | sort -nu | tr '\n' ' ')
bursts=$(awk '{ print $3 }' "$cells" | sort -nu | tr '\n' ' ')
awk -F'\t' '$2 == 1' "$raw" |
	awk -F'\t' -v duties="$duties" -v bursts="$bursts" -v llc_cpus=$((cores * ${smt:-1})) \
		-v llc_cores="$cores" -v secs="$secs" -f "$top/qemu/sweep-judge.awk" |
	awk -F'\t' '$NF == 1 { print $2, $3, $4 }'
