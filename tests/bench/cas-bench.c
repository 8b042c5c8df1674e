// SPDX-License-Identifier: GPL-2.0
/*
 * cas-bench: workloads measured the same way on every kernel (unpatched,
 * v1, v2), with only the kernel's generic tracepoints and /proc, for the
 * comparisons that need one boot per kernel (make lb-compare).
 *
 *   cas-bench bounce   [secs]   a process that fits one LLC (lib/crew.h's
 *                               fit crew): its load balancer migrations out
 *                               of its home LLC per second
 *   cas-bench saturate [secs]   twice as many always-busy threads as an LLC
 *                               has CPUs: their on-CPU time per wall second
 *
 * Output: one line per figure, "metric WORKLOAD NAME VALUE".
 *
 * A migration (sched_migrate_task) is a wakeup's when it falls between the
 * task's sched_waking and sched_wakeup events, the load balancer's
 * otherwise (nothing else moves these threads: no affinity change, no
 * exec, NUMA balancing off). The home LLC is the one holding most of the
 * threads' samples; on v2 it is the preferred LLC whenever aggregation
 * works, and v1 has no way to tell its preference.
 */
#include "lib/trace.h"
#include "lib/crew.h"

#define WARMUP_S	2.0

/* Load-balancer migrations of the crew's threads out of LLC 'home' */
static long lb_out_of(struct crew *c, int home, long *wakeup_moves, long *lb_moves)
{
	FILE *f = fopen(TRACEFS "/trace", "r");
	char line[768];
	const char *fl;
	int waking[CAS_MAX_CPUS] = { 0 };	/* index: worker */
	long out = 0;

	*wakeup_moves = *lb_moves = 0;
	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f)) {
		int pid, w = -1;

		if (trace_is_event(line, "sched_waking", &fl) ||
		    trace_is_event(line, "sched_wakeup", &fl) ||
		    trace_is_event(line, "sched_migrate_task", &fl)) {
			pid = trace_field(fl, "pid", -1);
			for (int i = 0; i < c->n; i++)
				if (c->sh->w[i].tid == pid)
					w = i;
			if (w < 0)
				continue;
		} else {
			continue;
		}
		if (strstr(line, "sched_waking:")) {
			waking[w] = 1;
		} else if (strstr(line, "sched_wakeup:")) {
			waking[w] = 0;
		} else {
			int from = trace_field(fl, "orig_cpu", -1), to = trace_field(fl, "dest_cpu", -1);

			if (from < 0 || to < 0 || from >= map.ncpus || to >= map.ncpus ||
			    map.llc_of[from] == map.llc_of[to])
				continue;
			if (waking[w]) {
				(*wakeup_moves)++;
			} else {
				(*lb_moves)++;
				out += map.llc_of[from] == home;
			}
		}
	}
	fclose(f);
	return out;
}

static void events(int on)
{
	trace_event_enable("sched_waking", on);
	trace_event_enable("sched_wakeup", on);
	trace_event_enable("sched_migrate_task", on);
}

static int bounce(double secs)
{
	struct crew c;
	struct placement pl;
	long out, wk, lb;
	double oncpu;

	trace_reset();
	events(1);
	crew_start(&c, fit_threads(), FIT);
	sleep_ns(WARMUP_S * 1e9);
	trace_on(1);
	oncpu = crew_measure(&c, secs, &pl);
	trace_on(0);
	out = lb_out_of(&c, pl.top_llc, &wk, &lb);
	crew_stop(&c);
	events(0);
	printf("metric bounce threads %d\n", c.n);
	printf("metric bounce top_llc_share_pct %.1f\n", pl.share_pct);
	printf("metric bounce lb_out_of_home_per_s %.2f\n", out / secs);
	printf("metric bounce lb_llc_migrations_per_s %.2f\n", lb / secs);
	printf("metric bounce wakeup_llc_migrations_per_s %.2f\n", wk / secs);
	printf("metric bounce oncpu_per_thread_pct %.1f\n", oncpu);
	return out < 0;
}

static int saturate(double secs)
{
	struct crew c;
	struct placement pl;
	int n = 2 * llc_size(&map, 0);
	double oncpu;

	if (n > map.ncpus)
		n = map.ncpus;
	crew_start(&c, n, BUSY);
	sleep_ns(WARMUP_S * 1e9);
	oncpu = crew_measure(&c, secs, &pl);
	crew_stop(&c);
	printf("metric saturate threads %d\n", n);
	/* on-CPU time per wall second over the CPUs the threads could use */
	printf("metric saturate oncpu_pct %.1f\n", oncpu);
	return oncpu <= 0 || oncpu > 105;
}

int main(int argc, char **argv)
{
	double secs = argc > 2 ? atof(argv[2]) : 5.0;

	if (argc < 2 || llc_map_read(&map)) {
		fprintf(stderr, "usage: cas-bench bounce|saturate [secs] (needs sysfs cache info)\n");
		return 2;
	}
	numa_balancing_off();
	write_str(TRACEFS "/buffer_size_kb", "4096");
	if (!strcmp(argv[1], "bounce"))
		return bounce(secs);
	if (!strcmp(argv[1], "saturate"))
		return saturate(secs);
	fprintf(stderr, "cas-bench: unknown workload '%s'\n", argv[1]);
	return 2;
}
