#!/bin/bash
# Gate 1: scripts/checkpatch.pl --strict (from the base tree) on every patch.
#
#   checks/checkpatch.sh SERIESDIR [ALLOWLIST]
#
# Any ERROR fails. A CHECK fails unless ALLOWLIST (default
# checks/checkpatch-allow.txt) has a line "<patch glob><TAB><substring of
# 'TYPE: message'><TAB><reason>" matching it; a WARNING fails unless such a
# line names it explicitly, its substring starting with "WARNING:TYPE: ".
# Prints one "FAIL patch: ..." line per finding (file:line in the patched
# tree, #N = line in the patch).
#
# The series carries no Signed-off-by (whoever posts it signs it, see
# 'make rfc'): checkpatch sees each patch with the sign-off the poster will
# add, SIGNOFF="Name <email>" (default: FROM, else the patch's own From:,
# and only for a patch that has no Signed-off-by yet), with FROM as the
# author when given (make rfc FROM=...), so a missing or mismatched
# sign-off is not reported for a line not yet there.
set -eu
me=checkpatch
. "$(dirname "$0")/lib.sh"

sdir=$(cd "$1" && pwd) || die "no series folder $1"
allow=${2:-$top/checks/checkpatch-allow.txt}
need_base
need_tool perl perl
# CHECKPATCH_PL: another checkpatch.pl (checks/selftest.sh's dying one)
cp=${CHECKPATCH_PL:-$BASE_REPO/scripts/checkpatch.pl}
[ -f "$cp" ] || die "$cp not found (run 'make tree')"

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# signed PATCH: the patch as posted, with the poster's Signed-off-by and,
# when FROM="Name <email>" is given (make rfc FROM=...), the poster as author
signed() {
	local who=${SIGNOFF:-}
	[ -n "$who" ] || who=${FROM:-}
	[ -n "$who" ] || who=$(sed -n 's/^From: //p;/^$/q' "$1" | head -1)
	awk -v sob="Signed-off-by: $who" -v own="${SIGNOFF:-}" -v from="${FROM:-}" '
		!hdr && from != "" && /^From: / { print "From: " from; hdr = 1; next }
		/^$/ { hdr = 1 }
		!done && /^Signed-off-by: / && (own == "" || $0 == sob) { done = 1 }
		!done && /^---$/ { print sob; done = 1 }
		{ print }' "$1"
}

fail=0 nall=0 nallowed=0
for p in $(series_patches "$sdir"); do
	name=$(basename "$p")
	signed "$p" >"$tmp/$name"
	p=$tmp/$name
	# One finding per line: LEVEL<TAB>TYPE<TAB>msg<TAB>#N<TAB>file:line
	# checkpatch's own summary line says it read the whole patch: a perl
	# that died (a missing module, a crash) reports no finding, which must
	# not read as a clean patch
	rc=0
	(cd "$BASE_REPO" && perl "$cp" --strict --show-types --color=never "$p") \
		>"$tmp/$name.out" 2>&1 || rc=$?
	grep -q '^total: [0-9]* errors, [0-9]* warnings, ' "$tmp/$name.out" ||
		die "checkpatch.pl did not finish $name (exit $rc, no 'total:' line); its output ends:
$(tail -n 5 "$tmp/$name.out")"
	findings=$(awk '
		function flush() { if (lvl != "") print lvl "\t" typ "\t" msg "\t" pl "\t" loc; lvl = "" }
		/^(ERROR|WARNING|CHECK):/ {
			flush()
			lvl = $0; sub(/:.*/, "", lvl)
			rest = substr($0, length(lvl) + 2)
			typ = rest; sub(/:.*/, "", typ)
			msg = substr(rest, length(typ) + 3)
			pl = ""; loc = ""
			next
		}
		lvl != "" && /^#[0-9]+: FILE: / {
			pl = $1; sub(/:$/, "", pl)
			loc = $3; sub(/:$/, "", loc)
			next
		}
		lvl != "" && /^#[0-9]+:/ && pl == "" { pl = $1; sub(/:$/, "", pl); next }
		/^$/ { flush() }
		END { flush() }' "$tmp/$name.out")
	[ -n "$findings" ] || continue
	while IFS=$'\t' read -r lvl typ msg pl loc; do
		nall=$((nall + 1))
		where=${loc:+$loc }"(patch line ${pl:-?})"
		if [ "$lvl" != ERROR ] && [ -f "$allow" ]; then
			reason=$(awk -F'\t' -v n="$name" -v m="$typ: $msg" -v lvl="$lvl" '
				/^#/ || NF < 3 { next }
				{ g = $1; gsub(/\./, "\\.", g); gsub(/\*/, ".*", g); gsub(/\?/, ".", g)
				  s = $2; w = (substr(s, 1, 8) == "WARNING:")
				  if (w != (lvl == "WARNING")) next
				  if (w) s = substr(s, 9)
				  if (n !~ ("^" g "$")) next
				  if (w ? index(m, s) == 1 : index(m, s) > 0) { print $3; exit } }' "$allow")
			if [ -n "$reason" ]; then
				nallowed=$((nallowed + 1))
				printf 'allowed %s: %s: %s:%s: %s (%s)\n' "$name" "$where" "$lvl" "$typ" "$msg" "$reason"
				continue
			fi
		fi
		fail=$((fail + 1))
		printf 'FAIL %s: %s: %s:%s: %s\n' "$name" "$where" "$lvl" "$typ" "$msg"
	done <<<"$findings"
done
printf 'checkpatch: %d finding(s), %d allowed, %d failing\n' "$nall" "$nallowed" "$fail"
[ $fail = 0 ]
