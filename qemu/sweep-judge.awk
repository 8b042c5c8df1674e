# The load sweep's verdict per cell, from raw.tsv (kernel boot workload
# metric value; workload sweep-T-D-B), each figure taken from the kernel's
# worst boot (the most migrations, the least on-CPU time):
#
#   migrations  v2's cross-LLC migrations/s at most the unpatched kernel's
#               plus 0.5/s, or 1.5 times them, whichever is larger
#   oncpu       v2's per-thread on-CPU time at least 0.95 times unpatched
#   share       in every boot where v2 named a preferred LLC for at least
#               half of the samples, its top-LLC share at least 90%
#
# A cell is near an edge when a figure comes within half of its tolerance
# of its bound, when v2 had a preferred LLC for between 10% and 90% of a
# boot, or when whether v2 named a preferred LLC for most of the run
# differs from a neighbour's (one thread or one duty step away; a process
# of one thread, which v2 never gathers, is nobody's neighbour).
#
#   awk -F'\t' -v duties="10 25 ..." -v bursts="1 2 4" -f sweep-judge.awk raw.tsv
#
# Prints one line per cell (tab-separated): workload T D B, the worst
# migrations/s of none and v2 and the bound, the worst per-thread on-CPU %
# of none and v2 and the bound, v2's highest pref_pct over its boots, its
# lowest top-LLC share over the boots with a preference most of the time
# (-1: no such boot), the boots of each kernel, the verdict (ok, or the
# failed checks joined by commas) and near (1 or 0).
BEGIN { OFS = "\t"; nd = split(duties, dl, " "); nb = split(bursts, bl, " ") }
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
	} else if (m == "pref_pct" && k == "v2") {
		pref[w, r] = v + 0
		if (!(w in pmax) || v + 0 > pmax[w])
			pmax[w] = v + 0
		if (v + 0 > 10 && v + 0 < 90)
			partial[w] = 1
	} else if (m == "top_llc_share_pct" && k == "v2") {
		share[w, r] = v + 0
	}
}
function nboots(k, w,    key, n, s) {
	n = 0
	for (key in runs) {
		split(key, s, SUBSEP)
		if (s[1] == k && s[2] == w)
			n++
	}
	return n
}
function mostly(T, D, B,    w) {
	w = seen[T, D, B]
	return w != "" && (w in pmax) && pmax[w] >= 50
}
END {
	for (key in share) {
		split(key, s, SUBSEP)
		if ((key in pref) && pref[key] >= 50 && (!(s[1] in smin) || share[key] < smin[s[1]]))
			smin[s[1]] = share[key]
	}
	for (T = 1; T <= maxt; T++)
		for (i = 1; i <= nd; i++)
			for (j = 1; j <= nb; j++) {
				D = dl[i] + 0; B = bl[j] + 0
				w = seen[T, D, B]
				if (w == "")
					continue
				verdict = ""
				near = 0
				if ((w in bad) || !(("none", w) in mig) || !(("v2", w) in mig) ||
				    !(("none", w) in on) || !(("v2", w) in on)) {
					print w, T, D, B, "-", "-", "-", "-", "-", "-", "-", "-",
						nboots("none", w), nboots("v2", w), "missing", 1
					continue
				}
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
				sm = (w in smin) ? smin[w] : -1
				if (sm >= 0 && sm < 90)
					verdict = verdict ",share"
				if (sm >= 0 && sm < 95)
					near = 1
				if (w in partial)
					near = 1
				st = mostly(T, D, B)
				# one thread has no process to gather: nobody's neighbour
				if (T > 1 && ((T > 2 && seen[T - 1, D, B] != "" && mostly(T - 1, D, B) != st) ||
				    (seen[T + 1, D, B] != "" && mostly(T + 1, D, B) != st) ||
				    (i > 1 && seen[T, dl[i - 1] + 0, B] != "" && mostly(T, dl[i - 1] + 0, B) != st) ||
				    (i < nd && seen[T, dl[i + 1] + 0, B] != "" && mostly(T, dl[i + 1] + 0, B) != st)))
					near = 1
				print w, T, D, B, mn, mv, sprintf("%.2f", bound),
					on_n, on_v, sprintf("%.2f", 0.95 * on_n),
					(w in pmax) ? pmax[w] : -1, sm,
					nboots("none", w), nboots("v2", w),
					verdict == "" ? "ok" : substr(verdict, 2), near
			}
}
