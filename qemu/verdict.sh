#!/bin/bash
# Decide a boot test from its logs.
#
#   qemu/verdict.sh LOGDIR [QEMU_EXIT]
#
# Passes only if LOGDIR/results.log is one complete top-level KTAP run
# (a plan, every result in order, the guest's closing "# cas: done") of
# the kernel LOGDIR/kernel.release names (qemu/run.sh writes it), no
# result is "not ok", QEMU exited 0 (124 is the time limit; any other
# status, 137 from timeout -k included, is a QEMU or host failure even
# after a complete run), every program and subtest did what
# tests/expect.tsv says it must on this boot (qemu/expect.py, on the
# kernel's KTAP parser's tree), LOGDIR/console.log shows no kernel
# splat (patterns in qemu/splats.txt), and, for a boot under the cache
# model, its counts are what the guest declared (qemu/model-judge.sh).
set -eu

dir=$1 qrc=${2:-0}
top=$(cd "$(dirname "$0")/.." && pwd)
res=$dir/results.log con=$dir/console.log
fail=0
# taint_letters N: the flags of /proc/sys/kernel/tainted, as the kernel
# names them (Documentation/admin-guide/tainted-kernels.rst), but N
taint_letters() {
	local t=$1 i out=
	local -a names=('P: proprietary module' 'F: forced module load'
		'S: unsafe SMP or out-of-spec system' 'R: forced module unload'
		'M: machine check' 'B: bad page' 'U: tainted from user space'
		'D: oops or BUG (died)' 'A: ACPI table overridden' 'W: warning'
		'C: staging driver' 'I: firmware workaround' 'O: out-of-tree module'
		'E: unsigned module' 'L: soft lockup' 'K: live patch'
		'X: auxiliary' 'T: randstruct' 'N: test')
	for ((i = 0; i < 63; i++)); do
		[ "$i" != 18 ] && (( (t >> i) & 1 )) || continue
		out="$out, ${names[$i]:-bit $i}"
	done
	printf '%s' "${out#, }"
}
bad() { printf 'verdict: FAIL: %s\n' "$*"; fail=1; }

case $qrc in
0) ;;
124) bad "QEMU killed after the time limit (guest hung?); see $con" ;;
*) bad "QEMU exited with status $qrc; see $dir/qemu.log" ;;
esac
[ -s "$con" ] || bad "empty console log $con (the kernel did not boot?)"

if [ ! -s "$res" ]; then
	bad "no results at all in $res"
