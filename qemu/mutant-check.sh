#!/bin/bash
# The v2 tests' behavioural negative control: v2 kernels each with one
# mechanism broken on purpose (tests/mutants/*.patch), each of which must
# make the subtests that tests/mutants/expect.tsv names for it fail, and
# fail for nothing but failed tests (no splat, hang, crash, taint or skip).
#
#   qemu/mutant-check.sh BUILD [MUTANT...]
#
# MUTANT: a patch's name without .patch (default: every one, in order).
# make mutant-check runs it after building the guest's initramfs of v2.
# MUTANT_JUDGE_ONLY=1 judges the last boots' logs again (after a change to
# tests/mutants/expect.tsv) without building or booting.
#
# The mutants' tree, BUILD/mutant/src-v2, is this check's own: a worktree
# of BUILD/linux-base with series-v2 applied (all of it: the mutants are
# v2 with one change, booted as v2; the tests do not need the DEBUG
# tracepoints, which stay in so the only difference is the mutant). Each
# mutant is applied, built into BUILD/mutant/out-v2, reversed, then
# booted: one tree and one output folder, so a mutant after the first
# rebuilds only what it changes (kernel/sched/fair.c and the release).
# The first build starts from a copy of v2's own (see seed_out()): about
# 5 minutes on a loaded 2-core host, against an hour cold there (ccache
# held no v2 objects). Local changes found in that tree, other than a
# mutant this check left applied, stop the check (remove the folder to
# start afresh).
#
# Each boot runs the test programs of the subtests listed for its mutant.
# Judged per subtest, from the boot's results.ktap: each listed subtest
# must be "not ok" (one that passes, skips or is missing fails the
# check); the boot's verdict may fail only for failed tests; other
# subtests that fail are reported, not judged.
set -eu

me=mutant-check
build=${1:?usage: qemu/mutant-check.sh BUILD [MUTANT...]}; shift
top=$(cd "$(dirname "$0")/.." && pwd)
die() { printf '%s: error: %s\n' "$me" "$*" >&2; exit 1; }
say() { printf '%s: %s\n' "$me" "$*"; }

mdir=$top/tests/mutants
table=$mdir/expect.tsv
topo=${MUTANT_TOPOLOGY:-2x2x4}
[ -r "$table" ] || die "$table not found"
mkdir -p "$build"
build=$(cd "$build" && pwd)
initrd=$build/initramfs-v2-base.cpio.gz
[ "${MUTANT_JUDGE_ONLY:-0}" = 1 ] || [ -s "$initrd" ] || die "$initrd not found (make initramfs SERIES=v2)"

