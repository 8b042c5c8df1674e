#!/bin/bash
# The static gate: run gates on a series and print a summary.
#
#   checks/check.sh SERIES GATE...
#
# SERIES: v1, v2 (series-SERIES/) or a path to a folder of patches.
# GATE: selftest (checks/selftest.sh: the gates catch a trace_printk(), a
# sparse warning, a checkpatch error), cocci-rules (our rules' examples),
# checkpatch, sparse, cocci-kernel, cocci-ours, build, link.
# link: for v1/v2, 'make kernel SERIES=...' (the very kernel the boot tests
# boot, so CI builds it once); for a folder, the whole kernel in the check
# build folder (checks/build.sh with CHECK_LINK=y).
# Every gate runs even when an earlier one failed. The summary names each
# gate PASS/FAIL with its findings, and ends with "check: N passed, M failed".
# CHECK_REPORT_ONLY=1 (the default for SERIES=v1): findings are reported but
# the exit status is 0.
set -eu
me=check
. "$(dirname "$0")/lib.sh"

series=$1; shift
case $series in
v1|v2|none) sdir=$top/series-$series; name=$series ;;
*) sdir=$(cd "$series" && pwd) || die "no folder $series"; name=$(basename "$sdir" | tr -c 'a-zA-Z0-9\n' -) ;;
esac
[ "$series" != none ] || die "SERIES=none: nothing to check (use v1 or v2)"
report_only=${CHECK_REPORT_ONLY:-}
[ -n "$report_only" ] || { [ "$series" = v1 ] && report_only=1 || report_only=0; }
series_patches "$sdir" >/dev/null || exit 2

# One run at a time: two runs would share worktrees and build folders.
mkdir -p "$BUILD"
exec 9>"$BUILD/check.lock"
flock -n 9 || { say "another 'make check' is running; waiting for it"; flock 9; }

res=$BUILD/check-results/$name
rm -rf "$res"; mkdir -p "$res"
start=$(date +%s)
for g in "$@"; do
	t0=$(date +%s)
	echo "=== $g ($(basename "$sdir"))"
	case $g in
	selftest)     cmd=("$top/checks/selftest.sh" "$sdir") ;;
	cocci-rules)  cmd=("$top/checks/cocci-selftest.sh") ;;
	# checkpatch holds the fixes carried on the base (qemu/base-fixes/)
	# to the series' standard; they go first, so that the summary line
	# is the series'
	checkpatch)   cmd=(sh -c '{ [ ! -e "$3"/0001-*.patch ] || "$1" "$3"; } && "$1" "$2"' \
	                  checkpatch "$top/checks/checkpatch.sh" "$sdir" "$top/qemu/base-fixes") ;;
	sparse)       cmd=("$top/checks/sparse.sh" "$sdir" "$name") ;;
	cocci-kernel) cmd=("$top/checks/cocci.sh" kernel "$sdir" "$name") ;;
	cocci-ours)   cmd=("$top/checks/cocci.sh" ours "$sdir" "$name") ;;
	build)        cmd=("$top/checks/build.sh" "$sdir" "$name") ;;
	link)
		case $series in
		v1|v2) cmd=(make -C "$top" --no-print-directory kernel SERIES="$series" BUILD="$BUILD") ;;
		*) cmd=(env CHECK_LINK=y CHECK_OBJECTS=0 "$top/checks/build.sh" "$sdir" "$name") ;;
		esac ;;
	*) die "unknown gate '$g'" ;;
	esac
	rc=0
	"${cmd[@]}" > >(tee "$res/$g.log") 2> >(tee "$res/$g.err" >&2) || rc=$?
	wait
	echo "$rc $(( $(date +%s) - t0 ))" >"$res/$g.rc"
done

# The code these results are of (qemu/identity.sh): make rfc posts a series
# only with the check results of that very code
id=unknown
if t=$(series_tree "$name" "$sdir" 2>/dev/null); then
	id=$("$top/qemu/identity.sh" "$t")
fi
echo "$id" >"$res/identity"

echo
echo "=== summary: $(basename "$sdir") ($(series_patches "$sdir" | wc -l) patches, code $id), $(( $(date +%s) - start ))s"
pass=0 failed=0
for g in "$@"; do
	read -r rc secs <"$res/$g.rc"
	n=$(grep -c '^FAIL' "$res/$g.log" || true)
	last=$(grep -v '^FAIL\|^ok \|^allowed \|^    ' "$res/$g.log" | tail -1)
	if [ "$rc" = 0 ]; then
		pass=$((pass + 1))
		printf 'PASS  %-13s %s (%ss)\n' "$g" "$last" "$secs"
	else
		failed=$((failed + 1))
		if [ "$n" = 0 ]; then
			last="error: $(grep 'error' "$res/$g.err" | tail -1)"
		fi
		printf 'FAIL  %-13s %d finding(s): %s (%ss)\n' "$g" "$n" "$last" "$secs"
		grep '^FAIL' "$res/$g.log" | head -${CHECK_SHOW:-15} | sed 's/^FAIL /      /' | cut -c1-220
		[ "$n" -le "${CHECK_SHOW:-15}" ] || echo "      ... ($n in all: $res/$g.log)"
	fi
done
echo "check: $pass passed, $failed failed"
if [ "$report_only" = 1 ] && [ $failed != 0 ]; then
	echo "check: report only (SERIES=$series): not failing the run"
	exit 0
fi
[ $failed = 0 ]
