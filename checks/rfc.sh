#!/bin/bash
# make rfc: the posting. Writes BUILD/rfc/ with git format-patch
# (--cover-letter, subject prefix "RFC PATCH v2", base-commit naming the
# Debian base), the cover letter filled in from series-v2/cover-letter.txt,
# CHANGELOG, the last make bench results and make check's results for v1
# and v2; then verifies what it wrote:
#   - the patches apply with git am on a fresh checkout of the base;
#   - the result builds (bzImage, the boot tests' configuration);
#   - checkpatch --strict passes on the generated patches;
#   - every patch has a body and a "sched/...: " subject;
#   - the cover letter has the table the results give and stays under 12 KB;
#   - Debian's b4 (b4 am, offline) takes the mbox (BUILD/rfc/series.mbox)
#     and yields the same patches in order, with the cover letter and the
#     base-commit recognised, and git am of its output on a fresh base
#     gives the same commits (messages, trailers) and tree.
#
#   checks/rfc.sh            (FROM="Name <mail>", SIGNOFF="Name <mail>")
set -eu
me=rfc
. "$(dirname "$0")/lib.sh"
. "$top/qemu/base.env"

out=$BUILD/rfc
work=$BUILD/rfc-git
verify=$BUILD/rfc-verify
FROM=${FROM:-}
SIGNOFF=${SIGNOFF:-}
need_base
need_tool git git
need_tool b4 b4
for v in FROM SIGNOFF; do
	eval "val=\${$v}"
	[ -z "$val" ] || printf '%s\n' "$val" | grep -qE '^[^<>]+ <[^<>@ ]+@[^<> ]+>$' ||
		die "$v=\"$val\" is not of the form 'Name <mail@host>'"
done

# ---- the check results that go into the cover letter
check_summary() {	# SERIES [short]: one line per gate (short: failures only)
	local r=$BUILD/check-results/$1 g rc passed=
	[ -s "$r/identity" ] || die "make check results for $1 name no code identity: run 'make check SERIES=$1'"
	printf '  (code %s)\n' "$(cat "$r/identity")"
	for g in selftest cocci-rules checkpatch sparse cocci-kernel cocci-ours build link; do
		[ -f "$r/$g.rc" ] || die "no make check result for $1 ($g): run 'make check SERIES=$1'"
		read -r rc _ <"$r/$g.rc"
		if [ "$rc" = 0 ] && [ -n "${2:-}" ]; then
			passed="$passed $g"
			continue
		fi
		printf '  %-4s %-13s %s\n' "$([ "$rc" = 0 ] && echo PASS || echo FAIL)" "$g" \
			"$(tail -1 "$r/$g.log" | sed "s|$top/||g; s|$BUILD/||g")"
	done
	[ -z "$passed" ] || printf '  PASS%s\n' "$passed"
}
{
	echo "v2 (this series):"
	check_summary v2
	echo
	echo "v1 (ported to the same base, for comparison):"
	check_summary v1 short
} >"$BUILD/rfc-check.txt"

# ---- the series as commits on the base, then format-patch
rm -rf "$out"
git -C "$BASE_REPO" worktree remove --force "$work" 2>/dev/null || rm -rf "$work"
git -C "$BASE_REPO" worktree prune
git -C "$BASE_REPO" worktree add -q -f -B rfc "$work" base >/dev/null ||
	die "cannot create worktree $work"
