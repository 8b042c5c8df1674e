// SPDX-License-Identifier: GPL-2.0
/*
 * cas-bench: workloads measured the same way on every kernel (unpatched,
 * v1, v2), for the comparisons that need one boot per kernel (make bench,
 * make lb-compare).
 *
 *   cas-bench WORKLOAD [secs] [occ]
 *
 *   fit          a process with fewer threads than an LLC has CPUs, each
 *                on-CPU part of the time, walking one shared working set
 *   ring         threads that wake each other in a ring through pipes
 *   saturate     twice as many always-busy threads as an LLC has CPUs
 *   pair         two independent fit processes (placement also per
 *                process: proc_top_llc_share_pct, apart_llc_share_pct)
 *   latency      message threads wake worker threads (like schbench) and
 *                the workers' wakeup latency is reported as percentiles
 *   hackbench-1  Debian's hackbench (rt-tests), threads over pipes, one
 *   hackbench-N  group and one group per LLC, passing the same messages;
 *                CAS_HACKBENCH names the program (default /extra/hackbench)
 *   stream       a process of as many threads as an LLC has CPUs, each on-CPU
 *                like fit's and streaming through its own array, the arrays
 *                together twice one LLC: the process does not fit one LLC's
 *                cache, and gathering it there costs misses; started one
 *                thread to an LLC (spread_crew())
 *   sweep-T-D-B  one cell of the load sweep (qemu/sweep.sh): a process of
 *                T threads, each on-CPU about D percent of the time, in
 *                bursts of B ms of its CPU time between sleeps (D 100: never
 *                sleeps, B does not matter)
 *
 * Output: one line per figure, "metric WORKLOAD NAME VALUE"; with "occ",
 * also "occ WORKLOAD MS N0 N1 ..." every SAMPLE_MS: how many of the
 * threads sat in each LLC (their CPU in /proc), for the plot.
 *
 * Placement comes from sampling /proc every SAMPLE_MS. Migrations come
 * from the generic sched_migrate_task event: a wakeup's when it falls
 * between the task's sched_waking and sched_wakeup events, the load
 * balancer's otherwise (nothing else moves these threads: no affinity
 * change, no exec, NUMA balancing off; v2's pull of a thread that does
 * not sleep into its preferred LLC, through the stopper, counts with the
 * balancer's). v2's preferences and scans come
 * from what it shows without tracing (/proc/<pid>/sched, lib/v2stat.h)
 * and are printed only where it shows them; the scan's CPU time only
 * from its DEBUG tracepoint, where that exists. Under QEMU TCG nothing
 * here measures caches: under the cache model (qemu/plugins/llc.c), with
 * CAS_LLC_WINDOW=ID in the environment, the measured seconds are marked
 * as window ID and "llc-window ID WORKLOAD SECONDS" says so; the host
 * reads the model's counts of that window (qemu/bench.sh).
 */
#include <limits.h>
#include <linux/futex.h>
#include "lib/trace.h"
#include "lib/crew.h"
#include "lib/v2stat.h"
#include "../qemu/plugins/llc-mark.h"

#define WARMUP_S	2.0
#define SAMPLE_MS	100
#define WS_BYTES	(256 << 10)	/* fit's shared working set */
#define LAT_CAP		8192		/* latency samples kept per worker */
#define LAT_MSG		2		/* latency: message threads */
#define LAT_THINK_NS	10000000ULL	/* a message thread's pause */
#define LAT_WORK_NS	200000ULL	/* a worker's work per message */
#define RING_WORK_NS	50000ULL	/* a ring thread's work per token */
/*
 * fit's duty and pause: under TCG each sleep and wakeup is charged about
 * a millisecond of CPU time, so a short duty would be spent on that
 * overhead alone and no work would be done
 */
#define BENCH_FIT_DUTY	0.3
#define BENCH_FIT_SLEEP_NS 10000000ULL

static const char *wl;
static int occ_out;
static int pref_out;	/* sweep: how long the process had a preferred LLC */
static int has_v2_events;	/* v2's DEBUG tracepoints: the scan's time */
static int has_v2;		/* v2's figures in /proc/<pid>/sched */

/* The cache model's window around the measured seconds (0: none) */
static unsigned int llc_window;

static void window(unsigned int op, double secs)
{
	if (!llc_window)
		return;
	llc_mark(op, llc_window);
	if (op == LLC_MARK_END)
		printf("llc-window %u %s %.3f\n", llc_window, wl, secs);
}

static void metric(const char *name, double v)
{
	printf("metric %s %s %.2f\n", wl, name, v);
}

/*
 * A figure counted from the trace: when the trace buffer overflowed, the
 * count misses what was overwritten, and the figure is reported invalid
 * (make bench fails every check that reads it) rather than low.
 */
