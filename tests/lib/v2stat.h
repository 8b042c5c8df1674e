/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What v2 shows of a process without tracing (series-v2 patches 3 and 8):
 * /proc/<pid>/sched has the process's preferred LLC and its scan counts,
 *
 *   sched_cache.preferred_llc            the LLC's id (its first CPU), -1
 *   sched_cache.nr_scans                 scans so far
 *   sched_cache.nr_preferred_llc_changes those that changed the preference
 *
 * and, with schedstats on, each task's steered wakeups
 * (nr_wakeups_cache_attempts, nr_wakeups_cache). The tests observe v2
 * through these; the DEBUG patch's tracepoints are optional extras.
 *
 * A watch samples one process's figures every few milliseconds in a
 * thread of the test, so a test can ask afterwards what the preference
 * was in a window of time and how many scans ran in it.
 */
#ifndef CAS_V2STAT_H
#define CAS_V2STAT_H

#include <dirent.h>
#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "lib/workload.h"
#include "lib/trace.h"

/* A number of a /proc .../sched file ("name   :   value"), or @def */
static inline long proc_sched_value(const char *path, const char *name, long def)
{
	size_t len = strlen(name);
	char line[256];
	long v = def;
	FILE *f;

	f = fopen(path, "r");
	if (!f)
		return def;
	while (fgets(line, sizeof(line), f)) {
		char *p = line + len;

		if (strncmp(line, name, len) || (*p != ' ' && *p != ':'))
			continue;
		p = strchr(p, ':');
		if (p)
			v = strtol(p + 1, NULL, 10);
		break;
	}
	fclose(f);
	return v;
}

struct v2_mm {
	long pref;		/* the preferred LLC's id, -1 none */
	long scans, changes;
};

/*
 * The process's figures, from one read of its /proc/<pid>/sched: 0, or
 * -1 when the kernel shows none (not v2)
 */
static inline int v2_mm_read(pid_t pid, struct v2_mm *m)
{
	static const char * const key[3] = { "sched_cache.preferred_llc",
		"sched_cache.nr_scans", "sched_cache.nr_preferred_llc_changes" };
	long *val[3] = { &m->pref, &m->scans, &m->changes };
	int found = 0;
	char path[64], line[256];
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/sched", pid);
	f = fopen(path, "r");
	if (!f)
		return -1;
	while (found < 3 && fgets(line, sizeof(line), f)) {
		for (int i = 0; i < 3; i++) {
			size_t len = strlen(key[i]);
			char *p = line + len;

			if (strncmp(line, key[i], len) || (*p != ' ' && *p != ':'))
				continue;
			p = strchr(p, ':');
			if (!p)
				break;
			*val[i] = strtol(p + 1, NULL, 10);
			found++;
			break;
		}
	}
	fclose(f);
	return found == 3 && m->pref >= -1 && m->scans >= 0 && m->changes >= 0 ? 0 : -1;
}

/* Does this kernel show v2's per-process figures? */
static inline int v2_shown(void)
{
	struct v2_mm m;

	return v2_mm_read(getpid(), &m) == 0;
}

#define SCHEDSTATS "/proc/sys/kernel/sched_schedstats"
/* v2's tunables (patch 11) */
#define KNOBS "/sys/kernel/debug/sched/cache/"

/*
 * Switch schedstats on (the wakeup counters need them): the setting
 * before (0 or 1, for schedstats_restore()), or -errno
 */
static inline long schedstats_on(void)
{
	long old = read_long(SCHEDSTATS, -1);
	int ret;

	if (old < 0)
		return -ENOENT;
	ret = write_str(SCHEDSTATS, "1");
	return ret ? ret : old;
}

static inline void schedstats_restore(long old)
{
	if (old == 0)
		write_str(SCHEDSTATS, "0");
}

/* A schedstat of one task (/proc/<pid>/task/<tid>/sched), or -1 */
static inline long task_sched_value(pid_t pid, pid_t tid, const char *name)
{
	char path[96];

	snprintf(path, sizeof(path), "/proc/%d/task/%d/sched", pid, tid);
	return proc_sched_value(path, name, -1);
}

/* The sum of a schedstat over a process's live threads, or -1 if none shows it */
static inline long proc_threads_sum(pid_t pid, const char *name)
{
	char path[64];
	struct dirent *d;
	long sum = -1;
	DIR *dir;

	snprintf(path, sizeof(path), "/proc/%d/task", pid);
	dir = opendir(path);
	if (!dir)
		return -1;
	while ((d = readdir(dir))) {
		long v;

		if (d->d_name[0] == '.')
			continue;
		v = task_sched_value(pid, atoi(d->d_name), name);
		if (v >= 0)
			sum = (sum < 0 ? 0 : sum) + v;
	}
	closedir(dir);
	return sum;
}

/* The steering counters of a process's live threads */
struct v2_steer {
	long attempts, steered;
};

static inline void v2_steer_read(pid_t pid, struct v2_steer *s)
{
	s->attempts = proc_threads_sum(pid, "nr_wakeups_cache_attempts");
	s->steered = proc_threads_sum(pid, "nr_wakeups_cache");
}

#define V2_WATCH_MAX	65536

struct v2_sample {
	double t;		/* now_ns() in seconds */
	long pref, scans, changes;
};

