#!/bin/bash
# The code that makes make bench's figures, hashed, for run.env: a bench
# whose code changed since it ran measured something else, and
# qemu/bench-accept.sh refuses it (audit-v3 T15).
#
#   qemu/bench-code.sh TOP
#
# Prints run.env lines: BENCH_CODE=<hash of the list> and the list, one
# "# code: SHA256 PATH" comment a file (run.env is sourced: comments
# pass). The files: the workloads (tests/bench/*.c and the tests/lib/
# headers they are built with, as the Makefile's rule has them), the
# bench's runner qemu/bench.sh, and the cache model (qemu/plugins/). Not
# in it, because acceptance runs them again on the stored figures rather
# than trusting the stored verdict: tests/bench/checks.tsv and the scripts
# that judge and print (qemu/bench-checks.sh, bench-accept.sh,
# bench-report.sh, bench-table.sh, this one); nor tests/bench/README.md.
set -eu

top=${1:?usage: qemu/bench-code.sh TOP}
cd "$top"
files=(tests/bench/*.c tests/lib/*.h qemu/bench.sh qemu/plugins/*)
for f in "${files[@]}"; do
	[ -f "$f" ] || { printf 'bench-code: error: no %s in %s\n' "$f" "$top" >&2; exit 2; }
done
list=$(for f in "${files[@]}"; do
	printf '# code: %s %s\n' "$(sha256sum <"$f" | cut -c1-64)" "$f"
done | LC_ALL=C sort -k4)
printf 'BENCH_CODE=%s\n%s\n' "$(printf '%s\n' "$list" | sha256sum | cut -c1-12)" "$list"
