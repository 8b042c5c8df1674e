// SPDX-License-Identifier: GPL-2.0
/*
 * steering: is cache-aware scheduling active, and what does it do?
 *
 * A process with NTHREADS threads, each busy BUSY_MS then asleep SLEEP_MS,
 * is started on an idle machine, so fork balancing spreads it over several
 * LLCs. It runs once with the SCHED_CACHE feature on and once with it off
 * (NO_SCHED_CACHE in /sys/kernel/debug/sched/features). For each setting the
 * test prints the share of the threads' time in their top LLC and the
 * LLC changes per second, and counts (v1: from its trace; v2: see below):
 *   - scans of the process's occupancy and the LLC they pick,
 *   - wakeups that moved a task to another LLC, and those into the
 *     preferred LLC ("steered").
 * It asserts that the scan runs and picks an LLC, and that wakeups are
 * steered there with the feature on only (see STEER_OFF_MAX). For v2,
 * steering is judged by where the wakees land, not by v2's count of its
 * decisions (nr_wakeups_cache is counted before select_idle_sibling(),
 * which may then search from the old target): with the feature on,
 * wakeups moved threads across LLCs into the preferred LLC
 * (V2_STEER_ON_MIN), the threads' wakeups in the measured time put them
 * there (V2_WAKE_IN_MIN), and they sit there (V2_SHARE_ON_MIN); the
 * generic tracepoints sched_waking, sched_migrate_task and sched_wakeup
 * show it, on any kernel.
 *
 * v1 (series-v1) is recognised by its tracepoints sched_select_task_rq and
 * sched_attach_task and its trace_printk() lines in task_cache_work().
 * v2 (series-v2) by what the host booted (lib/trace.h's kernel_is_v2()),
 * and observed through what it shows of the process without tracing
 * (lib/v2stat.h): its scans and preferred LLC in /proc/<pid>/sched, its
 * threads' steering attempts and steered wakeups (schedstats), read while
 * they run, so with the feature off v2 must show no scan and no steering
 * attempt at all; a v2 kernel that does not show them fails. Its DEBUG
 * tracepoints, when the kernel has them, must fire as well (two subtests
 * that skip without them).
 * A kernel without the SCHED_CACHE feature skips.
 */
#include <stdatomic.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <signal.h>
#include <sys/wait.h>
#include "kselftest.h"
#include "lib/workload.h"
#include "lib/trace.h"
#include "lib/v2stat.h"

/*
 * 3 threads at a fifth each: 0.6 of a CPU, which fits even a 2-CPU LLC
 * with room to spare: v2's weight limit for 3 threads on 2 CPUs is 1 CPU
 * (75% shrunk by 2 CPUs / 3 threads), 0.8 for one that was over it.
 */
#define NTHREADS	3
#define BUSY_MS		2
#define SLEEP_MS	8
#define WARMUP_S	1
#define MEASURE_S	3
/*
 * Steered wakeups (cross-LLC, into the preferred LLC) needed to call it
 * steering; measured on 2x2x4: v1 9-21, v2 more. With the feature off, v2
 * must show none (its counters are the process's own: exact); v1's tracepoint
 * names no task, so other tasks' wakeups into that LLC count too (measured
 * 1 per run): at most STEER_OFF_MAX and a quarter of the "on" count.
 */
#define STEER_ON_MIN	5
/*
 * v2's balancer no longer pulls the threads back out (series-v2 patch 8),
 * so once gathered they need no more steering: fork balancing starts them
 * on at least two LLCs (33-52% in the top one with the feature off), and
 * only a wakeup brings a thread that sleeps into another LLC (v2's
 * balancer holds what is in the preferred LLC and brings nothing in; its
 * pull of a thread that never sleeps does not apply to these), so at
 * least one wakeup moved a thread across LLCs into the preferred one: a
 * sched_migrate_task of the thread on the waker's CPU right after its
 * sched_waking (within WAKE_MIGRATE_NS, nothing switched there between),
 * counted from the fork to the end of the measured time (measured: see
 * V2_WAKE_IN_MIN).
 */
