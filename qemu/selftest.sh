#!/bin/bash
# Harness self-test: the verdict must catch every kind of failure.
#
#   qemu/selftest.sh KERNEL BUILD
#
# Host-only cases feed fixture logs to qemu/verdict.sh; boot cases run the
# real kernel with a deliberately broken guest. Prints KTAP.
set -eu
# Read whole before it runs (the braces, closed after the final exit):
# editing this file while a run is going cannot change that run.
{

kernel=$1 build=$2
top=$(cd "$(dirname "$0")/.." && pwd)
fx=$top/tests/harness
work=$build/logs/selftest
rm -rf "$work"; mkdir -p "$work"
n=0 failed=0
# by section: clean + splats, splat sources 2, identity 2, fixtures 9, noted 1, taint 3, expectations 15,
# nofeature 3, bench acceptance 10, debug record 5, table 3, checks 15, sweep 14, model 14,
# help 3, catalogue 1, extra.awk 5, mutants 4, boots 7 and 2 looks at their results
plan=$(( 1 + $(grep -vc '^#' "$fx/splats.txt") + 2 + 2 + 9 + 1 + 3 + 15 + 3 + 10 + 5 + 3 + 15 + 14 + 14 + 3 + 1 + 5 + 4 + 9 ))
echo "KTAP version 1"
echo "1..$plan"

# expect PASS|FAIL NAME DIR [QEMU_EXIT [WHY]]: a FAIL must also give WHY
# (a fixed string) among its reasons, so a case that fails for another
# reason than the one it plants does not count.
expect() {
	local want=$1 name=$2 dir=$3 qrc=${4:-0} why=${5:-} got=PASS
	"$top/qemu/verdict.sh" "$dir" "$qrc" >"$dir/verdict.out" 2>&1 || got=FAIL
	judge "$want" "$got" "$name" "$dir/verdict.out" "$why"
}

# judge WANT GOT NAME OUTPUT [WHY]: one KTAP line; a wrong verdict, or a
# FAIL whose OUTPUT lacks WHY, shows OUTPUT and counts as a failure
judge() {
	local want=$1 got=$2 name=$3 out=$4 why=${5:-}
	n=$((n + 1))
	if [ "$got" != "$want" ]; then
		sed 's/^/    # /' "$out"
		echo "not ok $n $name # said $got, expected $want"
		failed=$((failed + 1))
	elif [ -n "$why" ] && ! grep -qF -- "$why" "$out"; then
		sed 's/^/    # /' "$out"
		echo "not ok $n $name # $got, but not with: $why"
		failed=$((failed + 1))
	else
		echo "ok $n $name"
	fi
}

# fixture NAME [LOG]: a log dir with a clean console and LOG's results
# (the synthetic good-results.log, or a captured boot's), whose kernel is
# the release its guest header names
fixture() {
	local d=$work/$1
	mkdir -p "$d"
	cp "$fx/clean-console.log" "$d/console.log"
	cp "$fx/${2:-good-results.log}" "$d/results.log"
	sed -n 's/^# cas: \([^ ]*\) .*/\1/p' "$d/results.log" | head -1 >"$d/kernel.release"
	echo "$d"
}

# Host-only: a clean log (with the trace_printk() banner) passes ...
expect PASS fixture-clean "$(fixture clean)"
# ... and each splat header alone fails it.
i=0
while IFS= read -r line; do
	case $line in "#"*|"") continue ;; esac
	i=$((i + 1))
	d=$(fixture "splat$i")
	printf '%s\n' "$line" >>"$d/console.log"
	expect FAIL "fixture-splat: ${line#*] }" "$d" 0 "$line"
done <"$fx/splats.txt"
# every pattern the verdict knows is a message the base kernel prints
# (qemu/splats-source.sh), and a pattern with a typo is found out
rc=PASS; "$top/qemu/splats-source.sh" "$build/linux-base" >"$work/splats-source.out" 2>&1 || rc=FAIL
judge PASS "$rc" splat-patterns-in-kernel-source "$work/splats-source.out"
printf 'sched: RT throtling activated\n' >"$work/splats-typo.txt"
rc=PASS; "$top/qemu/splats-source.sh" "$build/linux-base" "$work/splats-typo.txt" >"$work/splats-typo.out" 2>&1 || rc=FAIL
judge FAIL "$rc" splat-pattern-typo-found "$work/splats-typo.out" "DEAD: splats-typo.txt"
# the code's identity (qemu/identity.sh) on a small repository with the
# tag it diffs from: an untracked source file changes it (one whose name
# git would quote, too), the harness's .series-stamp and .check-* do not
r=$work/identity; rm -rf "$r"; mkdir -p "$r/kernel"
echo 'int a;' >"$r/kernel/a.c"
git -C "$r" init -q && git -C "$r" add . &&
	git -C "$r" -c user.name=selftest -c user.email=selftest@localhost commit -qm base &&
	git -C "$r" tag tarball
echo 'int a = 1;' >"$r/kernel/a.c"
id0=$("$top/qemu/identity.sh" "$r" 2>&1) || id0="failed: $id0"
echo stamp >"$r/.series-stamp"; echo map >"$r/.check-map"
id1=$("$top/qemu/identity.sh" "$r" 2>&1) || id1="failed: $id1"
echo 'int b;' >"$r/kernel/b$(printf '\303\251').c"
id2=$("$top/qemu/identity.sh" "$r" 2>&1) || id2="failed: $id2"
echo 'int b = 2;' >"$r/kernel/b$(printf '\303\251').c"
id3=$("$top/qemu/identity.sh" "$r" 2>&1) || id3="failed: $id3"
echo "identities: changed $id0; with the stamps $id1; with an untracked kernel/b(e-acute).c $id2, changed $id3" >"$work/identity.out"
judge PASS "$([ "$id0" = "$id1" ] && echo PASS || echo FAIL)" identity-ignores-stamp "$work/identity.out"
judge PASS "$(case $id2$id3 in *failed*) echo FAIL ;; *) [ "$id1" != "$id2" ] && [ "$id2" != "$id3" ] && echo PASS || echo FAIL ;; esac)" \
	identity-sees-untracked-file "$work/identity.out"
