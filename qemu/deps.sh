#!/bin/bash
# Install everything the project needs with apt-get; safe to run again.
# The kernel base is pinned (qemu/base.env): exactly that version of the
# package is installed, or the run fails naming it.
set -eu

top=$(cd "$(dirname "$0")/.." && pwd)
. "$top/qemu/base.env"
die() { printf 'deps: error: %s\n' "$*" >&2; exit 1; }

pkgs="gcc make flex bison bc libelf-dev libssl-dev cpio xz-utils file git perl
python3 sparse coccinelle qemu-system-x86 qemu-system-data busybox-static ccache
rt-tests gnuplot-nox ocaml-nox b4"

sudo=
if [ "$(id -u)" != 0 ]; then
	command -v sudo >/dev/null || die "not root and no sudo: run as root"
	sudo=sudo
fi

missing=
for p in $pkgs; do
	dpkg-query -W -f '${Status}' "$p" 2>/dev/null | grep -q 'ok installed' || missing="$missing $p"
done
have=$(dpkg-query -W -f '${Version}' "$BASE_PACKAGE" 2>/dev/null || true)
if [ -z "$missing" ] && [ "$have" = "$BASE_VERSION" ]; then
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
$sudo apt-get install -y -q --no-install-recommends $pkgs \
	"$BASE_PACKAGE=$BASE_VERSION" >/dev/null ||
	die "apt-get install failed (see its messages above); packages: $pkgs $BASE_PACKAGE=$BASE_VERSION"
echo "deps: installed; $BASE_PACKAGE $BASE_VERSION"