#define V2_STEER_ON_MIN	1
#define WAKE_MIGRATE_NS	500000
#define STEER_OFF_MAX	3
/*
 * And the outcome, for v2: the threads sit in the preferred LLC at least
 * V2_SHARE_ON_MIN percent of the measured time (the balance tests'
 * aggregation bound). Measured on 2x2x4, 1x4x2 and 1x2x2x2 (three boots
 * each): 100% on; 33% off on 2x2x4. A steering decision that
 * select_idle_sibling() then undoes fails here.
 */
#define V2_SHARE_ON_MIN	90.0
/*
 * And where each wakeup put the wakee: of the threads' wakeups in the
 * measured time (sched_wakeup's target_cpu, the CPU it was queued on), at
 * least V2_WAKE_IN_MIN percent in the preferred LLC with the feature on,
 * the share's bound: a wakee queued elsewhere for want of an idle CPU
 * there is the tolerance. Measured on 2x2x4 (three boots, 2026-12-07):
 * on 804 of 804, 736 of 736 and 806 of 806 wakeups (100%), after 2, 2
 * and 2 wakeup moves into it (v2 counted 2, 2 and 5 decisions to steer);
 * off, into the top LLC of the off run, 32.8-33.3%. A kernel that
 * decides to steer and then queues the wakee where it was fails here.
 */
#define V2_WAKE_IN_MIN	90.0
/* v1 ignores an LLC whose average occupancy is below NICE_0_LOAD >> EPOCH_OLD */
#define V1_MIN_OCC	((1L << 20) >> 5)

struct counts {
	long scan_lines, scans, picks[CAS_MAX_CPUS];
	long select, xllc_wakeups, steered, attach, xllc_attach;
	long decisions;		/* v2: its sched_cache_steer events */
	long overloaded, numa, not_allowed;
	int pref;
	/*
	 * v2, from the generic tracepoints: wakeups that moved a thread across
	 * LLCs into the preferred LLC (from the fork to the end of the measured
	 * time), and the threads' wakeups in the measured time, in all and
	 * those that queued them in the LLC wake_llc (the preferred one, or
	 * with the feature off the top LLC)
	 */
	long wake_moves_in, wakes, wakes_in;
	int wake_llc;
	long trace_lost;	/* events the trace buffer overwrote: no count then */
};

static int is_v2, v2_events;	/* v2, and with its DEBUG tracepoints */
static pid_t child;	/* the measured process: exactly NTHREADS threads */

static struct llc_map map;
/* Shared with the measured child process */
static struct shared {
	struct worker w[NTHREADS];
	atomic_int measuring, stop;
} *sh;
#define workers (sh->w)

static int our_tid(int pid)
{
	for (int i = 0; i < NTHREADS; i++)
		if (workers[i].tid == pid)
			return 1;
	return 0;
}

/*
 * v1 prints, per scan, one "(llc) a_occ: A m_a_occ: M" line per LLC from the
 * task running the scan; the LLC where A became the running maximum M is
 * the pick of that scan (if M is not below V1_MIN_OCC).
 */