# the mutants to run, each with at least one subtest that must fail
all=$(ls "$mdir"/*.patch 2>/dev/null | sed 's|.*/||; s|\.patch$||')
[ -n "$all" ] || die "no mutants in $mdir"
want=${*:-$all}
for m in $want; do
	[ -r "$mdir/$m.patch" ] || die "no mutant $m ($mdir/$m.patch)"
	awk -F'\t' -v m="$m" '$1 == m { f = 1 } END { exit !f }' "$table" ||
		die "$table lists no subtest that mutant $m must fail"
done
for m in $(awk -F'\t' '!/^#/ && NF { print $1 }' "$table" | sort -u); do
	[ -r "$mdir/$m.patch" ] || die "$table names mutant $m, which has no patch"
done

src=$build/mutant/src-v2 out=$build/mutant/out-v2
# the mutant applied to the tree now (out of it: untracked files count in its identity)
mark=$build/mutant/applied

# The tree: series-v2 on the base (and its fixes) as every tree has it
prepare_tree() {
	local base=$build/linux-base patches stamp left
	"$top/qemu/tree.sh" "$build" none >/dev/null
	. "$top/qemu/base.env"
	. "$top/qemu/am.sh"
	patches=$(ls "$top"/series-v2/[0-9]*.patch)
	stamp=$( (git -C "$base" rev-parse base; cat $patches) | sha1sum | cut -c1-12)

	# A mutant left applied by an interrupted run is reversed; anything else
	# is someone's work: stop
	if [ -d "$src" ]; then
		if [ -s "$mark" ]; then
			left=$(cat "$mark")
			git -C "$src" apply -R "$mdir/$left.patch" ||
				die "$src: cannot reverse mutant $left, left applied by an earlier run; remove $build/mutant"
			rm -f "$mark"
			say "reversed mutant $left, left applied by an earlier run"
		fi
		[ -z "$(git -C "$src" status --porcelain --untracked-files=no)" ] ||
			die "$src has local changes that are no mutant of this check; it is the check's own tree: remove $build/mutant"
	fi
	if [ "$(cat "$src/.series-stamp" 2>/dev/null)" != "$stamp" ]; then
		if [ -d "$src" ]; then
			git -C "$src" am --abort >/dev/null 2>&1 || true
			git -C "$src" reset -q --hard base
		else
			mkdir -p "$build/mutant"
			git -C "$base" worktree prune
			git -C "$base" worktree add -q -f -B mutant-v2 "$src" base
		fi
		rm -f "$src/.series-stamp"
		am_all "$src" "" $patches
		echo "$stamp" >"$src/.series-stamp"
		say "$src: series-v2 applied ($stamp)"
	fi
}
[ "${MUTANT_JUDGE_ONLY:-0}" = 1 ] || prepare_tree

# Build the tree as it is now (with one mutant applied), one kernel build
# at a time on this machine (qemu/kernel.sh's lock in BUILD).
#
# Where BUILD/out-v2 holds v2 built from this very code (its release names
# the tree's identity), the output folder starts as a copy of it, the
# tree's files dated before its objects, and each build runs in a mount
# namespace of its own where the tree and the output folder are mounted
# at BUILD/src-v2 and BUILD/out-v2 (seen only there; v2's own are left
# alone): the compiler's command lines are then v2's own, so Kbuild
# rebuilds only what the mutant changed, and qemu/kernel.sh takes its lock
# in BUILD. Otherwise the tree is built where it is (cold the first time;
# the lock is taken here for kernel.sh, whose own would be BUILD/mutant's).
frags=("$top/qemu/configs/base.config" "$top/qemu/configs/series-v2.config")
seed_out() {
	local id rel stamp
	id=$("$top/qemu/identity.sh" "$src")
	rel=$(cat "$build/out-v2/include/config/kernel.release" 2>/dev/null || true)
	stamp=$(cat "$src/.series-stamp")
	[ "$(cat "$out/.mutant-seed" 2>/dev/null)" != "$stamp" ] || return 0
	case $rel in
	*-cas-"$id") [ -d "$build/src-v2" ] && [ -f "$build/out-v2/arch/x86/boot/bzImage" ] || return 0 ;;
	*) return 0 ;;
	esac
	# a mount namespace needs root (CAP_SYS_ADMIN)
	unshare --mount --propagation private true 2>/dev/null || return 0
	(
		exec 8>"$build/.kernel.lock"
		flock -n 8 || { echo "$me: waiting for another kernel build to finish ($build/.kernel.lock)" >&2; flock 8; }
		rm -rf "$out"
		cp -a "$build/out-v2" "$out"
	)
	# the tree's files older than every object; kernel.sh's stamp of the
	# configuration as it computes it for this tree
	git -C "$src" ls-files -z | (cd "$src" && xargs -0 touch -h -d @946684800)
	cat "${frags[@]}" "$src/.series-stamp" | sha1sum | cut -c1-12 >"$out/.fragment-stamp"
	echo "$stamp" >"$out/.mutant-seed"
	say "$out: a copy of $build/out-v2 ($rel), the same code"
}
build_kernel() {
	if [ -s "$out/.mutant-seed" ]; then
		CCACHE_DIR=${CCACHE_DIR:-$build/ccache} unshare --mount --propagation private -- \
			bash -c 'set -e; mount --bind "$1" "$3"; mount --bind "$2" "$4"; shift 4; exec "$@"' \
			mutant "$src" "$out" "$build/src-v2" "$build/out-v2" \
			"$top/qemu/kernel.sh" "$build/src-v2" "$build/out-v2" "${frags[@]}"
		return
	fi
	(
		exec 8>"$build/.kernel.lock"
		flock -n 8 || { echo "$me: waiting for another kernel build to finish ($build/.kernel.lock)" >&2; flock 8; }
		CCACHE_DIR=${CCACHE_DIR:-$build/ccache} "$top/qemu/kernel.sh" "$src" "$out" "${frags[@]}"
	)
}
[ "${MUTANT_JUDGE_ONLY:-0}" = 1 ] || seed_out