id_name() { printf '%s' "${1% <*}"; }
id_mail() { local m=${1##*<}; printf '%s' "${m%>}"; }
committer=${SIGNOFF:-${FROM:-Cache-aware scheduling v2 <cas-v2@localhost>}}
export GIT_COMMITTER_NAME GIT_COMMITTER_EMAIL
GIT_COMMITTER_NAME=$(id_name "$committer") GIT_COMMITTER_EMAIL=$(id_mail "$committer")
am_args=()
[ -z "$SIGNOFF" ] || am_args+=(--signoff)
for p in $(series_patches "$top/series-v2"); do
	if ! git -C "$work" am -q "${am_args[@]}" "$p" >"$BUILD/rfc-am.log" 2>&1; then
		git -C "$work" am --abort >/dev/null 2>&1 || true
		sed 's/^/  /' "$BUILD/rfc-am.log" >&2
		die "series-v2/$(basename "$p") does not apply to the base"
	fi
	if [ -n "$FROM" ]; then
		GIT_AUTHOR_NAME=$(id_name "$FROM") GIT_AUTHOR_EMAIL=$(id_mail "$FROM") \
			git -C "$work" commit -q --amend --no-edit --reset-author
	fi
done
n=$(git -C "$work" rev-list --count base..HEAD)

# first_accepted KIND ID DIR...: the first DIR that qemu/KIND-accept.sh
# accepts for code ID (its line in rfc-KIND-accept.log); the others' reasons
# go to stderr. Prints nothing when none is.
first_accepted() {
	local kind=$1 id=$2 d
	shift 2
	for d; do
		if "$top/qemu/$kind-accept.sh" "$d" "$id" >"$BUILD/rfc-$kind-accept.log" 2>&1; then
			echo "$d"
			return
		fi
		sed "s|$top/||g; s/^/  /" "$BUILD/rfc-$kind-accept.log" >&2
	done
}

# ---- the bench that goes into the cover letter: one of this very code
# (qemu/identity.sh) whose checks all passed; the last make bench, or the
# one recorded in series-v2/bench/
id=$("$top/qemu/identity.sh" "$work")
bench=$(first_accepted bench "$id" "$BUILD/bench" "$top/series-v2/bench")
[ -n "$bench" ] || die "no make bench results of this series ($id) whose checks passed: run 'make bench'"
# ---- the sanitizers: a passing boot of this very code on the debug kernel
# (make debug-check), here or recorded in series-v2/debug/
debug=$(first_accepted debug "$id" "$BUILD/debug" "$top/series-v2/debug")
[ -n "$debug" ] || die "no passing debug-kernel run (KASAN, UBSAN, kmemleak, lockdep) of this series ($id): run 'make debug-check'"
say "$(sed "s|$top/||" "$BUILD/rfc-debug-accept.log")"
# ---- the load sweep, on each topology make sweep runs by default (the
# Makefile's SWEEP_TOPOLOGIES): one of this very code, whole, that today's
# judge passes in every cell, here or recorded in series-v2/sweep/
for t in 2x2x4 1x4x2; do
	sweep=$(first_accepted sweep "$id" "$BUILD/sweep/$t" "$top/series-v2/sweep/$t")
	[ -n "$sweep" ] ||
		die "no make sweep results on $t of this series ($id) that pass today's judge: run 'make sweep TOPOLOGY=$t'"
	say "$(sed "s|$top/||" "$BUILD/rfc-sweep-accept.log")"
done
[ "$(cat "$BUILD/check-results/v2/identity")" = "$id" ] ||
	die "make check's results are of code $(cat "$BUILD/check-results/v2/identity"), the series is $id: run 'make check SERIES=v2'"
say "bench results from ${bench#"$top"/}/results.tsv (v2 $id)"
# the rows the bench's checks judge, plus stream's cache and on-CPU figures
# (the known limitation) and the scan's cost where it is highest; the
# whole table is the bench's results.tsv
METRICS="$(awk -F'\t' '!/^#/ && NF { print $2 ":" $3 }' "$top/tests/bench/checks.tsv" |
	awk '!seen[$0]++' | paste -sd' ') stream:llc_misses_per_kacc stream:oncpu_pct latency:p99_us hackbench-N:scan_cpu_pct" \
	"$top/qemu/bench-table.sh" "$bench/results.tsv" "$bench/run.env" "$bench/checks.tap" >"$BUILD/rfc-bench.txt"
git -C "$work" format-patch -q -o "$out" --cover-letter --subject-prefix="RFC PATCH v2" \
	--base=base --no-signature --thread=shallow base..HEAD
base_sha=$(git -C "$BASE_REPO" rev-parse base)
base_desc="Debian $BASE_PACKAGE $BASE_VERSION, the tarball extracted as one commit"
nfix=$(git -C "$BASE_REPO" rev-list --count tarball..base 2>/dev/null || echo 0)
if [ "$nfix" -gt 0 ]; then
	base_desc="$base_desc, plus $nfix fix(es) to that kernel (not part of this series; qemu/base-fixes/):$(
		git -C "$BASE_REPO" log --reverse --format=' "%s"' tarball..base | paste -sd ';')"
