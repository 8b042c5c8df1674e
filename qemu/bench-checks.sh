#!/bin/bash
# Judge make bench's results against tests/bench/checks.tsv (TAP on
# stdout; exit 1 when a check fails).
#
#   qemu/bench-checks.sh RESULTS_TSV [CHECKS_TSV]
#
# Every check is judged on v2's figures. Then the control: every feature
# check is judged again on the unpatched kernel's figures, where it must
# fail (with the figures present), or it shows nothing v2 adds. A check
# relative to the unpatched kernel itself (fit transfers <= 0.5 x none)
# can never hold on that kernel's own figure (none <= 0.5 x none is false
# for any positive figure), so such a control could never fail; it judges
# the unpatched kernel's best run (the smallest for le, the largest for
# ge) against its own figure, as if that run were a v2 that does nothing:
# it must fail, so the bound lies outside the unpatched kernel's own
# spread; where that kernel's runs have no spread (one run, or runs alike)
# its best run is its median and the control cannot fail: it is reported
# n/a, a TAP SKIP. A slack of "spread" is the reference's own spread
# (its max - min): a bound derived from the reference's noise, for a figure
# as noisy as latency by boot. A figure
# that is missing or invalid (the trace overflowed in a run) fails the
# check that reads it. A bench without the cache model (BENCH_MODEL=0:
# no kernel has any of the model's figures) cannot judge the checks of
# the model's figures: they, and their controls, are reported as TAP
# SKIPs, which qemu/bench-accept.sh does not accept for quoting. A model
# figure missing where others are present fails as any other.
set -eu

res=$1
top=$(cd "$(dirname "$0")/.." && pwd)
checks=${2:-$top/tests/bench/checks.tsv}
die() { printf 'bench-checks: error: %s\n' "$*" >&2; exit 2; }
[ -s "$res" ] || die "no results file $res"
[ -s "$checks" ] || die "no checks file $checks"

