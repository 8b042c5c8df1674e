#!/bin/bash
# The cache model's host self-test: qemu/plugins/llc.c compiled into
# qemu/plugins/llc-host.c, a driver that feeds it access streams whose
# counts are known, must pass every case; each mutant of the model in
# tests/harness/llc-mutants/ (a sed script: a fill counted as a transfer,
# no 'all' space, a virtual index, random replacement, first in first
# out, no invalidation, an upgrade counted as a transfer, transfers or
# invalidations charged to the wrong LLC, no eviction count, the second
# part of a page-crossing access taken as a load, half the sets) must
# fail the case its "# expect:" line names. KTAP on stdout; exit 1 on a failure.
#
#   qemu/model-hosttest.sh BUILD
set -eu

build=${1:?usage: qemu/model-hosttest.sh BUILD}
top=$(cd "$(dirname "$0")/.." && pwd)
die() { printf 'model-hosttest: error: %s\n' "$*" >&2; exit 2; }
hdr=$build/qemu-src/include/qemu
[ -f "$hdr/qemu-plugin.h" ] || die "no $hdr/qemu-plugin.h: run 'make deps' (it fetches QEMU's source)"
work=$(cd "$build" && pwd)/model-hosttest
rm -rf "$work"
mkdir -p "$work"

# build NAME SRC: the driver around model source SRC (beside llc-mark.h)
build_one() {
	gcc -O2 -Wall -Wextra -Wno-unused-parameter -Werror -I "$top/qemu/plugins" -I "$hdr" \
		-DLLC_SRC="\"$2\"" -o "$work/$1" "$top/qemu/plugins/llc-host.c" >"$work/$1.cc" 2>&1
}

mutants=("$top"/tests/harness/llc-mutants/*.sed)
echo "KTAP version 1"
echo "1..$((1 + ${#mutants[@]}))"
n=0 failed=0
result() {	# OK NAME [OUTPUT]
	n=$((n + 1))
	if [ "$1" = 1 ]; then
		echo "ok $n $2"
	else
		[ -z "${3:-}" ] || sed 's/^/    # /' "$3" | tail -n 20
		echo "not ok $n $2"
		failed=$((failed + 1))
	fi
}

# the model as it is: every case passes
ok=0
if build_one model "$top/qemu/plugins/llc.c"; then
	timeout 120 "$work/model" >"$work/model.out" 2>&1 && ok=1
else
	cp "$work/model.cc" "$work/model.out"
fi
sed 's/^/    /' "$work/model.out"
result $ok "the model passes every case"

# each mutant fails the case it names
for m in "${mutants[@]}"; do
	name=$(basename "$m" .sed)
	case_=$(sed -n 's/^# expect: //p' "$m" | head -1)
	[ -n "$case_" ] || die "$m has no '# expect: CASE' line"
	d=$work/$name
	mkdir -p "$d"
	cp "$top/qemu/plugins/llc.c" "$top/qemu/plugins/llc-mark.h" "$d/"
	sed -i -f "$m" "$d/llc.c"
	ok=0
	if cmp -s "$top/qemu/plugins/llc.c" "$d/llc.c"; then
		echo "mutant $name changed nothing in llc.c: the sed script is stale" >"$d/out"
	elif ! build_one "$name/bin" "$d/llc.c"; then
		cp "$work/$name/bin.cc" "$d/out"
	elif timeout 120 "$d/bin" >"$d/out" 2>&1; then
		echo "mutant $name passed every case" >>"$d/out"
	elif grep -qE "^not ok [0-9]+ $case_\$" "$d/out"; then
		ok=1
	else
		echo "mutant $name failed, but not the case $case_" >>"$d/out"
	fi
	result $ok "mutant $name rejected by $case_" "$d/out"
done
echo "model-hosttest: $((n - failed)) passed, $failed failed"
[ "$failed" = 0 ]
