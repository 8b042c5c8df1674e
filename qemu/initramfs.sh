#!/bin/bash
# Build the guest initramfs: static busybox, /init, the guest tests.
#
#   qemu/initramfs.sh OUT.cpio.gz TESTBIN_DIR [EXTRA_DIR]
set -eu

out=$1 bins=$2 extra=${3:-}
top=$(cd "$(dirname "$0")/.." && pwd)
die() { printf 'initramfs: error: %s\n' "$*" >&2; exit 1; }

busybox=/bin/busybox
[ -x $busybox ] && file -L $busybox 2>/dev/null | grep -q 'statically linked' ||
	die "no static $busybox: install package busybox-static (run 'make deps')"
command -v cpio >/dev/null || die "cpio not found: install package cpio (run 'make deps')"

stage=$(mktemp -d "${out%/*}/.initramfs.XXXXXX")
# the image is written beside OUT under a name of its own and renamed: two
# builds of one image at once (make boot-test beside make mutant-check)
# once shared OUT.tmp, and a boot got a torn image ("No working init")
img=$(mktemp "$out.XXXXXX")
trap 'rm -rf "$stage" "$img"' EXIT
mkdir -p "$stage"/bin "$stage"/sbin "$stage"/usr/bin "$stage"/proc "$stage"/sys \
	"$stage"/dev "$stage"/tmp "$stage"/tests "$stage"/root
cp $busybox "$stage/bin/busybox"
install -m 755 "$top/qemu/guest/init" "$stage/init"
install -m 644 "$top/qemu/guest/extra.awk" "$stage/extra.awk"
for t in "$bins"/*; do
	[ -x "$t" ] && cp "$t" "$stage/tests/"
done
if [ -n "$extra" ]; then
	[ -d "$extra" ] || die "EXTRA=$extra is not a directory"
	[ -x "$extra/run" ] || die "EXTRA=$extra has no executable 'run'"
	cp -r "$extra" "$stage/extra"
fi
(cd "$stage" && find . | LC_ALL=C sort | cpio -o -H newc -R 0:0 --quiet) | gzip -1 >"$img"
chmod 644 "$img"
mv "$img" "$out"