awk -F'\t' '
function fig(kern, wl, met, stat, op,    key) {
	key = kern SUBSEP wl SUBSEP met
	if (!(key in med)) return "missing"
	if (med[key] == "invalid") return "invalid"
	if (stat == "median") return med[key]
	# the worst run: the largest where smaller is better, and so on
	return op == "le" ? max[key] : min[key]
}
function isnum(x) { return x ~ /^-?[0-9]+(\.[0-9]*)?$/ || x ~ /^-?\.[0-9]+$/ }
# the reference figure of the current check (REF is KERNEL or KERNEL:WORKLOAD)
function refig() {
	refkey()
	return fig(RK, RW, M, STAT, OP)
}
# the kernel and workload of the reference: RK, RW
function refkey() {
	RK = REF; RW = W
	if (index(REF, ":")) { RK = substr(REF, 1, index(REF, ":") - 1); RW = substr(REF, index(REF, ":") + 1) }
}
# the spread (max - min) of the runs of the reference: the slack "spread"
function refspread(    key) {
	refkey()
	key = RK SUBSEP RW SUBSEP M
	if (!(key in med) || !isnum(max[key]) || !isnum(min[key])) return "missing"
	return max[key] - min[key]
}
# judge one check on the figures of kernel k: sets why, returns 1 if it
# holds; BEST set: the best run of k (a control against k itself)
function judge(k,    a, b, bound, st, sl, slt) {
	st = BEST ? "best run" : STAT
	a = BEST ? fig(k, W, M, "worst", OP == "le" ? "ge" : "le") : fig(k, W, M, STAT, OP)
	if (!isnum(a)) { why = k " " W " " M ": " a; return 0 }
	if (REF == "abs")
		b = 1
	else {
		b = refig()
		if (!isnum(b)) { why = REF " " W " " M ": " b; return 0 }
	}
	sl = SLACK
	if (SLACK == "spread") {
		sl = refspread()
		if (!isnum(sl)) { why = REF " " W " " M " spread: " sl; return 0 }
	}
	bound = OP == "le" ? FAC * b + sl : FAC * b - sl
	slt = ""
	if (SLACK == "spread")
		slt = sprintf(" %s the spread of %s %.2f", OP == "le" ? "+" : "-", REF, sl)
	else if (SLACK)
		slt = sprintf(" %s %s", OP == "le" ? "+" : "-", SLACK)
	why = sprintf("%s %s %s %s %s %.2f%s", k, st, M, a, OP == "le" ? "<=" : ">=", bound,
		      REF == "abs" ? "" : sprintf(" (%s x %s %s%s)", FAC, REF, b, slt))
	return OP == "le" ? a + 0 <= bound + 0 : a + 0 >= bound + 0
}
# the figures only the cache model gives (the MODEL boots of qemu/bench.sh)
# (cache figures of every access, user_ those of user addresses, and the
# placement in the modeled boots, -llc)
function model_metric(met) { return met ~ /^(user_)?(llc_transfers_per_s|llc_misses_per_kacc|mem_fills_per_s)$/ || met ~ /-llc$/ }
FNR == NR {
	if (FNR == 1 && $1 == "kernel") next
	if (model_metric($3)) hasmodel = 1
	key = $1 SUBSEP $2 SUBSEP $3
	med[key] = $4; min[key] = $5; max[key] = $6
	next
}
/^#/ || NF == 0 { next }
NF != 9 { printf "bench-checks: error: %s:%d: %d fields, 9 wanted\n", FILENAME, FNR, NF > "/dev/stderr"; bad = 1; exit 2 }
{
	if ($1 !~ /^(feature|noregress|v2)$/ || $4 !~ /^(median|worst)$/ || $5 !~ /^(ge|le)$/) {
		printf "bench-checks: error: %s:%d: bad kind, stat or op\n", FILENAME, FNR > "/dev/stderr"; bad = 1; exit 2
	}
	if (!isnum($7) || !(isnum($8) || ($8 == "spread" && $6 != "abs"))) {
		printf "bench-checks: error: %s:%d: factor must be a number, slack a number or spread (of a reference kernel)\n", FILENAME, FNR > "/dev/stderr"; bad = 1; exit 2
	}
	n++
	kind[n] = $1; w[n] = $2; m[n] = $3; st[n] = $4; op[n] = $5; ref[n] = $6
	fac[n] = $7; sl[n] = $8; desc[n] = $9
	nfeat += $1 == "feature"
}
END {
	if (bad) exit 2
	if (!n) { print "bench-checks: error: no checks" > "/dev/stderr"; exit 2 }
	print "TAP version 13"
	printf "1..%d\n", n + nfeat
	t = 0; rc = 0
	for (i = 1; i <= n; i++) {
		W = w[i]; M = m[i]; STAT = st[i]; OP = op[i]; REF = ref[i]; FAC = fac[i]; SLACK = sl[i]
		if (!hasmodel && model_metric(M)) {
			printf "ok %d %s %s: %s # SKIP no cache model in this bench (BENCH_MODEL=0)\n", ++t, kind[i], W, M
			continue
		}
		ok = judge("v2")
		printf "%s %d %s %s: %s # %s\n", ok ? "ok" : "not ok", ++t, kind[i], W, why, desc[i]
		if (!ok) rc = 1
	}
	for (i = 1; i <= n; i++) {
		if (kind[i] != "feature") continue
		W = w[i]; M = m[i]; STAT = st[i]; OP = op[i]; REF = ref[i]; FAC = fac[i]; SLACK = sl[i]
		if (!hasmodel && model_metric(M)) {
			printf "ok %d control %s: %s # SKIP no cache model in this bench (BENCH_MODEL=0)\n", ++t, W, M
			continue
		}
		BEST = REF == "none"
		# the runs of the unpatched kernel alike: its best run is its own
		# figure, and the control cannot fail
		if (BEST && fig("none", W, M, "worst", "le") == fig("none", W, M, "worst", "ge") &&
		    isnum(fig("none", W, M, "worst", "le"))) {
			printf "ok %d control %s: n/a: the runs of the unpatched kernel of %s do not differ (%s), so its best run cannot fail a bound relative to itself # SKIP no spread\n",
				++t, W, M, fig("none", W, M, "worst", "le")
			BEST = 0
			continue
		}
		held = judge("none")
		BEST = 0
		# it must fail on figures the unpatched kernel has (and the
		# reference kernel, for a relative check), not for want of them
		ok = !held && isnum(fig("none", W, M, STAT, OP)) && (REF == "abs" || isnum(refig()))
		printf "%s %d control %s: the unpatched kernel fails it: not (%s)\n", ok ? "ok" : "not ok", ++t, W, why
		if (!ok) rc = 1
	}
	exit rc
}' "$res" "$checks"