# what TCG makes routine is reported, not failed
d=$(fixture noted)
echo '[   64.603076] hrtimer: interrupt took 12922230 ns' >>"$d/console.log"
expect PASS fixture-noted-hrtimer "$d" 0 "noted (not a failure"
d=$(fixture notok); sed -i 's/^ok 2 extra/not ok 2 extra/' "$d/results.log"
expect FAIL fixture-not-ok "$d" 0 "failed tests: extra"
d=$(fixture truncated); sed -i '/^ok 2 extra/,$d' "$d/results.log"
expect FAIL fixture-missing-result "$d" 0 "planned 2 tests, got 1 results"
d=$(fixture noplan); sed -i '/^1\.\./d' "$d/results.log"
expect FAIL fixture-no-plan "$d" 0 "no test plan"
d=$(fixture timeout)
expect FAIL fixture-timeout "$d" 124 "after the time limit"
# A complete, clean run still fails when QEMU did not exit 0: killed by
# timeout -k (137) or crashed after the guest's last line
d=$(fixture killed)
expect FAIL fixture-killed "$d" 137 "QEMU exited with status 137"
d=$(fixture crashed)
expect FAIL fixture-qemu-crash "$d" 1 "QEMU exited with status 1"
# The guest ran another kernel than the one built (a stale bzImage), or
# one run.sh did not name
d=$(fixture stale-kernel); echo 6.12.118-cas-0123456789ab >"$d/kernel.release"
expect FAIL fixture-stale-kernel "$d" 0 "not the one run.sh was given (6.12.118-cas-0123456789ab)"
d=$(fixture unnamed-kernel); rm "$d/kernel.release"
expect FAIL fixture-unnamed-kernel "$d" 0 "which kernel was booted is not known"
d=$(fixture empty); : >"$d/results.log"
expect FAIL fixture-no-results "$d" 0 "no results at all"
# The taint flags: a warning whose console lines were lost still fails
# the boot by its W bit; N alone (a KUnit suite ran) passes; a guest that
# did not report them fails
d=$(fixture tainted-w); sed -i 's/^# cas: tainted=0$/# cas: tainted=512/' "$d/results.log"
expect FAIL fixture-tainted-warning "$d" 0 "kernel tainted 512: W: warning"
d=$(fixture tainted-n); sed -i 's/^# cas: tainted=0$/# cas: tainted=262144/' "$d/results.log"
expect PASS fixture-tainted-test-only "$d"
d=$(fixture no-taint); sed -i '/^# cas: tainted=/d' "$d/results.log"
expect FAIL fixture-no-taint-line "$d" 0 "did not report the kernel's taint flags"

# Expectations (tests/expect.tsv, judged by qemu/expect.py on the kernel's
# KTAP parser's tree): real captured logs of the unpatched kernel and of v2
# pass; relabelled, each kernel's log breaks the other's expectations.
expect PASS real-none-2x2x4 "$(fixture real-none none-2x2x4-results.log)"
expect PASS real-v2-2x2x4 "$(fixture real-v2 v2-2x2x4-results.log)"
d=$(fixture v2-as-none v2-2x2x4-results.log); sed -i '2s/series=v2/series=none/' "$d/results.log"
expect FAIL expect-ran-must-skip "$d" 0 "balance ran, but must skip here (line"
d=$(fixture none-as-v2 none-2x2x4-results.log); sed -i '2s/series=none/series=v2/' "$d/results.log"
expect FAIL expect-program-skip "$d" 0 "balance skipped (not a v2 kernel), but must run here"
# v2 without its DEBUG patch: every v2 test runs, only the two subtests
# of the tracepoints themselves skip; the logs of v2 and v2-nodebug
# relabelled break each other's expectations
expect PASS real-v2-nodebug-2x2x4 "$(fixture real-v2-nodebug v2-nodebug-2x2x4-results.log)"
d=$(fixture v2-as-nodebug v2-2x2x4-results.log); sed -i '2s/series=v2 /series=v2-nodebug /' "$d/results.log"
expect FAIL expect-nodebug-traced "$d" 0 "steering: tracepoint_sched_cache_steer_fires ran, but must skip here"
d=$(fixture nodebug-as-v2 v2-nodebug-2x2x4-results.log); sed -i '2s/series=v2-nodebug /series=v2 /' "$d/results.log"
expect FAIL expect-v2-untraced "$d" 0 "steering: tracepoint_sched_cache_steer_fires skipped (no DEBUG tracepoints in this kernel), but must run here"
# a program that exits 0 with no subtest at all, and one not reported in
# a boot that selected every test (tests=*)
d=$(fixture v2-silent-balance v2-2x2x4-results.log)
awk '/^    TAP version 13$/ && !done { skip = 1 } skip && /^ok 1 balance$/ { skip = 0; done = 1 } !skip' \
	"$fx/v2-2x2x4-results.log" >"$d/results.log"
expect FAIL expect-program-silent "$d" 0 "balance: balance.aggregation missing: it must run here"
d=$(fixture v2-no-kunit v2-2x2x4-results.log)
awk 'NR == 2 && !/ tests=/ { $0 = $0 " tests=*" } /^1\.\.7$/ { $0 = "1..6" }
     /^# stress: exit/ { stop = 1 } stop && /^ok 6 topology$/ { print; skip = 1; next }
     skip && /^ok 7 kunit$/ { skip = 0; next } !skip' "$fx/v2-2x2x4-results.log" >"$d/results.log"
expect FAIL expect-program-missing "$d" 0 "kunit missing: it must run here"
d=$(fixture subtest-skip); sed -i 's/^    ok 2 global.llcs$/    ok 2 global.llcs # SKIP planted/' "$d/results.log"
expect FAIL expect-subtest-skip "$d" 0 "topology: global.llcs skipped (planted), but must run here"
d=$(fixture subtest-not-ok); sed -i 's/^    ok 2 global.llcs$/    not ok 2 global.llcs/' "$d/results.log"
expect FAIL expect-subtest-not-ok "$d" 0 "topology: global.llcs failed"
d=$(fixture subtest-missing)
awk '/global\.llcs$/ { next } /^    1\.\.5$/ { $0 = "    1..4" }
     /^    ok [345] / { sub(/ok [345]/, "ok " $2 - 1) } 1' "$fx/good-results.log" >"$d/results.log"
