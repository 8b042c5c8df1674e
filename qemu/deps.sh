#!/bin/bash
# Install everything the project needs with apt-get; safe to run again.
# The kernel base is pinned (qemu/base.env): exactly that version of the
# package is installed, or the run fails naming it.
#
# The table below is every package the build, the boots, the checks and
# the benches use, each with a command of it that they run ('-': a
# library or data package). After installing, every command is looked up:
# one that is still missing names its package. make fresh-check proves the
# table on a minimal Debian 12 root (qemu/fresh-check.sh).
set -eu

top=$(cd "$(dirname "$0")/.." && pwd)
. "$top/qemu/base.env"
die() { printf 'deps: error: %s\n' "$*" >&2; exit 1; }

# package           command it provides that the project runs
table="
gcc                 gcc
make                make
flex                flex
bison               bison
bc                  bc
libelf-dev          -
libssl-dev          -
cpio                cpio
xz-utils            xz
file                file
git                 git
perl                perl
python3             python3
dpkg-dev            dpkg-source
sparse              sparse
coccinelle          spatch
ocaml-nox           ocaml
qemu-system-x86     qemu-system-x86_64
qemu-system-data    -
busybox-static      busybox
ccache              ccache
rt-tests            hackbench
gnuplot-nox         gnuplot
b4                  b4
debootstrap         debootstrap
"
pkgs=$(printf '%s\n' "$table" | awk 'NF { print $1 }' | tr '\n' ' ')

# check_commands: every command of the table is on PATH (sbin included:
# debootstrap lives there, and a non-root PATH may lack it)
check_commands() {
	local p c bad=
	while read -r p c; do
		[ -n "$p" ] && [ "$c" != - ] || continue
		PATH=$PATH:/usr/sbin:/sbin command -v "$c" >/dev/null ||
			bad="$bad
  $c (package $p)"
	done <<<"$table"
	[ -z "$bad" ] || die "installed, but these commands are still missing:$bad"
}

sudo=
if [ "$(id -u)" != 0 ]; then
	command -v sudo >/dev/null || die "not root and no sudo: run as root, or install package sudo and give this user sudo rights"
	sudo=sudo
fi

missing=
for p in $pkgs; do
	dpkg-query -W -f '${Status}' "$p" 2>/dev/null | grep -q 'ok installed' || missing="$missing $p"
done
have=$(dpkg-query -W -f '${Version}' "$BASE_PACKAGE" 2>/dev/null || true)
if [ -z "$missing" ] && [ "$have" = "$BASE_VERSION" ]; then
	check_commands
	echo "deps: everything installed ($BASE_PACKAGE $BASE_VERSION)"
	exit 0
fi

[ "$have" = "$BASE_VERSION" ] || missing="$missing $BASE_PACKAGE=$BASE_VERSION"
echo "deps: installing:$missing"
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get update -q >/dev/null || die "apt-get update failed"
if ! apt-cache madison "$BASE_PACKAGE" | grep -qF "| $BASE_VERSION |"; then
	avail=$(apt-cache madison "$BASE_PACKAGE" | awk -F'|' '{gsub(/ /, "", $2); print $2}' | tr '\n' ' ')
	die "$BASE_PACKAGE $BASE_VERSION is no longer served by the archive (it has: ${avail:-nothing});
  set BASE_VERSION in qemu/base.env to one of those, rebuild with 'make tree FORCE=1',
  and say so in CHANGELOG (the cover letter names the base version)"
fi
# shellcheck disable=SC2086
$sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends $pkgs \
	"$BASE_PACKAGE=$BASE_VERSION" >/dev/null ||
	die "apt-get install failed (see its messages above); packages: $pkgs $BASE_PACKAGE=$BASE_VERSION"
check_commands
echo "deps: installed; $BASE_PACKAGE $BASE_VERSION"