else
	tr -d '\r' <"$res" >"$dir/results.ktap"
	summary=$(awk '
		/^KTAP version 1$/ { ktap = 1; next }
		/^1\.\.[0-9]+$/ && !plan { plan = substr($0, 4) + 0; planned = 1; next }
		/^(not )?ok [0-9]+ / {
			n++
			num = ($1 == "not") ? $3 : $2
			if (num != n) order = order " " num
			if ($1 == "not") { nfail++; failed = failed " " ($1 == "not" ? $4 : $3) }
			else if ($0 ~ / # SKIP/) nskip++
			else npass++
		}
		/^# cas: done$/ { done = 1 }
		END {
			printf "%d %d %d %d %d %d %d|%s|%s\n", ktap, planned, plan, n,
				npass, nfail, nskip, failed, order
		}' "$dir/results.ktap")
	read -r ktap planned plan n npass nfail nskip <<<"${summary%%|*}"
	rest=${summary#*|}
	failed=${rest%%|*} order=${rest#*|}
	[ "$ktap" = 1 ] || bad "no 'KTAP version 1' header in $res"
	[ "$planned" = 1 ] || bad "no test plan in $res"
	[ "$n" = "$plan" ] || bad "planned $plan tests, got $n results (guest crashed or hung?)"
	[ -z "$order" ] || bad "results out of order:$order"
	[ "$nfail" = 0 ] || bad "failed tests:$failed"
	grep -q '^# cas: done$' "$dir/results.ktap" || bad "the guest did not finish its test run"
	# the kernel's taint flags after the tests: any but N (TAINT_TEST,
	# which running a KUnit suite sets) fails, named by its letter
	taint=$(sed -n 's/^# cas: tainted=\([0-9]*\)$/\1/p' "$dir/results.ktap" | tail -1)
	if [ -z "$taint" ]; then
		bad "the guest did not report the kernel's taint flags ('# cas: tainted=N')"
	elif [ $((taint & ~(1 << 18))) != 0 ]; then
		bad "kernel tainted $taint: $(taint_letters "$taint")"
	fi
	# the guest ran the kernel that was built: its release names the code
	want=$(cat "$dir/kernel.release" 2>/dev/null || true)
	got=$(sed -n 's/^# cas: \([^ ]*\) .*/\1/p' "$dir/results.ktap" | head -1)
	if [ -z "$want" ]; then
		bad "no $dir/kernel.release: which kernel was booted is not known"
	elif [ "$got" != "$want" ]; then
		bad "the guest ran ${got:-a kernel it did not name}, not the one run.sh was given ($want)"
	fi
	printf 'verdict: %s tests: %s passed, %s failed, %s skipped (kernel %s)\n' "$plan" "$npass" "$nfail" "$nskip" "${got:-?}"
	grep -E '^ok [0-9]+ .* # SKIP' "$dir/results.ktap" | sed 's/^/verdict: skipped: /' || true
	# Second opinion from the kernel's own KTAP parser.
	kunit=${KUNIT_PY:-$top/build/linux-base/tools/testing/kunit/kunit.py}
	if [ ! -f "$kunit" ]; then
		bad "$kunit not found (run 'make tree'): cannot parse the results"
	elif ! python3 "$kunit" parse "$(cd "$dir" && pwd)/results.ktap" >"$dir/kunit-parse.log" 2>&1; then
		bad "kunit.py parse: $(tail -1 "$dir/kunit-parse.log" | sed 's/^\[[0-9:]*\] //')"
	fi
	# What each program and subtest must do on this boot (series, config
	# and topology from the guest's header), judged on the parser's tree:
	# an unexpected skip, a nested "not ok" or a missing subtest fails
	expect=${EXPECT_TSV:-$top/tests/expect.tsv}
	# which expectations judged this boot, always said (EXPECT_TSV may
	# name another file than the project's)
	printf 'verdict: expectations %s (sha1 %s)%s\n' "$expect" \
		"$(sha1sum <"$expect" 2>/dev/null | cut -c1-12)" "${EXPECT_TSV:+, from EXPECT_TSV}"
	if [ -f "$kunit" ] && ! python3 "$top/qemu/expect.py" "$(dirname "$kunit")" "$expect" \
		"$dir/results.ktap" >"$dir/expect.log" 2>&1; then
		bad "not what $(basename "$expect") expects of this boot:"
		grep -v 'problem(s)$' "$dir/expect.log" | head -20 | sed 's/^expect: /    /'
	fi
fi

# Under the cache model (run.sh's LLC_PLUGIN): what the guest declared
# against what the model counted
if grep -q -e '-plugin ' "$dir/qemu.cmd" 2>/dev/null; then
	if ! "$top/qemu/model-judge.sh" "$dir" >"$dir/model.log" 2>&1; then
		bad "the cache model's counts are not what the guest expected:"
		grep -v ': ok' "$dir/model.log" | head -10 | sed 's/^model: /    /'
	fi
	grep ': ok' "$dir/model.log" | sed 's/^model: ok: /verdict: model: /' || true
fi

if [ -s "$con" ]; then
	# what TCG makes routine: reported, not failed (qemu/splats-noted.txt,
	# which may hold no pattern at all)
	{ grep -v '^#' "$top/qemu/splats-noted.txt" 2>/dev/null | grep -v '^$' || true; } >"$dir/.noted-patterns"
	if [ -s "$dir/.noted-patterns" ]; then
		{ grep -E -f "$dir/.noted-patterns" "$con" || true; } | head -5 | tr -d '\r' |
			sed 's/^/verdict: noted (not a failure, qemu\/splats-noted.txt): /'
	fi
	grep -v '^#' "$top/qemu/splats.txt" | grep -v '^$' >"$dir/.splat-patterns"
	if grep -n -E -f "$dir/.splat-patterns" "$con" >"$dir/splats.log"; then
		bad "kernel splat in $con:"
		head -20 "$dir/splats.log" | sed 's/^/    /'
	fi
fi

[ $fail = 0 ] && echo "verdict: PASS" || echo "verdict: FAIL (logs in $dir)"
exit $fail