static int trace_overflowed;

static void tmetric(const char *name, double v)
{
	if (trace_overflowed)
		printf("metric %s %s invalid\n", wl, name);
	else
		metric(name, v);
}

/*
 * The cost of the scans (the sched_cache_scan event's ns=, local_clock()
 * around one scan): their share of the CPUs' time, the mean and the
 * longest of the run's traced scans in microseconds of guest time. Under
 * -icount (qemu/run.sh) guest time counts instructions, 2 ns each at the
 * default shift: an instruction count, not a real machine's time (no cache
 * miss costs anything there).
 */
struct scan_sum {
	long ns, n, max_ns;
};

static void scan_add(struct scan_sum *s, const char *fields)
{
	long ns = trace_field(fields, "ns", -1);

	if (ns < 0)
		return;
	s->ns += ns;
	s->n++;
	if (ns > s->max_ns)
		s->max_ns = ns;
}

static void scan_cost(const struct scan_sum *s, double secs)
{
	if (!has_v2_events || !s->n)
		return;
	tmetric("scan_cpu_pct", 100.0 * s->ns / (secs * 1e9 * map.ncpus));
	tmetric("scan_us", s->ns / 1e3 / s->n);
	tmetric("scan_max_us", s->max_ns / 1e3);
}

/* ---- the threads */

static volatile unsigned char ws[WS_BYTES];

/* Walk the working set for about ns from *pos: the 4 KiB pages touched */
static long walk_ns(unsigned long long ns, size_t *pos)
{
	unsigned long long end = now_ns() + ns;
	long pages = 0;

	while (now_ns() < end) {
		for (int i = 0; i < 4096; i += 64)
			ws[(*pos + i) % WS_BYTES]++;
		*pos = (*pos + 4096) % WS_BYTES;
		pages++;
	}
	return pages;
}

/* ... one op per 4 KiB touched */
static void work_ns(struct worker *w, unsigned long long ns, size_t *pos)
{
	w->ops += walk_ns(ns, pos);
}

/* fit: on-CPU BENCH_FIT_DUTY of the time (feedback on its CPU time, crew.h) */
static void *fit_worker(void *arg)
{
	struct worker *w = arg;
	unsigned long long wall0 = now_ns(), cpu0 = thread_cpu_ns();
	size_t pos = 0;

	w->tid = syscall(SYS_gettid);
	while (!atomic_load(w->stop)) {
		if (thread_cpu_ns() - cpu0 < BENCH_FIT_DUTY * (now_ns() - wall0))
			work_ns(w, 1000000ULL, &pos);
		else
			sleep_ns(BENCH_FIT_SLEEP_NS);
	}
	return NULL;
}

/*
 * stream: like fit, each thread on-CPU BENCH_FIT_DUTY of the time, but
 * through an array of its own, one line written at a time
 */
static size_t stream_bytes;

static void *stream_worker(void *arg)
{
	struct worker *w = arg;
	unsigned long long wall0 = now_ns(), cpu0 = thread_cpu_ns();
	volatile unsigned char *a = malloc(stream_bytes);
	size_t pos = 0;

	w->tid = syscall(SYS_gettid);
	if (!a)
		return NULL;
	memset((void *)a, 1, stream_bytes);
	while (!atomic_load(w->stop)) {
		if (thread_cpu_ns() - cpu0 >= BENCH_FIT_DUTY * (now_ns() - wall0)) {
			sleep_ns(BENCH_FIT_SLEEP_NS);
			continue;
		}
		/* 1 ms of streaming, an op a 4 KiB */
		for (unsigned long long end = now_ns() + 1000000ULL; now_ns() < end; w->ops++) {
			for (int i = 0; i < 4096; i += 64)
				a[pos + i]++;
			pos = (pos + 4096) % stream_bytes;
		}
	}
	free((void *)a);
	return NULL;
}

/* ring: worker i reads the token from pipe i and passes it to i + 1 */
static struct crew *ring_crew;
static int ring_fd[CAS_MAX_CPUS][2];

static void ring_setup(struct crew *c)
{
	char t = 't';

	for (int i = 0; i < c->n; i++)
		if (pipe(ring_fd[i]))
			_exit(1);
	if (write(ring_fd[0][1], &t, 1) != 1)
		_exit(1);
}

static void *ring_worker(void *arg)
{
	struct worker *w = arg;
	int i = w - ring_crew->sh->w, next = (i + 1) % ring_crew->n;
	size_t pos = (size_t)i * 4096;
	char t;

	w->tid = syscall(SYS_gettid);
	while (read(ring_fd[i][0], &t, 1) == 1) {
		if (!atomic_load(w->stop))
			work_ns(w, RING_WORK_NS, &pos);
		if (write(ring_fd[next][1], &t, 1) != 1 || atomic_load(w->stop))
			break;
	}
	return NULL;
}

