#!/bin/bash
# Gate 5: every patch builds, without new compiler warnings.
#
#   checks/build.sh SERIESDIR NAME
#
# The patches are applied in order ($BUILD/check-NAME, one commit each). After
# each one, kernel/sched/ and the object of every .c file the series touches
# are rebuilt with W=1, once with CONFIG_SCHED_CACHE=y (and its KUnit test)
# and once with =n, on tinyconfig + qemu/configs/base.config. A warning whose
# (file, message) is not among the same objects' warnings on the base tree
# (same fragment, no SCHED_CACHE; line numbers ignored, duplicates counted)
# fails, named with the patch that brought the line. A build error fails.
# After the last patch the whole kernel (vmlinux, bzImage) is linked, for each
# config in CHECK_LINK (default none: 'make check' links v1/v2 with 'make
# kernel', see check.sh). CHECK_OBJECTS=0 skips the per-patch objects.
# Results of a patch are cached by the hash of the patches up to it.
set -eu
me=build
. "$(dirname "$0")/lib.sh"

sdir=$1 name=$2
link_cfgs=${CHECK_LINK:-}
need_tool ccache ccache
need_tool gcc gcc
tree=$(series_tree "$name" "$sdir") || exit $?
base=$(base_tree)
outs=$BUILD/check-out
mkdir -p "$outs" "$CACHE/build"
ch=$(checks_hash build)
frag=$(hash_of "$top/qemu/configs/base.config")
mapfile -t targets < <(series_targets "$tree")
work=$(mktemp -d)
trap 'rm -rf "$work"; git -C "$tree" checkout -q -f "check-$name" 2>/dev/null || true' EXIT

# Base warnings, once per base/fragment/targets.
bkey=$(hash_of "$(git -C "$BASE_REPO" rev-parse base)" "$frag" "${targets[*]}" "$ch")
bres=$CACHE/build/base-$bkey
objs=${CHECK_OBJECTS:-1}
if [ "$objs" = 1 ] && [ ! -f "$bres" ]; then
	say "base: W=1 build of ${targets[*]}"
	ensure_config "$base" "$outs/base" base
	build_objects "$base" "$outs/base" "${targets[@]}" >"$work/base.log" ||
		{ cat "$work/base.log" >&2; die "the base tree does not build (see above)"; }
	compiler_findings "$base" <"$work/base.log" >"$bres"
fi
[ "$objs" != 1 ] || say "base: $(wc -l <"$bres") warning(s) in ${targets[*]}"

fails=0
prev=
while IFS=$'\t' read -r commit patch; do
	prev="$prev $(hash_of "$sdir/$patch")"
	[ "$objs" = 1 ] || continue
	for cfg in y n; do
		key=$(hash_of "$prev" "$cfg" "$frag" "${targets[*]}" "$ch" "$bkey")
		res=$CACHE/build/$name-$key
		if [ ! -f "$res" ]; then
			out=$outs/$name-$cfg
			git -C "$tree" checkout -q -f --detach "$commit"
			# Kconfig changes with the series: regenerate the .config when a
			# Kconfig file changed since the last configuration.
			ensure_config "$tree" "$out" "$cfg"
			[ "$cfg" = n ] || ybuilt=$commit
			if [ "$cfg" = n ] && [ "${ybuilt:-}" = "$commit" ] &&
			   cmp -s "$out/.config" "$outs/$name-y/.config"; then
				# SCHED_CACHE does not exist yet: same config as =y.
				cp "$CACHE/build/$name-$ykey" "$res"
				continue
			fi
			say "$patch: W=1 build, CONFIG_SCHED_CACHE=$cfg"
			{
				if build_objects "$tree" "$out" "${targets[@]}" >"$work/log"; then
					compiler_findings "$tree" <"$work/log" >"$work/found"
					new_findings "$bres" "$work/found" | pick_new "$tree" "$commit" |
						sed "s/\$/ [CONFIG_SCHED_CACHE=$cfg]/"
				else
					printf 'FAIL %s: build error with CONFIG_SCHED_CACHE=%s:\n' "$patch" "$cfg"
					grep -E 'error|Error|undefined' "$work/log" | head -20 | sed 's/^/    /'
				fi
			} >"$res.tmp"
			# a build error is not cached (it may be the machine's)
			if grep -q '^FAIL .*: build error' "$res.tmp"; then
				cat "$res.tmp"
				fails=$((fails + 1))
				rm -f "$res.tmp"
				continue
			fi
			mv "$res.tmp" "$res"
		fi
		[ "$cfg" = y ] && ykey=$key
		if [ -s "$res" ]; then
			cat "$res"
			fails=$((fails + $(grep -c '^FAIL' "$res")))
		fi
	done
done <"$tree/.check-map"
git -C "$tree" checkout -q -f "check-$name"

# The whole kernel, after the last patch.
for cfg in $link_cfgs; do
	key=$(hash_of "$prev" "$cfg" "$frag" "$ch" link)
	res=$CACHE/build/$name-link-$key
	if [ ! -f "$res" ]; then
		out=$outs/$name-$cfg
		ensure_config "$tree" "$out" "$cfg"
		say "whole kernel (vmlinux, bzImage), CONFIG_SCHED_CACHE=$cfg"
		if kmake "$tree" "$out" W=1 bzImage >"$work/log" 2>&1; then
			: >"$res"
		else
			tail -30 "$work/log" >&2
			printf 'FAIL %s: the whole kernel does not build with CONFIG_SCHED_CACHE=%s:\n' \
				"$(tail -1 "$tree/.check-map" | cut -f2)" "$cfg"
			grep -E 'error|Error|undefined' "$work/log" | head -20 | sed 's/^/    /'
			fails=$((fails + 1))
			continue
		fi
	fi
	if [ -s "$res" ]; then
		cat "$res"
		fails=$((fails + 1))
	fi
done
printf '%s: %d patch(es) x CONFIG_SCHED_CACHE=y/n%s: %d failure(s)\n' "$me" \
	"$(wc -l <"$tree/.check-map")" "${link_cfgs:+, whole kernel linked with =$link_cfgs}" "$fails"
[ $fails = 0 ]
