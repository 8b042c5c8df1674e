# The load sweep's verdict per cell, from raw.tsv (kernel boot workload
# metric value; workload sweep-T-D-B). A cell passes when:
#
#   migrations  v2's cross-LLC migrations/s (the trace's count: every
#               move) at most the unpatched kernel's plus 0.5/s, or 1.5
#               times them, whichever is larger (each kernel's worst boot)
#   oncpu       v2's per-thread on-CPU time at least 0.95 times unpatched
#               (each kernel's worst boot)
#   share       in every v2 boot where it named a preferred LLC for at
#               least half of the samples and the preference did not
#               change, its top-LLC share at least 90%; where it named one
#               for 10-49% of them (pref), or its preference changed in the
#               boot (named, dropped or moved), a share of at least
#               0.9 x (pref - 5): gathered 90% while preferred, less 5
#               points (0.3 s of 6) for the threads to follow. A process
#               that got its preference a third into the run (2x2x4's
#               5-40-4 in b13984275e86's sweep: preferred 69% of the
#               samples, 1 change, share 88.6%) cannot show 90% over the
#               whole run however well it gathers; one whose preference
#               moved to another LLC in mid-run shows the shares of the two
#               LLCs split, and fails
#   fit         in a cell the series claims (below), in every v2 boot: a
#               preferred LLC in at least 90% of the samples and a top-LLC
#               share of at least 90%. Tolerance: 10 points of each (0.6 s
#               of 6: a timed-out preference, a sample on the way back)
#   flapping    in every v2 boot, at most 1 change of its preferred LLC in
#               the measured seconds (secs; the figure is per second). The
#               sweep's load is constant: no change of on-CPU time excuses
#               a second one
#   still       in every v2 boot that gathers (every boot of a claimed
#               cell; a boot with a preference at least half of the time
#               elsewhere), threads seen moving to another LLC in at most
#               1 + (its preference changes) of the 2 s windows
#               (llc_moves_seen_wN: the 100 ms placement samples of window
#               N, qemu/sweep.sh): a gathered process moves once for a
#               transient and once after each change, and a bounce that
#               returns each window or two (period above 2 s, too slow for
#               the migrations bound) moves in more
#
# The claimed cells: where the series says it gathers a process, and the
# sweep's fit (T at most the LLC's CPUs, T x D at most 75% of its
# capacity) holds: 2 <= T (one thread: an mm one task uses is not scanned)
# <= the LLC's CPUs and 150% of its cores (overagg_threads_pct), and
# T x D <= 60% of its cores' capacity: a process heavier than 75%
# (overagg_mm_util_pct) has no preference until it is below 75 / 1.25 =
# 60% (switch_margin_pct), and under TCG 70% duty reads 75% util_avg, so
# between 60% and 75% a boot keeps or loses its preference by noise. The
# other cells are judged by migrations, oncpu, share, flapping and still.
#
# A cell is near an edge (rerun in the next boots, qemu/sweep-edges.sh)
# when a figure comes within half of its tolerance of its bound (fit: 95),
# its preference changed once, a gathered boot moved in as many windows
# as it may, v2 had a preferred LLC for between 10% and 90% of a boot, or
# when whether v2 named a preferred LLC for most of the run differs from a
# neighbour's (one thread or one duty step away; a process of one thread
# is nobody's neighbour).
#
#   awk -F'\t' -v duties="10 25 ..." -v bursts="1 2 4" -v llc_cpus=4 \
#       -v llc_cores=4 -v secs=6 -f sweep-judge.awk raw.tsv
#
# Prints one line per cell (tab-separated), the columns of sweep-report.sh's
# cells.tsv header: workload T D B, the worst migrations/s of none and v2
# and the bound, the worst per-thread on-CPU % of none and v2 and the
# bound, v2's highest pref_pct over its boots, its lowest top-LLC share
# over the boots with a preference most of the time (-1: no such boot),
# claimed (1: a cell the fit check judges), v2's lowest pref_pct and
# top-LLC share over its boots, its most preference changes in a boot,
# its most windows with moves in a gathering boot (-1: no such boot), the
# boots of each kernel, the verdict (ok, or the failed checks joined by
# commas) and near (1 or 0).
BEGIN {
	OFS = "\t"
	nd = split(duties, dl, " "); nb = split(bursts, bl, " ")
	if (llc_cpus < 1 || llc_cores < 1 || secs <= 0) {
		print "sweep-judge: give llc_cpus, llc_cores and secs" >"/dev/stderr"
		bad_args = 1
		exit 2
	}
	nwin = int((secs + 1.999) / 2)
}
{
	k = $1; r = $2; w = $3; m = $4; v = $5
	if (split(w, f, "-") != 4)
		next
	T = f[2] + 0; D = f[3] + 0; B = f[4] + 0
	seen[T, D, B] = w
	if (T > maxt)
		maxt = T
	runs[k, w, r] = 1
	if (v == "invalid") {
		bad[w] = 1
		next
	}
	if (m == "llc_migrations_per_s") {
		if (!((k, w) in mig) || v + 0 > mig[k, w])
			mig[k, w] = v + 0
	} else if (m == "thread_oncpu_pct") {
		if (!((k, w) in on) || v + 0 < on[k, w])
			on[k, w] = v + 0
	} else if (k != "v2") {
		next
	} else if (m == "pref_pct") {
		pref[w, r] = v + 0
		if (!(w in pmax) || v + 0 > pmax[w])
			pmax[w] = v + 0
		if (v + 0 > 10 && v + 0 < 90)
			partial[w] = 1
	} else if (m == "top_llc_share_pct") {
		share[w, r] = v + 0
	} else if (m == "pref_llc_changes_per_s") {
		# printed to 2 decimals: 1 change in 6.02 s reads 0.17
		chg[w, r] = int(v * secs + 0.5)
	} else if (m ~ /^llc_moves_seen_w[0-9]+$/) {
		nw[w, r]++
		if (v + 0 > 0)
			moving[w, r]++
	}
}
# the checks of a verdict, each once, in the order they first failed
function uniq(v,    n, a, i, out, had) {
	n = split(substr(v, 2), a, ",")
	for (i = 1; i <= n; i++)
		if (!(a[i] in had)) {
			had[a[i]] = 1
			out = out "," a[i]
		}
	return substr(out, 2)
}
function mostly(T, D, B,    w) {
	w = seen[T, D, B]
	return w != "" && (w in pmax) && pmax[w] >= 50
}
# the cells the series claims to gather (see above)
function claimed(T, D) {
	return T >= 2 && T <= llc_cpus && T * 100 <= 150 * llc_cores && T * D <= 60 * llc_cores
}
# judge(w, T, D): the checks of cell w over its boots, into the globals
# verdict (",check" for each that failed), near and the summary figures;
# "missing" when a kernel's figures are not all there
function judge(w, T, D,    key, s, r, n, p, sh, c, lim, g, mv, mn, bound, half, on_n, on_v) {
	verdict = ""; near = 0
	nb_none = nb_v2 = 0
	sm = -1; pmin = -1; shmin = -1; cmax = 0; wmax = -1
	cl = claimed(T, D)
	if ((w in bad) || !(("none", w) in mig) || !(("v2", w) in mig) ||
	    !(("none", w) in on) || !(("v2", w) in on))
		verdict = ",missing"
	for (key in runs) {
		split(key, s, SUBSEP)
		if (s[2] != w)
			continue
		if (s[1] == "none") {
			nb_none++
			continue
		}
		nb_v2++
		r = s[3]
		# every v2 boot shows its preference, its changes and its windows
		if (!((w, r) in share) || !((w, r) in pref) || !((w, r) in chg) || nw[w, r] != nwin) {
			verdict = verdict ",missing"
			continue
		}
		p = pref[w, r]; sh = share[w, r]; c = chg[w, r]
		if (pmin < 0 || p < pmin)
			pmin = p
		if (shmin < 0 || sh < shmin)
			shmin = sh
		if (c > cmax)
			cmax = c
		if (p >= 50 && (sm < 0 || sh < sm))
			sm = sh
		if (p >= 50 && c == 0) {
			if (sh < 90)
				verdict = verdict ",share"
			if (sh < 95)
				near = 1
		} else if (p >= 10) {
			lim = 0.9 * (p - 5)
			if (sh < lim)
				verdict = verdict ",share"
			if (sh < lim + 5)
				near = 1
		}
		if (cl) {
			if (p < 90 || sh < 90)
				verdict = verdict ",fit"
			if (p < 95 || sh < 95)
				near = 1
		}
		if (c > 1)
			verdict = verdict ",flapping"
		if (c >= 1)
			near = 1
		if (cl || p >= 50) {
			g = (w, r) in moving ? moving[w, r] : 0
			if (g > wmax)
				wmax = g
			if (g > 1 + c)
				verdict = verdict ",still"
			if (g == 1 + c)
				near = 1
		}
	}
	if (verdict ~ /missing/)
		return 0
	mn = mig["none", w]; mv = mig["v2", w]
	bound = mn + 0.5 > 1.5 * mn ? mn + 0.5 : 1.5 * mn
	half = mn + 0.25 > 1.25 * mn ? mn + 0.25 : 1.25 * mn
	if (mv > bound)
		verdict = verdict ",migrations"
	if (mv > half)
		near = 1
	on_n = on["none", w]; on_v = on["v2", w]
	if (on_v < 0.95 * on_n)
		verdict = verdict ",oncpu"
	if (on_v < 0.975 * on_n)
		near = 1
	if (w in partial)
		near = 1
	migs = sprintf("%s\t%s\t%.2f", mn, mv, bound)
	ons = sprintf("%s\t%s\t%.2f", on_n, on_v, 0.95 * on_n)
	return 1
}
END {
	if (bad_args)
		exit 2
	for (T = 1; T <= maxt; T++)
		for (i = 1; i <= nd; i++)
			for (j = 1; j <= nb; j++) {
				D = dl[i] + 0; B = bl[j] + 0
				w = seen[T, D, B]
				if (w == "")
					continue
				if (!judge(w, T, D)) {
					print w, T, D, B, "-", "-", "-", "-", "-", "-", "-", "-",
						cl, "-", "-", "-", "-", nb_none, nb_v2, "missing", 1
					continue
				}
				st = mostly(T, D, B)
				# one thread has no process to gather: nobody's neighbour
				if (T > 1 && ((T > 2 && seen[T - 1, D, B] != "" && mostly(T - 1, D, B) != st) ||
				    (seen[T + 1, D, B] != "" && mostly(T + 1, D, B) != st) ||
				    (i > 1 && seen[T, dl[i - 1] + 0, B] != "" && mostly(T, dl[i - 1] + 0, B) != st) ||
				    (i < nd && seen[T, dl[i + 1] + 0, B] != "" && mostly(T, dl[i + 1] + 0, B) != st)))
					near = 1
				print w, T, D, B, migs, ons, (w in pmax) ? pmax[w] : -1, sm,
					cl, pmin, shmin, cmax, wmax, nb_none, nb_v2,
					verdict == "" ? "ok" : uniq(verdict), near
			}
}
