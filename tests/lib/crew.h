/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Crews: a forked child process whose threads are workers (lib/workload.h's
 * placement records, kept in shared memory so that the parent reads them),
 * for the balancer tests (balance.c) and the kernel comparisons (bench/).
 * The including file fills 'map' (llc_map_read()) before starting one.
 */
#ifndef CAS_CREW_H
#define CAS_CREW_H

#include <sched.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include "lib/workload.h"

/*
 * The fit workload: 3 threads (2 where an LLC has fewer than 4 CPUs), each
 * on-CPU FIT_DUTY of the time, held there by feedback on its own CPU time
 * (duty_step()): under TCG a fixed busy/sleep pattern is charged two or
 * three times its nominal runtime, which made the "small" process look
 * like an over-aggregated LLC's worth to the kernel in some runs and not
 * in others.
 */
#define FIT_DUTY	0.15
#define FIT_SLEEP_NS	8000000ULL
/*
 * At most this much spinning between two sleeps. Without a cap, a thread
 * that had waited its turn made up for it in one long burst (100 ms and
 * more under TCG), PELT then rated it a whole CPU (util_est near 1024),
 * and two such "light" threads filled a 2-CPU LLC in the kernel's eyes,
 * so that it rightly let them spill out. Capped, the long-run duty stays
 * at most 2 / (2 + 8) = 20% whatever the waits.
 */
#define FIT_BURST_NS	2000000ULL

static struct llc_map map;

struct crew_shm {
	struct worker w[CAS_MAX_CPUS];
	atomic_int measuring, stop, ready;
};

struct crew {
	struct crew_shm *sh;
	pid_t pid;
	int n;
};

/*
 * What a duty worker's busy time does (ns of it): spin, unless the crew's
 * setup (in the child) sets another, e.g. one that touches memory.
 */
static void (*duty_busy)(unsigned long long ns) = spin_ns;

/* A worker (lib/workload.h's record keeping) on-CPU FIT_DUTY of the time */
static void *duty_worker(void *arg)
{
	struct worker *w = arg;
	unsigned long long wall0 = now_ns(), cpu0 = thread_cpu_ns(), burst = 0;

	w->tid = syscall(SYS_gettid);
	w->last_llc = -1;
	while (!atomic_load(w->stop)) {
		worker_note(w);
		/* like duty_step(), with longer sleeps: each TCG wakeup costs */
		if (burst < FIT_BURST_NS &&
		    thread_cpu_ns() - cpu0 < FIT_DUTY * (now_ns() - wall0)) {
			duty_busy(500000ULL);
			burst += 500000ULL;
		} else {
			sleep_ns(FIT_SLEEP_NS);
			burst = 0;
		}
	}
	return NULL;
}

/*
 * A burst worker: bursts of burst_ns of its own CPU time (duty_busy()
 * steps of a quarter millisecond), then a sleep until its CPU time is
 * burst_duty of the wall time since it began, at least BURST_MIN_SLEEP_NS.
 * Under TCG a sleep and its wakeup are charged about a millisecond of CPU
 * time, and a fixed work/sleep pattern runs well above its nominal share
 * (2 ms / 1 ms: about 80%, not 67%). A thread that waited for its CPU
 * makes up with shorter sleeps, not longer bursts: the burst length stays.
 * burst_duty 1 never sleeps. The load sweep's cells (make sweep) and the
 * test of its worst cell (balance.c) run it.
 */
#define BURST_MIN_SLEEP_NS	100000ULL
#define BURST_STEP_NS		250000ULL

static double burst_duty = 0.5;
static unsigned long long burst_ns = 2000000ULL;

static inline void *burst_worker(void *arg)
{
	struct worker *w = arg;
	unsigned long long wall0 = now_ns(), cpu0 = thread_cpu_ns();

	w->tid = syscall(SYS_gettid);
	w->last_llc = -1;
	while (!atomic_load(w->stop)) {
		unsigned long long c = thread_cpu_ns(), due;

		worker_note(w);
		while (thread_cpu_ns() - c < burst_ns && !atomic_load(w->stop)) {
			duty_busy(BURST_STEP_NS);
			w->ops++;
		}
		if (burst_duty >= 1.0)
			continue;
		due = wall0 + (thread_cpu_ns() - cpu0) / burst_duty;
		c = now_ns();
		sleep_ns(due > c + BURST_MIN_SLEEP_NS ? due - c : BURST_MIN_SLEEP_NS);
	}
	return NULL;
}

static void *always_busy(void *arg)
{
	struct worker *w = arg;

	w->tid = syscall(SYS_gettid);
	while (!atomic_load(w->stop)) {
		spin_ns(1000000ULL);
		w->ops++;
	}
	return NULL;
}

enum crew_kind { FIT, BUSY };

/*
 * Fork a process of n workers running fn (its argument: the worker's record
 * in c->sh->w); its main thread is worker 0. setup, if any, runs in the
 * child before the threads start.
 */