expect FAIL expect-subtest-missing "$d" 0 "topology: global.llcs missing"
d=$(fixture unexpected-program)
sed -i -e 's/^1\.\.2$/1..3/' -e 's/^# cas: done$/ok 3 mystery\n# cas: done/' "$d/results.log"
expect FAIL expect-no-line "$d" 0 "mystery: no line of expect.tsv says what to expect"
# a skip for another reason than its line expects (the tracepoints' skip
# of v2-nodebug, saying the feature is missing)
d=$(fixture nodebug-skip-reason v2-nodebug-2x2x4-results.log)
sed -i 's/tracepoint_sched_cache_steer_fires # SKIP no DEBUG tracepoints in this kernel/tracepoint_sched_cache_steer_fires # SKIP no SCHED_CACHE feature/' "$d/results.log"
expect FAIL expect-skip-reason "$d" 0 "wants a skip that says /no DEBUG tracepoints/"
# a KUnit case gone from the suite (here: renamed) is missed by name
d=$(fixture v2-kunit-case-gone v2-2x2x4-results.log)
sed -i 's/ok 22 too_heavy_shrinks_with_more_threads_than_cpus$/ok 22 planted_rename/' "$d/results.log"
expect FAIL expect-kunit-case-gone "$d" 0 "kunit: sched_cache/too_heavy_shrinks_with_more_threads_than_cpus missing"

# make nofeature-check's judge (qemu/nofeature-check.sh): the captured boot
# of v2-nodebug without the feature passes it; a v2 test that passed there,
# or failed for another reason than not seeing v2, fails it
nofeature() {	# PASS|FAIL NAME WHY: on NFDIR/results.log
	local got=PASS
	"$top/qemu/nofeature-check.sh" "$nfdir/results.log" /dev/null >"$nfdir.out" 2>&1 || got=FAIL
	judge "$1" "$got" "$2" "$nfdir.out" "$3"
}
nfdir=$work/nofeature; mkdir -p "$nfdir"
cp "$fx/v2-nodebug-nofeature-results.log" "$nfdir/results.log"
nofeature PASS nofeature-captured "each for not seeing v2"
sed -i 's/^not ok 3 steering$/ok 3 steering/' "$nfdir/results.log"
nofeature FAIL nofeature-test-passed "steering passed or skipped on a kernel without the feature"
cp "$fx/v2-nodebug-nofeature-results.log" "$nfdir/results.log"
sed -i '/without sched_cache/d' "$nfdir/results.log"
nofeature FAIL nofeature-other-reason "balance failed, but not for want of v2's figures"

# make rfc quotes only a bench of the series' own code whose checks passed
# (qemu/bench-accept.sh): a stale identity, a failed check, no v2 identity,
# the bench's own code (qemu/bench-code.sh) changed since, unrecorded, or
# its record edited
accept() {	# PASS|FAIL NAME WHY IDENTITY: on BDIR
	local got=PASS
	"$top/qemu/bench-accept.sh" "$bdir" "$4" >"$bdir.out" 2>&1 || got=FAIL
	judge "$1" "$got" "$2" "$bdir.out" "$3"
}
bdir=$work/bench; mkdir -p "$bdir"
bcode=$("$top/qemu/bench-code.sh" "$top")
printf 'KERNEL_v2=6.12.118-cas-0123456789ab\nSERIES_v2=0123456789ab\nCHECKS=passed\n%s\n' "$bcode" >"$bdir/run.env"
cp "$fx/bench-results.tsv" "$bdir/results.tsv"
"$top/qemu/bench-checks.sh" "$bdir/results.tsv" >"$bdir/checks.tap"
accept PASS bench-accepted "every check passed" 0123456789ab
accept FAIL bench-stale-identity "measured v2 0123456789ab, but the series is ba9876543210" ba9876543210
# the code that made the figures: qemu/bench.sh changed since (its line in
# the list, and BENCH_CODE of that list); no record of it; a list that
# does not give its BENCH_CODE
cp "$bdir/run.env" "$bdir/run.env.good"
{ grep -v '^# code: \|^BENCH_CODE=' "$bdir/run.env.good"
  bl=$(printf '%s\n' "$bcode" | grep '^# code: ' | sed "s|^# code: [0-9a-f]* qemu/bench.sh\$|# code: $(printf '%064d' 0) qemu/bench.sh|")
  printf 'BENCH_CODE=%s\n%s\n' "$(printf '%s\n' "$bl" | sha256sum | cut -c1-12)" "$bl"; } >"$bdir/run.env"
accept FAIL bench-code-changed "qemu/bench.sh: changed since the bench" 0123456789ab
grep -v '^# code: \|^BENCH_CODE=' "$bdir/run.env.good" >"$bdir/run.env"
accept FAIL bench-code-unrecorded "run.env records no hash of the bench's code (BENCH_CODE)" 0123456789ab
sed 's/^BENCH_CODE=.*/BENCH_CODE=0123456789ab/' "$bdir/run.env.good" >"$bdir/run.env"
accept FAIL bench-code-edited "does not give its BENCH_CODE 0123456789ab" 0123456789ab
cp "$bdir/run.env.good" "$bdir/run.env"
# a verdict stored under older checks (here: the stream check's median,
# now its worst run) is judged again, and differs
sed -i 's/^\(ok 10 noregress stream: v2\) worst /\1 median /' "$bdir/checks.tap"
accept FAIL bench-checks-changed "is not what tests/bench/checks.tsv makes of its results.tsv now" 0123456789ab
printf 'TAP version 13\n1..1\nnot ok 1 fit\n' >"$bdir/checks.tap"
sed -i 's/^CHECKS=.*/CHECKS=failed/' "$bdir/run.env"
accept FAIL bench-failed-checks "its checks failed" 0123456789ab
printf 'KERNEL_v2=6.12.118-cas-0123456789ab\nSERIES_v2=0123456789ab\n%s\n' "$bcode" >"$bdir/run.env"
rm "$bdir/checks.tap"
accept FAIL bench-unrecorded-checks "no checks.tap" 0123456789ab
# the bench recorded before kernels named their code: its stamp hashed
# patch files, changelogs included
printf 'COMMIT=c233dfc+local-changes\nSERIES_v1=b03fa4b7c5b4\nSERIES_v2=8818ae6c21c4\n' >"$bdir/run.env"
accept FAIL bench-old-format "names no v2 identity" 8818ae6c21c4
# a bench without the cache model (BENCH_MODEL=0) skipped the model's
# checks: it passed, but it showed nothing of them
printf 'KERNEL_v2=6.12.118-cas-0123456789ab\nSERIES_v2=0123456789ab\nCHECKS=passed\n%s\n' "$bcode" >"$bdir/run.env"
printf 'TAP version 13\n1..2\nok 1 fit\nok 2 stream: user_llc_misses_per_kacc # SKIP no cache model\n' >"$bdir/checks.tap"
accept FAIL bench-skipped-checks "it skipped checks" 0123456789ab

