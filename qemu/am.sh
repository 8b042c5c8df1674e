# Sourced by qemu/tree.sh and qemu/boot-each.sh: apply patches with git am,
# naming the patch and its failing hunks when one does not apply. Needs
# $build (for its logs), $top, $BASE_VERSION and say().
#
# Every git command here that writes an object (am, notes) gets the
# harness's own identity: a fresh machine has no user.name/user.email, and
# a developer's own identity does not belong on these build commits.
am_git=(-c user.name=tree -c user.email=tree@localhost)

# history_of PATCH: the text between a patch's "---" line and its diffstat,
# the history that git am leaves out of the commit message.
history_of() {
	awk '!s && /^---$/ { s = 1; next }
		s && (/^ .*\| / || /^ [0-9]+ files? changed/ || /^diff --git /) { exit }
		s { buf = buf $0 "\n"; if ($0 != "") { printf "%s", buf; buf = "" } }' "$1"
}

# am_all REPO WHAT PATCH...: git am each PATCH onto REPO, its history kept
# as a note (see qemu/series-export.sh). One that does not apply is named
# (WHAT: "base fix " or nothing) with its failing hunks, the am is
# aborted, and am_all returns 1.
am_all() {
	local repo=$1 what=$2 p
	shift 2
	for p; do
		if ! git -C "$repo" "${am_git[@]}" am -q --keep-cr "$p" >"$build/am.log" 2>&1; then
			printf '%s: error: %s%s does not apply to %s\n' "${me:-tree}" "$what" "${p#"$top"/}" "$BASE_VERSION" >&2
			sed 's/^/  /' "$build/am.log" >&2
			printf '  failing hunks:\n' >&2
			git -C "$repo" apply --check -v "$p" 2>&1 | grep -iE 'error|patch failed|checking patch' | sed 's/^/    /' >&2 || true
			git -C "$repo" am --abort >/dev/null 2>&1 || true
			return 1
		fi
		history_of "$p" >"$build/am.note"
		if [ -s "$build/am.note" ] &&
		   ! git -C "$repo" "${am_git[@]}" notes --ref=cas-history \
			add -f -F - HEAD <"$build/am.note" >"$build/am.log" 2>&1; then
			printf '%s: error: git notes add (the history of %s) failed in %s:\n' \
				"${me:-tree}" "${p#"$top"/}" "$repo" >&2
			sed 's/^/  /' "$build/am.log" >&2
			return 1
		fi
		say "applied $what${p#"$top"/}"
	done
}
