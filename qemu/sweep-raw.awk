# A sweep boot's results.log as raw.tsv rows (qemu/sweep.sh):
#
#   awk -v k=KERNEL -v r=BOOT -v nwin=N -f sweep-raw.awk results.log
#
# "metric sweep-T-D-B NAME VALUE" lines as "k r sweep-T-D-B NAME VALUE",
# and from cas-bench's placement samples ("occ sweep-T-D-B MS N0 N1 ...":
# threads in each LLC, every 100 ms of the measured seconds) the threads
# seen in another LLC than at the sample before, per window of 2 s:
# llc_moves_seen_w0 .. w(nwin - 1), one row each, 0 included. A lower
# bound of the moves (a thread out and back between two samples, two
# threads that swap LLCs, are not seen; the trace's count is the total):
# what it gives is where in the run the moves fell.
BEGIN { OFS = "\t" }
$1 == "metric" && $2 ~ /^sweep-/ { print k, r, $2, $3, $4 }
$1 == "occ" && $2 ~ /^sweep-/ {
	w = $2
	if (!(w in got)) {
		got[w] = 1
		order[++n] = w
	}
	win = int($3 / 2000)
	if (win >= nwin)
		win = nwin - 1
	if (w == last) {
		moved = 0
		for (i = 4; i <= NF; i++)
			moved += $i > prev[i] ? $i - prev[i] : prev[i] - $i
		seen[w, win] += moved / 2
	}
	last = w
	delete prev
	for (i = 4; i <= NF; i++)
		prev[i] = $i
}
END {
	for (j = 1; j <= n; j++)
		for (i = 0; i < nwin; i++)
			print k, r, order[j], "llc_moves_seen_w" i, seen[order[j], i] + 0
}
