/* SPDX-License-Identifier: GPL-2.0 */
/* tracefs and sched debugfs helpers for guest tests. */
#ifndef CAS_TRACE_H
#define CAS_TRACE_H

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include "lib/sysfs.h"

#define TRACEFS "/sys/kernel/tracing"
#define SCHED_DEBUGFS "/sys/kernel/debug/sched"

/* Write a string to a file; 0 or -errno (as write() reported it). */
static inline int write_str(const char *path, const char *val)
{
	int fd = open(path, O_WRONLY | O_TRUNC), ret = 0;

	if (fd < 0)
		return -errno;
	if (write(fd, val, strlen(val)) < 0)
		ret = -errno;
	close(fd);
	return ret;
}

static inline int trace_event_exists(const char *event)
{
	char path[256];

	snprintf(path, sizeof(path), TRACEFS "/events/sched/%s/enable", event);
	return access(path, F_OK) == 0;
}

/*
 * v2's evaluation tracepoints (the series' last, DEBUG patch): optional.
 * The tests observe v2 through /proc (lib/v2stat.h); a test that also
 * checks the tracepoints skips that check on a kernel without them.
 */
static inline int v2_traced(void)
{
	return trace_event_exists("sched_cache_scan");
}

/*
 * Is this kernel v2? The host says what it booted (cas.series, which the
 * guest's /init exports as CAS_SERIES): v2, or v2-nodebug (v2 without its
 * DEBUG patch); a program run by hand, without it, looks for v2's debugfs
 * knobs. So does a bisection stage of make boot-test-each (v2-1..K):
 * there v2 is whatever of it the stage can show, and its tests run once
 * the knobs are in (patch 11).
 */
static inline int kernel_is_v2(void)
{
	const char *s = getenv("CAS_SERIES");

	if (s && (!strcmp(s, "v2") || !strcmp(s, "v2-nodebug")))
		return 1;
	if (s && *s && strcmp(s, "?") && strncmp(s, "v2-", 3))
		return 0;
	return access(SCHED_DEBUGFS "/cache", F_OK) == 0;
}

#define V2_UNSHOWN "a v2 kernel without sched_cache.* in /proc/<pid>/sched " \
	"(series-v2 patch 3): this test observes v2 through them"

static inline int trace_event_enable(const char *event, int on)
{
	char path[256];

	snprintf(path, sizeof(path), TRACEFS "/events/sched/%s/enable", event);
	return write_str(path, on ? "1" : "0");
}

/* Stop tracing and empty the buffer. */
static inline void trace_reset(void)
{
	write_str(TRACEFS "/tracing_on", "0");
	write_str(TRACEFS "/trace", "");
}

static inline void trace_on(int on)
{
	write_str(TRACEFS "/tracing_on", on ? "1" : "0");
}

/*
 * Placement tests pin threads that barely touch memory, so NUMA balancing's
 * preferred node (which v2's scan and steering obey) follows a few page
 * faults and, from run to run, may name the other node than the pinning:
 * then v2 rightly prefers nothing there. That interplay is not what these
 * tests measure; they run with NUMA balancing off (absent: nothing to do).
 */
static inline void numa_balancing_off(void)
{
	write_str("/proc/sys/kernel/numa_balancing", "0");
}

/*
 * Is the feature listed in /sys/kernel/debug/sched/features: 1 on, 0 off
 * ("NO_" before its name), -1 not listed
 */
static inline int sched_feat_state(const char *feat)
{
	char buf[4096], *p;
	size_t len = strlen(feat);
	int on;

	if (read_str(SCHED_DEBUGFS "/features", buf, sizeof(buf)))
		return -1;
	for (p = strtok(buf, " \n"); p; p = strtok(NULL, " \n")) {
		on = strncmp(p, "NO_", 3) != 0;
		if (!on)
			p += 3;
		if (strlen(p) == len && !strncmp(p, feat, len))
			return on;
	}
	return -1;
}

/* Does /sys/kernel/debug/sched/features list this feature (on or off)? */
static inline int sched_feat_exists(const char *feat)
{
	return sched_feat_state(feat) >= 0;
}

static inline int sched_feat_set(const char *feat, int on)
{
	char buf[64];

	snprintf(buf, sizeof(buf), "%s%s", on ? "" : "NO_", feat);
	return write_str(SCHED_DEBUGFS "/features", buf);
}

/* The pid of a trace line: the number after the last '-' before " [". */
static inline int trace_line_pid(const char *line)
{
	const char *br = strstr(line, " [");
	const char *p;

	if (!br)
		return -1;
	for (p = br - 1; p > line && *p != '-'; p--)
		;
	return *p == '-' ? atoi(p + 1) : -1;
}

#endif

#ifndef CAS_TRACE_FIELDS
#define CAS_TRACE_FIELDS
/*
 * Events in the trace buffer: the event name of a line ("sched_cache_scan"
 * for "... sched_cache_scan: tgid=12 ..."), and its key=value fields.
 */
static inline int trace_is_event(const char *line, const char *event, const char **fields)
{
	size_t len = strlen(event);
	const char *p = line;

	while ((p = strstr(p, event))) {
		if ((p == line || p[-1] == ' ') && p[len] == ':' && p[len + 1] == ' ') {
			*fields = p + len + 2;
			return 1;
		}
		p += len;
	}
	return 0;
}

/* The value of "key=" in fields, as a number; dflt if absent. */
static inline long trace_field(const char *fields, const char *key, long dflt)
{
	size_t len = strlen(key);
	const char *p = fields;

	while ((p = strstr(p, key))) {
		if ((p == fields || p[-1] == ' ') && p[len] == '=')
			return strtol(p + len + 1, NULL, 10);
		p += len;
	}
	return dflt;
}

/* The string value of "key=" (up to a space) copied into buf. */
static inline const char *trace_field_str(const char *fields, const char *key,
					  char *buf, size_t size)
{
	size_t len = strlen(key), n = 0;
	const char *p = fields;

	buf[0] = '\0';
	while ((p = strstr(p, key))) {
		if ((p == fields || p[-1] == ' ') && p[len] == '=') {
			p += len + 1;
			while (p[n] && p[n] != ' ' && p[n] != '\n' && n + 1 < size) {
				buf[n] = p[n];
				n++;
			}
			buf[n] = '\0';
			break;
		}
		p += len;
	}
	return buf;
}

/* Call fn(fields, arg) for every line of the trace buffer with this event. */
static inline long trace_each(const char *event,
			      void (*fn)(const char *fields, void *arg), void *arg)
{
	FILE *f = fopen(TRACEFS "/trace", "r");
	char line[768];
	const char *fields;
	long n = 0;

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f)) {
		if (trace_is_event(line, event, &fields)) {
			n++;
			if (fn)
				fn(fields, arg);
		}
	}
	fclose(f);
	return n;
}

/* "  comm-pid  [cpu] flags  12.345678: event: ..." -> 12.345678 */
static inline double trace_time(const char *line)
{
	const char *p = strstr(line, "] ");

	if (!p)
		return -1;
	for (p += 2; *p == ' '; p++)
		;
	while (*p && *p != ' ')		/* the flags */
		p++;
	return strtod(p, NULL);
}

#endif
