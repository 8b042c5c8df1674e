/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Guest workload helpers: LLC map from sysfs, threads that are busy part
 * of the time and record which LLC each of their runs landed on.
 */
#ifndef CAS_WORKLOAD_H
#define CAS_WORKLOAD_H

#include <pthread.h>
#include <stdatomic.h>
#include <time.h>
#include <unistd.h>
#include <sys/syscall.h>
#include "lib/sysfs.h"

struct llc_map {
	int ncpus, nllc;
	int llc_of[CAS_MAX_CPUS];	/* index 0..nllc-1 */
	int first_cpu[CAS_MAX_CPUS];	/* the kernel's sd_llc_id of each LLC */
};

static inline int llc_map_read(struct llc_map *m)
{
	cpu_set_t online, s;
	char path[160];

	m->nllc = 0;
	m->ncpus = read_cpulist("/sys/devices/system/cpu/online", &online);
	if (m->ncpus <= 0)
		return -1;
	for (int cpu = 0; cpu < m->ncpus; cpu++) {
		int idx, first = -1, k;

		for (idx = 0; idx < 8; idx++) {
			snprintf(path, sizeof(path),
				 "/sys/devices/system/cpu/cpu%d/cache/index%d/level", cpu, idx);
			if (read_long(path, -1) == 3)
				break;
		}
		snprintf(path, sizeof(path),
			 "/sys/devices/system/cpu/cpu%d/cache/index%d/shared_cpu_list", cpu, idx);
		if (idx == 8 || read_cpulist(path, &s) <= 0)
			return -1;
		for (int c = 0; c < CAS_MAX_CPUS; c++)
			if (CPU_ISSET(c, &s)) {
				first = c;
				break;
			}
		for (k = 0; k < m->nllc; k++)
			if (m->first_cpu[k] == first)
				break;
		if (k == m->nllc)
			m->first_cpu[m->nllc++] = first;
		m->llc_of[cpu] = k;
	}
	return 0;
}

/* LLC index of the kernel's LLC id (first CPU of the LLC), or -1. */
static inline int llc_index(const struct llc_map *m, int llc_id)
{
	for (int k = 0; k < m->nllc; k++)
		if (m->first_cpu[k] == llc_id)
			return k;
	return -1;
}

static inline unsigned long long now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000ULL + ts.tv_nsec;
}

static inline void spin_ns(unsigned long long ns)
{
	unsigned long long end = now_ns() + ns;

	while (now_ns() < end)
		;
}

static inline void sleep_ns(unsigned long long ns)
{
	struct timespec ts = { ns / 1000000000ULL, ns % 1000000000ULL };

	nanosleep(&ts, NULL);
}

static inline unsigned long long thread_cpu_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return ts.tv_sec * 1000000000ULL + ts.tv_nsec;
}

/*
 * Keep the calling thread on-CPU for a fraction 'duty' of the time since
 * (wall0, cpu0): spin in short bursts while behind, sleep while ahead.
 * Under TCG a burst of wall-clock spinning can last several times longer
 * than asked (the vCPU waits its turn while the guest clock runs on), so a
 * fixed busy/sleep pattern drifts; this feedback keeps the long-run share
 * at 'duty' whatever the burst length turns out to be.
 */
static inline void duty_step(double duty, unsigned long long wall0,
			     unsigned long long cpu0)
{
	double wall = now_ns() - wall0, cpu = thread_cpu_ns() - cpu0;

	if (cpu < duty * wall)
		spin_ns(500000ULL);
	else
		sleep_ns(2000000ULL);
}

/*
 * A worker is busy for busy_ns, sleeps for sleep_ns, and after each wakeup
 * notes its LLC while 'measuring' is set.
 */
struct worker {
	pthread_t thread;
	pid_t tid;
	unsigned long long busy_ns, sleep_ns;
	const struct llc_map *map;
	atomic_int *measuring, *stop;
	long samples[CAS_MAX_CPUS];	/* microseconds spent in each LLC */
	long changes;
	long ops;		/* units of work done (benchmarks) */
	int last_llc;
	unsigned long long last_ns;
};

/*
 * Note the LLC the worker runs in now. While 'measuring', the time since
 * the previous note is counted (in microseconds) for the LLC the worker
 * was in then: it ran or slept there until now. Samples are time, not
 * notes: a worker that notes once per short spin would otherwise weigh a
 * catch-up burst on an idle CPU (after waiting its turn elsewhere) many
 * times more than the same time spent mostly asleep.
 */
static inline void worker_note(struct worker *w)
{
	int cpu = sched_getcpu();
	int llc = (cpu >= 0 && cpu < w->map->ncpus) ? w->map->llc_of[cpu] : -1;
	unsigned long long now = now_ns();

	if (atomic_load(w->measuring) && llc >= 0) {
		if (w->last_llc >= 0 && w->last_ns)
			w->samples[w->last_llc] += (now - w->last_ns) / 1000;
		if (w->last_llc >= 0 && llc != w->last_llc)
			w->changes++;
		w->last_ns = now;
	} else {
		w->last_ns = 0;
	}
	w->last_llc = llc;
}

static inline void *worker_main(void *arg)
{
	struct worker *w = arg;

	w->tid = syscall(SYS_gettid);
	w->last_llc = -1;
	while (!atomic_load(w->stop)) {
		worker_note(w);
		spin_ns(w->busy_ns);
		sleep_ns(w->sleep_ns);
	}
	return NULL;
}

/* Does some NUMA node hold more than one LLC? (else v2 stays inert) */
static inline int multi_llc_node(const struct llc_map *m)
{
	char path[128];
	cpu_set_t s;

	for (int n = 0; n < 8; n++) {
		int seen[CAS_MAX_CPUS] = { 0 }, nl = 0;

		snprintf(path, sizeof(path), "/sys/devices/system/node/node%d/cpulist", n);
		if (read_cpulist(path, &s) < 0)
			break;
		for (int c = 0; c < m->ncpus; c++)
			if (CPU_ISSET(c, &s) && !seen[m->llc_of[c]]++)
				nl++;
		if (nl > 1)
			return 1;
	}
	return 0;
}

/* Every CPU of the guest: a crew released from its pinning */
static inline void all_cpus(const struct llc_map *m, cpu_set_t *s)
{
	CPU_ZERO(s);
	for (int i = 0; i < m->ncpus; i++)
		CPU_SET(i, s);
}

/* Number of CPUs in LLC k */
static inline int llc_size(const struct llc_map *m, int k)
{
	int n = 0;

	for (int c = 0; c < m->ncpus; c++)
		n += m->llc_of[c] == k;
	return n;
}

/* Placement figures over a set of workers. */
struct placement {
	long total, top;
	int top_llc;
	double share_pct, changes_per_s;
};

static inline void placement_of(struct worker *w, int n, int nllc, double secs,
				struct placement *p)
{
	long per_llc[CAS_MAX_CPUS] = { 0 }, changes = 0;

	p->total = p->top = 0;
	p->top_llc = -1;
	for (int i = 0; i < n; i++) {
		for (int k = 0; k < nllc; k++) {
			per_llc[k] += w[i].samples[k];
			p->total += w[i].samples[k];
		}
		changes += w[i].changes;
	}
	for (int k = 0; k < nllc; k++)
		if (per_llc[k] > p->top) {
			p->top = per_llc[k];
			p->top_llc = k;
		}
	p->share_pct = p->total ? 100.0 * p->top / p->total : 0;
	p->changes_per_s = secs > 0 ? changes / secs : 0;
}

#endif
