// SPDX-License-Identifier: GPL-2.0
/*
 * A TCG plugin that models one shared last-level cache per LLC of the
 * guest's topology, so a boot can say how many misses and cross-LLC line
 * transfers a placement costs (QEMU itself models no cache).
 *
 *   -plugin BUILD/plugins/libllc.so,map=0:0:1:1,out=FILE[,size=16M][,ways=16][,line=64]
 *
 * map     the LLC of each vCPU, by vCPU index (qemu/topology.sh prints it
 *         from the same -smp it gives QEMU); required
 * out     the counts, a TSV file written as each window closes and at exit
 * size, ways, line
 *         the geometry of every LLC; the defaults are what QEMU 7.2 makes
 *         the guest report for an Intel-vendor qemu64 (CPUID leaf 4:
 *         16 MiB, 16-way, 64-byte lines), which the model self-test
 *         compares with the guest's /sys/devices/system/cpu/cpuN/cache/index3
 *
 * The model: each LLC is set-associative with LRU replacement, indexed
 * by the physical line address the plugin API gives (QEMU 7.2: the RAM
 * block's offset, plus the offset in it, plus the block's region's
 * address in its container: with -numa memdevs node 1's memory appears at
 * twice its guest physical address; apart from ROMs probed at boot, a
 * line of RAM has one such address);
 * every data access of a vCPU (loads and
 * stores, kernel and user; not instruction fetches, not I/O) looks up its
 * LLC. Coherence is MSI-like across LLCs: a store makes the line the
 * only copy (invalidating it in every other LLC); a miss that finds the
 * line in another LLC is a transfer (in for the requester, out for the
 * holder; the line is then shared), any other miss fills from memory.
 * There are no private L1/L2 in front of it, no prefetch, no bandwidth
 * limit, and a miss costs no time: the counts are a placement's cache
 * traffic, not its speed.
 *
 * Windows (qemu/plugins/llc-mark.h): a guest program marks the start and
 * end of a measurement; the plugin snapshots its counters at each mark and
 * writes the difference per LLC when the window closes, so a window
 * counts every access of the whole machine between its two marks.
 *
 * Callbacks may come from several vCPU threads (multi-threaded TCG), so
 * one lock serialises the model; with the harness's thread=single it is
 * never contended.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <qemu-plugin.h>

#define LLC_MARK_PLUGIN
#include "llc-mark.h"

QEMU_PLUGIN_EXPORT int qemu_plugin_version = QEMU_PLUGIN_VERSION;

#define MAX_LLCS	64
#define EXCL		(1ULL << 63)	/* the only copy (in the tag) */

enum { ACC, MISS, XIN, XOUT, FILL, EVICT, INVAL, NR_COUNTS };
/*
 * Every count twice: for all accesses, and for those to user addresses
 * (below the x86-64 canonical hole: user code, or the kernel copying
 * from or to user memory), which a test can predict exactly; an event
 * counts in the space of the access that caused it.
 */
enum { ALL, USER, NR_SPACES };
static const char *const space_name[NR_SPACES] = { "all", "user" };
#define USER_TOP	(1ULL << 47)
#define PAGE_BYTES	4096ULL		/* x86-64's smallest page */
static const char *const count_name[NR_COUNTS] = {
	"accesses", "misses", "xfer_in", "xfer_out", "mem_fills", "evictions",
	"invalidations",
};

struct llc {
	uint64_t *tag;		/* sets * ways; 0 empty, else line + 1 | EXCL */
	uint64_t *stamp;	/* last use, for LRU */
	uint64_t *mru;		/* the way last used: tried first */
	uint64_t clock;
	uint64_t n[NR_SPACES][NR_COUNTS];
};

struct window {
	bool open;
	unsigned int opener;	/* the vCPU that opened it */
	uint64_t start[MAX_LLCS][NR_SPACES][NR_COUNTS];
};

static struct llc *llc;
static unsigned int nr_llcs, nr_vcpus;
static unsigned int *vcpu_llc;
static uint64_t size = 16ULL << 20, ways = 16, line = 64, sets;
static unsigned int line_shift;
static uint64_t unmapped, io;
static struct window *win[LLC_MARK_MAX_ID + 1];
static FILE *out;
static bool locked;