/*
 * latency: message thread m (workers 0..LAT_MSG-1) posts a timestamp to
 * each of its workers that has answered the last one and wakes it
 * (futex), then pauses LAT_THINK_NS; each worker notes now - timestamp,
 * works LAT_WORK_NS and answers.
 */
struct lat_shm {
	atomic_uint seq[CAS_MAX_CPUS];
	atomic_uint ack[CAS_MAX_CPUS];
	unsigned long long posted[CAS_MAX_CPUS];
	int n[CAS_MAX_CPUS];
	unsigned int us[CAS_MAX_CPUS][LAT_CAP];
};

static struct crew *lat_crew;
static struct lat_shm *lat;

static long futex(atomic_uint *uaddr, int op, unsigned int val, long ns)
{
	struct timespec ts = { ns / 1000000000L, ns % 1000000000L };

	return syscall(SYS_futex, uaddr, op, val, ns ? &ts : NULL, NULL, 0);
}

static void *lat_worker(void *arg)
{
	struct worker *w = arg;
	int i = w - lat_crew->sh->w, nw = lat_crew->n - LAT_MSG;
	size_t pos = (size_t)i * 4096;

	w->tid = syscall(SYS_gettid);
	if (i < LAT_MSG) {
		while (!atomic_load(w->stop)) {
			for (int j = LAT_MSG + i; j < lat_crew->n; j += LAT_MSG) {
				if (atomic_load(&lat->ack[j]) != atomic_load(&lat->seq[j]))
					continue;
				lat->posted[j] = now_ns();
				atomic_fetch_add(&lat->seq[j], 1);
				futex(&lat->seq[j], FUTEX_WAKE, 1, 0);
			}
			sleep_ns(LAT_THINK_NS);
			w->ops++;
		}
		for (int j = LAT_MSG; j < LAT_MSG + nw; j++) {
			atomic_fetch_add(&lat->seq[j], 1);
			futex(&lat->seq[j], FUTEX_WAKE, 1, 0);
		}
		return NULL;
	}
	while (!atomic_load(w->stop)) {
		unsigned int seen = atomic_load(&lat->ack[i]);

		if (atomic_load(&lat->seq[i]) == seen) {
			futex(&lat->seq[i], FUTEX_WAIT, seen, 100000000L);
			continue;
		}
		if (atomic_load(w->measuring) && lat->n[i] < LAT_CAP) {
			unsigned long long d = (now_ns() - lat->posted[i]) / 1000;

			lat->us[i][lat->n[i]++] = d > UINT_MAX ? UINT_MAX : d;
		}
		work_ns(w, LAT_WORK_NS, &pos);
		atomic_store(&lat->ack[i], seen + 1);
	}
	return NULL;
}

/*
 * sweep-T-D-B runs lib/crew.h's burst_worker; its busy time walks the
 * shared working set, as fit's does
 */
static __thread size_t sweep_pos;

static void sweep_busy(unsigned long long ns)
{
	walk_ns(ns, &sweep_pos);
}

/* Parse "sweep-T-D-B"; 0 when it is one */
static int sweep_parse(const char *name, int *t, int *d, int *b)
{
	char end;

	if (sscanf(name, "sweep-%d-%d-%d%c", t, d, b, &end) != 3)
		return -1;
	if (*t < 1 || *t > CAS_MAX_CPUS || *d < 1 || *d > 100 || *b < 1 || *b > 100)
		return -1;
	return 0;
}

/* ---- measuring a set of crews */

struct run {
	struct crew *c[2];
	int nc;
	long per_llc[CAS_MAX_CPUS], samples;
	long crew_llc[2][CAS_MAX_CPUS];	/* the same, per crew (process) */
	long pref_samples, pref_read;	/* samples with a preferred LLC, of those read */
	unsigned long long oncpu, wait;
	double secs;
};

static int all_threads(struct run *r)
{
	int n = 0;

	for (int k = 0; k < r->nc; k++)
		n += r->c[k]->n;
	return n;
}

/* Sum of the first two schedstat fields of every thread: on-CPU, waiting */
static void schedstat_sum(struct run *r, unsigned long long *oncpu,
			  unsigned long long *wait)
{
	char path[96], buf[128];

	*oncpu = *wait = 0;
	for (int k = 0; k < r->nc; k++)
		for (int i = 0; i < r->c[k]->n; i++) {
			unsigned long long a = 0, b = 0;

			snprintf(path, sizeof(path), "/proc/%d/task/%d/schedstat",
				 r->c[k]->pid, r->c[k]->sh->w[i].tid);
			if (!read_str(path, buf, sizeof(buf)) &&
			    sscanf(buf, "%llu %llu", &a, &b) == 2) {
				*oncpu += a;
				*wait += b;
			}
		}
}

