#!/bin/bash
# Self-test of our Coccinelle rules: each cocci/RULE.cocci must report on
# cocci/tests/RULE-bad.c exactly the lines marked "/* REPORTED */" (each
# marked line at least once, no other line) and stay quiet on
# cocci/tests/RULE-good.c. A rule without both examples, or a bad example
# without a marked line, fails.
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
		if [ $kind = bad ]; then
			want=$(grep -n '/\* REPORTED \*/' "$t" | cut -d: -f1 | sort -nu | tr '\n' ' ')
			saw=$(printf '%s\n' "$got" | sed -n 's/^[^:]*:\([0-9]*\):.*/\1/p' | sort -nu | tr '\n' ' ')
			want=${want% } saw=${saw% }
			if [ -z "$want" ]; then
				echo "FAIL cocci/$r.cocci: tests/$r-bad.c marks no line /* REPORTED */"
				fail=$((fail + 1))
			elif [ "$want" != "$saw" ]; then
				echo "FAIL cocci/$r.cocci: on tests/$r-bad.c reported line(s) ${saw:-none}, marked $want"
				printf '%s\n' "$got" | sed 's/^/    /'
				fail=$((fail + 1))
			else
				echo "ok cocci/$r.cocci: $c report(s) on tests/$r-bad.c, at its marked line(s) $want"
			fi
		elif [ "$c" != 0 ]; then
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