/* A spinning lock: never contended under thread=single, cheaper than a mutex */
static inline void lock(void)
{
	while (__atomic_test_and_set(&locked, __ATOMIC_ACQUIRE))
		;
}

static inline void unlock(void)
{
	__atomic_clear(&locked, __ATOMIC_RELEASE);
}

static uint64_t *way_of(struct llc *c, uint64_t set, uint64_t t)
{
	uint64_t *w = &c->tag[set * ways];

	for (uint64_t i = 0; i < ways; i++)
		if ((w[i] & ~EXCL) == t)
			return &w[i];
	return NULL;
}

static inline void count(struct llc *c, bool user, int k)
{
	c->n[ALL][k]++;
	if (user)
		c->n[USER][k]++;
}

/* One line's access from LLC @me; @t is the line number plus one. */
static void access_line(unsigned int me, uint64_t t, bool store, bool user)
{
	struct llc *c = &llc[me];
	uint64_t set = (t - 1) % sets;
	uint64_t *hit = c->mru && (*c->mru & ~EXCL) == t ? c->mru : way_of(c, set, t);
	bool held = false;

	count(c, user, ACC);
	if (hit) {
		c->mru = hit;
		c->stamp[hit - c->tag] = ++c->clock;
		if (!store || (*hit & EXCL))
			return;
	} else {
		count(c, user, MISS);
	}

	/* Other copies: a store takes the line, a load shares it. */
	for (unsigned int o = 0; o < nr_llcs; o++) {
		uint64_t *w;

		if (o == me || !(w = way_of(&llc[o], set, t)))
			continue;
		if (!hit && !held) {
			count(&llc[o], user, XOUT);
			count(c, user, XIN);
		}
		held = true;
		if (store) {
			*w = 0;
			count(&llc[o], user, INVAL);
		} else {
			*w &= ~EXCL;
		}
	}
	if (hit) {		/* a store to a shared line: now the only copy */
		*hit |= EXCL;
		return;
	}
	if (!held)
		count(c, user, FILL);

	/* Fill: an empty way, else the least recently used. */
	uint64_t *w = &c->tag[set * ways], *s = &c->stamp[set * ways];
	uint64_t v = 0;

	for (uint64_t i = 0; i < ways; i++) {
		if (!w[i]) {
			v = i;
			goto fill;
		}
		if (s[i] < s[v])
			v = i;
	}
	count(c, user, EVICT);
fill:
	w[v] = t | ((store || !held) ? EXCL : 0);
	s[v] = ++c->clock;
	c->mru = &w[v];
}

static void vcpu_mem(unsigned int vcpu, qemu_plugin_meminfo_t info,
		     uint64_t vaddr, void *udata)
{
	struct qemu_plugin_hwaddr *hw = qemu_plugin_get_hwaddr(info, vaddr);
	unsigned int bytes = 1u << qemu_plugin_mem_size_shift(info);
	bool store = qemu_plugin_mem_is_store(info);
	uint64_t pa, first, last, room;

	lock();
	if (!hw || vcpu >= nr_vcpus) {
		unmapped++;
		goto out;
	}
	if (qemu_plugin_hwaddr_is_io(hw)) {
		io++;
		goto out;
	}
	pa = qemu_plugin_hwaddr_phys_addr(hw);
	/*
	 * An access that crosses into the next page: its second part is on
	 * that page's frame, which need not follow the first's. The TLB
	 * holds both pages after the access; were the second missing, QEMU
	 * answers with an I/O handle, which is counted as I/O.
	 */
	room = PAGE_BYTES - (vaddr & (PAGE_BYTES - 1));
	first = pa >> line_shift;
	last = (pa + (bytes < room ? bytes : room) - 1) >> line_shift;
	for (uint64_t l = first; l <= last; l++)
		access_line(vcpu_llc[vcpu], l + 1, store, vaddr < USER_TOP);
	if (bytes > room) {
		hw = qemu_plugin_get_hwaddr(info, vaddr + room);
		if (!hw) {
			unmapped++;
		} else if (qemu_plugin_hwaddr_is_io(hw)) {
			io++;
		} else {
			pa = qemu_plugin_hwaddr_phys_addr(hw);
			first = pa >> line_shift;
			last = (pa + bytes - room - 1) >> line_shift;
			for (uint64_t l = first; l <= last; l++)
				access_line(vcpu_llc[vcpu], l + 1, store, vaddr < USER_TOP);
		}
	}
out:
	unlock();
}

