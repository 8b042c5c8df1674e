#!/bin/bash
# Self-test of our Coccinelle rules: each cocci/RULE.cocci must report on
# cocci/tests/RULE-bad.c at least once and stay quiet
# on cocci/tests/RULE-good.c. A rule without both examples fails.
#
#   checks/cocci-selftest.sh
set -eu
me=cocci-selftest
. "$(dirname "$0")/lib.sh"
need_tool spatch coccinelle
SPATCH_VERSION=$(spatch --version | head -1); export SPATCH_VERSION

fail=0 n=0
for rule in "$top"/cocci/*.cocci; do
	r=$(basename "$rule" .cocci)
	n=$((n + 1))
	for kind in bad good; do
		t=$top/cocci/tests/$r-$kind.c
		if [ ! -f "$t" ]; then
			echo "FAIL cocci/$r.cocci: no example cocci/tests/$r-$kind.c"
			fail=$((fail + 1)); continue
		fi
		got=$("$top/checks/spatch-one.sh" "$top/cocci/tests" "$rule" "$r-$kind.c" \
			--macro-file "$top/cocci/macros.h") || { fail=$((fail + 1)); continue; }
		c=$(printf '%s' "$got" | grep -c . || true)
		if [ $kind = bad ] && [ "$c" = 0 ]; then
			echo "FAIL cocci/$r.cocci: silent on its bad example tests/$r-bad.c"
			fail=$((fail + 1))
		elif [ $kind = good ] && [ "$c" != 0 ]; then
			echo "FAIL cocci/$r.cocci: reports on its good example:"
			printf '%s\n' "$got" | sed 's/^/    /'
			fail=$((fail + 1))
		else
			echo "ok cocci/$r.cocci: $c report(s) on tests/$r-$kind.c"
		fi
	done
done
printf '%s: %d rule(s), %d failure(s)\n' "$me" "$n" "$fail"
[ $fail = 0 ]