static void parse_trace(struct counts *c)
{
	FILE *f = fopen(TRACEFS "/trace", "r");
	char line[512];
	long seen = 0, best_occ = 0;
	int best = -1, k;

	memset(c, 0, sizeof(*c));
	c->pref = -1;
	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		char *p;
		long a, m;
		int id, nc, oc, nl, ol, idle;

		if ((p = strstr(line, "sched_select_task_rq: ")) &&
		    sscanf(p, "sched_select_task_rq: new_cpu=%d old_cpu=%d new_llc=%d old_llc=%d",
			   &nc, &oc, &nl, &ol) == 4) {
			c->select++;
			if (nl != ol) {
				c->xllc_wakeups++;
			}
			continue;
		}
		if ((p = strstr(line, "sched_attach_task: ")) &&
		    sscanf(p, "sched_attach_task: src_cpu=%d dst_cpu=%d src_llc=%d dst_llc=%d idle=%d",
			   &nc, &oc, &ol, &nl, &idle) == 5) {
			c->attach++;
			c->xllc_attach += nl != ol;
			continue;
		}
		if ((p = strstr(line, ": (")) && strstr(p, "a_occ:") && our_tid(trace_line_pid(line)) &&
		    sscanf(p, ": (%d) a_occ: %ld m_a_occ: %ld", &id, &a, &m) == 3) {
			c->scan_lines++;
			if (a == m && a > best_occ) {
				best_occ = a;
				best = llc_index(&map, id);
			}
			if (++seen == map.nllc) {
				c->scans++;
				if (best >= 0 && best_occ >= V1_MIN_OCC)
					c->picks[best]++;
				seen = 0;
				best_occ = 0;
				best = -1;
			}
		}
	}
	fclose(f);
	for (k = 0; k < map.nllc; k++)
		if (c->picks[k] && (c->pref < 0 || c->picks[k] > c->picks[c->pref]))
			c->pref = k;
}

/* v2: every event names the process; count only ours. */
static void v2_scan(const char *f, void *arg)
{
	struct counts *c = arg;
	int k;

	if (trace_field(f, "tgid", -1) != child)
		return;
	c->scans++;
	k = llc_index(&map, trace_field(f, "pref_llc", -1));
	if (k >= 0)
		c->picks[k]++;
}

static void v2_steer(const char *f, void *arg)
{
	struct counts *c = arg;
	char reason[32];

	if (trace_field(f, "tgid", -1) != child)
		return;
	c->decisions++;
	trace_field_str(f, "reason", reason, sizeof(reason));
	c->steered += !strcmp(reason, "steered");
	c->overloaded += !strcmp(reason, "overloaded");
	c->numa += !strcmp(reason, "numa");
	c->not_allowed += !strcmp(reason, "not_allowed");
}

static void v2_migrate(const char *f, void *arg)
{
	struct counts *c = arg;
	char cause[32];

	if (trace_field(f, "tgid", -1) != child)
		return;
	if (!strcmp(trace_field_str(f, "cause", cause, sizeof(cause)), "wakeup")) {
		c->xllc_wakeups++;
	} else {
		c->attach++;
		c->xllc_attach++;
	}
}

static void parse_trace_v2(struct counts *c)
{
	memset(c, 0, sizeof(*c));
	c->pref = -1;
	trace_each("sched_cache_scan", v2_scan, c);
	trace_each("sched_cache_steer", v2_steer, c);
	trace_each("sched_cache_migrate", v2_migrate, c);
	for (int k = 0; k < map.nllc; k++)
		if (c->picks[k] && (c->pref < 0 || c->picks[k] > c->picks[c->pref]))
			c->pref = k;
}

/* The CPU of a trace line ("comm-pid  [003] ..."), or -1 */
static int trace_line_cpu(const char *line)
{
	const char *br = strstr(line, " [");

	return br ? atoi(br + 2) : -1;
}

/*
 * Where wakeups put the measured threads (v2; the generic tracepoints,
 * trace clock mono): the wakeups that moved one across LLCs into LLC
 * @llc up to @t1, each a sched_migrate_task on the waker's CPU right after
 * the thread's sched_waking there (try_to_wake_up() holds the thread's
 * pi_lock, interrupts off, from one to the other); and the wakeups in
 * [@t0, @t1] (sched_wakeup), in all and into @llc.
 */
/*
 * Events the trace buffer overwrote (every CPU's "overrun" in
 * per_cpu/cpuN/stats): the ring drops its oldest events first, those of
 * the fork and the wakeups that gathered the threads, so a count of
 * wakeup moves from a trace that overran is no measurement.
 */
