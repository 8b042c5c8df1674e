// SPDX-License-Identifier: GPL-2.0
/*
 * model: the cache model's self-test (qemu/plugins/llc.c, make MODEL=llc).
 *
 * Each case runs a workload whose cache traffic is known, inside a
 * measurement window (qemu/plugins/llc-mark.h), and declares what the
 * model must have counted in it:
 *
 *   # llc-expect WINDOW CASE SPACE METRIC MIN MAX
 *
 * METRIC (a column of llc.tsv) summed over every LLC, of the accesses to
 * user addresses (SPACE user: the workload's own, which the case can
 * predict) or of all; MAX -1 for no bound. Only the host sees
 * the counts (BUILD/logs/.../llc.tsv), so the host judges them
 * (qemu/model-judge.sh, from qemu/verdict.sh); the guest also prints
 * each CPU's L3 as it sees it ("# llc-geometry"), which the host compares
 * with the model's geometry and vCPU map. Without the model (no
 * cas.model=llc) the program runs the same workloads, so that a boot
 * without the plugin does the same work (the slowdown's baseline), and
 * skips.
 */
#include <linux/futex.h>
#include <pthread.h>
#include <stdint.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include "kselftest_harness.h"
#include "lib/sysfs.h"
#include "../qemu/plugins/llc-mark.h"

enum { W_APART = 1, W_TOGETHER, W_STREAM_TWICE, W_STREAM_HALF };

#define HANDOFFS	2000
#define PASSES		3

static int modeled(void)
{
	char cmd[2048];

	return !read_str("/proc/cmdline", cmd, sizeof(cmd)) && strstr(cmd, "cas.model=llc");
}

static void expect(int win, const char *name, const char *metric, long min, long max)
{
	printf("# llc-expect %d %s user %s %ld %ld\n", win, name, metric, min, max);
	fflush(stdout);
}

static int l3_attr(int cpu, const char *name, char *buf, size_t len);

static int l3_cpus(int cpu, cpu_set_t *set)
{
	char list[256];

	if (l3_attr(cpu, "shared_cpu_list", list, sizeof(list)))
		return -1;
	return parse_cpulist(list, set);
}

static long l3_size(void)
{
	char buf[64];

	if (l3_attr(0, "size", buf, sizeof(buf)))
		return -1;
	return strtol(buf, NULL, 10) * 1024;	/* "16384K" */
}

static int pin(int cpu)
{
	cpu_set_t s;

	CPU_ZERO(&s);
	CPU_SET(cpu, &s);
	return sched_setaffinity(0, sizeof(s), &s);
}

/*
 * ---- ping-pong: one line written in turn by two threads. A thread waits
 * for its turn in the kernel (futex), not spinning: under TCG a spinning
 * vCPU holds the single thread for its whole time slice, and the model
 * would count millions of hits per handoff.
 */

static int ball __attribute__((aligned(64)));
static int ready;

static void futex(int *addr, int op, int val)
{
	syscall(SYS_futex, addr, op | FUTEX_PRIVATE_FLAG, val, NULL, NULL, 0);
}

struct player {
	int cpu, parity;
};

static void *play(void *arg)
{
	struct player *p = arg;

	if (pin(p->cpu))
		return (void *)1;
	__atomic_add_fetch(&ready, 1, __ATOMIC_RELEASE);
	for (int i = p->parity; i < HANDOFFS; i += 2) {
		int b;

		while ((b = __atomic_load_n(&ball, __ATOMIC_ACQUIRE)) != i)
			futex(&ball, FUTEX_WAIT, b);
		__atomic_store_n(&ball, i + 1, __ATOMIC_RELEASE);
		futex(&ball, FUTEX_WAKE, 1);
	}
	return NULL;
}

/* HANDOFFS writes of one line by CPUs a and b in turn, in window win. */
static int ping_pong(int win, int a, int b)
{
	struct player p[2] = { { a, 0 }, { b, 1 } };
	pthread_t t[2];
	void *r0, *r1;

	/*
	 * The parent on a's CPU: the threads' stacks and descriptors are
	 * written in a's LLC, and its wakeups of them come from there too
	 */
	if (pin(a))
		return -1;
	ball = -1;
	ready = 0;
	for (int i = 0; i < 2; i++)
		if (pthread_create(&t[i], NULL, play, &p[i]))
			return -1;
	while (__atomic_load_n(&ready, __ATOMIC_ACQUIRE) < 2)
		usleep(1000);
	llc_mark(LLC_MARK_START, win);
	__atomic_store_n(&ball, 0, __ATOMIC_RELEASE);
	futex(&ball, FUTEX_WAKE, 2);
	pthread_join(t[0], &r0);
	pthread_join(t[1], &r1);
	llc_mark(LLC_MARK_END, win);
	return r0 || r1 ? -1 : 0;
}

/* The first CPU that shares CPU 0's L3 (same != 0) or does not. */
static int partner(int same)
{
	cpu_set_t l3, online;

	if (l3_cpus(0, &l3) < 0 || read_cpulist("/sys/devices/system/cpu/online", &online) < 0)
		return -1;
	for (int c = 1; c < CAS_MAX_CPUS; c++)
		if (CPU_ISSET(c, &online) && !!CPU_ISSET(c, &l3) == !!same)
			return c;
	return -1;
}

