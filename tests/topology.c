// SPDX-License-Identifier: GPL-2.0
/*
 * topology: the guest sees exactly the NUMA nodes, LLCs, cores and SMT
 * siblings that TOPOLOGY declared, and the scheduler built an LLC-sized MC
 * domain below the NUMA (or package) level.
 */
#include <string.h>
#include <sys/klog.h>
#include <unistd.h>
#include "kselftest_harness.h"
#include "lib/sysfs.h"

static int ncpus(void)
{
	cpu_set_t s;

	return read_cpulist("/sys/devices/system/cpu/online", &s);
}

static int node_of(int cpu)
{
	char path[128];

	for (int n = 0; n < 8; n++) {
		snprintf(path, sizeof(path), "/sys/devices/system/cpu/cpu%d/node%d", cpu, n);
		if (access(path, F_OK) == 0)
			return n;
	}
	return -1;
}

TEST(cpus_and_nodes)
{
	struct cas_topo t;
	cpu_set_t s;
	char path[128];
	int n;

	ASSERT_EQ(0, cas_topology(&t)) TH_LOG("cas.topology= missing from the command line");
	ASSERT_EQ(t.nodes * t.llcs_per_node * t.cores_per_llc * t.threads, ncpus());
	for (n = 0; n < 8; n++) {
		snprintf(path, sizeof(path), "/sys/devices/system/node/node%d/cpulist", n);
		if (read_cpulist(path, &s) < 0)
			break;
		EXPECT_EQ(t.llcs_per_node * t.cores_per_llc * t.threads, CPU_COUNT(&s))
			TH_LOG("node%d", n);
	}
	EXPECT_EQ(t.nodes, n);
}

TEST(llcs)
{
	struct cas_topo t;
	cpu_set_t llc[CAS_MAX_CPUS], s;
	int nllc = 0, per_node[8] = { 0 };

	ASSERT_EQ(0, cas_topology(&t));
	for (int cpu = 0; cpu < ncpus(); cpu++) {
		char path[128];
		int idx = l3_index(cpu), k, node = node_of(cpu);

		ASSERT_LE(0, idx) TH_LOG("cpu%d has no L3 in sysfs", cpu);
		snprintf(path, sizeof(path),
			 "/sys/devices/system/cpu/cpu%d/cache/index%d/shared_cpu_list", cpu, idx);
		ASSERT_LT(0, read_cpulist(path, &s));
		ASSERT_EQ(t.cores_per_llc * t.threads, CPU_COUNT(&s)) TH_LOG("cpu%d L3", cpu);
		for (k = 0; k < nllc; k++)
			if (CPU_EQUAL(&llc[k], &s))
				break;
		if (k < nllc)
			continue;
		/* a new LLC: every CPU of it is on this CPU's node */
		for (int o = 0; o < CAS_MAX_CPUS; o++) {
			if (CPU_ISSET(o, &s)) {
				ASSERT_EQ(node, node_of(o)) TH_LOG("LLC of cpu%d spans nodes", cpu);
			}
		}
		ASSERT_LE(0, node);
		llc[nllc++] = s;
		per_node[node]++;
	}
	ksft_print_msg("%d LLCs of %d CPUs\n", nllc, t.cores_per_llc * t.threads);
	EXPECT_EQ(t.nodes * t.llcs_per_node, nllc);
	for (int n = 0; n < t.nodes; n++) {
		EXPECT_EQ(t.llcs_per_node, per_node[n]) TH_LOG("node%d", n);
	}
}

TEST(smt_siblings)
{
	struct cas_topo t;
	cpu_set_t s;
	char path[128];

	ASSERT_EQ(0, cas_topology(&t));
	for (int cpu = 0; cpu < ncpus(); cpu++) {
		snprintf(path, sizeof(path),
			 "/sys/devices/system/cpu/cpu%d/topology/thread_siblings_list", cpu);
		ASSERT_EQ(t.threads, read_cpulist(path, &s)) TH_LOG("cpu%d", cpu);
	}
}