# make rfc wants a passing debug-kernel boot of the series' own code
# (qemu/debug-record.sh, qemu/debug-accept.sh): a captured v2 boot relabelled
# as the debug kernel's is recorded and accepted for its identity, refused
# for another; a failed boot is not recorded; a record of another config
# or a failed verdict is refused
dacc() {	# PASS|FAIL NAME WHY IDENTITY: on DDIR
	local got=PASS
	"$top/qemu/debug-accept.sh" "$ddir" "$4" >"$ddir.out" 2>&1 || got=FAIL
	judge "$1" "$got" "$2" "$ddir.out" "$3"
}
dlog=$work/debug-boot ddir=$work/debug-rec
mkdir -p "$dlog"
sed '2s/ config=base / config=debug /' "$fx/v2-2x2x4-results.log" >"$dlog/results.ktap"
printf 'verdict: PASS\n' >"$dlog/verdict.log"
echo 'qemu-system-x86_64 -append "cas.stress=full"' >"$dlog/qemu.cmd"
"$top/qemu/debug-record.sh" "$dlog" "$ddir" >"$ddir.rec" 2>&1 || true
# the identity of the code the captured boot ran (its release's last part)
fid=$(sed -n '2s/^# cas: [^ ]*-cas-\([0-9a-f]*\) .*/\1/p' "$fx/v2-2x2x4-results.log")
dacc PASS debug-accepted "v2 $fid passed on the debug kernel (2x2x4, stress full" "$fid"
dacc FAIL debug-stale-identity "the debug kernel ran v2 $fid, but the series is 0123456789ab" 0123456789ab
sed -i 's/^STRESS=.*/STRESS=short/' "$ddir/run.env"
dacc FAIL debug-short-storms "its storms ran at STRESS=short counts, not full" "$fid"
sed -i 's/^STRESS=.*/STRESS=full/; s/^VERDICT=.*/VERDICT=failed/' "$ddir/run.env"
dacc FAIL debug-failed "its verdict did not pass" "$fid"
printf 'verdict: FAIL: kernel splat\nverdict: FAIL (logs in x)\n' >"$dlog/verdict.log"
rm -rf "$ddir"; got=PASS
"$top/qemu/debug-record.sh" "$dlog" "$ddir" >"$ddir.rec" 2>&1 && got=FAIL
[ ! -e "$ddir/run.env" ] || got=FAIL
judge PASS "$got" debug-record-refuses-a-failed-boot "$ddir.rec" "did not pass"

# the cover letter's table (qemu/bench-table.sh with METRICS=) on a
# captured results.tsv: workload:metric keeps that workload's row alone,
# and an entry that selects nothing (a renamed metric) is an error
printf 'TOPOLOGY=2x2x4\nRUNS=3\nSECS=10\nCAVEAT="caveat"\n' >"$bdir/run.env"
got=FAIL
if METRICS="fit:top_llc_share_pct hackbench-N:time_s" "$top/qemu/bench-table.sh" \
	"$fx/bench-results.tsv" "$bdir/run.env" >"$bdir.table" 2>&1 &&
	[ "$(grep -cE '^(fit +top_llc_share_pct|hackbench-N +time_s) ' "$bdir.table")" = 2 ] &&
	[ "$(grep -cE '^[a-zA-Z0-9-]+ +[a-z0-9_]+ +[-0-9]' "$bdir.table")" = 2 ]; then
	got=PASS
fi
judge PASS "$got" bench-table-rows "$bdir.table"
got=PASS
METRICS="fit:top_llc_share fit:top_llc_share_pct" "$top/qemu/bench-table.sh" \
	"$fx/bench-results.tsv" "$bdir/run.env" >"$bdir.table" 2>&1 || got=FAIL
judge FAIL "$got" bench-table-no-row "$bdir.table" "'fit:top_llc_share' selects no row"
# with the bench's checks.tap, the checks counted by kind, and a control
# that could not fail (no spread in the unpatched runs) counted n/a
"$top/qemu/bench-checks.sh" "$fx/bench-results.tsv" |
	sed 's/^ok \(21 control fit\): .*/ok \1: n\/a # SKIP no spread/' >"$bdir/kinds.tap"
got=PASS
"$top/qemu/bench-table.sh" "$fx/bench-results.tsv" "$bdir/run.env" "$bdir/kinds.tap" >"$bdir.table" 2>&1 || got=FAIL
grep -qF 'feature: 3 (3 passed), no-regression: 12 (12 passed), v2-only: 4 (4 passed)' "$bdir.table" || got=FAIL
judge PASS "$got" bench-table-kinds "$bdir.table" "feature 2 of 3 passed, 1 n/a"

# make bench's checks (qemu/bench-checks.sh) on a captured results.tsv:
# it passes; v2's rows replaced by the unpatched kernel's fail the feature
# checks; a figure invalid (trace overflow) or missing fails its check; a
# feature check the unpatched kernel passes as well fails its control.
bcheck() {	# PASS|FAIL NAME WHY RESULTS [CHECKS]
	local got=PASS
	"$top/qemu/bench-checks.sh" "$4" ${5:+"$5"} >"$4.out" 2>&1 || got=FAIL
	judge "$1" "$got" "$2" "$4.out" "$3"
}
bres=$work/bench-results.tsv
cp "$fx/bench-results.tsv" "$bres"
bcheck PASS bench-checks-captured "" "$bres"
awk -F'\t' -v OFS='\t' '$1 == "none" { print; $1 = "v2"; print; next } $1 == "v1" || NR == 1' \
	"$fx/bench-results.tsv" >"$work/relabelled.tsv"
bcheck FAIL bench-checks-relabelled "not ok 1 feature fit: v2 median top_llc_share_pct 33.33" "$work/relabelled.tsv"
awk -F'\t' -v OFS='\t' '$1 == "v2" && $2 == "fit" && $3 == "llc_migrations_per_s" { $4 = $5 = $6 = "invalid" } 1' \
	"$fx/bench-results.tsv" >"$work/invalid.tsv"
bcheck FAIL bench-checks-trace-overflow "v2 fit llc_migrations_per_s: invalid" "$work/invalid.tsv"
awk -F'\t' '!($1 == "v2" && $2 == "pair" && $3 == "distinct_pref_llcs")' \
	"$fx/bench-results.tsv" >"$work/missing.tsv"