static long trace_overruns(void)
{
	long lost = 0;

	for (int cpu = 0; cpu < map.ncpus; cpu++) {
		char path[128], line[128];
		FILE *f;

		snprintf(path, sizeof(path), TRACEFS "/per_cpu/cpu%d/stats", cpu);
		f = fopen(path, "r");
		if (!f)
			continue;
		while (fgets(line, sizeof(line), f))
			if (!strncmp(line, "overrun: ", 9))
				lost += atol(line + 9);
		fclose(f);
	}
	return lost;
}

static void count_wakeups(struct counts *c, int llc, double t0, double t1)
{
	FILE *f = fopen(TRACEFS "/trace", "r");
	static int waking[CAS_MAX_CPUS];
	static double waking_ts[CAS_MAX_CPUS];
	char line[512];
	const char *fl;

	c->wake_moves_in = c->wakes = c->wakes_in = 0;
	c->wake_llc = llc;
	c->trace_lost = trace_overruns();
	if (!f || llc < 0)
		goto out;
	for (int i = 0; i < CAS_MAX_CPUS; i++)
		waking[i] = -1;
	while (fgets(line, sizeof(line), f)) {
		int cpu = trace_line_cpu(line);
		double ts = trace_time(line);
		long pid, to, from;

		if (line[0] == '#' || cpu < 0 || cpu >= CAS_MAX_CPUS || ts > t1)
			continue;
		if (trace_is_event(line, "sched_switch", &fl)) {
			waking[cpu] = -1;
		} else if (trace_is_event(line, "sched_waking", &fl)) {
			pid = trace_field(fl, "pid", -1);
			waking[cpu] = our_tid(pid) ? pid : -1;
			waking_ts[cpu] = ts;
		} else if (trace_is_event(line, "sched_migrate_task", &fl)) {
			pid = trace_field(fl, "pid", -1);
			from = trace_field(fl, "orig_cpu", -1);
			to = trace_field(fl, "dest_cpu", -1);
			if (pid == waking[cpu] && ts - waking_ts[cpu] <= WAKE_MIGRATE_NS / 1e9 &&
			    from >= 0 && from < map.ncpus && to >= 0 && to < map.ncpus &&
			    map.llc_of[from] != map.llc_of[to] && map.llc_of[to] == llc)
				c->wake_moves_in++;
			waking[cpu] = -1;
		} else if (trace_is_event(line, "sched_wakeup", &fl) && ts >= t0 &&
			   our_tid(trace_field(fl, "pid", -1))) {
			to = trace_field(fl, "target_cpu", -1);
			c->wakes++;
			c->wakes_in += to >= 0 && to < map.ncpus && map.llc_of[to] == llc;
		}
	}
out:
	if (f)
		fclose(f);
}

/*
 * v2's own figures of the child, read while its threads run (a thread's
 * schedstats go with it): they replace what the tracepoints counted of
 * scans, preference and steering.
 */
struct v2_read {
	struct v2_mm mm;
	struct v2_steer st;
};

static void v2_counts(struct counts *c, const struct v2_read *r)
{
	c->scans = r->mm.scans;
	c->pref = llc_of_cpu_id(&map, r->mm.pref);
	c->select = r->st.attempts;
	c->steered = r->st.steered;
}

/* Second pass: wakeups that crossed into the preferred LLC. */
static long count_steered(int pref)
{
	FILE *f = fopen(TRACEFS "/trace", "r");
	char line[512];
	long n = 0;

	if (!f || pref < 0)
		goto out;
	while (fgets(line, sizeof(line), f)) {
		char *p = strstr(line, "sched_select_task_rq: ");
		int nc, oc, nl, ol;

		if (p && sscanf(p, "sched_select_task_rq: new_cpu=%d old_cpu=%d new_llc=%d old_llc=%d",
				&nc, &oc, &nl, &ol) == 4 &&
		    nl != ol && llc_index(&map, nl) == pref)
			n++;
	}
out:
	if (f)
		fclose(f);
	return n;
}

/*
 * Make the load balancer migrate: start busy threads confined to CPU 0,
 * then let them run anywhere.
 */
