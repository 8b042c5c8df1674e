/* SPDX-License-Identifier: GPL-2.0 */
/* Small helpers for guest tests: read sysfs/debugfs files, CPU lists. */
#ifndef CAS_SYSFS_H
#define CAS_SYSFS_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sched.h>

#define CAS_MAX_CPUS 64

/* Read a whole small file into buf, trailing newline stripped; -1 if absent. */
static inline int read_str(const char *path, char *buf, size_t len)
{
	FILE *f = fopen(path, "r");
	size_t n;

	if (!f)
		return -1;
	n = fread(buf, 1, len - 1, f);
	fclose(f);
	buf[n] = '\0';
	while (n && (buf[n - 1] == '\n' || buf[n - 1] == ' '))
		buf[--n] = '\0';
	return 0;
}

static inline long read_long(const char *path, long dflt)
{
	char buf[64];

	if (read_str(path, buf, sizeof(buf)))
		return dflt;
	return strtol(buf, NULL, 0);
}

/* Parse "0-3,8,10-11" into a cpu_set_t; returns the count or -1. */
static inline int parse_cpulist(const char *s, cpu_set_t *set)
{
	CPU_ZERO(set);
	while (*s) {
		char *end;
		long a = strtol(s, &end, 10), b = a;

		if (end == s)
			return -1;
		if (*end == '-') {
			s = end + 1;
			b = strtol(s, &end, 10);
			if (end == s || b < a)
				return -1;
		}
		for (long i = a; i <= b && i < CAS_MAX_CPUS; i++)
			CPU_SET(i, set);
		s = end;
		if (*s == ',')
			s++;
		else if (*s)
			return -1;
	}
	return CPU_COUNT(set);
}

static inline int read_cpulist(const char *path, cpu_set_t *set)
{
	char buf[512];

	if (read_str(path, buf, sizeof(buf)))
		return -1;
	return parse_cpulist(buf, set);
}

/* The sysfs cache index of @cpu whose level is 3 (its L3), or -1. */
static inline int l3_index(int cpu)
{
	char path[128];

	for (int i = 0; i < 8; i++) {
		snprintf(path, sizeof(path),
			 "/sys/devices/system/cpu/cpu%d/cache/index%d/level", cpu, i);
		if (read_long(path, -1) == 3)
			return i;
	}
	return -1;
}

/* The size of @cpu's L3 in bytes, 0 if it reports none */
static inline size_t l3_bytes(int cpu)
{
	char path[128], buf[32];
	int i = l3_index(cpu);

	snprintf(path, sizeof(path), "/sys/devices/system/cpu/cpu%d/cache/index%d/size", cpu, i);
	if (i < 0 || read_str(path, buf, sizeof(buf)))
		return 0;
	return strtoul(buf, NULL, 10) * 1024;	/* "16384K" */
}

/* TOPOLOGY=NxLxC[xT] as passed on the kernel command line. */
struct cas_topo {
	int nodes, llcs_per_node, cores_per_llc, threads;
};

static inline int cas_topology(struct cas_topo *t)
{
	const char *s = getenv("CAS_TOPOLOGY");

	t->threads = 1;
	if (!s || sscanf(s, "%dx%dx%dx%d", &t->nodes, &t->llcs_per_node,
			 &t->cores_per_llc, &t->threads) < 3)
		return -1;
	return 0;
}

#endif