bcheck FAIL bench-checks-missing "v2 pair distinct_pref_llcs: missing" "$work/missing.tsv"
# no cache model at all (BENCH_MODEL=0): the model's checks are SKIPs,
# the others judged; one model figure missing among others fails
awk -F'\t' '$3 !~ /^(user_)?(llc_transfers_per_s|llc_misses_per_kacc|mem_fills_per_s)$/ && $3 !~ /-llc$/' \
	"$fx/bench-results.tsv" >"$work/nomodel.tsv"
bcheck PASS bench-checks-no-model "stream: user_llc_misses_per_kacc # SKIP no cache model in this bench" "$work/nomodel.tsv"
awk -F'\t' '!($1 == "v2" && $2 == "stream" && $3 == "user_llc_misses_per_kacc")' \
	"$fx/bench-results.tsv" >"$work/model-missing.tsv"
bcheck FAIL bench-checks-model-missing "v2 stream user_llc_misses_per_kacc: missing" "$work/model-missing.tsv"
{ grep -v '^feature' "$top/tests/bench/checks.tsv"
  printf 'feature\tring\ttop_llc_share_pct\tmedian\tge\tabs\t90\t0\tplanted\n'; } >"$work/checks.tsv"
# a v2 that gathers the stream in one run of three (its worst misses as
# gathered, 196) fails, though its median stays at the unpatched 0.14
awk -F'\t' -v OFS='\t' '$1 == "v2" && $2 == "stream" && $3 == "user_llc_misses_per_kacc" { $6 = "196.00" } 1' \
	"$fx/bench-results.tsv" >"$work/gathered-once.tsv"
bcheck FAIL bench-checks-one-bad-run "not ok 10 noregress stream: v2 worst user_llc_misses_per_kacc 196.00" "$work/gathered-once.tsv"
# the control of a check relative to the unpatched kernel itself fails
# when the unpatched kernel's own best run passes it (a bound inside its
# spread)
awk -F'\t' -v OFS='\t' '$1 == "none" && $2 == "fit" && $3 == "user_llc_transfers_per_s" { $5 = "400000.00" } 1' \
	"$fx/bench-results.tsv" >"$work/noisy-none.tsv"
bcheck FAIL bench-checks-self-control "not ok 21 control fit: the unpatched kernel fails it: not (none best run user_llc_transfers_per_s 400000.00 <=" "$work/noisy-none.tsv"
bcheck FAIL bench-checks-control "not ok 18 control ring: the unpatched kernel fails it: not (none median top_llc_share_pct 100.00" "$bres" "$work/checks.tsv"
# ... and where the unpatched runs do not differ (one run), that control
# cannot fail: n/a, a SKIP (which bench-accept refuses), not ok
awk -F'\t' -v OFS='\t' '$1 == "none" && $2 == "fit" && $3 == "user_llc_transfers_per_s" { $5 = $6 = $4 } 1' \
	"$fx/bench-results.tsv" >"$work/one-none.tsv"
bcheck PASS bench-checks-control-na "ok 21 control fit: n/a: the runs of the unpatched kernel of user_llc_transfers_per_s do not differ" "$work/one-none.tsv"
# pair (audit-v3 T5): two processes gathered into one LLC (each 100% in
# its top LLC, but not apart) fail; an unpatched kernel that keeps them
# apart fails the control; a process that sits away from the LLC v2
# prefers for it fails
awk -F'\t' -v OFS='\t' '$1 == "v2" && $2 == "pair" && $3 == "apart_llc_share_pct" { $4 = $5 = "2.00"; $6 = "4.00" } 1' \
	"$fx/bench-results.tsv" >"$work/pair-together.tsv"
bcheck FAIL bench-checks-pair-together "not ok 15 feature pair: v2 median apart_llc_share_pct 2.00 >= 90.00" "$work/pair-together.tsv"
awk -F'\t' -v OFS='\t' '$1 == "none" && $2 == "pair" && $3 == "apart_llc_share_pct" { $4 = $5 = $6 = "95.00" } 1' \
	"$fx/bench-results.tsv" >"$work/pair-none-apart.tsv"
bcheck FAIL bench-checks-pair-control "not ok 22 control pair: the unpatched kernel fails it: not (none median apart_llc_share_pct 95.00 >= 90.00)" "$work/pair-none-apart.tsv"
awk -F'\t' -v OFS='\t' '$1 == "v2" && $2 == "pair" && $3 == "pref_is_top_llc" { $4 = $5 = $6 = "1.00" } 1' \
	"$fx/bench-results.tsv" >"$work/pair-off-pref.tsv"
bcheck FAIL bench-checks-pair-off-pref "not ok 17 v2 pair: v2 median pref_is_top_llc 1.00 >= 2.00" "$work/pair-off-pref.tsv"
# latency by boot (audit-v3 T7): v2's median boot at the unpatched median
# plus the unpatched boots' spread passes; a hundredth more fails
awk -F'\t' -v OFS='\t' '$2 == "latency" && $3 == "p99_boot_us" && $1 == "none" { b = $4 + $6 - $5 }
	$2 == "latency" && $3 == "p99_boot_us" && $1 == "v2" { $4 = sprintf("%.2f", b + d); if ($6 < $4) $6 = $4 } 1' d=0 \
	"$fx/bench-results.tsv" >"$work/lat-edge.tsv"
bcheck PASS bench-checks-latency-spread "" "$work/lat-edge.tsv"
awk -F'\t' -v OFS='\t' '$2 == "latency" && $3 == "p99_boot_us" && $1 == "none" { b = $4 + $6 - $5 }
	$2 == "latency" && $3 == "p99_boot_us" && $1 == "v2" { $4 = sprintf("%.2f", b + d); if ($6 < $4) $6 = $4 } 1' d=0.01 \
	"$fx/bench-results.tsv" >"$work/lat-over.tsv"
bcheck FAIL bench-checks-latency-boots "not ok 14 noregress latency: v2 median p99_boot_us" "$work/lat-over.tsv"

