#!/bin/bash
# Judge a boot under the cache model: what the guest declared against what
# the model counted.
#
#   qemu/model-judge.sh LOGDIR
#
# Reads LOGDIR/llc.tsv (the plugin's counts, qemu/plugins/llc.c) and
# LOGDIR/results.ktap (the guest's KTAP, as qemu/verdict.sh keeps it):
# - each "# llc-expect WINDOW CASE SPACE METRIC MIN MAX" (tests/model.c)
#   needs WINDOW in llc.tsv, and METRIC summed over the LLCs of SPACE
#   between MIN and MAX (MAX -1: no bound); a window the guest declares
#   anything of needs accesses, misses, xfer_in and mem_fills declared in
#   both spaces (user and all);
# - every row of llc.tsv (each window's and the boot's, each LLC) must be
#   consistent, as the model counts: all at least user for every count
#   (a user access counts in both), misses = xfer_in + mem_fills (a miss
#   is served by another LLC or by memory, never both), and in each
#   window and space the LLCs' xfer_in summing to their xfer_out;
# - each "# llc-geometry CPU SIZE WAYS LINE SHARED_CPU_LIST" must match
#   the model's size, ways and line, and SHARED_CPU_LIST must be exactly
#   the CPUs the model's map puts in CPU's LLC;
# - the plugin must have finished (its "boot" totals: QEMU exited), with
#   at most 0.1% of the accesses it saw left out for want of a guest
#   physical address and at most 0.1% going to I/O (not RAM, so not
#   modeled: 0.010-0.011% in this project's modeled boots, 2026-12-07),
#   no window closed without being opened, opened again
#   while open, or still open at exit, and no window written twice.
# Prints a line per check ("model: ok ..." or "model: FAIL ..."), exits 1
# if one failed, 0 when all passed (a boot that declares nothing, as the
# bench's, is judged on its rows' consistency and the plugin's finish).
set -eu

dir=${1:?usage: qemu/model-judge.sh LOGDIR}
tsv=$dir/llc.tsv res=$dir/results.ktap
[ -s "$tsv" ] || { echo "model: FAIL: no counts in $tsv (was the plugin loaded?)"; exit 1; }
[ -f "$res" ] || { echo "model: FAIL: no $res"; exit 1; }

