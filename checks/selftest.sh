#!/bin/bash
# Self-test of the gates: each must fail, naming the patch and the line, on a
# series given a known problem.
#
#   checks/selftest.sh SERIESDIR
#
# From a copy of SERIESDIR (the real series) in $BUILD/check-selftest/:
#  (a) a trace_printk() inserted into the last patch that changes a .c file
#      ("the last patch" below): our Coccinelle gate must
#      report trace_printk() in that patch, at that line;
#  (c) trailing whitespace on an added line of the last patch: checkpatch must
#      report an ERROR for that patch and line;
#  (d) a checkpatch.pl that dies before its summary: the checkpatch gate
#      must fail saying so, not read the silence as no findings;
# and, as one-patch series on a small file (kernel/range.c):
#  (b) a new global symbol without a declaration: sparse must report
#      "symbol ... was not declared" in that patch, at that line;
#  (e) an unused static const, which only W=1 warns about
#      (-Wunused-const-variable): the build gate must report it in that
#      patch, at that line.
set -eu
me=selftest
. "$(dirname "$0")/lib.sh"

sdir=$(cd "$1" && pwd)
st=$BUILD/check-selftest
mkdir -p "$st"
fail=0
# The last patch that changes a .c file (a documentation patch may follow it)
last=
for p in $(series_patches "$sdir"); do
	! grep -q '^+++ b/.*\.c$' "$p" || last=$p
done
[ -n "$last" ] || die "no patch of $sdir changes a .c file"
lname=$(basename "$last")

# expect GATE WHAT PATTERN OUTPUT EXIT: the gate failed and said PATTERN
expect() {
	local gate=$1 what=$2 pat=$3 out=$4 rc=$5
	if [ "$rc" = 0 ]; then
		echo "FAIL selftest ($what): the $gate gate passed"
		fail=$((fail + 1))
	elif ! grep -E -- "$pat" "$out" >/dev/null; then
		echo "FAIL selftest ($what): the $gate gate failed but did not say /$pat/; it said:"
		sed 's/^/    /' "$out" | head -20
		fail=$((fail + 1))
	else
		echo "ok selftest ($what): $(grep -E -- "$pat" "$out" | head -1)"
	fi
}

# mutate SRC DST AWKPROG: copy the series, rewriting the last patch with AWKPROG.
mutate() {
	rm -rf "$2"; mkdir -p "$2"
	cp "$1"/[0-9]*.patch "$2/"
	awk "$3" "$1/$lname" >"$2/$lname"
	! cmp -s "$1/$lname" "$2/$lname" || die "could not mutate $lname"
}

# (a) trace_printk(): after the last added statement line at one tab of
# indentation, in a .c file of the last patch's last hunk there; the hunk's
# new-line count grows by one. Output: the patched file line it lands on.
mutate "$sdir" "$st/series-a" '
	{ line[NR] = $0 }
	/^\+\+\+ b\/.*\.c$/ { inc = 1; next }
	/^\+\+\+ / { inc = 0 }
	/^@@ / && inc { hunk = NR }
	inc && hunk && /^\+\t[^\t].*;$/ { at = NR; ath = hunk }
	END {
		for (i = 1; i <= NR; i++) {
			l = line[i]
			if (i == ath) {
				split(l, h, " "); split(h[3], nc, ",")
				sub(/\+[0-9]+,[0-9]+/, nc[1] "," nc[2] + 1, l)
			}
			print l
			if (i == at) print "+\ttrace_printk(\"check-selftest\\n\");"
		}
	}'
grep -q 'check-selftest' "$st/series-a/$lname" || die "no place for a trace_printk() in $lname (no .c hunk)"
out=$st/a.out
rc=0; "$top/checks/cocci.sh" ours "$st/series-a" selftest-a >"$out" 2>&1 || rc=$?
f=$(git -C "$BUILD/check-selftest-a" grep -n 'check-selftest' HEAD -- '*.c' 2>/dev/null | head -1 | cut -d: -f2,3) || f=
expect "our Coccinelle" "a: trace_printk" "^FAIL $lname: ${f:-.*}: trace_printk\(\) left" "$out" $rc