fi
# base-commit stays machine-readable; the line after it names the base
sed -i "s|^base-commit: $base_sha\$|&\\nbase: $base_desc|" "$out"/*.patch

# ---- the cover letter
cover=$out/0000-cover-letter.patch
# the section up to the next underlined heading
changes=$(awk '/^Changes since v1/ { on = 1; getline; next }
	on && /^----+$/ { stop = 1; exit }
	on { if (n++) print prev; prev = $0 }
	END { if (on && !stop && n) print prev }' \
	"$top/CHANGELOG" | sed -e :a -e '/^\n*$/{$d;N;ba' -e '}')
[ -n "$changes" ] || die "CHANGELOG has no 'Changes since v1' section"
subject=$(sed -n 's/^Subject: //p' "$top/series-v2/cover-letter.txt")
V1_LINK='https://lore.kernel.org/all/?q=s%3A%22Introduce+Cache+aware+scheduling%22+f%3Ayu.c.chen (2025-04-21, "[RFC PATCH 0/5] sched: Introduce Cache aware scheduling")'
BASE_TEXT="$base_desc"
awk -v subject="$subject" \
    -v blurbfile="$top/series-v2/cover-letter.txt" \
    -v benchfile="$BUILD/rfc-bench.txt" -v checkfile="$BUILD/rfc-check.txt" \
    -v changes="$changes" -v v1="$V1_LINK" -v base="$BASE_TEXT" '
	function slurp(f,   s, l) { s = ""; while ((getline l < f) > 0) s = s l "\n"; close(f); return s }
	function blurb(   s, l, started) {
		while ((getline l < blurbfile) > 0) {
			if (!started && (l ~ /^Subject: / || l == "")) continue
			started = 1
			if (l == "@BENCH_TABLE@") { printf "%s", slurp(benchfile); continue }
			if (l == "@CHECK_RESULTS@") { printf "%s", slurp(checkfile); continue }
			if (l == "@CHANGES_SINCE_V1@") { print changes; continue }
			gsub(/@V1_LINK@/, v1, l)
			gsub(/@BASE@/, base, l)
			print l
		}
	}
	/\*\*\* SUBJECT HERE \*\*\*/ { sub(/\*\*\* SUBJECT HERE \*\*\*/, subject) }
	/^\*\*\* BLURB HERE \*\*\*$/ { blurb(); next }
	{ print }' "$cover" >"$cover.new"
mv "$cover.new" "$cover"

# Headers on one line each: git folds a long Subject or From, and b4 0.12
# (Debian 12) fails on folded headers ("Header values may not contain
# linefeed"); RFC 5322 allows lines of up to 998 characters
for p in "$out"/0*.patch; do
	awk 'NR == 1 { hdr = 1 }
	hdr && /^[ \t]/ { sub(/^[ \t]+/, " "); prev = prev $0; next }
	{ if (NR > 1) print prev; prev = $0 }
	hdr && /^$/ { hdr = 0 }
	END { if (NR) print prev }' "$p" >"$p.new"
	mv "$p.new" "$p"
done
cat "$out"/0*.patch >"$out/series.mbox"
say "wrote $n patches, the cover letter and series.mbox to ${out#"$top"/}"

# ---- verification
fail=0 t=0
result() {	# STATUS DESCRIPTION
	t=$((t + 1))
	if [ "$1" = 0 ]; then echo "ok $t $2"; else echo "not ok $t $2"; fail=1; fi
}
echo "TAP version 13"
echo "1..7"

