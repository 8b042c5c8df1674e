#!/bin/bash
# make help: the targets and variables, from the makefiles' own "##"
# comments, so the list cannot drift from what the Makefile does.
#
#   qemu/make-help.sh MAKEFILE... [-- VAR=value...]
#
# A block of "##" lines directly above a target ("name: ...") documents
# that target; above a variable assignment ("NAME ?= ..."), that variable,
# shown with its current value when it is passed after "--". A block that
# no target or variable follows is an error, and so is a phony target
# without one: a Makefile change must keep the help whole.
set -eu

files=() vals=()
while [ $# -gt 0 ]; do
	[ "$1" = -- ] && { shift; vals=("$@"); break; }
	files+=("$1"); shift
done
[ ${#files[@]} -gt 0 ] || { echo "make-help: usage: make-help.sh MAKEFILE... [-- VAR=value...]" >&2; exit 2; }

printf '%s\n' "${vals[@]+"${vals[@]}"}" | awk '
function flush_err(f, n) {
	printf "make-help: %s:%d: a \"##\" block with no target or variable after it\n", f, n > "/dev/stderr"
	bad = 1
}
# the "##" block just read, one line each; the block is used up
function joined(   s, i) {
	s = doc[1]
	for (i = 2; i <= nd; i++) s = s "\n" doc[i]
	nd = 0
	return s
}
NR == FNR { if (index($0, "=")) val[substr($0, 1, index($0, "=") - 1)] = substr($0, index($0, "=") + 1); next }
FNR == 1 { if (nd) flush_err(prevfile, prevline); nd = 0 }
/^\.PHONY:/ || cont {
	for (i = /^\.PHONY:/ ? 2 : 1; i <= NF; i++) if ($i != "\\") phony[$i] = 1
	cont = /\\$/; next
}
/^##( |$)/ {
	line = $0; sub(/^## ?/, "", line)
	doc[++nd] = line; prevfile = FILENAME; prevline = FNR; next
}
nd && /^[a-z][a-z0-9-]*:/ {
	name = $0; sub(/:.*/, "", name)
	t[++nt] = name; tdoc[name] = joined(); next
}
nd && /^[A-Z_]+[ \t]*[?:]?=/ {
	name = $0; sub(/[ \t]*[?:]?=.*/, "", name)
	v[++nv] = name; vdoc[name] = joined(); next
}
nd { flush_err(FILENAME, FNR); nd = 0 }
END {
	if (nd) flush_err(prevfile, prevline)
	for (p in phony)
		if (!(p in tdoc) && p != "FORCE") {
			printf "make-help: phony target %s has no \"##\" help\n", p > "/dev/stderr"
			bad = 1
		}
	if (bad) exit 1
	print "Cache-aware scheduling v2 for Linux 6.12 (Debian linux-source-6.12)"
	print "\nTargets:"
	for (i = 1; i <= nt; i++) show(t[i], tdoc[t[i]], 16)
	print "\nVariables (current value):"
	for (i = 1; i <= nv; i++) show(v[i] "=" val[v[i]], vdoc[v[i]], 22)
}
# the head, then the text flowed into the columns from WIDTH to 79
function show(head, text, width,    n, w, i, pad, line) {
	pad = sprintf("%" width "s", "")
	if (length(head) + 4 <= width)
		printf "  %s%s", head, substr(pad, 1, width - 2 - length(head))
	else
		printf "  %s\n%s", head, pad
	gsub(/\n/, " ", text)
	n = split(text, w, " ")
	line = w[1]
	for (i = 2; i <= n; i++) {
		if (width + length(line) + 1 + length(w[i]) > 79) {
			printf "%s\n%s", line, pad
			line = w[i]
		} else
			line = line " " w[i]
	}
	print line
}' - "${files[@]}"