static void write_window(unsigned int id, const struct window *w, unsigned int closer)
{
	for (unsigned int i = 0; i < nr_llcs; i++)
		for (int sp = 0; sp < NR_SPACES; sp++) {
			fprintf(out, "%u\t%u\t%s\t%u\t%u", id, i, space_name[sp], w->opener, closer);
			for (int k = 0; k < NR_COUNTS; k++)
				fprintf(out, "\t%" PRIu64, llc[i].n[sp][k] - w->start[i][sp][k]);
			fputc('\n', out);
		}
	fflush(out);
}

static void vcpu_mark(unsigned int vcpu, void *udata)
{
	unsigned int disp = (uintptr_t)udata;
	unsigned int op = disp >> 12 & 0xf, id = disp & LLC_MARK_MAX_ID;
	struct window *w;

	lock();
	w = win[id];
	if (op == LLC_MARK_START) {
		if (!w)
			w = win[id] = calloc(1, sizeof(*w));
		if (w && w->open) {
			fprintf(out, "# window %u reopened by vCPU %u while open (opened by vCPU %u): its first opening dropped\n",
				id, vcpu, w->opener);
			fflush(out);
		}
		if (w) {
			w->open = true;
			w->opener = vcpu;
			for (unsigned int i = 0; i < nr_llcs; i++)
				memcpy(w->start[i], llc[i].n, sizeof(llc[i].n));
		}
	} else if (op == LLC_MARK_END) {
		if (w && w->open) {
			write_window(id, w, vcpu);
			w->open = false;
		} else {
			fprintf(out, "# window %u closed by vCPU %u without being opened\n", id, vcpu);
			fflush(out);
		}
	}
	unlock();
}

static void tb_trans(qemu_plugin_id_t id, struct qemu_plugin_tb *tb)
{
	size_t n = qemu_plugin_tb_n_insns(tb);

	for (size_t i = 0; i < n; i++) {
		struct qemu_plugin_insn *insn = qemu_plugin_tb_get_insn(tb, i);
		const uint8_t *b = qemu_plugin_insn_data(insn);
		unsigned int disp;

		qemu_plugin_register_vcpu_mem_cb(insn, vcpu_mem, QEMU_PLUGIN_CB_NO_REGS,
						 QEMU_PLUGIN_MEM_RW, NULL);
		if (qemu_plugin_insn_size(insn) != 7 || b[0] != 0x0f || b[1] != 0x1f ||
		    b[2] != 0x80)
			continue;
		disp = b[3] | b[4] << 8 | b[5] << 16 | (unsigned int)b[6] << 24;
		if ((disp & 0xffff0000u) != LLC_MARK_MAGIC)
			continue;
		qemu_plugin_register_vcpu_insn_exec_cb(insn, vcpu_mark, QEMU_PLUGIN_CB_NO_REGS,
						       (void *)(uintptr_t)disp);
	}
}

static void at_exit(qemu_plugin_id_t id, void *udata)
{
	lock();
	fprintf(out, "# the whole boot (window 'boot'); accesses without a guest physical address %" PRIu64
		", to I/O %" PRIu64 "\n", unmapped, io);
	for (unsigned int i = 0; i < nr_llcs; i++)
		for (int sp = 0; sp < NR_SPACES; sp++) {
			fprintf(out, "boot\t%u\t%s\t-\t-", i, space_name[sp]);
			for (int k = 0; k < NR_COUNTS; k++)
				fprintf(out, "\t%" PRIu64, llc[i].n[sp][k]);
			fputc('\n', out);
		}
	for (unsigned int i = 0; i <= LLC_MARK_MAX_ID; i++)
		if (win[i] && win[i]->open)
			fprintf(out, "# window %u still open at exit: not written\n", i);
	fflush(out);
	fclose(out);
	unlock();
}