# 1. git am on a fresh checkout of the base
git -C "$BASE_REPO" worktree remove --force "$verify" 2>/dev/null || rm -rf "$verify"
git -C "$BASE_REPO" worktree prune
git -C "$BASE_REPO" worktree add -q -f --detach "$verify" base >/dev/null
rc=0
for p in "$out"/0*.patch; do
	[ "$p" = "$cover" ] && continue
	if ! git -C "$verify" am -q "$p" >"$BUILD/rfc-am.log" 2>&1; then
		echo "# $(basename "$p") does not apply:"
		git -C "$verify" apply --check -v "$p" 2>&1 | grep -iE 'error|failed|checking' | sed 's/^/#   /'
		git -C "$verify" am --abort >/dev/null 2>&1 || true
		rc=1
		break
	fi
done
result $rc "the $n patches apply with git am on a fresh checkout of the base"

# 2. the result builds
rc=0
if [ $fail = 0 ]; then
	"$top/qemu/kernel.sh" "$verify" "$BUILD/rfc-out" "$top/qemu/configs/base.config" \
		"$top/qemu/configs/series-v2.config" >"$BUILD/rfc-build.log" 2>&1 || rc=$?
	[ $rc = 0 ] || tail -20 "$BUILD/rfc-build.log" | sed 's/^/#   /'
else
	rc=1
fi
result $rc "the result builds (bzImage, CONFIG_SCHED_CACHE=y; log: ${BUILD#"$top"/}/rfc-build.log)"

# 3. checkpatch on the generated patches (the cover letter has no diff)
rm -rf "$BUILD/rfc-cp" && mkdir -p "$BUILD/rfc-cp"
cp "$out"/0*.patch "$BUILD/rfc-cp/" && rm "$BUILD/rfc-cp/0000-cover-letter.patch"
rc=0
"$top/checks/checkpatch.sh" "$BUILD/rfc-cp" >"$BUILD/rfc-checkpatch.log" 2>&1 || rc=$?
sed 's/^/# /' "$BUILD/rfc-checkpatch.log" | grep -v '^# allowed' || true
result $rc "checkpatch --strict on the generated patches"

# 4. every patch has a body; 5. subjects
rc=0 rs=0
for p in "$out"/0*.patch; do
	name=$(basename "$p")
	subj=$(awk '/^Subject: /{ s = $0; getline; while ($0 ~ /^ /) { s = s $0; getline } print s; exit }' "$p")
	if [ "$p" = "$cover" ]; then
		printf '%s\n' "$subj" | grep -qE "^Subject: \[RFC PATCH v2 0+/$n\] sched: " ||
			{ echo "# $name: subject '$subj'"; rs=1; }
		continue
	fi
	printf '%s\n' "$subj" | grep -qE "^Subject: \[RFC PATCH v2 [0-9]+/$n\] sched/[a-z_]+: [A-Z]" ||
		{ echo "# $name: subject '$subj' is not 'sched/<area>: Capitalised summary'"; rs=1; }
	body=$(awk 'h && /^---$/ { exit } h { print } /^$/ && !h { h = 1 }' "$p" |
		grep -v -E '^(Signed-off-by|Co-developed-by|Suggested-by|Link|Cc): ' | grep -c '[a-z]' || true)
	[ "$body" -ge 2 ] || { echo "# $name: no changelog body"; rc=1; }
done
result $rc "every patch has a changelog body"
result $rs "subjects follow [RFC PATCH v2 N/$n] sched/<area>: <Summary>"

# 6. the cover letter carries the table the results give, and the v1 link
rc=0
grep -qF -- "$(head -1 "$BUILD/rfc-bench.txt")" "$cover" || rc=1
while IFS= read -r l; do
	[ -z "$l" ] || grep -qxF -- "$l" "$cover" || { echo "# not in the cover letter: $l"; rc=1; }
