#!/bin/bash
# The side-by-side table of a make bench results.tsv (for the cover letter).
#
#   qemu/bench-table.sh RESULTS.tsv RUN.env [CHECKS.tap]
#
# With CHECKS.tap (qemu/bench-checks.sh's verdict), a last line counts the
# checks by kind, each kind's control beside it: a feature check has one
# (the unpatched kernel must fail it); a no-regression check and a v2-only
# one have none that could fail (n/a), and a control that could not fail
# (no spread in the unpatched runs) is counted n/a, not passed.
#
# RUN.env (written by qemu/bench.sh) gives TOPOLOGY, RUNS, SECS, CAVEAT and
# the release each kernel's guest reported (KERNEL_none, KERNEL_v1, ...).
# METRICS="m1 w:m2 ..." keeps only those rows: a bare metric for every
# workload, workload:metric for that workload alone (the cover letter's
# table; the full one is results.tsv). An entry that selects no row is an
# error, so a renamed metric cannot drop out of the cover letter unseen.
set -eu

res=$1 env=$2 tap=${3:-}
die() { printf 'bench-table: error: %s\n' "$*" >&2; exit 2; }
[ -s "$res" ] || die "no $res (run 'make bench')"
[ -s "$env" ] || die "no $env (run 'make bench')"
[ -z "$tap" ] || [ -s "$tap" ] || die "no $tap (the bench's checks)"
# shellcheck disable=SC1090
. "$env"
head -1 "$res" | grep -qx "$(printf 'kernel\tworkload\tmetric\tmedian\tmin\tmax')" ||
	die "$res: the header is not 'kernel workload metric median min max'"

for e in ${METRICS:-}; do
	awk -F'\t' -v e="$e" 'NR > 1 && ($3 == e || $2 ":" $3 == e) { f = 1; exit } END { exit !f }' "$res" ||
		die "METRICS: '$e' selects no row of $res"
done

echo "make bench on $TOPOLOGY: median [min..max] of $RUNS runs (${SECS} s each; hackbench: its own time)"
[ -z "${KERNEL_v2:-}" ] ||
	echo "kernels: none ${KERNEL_none:-?}, v1 ${KERNEL_v1:-?}, v2 ${KERNEL_v2} (release names the code: qemu/identity.sh)"
[ -z "${MODEL:-}" ] || [ "$MODEL" = none ] ||
	echo "cache figures (llc_*, mem_fills_per_s): one more boot of each kernel under the cache model (${MODEL% vcpus=*})"
echo "$CAVEAT"
echo
printf '%-12s %-28s %-26s %-26s %s\n' workload metric none v1 v2
for w in fit ring saturate pair stream latency hackbench-1 hackbench-N; do
	awk -F'\t' -v w="$w" -v keep="${METRICS:-}" '
		BEGIN { n = split(keep, k, " "); for (i = 1; i <= n; i++) want[k[i]] = 1 }
		NR > 1 && $2 == w && (!n || $3 in want || (w ":" $3) in want) { print $3 }' "$res" |
	awk '!seen[$0]++' |
	while read -r m; do
		line=$(printf '%-12s %-28s' "$w" "$m")
		for k in none v1 v2; do
			c=$(awk -F'\t' -v k="$k" -v w="$w" -v m="$m" '
				$1 == k && $2 == w && $3 == m { printf "%g [%g..%g]", $4, $5, $6 }' "$res")
			line=$(printf '%s %-26s' "$line" "${c:--}")
		done
		printf '%s\n' "${line%"${line##*[! ]}"}"
	done
done
echo
echo "-: not applicable (no preference or scan exists on that kernel)"
[ -n "$tap" ] || exit 0
# ok|not ok N KIND WORKLOAD: ... [# SKIP ...]
awk '
	/^(not )?ok [0-9]+ / {
		k = $1 == "not" ? $4 : $3; n[k]++
		if (/# SKIP/) skip[k]++
		else if ($1 == "ok") pass[k]++
	}
	function kind(k, name) {
		return sprintf("%s: %d (%d passed%s)", name, n[k], pass[k], skip[k] ? sprintf(", %d skipped", skip[k]) : "")
	}
	END {
		all = n["feature"] + n["noregress"] + n["v2"]
		ok = pass["feature"] + pass["noregress"] + pass["v2"]
		printf "\nmake bench'"'"'s checks (tests/bench/checks.tsv): %d of %d passed; %s, %s, %s\n", ok, all,
			kind("feature", "feature"), kind("noregress", "no-regression"), kind("v2", "v2-only")
		printf "controls (the unpatched kernel must fail the check): feature %d of %d passed", pass["control"], n["feature"]
		if (skip["control"]) printf ", %d n/a (the unpatched runs do not differ: the control cannot fail)", skip["control"]
		printf "; no-regression n/a, v2-only n/a (no control that could fail)\n"
	}' "$tap"