/* Sample placement every SAMPLE_MS for secs, with tracing on */
static void sample(struct run *r, double secs)
{
	unsigned long long t0, oncpu0, wait0, oncpu1, wait1, end;

	memset(r->per_llc, 0, sizeof(r->per_llc));
	memset(r->crew_llc, 0, sizeof(r->crew_llc));
	r->samples = 0;
	r->pref_samples = r->pref_read = 0;
	for (int k = 0; k < r->nc; k++) {
		for (int i = 0; i < r->c[k]->n; i++)
			r->c[k]->sh->w[i].ops = 0;
		atomic_store(&r->c[k]->sh->measuring, 1);
	}
	trace_on(1);
	schedstat_sum(r, &oncpu0, &wait0);
	t0 = now_ns();
	end = t0 + secs * 1e9;
	while (now_ns() < end) {
		int n[CAS_MAX_CPUS] = { 0 };

		for (int k = 0; k < r->nc; k++)
			for (int i = 0; i < r->c[k]->n; i++) {
				int cpu = task_cpu_of(r->c[k]->pid, r->c[k]->sh->w[i].tid, NULL);

				if (cpu >= 0 && cpu < map.ncpus) {
					n[map.llc_of[cpu]]++;
					r->crew_llc[k][map.llc_of[cpu]]++;
				}
			}
		for (int l = 0; l < map.nllc; l++) {
			r->per_llc[l] += n[l];
			r->samples += n[l];
		}
		if (pref_out && has_v2) {
			struct v2_mm m;

			if (!v2_mm_read(r->c[0]->pid, &m)) {
				r->pref_read++;
				r->pref_samples += m.pref >= 0;
			}
		}
		if (occ_out) {
			printf("occ %s %llu", wl, (now_ns() - t0) / 1000000ULL);
			for (int l = 0; l < map.nllc; l++)
				printf(" %d", n[l]);
			printf("\n");
		}
		sleep_ns(SAMPLE_MS * 1000000ULL);
	}
	schedstat_sum(r, &oncpu1, &wait1);
	r->secs = (now_ns() - t0) / 1e9;
	trace_on(0);
	for (int k = 0; k < r->nc; k++)
		atomic_store(&r->c[k]->sh->measuring, 0);
	r->oncpu = oncpu1 - oncpu0;
	r->wait = wait1 - wait0;
}

/* What the trace buffer says about the run's threads and processes */
struct trace_sum {
	long wakeup_moves, lb_moves, out_of_home;
	struct scan_sum scans;
};

static int thread_index(struct run *r, int tid)
{
	int idx = 0;

	for (int k = 0; k < r->nc; k++)
		for (int i = 0; i < r->c[k]->n; i++, idx++)
			if (r->c[k]->sh->w[i].tid == tid)
				return idx;
	return -1;
}

static int trace_lost(void)
{
	FILE *f = fopen(TRACEFS "/trace", "r");
	char line[256];
	long in = 0, written = 0;

	if (!f)
		return 0;
	while (fgets(line, sizeof(line), f) && line[0] == '#')
		if (sscanf(line, "# entries-in-buffer/entries-written: %ld/%ld", &in, &written) == 2)
			break;
	fclose(f);
	return written > in;
}

static void trace_read(struct run *r, int home, struct trace_sum *t)
{
	FILE *f = fopen(TRACEFS "/trace", "r");
	char line[768];
	const char *fl;
	int waking[2 * CAS_MAX_CPUS] = { 0 };

	memset(t, 0, sizeof(*t));
	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		int w;

		if (trace_is_event(line, "sched_cache_scan", &fl)) {
			scan_add(&t->scans, fl);
		} else if (trace_is_event(line, "sched_waking", &fl) ||
			   trace_is_event(line, "sched_wakeup", &fl)) {
			w = thread_index(r, trace_field(fl, "pid", -1));
			if (w >= 0)
				waking[w] = !!strstr(line, "sched_waking:");
		} else if (trace_is_event(line, "sched_migrate_task", &fl)) {
			int from = trace_field(fl, "orig_cpu", -1), to = trace_field(fl, "dest_cpu", -1);

			w = thread_index(r, trace_field(fl, "pid", -1));
			if (w < 0 || from < 0 || to < 0 || from >= map.ncpus ||
			    to >= map.ncpus || map.llc_of[from] == map.llc_of[to])
				continue;
			if (waking[w]) {
				t->wakeup_moves++;
			} else {
				t->lb_moves++;
				t->out_of_home += map.llc_of[from] == home;
			}
		}
	}
	fclose(f);
}

