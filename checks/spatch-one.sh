#!/bin/bash
# Run one Coccinelle rule in report mode on files of a tree, with a cache.
#
#   checks/spatch-one.sh TREE RULE FILE[,FILE...] [EXTRA SPATCH OPTIONS...]
#
# FILEs are relative to TREE (spatch runs there, so reports name them the
# same way in every tree), several in one spatch run, each matched on its
# own. Prints spatch's report lines "FILE:LINE:COL-COL: message". The result
# is cached under $BUILD/check-cache/cocci by the hash of the rule, the
# files' names and content, spatch's version and the options.
set -eu
me=cocci
. "$(dirname "$0")/lib.sh"

tree=$1 rule=$2; shift 2
IFS=, read -r -a files <<<"$1"; shift
# Options the rule asks for, as scripts/coccicheck reads them.
opt=$(sed -n 's/^\/\/ *Options: *//p' "$rule" | head -1)
key=$({ cat "$rule"; (cd "$tree" && git hash-object -- "${files[@]}")
	echo "${SPATCH_VERSION:-$(spatch --version | head -1)}"
	printf '%s\n' "${files[@]}" "$opt" "$@"; for a in "$@"; do [ ! -f "$a" ] || cat "$a"; done; } |
	sha1sum | cut -c1-20)
c=$CACHE/cocci/${key:0:2}/$key
if [ -f "$c" ]; then
	cat "$c"
	exit 0
fi
mkdir -p "${c%/*}"
err=$(mktemp)
run() {
	# shellcheck disable=SC2086
	(cd "$tree" && timeout 600 spatch -D report --no-show-diff --very-quiet \
		--cocci-file "$rule" $opt \
		-I arch/x86/include -I arch/x86/include/uapi -I include -I include/uapi \
		$(! [ -f include/linux/kconfig.h ] || echo --include include/linux/kconfig.h) "$@" \
		"${files[@]}") \
		>"$c.tmp.$$" 2>"$err"
}
# one retry: a spatch run has been seen to fail once without a message
rc=0
run "$@" || run "$@" || rc=$?
if [ $rc != 0 ]; then
	printf '%s: error: spatch failed (exit %s): %s on %s:\n' "$me" "$rc" "${rule##*/}" "${files[*]}" >&2
	tail -n 5 "$err" "$c.tmp.$$" >&2
	rm -f "$c.tmp.$$" "$err"
	exit 1
fi
rm -f "$err"
# Keep only report lines (a rule may print other chatter).
grep -E '^[^ :]+:[0-9]+:[0-9]+-[0-9]+: ' "$c.tmp.$$" >"$c.tmp2.$$" || true
mv "$c.tmp2.$$" "$c"; rm -f "$c.tmp.$$"
cat "$c"