# make sweep's verdict (qemu/sweep-report.sh) on a captured raw.tsv: it
# passes; each cell check fails on the figure it judges, planted in one
# cell: v2 moving threads between LLCs 2/s more than the unpatched kernel,
# v2's threads on-CPU a fifth less, v2 naming a preferred LLC all the
# time while its top-LLC share is 60%, and a cell v2 did not report. Then
# what passed before the fit, flapping and window checks (audit-v3 T9): a
# v2 that does nothing (its figures the unpatched kernel's, no
# preference), a slow bounce (moves seen in every 2 s window, 2 moves in
# 6 s: inside the migrations bound), a preference that changed twice, and
# a preference named 45% of the time with the threads spread (share 34%).
sweep() {	# PASS|FAIL NAME WHY RAW
	local got=PASS d=$work/$2
	mkdir -p "$d"
	cp "$4" "$d/raw.tsv"
	cp "$fx/sweep-run.env" "$d/run.env"
	"$top/qemu/sweep-report.sh" "$d" verdict >"$d/out" 2>&1 || got=FAIL
	grep -q '^not ok' "$d/checks.tap" 2>/dev/null && got=FAIL && cat "$d/checks.tap" >>"$d/out"
	judge "$1" "$got" "$2" "$d/out" "$3"
}
sraw=$fx/sweep-raw.tsv
# a cell the fit check judges (2x2x4: 2-4 threads, at most 60% of the LLC)
scell=$(awk -F'\t' '$1 == "v2" && $4 == "pref_pct" && $5 >= 50 {
	split($3, f, "-"); if (f[2] >= 2 && f[2] <= 4 && f[2] * f[3] <= 240) { print $3; exit } }' "$sraw")
# one it does not: 3 threads at 85%
wcell=sweep-3-85-1
sweep PASS sweep-captured "" "$sraw"
awk -F'\t' -v OFS='\t' -v c="$scell" '$3 == c && $4 == "llc_migrations_per_s" {
	if ($1 == "none") m[$2] = $5; else $5 = m[$2] + 2 } 1' "$sraw" >"$work/sweep-bounce.tsv"
sweep FAIL sweep-bounce "# failed: migrations" "$work/sweep-bounce.tsv"
awk -F'\t' -v OFS='\t' -v c="$scell" '$1 == "v2" && $3 == c && $4 == "thread_oncpu_pct" { $5 *= 0.8 } 1' \
	"$sraw" >"$work/sweep-oncpu.tsv"
sweep FAIL sweep-oncpu "# failed: oncpu" "$work/sweep-oncpu.tsv"
awk -F'\t' -v OFS='\t' -v c="$scell" '$1 == "v2" && $3 == c && $4 == "top_llc_share_pct" { $5 = 60 } 1' \
	"$sraw" >"$work/sweep-share.tsv"
sweep FAIL sweep-share "# failed: share" "$work/sweep-share.tsv"
awk -F'\t' -v c="$scell" '!($1 == "v2" && $3 == c)' "$sraw" >"$work/sweep-missing.tsv"
sweep FAIL sweep-missing "# failed: missing" "$work/sweep-missing.tsv"
awk -F'\t' -v OFS='\t' 'NR == FNR { if ($1 == "none") v[$2, $3, $4] = $5; next }
	$1 == "v2" && (($2, $3, $4) in v) { $5 = v[$2, $3, $4] }
	$1 == "v2" && ($4 == "pref_pct" || $4 == "pref_llc_changes_per_s") { $5 = 0 } 1' \
	"$sraw" "$sraw" >"$work/sweep-nothing.tsv"
sweep FAIL sweep-v2-does-nothing "# failed: fit" "$work/sweep-nothing.tsv"
awk -F'\t' -v OFS='\t' -v c="$scell" '$1 == "v2" && $3 == c && $4 ~ /^llc_moves_seen_w/ { $5 = 1 }
	$3 == c && $4 == "llc_migrations_per_s" { if ($1 == "none") m[$2] = $5; else $5 = m[$2] + 0.34 } 1' \
	"$sraw" >"$work/sweep-slow-bounce.tsv"
sweep FAIL sweep-slow-bounce "# failed: still" "$work/sweep-slow-bounce.tsv"
awk -F'\t' -v OFS='\t' -v c="$scell" '$1 == "v2" && $3 == c && $4 == "pref_llc_changes_per_s" { $5 = 0.34 } 1' \
	"$sraw" >"$work/sweep-flapping.tsv"
sweep FAIL sweep-flapping "# failed: flapping" "$work/sweep-flapping.tsv"
awk -F'\t' -v OFS='\t' -v c="$wcell" '$1 == "v2" && $3 == c && $4 == "pref_pct" { $5 = 45 }
	$1 == "v2" && $3 == c && $4 == "top_llc_share_pct" { $5 = 34 } 1' "$sraw" >"$work/sweep-partial.tsv"
sweep FAIL sweep-share-partial "# failed: share" "$work/sweep-partial.tsv"

# make rfc takes a sweep only of the series' own code, whole, every cell
# passing as today's judge sees its raw.tsv (qemu/sweep-accept.sh): it
# accepts the captured sweep; not for another identity, a verdict the
# judge would not write now, a failed cell, or a cell short of the grid
saccept() {	# PASS|FAIL NAME WHY IDENTITY RAW_JUDGED RAW_STORED
	local got=PASS d=$work/$2
	mkdir -p "$d"
	cp "$5" "$d/raw.tsv"
	cp "$fx/sweep-run.env" "$d/run.env"
	"$top/qemu/sweep-report.sh" "$d" verdict >"$d/out" 2>&1 || true
	cp "$6" "$d/raw.tsv"
	"$top/qemu/sweep-accept.sh" "$d" "$4" >"$d/accept.out" 2>&1 || got=FAIL
	judge "$1" "$got" "$2" "$d/accept.out" "$3"
}
sid=$(sed -n 's/^SERIES_v2=//p' "$fx/sweep-run.env")
saccept PASS sweep-accepted "all 36 cells passed" "$sid" "$sraw" "$sraw"
saccept FAIL sweep-stale-identity "measured v2 $sid, but the series is 0123456789ab" 0123456789ab \
	"$sraw" "$sraw"
saccept FAIL sweep-rejudged "its cells.tsv is not what today's judge makes of its raw.tsv" "$sid" \
	"$sraw" "$work/sweep-flapping.tsv"
saccept FAIL sweep-failed-cells "cells failed:" "$sid" "$work/sweep-flapping.tsv" "$work/sweep-flapping.tsv"
awk -F'\t' -v c="$scell" '$3 != c' "$sraw" >"$work/sweep-short.tsv"
saccept FAIL sweep-short-grid "35 cells judged, the grid" "$sid" "$work/sweep-short.tsv" "$work/sweep-short.tsv"

