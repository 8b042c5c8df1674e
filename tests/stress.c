// SPDX-License-Identifier: GPL-2.0
/*
 * stress: the reliability storms. Upstream's versions of cache-aware
 * scheduling hit a use-after-free when exec replaced the mm, a KASAN fault
 * in the scan work, a NULL LLC domain, stale capacity after CPU hotplug and
 * an mm-free leak; each storm below drives one of those paths while the
 * kernel's scan work is pending. A bug shows as a splat in the console
 * (which fails the boot test) or as a failed expectation here.
 *
 * Counts: CAS_STRESS=full (cas.stress=full, set by make boot-test
 * CONFIG=debug) runs the full counts; anything else the short form of the
 * normal boot test. Every storm also has a time limit: hitting it before
 * the count is done fails the test, naming how far it got. Each storm
 * prints one "stress:" line with what it ran; boot-test repeats those
 * lines in its summary. Each storm also notes its start and end in the
 * kernel log ("cas-stress: NAME: started", ".. done"), which reaches the
 * console as it happens: a boot killed at its time limit (the debug
 * kernel's run about 70 minutes) shows in console.log how far it got.
 *
 *   storm (full count / short count): what it checks
 *   exec_from_every_thread (1000 / 200): exec from thread position r % 4
 *       of a 4-busy-thread process; every exec'd image exits 0
 *   exec_under_remote_update_curr (1000 / 100): the same, pinned, while a
 *       process on another CPU of its LLC renices its main thread in a
 *       loop (update_curr() for it from there) and another wakes sleepers
 *       pinned to its CPU (review finding F1); every exec'd image exits
 *       0; remote renices and wakeups during the execs (timestamps in a
 *       memfd) counted and printed, at least one of each
 *   fork_exit (10000 / 500): 4-thread processes living 1-4 ms, two at a
 *       time, exit_group() from position r % 4; every child exits 0
 *   cpu_hotplug (200 / 10): a CPU of the LLC a busy process is aggregated
 *       in, and every fourth cycle a whole LLC (the next one if its own
 *       holds the boot CPU), offline 20 ms then online; every write
 *       succeeds, all CPUs online after, the process lives
 *   toggle_feature_and_knobs (200 / 20): SCHED_CACHE off/on and every
 *       knob to its minimum, maximum and old value, under a busy and a
 *       light process; every write taken, old values back
 *   cpuset_and_affinity (200 / 20): the cgroup v2 cpuset of a busy
 *       process moved between LLCs, one CPU and all CPUs; every other
 *       change narrows one thread's affinity to a CPU of the next LLC,
 *       which the kernel must take when the cpuset is all CPUs and refuse
 *       with EINVAL when it is one LLC; no thread seen outside its allowed
 *       CPUs (a sighting counts only if it is still there 50 ms later)
 *   bad_knob_input (every knob, the same in both counts): negative, huge,
 *       non-numeric, empty, trailing garbage, below the minimum, above the
 *       maximum; each write fails with -EINVAL and the value stays; a good
 *       value is taken
 *   kmemleak_after_storms (1 / 1, skips without kmemleak): two scans 6 s
 *       apart find no unreferenced object at all (kmemleak's console
 *       lines fail the boot too)
 *
 * The storms run on every kernel (unpatched and v1 too, as a baseline);
 * what needs v2 (its knobs, its scans) is checked only there. On v2 with a
 * node of several LLCs, a canary process (two threads, each busy a tenth
 * of the time) runs beside each storm, and its scans, which
 * /proc/<pid>/sched counts, must have run during the storm: the scan work
 * was live while the storm ran. With v2's DEBUG tracepoints, the scans of
 * the storm's own processes must have run too (their sched_cache_scan
 * events: the processes are gone by the report).
 */
#include <sched.h>
#include <poll.h>
#include <signal.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include "kselftest_harness.h"
#include "lib/crew.h"
#include "lib/trace.h"
#include "lib/v2stat.h"

#define KMEMLEAK	"/sys/kernel/debug/kmemleak"
#define CPU_SYSFS	"/sys/devices/system/cpu/"
#define CGROOT		"/sys/fs/cgroup"
#define CGDIR		CGROOT "/cas-stress"

/*
 * limit_s: guest seconds the full count may take (the short form: a
 * quarter), at least 1.2 times what the debug kernel needed on 2x2x4: exec
 * 525 s for 1000 rounds, fork/exit 0.33 s a round (7306 rounds in a first
 * limit of 2400 s), hotplug 1345 s, toggling 148 s, cpuset 39 s. The exec
 * window storm has not run on the debug kernel yet: its rounds took 1.7
 * to 2 times the exec storm's on the normal kernel (2x2x4, short forms),
 * 900 to 1050 s for 1000 rounds at the exec storm's debug pace; it has the
 * exec storm's limit until a debug boot measures it.
 */
struct counts {
	const char *name;
	int full, short_form;
	int limit_s;
};

enum { EXEC, WINDOW, FORK, HOTPLUG, TOGGLE, CPUSET };

static const struct counts counts[] = {
	[EXEC]		= { "exec rounds",	1000,	200,	1500 },
	[WINDOW]	= { "exec window rounds", 1000,	100,	1500 },
	[FORK]		= { "fork/exit rounds",	10000,	500,	4000 },
	[HOTPLUG]	= { "hotplug cycles",	200,	10,	2400 },
	[TOGGLE]	= { "toggle rounds",	200,	20,	1200 },
	[CPUSET]	= { "cpuset/affinity changes", 200, 20,	1200 },
};

static int full_form(void)
{
	const char *s = getenv("CAS_STRESS");

	return s && !strcmp(s, "full");
}

static int rounds_of(int which)
{
	return full_form() ? counts[which].full : counts[which].short_form;
}

/* When the storm must give up (ns, CLOCK_MONOTONIC) */
static unsigned long long deadline_of(int which)
{
	unsigned long long s = counts[which].limit_s;

	return now_ns() + (full_form() ? s : s / 4) * 1000000000ULL;
}

/* v2's knobs (patch 11's debugfs directory): what these tests need of v2 */
static int v2(void)
{
	return access(SCHED_DEBUGFS "/cache/epoch_ms", F_OK) == 0;
}

