#!/bin/bash
# The v2 tests' negative control: a kernel of series-v2 without its DEBUG
# patch and with CONFIG_SCHED_CACHE off, booted as v2-nodebug, must fail
# every v2 test, each because it cannot see v2 (not for another reason).
#
#   qemu/nofeature-check.sh RESULTS BOOTLOG
#
# RESULTS is the boot's results.log, BOOTLOG make boot-test's output; make
# nofeature-check runs the boot and then this.
set -eu
me=nofeature-check
die() { printf '%s: error: %s\n' "$me" "$*" >&2; exit 1; }

results=$1 bootlog=$2
[ -s "$results" ] || die "no results in $results (see $bootlog): the boot itself failed"
# the console's line ends
tmp=$(mktemp)
trap 'rm -f "$tmp"' EXIT
tr -d '\r' <"$results" >"$tmp"
grep -q '^# cas: .* series=v2-nodebug config=nofeature ' "$tmp" ||
	die "$results is not of a v2-nodebug boot with CONFIG=nofeature"
# what the tests say on a v2 kernel that does not show v2 (tests/lib/trace.h)
why='without sched_cache\.\* in /proc/<pid>/sched'
bad=0
for prog in balance sched_cache steering stress; do
	# the program's own lines: from the previous result to its own
	result=$(grep -E "^(not )?ok [0-9]+ $prog\$" "$tmp" || true)
	lines=$(awk -v p="$prog" '/^(not )?ok [0-9]+ / { if ($0 ~ " " p "$") { printf "%s", buf; exit }
		buf = ""; next } { buf = buf $0 "\n" }' "$tmp")
	case $result in
	"not ok "*)
		if grep -q -E "$why" <<<"$lines"; then
			echo "ok: $prog failed: it does not see v2"
		else
			echo "FAIL: $prog failed, but not for want of v2's figures" >&2
			bad=1
		fi ;;
	"")	echo "FAIL: $prog did not report" >&2; bad=1 ;;
	*)	echo "FAIL: $prog passed or skipped on a kernel without the feature: $result" >&2
		bad=1 ;;
	esac
done
[ "$bad" = 0 ] || die "the v2 tests can pass, or fail for another reason, without v2 (see $results)"
echo "$me: every v2 test fails without the feature, each for not seeing v2"