static void events(int on)
{
	trace_event_enable("sched_waking", on);
	trace_event_enable("sched_wakeup", on);
	trace_event_enable("sched_migrate_task", on);
	if (has_v2_events)
		trace_event_enable("sched_cache_scan", on);
}

/* The LLC where crew k's threads were sampled most, and its share */
static int crew_top(struct run *r, int k, double *share)
{
	long all = 0, top = -1;
	int home = 0;

	for (int l = 0; l < map.nllc; l++) {
		all += r->crew_llc[k][l];
		if (r->crew_llc[k][l] > top) {
			top = r->crew_llc[k][l];
			home = l;
		}
	}
	*share = all ? 100.0 * top / all : 0;
	return home;
}

/*
 * Two processes, each in an LLC of its own: over every two different LLCs
 * a and b, the best of the smaller of process 0's share in a and process
 * 1's in b. 100 when each sat in one LLC and the two differ; as low as
 * the smaller share of the two when both sat in the same LLC.
 */
static double apart_share(struct run *r)
{
	long all0 = 0, all1 = 0;
	double best = 0;

	for (int l = 0; l < map.nllc; l++) {
		all0 += r->crew_llc[0][l];
		all1 += r->crew_llc[1][l];
	}
	if (!all0 || !all1)
		return 0;
	for (int a = 0; a < map.nllc; a++)
		for (int b = 0; b < map.nllc; b++) {
			double s0 = 100.0 * r->crew_llc[0][a] / all0;
			double s1 = 100.0 * r->crew_llc[1][b] / all1;
			double s = s0 < s1 ? s0 : s1;

			if (a != b && s > best)
				best = s;
		}
	return best;
}

/* Run the crews (already started) through warm-up and measurement */
static void measure(struct run *r, double secs)
{
	int home = 0, n = all_threads(r), usable = n < map.ncpus ? n : map.ncpus;
	struct v2_mm m0[2], m1[2];
	long top = 0, ops = 0, scans = 0, changes = 0;
	struct trace_sum t;
	int v2 = has_v2;

	sleep_ns(WARMUP_S * 1e9);
	trace_reset();
	events(1);
	for (int k = 0; k < r->nc; k++)
		v2 = v2 && !v2_mm_read(r->c[k]->pid, &m0[k]);
	window(LLC_MARK_START, 0);
	sample(r, secs);
	window(LLC_MARK_END, r->secs);
	for (int k = 0; k < r->nc; k++)
		v2 = v2 && !v2_mm_read(r->c[k]->pid, &m1[k]);
	events(0);
	if (has_v2 && !v2)
		printf("# %s: v2's figures of a process could not be read\n", wl);
	for (int k = 0; v2 && k < r->nc; k++) {
		scans += m1[k].scans - m0[k].scans;
		changes += m1[k].changes - m0[k].changes;
	}
	for (int l = 0; l < map.nllc; l++)
		if (r->per_llc[l] > top) {
			top = r->per_llc[l];
			home = l;
		}
	trace_read(r, home, &t);
	trace_overflowed = trace_lost();
	if (trace_overflowed)
		printf("# %s: the trace buffer overflowed; its counts are invalid\n", wl);
	for (int k = 0; k < r->nc; k++)
		for (int i = 0; i < r->c[k]->n; i++)
			ops += r->c[k]->sh->w[i].ops;

	metric("threads", n);
	metric("top_llc_share_pct", r->samples ? 100.0 * top / r->samples : 0);
	tmetric("llc_migrations_per_s", (t.lb_moves + t.wakeup_moves) / r->secs);
	tmetric("lb_llc_migrations_per_s", t.lb_moves / r->secs);
	tmetric("wakeup_llc_migrations_per_s", t.wakeup_moves / r->secs);
	tmetric("lb_out_of_home_per_s", t.out_of_home / r->secs);
	/* on-CPU time per wall second over the CPUs the threads could use */
	metric("oncpu_pct", 100.0 * r->oncpu / (r->secs * 1e9 * usable));
	metric("runq_wait_pct", 100.0 * r->wait / (r->secs * 1e9 * n));
	/* each thread's own on-CPU share, the same whatever the CPU count */
	metric("thread_oncpu_pct", 100.0 * r->oncpu / (r->secs * 1e9 * n));
	metric("ops_per_s", ops / r->secs);
	/*
	 * pair: each process's own placement, not the two pooled (pooled, two
	 * processes gathered apart read 50%, as two spread ones can): the
	 * smaller of their top-LLC shares, and how far each sits in an LLC of
	 * its own (apart_share())
	 */
	if (r->nc == 2) {
		double s0, s1;

		crew_top(r, 0, &s0);
		crew_top(r, 1, &s1);
		metric("proc_top_llc_share_pct", s0 < s1 ? s0 : s1);
		metric("apart_llc_share_pct", apart_share(r));
	}
	if (v2) {
		metric("pref_llc_changes_per_s", changes / r->secs);
		metric("scans_per_mm_per_s", scans / (r->secs * r->nc));
		if (pref_out && r->pref_read)
			metric("pref_pct", 100.0 * r->pref_samples / r->pref_read);
		if (r->nc == 2) {
			long p0 = m1[0].pref, p1 = m1[1].pref;

			double s;

			metric("distinct_pref_llcs", (p0 >= 0) + (p1 >= 0 && p1 != p0));
			/*
			 * the processes that sat most in the LLC v2 prefers for
			 * them (/proc names an LLC by its first CPU, crew_top()
			 * by its index)
			 */
			metric("pref_is_top_llc",
			       (p0 >= 0 && llc_of_cpu_id(&map, p0) == crew_top(r, 0, &s)) +
			       (p1 >= 0 && llc_of_cpu_id(&map, p1) == crew_top(r, 1, &s)));
		}
	}
	scan_cost(&t.scans, r->secs);
}