FIXTURE(stress) {
	char self[256];
	unsigned long long t0;
	pid_t canary;		/* v2: the process whose scans are counted */
	int traced;		/* v2 with sched_cache_scan: the storm's scans too */
};

static void *canary_thread(void *arg)
{
	for (;;) {
		spin_ns(1000000ULL);
		sleep_ns(9000000ULL);
	}
	return NULL;
}

/* Two threads a tenth busy each, until the parent goes */
static pid_t canary_start(void)
{
	pid_t pid = fork();
	pthread_t t;

	if (pid)
		return pid;
	prctl(PR_SET_PDEATHSIG, SIGKILL);
	pthread_create(&t, NULL, canary_thread, NULL);
	canary_thread(NULL);
	_exit(0);
}

/* A progress line in the kernel log (console.log), where output is kept */
static void note_kmsg(const char *name, const char *what)
{
	char line[160];
	int fd = open("/dev/kmsg", O_WRONLY | O_CLOEXEC);
	int len;

	if (fd < 0)
		return;
	len = snprintf(line, sizeof(line), "cas-stress: %s: %s\n", name, what);
	if (len > 0 && write(fd, line, len) < 0)
		;	/* a progress note only: nothing to judge */
	close(fd);
}

FIXTURE_SETUP(stress)
{
	ssize_t n;

	note_kmsg(_metadata->name, "started");

	ASSERT_EQ(0, llc_map_read(&map));
	n = readlink("/proc/self/exe", self->self, sizeof(self->self) - 1);
	ASSERT_LT(0, n);
	self->self[n] = '\0';
	numa_balancing_off();
	self->canary = 0;
	if (kernel_is_v2() && multi_llc_node(&map)) {
		ASSERT_TRUE(v2_shown()) TH_LOG(V2_UNSHOWN);
		self->canary = canary_start();
		ASSERT_LT(0, self->canary);
		self->traced = v2_traced();
	}
	if (self->traced) {
		write_str(TRACEFS "/buffer_size_kb", "4096");
		trace_reset();
		trace_event_enable("sched_cache_scan", 1);
		trace_on(1);
	}
	self->t0 = now_ns();
}

FIXTURE_TEARDOWN(stress)
{
	if (self->canary > 0) {
		kill(self->canary, SIGKILL);
		waitpid(self->canary, NULL, 0);
	}
	if (self->traced) {
		trace_on(0);
		trace_event_enable("sched_cache_scan", 0);
	}
}

/* sched_cache_scan events of processes other than @canary */
static void count_other(const char *fields, void *arg)
{
	long *n = arg;

	*n += trace_field(fields, "tgid", -1) != n[1];
}

/*
 * The storm's "stress:" line; with a canary (v2 on a node with several
 * LLCs), its scans must have run during the storm.
 */
static void report(struct __test_metadata *_metadata, FIXTURE_DATA(stress) *self,
		   int which, int done, int failed, const char *extra)
{
	double secs = (now_ns() - self->t0) / 1e9;
	struct v2_mm m = { .scans = -1 };
	long storm[2] = { 0, self->canary };

	if (self->canary > 0 && v2_mm_read(self->canary, &m))
		m.scans = -1;
	if (self->traced)
		trace_each("sched_cache_scan", count_other, storm);
	ksft_print_msg("stress: %s: %d of %d (%s form), %d failed, %.1fs%s%s",
		       counts[which].name, done, rounds_of(which),
		       full_form() ? "full" : "short", failed, secs,
		       extra ? ", " : "", extra ? extra : "");
	if (self->canary > 0)
		printf(", %ld scans of a canary meanwhile", m.scans);
	if (self->traced)
		printf(", %ld of the storm's processes", storm[0]);
	printf("\n");
	note_kmsg(counts[which].name, "done");
	EXPECT_EQ(rounds_of(which), done) TH_LOG("time limit reached");
	EXPECT_EQ(0, failed);
	if (self->canary > 0)
		EXPECT_LT(0, m.scans) TH_LOG("no scan overlapped the storm");
	if (self->traced)
		EXPECT_LT(0, storm[0]) TH_LOG("none of the storm's processes was scanned");
}

static void *spin_forever(void *arg)
{
	for (;;)
		spin_ns(1000000ULL);
	return NULL;
}

/*
 * Threads of the exec storms: position 'who' execs 12 ms after all four
 * threads run, the others spin. The wait matters: while a thread is in
 * execve(), clone(CLONE_FS) fails with EAGAIN (fs->in_exec), so a
 * pthread_create() still in progress would fail the round; CI saw that
 * twice (1 round of 200 each time), when the host held the main thread up
 * for 12 ms.
 */
struct exec_arg {
	int me, who;
	char **argv;		/* what position 'who' execs */
	atomic_int *running;
	int cpu;		/* the CPU it execs on (-1: wherever it runs) */
	atomic_ullong *since;	/* if set: when its execv() began (ns) */
};

static int pin_self(int cpu)
{
	cpu_set_t s;

	CPU_ZERO(&s);
	CPU_SET(cpu, &s);
	return sched_setaffinity(0, sizeof(s), &s);
}

static void *exec_or_spin(void *arg)
{
	struct exec_arg *a = arg;

	atomic_fetch_add(a->running, 1);
	if (a->me != a->who)
		spin_forever(NULL);
	if (a->cpu >= 0 && pin_self(a->cpu)) {
		dprintf(STDOUT_FILENO, "# pin to cpu%d: %s\n", a->cpu, strerror(errno));
		_exit(6);
	}
	while (atomic_load(a->running) < 4)
		spin_ns(100000ULL);
	/* more than an epoch of 4 busy threads: the scan is pending */
	spin_ns(12000000ULL);
	if (a->since)
		atomic_store(a->since, now_ns());
	execv("/proc/self/exe", a->argv);
	dprintf(STDOUT_FILENO, "# exec from position %d: %s\n", a->who, strerror(errno));
	_exit(3);
}

/*
 * Round r of an exec storm: fork a process of 4 busy threads whose
 * position r % 4 (0 being the main thread) execs argv, from cpu (-1:
 * anywhere), noting when in *since (if not NULL). Returns the pid, or -1.
 */