grep -hE '# llc-(expect|geometry) ' "$res" | sed 's/^.*# llc-/llc-/' |
awk -v tsv="$tsv" '
function fail(msg) { print "model: FAIL: " msg; bad = 1 }
function odd(kind, msg) { if (++nodd[kind] <= 3) fail(msg); else bad = 1 }
function expand(list, out,   n, parts, i, r, a, b, c) {
	delete out
	n = split(list, parts, ",")
	for (i = 1; i <= n; i++) {
		if (split(parts[i], r, "-") == 2) { a = r[1]; b = r[2] } else { a = b = parts[i] }
		for (c = a + 0; c <= b + 0; c++) out[c] = 1
	}
}
BEGIN {
	oddname["sum"] = "misses not xfer_in + mem_fills"
	oddname["all"] = "all below user"
	oddname["out"] = "xfer_in not xfer_out"
	spaces["user"]; spaces["all"]
	nreq = split("accesses misses xfer_in mem_fills", required, " ")
	while ((getline line < tsv) > 0) {
		if (line ~ /^# cas llc model:/) {
			n = split(line, w, " ")
			for (i = 1; i <= n; i++) if (split(w[i], kv, "=") == 2) geo[kv[1]] = kv[2]
			continue
		}
		# what the plugin could not count, or a window it could not write
		if (line ~ /^# the whole boot/ && match(line, /physical address [0-9]+/))
			unmapped = substr(line, RSTART + 17, RLENGTH - 17) + 0
		if (line ~ /^# the whole boot/ && match(line, /to I\/O [0-9]+/))
			io = substr(line, RSTART + 7, RLENGTH - 7) + 0
		if (line ~ /^# window [0-9]+ (closed by vCPU [0-9]+ without being opened|reopened|still open at exit)/)
			fail(substr(line, 3) " (" tsv ")")
		if (line ~ /^#/) continue
		nf = split(line, f, "\t")
		if (f[1] == "window") { for (i = 1; i <= nf; i++) col[f[i]] = i; continue }
		if (f[1] == "boot") finished = 1
		# a window id used twice would add two windows into one figure
		if ((f[1], f[2], f[3]) in row)
			fail(sprintf("window %s: LLC %s %s written twice (a window id reused)", f[1], f[2], f[3]))
		row[f[1], f[2], f[3]] = 1
		seen[f[1]] = 1
		for (c in col) if (col[c] > 5) {
			sum[f[1], f[3], c] += f[col[c]]
			val[f[1], f[2], f[3], c] = f[col[c]]
		}
	}
	if (!("size" in geo)) { fail("no model header in " tsv); exit }
	if (!finished) fail("the plugin did not write its totals (QEMU killed before it exited?)")
	else if (unmapped * 1000 > sum["boot", "all", "accesses"])
		fail(sprintf("%.0f accesses had no guest physical address, over 0.1%% of the %.0f the model counted", unmapped, sum["boot", "all", "accesses"]))
	else if (io * 1000 > sum["boot", "all", "accesses"])
		fail(sprintf("%.0f accesses went to I/O, not modeled, over 0.1%% of the %.0f the model counted", io, sum["boot", "all", "accesses"]))
	nmap = split(geo["map"], map, ":")
}
$1 == "llc-geometry" {
	cpu = $2; ngeo++
	if ($3 != geo["size"] || $4 != geo["ways"] || $5 != geo["line"])
		fail(sprintf("cpu%d: the guest reports an L3 of %d bytes, %d ways, %d-byte lines; the model has %d, %d, %d",
			cpu, $3, $4, $5, geo["size"], geo["ways"], geo["line"]))
	expand($6, shared)
	want = ""; got = ""
	for (c = 0; c < nmap; c++) {
		if (map[c + 1] == map[cpu + 1]) want = want " " c
		if (c in shared) got = got " " c
	}
	if (want != got)
		fail(sprintf("cpu%d: the guest shares its L3 with CPUs%s; the model puts it with%s", cpu, got, want))
	next
}
$1 == "llc-expect" {
	win = $2; name = $3; space = $4; metric = $5; min = $6; max = $7; nexp++
	declared[win, space, metric] = 1; wname[win] = name
	if (!(win in seen)) { fail(sprintf("%s: window %s is not in %s (the plugin did not see its marks)", name, win, tsv)); next }
	if (!((win, space, metric) in sum)) { fail(sprintf("%s: no %s %s count in window %s", name, space, metric, win)); next }
	v = sum[win, space, metric]
	range = (max < 0) ? ">= " min : min ".." max
	if (v < min || (max >= 0 && v > max))
		fail(sprintf("%s: %s %s %d, expected %s", name, space, metric, v, range))
	else
		printf "model: ok: %s: %s %s %d (expected %s)\n", name, space, metric, v, range
}
END {
	# the model arithmetic, in every row (after the declared counts: at
	# most three lines of each kind of inconsistency, then how many)
	for (k in row) {
		split(k, r, SUBSEP)
		rw = r[1]; rl = r[2]; sp = r[3]
		if (val[rw, rl, sp, "misses"] != val[rw, rl, sp, "xfer_in"] + val[rw, rl, sp, "mem_fills"])
			odd("sum", sprintf("window %s, LLC %s, %s: misses %.0f, not xfer_in %.0f + mem_fills %.0f (a miss counted as a transfer and a fill, or as neither)",
				rw, rl, sp, val[rw, rl, sp, "misses"], val[rw, rl, sp, "xfer_in"], val[rw, rl, sp, "mem_fills"]))
		if (sp != "user") continue
		if (!((rw, rl, "all") in row)) { odd("all", sprintf("window %s, LLC %s: a user row without its all row", rw, rl)); continue }
		for (c in col)
			if (col[c] > 5 && val[rw, rl, "all", c] < val[rw, rl, "user", c])
				odd("all", sprintf("window %s, LLC %s: all %s %.0f below user %.0f (user accesses not counted in all)",
					rw, rl, c, val[rw, rl, "all", c], val[rw, rl, "user", c]))
		checked++
	}
	for (k in seen)
		for (sp in spaces)
			if ((k, sp, "xfer_in") in sum && sum[k, sp, "xfer_in"] != sum[k, sp, "xfer_out"])
				odd("out", sprintf("window %s, %s: xfer_in %.0f over the LLCs, xfer_out %.0f", k, sp,
					sum[k, sp, "xfer_in"], sum[k, sp, "xfer_out"]))
	for (k in nodd)
		if (nodd[k] > 3) fail(sprintf("%d more such: %s", nodd[k] - 3, oddname[k]))
	# what a window declares, it declares whole
	for (dw in wname)
		for (sp in spaces)
			for (i = 1; i <= nreq; i++)
				if (!((dw, sp, required[i]) in declared))
					fail(sprintf("%s: window %s declares no %s %s", wname[dw], dw, sp, required[i]))
	if (checked) printf "model: %s: %d rows (window, LLC) of both spaces\n",
		bad ? "consistency checked" : "ok: consistent counts", checked
	if (ngeo) printf "model: %s: %d CPUs agree with the model (L3 %d bytes, %d ways, %d-byte lines)\n",
		bad ? "geometry checked" : "ok: geometry", ngeo, geo["size"], geo["ways"], geo["line"]
	exit bad
}'