/*
 * With sched_verbose the kernel logs, per CPU, "domain-K: span=LIST
 * level=NAME". Check the last such report for each CPU: the MC level spans
 * exactly the CPU's LLC, and with several nodes a NUMA level spans more.
 */
TEST(sched_domains)
{
	struct cas_topo t;
	static char log[1 << 20];
	int len, cpu = -1, seen_cpus = 0;
	int mc_ok[CAS_MAX_CPUS] = { 0 }, numa_above[CAS_MAX_CPUS] = { 0 };
	char *line, *save;

	ASSERT_EQ(0, cas_topology(&t));
	len = klogctl(3 /* SYSLOG_ACTION_READ_ALL */, log, sizeof(log) - 1);
	ASSERT_LT(0, len);
	log[len] = '\0';
	for (line = strtok_r(log, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		char *p, lvl[16], span[256], path[128];
		cpu_set_t s, l3;
		int k;

		if ((p = strstr(line, " attaching sched-domain(s):")) && (p = strstr(line, "CPU"))) {
			cpu = atoi(p + 3);
			if (cpu >= 0 && cpu < CAS_MAX_CPUS) {
				mc_ok[cpu] = numa_above[cpu] = 0;
				seen_cpus++;
			}
			continue;
		}
		p = strstr(line, "domain-");
		if (!p || cpu < 0 || cpu >= CAS_MAX_CPUS ||
		    sscanf(p, "domain-%d: span=%255s level=%15s", &k, span, lvl) != 3)
			continue;
		ASSERT_LT(0, parse_cpulist(span, &s));
		if (!strcmp(lvl, "MC")) {
			snprintf(path, sizeof(path),
				 "/sys/devices/system/cpu/cpu%d/cache/index%d/shared_cpu_list",
				 cpu, l3_index(cpu));
			ASSERT_LT(0, read_cpulist(path, &l3));
			mc_ok[cpu] = CPU_EQUAL(&s, &l3);
		} else if (!strcmp(lvl, "NUMA") && mc_ok[cpu]) {
			numa_above[cpu] = CPU_COUNT(&s) > t.cores_per_llc * t.threads;
		}
	}
	ASSERT_LE(ncpus(), seen_cpus) TH_LOG("no sched_verbose domain report (boot option missing?)");
	for (cpu = 0; cpu < ncpus(); cpu++) {
		EXPECT_TRUE(mc_ok[cpu]) TH_LOG("cpu%d: no MC domain spanning its LLC", cpu);
		if (t.nodes > 1) {
			EXPECT_TRUE(numa_above[cpu]) TH_LOG("cpu%d: no NUMA domain above MC", cpu);
		}
	}
}

/* The debugfs view agrees: the MC level shares the LLC, its parent does not. */
TEST(debugfs_llc_flags)
{
	char path[160], name[32], flags[512];

	for (int cpu = 0; cpu < ncpus(); cpu++) {
		int mc = -1, d;

		for (d = 0; d < 8; d++) {
			snprintf(path, sizeof(path), "/sys/kernel/debug/sched/domains/cpu%d/domain%d/name",
				 cpu, d);
			if (read_str(path, name, sizeof(name)))
				break;
			snprintf(path, sizeof(path), "/sys/kernel/debug/sched/domains/cpu%d/domain%d/flags",
				 cpu, d);
			ASSERT_EQ(0, read_str(path, flags, sizeof(flags)));
			if (!strcmp(name, "MC")) {
				mc = d;
				EXPECT_NE(NULL, strstr(flags, "SD_SHARE_LLC")) TH_LOG("cpu%d MC", cpu);
			} else if (mc >= 0) {
				EXPECT_EQ(NULL, strstr(flags, "SD_SHARE_LLC")) TH_LOG("cpu%d %s", cpu, name);
			}
		}
		ASSERT_LE(0, mc) TH_LOG("cpu%d has no MC domain in debugfs", cpu);
	}
}

TEST_HARNESS_MAIN