static void stop_all(struct run *r)
{
	for (int k = 0; k < r->nc; k++)
		crew_stop(r->c[k]);
}

static int run_crews(int nc, int n, void *(*fn)(void *), void (*setup)(struct crew *),
		     double secs)
{
	struct crew c[2];
	struct run r = { .nc = nc };

	for (int k = 0; k < nc; k++) {
		r.c[k] = &c[k];
		crew_start_fn(&c[k], n, fn, setup);
	}
	measure(&r, secs);
	stop_all(&r);
	return 0;
}

/*
 * Start a crew spread: thread i pinned to LLC i % (number of LLCs) for
 * SPREAD_PIN_NS, while it writes its array (first touch), then free to
 * run anywhere. stream's threads began where fork balancing put them:
 * one to an LLC in some runs (0.13 misses per thousand accesses,
 * llc_misses_per_kacc, under the model on 2x2x4) and two to an LLC in others (23-31), whatever the
 * kernel, so a median compared placement luck. Spread, a kernel that
 * leaves the process alone keeps the one-to-an-LLC placement, and one
 * that gathers it shows the misses of gathering.
 */
#define SPREAD_PIN_NS	500000000ULL

static int spread_crew(struct crew *c)
{
	cpu_set_t s;
	int failed = 0;

	for (int i = 0; i < c->n; i++) {
		CPU_ZERO(&s);
		for (int cpu = 0; cpu < map.ncpus; cpu++)
			if (map.llc_of[cpu] == i % map.nllc)
				CPU_SET(cpu, &s);
		failed += sched_setaffinity(c->sh->w[i].tid, sizeof(s), &s) != 0;
	}
	sleep_ns(SPREAD_PIN_NS);
	all_cpus(&map, &s);
	return failed + crew_pin(c, &s);
}

static int run_spread(int n, void *(*fn)(void *), double secs)
{
	struct crew c;
	struct run r = { .nc = 1, .c = { &c } };

	crew_start_fn(&c, n, fn, NULL);
	if (spread_crew(&c)) {
		stop_all(&r);
		fprintf(stderr, "cas-bench: %s: cannot pin its threads to spread them\n", wl);
		return 2;
	}
	measure(&r, secs);
	stop_all(&r);
	return 0;
}

static int cmp_uint(const void *a, const void *b)
{
	unsigned int x = *(const unsigned int *)a, y = *(const unsigned int *)b;

	return x < y ? -1 : x > y;
}