# The cache model's judge (qemu/model-judge.sh) on a captured boot under
# the model (make model-test): it passes; a window the plugin did not see,
# a count outside what the guest declared, an L3 the guest reports
# differently from the model, a vCPU map that differs from the guest's
# shared L3 lists, and a boot whose plugin never wrote its totals each
# fail for that reason.
model() {	# PASS|FAIL NAME WHY TSV [KTAP]
	local got=PASS d=$work/$2
	mkdir -p "$d"
	cp "$4" "$d/llc.tsv"
	cp "${5:-$fx/model-results.ktap}" "$d/results.ktap"
	"$top/qemu/model-judge.sh" "$d" >"$d/out" 2>&1 || got=FAIL
	judge "$1" "$got" "$2" "$d/out" "$3"
}
mtsv=$fx/model-llc.tsv
model PASS model-captured "" "$mtsv"
awk -F'\t' '$1 != 1' "$mtsv" >"$work/model-nowindow.tsv"
model FAIL model-missing-window "transfers_between_llcs: window 1 is not in" "$work/model-nowindow.tsv"
# (5000 more accesses in both spaces: the counts stay consistent)
awk -F'\t' -v OFS='\t' '$1 == 2 && $2 == 1 { $6 += 5000 } 1' "$mtsv" >"$work/model-count.tsv"
model FAIL model-count "transfers_within_llc: user accesses" "$work/model-count.tsv"
sed '1s/ size=16777216 / size=8388608 /' "$mtsv" >"$work/model-geometry.tsv"
model FAIL model-geometry "cpu0: the guest reports an L3 of 16777216 bytes" "$work/model-geometry.tsv"
sed '1s/ map=0:0:0:0:1:1:1:1:/ map=0:0:1:1:0:0:1:1:/' "$mtsv" >"$work/model-map.tsv"
model FAIL model-map "cpu2: the guest shares its L3 with CPUs 0 1 2 3" "$work/model-map.tsv"
grep -v '^boot' "$mtsv" >"$work/model-unfinished.tsv"
model FAIL model-unfinished "the plugin did not write its totals" "$work/model-unfinished.tsv"
# a window id used twice (its rows summed into one figure), a window the
# guest opened again while open, and accesses the model could not place
awk -F'\t' '{ print } $1 == 2 && $2 == 1 { print }' "$mtsv" >"$work/model-dup.tsv"
model FAIL model-window-twice "window 2: LLC 1 all written twice" "$work/model-dup.tsv"
{ cat "$mtsv"; echo "# window 3 reopened by vCPU 5 while open (opened by vCPU 4): its first opening dropped"; } >"$work/model-reopen.tsv"
model FAIL model-window-reopened "window 3 reopened by vCPU 5" "$work/model-reopen.tsv"
sed 's/accesses without a guest physical address 0,/accesses without a guest physical address 99999999,/' "$mtsv" >"$work/model-unmapped.tsv"
model FAIL model-unmapped "99999999 accesses had no guest physical address" "$work/model-unmapped.tsv"
sed 's/to I\/O [0-9]*/to I\/O 99999999/' "$mtsv" >"$work/model-io.tsv"
model FAIL model-io "99999999 accesses went to I/O" "$work/model-io.tsv"
# the model's arithmetic, in rows nobody declared too (a bench boot's):
# a fill also counted as a transfer, the all space without the user
# accesses, a transfer in without its transfer out; and a window that
# declares some of its counts but not all
awk -F'\t' -v OFS='\t' '$1 == "boot" && $2 == 0 { $8 += $10 } 1' "$mtsv" >"$work/model-fill-xfer.tsv"
model FAIL model-fill-as-transfer "window boot, LLC 0, all: misses" "$work/model-fill-xfer.tsv"
awk -F'\t' -v OFS='\t' '$1 == 3 && $2 == 0 && $3 == "all" { $6 = 0 } 1' "$mtsv" >"$work/model-no-all.tsv"
model FAIL model-all-below-user "window 3, LLC 0: all accesses 0 below user" "$work/model-no-all.tsv"
awk -F'\t' -v OFS='\t' '$1 == 1 && $2 == 0 && $3 == "user" { $9 += 1 } 1' "$mtsv" >"$work/model-xfer-out.tsv"
model FAIL model-xfer-out "window 1, user: xfer_in" "$work/model-xfer-out.tsv"
grep -v '# llc-expect 1 transfers_between_llcs all mem_fills ' "$fx/model-results.ktap" >"$work/model-undeclared.ktap"
model FAIL model-undeclared "transfers_between_llcs: window 1 declares no all mem_fills" "$mtsv" "$work/model-undeclared.ktap"

# make help (qemu/make-help.sh) on the real makefiles, and on copies
# with a phony target whose help was removed and a "##" block that
# documents nothing: each must fail, naming what is wrong.
help() {	# PASS|FAIL NAME WHY MAKEFILE...
	local want=$1 name=$2 why=$3 got=PASS; shift 3
	"$top/qemu/make-help.sh" "$@" -- SERIES=v2 >"$work/$name.out" 2>&1 || got=FAIL
	judge "$want" "$got" "$name" "$work/$name.out" "$why"
}
help PASS help-real "SERIES=v2" "$top/Makefile" "$top/checks/check.mk"
awk '/^## the load sweep/ { skip = 1 } skip && /^##/ { next } { skip = 0; print }' \
	"$top/Makefile" >"$work/help-undocumented.mk"
help FAIL help-undocumented "phony target sweep has no" "$work/help-undocumented.mk" "$top/checks/check.mk"
{ cat "$top/Makefile"; printf '\n## documents nothing\n\nfoo = 1\n'; } >"$work/help-orphan.mk"
help FAIL help-orphan "help-orphan.mk:" "$work/help-orphan.mk" "$top/checks/check.mk"

# The test catalogue (tests/README.md) is what tests/catalogue.sh makes
# of the tests as they are now (make catalogue writes it)
got=PASS
"$top/tests/catalogue.sh" >"$work/catalogue.md" 2>&1 &&
	diff -u "$top/tests/README.md" "$work/catalogue.md" >"$work/catalogue.out" 2>&1 ||
	{ got=FAIL; echo "tests/README.md is stale: run make catalogue" >>"$work/catalogue.out"; }
[ -s "$work/catalogue.out" ] || echo "tests/README.md is current" >"$work/catalogue.out"
judge PASS "$got" catalogue-current "$work/catalogue.out"