done <"$BUILD/rfc-bench.txt"
grep -q 'lore.kernel.org' "$cover" || rc=1
# a cover letter a maintainer reads in a few minutes: the narratives stay
# in CHANGELOG and below each patch's "---"
size=$(wc -c <"$cover")
[ "$size" -le 12288 ] || { echo "# the cover letter is $size bytes, more than 12 KB"; rc=1; }
if [ -n "$SIGNOFF" ]; then
	for p in "$out"/0*.patch; do
		[ "$p" = "$cover" ] || grep -qxF "Signed-off-by: $SIGNOFF" "$p" ||
			{ echo "# $(basename "$p"): no Signed-off-by: $SIGNOFF"; rc=1; }
	done
else
	grep -l '^Signed-off-by: ' "$out"/0*.patch | sed 's/^/# has a Signed-off-by without SIGNOFF: /' | grep . && rc=1
fi
result $rc "the cover letter ($size bytes) has the table ${bench#"$top"/}/results.tsv gives and the v1 link; sign-offs only as SIGNOFF says"

# 7. the maintainers' tool: b4 am on the mbox, offline, in the base
# repository (so that it knows the base-commit), then git am of what it
# wrote on a fresh base: the same commits, messages and tree as the series
rc=0
b4out=$BUILD/rfc-b4
rm -rf "$b4out" && mkdir -p "$b4out"
git -C "$BASE_REPO" worktree remove --force "$verify" 2>/dev/null || rm -rf "$verify"
git -C "$BASE_REPO" worktree prune
if ! (cd "$BASE_REPO" && b4 --offline-mode -n am -m "$out/series.mbox" -o "$b4out") \
	>"$BUILD/rfc-b4.log" 2>&1; then
	tail -5 "$BUILD/rfc-b4.log" | sed 's/^/#   /'
	rc=1
fi
if [ $rc = 0 ]; then
	grep -qx -- "Total patches: $n" "$BUILD/rfc-b4.log" ||
		{ echo "# b4 did not find $n patches (rfc-b4.log)"; rc=1; }
	grep -q '^Cover: ' "$BUILD/rfc-b4.log" || { echo "# b4 did not find the cover letter"; rc=1; }
	grep -q "Base: using specified base-commit $base_sha" "$BUILD/rfc-b4.log" ||
		{ echo "# b4 did not take base-commit $base_sha"; rc=1; }
	mbx=$(ls "$b4out"/*.mbx 2>/dev/null | head -1)
	git -C "$BASE_REPO" worktree add -q -f --detach "$verify" base >/dev/null
	if [ -z "$mbx" ] || ! git -C "$verify" am -q "$mbx" >"$BUILD/rfc-b4-am.log" 2>&1; then
		echo "# git am of b4's output failed (rfc-b4-am.log)"
		rc=1
	elif [ "$(git -C "$verify" rev-parse 'HEAD^{tree}')" != "$(git -C "$work" rev-parse 'HEAD^{tree}')" ]; then
		echo "# b4's patches give another tree than the series"
		rc=1
	# (blank lines aside: b4 ends every message with one, git keeps what
	# the commit had)
	elif ! diff <(git -C "$verify" log --reverse --format='%an <%ae>%n%B%n' base..HEAD | grep -v '^$') \
		<(git -C "$work" log --reverse --format='%an <%ae>%n%B%n' base..HEAD | grep -v '^$') \
		>"$BUILD/rfc-b4-log.diff"; then
		echo "# b4's commits differ from the series' in author, order, message or trailers:"
		head -10 "$BUILD/rfc-b4-log.diff" | sed 's/^/#   /'
		rc=1
	fi
fi
result $rc "b4 am takes series.mbox: $n patches in order, cover letter and base-commit recognised, the same commits and tree"

git -C "$BASE_REPO" worktree remove --force "$verify" 2>/dev/null || true
[ $fail = 0 ] || die "verification failed: see above"
if [ -z "$SIGNOFF" ]; then
	# checkpatch saw each patch with the sign-off the poster will add
	say "NOT POSTABLE: the patches in ${out#"$top"/}/ carry no Signed-off-by (a draft to read); give SIGNOFF='Name <mail>' (and FROM=) to make the posting"
else
	say "posting ready in ${out#"$top"/}/ (send with git send-email after reading it)"
fi