static void imbalance_phase(void)
{
	atomic_int measuring = 0, stop = 0;
	struct worker w[4] = { 0 };
	cpu_set_t one, all;

	CPU_ZERO(&one);
	CPU_SET(0, &one);
	sched_getaffinity(0, sizeof(all), &all);
	sched_setaffinity(0, sizeof(one), &one);
	for (int i = 0; i < 4; i++) {
		w[i] = (struct worker){ .busy_ns = 20000000ULL, .sleep_ns = 1000000ULL,
					.map = &map, .measuring = &measuring, .stop = &stop };
		pthread_create(&w[i].thread, NULL, worker_main, &w[i]);
	}
	sleep_ns(200000000ULL);
	for (int i = 0; i < 4; i++)
		pthread_setaffinity_np(w[i].thread, sizeof(all), &all);
	sched_setaffinity(0, sizeof(all), &all);
	sleep_ns(1000000000ULL);
	atomic_store(&stop, 1);
	for (int i = 0; i < 4; i++)
		pthread_join(w[i].thread, NULL);
}

/*
 * The measured process is a child whose main thread is one of the NTHREADS
 * workers, so it has exactly NTHREADS threads (v1's over-aggregation rule
 * counts them); this process only orchestrates.
 */
static void run_child(void)
{
	pthread_t t[NTHREADS];

	/* never outlive a test killed by its time limit */
	prctl(PR_SET_PDEATHSIG, SIGKILL);
	for (int i = 1; i < NTHREADS; i++)
		pthread_create(&t[i], NULL, worker_main, &workers[i]);
	worker_main(&workers[0]);
	for (int i = 1; i < NTHREADS; i++)
		pthread_join(t[i], NULL);
	_exit(0);
}

static void run_setting(int feat_on, struct placement *pl, struct counts *c)
{
	struct v2_read r = { .mm = { .scans = -1 }, .st = { -1, -1 } };
	unsigned long long t0, t1;

	sched_feat_set("SCHED_CACHE", feat_on);
	trace_reset();
	memset(sh, 0, sizeof(*sh));
	for (int i = 0; i < NTHREADS; i++)
		workers[i] = (struct worker){ .busy_ns = BUSY_MS * 1000000ULL,
					      .sleep_ns = SLEEP_MS * 1000000ULL,
					      .map = &map, .measuring = &sh->measuring,
					      .stop = &sh->stop };
	/* trace from the start: most steering happens while the threads gather */
	trace_on(1);
	child = fork();
	if (child == 0)
		run_child();
	sleep_ns(WARMUP_S * 1000000000ULL);
	t0 = now_ns();
	atomic_store(&sh->measuring, 1);
	sleep_ns(MEASURE_S * 1000000000ULL);
	atomic_store(&sh->measuring, 0);
	t1 = now_ns();
	/*
	 * The preference the scans gave the process while it ran alone: the
	 * imbalance phase's busy threads may make it too heavy to keep one
	 * (under TCG its threads then read 1.1-1.3 CPUs against 0.6-0.8)
	 */
	if (is_v2)
		v2_mm_read(child, &r.mm);
	imbalance_phase();
	trace_on(0);
	if (is_v2)
		v2_steer_read(child, &r.st);
	atomic_store(&sh->stop, 1);
	waitpid(child, NULL, 0);
	placement_of(workers, NTHREADS, map.nllc, MEASURE_S, pl);
	if (is_v2) {
		parse_trace_v2(c);
		v2_counts(c, &r);
		/* with the feature off, the wakeups into the LLC the threads used most */
		count_wakeups(c, feat_on ? c->pref : pl->top_llc, t0 / 1e9, t1 / 1e9);
		ksft_print_msg("v2 SCHED_CACHE %s: wakeups across LLCs into LLC %d: %ld; "
			       "wakeups in the measured %d s: %ld, %ld (%.1f%%) into LLC %d\n",
			       feat_on ? "on " : "off", c->wake_llc, c->wake_moves_in, MEASURE_S,
			       c->wakes, c->wakes_in, c->wakes ? 100.0 * c->wakes_in / c->wakes : 0,
			       c->wake_llc);
	} else {
		parse_trace(c);
		c->steered = count_steered(c->pref);
	}
	ksft_print_msg("%s SCHED_CACHE %s: top_llc_share=%.1f%% llc_changes_per_s=%.1f "
		       "scans=%ld scans_per_s=%.1f pref_llc=%d %s=%ld xllc_wakeups=%ld steered=%ld "
		       "attach=%ld xllc_attach=%ld not_steered(overloaded=%ld numa=%ld "
		       "not_allowed=%ld) (%.1fs)\n", is_v2 ? "v2" : "v1",
		       feat_on ? "on " : "off", pl->share_pct, pl->changes_per_s, c->scans,
		       c->scans / ((now_ns() - t0) / 1e9),
		       c->pref >= 0 ? map.first_cpu[c->pref] : -1,
		       is_v2 ? "steer_attempts" : "select_task_rq", c->select,
		       c->xllc_wakeups, c->steered, c->attach, c->xllc_attach,
		       c->overloaded, c->numa, c->not_allowed, (now_ns() - t0) / 1e9);
}