# The user's program's output (qemu/guest/extra.awk, as the guest's busybox
# awk runs it): its own result lines never become the boot's, a not-ok
# line fails it whatever its exit status, and output that is not KTAP is
# called that
extra_awk() {
	local want=$1 name=$2 text=$3 why=$4 got=PASS
	printf '%b' "$text" >"$work/$name.in"
	busybox awk -f "$top/qemu/guest/extra.awk" "$work/$name.in" >"$work/$name.out" 2>&1 || got=FAIL
	if [ "$got" = PASS ] && grep -Eq '^[[:space:]]*(not )?ok [0-9]' "$work/$name.out"; then
		echo "a result line was passed through unmarked" >>"$work/$name.out"
		got=FAIL
	fi
	judge "$want" "$got" "extra-awk-$name" "$work/$name.out" "$why"
}
extra_awk PASS repeats 'ok 1 a\nok 1 a\n' 'cannot be read as KTAP (no version line before the results)'
extra_awk FAIL notok-exit0 'ran\nnot ok 3 overflow\n' '1 not-ok line(s)'
extra_awk FAIL nested-notok 'KTAP version 1\n1..1\n    KTAP version 1\n    1..1\n    not ok 1 in\nok 1 out\n' \
	'KTAP: 1 passed, 0 failed, 0 skipped'
extra_awk PASS skip-plan 'KTAP version 1\n1..0 # SKIP no such device\n' 'KTAP: 0 passed, 0 failed, 0 skipped'
extra_awk PASS skip-todo 'KTAP version 1\n1..2\nnot ok 1 a # SKIP no disk\nnot ok 2 b # TODO\n' \
	'KTAP: 0 passed, 0 failed, 1 skipped, 1 todo'

# The mutants' judge (qemu/mutant-check.sh, judging only) on boots
# written from tests/mutants/expect.tsv: every listed subtest not ok and
# the verdict failed for its tests only passes; a listed subtest that
# passed, or a splat beside the failed tests, fails the check
mutants() {	# PASS|FAIL NAME WHY [PLANT]
	local want=$1 name=$2 why=$3 plant=${4:-} b=$work/mutants-$2 got=PASS m d p
	mkdir -p "$b"
	for m in $(awk -F'\t' '!/^#/ && NF { print $1 }' "$top/tests/mutants/expect.tsv" | sort -u); do
		d=$b/logs/mutant-$m/2x2x4; mkdir -p "$d"
		echo 'boot-test: 0 passed, 1 failed' >"$b/logs/mutant-$m.log"
		sha1sum <"$top/tests/mutants/$m.patch" >"$b/logs/mutant-$m.patch"
		{
			echo 'KTAP version 1'
			for p in $(awk -F'\t' -v m="$m" '$1 == m { print $2 }' "$top/tests/mutants/expect.tsv" | sort -u); do
				awk -F'\t' -v m="$m" -v p="$p" '$1 == m && $2 == p { print "    not ok " ++i " " $3 }' \
					"$top/tests/mutants/expect.tsv"
				echo "not ok 1 $p"
			done
		} >"$d/results.ktap"
		printf 'verdict: FAIL: failed tests: steering\nverdict: FAIL\n' >"$d/verdict.log"
	done
	d=$b/logs/mutant-$(awk -F'\t' '!/^#/ && NF { print $1; exit }' "$top/tests/mutants/expect.tsv")/2x2x4
	case $plant in
	pass)	sed -i '0,/^    not ok /s/^    not ok /    ok /' "$d/results.ktap" ;;
	splat)	sed -i '1i verdict: FAIL: a kernel splat in the console: BUG: KASAN: slab-use-after-free' "$d/verdict.log" ;;
	stale)	echo 0 >"${d%/*}.patch" ;;
	esac
	MUTANT_JUDGE_ONLY=1 "$top/qemu/mutant-check.sh" "$b" >"$b.out" 2>&1 || got=FAIL
	judge "$want" "$got" "mutants-$name" "$b.out" "$why"
}
mutants PASS judged ''
mutants FAIL listed-subtest-passed 'must fail:' pass
mutants FAIL splat 'failed for more than its tests' splat
mutants FAIL stale-logs 'logs are of another' stale

# Boot cases: the real kernel and a guest that goes wrong on purpose.
boot() {
	local want=$1 name=$2 extra=$3 topo=$4 tests=$5; shift 5
	local d=$work/$name qrc=0 img=$work/$name.cpio.gz
	"$top/qemu/initramfs.sh" "$img" "$build/guest" $extra
	TIMEOUT=${BOOT_TIMEOUT:-300} "$top/qemu/run.sh" "$kernel" "$img" "$topo" "$d" test \
		"cas.tests=$tests" "$@" || qrc=$?
	expect "$want" "boot-$name" "$d" "$qrc" "${WHY:-}"
}
# in_results NAME DIR TEXT: the boot's results show TEXT (one KTAP line)
in_results() {
	local got=PASS
	grep -qF -- "$3" "$2/results.log" || got=FAIL
	judge PASS "$got" "$1" "$2/results.log"
}
boot PASS extra-runs "$fx/extra-pass" 2x2x4 none
in_results extra-output-shown "$work/extra-runs" 'hello from /extra on 16 CPUs'
boot PASS extra-repeats "$fx/extra-repeats" 2x2x4 none
in_results extra-not-ktap-said "$work/extra-repeats" 'cannot be read as KTAP'
WHY="failed tests: topology" boot FAIL wrong-topology "" 2x2x4 topology cas.topology=2x2x2
WHY="failed tests: selection" boot FAIL no-such-test "" 2x2x4 topology,no_such_test
WHY="failed tests: extra" boot FAIL not-ok "$fx/extra-notok" 2x2x4 none
WHY="Kernel panic - not syncing" boot FAIL panic "$fx/extra-panic" 2x2x4 none
WHY="after the time limit" BOOT_TIMEOUT=60 boot FAIL hang "$fx/extra-hang" 2x2x4 none

# the plan above is a sum by section: one that no longer counts the
# cases is a failure of its own (KTAP consumers trust it)
if [ "$n" != "$plan" ]; then
	echo "# the plan said $plan cases, $n ran: correct the sum at the top"
	failed=$((failed + 1))
fi
echo "selftest: $((n - failed)) passed, $failed failed"
[ "$failed" = 0 ]
exit
}
