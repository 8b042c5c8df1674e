#!/bin/bash
# Gate 2: sparse finds nothing new.
#
#   checks/sparse.sh SERIESDIR NAME
#
# 'make C=2 CHECK=sparse' on kernel/sched/ and the object of each .c file the
# series touches, on the base tree ($BUILD/check-base, tinyconfig +
# qemu/configs/base.config) and on the patched tree ($BUILD/check-NAME, the
# same + CONFIG_SCHED_CACHE=y and its KUnit test). Every sparse line
# "file:line:col: message" (continuation lines included) is compared by
# (file, message), line numbers ignored, duplicates counted; a new one fails,
# named with the patch that brought its line (git blame).
set -eu
me=sparse
. "$(dirname "$0")/lib.sh"

sdir=$1 name=$2
need_tool sparse sparse
need_tool ccache ccache
tree=$(series_tree "$name" "$sdir") || exit $?
base=$(base_tree)
outs=$BUILD/check-out
mkdir -p "$CACHE/sparse"
mapfile -t targets < <(series_targets "$tree")
frag=$(hash_of "$top/qemu/configs/base.config")
spv=$(sparse --version)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# sparse_run TREE OUT CFG RESULT: the sparse findings of the targets there.
sparse_run() {
	local t=$1 out=$2 cfg=$3 res=$4 o
	[ ! -f "$res" ] || return 0
	ensure_config "$t" "$out" "$cfg"
	# Objects first (their compiler output is gate 5's business) ...
	build_objects "$t" "$out" "${targets[@]}" >"$work/build.log" ||
		{ cat "$work/build.log" >&2; die "$t does not build with CONFIG_SCHED_CACHE=$cfg"; }
	# ... then sparse alone on every source of those targets.
	say "sparse on ${targets[*]} in ${t##*/}"
	for o in "${targets[@]}"; do
		case $o in */) ;; *) [ -f "$t/${o%.o}.c" ] || continue ;; esac
		kmake "$t" "$out" W=1 C=2 CHECK=sparse "$o" 2>&1 || true
	done >"$work/sparse.log"
	if grep -q 'No such file\|command not found\|Error [0-9]' "$work/sparse.log"; then
		grep 'No such file\|command not found\|Error [0-9]' "$work/sparse.log" >&2
		die "sparse did not run (see above)"
	fi
	sed -n -E 's/^([^ :]+\.[chS]):([0-9]+):([0-9]+): (.*)$/\1\t\2\t\4/p' "$work/sparse.log" |
		sed -E "s#^$t/##; s#^(\.\./)+([^/]+/)*check-[^/]+/##; s#^\./##" >"$res.tmp"
	mv "$res.tmp" "$res"
}

bres=$CACHE/sparse/base-$(hash_of "$(git -C "$BASE_REPO" rev-parse base)" "$frag" "${targets[*]}" "$spv" "$(checks_hash sparse)")
pres=$CACHE/sparse/$name-$(hash_of "$(cat "$tree/.check-stamp")" "$frag" "${targets[*]}" "$spv" "$(checks_hash sparse)")
sparse_run "$base" "$outs/base" base "$bres"
sparse_run "$tree" "$outs/$name-y" y "$pres"
new_findings "$bres" "$pres" | pick_new "$tree" >"$work/new"
cat "$work/new"
printf '%s: %d warning(s) on base, %d on the patched tree (CONFIG_SCHED_CACHE=y), %d new\n' "$me" \
	"$(wc -l <"$bres")" "$(wc -l <"$pres")" "$(wc -l <"$work/new")"
[ ! -s "$work/new" ]