struct v2_watch {
	pthread_t thread;
	pid_t pid;
	unsigned long long period_ns;
	atomic_int stop, n;
	int overflow, failed;
	struct v2_sample *s;
};

static inline void *v2_watch_main(void *arg)
{
	struct v2_watch *w = arg;

	while (!atomic_load(&w->stop)) {
		int n = atomic_load(&w->n);
		struct v2_mm m;

		if (n == V2_WATCH_MAX) {
			w->overflow = 1;
			break;
		}
		/* stamped before the read: no figure is newer than its time */
		double t = now_ns() / 1e9;

		if (v2_mm_read(w->pid, &m)) {
			w->failed = 1;
			break;
		}
		w->s[n] = (struct v2_sample){ t, m.pref, m.scans, m.changes };
		atomic_store(&w->n, n + 1);
		sleep_ns(w->period_ns);
	}
	return NULL;
}

/* Sample process @pid every @period_ms until v2_watch_stop(); 0 or -1 */
static inline int v2_watch_start(struct v2_watch *w, pid_t pid, unsigned int period_ms)
{
	memset(w, 0, sizeof(*w));
	w->pid = pid;
	w->period_ns = period_ms * 1000000ULL;
	w->s = calloc(V2_WATCH_MAX, sizeof(*w->s));
	if (!w->s)
		return -1;
	if (pthread_create(&w->thread, NULL, v2_watch_main, w)) {
		free(w->s);
		w->s = NULL;
		return -1;
	}
	return 0;
}

/*
 * Stop sampling (the samples stay for v2_span()); 0, or -1 if the
 * samples stopped early (the process's figures could not be read, or the
 * sample buffer filled up)
 */
static inline int v2_watch_stop(struct v2_watch *w)
{
	if (!w->s)
		return -1;
	atomic_store(&w->stop, 1);
	pthread_join(w->thread, NULL);
	return w->overflow || w->failed ? -1 : 0;
}

static inline void v2_watch_free(struct v2_watch *w)
{
	free(w->s);
	w->s = NULL;
}

/*
 * The watched process's figures over [t0, t1) (seconds of now_ns()): the
 * samples taken in it, and the kernel's counts between its first sample
 * and its last (what ran before the first sample is not counted)
 */
struct v2_span {
	long samples;
	long scans, changes;
	long last_pref;		/* the last sample's preferred LLC id; -2 no sample */
	long per_llc[CAS_MAX_CPUS];	/* samples preferring each LLC (index) */
	long none;		/* samples preferring none */
	double first_want;	/* the first sample preferring LLC @want, -1 none */
	long scans_to_want;	/* scans from t0 to that sample */
	char chg[160];		/* the preference's changes seen, " old->new" */
};

/* The LLC index of an LLC id, whichever CPU of the LLC names it; -1 none */
static inline int llc_of_cpu_id(const struct llc_map *m, long id)
{
	return id >= 0 && id < m->ncpus ? m->llc_of[id] : -1;
}

static inline void v2_span(const struct v2_watch *w, const struct llc_map *m,
			   double t0, double t1, int want, struct v2_span *sp)
{
	int n = atomic_load(&((struct v2_watch *)w)->n);
	const struct v2_sample *base = NULL, *prev = NULL;

	memset(sp, 0, sizeof(*sp));
	sp->last_pref = -2;
	sp->first_want = -1;
	for (int i = 0; i < n; i++) {
		const struct v2_sample *s = &w->s[i];
		int k = llc_of_cpu_id(m, s->pref);

		if (s->t < t0)
			continue;
		if (s->t >= t1)
			break;
		if (!base)
			base = s;
		sp->samples++;
		sp->scans = s->scans - base->scans;
		sp->changes = s->changes - base->changes;
		sp->last_pref = s->pref;
		if (k >= 0)
			sp->per_llc[k]++;
		else
			sp->none++;
		if (sp->first_want < 0 && want >= 0 && k == want) {
			sp->first_want = s->t;
			sp->scans_to_want = sp->scans;
		}
		if (prev && prev->pref != s->pref) {
			size_t len = strlen(sp->chg);

			snprintf(sp->chg + len, sizeof(sp->chg) - len, " %ld->%ld",
				 prev->pref, s->pref);
		}
		prev = s;
	}
}

/*
 * The preference's last samples before @t1, one character each (the LLC
 * index, '-' for none), for a failure's diagnosis
 */
static inline void v2_timeline(const struct v2_watch *w, const struct llc_map *m,
			       double t0, double t1, char *buf, size_t len)
{
	int n = atomic_load(&((struct v2_watch *)w)->n);
	long in = 0, skip;
	size_t o = 0;

	for (int i = 0; i < n; i++)
		in += w->s[i].t >= t0 && w->s[i].t < t1;
	skip = in > (long)len - 1 ? in - ((long)len - 1) : 0;
	for (int i = 0; i < n && o + 1 < len; i++) {
		int k;

		if (w->s[i].t < t0 || w->s[i].t >= t1 || skip-- > 0)
			continue;
		k = llc_of_cpu_id(m, w->s[i].pref);
		buf[o++] = k < 0 ? '-' : k < 10 ? '0' + k : 'a' + k - 10;
	}
	buf[o] = '\0';
}

#endif