static void enable_events(int on)
{
	static const char * const v1[] = { "sched_select_task_rq", "sched_attach_task" };
	static const char * const v2[] = { "sched_cache_scan", "sched_cache_pref_llc",
					   "sched_cache_steer", "sched_cache_migrate" };
	/* where wakeups put the threads: on every kernel */
	static const char * const gen[] = { "sched_waking", "sched_wakeup",
					    "sched_migrate_task", "sched_switch" };

	if (is_v2) {
		for (size_t i = 0; v2_events && i < sizeof(v2) / sizeof(v2[0]); i++)
			trace_event_enable(v2[i], on);
		for (size_t i = 0; i < sizeof(gen) / sizeof(gen[0]); i++)
			trace_event_enable(gen[i], on);
	} else {
		for (size_t i = 0; i < sizeof(v1) / sizeof(v1[0]); i++)
			trace_event_enable(v1[i], on);
	}
}

int main(void)
{
	struct placement on, off;
	struct counts con, coff;
	long schedstats = -1;

	ksft_print_header();
	/* a kernel expected to be v2 fails without it, whatever else it has */
	is_v2 = kernel_is_v2();
	if (is_v2 && !v2_shown())
		ksft_exit_fail_msg(V2_UNSHOWN "\n");
	if (!sched_feat_exists("SCHED_CACHE"))
		ksft_exit_skip("no SCHED_CACHE sched feature: kernel without cache-aware scheduling\n");
	if (is_v2 && (schedstats = schedstats_on()) < 0)
		ksft_exit_fail_msg("cannot switch schedstats on: v2's steering counters need them\n");
	v2_events = is_v2 && v2_traced();
	if (!is_v2 && !trace_event_exists("sched_select_task_rq"))
		ksft_exit_skip("neither v1 nor v2 tracepoints\n");
	if (llc_map_read(&map) || map.nllc < 2)
		ksft_exit_skip("needs at least 2 LLCs\n");
	if (is_v2 && !multi_llc_node(&map))
		ksft_exit_skip("v2 is inert where every node is one LLC (sched_cache tests that)\n");
	if (is_v2 && !read_long("/sys/kernel/debug/sched/cache/epoch_ms", 0))
		ksft_exit_fail_msg("v2 without its debugfs knobs\n");
	sh = mmap(NULL, sizeof(*sh), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (sh == MAP_FAILED)
		ksft_exit_fail_msg("mmap\n");
	ksft_set_plan(6);
	write_str(TRACEFS "/buffer_size_kb", "2048");
	/* the trace's times on the clock of now_ns() (count_wakeups()) */
	if (is_v2)
		write_str(TRACEFS "/trace_clock", "mono");
	numa_balancing_off();
	enable_events(1);

	run_setting(1, &on, &con);
	run_setting(0, &off, &coff);
	sched_feat_set("SCHED_CACHE", 1);
	enable_events(0);
	schedstats_restore(schedstats);

	/* subtest names stay fixed (tests/expect.tsv names them); figures go to diagnostics */
	ksft_print_msg("steered into the preferred LLC%s: on %ld (at least %d), off %ld; "
		       "scans on %ld, off %ld; steering attempts on %ld, off %ld\n",
		       is_v2 ? " (v2's count of its decisions)" : "", con.steered,
		       is_v2 ? 0 : STEER_ON_MIN, coff.steered,
		       con.scans, coff.scans, con.select, coff.select);
	ksft_test_result(con.pref >= 0, "scan_picks_preferred_llc\n");
	if (is_v2)
		ksft_print_msg("v2 on: top LLC %d at %.1f%% (at least %.0f%%), preferred LLC %d\n",
			       on.top_llc, on.share_pct, V2_SHARE_ON_MIN, con.pref);
	if (is_v2)
		ksft_print_msg("v2 on: wakeups across LLCs into the preferred LLC: %ld (at least %d); "
			       "wakeups into it %ld of %ld (at least %.0f%%); v2's count of "
			       "its steering decisions %ld (not judged)\n",
			       con.wake_moves_in, V2_STEER_ON_MIN, con.wakes_in, con.wakes,
			       V2_WAKE_IN_MIN, con.steered);
	if (is_v2 && con.trace_lost)
		ksft_print_msg("v2 on: the trace buffer overran (%ld events lost): "
			       "the wakeups cannot be counted\n", con.trace_lost);
	/* v2: where the wakees went, not what v2 counted of its decisions */
	ksft_test_result(is_v2 ? con.pref >= 0 && !con.trace_lost &&
				 con.wake_moves_in >= V2_STEER_ON_MIN &&
				 con.wakes > 0 && con.wakes_in * 100.0 >= V2_WAKE_IN_MIN * con.wakes &&
				 on.top_llc == con.pref && on.share_pct >= V2_SHARE_ON_MIN :
				 con.steered >= STEER_ON_MIN,
			 "wakeups_steered_with_feature\n");
	if (is_v2) {
		/* v2's counters are the process's own: exact, no tolerance */
		ksft_test_result(con.scans > 0 && coff.scans == 0, "scan_runs_only_with_feature\n");
		ksft_test_result(coff.steered == 0 && coff.select == 0,
				 "no_steering_without_feature\n");
		if (v2_events) {
			ksft_print_msg("tracepoints: steer decisions on %ld, off %ld; "
				       "cross-LLC moves on %ld, off %ld\n", con.decisions,
				       coff.decisions, con.xllc_wakeups + con.attach,
				       coff.xllc_wakeups + coff.attach);
			ksft_test_result(con.decisions > 0 && coff.decisions == 0,
					 "tracepoint_sched_cache_steer_fires\n");
			ksft_test_result(con.xllc_wakeups + con.attach + coff.attach > 0,
					 "tracepoint_sched_cache_migrate_fires\n");
		} else {
			ksft_test_result_code(KSFT_SKIP, "tracepoint_sched_cache_steer_fires",
					      "no DEBUG tracepoints in this kernel");
			ksft_test_result_code(KSFT_SKIP, "tracepoint_sched_cache_migrate_fires",
					      "no DEBUG tracepoints in this kernel");
		}
	} else {
		/* off: at most STEER_OFF_MAX into the preferred LLC, and a quarter of on */
		ksft_test_result(con.scans > 0 && coff.scans > 0, "scan_runs\n");
		ksft_test_result(coff.steered <= STEER_OFF_MAX && coff.steered * 4 <= con.steered,
				 "no_steering_without_feature\n");
		ksft_test_result(con.select > 0 && coff.select > 0,
				 "tracepoint_sched_select_task_rq_fires\n");
		ksft_test_result(con.attach > 0 || coff.attach > 0,
				 "tracepoint_sched_attach_task_fires\n");
	}
	ksft_finished();
}