static int latency(double secs)
{
	struct crew c;
	struct run r = { .nc = 1, .c = { &c } };
	int nw = LAT_MSG * (llc_size(&map, 0) - 1), total = 0;
	unsigned int *all;

	if (nw < LAT_MSG)
		nw = LAT_MSG;
	if (nw + LAT_MSG > CAS_MAX_CPUS)
		nw = CAS_MAX_CPUS - LAT_MSG;
	lat = mmap(NULL, sizeof(*lat), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (lat == MAP_FAILED)
		return 1;
	memset(lat, 0, sizeof(*lat));
	lat_crew = &c;
	crew_start_fn(&c, LAT_MSG + nw, lat_worker, NULL);
	measure(&r, secs);
	crew_stop(&c);
	all = malloc(sizeof(*all) * LAT_CAP * (LAT_MSG + nw));
	if (!all)
		return 1;
	for (int i = LAT_MSG; i < LAT_MSG + nw; i++)
		for (int j = 0; j < lat->n[i]; j++)
			all[total++] = lat->us[i][j];
	if (!total) {
		printf("# latency: no wakeup was measured\n");
		return 1;
	}
	qsort(all, total, sizeof(*all), cmp_uint);
	metric("wakeups", total);
	metric("p50_us", all[total * 50 / 100]);
	metric("p90_us", all[total * 90 / 100]);
	metric("p99_us", all[total * 99 / 100]);
	free(all);
	munmap(lat, sizeof(*lat));
	return 0;
}

/* Tasks are told apart by pid for the migrations' cause; guests stay below */
#define HB_MAX_PID	(1 << 16)

/*
 * hackbench -T -p (threads over pipes, all in one process: 40 threads a
 * group): its own time, cross-LLC moves of every task while it ran (a
 * wakeup's between the task's sched_waking and sched_wakeup, as above), and
 * on v2 the scans of its mm (one process of 40 or 40 x N threads: per-mm
 * scanning keeps that rate the same). Both pass the same messages: 100
 * loops (CAS_HACKBENCH_LOOPS) for each of the @all groups of hackbench-N,
 * so a run of @groups takes 100 * @all / @groups loops. Runs of about the
 * same length compare scan rates: scans back off from one an epoch to one
 * in 8 over a process's first 15 epochs, which weigh more in a short run.
 */
static int hackbench(int groups, int all)
{
	const char *prog = getenv("CAS_HACKBENCH") ? : "/extra/hackbench";
	char g[16], l[16], line[256];
	unsigned long long t0;
	double t = -1, wall;
	long moves = 0, wakeup_moves = 0, scans = 0, pref_samples = 0, changes = 0;
	struct scan_sum scan = { 0 };
	static unsigned char waking[HB_MAX_PID];
	double first_pref = -1, first_scan = -1;
	int fd[2], status, v2 = 0;
	struct v2_watch w;
	pid_t pid;
	FILE *f;

	snprintf(g, sizeof(g), "%d", groups);
	snprintf(l, sizeof(l), "%ld",
		 atol(getenv("CAS_HACKBENCH_LOOPS") ? : "100") * all / groups);
	trace_reset();
	memset(waking, 0, sizeof(waking));
	trace_event_enable("sched_waking", 1);
	trace_event_enable("sched_wakeup", 1);
	trace_event_enable("sched_migrate_task", 1);
	if (has_v2_events)
		trace_event_enable("sched_cache_scan", 1);
	if (pipe(fd))
		return 1;
	trace_on(1);
	window(LLC_MARK_START, 0);
	t0 = now_ns();
	pid = fork();
	if (pid == 0) {
		dup2(fd[1], 1);
		dup2(fd[1], 2);
		close(fd[0]);
		execl(prog, prog, "-T", "-p", "-g", g, "-l", l, (char *)NULL);
		fprintf(stderr, "cannot run %s\n", prog);
		_exit(127);
	}
	close(fd[1]);
	/* its scans, sampled every epoch until it exits (the last ms are lost) */
	if (has_v2)
		v2 = !v2_watch_start(&w, pid, 10);
	f = fdopen(fd[0], "r");
	while (f && fgets(line, sizeof(line), f))
		if (sscanf(line, "Time: %lf", &t) != 1 && strncmp(line, "Running", 7))
			printf("# hackbench: %s", line);
	if (f)
		fclose(f);
	waitpid(pid, &status, 0);
	wall = (now_ns() - t0) / 1e9;
	window(LLC_MARK_END, wall);
	trace_on(0);
	trace_event_enable("sched_waking", 0);
	trace_event_enable("sched_wakeup", 0);
	trace_event_enable("sched_migrate_task", 0);
	if (has_v2_events)
		trace_event_enable("sched_cache_scan", 0);
	if (v2) {
		int n;

		/* it stops at the exit: reading the gone process failed */
		v2_watch_stop(&w);
		n = atomic_load(&w.n);
		for (int i = 0; i < n; i++) {
			pref_samples += w.s[i].pref >= 0;
			if (first_scan < 0 && w.s[i].scans > 0)
				first_scan = w.s[i].t;
			if (first_pref < 0 && w.s[i].pref >= 0)
				first_pref = w.s[i].t;
		}
		if (n) {
			scans = w.s[n - 1].scans;
			changes = w.s[n - 1].changes;
		}
		v2_watch_free(&w);
		if (!n) {
			printf("# %s: v2's figures of hackbench could not be read\n", wl);
			v2 = 0;
		}
	}
	if (!WIFEXITED(status) || WEXITSTATUS(status) || t < 0) {
		printf("# %s: %s -T -p -g %s -l %s failed or printed no time\n", wl, prog, g, l);
		return 1;
	}
	f = fopen(TRACEFS "/trace", "r");
	while (f && fgets(line, sizeof(line), f)) {
		const char *fl;
		long p;
		int from, to;

		if (trace_is_event(line, "sched_cache_scan", &fl)) {
			scan_add(&scan, fl);
			continue;
		}
		if (trace_is_event(line, "sched_waking", &fl) ||
		    trace_is_event(line, "sched_wakeup", &fl)) {
			p = trace_field(fl, "pid", -1);
			if (p >= 0 && p < HB_MAX_PID)
				waking[p] = !!strstr(line, "sched_waking:");
			continue;
		}
		if (!trace_is_event(line, "sched_migrate_task", &fl))
			continue;
		from = trace_field(fl, "orig_cpu", -1);
		to = trace_field(fl, "dest_cpu", -1);
		if (from < 0 || to < 0 || from >= map.ncpus || to >= map.ncpus ||
		    map.llc_of[from] == map.llc_of[to])
			continue;
		moves++;
		p = trace_field(fl, "pid", -1);
		wakeup_moves += p >= 0 && p < HB_MAX_PID && waking[p];
	}
	if (f)
		fclose(f);
	trace_overflowed = trace_lost();
	if (trace_overflowed)
		printf("# %s: the trace buffer overflowed; its counts are invalid\n", wl);
	metric("groups", groups);
	metric("threads", 40 * groups);
	metric("time_s", t);
	tmetric("llc_migrations_per_s", moves / wall);
	tmetric("lb_llc_migrations_per_s", (moves - wakeup_moves) / wall);
	tmetric("wakeup_llc_migrations_per_s", wakeup_moves / wall);
	if (v2) {
		metric("scans_per_mm_per_s", scans / wall);
		metric("pref_llc_changes_per_s", changes / wall);
		/* when the process got a preference (to a sample's 10 ms) */
		printf("# %s: %ld scans, %ld changes, a preferred LLC in %ld samples, "
		       "the first %.0f ms after the first scan\n", wl, scans, changes,
		       pref_samples, first_pref >= 0 && first_scan >= 0 ?
		       (first_pref - first_scan) * 1e3 : -1.0);
	}
	scan_cost(&scan, wall);
	return 0;
}

int main(int argc, char **argv)
{
	double secs = argc > 2 ? atof(argv[2]) : 5.0;
	int n;

	if (argc < 2 || llc_map_read(&map)) {
		fprintf(stderr, "usage: cas-bench fit|ring|saturate|pair|stream|latency|hackbench-1|hackbench-N|sweep-T-D-B"
			" [secs] [occ] (needs sysfs cache info)\n");
		return 2;
	}
	wl = argv[1];
	occ_out = argc > 3 && !strcmp(argv[3], "occ");
	llc_window = atoi(getenv("CAS_LLC_WINDOW") ? : "0") & LLC_MARK_MAX_ID;
	has_v2_events = v2_traced();
	has_v2 = v2_shown();
	setvbuf(stdout, NULL, _IOLBF, 0);
	numa_balancing_off();
	write_str(TRACEFS "/buffer_size_kb", "4096");
	if (!strcmp(wl, "fit"))
		return run_crews(1, fit_threads(), fit_worker, NULL, secs);
	if (!strcmp(wl, "pair"))
		return run_crews(2, fit_threads(), fit_worker, NULL, secs);
	if (!strcmp(wl, "stream")) {
		n = llc_size(&map, 0);
		stream_bytes = 2 * l3_bytes(0) / n;
		if (!stream_bytes) {
			fprintf(stderr, "cas-bench: stream: CPU 0 reports no L3 size\n");
			return 2;
		}
		printf("# stream: %d threads of %zu KiB each, started one to an LLC\n", n,
		       stream_bytes >> 10);
		return run_spread(n, stream_worker, secs);
	}
	if (!strcmp(wl, "saturate")) {
		n = 2 * llc_size(&map, 0);
		return run_crews(1, n < map.ncpus ? n : map.ncpus, always_busy, NULL, secs);
	}
	if (!strcmp(wl, "ring")) {
		struct crew c;
		struct run r = { .nc = 1, .c = { &c } };

		n = llc_size(&map, 0) < 4 ? llc_size(&map, 0) : 4;
		ring_crew = &c;
		crew_start_fn(&c, n < 2 ? 2 : n, ring_worker, ring_setup);
		measure(&r, secs);
		crew_stop(&c);
		return 0;
	}
	if (!strcmp(wl, "latency"))
		return latency(secs);
	{
		int t, d, b;

		if (!sweep_parse(wl, &t, &d, &b)) {
			burst_duty = d / 100.0;
			burst_ns = b * 1000000ULL;
			duty_busy = sweep_busy;
			pref_out = 1;
			return run_crews(1, t, burst_worker, NULL, secs);
		}
	}
	n = map.nllc > 1 ? map.nllc : 2;
	if (!strcmp(wl, "hackbench-1"))
		return hackbench(1, n);
	if (!strcmp(wl, "hackbench-N"))
		return hackbench(n, n);
	fprintf(stderr, "cas-bench: unknown workload '%s'\n", wl);
	return 2;
}
