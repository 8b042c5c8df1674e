#!/bin/bash
# Gates 3 and 4: Coccinelle on the files the series touches.
#
#   checks/cocci.sh kernel SERIESDIR NAME   the kernel's rules
#   checks/cocci.sh ours   SERIESDIR NAME   our rules (cocci/*.cocci)
#
# kernel: every scripts/coccinelle/**/*.cocci of the base tree that has a
#   report mode (and whose '// Requires:' spatch version is met), run as
#   scripts/coccicheck runs it (report mode, the rule's '// Options:'), on each
#   touched .c/.h file of the patched tree ($BUILD/check-NAME), then each
#   (rule, file) pair that reported there on the base tree too (a pair with
#   no patched report cannot give a new one). A report is new when its
#   (file, message) is not in those base reports (line numbers ignored,
#   duplicates counted).
# ours: every cocci/*.cocci on each touched .c/.h file of the patched tree;
#   a report counts when its line was added by the series (git blame).
# Prints "FAIL patch: file:line: message" per finding; exits 1 on findings.
set -eu
me=cocci-$1
. "$(dirname "$0")/lib.sh"

mode=$1 sdir=$2 name=$3
need_tool spatch coccinelle
SPATCH_VERSION=$(spatch --version | head -1); export SPATCH_VERSION
tree=$(series_tree "$name" "$sdir") || exit $?
files=$(touched_files "$tree" | grep -E '\.[ch]$' || true)
if [ -z "$files" ]; then
	echo "$me: the series touches no .c/.h file"
	exit 0
fi