static inline void crew_start_fn(struct crew *c, int n, void *(*fn)(void *),
				 void (*setup)(struct crew *c))
{
	c->n = n;
	c->sh = mmap(NULL, sizeof(*c->sh), PROT_READ | PROT_WRITE,
		     MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (c->sh == MAP_FAILED)
		exit(1);
	memset(c->sh, 0, sizeof(*c->sh));
	for (int i = 0; i < n; i++)
		c->sh->w[i] = (struct worker){ .map = &map, .measuring = &c->sh->measuring,
					       .stop = &c->sh->stop };
	c->pid = fork();
	if (c->pid == 0) {
		pthread_t t[CAS_MAX_CPUS];

		/* never outlive a test killed by its time limit */
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		if (setup)
			setup(c);
		for (int i = 1; i < n; i++)
			pthread_create(&t[i], NULL, fn, &c->sh->w[i]);
		atomic_store(&c->sh->ready, 1);
		fn(&c->sh->w[0]);
		for (int i = 1; i < n; i++)
			pthread_join(t[i], NULL);
		_exit(0);
	}
	while (!atomic_load(&c->sh->ready))
		sleep_ns(1000000ULL);
	/* tids are written by the threads themselves */
	for (int i = 0; i < n; i++)
		while (!c->sh->w[i].tid)
			sleep_ns(1000000ULL);
}

/* Fork a process of n workers of a kind; its main thread is worker 0 */
static inline void crew_start(struct crew *c, int n, enum crew_kind kind)
{
	crew_start_fn(c, n, kind == FIT ? duty_worker : always_busy, NULL);
}

static inline void crew_stop(struct crew *c)
{
	atomic_store(&c->sh->stop, 1);
	waitpid(c->pid, NULL, 0);
	munmap(c->sh, sizeof(*c->sh));
}

/* The crew's total on-CPU time so far (ns), from schedstat */
static inline unsigned long long crew_oncpu_ns(struct crew *c)
{
	unsigned long long sum = 0;
	char path[96];

	for (int i = 0; i < c->n; i++) {
		snprintf(path, sizeof(path), "/proc/%d/task/%d/schedstat", c->pid, c->sh->w[i].tid);
		sum += read_long(path, 0);
	}
	return sum;
}

/*
 * The threads' mean PELT utilisation (se.avg.util_avg in /proc/.../sched,
 * 0..1024), -1 where the kernel does not show it: what the kernel's
 * over-aggregation limits see of the crew.
 */
static inline long crew_util(struct crew *c)
{
	char path[96], line[256];
	long sum = 0, n = 0, v;

	for (int i = 0; i < c->n; i++) {
		FILE *f;

		snprintf(path, sizeof(path), "/proc/%d/task/%d/sched", c->pid, c->sh->w[i].tid);
		f = fopen(path, "r");
		if (!f)
			continue;
		while (fgets(line, sizeof(line), f))
			if (sscanf(line, "se.avg.util_avg : %ld", &v) == 1) {
				sum += v;
				n++;
			}
		fclose(f);
	}
	return n ? sum / n : -1;
}

/* Sample placement for secs; returns the threads' mean on-CPU share (%) */
static inline double crew_measure(struct crew *c, double secs, struct placement *pl)
{
	unsigned long long t0 = now_ns(), cpu0 = crew_oncpu_ns(c);

	atomic_store(&c->sh->measuring, 1);
	sleep_ns(secs * 1e9);
	atomic_store(&c->sh->measuring, 0);
	placement_of(c->sh->w, c->n, map.nllc, secs, pl);
	return 100.0 * (crew_oncpu_ns(c) - cpu0) / ((double)(now_ns() - t0) * c->n);
}

/*
 * The CPU a thread of process pid last ran on (field 39 of its /proc stat),
 * -1 if unknown; *runnable (if not NULL): whether it is runnable now.
 */
static inline int task_cpu_of(pid_t pid, pid_t tid, int *runnable)
{
	char path[96], buf[1024], *p;

	snprintf(path, sizeof(path), "/proc/%d/task/%d/stat", pid, tid);
	if (read_str(path, buf, sizeof(buf)) < 0)
		return -1;
	p = strrchr(buf, ')');
	if (!p)
		return -1;
	if (runnable)
		*runnable = p[2] == 'R';
	/* field 39 is the CPU; p points at field 2's end */
	for (int f = 2; f < 39 && p; f++)
		p = strchr(p + 1, ' ');
	return p ? atoi(p + 1) : -1;
}

/* Returns how many threads could not be given the mask (0: all were) */
static inline int crew_pin(struct crew *c, const cpu_set_t *s)
{
	int failed = 0;

	for (int i = 0; i < c->n; i++)
		failed += sched_setaffinity(c->sh->w[i].tid, sizeof(*s), s) != 0;
	return failed;
}

static inline int fit_threads(void)
{
	return llc_size(&map, 0) < 4 ? 2 : 3;
}

static inline void llc_mask(int k, cpu_set_t *s)
{
	CPU_ZERO(s);
	for (int c = 0; c < map.ncpus; c++)
		if (map.llc_of[c] == k)
			CPU_SET(c, s);
}

#endif