# The results of one boot, a line each: PROGRAM SUBTEST ok|not-ok|skip
# (kselftest's subtests, indented by 4 under their program's result)
subtests() {
	awk '/^    (not )?ok [0-9]+ / {
			st = ($1 == "not") ? "not-ok" : (/ # SKIP/ ? "skip" : "ok")
			name = $0; sub(/^    (not )?ok [0-9]+ /, "", name); sub(/ # .*/, "", name)
			buf[n++] = name "\t" st; next }
		/^(not )?ok [0-9]+ / {
			prog = $0; sub(/^(not )?ok [0-9]+ /, "", prog); sub(/ # .*/, "", prog)
			for (i = 0; i < n; i++) print prog "\t" buf[i]
			n = 0 }' "$1"
}

[ "${MUTANT_JUDGE_ONLY:-0}" = 1 ] ||
	trap 'if [ -s "$mark" ]; then git -C "$src" apply -R "$mdir/$(cat "$mark").patch" && rm -f "$mark"; fi' EXIT
bad=0 summary=
for m in $want; do
	logs=$build/logs/mutant-$m
	say "mutant $m: $(sed -n 's/^Subject: //p' "$mdir/$m.patch" | head -1)"
	dir=$logs/$topo
	if [ "${MUTANT_JUDGE_ONLY:-0}" = 1 ]; then
		brc=$(sed -n 's/^boot-test: [0-9]* passed, \([0-9]*\) failed$/\1/p' "$logs.log" 2>/dev/null || true)
		# the boots judged again must be of this very mutant
		[ "$(cat "$logs.patch" 2>/dev/null)" = "$(sha1sum <"$mdir/$m.patch")" ] ||
			brc=stale
		built=- secs=-
	else
		git -C "$src" apply --check "$mdir/$m.patch" ||
			die "mutant $m does not apply to series-v2: update $mdir/$m.patch"
		echo "$m" >"$mark"
		git -C "$src" apply "$mdir/$m.patch"
		start=$(date +%s)
		if ! build_kernel >"$build/mutant/kernel-$m.log" 2>&1; then
			tail -20 "$build/mutant/kernel-$m.log" >&2
			die "mutant $m does not build (log: $build/mutant/kernel-$m.log)"
		fi
		git -C "$src" apply -R "$mdir/$m.patch"
		rm -f "$mark"
		built=$(( $(date +%s) - start ))

		rm -rf "$logs"
		sha1sum <"$mdir/$m.patch" >"$logs.patch"
		brc=0
		# the programs of the subtests it must fail
		tests=$(awk -F'\t' -v m="$m" '$1 == m { print $2 }' "$table" | sort -u | paste -sd, -)
		APPEND="${APPEND:-} cas.series=v2 cas.config=base cas.stress=short" \
			"$top/qemu/boot-test.sh" "$out/arch/x86/boot/bzImage" "$initrd" "$logs" "$tests" "$topo" \
			>"$logs.log" 2>&1 || brc=$?
		secs=$(( $(date +%s) - start - built ))
	fi
	fail() { printf '  FAIL: %s\n' "$*"; bad=1; mbad=1; }
	mbad=0
	echo "mutant $m (build ${built} s, boot ${secs} s; logs in $dir):"
	if [ ! -s "$dir/results.ktap" ] || [ ! -s "$dir/verdict.log" ]; then
		fail "no judged results (see $logs.log)"
	else
		case $brc in
		0)	fail "the boot passed: no test noticed the mutant" ;;
		'')	fail "no boot-test summary in $logs.log" ;;
		stale)	fail "the logs are of another $m.patch than today's: boot it again" ;;
		esac
		# why the verdict failed: failed tests only (the kernel's KTAP
		# parser exits non-zero on them too, and says it completed)
		other=$(sed -n 's/^verdict: FAIL: //p' "$dir/verdict.log" |
			grep -v -E '^(failed tests:|not what expect\.tsv expects of this boot:|kunit\.py parse: Testing complete\. Ran [0-9]+ tests: .*failed: [1-9])' || true)
		[ -z "$other" ] || fail "the boot failed for more than its tests: $other"
		other=$(grep -v -E '^expect: .* failed$|problem\(s\)$' "$dir/expect.log" 2>/dev/null || true)
		[ -z "$other" ] || fail "expectations broken otherwise than by failed tests: $other"
		subtests "$dir/results.ktap" >"$dir/subtests.tsv"
		while IFS=$'\t' read -r mm prog sub why; do
			st=$(awk -F'\t' -v p="$prog" -v s="$sub" '$1 == p && $2 == s { print $3 }' "$dir/subtests.tsv")
			case $st in
			not-ok)	echo "  ok: $prog: $sub failed ($why)" ;;
			"")	fail "$prog: $sub not reported (must fail: $why)" ;;
			*)	fail "$prog: $sub: $st (must fail: $why)" ;;
			esac
		done < <(awk -F'\t' -v m="$m" '$1 == m' "$table")
		awk -F'\t' '$3 == "not-ok" { print $1 "\t" $2 }' "$dir/subtests.tsv" | while IFS=$'\t' read -r prog sub; do
			awk -F'\t' -v m="$m" -v p="$prog" -v s="$sub" '$1 == m && $2 == p && $3 == s { f = 1 } END { exit !f }' "$table" ||
				echo "  also failed (not required): $prog: $sub"
		done
	fi
	summary="$summary\n  $([ $mbad = 0 ] && echo PASS || echo FAIL)  $m"
done
printf '%s summary:%b\n' "$me" "$summary"
[ "$bad" = 0 ] || die "a mutant of v2 passed a subtest that must catch it, or failed otherwise than by its tests"
say "every mutant failed the subtests listed for it, and only by failed tests"