one=$top/checks/spatch-one.sh
# run_rules TREE DIR RULES... : the reports of the Nth rule on every touched
# file there in DIR/N, and all of them in rule order on stdout. One spatch
# per rule takes all the files: its start
# (about a second of CPU time) dominated a run per rule and file, and each
# file is still matched on its own, with the same reports.
run_rules() {
	local t=$1 d=$2 r i=0 f list= extra=; shift 2
	[ "$mode" = kernel ] || extra="--macro-file $top/cocci/macros.h"
	for f in $files; do
		[ ! -f "$t/$f" ] || list="$list${list:+,}$f"
	done
	mkdir -p "$d"
	[ -n "$list" ] || return 0
	for r in "$@"; do
		i=$((i + 1))
		# (no trailing blank: xargs -L would join the next line)
		printf '%s %s %s %s%s\n' "$d/$i" "$t" "$r" "$list" "${extra:+ $extra}"
	done | xargs -P "$CHECK_JOBS" -L1 sh -c 'o=$1; shift; "$0" "$@" >"$o" 2>&1' "$one" || true
	for ((i = 1; i <= $#; i++)); do
		rule_reports "$d" "$i"
	done
}

# rule_reports DIR N: what run_rules left for the Nth rule
rule_reports() {
	[ ! -f "$1/$2" ] || cat "$1/$2"
}

# as_findings: "file:line:col-col: msg" -> "file<TAB>line<TAB>msg"
as_findings() {
	sed -n -E 's/^([^ :]+):([0-9]+):[0-9]+-[0-9]+: (.*)$/\1\t\2\t\3/p'
}

case $mode in
kernel)
	base=$(base_tree)
	spv=$(spatch --version | head -1 | awk '{print $3}')
	rules=
	for r in $(cd "$base" && find scripts/coccinelle -name '*.cocci' | sort); do
		grep -q '^virtual report' "$base/$r" || continue
		req=$(sed -n 's/^\/\/ *Requires: *//p' "$base/$r" | tr -d ' ')
		if [ -n "$req" ] && ! printf '%s\n%s\n' "$req" "$spv" | sort -CV; then
			say "skipping $r: needs spatch $req"
			continue
		fi
		if grep -qE '^@ *(script|initialize|finalize):ocaml' "$base/$r" &&
		   ! command -v ocamlopt >/dev/null && ! command -v ocamlopt.opt >/dev/null; then
			die "$r has an OCaml script and there is no OCaml compiler: install the Debian package ocaml-nox (make deps)"
		fi
		rules="$rules $base/$r"
	done
	nr=$(echo $rules | wc -w)
	say "$nr kernel rules x $(echo $files | wc -w) file(s) on the patched tree"
	out=$(mktemp -d)
	run_rules "$tree" "$out/by-rule" $rules >"$out/patched.raw"
	if grep -q 'error:' "$out/patched.raw"; then
		grep -h 'error:\|^Fatal\|exception' "$out/patched.raw" >&2
		rm -rf "$out"
		die "spatch failed on the patched tree (see above)"
	fi
	# The base only matters where the patched tree has reports: run there
	# just the (rule, file) pairs that reported, one file at a time.
	: >"$out/pairs"
	i=0
	for r in $rules; do
		i=$((i + 1))
		rule_reports "$out/by-rule" "$i" | as_findings | cut -f1 | sort -u |
			while read -r f; do
				[ -f "$base/$f" ] || continue
				printf '%s %s %s\n' "$base" "$r" "$f"
			done >>"$out/pairs"
	done
	say "$(wc -l <"$out/pairs") (rule, file) pair(s) reported there: those run on the base too"
	# One after the other (a handful, cached). Run in parallel, a report of
	# the base went missing now and then, after the series changed (not
	# explained: the inputs are kept below when a finding is new).
	while read -r bt br bf; do
		"$one" "$bt" "$br" "$bf" </dev/null || true
	done <"$out/pairs" >"$out/base.raw" 2>&1
	if grep -q 'error:' "$out/base.raw"; then
		grep -h 'error:\|^Fatal\|exception' "$out/base.raw" >&2
		rm -rf "$out"
		die "spatch failed on the base tree (see above)"
	fi
	as_findings <"$out/base.raw" >"$out/base"
	as_findings <"$out/patched.raw" >"$out/patched"
	new_findings "$out/base" "$out/patched" | pick_new "$tree" >"$out/new"
	cat "$out/new"
	# what a new finding was judged on, for when it is a surprise
	if [ -s "$out/new" ]; then
		mkdir -p "$BUILD/check-results"
		cp "$out/pairs" "$out/base.raw" "$out/patched.raw" "$BUILD/check-results/" 2>/dev/null || true
	fi
	printf '%s: %d report(s) on the patched tree, %d on base (where run), %d new\n' "$me" \
		"$(wc -l <"$out/patched")" "$(wc -l <"$out/base")" "$(wc -l <"$out/new")"
	n=$(wc -l <"$out/new")
	rm -rf "$out"
	[ "$n" = 0 ]
	;;
ours)
	# Each patch in turn: the files it touches, as they are after it; a
	# report counts when its line comes from the series (blame at that patch).
	rules=$(ls "$top"/cocci/*.cocci)
	out=$(mktemp -d)
	: >"$out/found"
	while IFS=$'\t' read -r commit patch; do
		files=$(touched_files "$tree" "$commit" | grep -E '\.[ch]$' || true)
		[ -n "$files" ] || continue
		snap=$out/snap
		rm -rf "$snap"
		for f in $files; do
			mkdir -p "$snap/$(dirname "$f")"
			git -C "$tree" show "$commit:$f" >"$snap/$f"
		done
		rm -rf "$out/by-rule"
		run_rules "$snap" "$out/by-rule" $rules >"$out/raw"
		if grep -q 'error:' "$out/raw"; then
			grep 'error:\|^Fatal\|exception' "$out/raw" >&2
			rm -rf "$out"
			die "spatch failed on the tree after $patch (see above)"
		fi
		as_findings <"$out/raw" | sort -u | attribute "$tree" "$commit" |
			grep -v '^FAIL (base line' | while IFS= read -r l; do
				# the same finding seen again after a later patch: report once
				f=${l#FAIL *: }; f=${f%%:*}; n=${l#FAIL *: *:}; n=${n%%:*}
				key="${l%%: *}|$f|${l#FAIL *: *:*: }|$(git -C "$tree" show "$commit:$f" | sed -n "${n}p")"
				grep -qxF "$key" "$out/seen" 2>/dev/null && continue
				echo "$key" >>"$out/seen"
				printf '%s\n' "$l"
			done >>"$out/found"
	done <"$tree/.check-map"
	cat "$out/found"
	printf '%s: %d finding(s) on lines added by the series (each patch checked in turn)\n' "$me" \
		"$(wc -l <"$out/found")"
	n=$(wc -l <"$out/found")
	rm -rf "$out"
	[ "$n" = 0 ]
	;;
*) die "unknown mode $mode" ;;
esac