static pid_t exec_fork(int r, char **argv, int cpu, atomic_ullong *since)
{
	pid_t pid = fork();

	if (pid == 0) {
		struct exec_arg a[4];
		atomic_int running = 0;
		pthread_t t;

		prctl(PR_SET_PDEATHSIG, SIGKILL);
		for (int i = 0; i < 4; i++)
			a[i] = (struct exec_arg){ .me = i, .who = r % 4, .argv = argv,
						  .running = &running, .cpu = cpu,
						  .since = since };
		for (int i = 1; i < 4; i++)
			if ((errno = pthread_create(&t, NULL, exec_or_spin, &a[i]))) {
				dprintf(STDOUT_FILENO, "# pthread_create: %s\n",
					strerror(errno));
				_exit(4);
			}
		exec_or_spin(&a[0]);
	}
	return pid;
}

/* Wait for round r's process (pid; -1: fork failed): 1 if the round failed */
static int exec_reap(int r, pid_t pid)
{
	int st;

	if (pid < 0) {
		ksft_print_msg("exec round %d: fork: %s\n", r, strerror(errno));
		return 1;
	}
	if (waitpid(pid, &st, 0) != pid) {
		ksft_print_msg("exec round %d: waitpid: %s\n", r, strerror(errno));
		return 1;
	}
	if (!WIFEXITED(st) || WEXITSTATUS(st) != 0) {
		/*
		 * 3: execv failed, 4: pthread_create failed, 5: the new
		 * image could not map the exec window, 6: pinning failed
		 */
		ksft_print_msg("exec round %d (position %d): %s %d\n", r, r % 4,
			       WIFEXITED(st) ? "exit" : "signal",
			       WIFEXITED(st) ? WEXITSTATUS(st) : WTERMSIG(st));
		return 1;
	}
	return 0;
}

/*
 * Exec from every thread position of a 4-thread process in turn (round r:
 * position r % 4, 0 being the main thread) while its threads keep the
 * scan work pending: the mm the scan was set up for is replaced under it.
 */
TEST_F_TIMEOUT(stress, exec_from_every_thread, 3000)
{
	unsigned long long end = deadline_of(EXEC);
	char *argv[] = { self->self, "--noop", NULL };
	int r, failed = 0;

	for (r = 0; r < rounds_of(EXEC) && now_ns() < end; r++)
		failed += exec_reap(r, exec_fork(r, argv, -1, NULL));
	report(_metadata, self, EXEC, r, failed, NULL);
}

/*
 * The exec window storm's shared memory (a memfd: the exec'd image maps it
 * again). Per round: when the exec'ing thread called execv() and when the
 * new image's main() began, CLOCK_MONOTONIC ns (0: not yet).
 */
struct exec_window {
	atomic_int round, pid, stop;	/* the round in progress, its process */
	atomic_long renices, renices_in, wakeups, wakeups_in;
	struct {
		atomic_ullong start, done;
	} r[];
};

static size_t exec_window_size(int rounds)
{
	return sizeof(struct exec_window) + rounds * sizeof(((struct exec_window *)0)->r[0]);
}