static int bad(const char *fmt, const char *val)
{
	fprintf(stderr, "llc plugin: error: ");
	fprintf(stderr, fmt, val);
	fputc('\n', stderr);
	return -1;
}

static int parse_size(const char *v, uint64_t *r)
{
	char *end;
	unsigned long long x;

	errno = 0;
	x = strtoull(v, &end, 10);
	if (errno || end == v)
		return -1;
	if (*end == 'K' || *end == 'k')
		x <<= 10, end++;
	else if (*end == 'M' || *end == 'm')
		x <<= 20, end++;
	if (*end || !x)
		return -1;
	*r = x;
	return 0;
}

QEMU_PLUGIN_EXPORT int qemu_plugin_install(qemu_plugin_id_t id, const qemu_info_t *info,
					   int argc, char **argv)
{
	const char *map = NULL, *path = NULL;

	if (!info->system_emulation)
		return bad("%s", "needs system emulation (qemu-system-*)");
	nr_vcpus = info->system.max_vcpus;
	for (int i = 0; i < argc; i++) {
		char *v = strchr(argv[i], '=');

		if (!v)
			return bad("argument '%s' is not NAME=VALUE", argv[i]);
		*v++ = '\0';
		if (!strcmp(argv[i], "map"))
			map = v;
		else if (!strcmp(argv[i], "out"))
			path = v;
		else if (!strcmp(argv[i], "size") && !parse_size(v, &size))
			;
		else if (!strcmp(argv[i], "ways") && !parse_size(v, &ways))
			;
		else if (!strcmp(argv[i], "line") && !parse_size(v, &line))
			;
		else
			return bad("unknown argument or bad value '%s' (map=, out=, size=, ways=, line=)",
				   argv[i]);
	}
	if (!map || !path)
		return bad("%s", "map= (the LLC of each vCPU, colon-separated) and out= are required");
	if (line & (line - 1) || line < 8)
		return bad("%s", "line= must be a power of two of at least 8 bytes");
	for (line_shift = 0; (1ULL << line_shift) < line; line_shift++)
		;
	if (size % (line * ways))
		return bad("%s", "size= must be a multiple of line= x ways=");
	sets = size / (line * ways);

	vcpu_llc = calloc(nr_vcpus, sizeof(*vcpu_llc));
	unsigned int n = 0;
	for (const char *p = map; *p; n++) {
		char *end;
		unsigned long l = strtoul(p, &end, 10);

		if (end == p || (*end && *end != ':') || l >= MAX_LLCS || n >= nr_vcpus)
			return bad("map=%s: expected one LLC number below 64 per vCPU, colon-separated", map);
		vcpu_llc[n] = l;
		if (l + 1 > nr_llcs)
			nr_llcs = l + 1;
		p = *end ? end + 1 : end;
	}
	if (n != nr_vcpus)
		return bad("map=%s: needs exactly one entry per vCPU", map);

	llc = calloc(nr_llcs, sizeof(*llc));
	for (unsigned int i = 0; i < nr_llcs; i++) {
		llc[i].tag = calloc(sets * ways, sizeof(uint64_t));
		llc[i].stamp = calloc(sets * ways, sizeof(uint64_t));
		if (!llc[i].tag || !llc[i].stamp)
			return bad("%s", "out of memory for the caches");
	}
	out = fopen(path, "w");
	if (!out)
		return bad("cannot write out=%s", path);
	fprintf(out, "# cas llc model: llcs=%u size=%" PRIu64 " ways=%" PRIu64 " line=%" PRIu64
		" sets=%" PRIu64 " vcpus=%u map=%s\n", nr_llcs, size, ways, line, sets, nr_vcpus, map);
	fprintf(out, "window\tllc\tspace\topener\tcloser");
	for (int k = 0; k < NR_COUNTS; k++)
		fprintf(out, "\t%s", count_name[k]);
	fputc('\n', out);
	fflush(out);

	qemu_plugin_register_vcpu_tb_trans_cb(id, tb_trans);
	qemu_plugin_register_atexit_cb(id, at_exit, NULL);
	return 0;
}
