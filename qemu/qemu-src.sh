#!/bin/bash
# Fetch the source of the installed QEMU with apt-get source, for the TCG
# plugin API header (include/qemu/qemu-plugin.h) the cache model builds
# against: the header of exactly the QEMU that loads the plugin, from the
# package manager, never a copy kept in this repository.
#
#   qemu/qemu-src.sh BUILD
#
# Enables source packages (deb-src) for the Debian archives the machine's
# apt already uses, when none is enabled, in
# /etc/apt/sources.list.d/cas-deb-src.sources, and unpacks the source into
# BUILD/qemu-src. Safe to run again: a source of the installed version is
# kept. A source of another version than the installed binary's is an error
# naming both.
set -eu

build=${1:?usage: qemu/qemu-src.sh BUILD}
die() { printf 'qemu-src: error: %s\n' "$*" >&2; exit 1; }

bin=qemu-system-x86
inst=$(dpkg-query -W -f '${Version}' $bin 2>/dev/null) ||
	die "$bin is not installed (run 'make deps')"
src=$(dpkg-query -W -f '${source:Package}' $bin)
# the binary's version may carry a binNMU suffix (+b3): the source's not
want=$(dpkg-query -W -f '${source:Version}' $bin)
dest=$build/qemu-src
hdr=$dest/include/qemu/qemu-plugin.h

if [ -f "$hdr" ] && [ "$(cat "$dest/.cas-version" 2>/dev/null)" = "$want" ]; then
	echo "qemu-src: $src $want in $dest"
	exit 0
fi
command -v dpkg-source >/dev/null || die "dpkg-source not found: install package dpkg-dev (run 'make deps')"

sudo=
[ "$(id -u)" = 0 ] || sudo=sudo

# deb-src entries: one per deb entry of a Debian archive, same suites,
# components and key, unless the machine has deb-src entries already
list=/etc/apt/sources.list.d/cas-deb-src.sources
have_src() {
	grep -Eqs '^[[:space:]]*deb-src[[:space:]]' /etc/apt/sources.list /etc/apt/sources.list.d/*.list ||
		grep -Eqsi '^Types:.*deb-src' /etc/apt/sources.list.d/*.sources
}
# The archives whose Release files say Debian (o=Debian): deb.debian.org,
# a local mirror or a caching proxy alike
debian_of_policy() {
	apt-cache policy 2>/dev/null |
		awk '/^ *[0-9]+ [a-z+]+:/ { u = $2 } /^ *release .*o=Debian/ && u != "" { print u; u = "" }' |
		sort -u | tr '\n' ' '
}
debian_uris=$(debian_of_policy)
# apt's lists cleaned away (a container image): policy knows no Release
if [ -z "${debian_uris// /}" ]; then
	$sudo apt-get update -q >/dev/null || die "apt-get update failed"
	debian_uris=$(debian_of_policy)
fi
if ! have_src; then
	tmp=$(mktemp)
	trap 'rm -f "$tmp"' EXIT
	# deb822 stanzas (*.sources) ...
	for f in /etc/apt/sources.list.d/*.sources; do
		[ -f "$f" ] || continue
		awk -v debian="$debian_uris" 'function is_debian(us,   n, i, w) {
			n = split(us, w, /[ \t]+/)
			for (i = 1; i <= n; i++) {
				sub(/\/$/, "", w[i])
				if (w[i] != "" && index(" " debian " ", " " w[i] " ")) return 1
			}
			return 0
		}
		function flush() {
			if (types ~ /(^|[ \t])deb([ \t]|$)/ && is_debian(uris) && en != "no") {
				print "Types: deb-src"; print "URIs: " uris; print "Suites: " suites
				if (comps != "") print "Components: " comps
				if (key != "") print "Signed-By: " key
				print ""
			}
			types = uris = suites = comps = key = en = ""
		}
		/^[ \t]*$/ { flush(); next }
		/^#/ { next }
		{ v = $0; sub(/^[^:]*:[ \t]*/, "", v); k = tolower($0); sub(/:.*/, "", k) }
		k == "types" { types = v } k == "uris" { uris = v } k == "suites" { suites = v }
		k == "components" { comps = v } k == "signed-by" { key = v } k == "enabled" { en = v }
		END { flush() }' "$f"
	done >"$tmp"
	# ... and one-line entries (sources.list, *.list)
	for f in /etc/apt/sources.list /etc/apt/sources.list.d/*.list; do
		[ -f "$f" ] || continue
		awk -v debian="$debian_uris" '$1 == "deb" {
			opts = ""; i = 2
			if ($2 ~ /^\[/) { while ($i !~ /\]$/) opts = opts $(i++) " "; opts = opts $(i++) }
			line = $i; for (j = i + 1; j <= NF; j++) line = line " " $j
			split(line, w, " "); comps = ""
			u = w[1]; sub(/\/$/, "", u)
			if (!index(" " debian " ", " " u " ")) next
			for (j = 3; j in w; j++) comps = comps (comps == "" ? "" : " ") w[j]
			print "Types: deb-src"; print "URIs: " w[1]; print "Suites: " w[2]
			if (comps != "") print "Components: " comps
			if (opts ~ /signed-by=/) { k = opts; sub(/.*signed-by=/, "", k); sub(/[] ].*/, "", k)
				print "Signed-By: " k }
			print "" }' "$f"
	done >>"$tmp"
	[ -s "$tmp" ] || die "no Debian archive (a source whose Release says o=Debian, apt-cache policy) among apt's sources (/etc/apt/sources.list, /etc/apt/sources.list.d/) to fetch the source of $src from"
	echo "qemu-src: enabling source packages in $list"
	$sudo install -m 644 "$tmp" "$list"
	$sudo apt-get update -q >/dev/null || die "apt-get update failed after adding $list"
fi

served=$(apt-cache showsrc "$src" 2>/dev/null | awk '/^Version:/ { print $2 }' | sort -u | tr '\n' ' ')
case " $served " in
*" $want "*) ;;
*) die "installed $bin $inst is built from $src $want, but the archive serves source versions: ${served:-none}
  (upgrade $bin to a version the archive has the source of, then run 'make deps' again)" ;;
esac

work=$build/qemu-src.tmp
rm -rf "$work"
mkdir -p "$work"
echo "qemu-src: fetching $src $want with apt-get source (into $dest)"
(cd "$work" && apt-get source -q "$src=$want" >apt-source.log 2>&1) ||
	die "apt-get source $src=$want failed; its output: $work/apt-source.log"
got=$(find "$work" -mindepth 1 -maxdepth 1 -type d | head -1)
dsc=$(find "$work" -maxdepth 1 -name '*.dsc' | head -1)
ver=$(awk '/^Version:/ { print $2; exit }' "$dsc")
[ "$ver" = "$want" ] || die "apt-get source gave $src $ver, the installed $bin $inst needs $want"
[ -f "$got/include/qemu/qemu-plugin.h" ] || die "$got has no include/qemu/qemu-plugin.h"
rm -rf "$dest"
mv "$got" "$dest"
echo "$want" >"$dest/.cas-version"
rm -rf "$work"
echo "qemu-src: $src $want in $dest"
