# Sourced by qemu/tree.sh and qemu/boot-each.sh: apply patches with git am,
# naming the patch and its failing hunks when one does not apply. Needs
# $build (for its logs), $top, $BASE_VERSION and say().

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
		if ! git -C "$repo" -c user.name=tree -c user.email=tree@localhost \
			am -q --keep-cr "$p" >"$build/am.log" 2>&1; then
			printf '%s: error: %s%s does not apply to %s\n' "${me:-tree}" "$what" "${p#"$top"/}" "$BASE_VERSION" >&2
			sed 's/^/  /' "$build/am.log" >&2
			printf '  failing hunks:\n' >&2
			git -C "$repo" apply --check -v "$p" 2>&1 | grep -iE 'error|patch failed|checking patch' | sed 's/^/    /' >&2 || true
			git -C "$repo" am --abort >/dev/null 2>&1 || true
			return 1
		fi
		history_of "$p" >"$build/am.note"
		[ ! -s "$build/am.note" ] ||
			git -C "$repo" notes --ref=cas-history add -f -F - HEAD <"$build/am.note"
		say "applied $what${p#"$top"/}"
	done
}