# (c) checkpatch ERROR: trailing whitespace on the first added code line.
mutate "$sdir" "$st/series-c" '
	!done && /^\+\t.*[^ ]$/ && !/^\+\+\+/ { print $0 "  "; done = 1; next } { print }'
out=$st/c.out
rc=0; "$top/checks/checkpatch.sh" "$st/series-c" >"$out" 2>&1 || rc=$?
expect checkpatch "c: checkpatch error" "^FAIL $lname: [^ ]+:[0-9]+ \(patch line #[0-9]+\): ERROR:TRAILING_WHITESPACE" "$out" $rc

# (d) checkpatch.pl dying (a missing perl module, a crash) prints no
# finding: the gate must fail on the missing 'total:' line
printf '#!/usr/bin/perl\ndie "check-selftest: planted crash\\n";\n' >"$st/dying-checkpatch.pl"
out=$st/d.out
rc=0; CHECKPATCH_PL=$st/dying-checkpatch.pl "$top/checks/checkpatch.sh" "$sdir" >"$out" 2>&1 || rc=$?
expect checkpatch "d: checkpatch.pl died" "checkpatch.pl did not finish .*no 'total:' line" "$out" $rc

# one_patch DIR NAME SUBJECT LINE: a one-patch series DIR/NAME that adds
# LINE at the end of kernel/range.c; prints the patched file's line number
one_patch() {
	local d=$1 name=$2 subject=$3 add=$4 src=$BASE_REPO/kernel/range.c
	rm -rf "$d"; mkdir -p "$d/x/kernel"
	{ cat "$src"; printf '\n%s\n' "$add"; } >"$d/x/kernel/range.c"
	{
		printf 'From 0000000000000000000000000000000000000000 Mon Sep 17 00:00:00 2001\n'
		printf 'From: Check Selftest <check@localhost>\nDate: Thu, 1 Jan 2026 00:00:00 +0000\n'
		printf 'Subject: [PATCH] selftest: %s\n\nSigned-off-by: Check Selftest <check@localhost>\n---\n' "$subject"
		printf 'diff --git a/kernel/range.c b/kernel/range.c\n'
		diff -u --label a/kernel/range.c --label b/kernel/range.c "$src" "$d/x/kernel/range.c" || true
		printf -- '-- \n2.39.5\n'
	} >"$d/$name"
	rm -rf "$d/x"
	echo $(($(wc -l <"$src") + 2))
}
need_base

# (b) sparse: a one-patch series adding a global without a declaration.
n=$(one_patch "$st/series-b" 0001-selftest-sparse.patch 'a new sparse warning' 'int check_selftest_undeclared;')
out=$st/b.out
rc=0; "$top/checks/sparse.sh" "$st/series-b" selftest-b >"$out" 2>&1 || rc=$?
expect sparse "b: sparse warning" "^FAIL 0001-selftest-sparse.patch: kernel/range.c:$n: .*check_selftest_undeclared" "$out" $rc

# (e) the W=1 build: a one-patch series adding an unused static const,
# which the kernel's default warnings do not report and W=1 does
n=$(one_patch "$st/series-e" 0001-selftest-w1.patch 'a new W=1 warning' 'static const int check_selftest_unused = 1;')
out=$st/e.out
rc=0; CHECK_LINK= "$top/checks/build.sh" "$st/series-e" selftest-e >"$out" 2>&1 || rc=$?
expect build "e: W=1 warning" "^FAIL 0001-selftest-w1.patch: kernel/range.c:$n: .*check_selftest_unused" "$out" $rc

printf '%s: %d failure(s)\n' "$me" "$fail"
[ $fail = 0 ]
