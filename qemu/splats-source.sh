#!/bin/bash
# Each console pattern the verdict knows (qemu/splats.txt, which fail a
# boot, and qemu/splats-noted.txt, which it reports) must match a message
# the base kernel can print: a pattern with a typo, or one for a message
# the kernel no longer prints, is a check that cannot fail.
#
#   qemu/splats-source.sh KERNEL_TREE [PATTERN_FILE...]
#
# PATTERN_FILEs default to those two (make selftest plants a typo).
#
# The messages are the string literals of kernel/, mm/, lib/ and
# arch/x86/ (adjacent literals joined), with each printf conversion
# replaced by a sample value (a number, or "x") and, in a file that
# defines pr_fmt() with a literal prefix or KBUILD_MODNAME, once more with
# that prefix. Prints one line per pattern; exits 1 if any matches nothing.
set -eu

tree=${1:?usage: qemu/splats-source.sh KERNEL_TREE [PATTERN_FILE...]}; shift
top=$(cd "$(dirname "$0")/.." && pwd)
die() { printf 'splats-source: error: %s\n' "$*" >&2; exit 2; }
[ -f "$tree/kernel/panic.c" ] || die "$tree is not a kernel tree (run 'make tree')"

msgs=$(mktemp)
trap 'rm -f "$msgs"' EXIT
(cd "$tree" && find kernel mm lib arch/x86 -name '*.[ch]' -print0) | (cd "$tree" && xargs -0 perl -ne '
	BEGIN { $conv = qr/%[-+ #0]*(?:\d+|\*)?(?:\.(?:\d+|\*))?(?:hh|h|ll|l|z|t|j)?([diouxXcs])/ }
	if ($ARGV ne $file) {
		$file = $ARGV; ($mod = $file) =~ s{.*/|\.[ch]$}{}g; $pfx = undef;
	}
	if (/^\s*#\s*define\s+pr_fmt\(fmt\)\s+(.*?)\s*fmt\s*$/) {
		($p = $1) =~ s/KBUILD_MODNAME/"$mod"/; $p =~ s/"\s*"//g; $p =~ s/^"(.*)"$/$1/; $pfx = $p;
	}
	my $s = join("", /"((?:[^"\\]|\\.)*)"/g);
	next unless length $s;
	$s =~ s/\\n|\\t/ /g;
	$s =~ s/%p[A-Za-z]*/x/g;	# %pS, %pOF...: the letters belong to the conversion
	$s =~ s/$conv/index("diouxX", $1) >= 0 ? "0" : "x"/ge;
	print "$s\n";
	print "$pfx$s\n" if defined $pfx;
') >"$msgs"
[ -s "$msgs" ] || die "no messages read from $tree"

dead=0
[ $# != 0 ] || set -- "$top/qemu/splats.txt" "$top/qemu/splats-noted.txt"
for f in "$@"; do
	[ -r "$f" ] || die "cannot read $f"
	while IFS= read -r pat; do
		case $pat in ''|'#'*) continue ;; esac
		if grep -qE -- "$pat" "$msgs"; then
			printf 'ok: %s: /%s/ e.g. "%s"\n' "${f##*/}" "$pat" "$(grep -m1 -oE -- "$pat.{0,30}" "$msgs")"
		else
			printf 'DEAD: %s: /%s/ matches no message of %s\n' "${f##*/}" "$pat" "$tree"
			dead=$((dead + 1))
		fi
	done <"$f"
done
[ "$dead" = 0 ]