/* CPU cpu's L3 attribute name into buf; -1 if it has none. */
static int l3_attr(int cpu, const char *name, char *buf, size_t len)
{
	char path[160];
	int i = l3_index(cpu);

	if (i < 0)
		return -1;
	snprintf(path, sizeof(path), "/sys/devices/system/cpu/cpu%d/cache/index%d/%s",
		 cpu, i, name);
	return read_str(path, buf, len);
}

TEST(geometry)
{
	char size[32], ways[32], line[32], list[256];
	cpu_set_t online;

	ASSERT_LT(0, read_cpulist("/sys/devices/system/cpu/online", &online));
	for (int c = 0; c < CAS_MAX_CPUS; c++) {
		if (!CPU_ISSET(c, &online))
			continue;
		ASSERT_EQ(0, l3_attr(c, "size", size, sizeof(size))) TH_LOG("cpu%d: no L3", c);
		ASSERT_EQ(0, l3_attr(c, "ways_of_associativity", ways, sizeof(ways)));
		ASSERT_EQ(0, l3_attr(c, "coherency_line_size", line, sizeof(line)));
		ASSERT_EQ(0, l3_attr(c, "shared_cpu_list", list, sizeof(list)));
		printf("# llc-geometry %d %ld %s %s %s\n", c, strtol(size, NULL, 10) * 1024,
		       ways, line, list);
	}
	fflush(stdout);
}

TEST(transfers_between_llcs)
{
	int b = partner(0);

	if (b < 0)
		SKIP(return, "every CPU shares CPU 0's L3");
	ASSERT_EQ(0, ping_pong(W_APART, 0, b));
	/*
	 * Each handoff is one miss served by the other LLC (the waiter's
	 * load; the futex word is the same line). Tolerance: 10% either way.
	 */
	expect(W_APART, "transfers_between_llcs", "xfer_in", HANDOFFS * 9 / 10, HANDOFFS * 11 / 10);
}

TEST(transfers_within_llc)
{
	int b = partner(1);

	if (b < 0)
		SKIP(return, "CPU 0 shares its L3 with no other CPU");
	ASSERT_EQ(0, ping_pong(W_TOGETHER, 0, b));
	/* Both in one LLC: no transfer at all; up to 1% of the handoffs */
	expect(W_TOGETHER, "transfers_within_llc", "xfer_in", 0, HANDOFFS / 100);
}

/* PASSES reads of one byte per line of an array of bytes, in window win. */
static long stream(int win, long bytes, long line, int warm)
{
	volatile unsigned char *a;
	unsigned long sum = 0;

	a = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_POPULATE,
		 -1, 0);
	if (a == MAP_FAILED)
		return -1;
	memset((void *)a, 1, bytes);	/* real pages, not the zero page */
	for (long i = 0; warm && i < bytes; i += line)
		sum += a[i];
	llc_mark(LLC_MARK_START, win);
	for (int p = 0; p < PASSES; p++)
		for (long i = 0; i < bytes; i += line)
			sum += a[i];
	llc_mark(LLC_MARK_END, win);
	munmap((void *)a, bytes);
	return sum ? bytes / line * PASSES : -1;
}

TEST(stream_twice_the_llc)
{
	long size = l3_size(), lines;

	ASSERT_LT(0, size);
	ASSERT_EQ(0, pin(0));
	lines = stream(W_STREAM_TWICE, 2 * size, 64, 0);
	ASSERT_LT(0, lines);
	/* LRU streaming twice its size: every line misses; at least 90% */
	expect(W_STREAM_TWICE, "stream_twice_the_llc", "misses", lines * 9 / 10, -1);
}

TEST(stream_half_the_llc)
{
	long size = l3_size(), lines;

	ASSERT_LT(0, size);
	ASSERT_EQ(0, pin(0));
	lines = stream(W_STREAM_HALF, size / 2, 64, 1);
	ASSERT_LT(0, lines);
	/* Half its size, after a first pass: it stays; under 5% miss */
	expect(W_STREAM_HALF, "stream_half_the_llc", "misses", 0, lines / 20);
}

/*
 * Without the model nothing can be judged: the program skips, after the
 * same workloads (a boot without the model is the slowdown's baseline).
 */
int main(int argc, char **argv)
{
	long size = l3_size();
	int apart = partner(0), within = partner(1);

	if (modeled())
		return test_harness_run(argc, argv);
	if (apart >= 0)
		ping_pong(W_APART, 0, apart);
	if (within >= 0)
		ping_pong(W_TOGETHER, 0, within);
	if (size > 0 && !pin(0)) {
		stream(W_STREAM_TWICE, 2 * size, 64, 0);
		stream(W_STREAM_HALF, size / 2, 64, 1);
	}
	printf("# SKIP no cache model (boot with make MODEL=llc); its workloads ran unjudged\n");
	return KSFT_SKIP;
}
