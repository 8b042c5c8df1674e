# The output of the user's own program (/extra/run, make EXTRA=) as the
# guest's results carry it, run by /init with busybox awk:
#
#   awk -f /extra.awk OUTPUT >SHOWN; status 1: it has not-ok lines
#
# The contract for EXTRA= is the program's exit status. Its output is
# shown as it is, except that every line that a KTAP parser would take for
# a result, a plan or a version line gets "# " before it: the program's own
# results never become results of the boot, whose numbering and plan they
# would otherwise break (several "ok 1" lines of successive runs, a plan
# that does not match). What they say is judged here instead: a "not ok"
# line (other than a SKIP or TODO) fails the program whatever its exit
# status. A line after the output says what was read:
#   "# extra: KTAP: P passed, F failed, S skipped", for one run that reads
#   as KTAP (a version line first, a plan, results 1..N in order), or
#   "# extra: its output cannot be read as KTAP (WHY); judged by its exit
#   status and its not-ok lines", for output with result lines that does
#   not, or nothing, for output without any; then "# extra: N not-ok
#   line(s) in its output" when it has any.
function tapish(l) {
	# what the kernel's KTAP parser takes for a result, a plan ("1..0 #
	# SKIP why" too) or a version line
	return l ~ /^[ \t]*(not )?ok [0-9]+([ \t]|$)/ ||
	       l ~ /^[ \t]*1\.\.[0-9]+/ ||
	       l ~ /^[ \t]*K?TAP version [0-9]+/
}
function why(w) { if (bad == "") bad = w }
{
	sub(/\r$/, "")
	line = $0
	if (!tapish(line)) { print line; next }
	print "# " line
	seen = 1
	if (line ~ /^[ \t]*not ok / && line !~ /#[ \t]*(SKIP|TODO)/)
		nfail++
	if (line ~ /^[ \t]/)
		next		# nested: only its not-ok lines count
	if (line ~ /^K?TAP version /) {
		if (nres || plan != "") why("a version line after results")
		else if (version) why("two version lines")
		version = 1
	} else if (line ~ /^1\.\./) {
		if (!version) why("no version line before the plan")
		if (plan != "") why("two plans")
		plan = substr(line, 4) + 0	# "1..0 # SKIP why": 0
	} else {
		nres++
		if (!version) why("no version line before the results")
		n = (line ~ /^not /) ? $3 : $2
		if (n + 0 != nres)
			why("result " nres " is numbered " n)
		if (line ~ /#[ \t]*SKIP/) ns++
		else if (line ~ /^ok /) np++
		else if (line ~ /#[ \t]*TODO/) nt++
		else nf++
	}
}
END {
	if (seen) {
		if (plan == "") why("no plan")
		else if (plan != nres) why("a plan of " plan " with " nres " results")
		if (bad == "")
			printf "# extra: KTAP: %d passed, %d failed, %d skipped%s\n", np, nf, ns,
				nt ? ", " nt " todo" : ""
		else
			printf "# extra: its output cannot be read as KTAP (%s); judged by its exit status and its not-ok lines\n", bad
	}
	if (nfail)
		printf "# extra: %d not-ok line(s) in its output\n", nfail
	exit nfail ? 1 : 0
}
