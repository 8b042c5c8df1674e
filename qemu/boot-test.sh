#!/bin/bash
# Boot one kernel on one or more topologies and decide each run.
#
#   qemu/boot-test.sh KERNEL INITRAMFS LOGROOT TESTS "TOPOLOGY..."
#
# Prints the guest's KTAP and a verdict per topology; exits non-zero if
# any topology failed.
set -eu

kernel=$1 initrd=$2 logroot=$3 tests=$4 topos=$5
top=$(cd "$(dirname "$0")/.." && pwd)
rc=0 summary= npass=0 nfail=0
for topo in $topos; do
	"$top/qemu/topology.sh" "$topo" 1 >/dev/null || exit 2
	dir=$logroot/$topo
	echo "boot-test: booting $topo (time limit ${TIMEOUT:-600}s; logs in $dir)"
	start=$(date +%s)
	qrc=0
	"$top/qemu/run.sh" "$kernel" "$initrd" "$topo" "$dir" test \
		"cas.tests=$tests" "cas.timeout=${GUEST_TIMEOUT:-600}" ${APPEND:-} || qrc=$?
	secs=$(( $(date +%s) - start ))
	[ -f "$dir/results.log" ] && tr -d '\r' <"$dir/results.log"
	vrc=0
	"$top/qemu/verdict.sh" "$dir" "$qrc" >"$dir/verdict.log" || vrc=$?
	cat "$dir/verdict.log"
	if [ $vrc = 0 ]; then
		summary="$summary\n  PASS  $topo (${secs}s)"
		npass=$((npass + 1))
	else
		nfail=$((nfail + 1))
		summary="$summary\n  FAIL  $topo (${secs}s, logs in $dir)"
		# why, repeated here: CI shows only the tail of the output
		why=$(sed -n 's/^verdict: FAIL: /        why: /p; s/^    \([0-9]*:\)/          \1/p' \
			"$dir/verdict.log" | head -12)
		[ -z "$why" ] || summary="$summary\n$why"
		# each failed subtest with the last diagnostics it printed
		sub=$(awk '/^ +# / { sub(/^ +/, ""); d[n++ % 4] = $0; next }
			/^ +not ok / { sub(/^ +/, ""); print "        failed: " $0
				for (i = (n > 4 ? n - 4 : 0); i < n; i++) print "          " d[i % 4]
				n = 0; if (++f == 4) exit; next }
			/^ +ok / { n = 0 }' "$dir/results.ktap" 2>/dev/null || true)
		[ -z "$sub" ] || summary="$summary\n$sub"
		rc=1
	fi
	# what the reliability storms ran (tests/stress.c)
	stress=$(tr -d '\r' <"$dir/results.log" 2>/dev/null | sed -n 's/^ \+# stress: /        /p' || true)
	[ -z "$stress" ] || summary="$summary\n$stress"
done
printf 'boot-test summary:%b\n' "$summary"
echo "boot-test: $npass passed, $nfail failed"
exit $rc