/* The new image: round r's exec was done at t (taken first thing in main) */
static int exec_window_done(unsigned long long t, int fd, int r)
{
	struct exec_window *w;
	struct stat st;

	if (fstat(fd, &st) || r < 0 || exec_window_size(r + 1) > (size_t)st.st_size)
		return 5;
	w = mmap(NULL, st.st_size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	if (w == MAP_FAILED)
		return 5;
	atomic_store(&w->r[r].done, t);
	return 0;
}

/*
 * Which of a helper's operations fell inside an exec: those that began at
 * or after their round's start and ended at or before its done. done is
 * known once the new image ran; until then the operations that began
 * after the start wait here, in the order they ended. A round whose new
 * image never ran counts none.
 */
struct inside {
	int round, n;
	long count;
	unsigned long long t1[1 << 16];
};

/* Count the waiting operations once their round's done is known; over: it never will be */
static void inside_settle(struct exec_window *w, struct inside *in, int over)
{
	unsigned long long done;

	if (in->round < 0)
		return;
	done = atomic_load(&w->r[in->round].done);
	if (!done && !over && atomic_load(&w->round) == in->round)
		return;
	for (int i = 0; i < in->n && in->t1[i] <= done; i++)
		in->count++;
	in->round = -1;
	in->n = 0;
}

/*
 * An operation of [t0, t1], round r being the round in progress before t0
 * (r never goes back between two calls)
 */
static void inside_note(struct exec_window *w, struct inside *in, int r,
			unsigned long long t0, unsigned long long t1)
{
	unsigned long long start, done;

	if (r < 0)
		return;
	start = atomic_load(&w->r[r].start);
	if (!start || start > t0)
		return;
	done = atomic_load(&w->r[r].done);
	if (done) {
		in->count += t1 <= done;
		return;
	}
	if (in->round != r) {
		/* an earlier round is over once a later one is in progress */
		inside_settle(w, in, 1);
		in->round = r;
	}
	if (in->n < (int)(sizeof(in->t1) / sizeof(in->t1[0])))
		in->t1[in->n++] = t1;
}

/* The sleepers' pipes: one to each sleeper, one from all of them */
#define SLEEPERS 4

struct pings {
	int ping[SLEEPERS][2], pong[2];
};

/*
 * Remote helper (a): renice the round's process, its main thread, to 1
 * and back to 0 over and over. set_user_nice() dequeues the task where
 * it runs, calling update_curr() on that CPU's runqueue from this one. An
 * exec'ing thread has the main thread's pid from de_thread() on, before
 * exec_mmap(). (Reading the process's CPU clock would not do: for another
 * process the kernel sums its threads' runtimes as they are, without
 * update_curr() (thread_group_cputime()), and it refuses another
 * process's thread clocks.)
 */
static int renicer(struct exec_window *w, struct pings *p, int i)
{
	static struct inside in = { .round = -1 };
	long renices = 0;

	while (!atomic_load(&w->stop)) {
		int r = atomic_load(&w->round);
		unsigned long long t0, t1;
		pid_t pid;

		inside_settle(w, &in, 0);
		t0 = now_ns();
		pid = atomic_load(&w->pid);
		/* between rounds the process is gone (ESRCH): not a renice */
		if (pid <= 0 || setpriority(PRIO_PROCESS, pid, 1) ||
		    setpriority(PRIO_PROCESS, pid, 0))
			continue;
		t1 = now_ns();
		renices++;
		inside_note(w, &in, r, t0, t1);
	}
	inside_settle(w, &in, 1);
	atomic_store(&w->renices, renices);
	atomic_store(&w->renices_in, in.count);
	return 0;
}

/*
 * Sleeper i, pinned to the exec'ing CPU: answers each ping on its pipe
 * with its number and whether it had to sleep for it (a voluntary context
 * switch in read(): then the waker's write woke it). It ends when the
 * waker does.
 */
static int sleeper(struct exec_window *w, struct pings *p, int i)
{
	struct rusage ru0, ru1;
	ssize_t n;
	char c;

	for (int j = 0; j < SLEEPERS; j++) {
		close(p->ping[j][1]);
		if (j != i)
			close(p->ping[j][0]);
	}
	close(p->pong[0]);
	for (;;) {
		getrusage(RUSAGE_THREAD, &ru0);
		n = read(p->ping[i][0], &c, 1);
		if (n != 1)
			return n != 0;
		getrusage(RUSAGE_THREAD, &ru1);
		c = i << 1 | (ru1.ru_nvcsw > ru0.ru_nvcsw);
		if (write(p->pong[1], &c, 1) != 1)
			return 1;
	}
}

/*
 * Remote helper (b): ping every sleeper, collect the answers, again and
 * again. A wakeup from a CPU of the same LLC onto a CPU that is running
 * something enqueues there directly (ttwu_queue_cond()), calling
 * update_curr() for that CPU's current task from this CPU, inside the
 * write(). Only the pings a sleeper slept for count, each from before its
 * write() to after it.
 */
static int waker(struct exec_window *w, struct pings *p, int unused)
{
	static struct inside in = { .round = -1 };
	struct pollfd pfd = { .fd = p->pong[0], .events = POLLIN };
	unsigned long long t0[SLEEPERS], t1[SLEEPERS];
	char slept[SLEEPERS], c;
	long wakeups = 0;

	for (int j = 0; j < SLEEPERS; j++)
		close(p->ping[j][0]);
	close(p->pong[1]);
	while (!atomic_load(&w->stop)) {
		int r = atomic_load(&w->round);

		inside_settle(w, &in, 0);
		for (int i = 0; i < SLEEPERS; i++) {
			t0[i] = now_ns();
			if (write(p->ping[i][1], "p", 1) != 1)
				return 1;
			t1[i] = now_ns();
		}
		for (int i = 0; i < SLEEPERS; i++) {
			/* a sleeper that stopped answering fails the storm, not hangs it */
			if (poll(&pfd, 1, 60000) != 1 || read(p->pong[0], &c, 1) != 1 ||
			    (c >> 1) >= SLEEPERS)
				return 1;
			slept[c >> 1] = c & 1;
		}
		for (int i = 0; i < SLEEPERS; i++) {
			if (!slept[i])
				continue;
			wakeups++;
			inside_note(w, &in, r, t0[i], t1[i]);
		}
	}
	inside_settle(w, &in, 1);
	atomic_store(&w->wakeups, wakeups);
	atomic_store(&w->wakeups_in, in.count);
	return 0;
}

/* Fork helper i, pinned to cpu; its exit status is fn's (2: pinning failed) */
static pid_t remote_start(int cpu, int (*fn)(struct exec_window *, struct pings *, int),
			  struct exec_window *w, struct pings *p, int i)
{
	pid_t pid = fork();

	if (pid == 0) {
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		if (pin_self(cpu))
			_exit(2);
		_exit(fn(w, p, i));
	}
	return pid;
}

/*
 * Exec under remote update_curr(): update_curr() also runs on other CPUs
 * for a runqueue's current task (when a wakeup enqueues onto that
 * runqueue, when set_user_nice() requeues the task), and that task may be
 * inside exec_mmap(), dropping the mm that p->mm still names; per-process
 * accounting there must not follow p->mm. The exec storm's rounds, with
 * the exec'ing thread pinned to CPU x of an LLC, while separate processes
 * (they outlive the exec's de_thread()) on the LLC's other CPUs (a)
 * renice the process and (b) wake sleepers pinned to x, each in a loop.
 * What is counted is what ran inside an exec (from the exec'ing thread's
 * execv() to the new image's main(), timestamps in shared memory): both
 * must have, or the storm did not open the window. The counts say when,
 * not which path the kernel took: a wakeup while x is idle (the exec'ing
 * thread waiting in de_thread()) goes through x's wake list instead.
 */
TEST_F_TIMEOUT(stress, exec_under_remote_update_curr, 3000)
{
	unsigned long long end = deadline_of(WINDOW), exec_ns = 0;
	int n = rounds_of(WINDOW), r, failed = 0, execs = 0, k, x, y[CAS_MAX_CPUS], ny = 0;
	int fd, cpu[SLEEPERS + 2];
	char fdarg[16], rarg[16], extra[256];
	char *argv[] = { self->self, "--exec-window", fdarg, rarg, NULL };
	struct exec_window *w;
	struct pings p;
	pid_t helper[SLEEPERS + 2];

	/* the last LLC of two CPUs or more: its first CPU execs */
	for (k = map.nllc - 1; k >= 0 && llc_size(&map, k) < 2; k--)
		;
	if (k < 0)
		SKIP(return, "no LLC of two CPUs or more");
	x = map.first_cpu[k];
	for (int c = 0; c < map.ncpus; c++)
		if (map.llc_of[c] == k && c != x)
			y[ny++] = c;

	/* not close-on-exec: the new image maps it */
	fd = memfd_create("cas-exec-window", 0);
	ASSERT_LE(0, fd);
	ASSERT_EQ(0, ftruncate(fd, exec_window_size(n)));
	w = mmap(NULL, exec_window_size(n), PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	ASSERT_NE(MAP_FAILED, w);
	atomic_store(&w->round, -1);
	snprintf(fdarg, sizeof(fdarg), "%d", fd);

	/* the sleepers, the waker, the renicer; the pipes stay in the first two */
	for (int i = 0; i < SLEEPERS; i++) {
		ASSERT_EQ(0, pipe(p.ping[i]));
	}
	ASSERT_EQ(0, pipe(p.pong));
	for (int i = 0; i < SLEEPERS; i++) {
		cpu[i] = x;
		helper[i] = remote_start(x, sleeper, w, &p, i);
	}
	cpu[SLEEPERS] = y[1 % ny];
	helper[SLEEPERS] = remote_start(cpu[SLEEPERS], waker, w, &p, 0);
	for (int i = 0; i < SLEEPERS; i++) {
		close(p.ping[i][0]);
		close(p.ping[i][1]);
	}
	close(p.pong[0]);
	close(p.pong[1]);
	cpu[SLEEPERS + 1] = y[0];
	helper[SLEEPERS + 1] = remote_start(y[0], renicer, w, &p, 0);
	for (int i = 0; i < SLEEPERS + 2; i++) {
		ASSERT_LT(0, helper[i]) TH_LOG("fork: %s", strerror(errno));
	}

	for (r = 0; r < n && now_ns() < end; r++) {
		pid_t pid;

		/* no pid while the round changes: a helper never mixes two */
		atomic_store(&w->pid, 0);
		atomic_store(&w->round, r);
		snprintf(rarg, sizeof(rarg), "%d", r);
		pid = exec_fork(r, argv, x, &w->r[r].start);
		if (pid > 0)
			atomic_store(&w->pid, pid);
		failed += exec_reap(r, pid);
		if (w->r[r].start && w->r[r].done) {
			exec_ns += w->r[r].done - w->r[r].start;
			execs++;
		}
	}
	atomic_store(&w->stop, 1);
	/* the sleepers last: they end with the waker */
	for (int i = SLEEPERS + 1; i >= 0; i--) {
		int st;

		if (waitpid(helper[i], &st, 0) != helper[i] || !WIFEXITED(st) ||
		    WEXITSTATUS(st)) {
			ksft_print_msg("%s on cpu%d failed (status 0x%x)\n",
				       i < SLEEPERS ? "sleeper" : i == SLEEPERS ? "waker" : "renicer",
				       cpu[i], st);
			failed++;
		}
	}
	snprintf(extra, sizeof(extra),
		 "%ld remote renices and %ld remote wakeups during execs (of %ld and %ld; execs %.1f ms on average on cpu%d, renices from cpu%d, wakeups from cpu%d)",
		 atomic_load(&w->renices_in), atomic_load(&w->wakeups_in),
		 atomic_load(&w->renices), atomic_load(&w->wakeups),
		 execs ? exec_ns / 1e6 / execs : 0.0, x, cpu[SLEEPERS + 1], cpu[SLEEPERS]);
	EXPECT_LT(0, atomic_load(&w->renices_in)) TH_LOG("no remote renice inside an exec");
	EXPECT_LT(0, atomic_load(&w->wakeups_in)) TH_LOG("no remote wakeup inside an exec");
	munmap(w, exec_window_size(n));
	close(fd);
	report(_metadata, self, WINDOW, r, failed, extra);
}

/*
 * Short-lived processes of 4 busy threads, two at a time, each ended by
 * exit_group() from thread position r % 4 after 1 to 4 ms: the mm (and
 * its per-CPU occupancy) is freed while scans of it may be queued.
 */
static void *exit_or_spin(void *arg)
{
	struct exec_arg *a = arg;

	if (a->me != a->who)
		spin_forever(NULL);
	spin_ns(1000000ULL * (1 + a->who));
	_exit(0);
}

static pid_t short_lived(int r)
{
	pid_t pid = fork();

	if (pid == 0) {
		struct exec_arg a[4];
		pthread_t t;

		prctl(PR_SET_PDEATHSIG, SIGKILL);
		for (int i = 0; i < 4; i++)
			a[i] = (struct exec_arg){ .me = i, .who = r % 4 };
		for (int i = 1; i < 4; i++)
			if (pthread_create(&t, NULL, exit_or_spin, &a[i]))
				_exit(4);
		exit_or_spin(&a[0]);
	}
	return pid;
}

TEST_F_TIMEOUT(stress, fork_exit, 4500)
{
	unsigned long long end = deadline_of(FORK);
	int started = 0, done = 0, failed = 0, running = 0;

	while (done < rounds_of(FORK)) {
		int st;
		pid_t pid;

		while (running < 2 && started < rounds_of(FORK) && now_ns() < end) {
			if (short_lived(started++) < 0)
				failed++;
			else
				running++;
		}
		if (!running)
			break;
		pid = wait(&st);
		if (pid < 0)
			break;
		if (pid == self->canary) {	/* not a round: the canary died */
			failed++;
			self->canary = 0;
			continue;
		}
		running--;
		done++;
		if (!WIFEXITED(st) || WEXITSTATUS(st) != 0)
			failed++;
	}
	report(_metadata, self, FORK, done, failed, NULL);
}

/* A CPU's online file; its absence means the CPU cannot go offline */
static const char *online_file(int cpu)
{
	static char path[96];

	snprintf(path, sizeof(path), CPU_SYSFS "cpu%d/online", cpu);
	return path;
}

static int cpu_hotpluggable(int cpu)
{
	return !access(online_file(cpu), W_OK);
}

/* Offline (0) or online (1) a CPU; 0 or -errno. CPUs without the file: -ENOENT */
static int cpu_set_online(int cpu, int on)
{
	if (!cpu_hotpluggable(cpu))
		return -ENOENT;
	return write_str(online_file(cpu), on ? "1" : "0");
}

static int cpu_is_online(int cpu)
{
	return read_long(online_file(cpu), 1) == 1;
}

/* The LLC most of the crew's threads last ran in (its aggregation, on v2) */
static int crew_llc(struct crew *c)
{
	int votes[CAS_MAX_CPUS] = { 0 }, best = 0;

	for (int i = 0; i < c->n; i++) {
		int cpu = task_cpu_of(c->pid, c->sh->w[i].tid, NULL);

		if (cpu >= 0 && cpu < map.ncpus)
			votes[map.llc_of[cpu]]++;
	}
	for (int k = 1; k < map.nllc; k++)
		if (votes[k] > votes[best])
			best = k;
	return best;
}

/* The CPUs of LLC k that can go offline (all but the boot CPU, on x86) */
static int llc_hotpluggable(int k, int *cpus)
{
	int n = 0;

	for (int c = 0; c < map.ncpus; c++)
		if (map.llc_of[c] == k && cpu_hotpluggable(c))
			cpus[n++] = c;
	return n;
}

/*
 * CPU hotplug under a busy process: every cycle takes CPUs of the LLC the
 * process was aggregated into offline and back online; every fourth cycle
 * takes a whole LLC (the process's own, or the next one where its own holds
 * the boot CPU). Afterwards every CPU is online again and the process
 * runs on.
 */
TEST_F_TIMEOUT(stress, cpu_hotplug, 3000)
{
	unsigned long long end = deadline_of(HOTPLUG);
	int r, failed = 0, offlined = 0, whole = 0;
	int verbose;
	struct crew c;
	char extra[96];

	if (!cpu_hotpluggable(1))
		SKIP(return, "no CPU hotplug (cpu1/online missing)");
	/*
	 * sched_verbose (run.sh) prints every CPU's domains at each rebuild,
	 * two rebuilds a CPU: over a serial console under TCG that was most
	 * of a cycle's 20 s of guest time. Quiet while cycling.
	 */
	verbose = !read_str(SCHED_DEBUGFS "/verbose", extra, sizeof(extra)) &&
		  (extra[0] == 'Y' || extra[0] == '1');
	if (verbose)
		write_str(SCHED_DEBUGFS "/verbose", "0");
	crew_start(&c, llc_size(&map, 0), BUSY);
	for (r = 0; r < rounds_of(HOTPLUG) && now_ns() < end; r++) {
		int k = crew_llc(&c), off[CAS_MAX_CPUS], n;

		n = llc_hotpluggable(k, off);
		if (r % 4 == 0) {
			/* the whole LLC: the next one if the boot CPU keeps this one up */
			if (n < llc_size(&map, k)) {
				k = (k + 1) % map.nllc;
				n = llc_hotpluggable(k, off);
			}
			whole++;
		} else if (n) {
			/* one CPU of it, a different one each cycle */
			off[0] = off[r % n];
			n = 1;
		}
		for (int i = 0; i < n; i++) {
			int ret = cpu_set_online(off[i], 0);

			if (ret) {
				failed++;
				ksft_print_msg("cycle %d: offline cpu%d: %s\n", r, off[i], strerror(-ret));
			} else {
				offlined++;
			}
		}
		/* let a tick or two (scan, balancing) see the smaller LLC */
		sleep_ns(20000000ULL);
		for (int i = 0; i < n; i++) {
			int ret = cpu_set_online(off[i], 1);

			if (ret) {
				failed++;
				ksft_print_msg("cycle %d: online cpu%d: %s\n", r, off[i], strerror(-ret));
			}
		}
		sleep_ns(20000000ULL);
	}
	for (int cpu = 0; cpu < map.ncpus; cpu++)
		if (!cpu_is_online(cpu)) {
			failed++;
			ksft_print_msg("cpu%d still offline\n", cpu);
			cpu_set_online(cpu, 1);
		}
	EXPECT_EQ(0, waitpid(c.pid, NULL, WNOHANG)) TH_LOG("the busy process died");
	crew_stop(&c);
	if (verbose)
		write_str(SCHED_DEBUGFS "/verbose", "1");
	snprintf(extra, sizeof(extra), "%d CPU offlines, %d cycles of a whole LLC",
		 offlined, whole);
	report(_metadata, self, HOTPLUG, r, failed, extra);
}

/* The v2 knobs with their ranges (patch 11) */
static const struct knob {
	const char *name;
	long min, max;
} knobs[] = {
	{ "epoch_ms", 1, 1000 },
	{ "timeout_epochs", 1, 1000 },
	{ "switch_margin_pct", 0, 1000 },
	{ "switch_scans", 1, 100 },
	{ "overagg_util_pct", 1, 100 },
	{ "overagg_nr_pct", 1, 100 },
	{ "overagg_threads_pct", 0, 1000 },
	{ "overagg_mm_util_pct", 0, 100 },
	{ "overagg_footprint_pct", 0, 1000 },
};
#define NKNOBS (sizeof(knobs) / sizeof(knobs[0]))

static int knob_write(const struct knob *k, long v)
{
	char path[128], buf[32];

	snprintf(path, sizeof(path), KNOBS "%s", k->name);
	snprintf(buf, sizeof(buf), "%ld", v);
	return write_str(path, buf);
}

static long knob_read(const struct knob *k)
{
	char path[128];

	snprintf(path, sizeof(path), KNOBS "%s", k->name);
	return read_long(path, -1);
}

/*
 * Under a busy process and a light one, switch the SCHED_CACHE feature off
 * and on, then (where the kernel has them) one of the mechanisms'
 * features in turn, and set every knob to its minimum, its maximum and
 * back to its value, round after round: every write is taken, and at the
 * end every knob and feature holds its old value again.
 */
static const char *const mech_feats[] = {
	"CACHE_STEER", "CACHE_HOLD", "CACHE_HOLD_FIRM", "CACHE_PULL",
	"CACHE_SPREAD", "CACHE_FOOTPRINT",
};
#define NMECH (sizeof(mech_feats) / sizeof(mech_feats[0]))

TEST_F_TIMEOUT(stress, toggle_feature_and_knobs, 3000)
{
	unsigned long long end = deadline_of(TOGGLE);
	int have_feat = sched_feat_exists("SCHED_CACHE"), have_knobs = v2();
	int have_mech = sched_feat_exists("CACHE_STEER");
	long saved[NKNOBS];
	int r, failed = 0, writes = 0;
	struct crew busy, light;
	char extra[96];

	if (!have_feat && !have_knobs)
		SKIP(return, "no SCHED_CACHE feature and no knobs (unpatched kernel)");
	for (size_t i = 0; have_knobs && i < NKNOBS; i++) {
		saved[i] = knob_read(&knobs[i]);
		ASSERT_LE(0, saved[i]) TH_LOG("knob %s missing", knobs[i].name);
	}
	crew_start(&busy, llc_size(&map, 0), BUSY);
	crew_start(&light, fit_threads(), FIT);
	for (r = 0; r < rounds_of(TOGGLE) && now_ns() < end; r++) {
		if (have_feat) {
			failed += !!sched_feat_set("SCHED_CACHE", 0);
			sleep_ns(5000000ULL);
			failed += !!sched_feat_set("SCHED_CACHE", 1);
			writes += 2;
		}
		if (have_mech) {
			const char *m = mech_feats[r % NMECH];

			failed += !!sched_feat_set(m, 0);
			sleep_ns(5000000ULL);
			failed += !!sched_feat_set(m, 1);
			writes += 2;
		}
		for (size_t i = 0; have_knobs && i < NKNOBS; i++) {
			long v[3] = { knobs[i].min, knobs[i].max, saved[i] };

			for (int j = 0; j < 3; j++) {
				int ret = knob_write(&knobs[i], v[(r + j) % 3]);

				writes++;
				if (ret) {
					failed++;
					ksft_print_msg("%s <- %ld: %s\n", knobs[i].name,
						       v[(r + j) % 3], strerror(-ret));
				}
			}
			/* end every round on the old value: the next knob runs under it */
			failed += !!knob_write(&knobs[i], saved[i]);
			writes++;
			sleep_ns(1000000ULL);
		}
	}
	crew_stop(&light);
	crew_stop(&busy);
	for (size_t i = 0; have_knobs && i < NKNOBS; i++) {
		EXPECT_EQ(saved[i], knob_read(&knobs[i])) TH_LOG("%s not restored", knobs[i].name);
	}
	for (size_t i = 0; have_mech && i < NMECH; i++) {
		EXPECT_EQ(1, sched_feat_state(mech_feats[i])) TH_LOG("%s not on again", mech_feats[i]);
	}
	if (have_knobs)
		snprintf(extra, sizeof(extra), "%d writes (feature and %zu knobs)", writes, NKNOBS);
	else
		snprintf(extra, sizeof(extra), "%d writes (feature only)", writes);
	report(_metadata, self, TOGGLE, r, failed, extra);
}

/*
 * Bad input to every knob: negative, zero where invalid, huge, non-numeric,
 * empty and trailing garbage are each refused with -EINVAL, and the value
 * stays; a good value is taken and the old one restored. Exact.
 */
TEST_F_TIMEOUT(stress, bad_knob_input, 300)
{
	static const char * const bad[] = { "-1", "abc", "99999999999999", "", "12x", "1000000" };
	char path[128], v[32];
	int writes = 0;

	if (!v2())
		SKIP(return, "no knobs (needs v2)");
	for (size_t k = 0; k < NKNOBS; k++) {
		long before = knob_read(&knobs[k]);

		ASSERT_LE(0, before) TH_LOG("%s missing", knobs[k].name);
		snprintf(path, sizeof(path), KNOBS "%s", knobs[k].name);
		for (size_t b = 0; b < sizeof(bad) / sizeof(bad[0]); b++) {
			writes++;
			EXPECT_EQ(-EINVAL, write_str(path, bad[b]))
				TH_LOG("%s <- '%s'", knobs[k].name, bad[b]);
			EXPECT_EQ(before, knob_read(&knobs[k]))
				TH_LOG("%s changed by '%s'", knobs[k].name, bad[b]);
		}
		/* below the minimum (zero, where zero is invalid) and above the maximum */
		if (knobs[k].min > 0) {
			writes++;
			EXPECT_EQ(-EINVAL, knob_write(&knobs[k], knobs[k].min - 1))
				TH_LOG("%s <- %ld", knobs[k].name, knobs[k].min - 1);
		}
		writes++;
		EXPECT_EQ(-EINVAL, knob_write(&knobs[k], knobs[k].max + 1))
			TH_LOG("%s <- %ld", knobs[k].name, knobs[k].max + 1);
		EXPECT_EQ(before, knob_read(&knobs[k]));
		/* a good value is taken, and the old one restored */
		EXPECT_EQ(0, write_str(path, "7"));
		EXPECT_EQ(7, knob_read(&knobs[k]));
		snprintf(v, sizeof(v), "%ld", before);
		EXPECT_EQ(0, write_str(path, v));
		EXPECT_EQ(before, knob_read(&knobs[k]));
	}
	ksft_print_msg("stress: bad knob input: %d bad writes to %zu knobs (each must fail with -EINVAL, value kept)\n",
		       writes, NKNOBS);
}

/* Where each busy thread may run now: its affinity within the cpuset */
static int outside_allowed(struct crew *c, int *bad_tid, int *bad_cpu)
{
	for (int i = 0; i < c->n; i++) {
		cpu_set_t allowed;
		int cpu;

		if (sched_getaffinity(c->sh->w[i].tid, sizeof(allowed), &allowed))
			continue;
		cpu = task_cpu_of(c->pid, c->sh->w[i].tid, NULL);
		if (cpu >= 0 && !CPU_ISSET(cpu, &allowed)) {
			*bad_tid = c->sh->w[i].tid;
			*bad_cpu = cpu;
			return 1;
		}
	}
	return 0;
}

static void cpulist_of(const cpu_set_t *s, char *buf, size_t len)
{
	size_t n = 0;

	buf[0] = '\0';
	for (int c = 0; c < CAS_MAX_CPUS && n + 4 < len; c++)
		if (CPU_ISSET(c, s))
			n += snprintf(buf + n, len - n, "%s%d", n ? "," : "", c);
}

/*
 * A busy process aggregated by v2 is moved between cpusets (cgroup v2) of
 * one LLC, another LLC, a single CPU of a third, and all CPUs; on odd
 * changes one thread's affinity is also narrowed to a CPU of the next
 * LLC, which the kernel must take where the cpuset is all CPUs and refuse
 * (EINVAL) where it is one LLC. After each change no thread may be found
 * outside its allowed CPUs. Tolerance: a thread seen outside is looked at
 * again after 50 ms (the CPU /proc shows is where it last ran); only a
 * second sighting counts.
 */
TEST_F_TIMEOUT(stress, cpuset_and_affinity, 3000)
{
	unsigned long long end = deadline_of(CPUSET);
	int r, failed = 0, violations = 0, narrowed = 0;
	struct crew c;
	char buf[256], pid[16], extra[128];

	mkdir(CGROOT, 0755);
	if (read_str(CGROOT "/cgroup.controllers", buf, sizeof(buf)) &&
	    mount("cgroup2", CGROOT, "cgroup2", 0, NULL))
		SKIP(return, "cannot mount cgroup2: %s", strerror(errno));
	if (read_str(CGROOT "/cgroup.controllers", buf, sizeof(buf)) || !strstr(buf, "cpuset"))
		SKIP(return, "no cpuset controller");
	ASSERT_EQ(0, write_str(CGROOT "/cgroup.subtree_control", "+cpuset"));
	rmdir(CGDIR);
	ASSERT_EQ(0, mkdir(CGDIR, 0755));

	crew_start(&c, llc_size(&map, 0), BUSY);
	snprintf(pid, sizeof(pid), "%d", c.pid);
	ASSERT_EQ(0, write_str(CGDIR "/cgroup.procs", pid));
	for (r = 0; r < rounds_of(CPUSET) && now_ns() < end; r++) {
		int k = r % map.nllc, tid, cpu, ret;
		cpu_set_t s;

		switch (r % 4) {
		case 0:
		case 1:
			llc_mask(k, &s);
			break;
		case 2:
			CPU_ZERO(&s);
			CPU_SET(map.first_cpu[k], &s);
			break;
		default:
			CPU_ZERO(&s);
			for (int i = 0; i < map.ncpus; i++)
				CPU_SET(i, &s);
		}
		cpulist_of(&s, buf, sizeof(buf));
		ret = write_str(CGDIR "/cpuset.cpus", buf);
		if (ret) {
			failed++;
			ksft_print_msg("cpuset.cpus <- %s: %s\n", buf, strerror(-ret));
		}
		if (r % 2) {
			/*
			 * One thread to one CPU of the next LLC, the rest to the
			 * cpuset's CPUs. The kernel takes the narrowing only where
			 * the cpuset holds that CPU (the one of all CPUs); where
			 * it is one LLC, the call must fail with EINVAL.
			 */
			int t = r % c.n, to = map.first_cpu[(k + 1) % map.nllc];
			int want = CPU_ISSET(to, &s) ? 0 : EINVAL;
			cpu_set_t one;

			CPU_ZERO(&one);
			CPU_SET(to, &one);
			for (int i = 0; i < c.n; i++) {
				ret = sched_setaffinity(c.sh->w[i].tid, sizeof(one),
							i == t ? &one : &s) ? errno : 0;
				if (ret == (i == t ? want : 0)) {
					narrowed += i == t && !ret;
					continue;
				}
				failed++;
				ksft_print_msg("change %d (%s): affinity of thread %d to %s: %s\n",
					       r, buf, i, i == t ? "one CPU" : "the cpuset",
					       ret ? strerror(ret) : "taken, not refused");
			}
		}
		sleep_ns(30000000ULL);
		if (outside_allowed(&c, &tid, &cpu)) {
			sleep_ns(50000000ULL);
			if (outside_allowed(&c, &tid, &cpu)) {
				violations++;
				ksft_print_msg("change %d (%s): thread %d on cpu%d, outside its CPUs\n",
					       r, buf, tid, cpu);
			}
		}
	}
	EXPECT_EQ(0, waitpid(c.pid, NULL, WNOHANG)) TH_LOG("the busy process died");
	crew_stop(&c);
	EXPECT_EQ(0, rmdir(CGDIR));
	EXPECT_EQ(0, violations);
	snprintf(extra, sizeof(extra), "%d threads narrowed to another LLC, %d sightings outside the allowed CPUs",
		 narrowed, violations);
	report(_metadata, self, CPUSET, r, failed, extra);
}

/*
 * Leaks: after the storms, two kmemleak scans (an object is reported only
 * once it is older than 5 s and unreferenced in a scan). Any report fails:
 * a leak on a path the series does not touch is still a leak in the kernel
 * under test, and kmemleak's backtraces name functions, not files, so a
 * list of "our" paths could not be trusted to catch the series' own. Debug
 * boots also set kmemleak.verbose=1, so each report reaches the console,
 * where the host's splat scan fails it too.
 */
TEST_F_TIMEOUT(stress, kmemleak_after_storms, 900)
{
	char line[512];
	int objects = 0;
	FILE *f;

	if (access(KMEMLEAK, R_OK))
		SKIP(return, "no kmemleak (CONFIG_DEBUG_KMEMLEAK is off; make boot-test CONFIG=debug)");
	ASSERT_EQ(0, write_str(KMEMLEAK, "scan"));
	sleep_ns(6000000000ULL);
	ASSERT_EQ(0, write_str(KMEMLEAK, "scan"));
	f = fopen(KMEMLEAK, "r");
	ASSERT_NE(NULL, f);
	while (fgets(line, sizeof(line), f)) {
		if (strstr(line, "unreferenced object"))
			objects++;
		/* as diagnostics inside the test's own KTAP output (ttyS1) */
		printf("#   kmemleak: %s", line);
	}
	fclose(f);
	ksft_print_msg("stress: kmemleak: %d unreferenced objects after the storms\n", objects);
	EXPECT_EQ(0, objects);
}

int main(int argc, char **argv)
{
	/* first thing: when the exec window storm's new image began */
	unsigned long long t = now_ns();

	/* the exec storms' new images */
	if (argc > 1 && !strcmp(argv[1], "--noop"))
		return 0;
	if (argc > 3 && !strcmp(argv[1], "--exec-window"))
		return exec_window_done(t, atoi(argv[2]), atoi(argv[3]));
	return test_harness_run(argc, argv);
}
