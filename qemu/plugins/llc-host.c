// SPDX-License-Identifier: GPL-2.0
/*
 * The cache model's host self-test: qemu/plugins/llc.c, compiled into
 * this program, fed access streams whose counts are known exactly.
 *
 *   llc-host            KTAP on stdout; exit 1 when a case fails
 *
 * The plugin API functions llc.c calls are defined here: an access is a
 * call of its vcpu_mem() with a virtual address that a small page table
 * (this file's) maps to a physical frame, as QEMU's TLB would. The model
 * is deterministic, so most counts are exact; the two stream cases, whose
 * pages sit on pseudo-random frames (a fixed seed) so that sets fill
 * unevenly as in a guest, have a bound on their misses. Every case judges
 * all seven counts in both spaces (all, user), summed over the LLCs, and
 * the cases with several LLCs judge the transfers and invalidations of
 * each LLC; so a model that counts a fill as a transfer, skips the 'all'
 * space, indexes by virtual address, replaces at random or first in
 * first out, forgets to invalidate or charges the wrong LLC fails a
 * named case
 * (qemu/model-hosttest.sh builds such mutants and wants each rejected).
 *
 * Built with -DLLC_SRC='"path/llc.c"' (the model, or a mutant of it) and
 * the installed QEMU's plugin header (make deps fetches its source).
 */
#ifndef LLC_SRC
#define LLC_SRC "llc.c"
#endif
#include LLC_SRC

/* ---- the plugin API, as much of it as llc.c calls */
struct qemu_plugin_hwaddr {
	uint64_t pa;
	bool io;
};

static struct qemu_plugin_hwaddr hw;

/* meminfo here: bits 0-3 the size shift, bit 4 a store */
#define MI_STORE	16u

unsigned int qemu_plugin_mem_size_shift(qemu_plugin_meminfo_t info)
{
	return info & 15;
}

bool qemu_plugin_mem_is_store(qemu_plugin_meminfo_t info)
{
	return info & MI_STORE;
}

bool qemu_plugin_hwaddr_is_io(const struct qemu_plugin_hwaddr *h)
{
	return h->io;
}

uint64_t qemu_plugin_hwaddr_phys_addr(const struct qemu_plugin_hwaddr *h)
{
	return h->pa;
}

/*
 * The page table: regions of virtual pages, each on its own frames, or
 * I/O. Like QEMU 7.2's tlb_plugin_lookup(), which never fails (a TLB
 * miss answers with the last I/O access's data), an address no region
 * maps is I/O here too.
 */
#define PAGE		4096ULL
#define MAX_REGIONS	32

static struct region {
	uint64_t va, npages;
	uint64_t *frame;
	bool io;
} regions[MAX_REGIONS];
static int nregions;

struct qemu_plugin_hwaddr *qemu_plugin_get_hwaddr(qemu_plugin_meminfo_t info, uint64_t vaddr)
{
	hw.pa = 0;
	hw.io = true;
	for (int i = 0; i < nregions; i++) {
		struct region *r = &regions[i];

		if (vaddr >= r->va && vaddr < r->va + r->npages * PAGE) {
			hw.io = r->io;
			if (!r->io)
				hw.pa = r->frame[(vaddr - r->va) / PAGE] * PAGE + vaddr % PAGE;
			break;
		}
	}
	return &hw;
}

/* Never reached here: translation and instruction callbacks */
size_t qemu_plugin_tb_n_insns(const struct qemu_plugin_tb *tb) { abort(); }
struct qemu_plugin_insn *qemu_plugin_tb_get_insn(const struct qemu_plugin_tb *tb, size_t idx) { abort(); }
const void *qemu_plugin_insn_data(const struct qemu_plugin_insn *insn) { abort(); }
size_t qemu_plugin_insn_size(const struct qemu_plugin_insn *insn) { abort(); }
void qemu_plugin_register_vcpu_mem_cb(struct qemu_plugin_insn *insn, qemu_plugin_vcpu_mem_cb_t cb,
				      enum qemu_plugin_cb_flags flags, enum qemu_plugin_mem_rw rw,
				      void *userdata) { abort(); }
void qemu_plugin_register_vcpu_insn_exec_cb(struct qemu_plugin_insn *insn,
					    qemu_plugin_vcpu_udata_cb_t cb,
					    enum qemu_plugin_cb_flags flags, void *userdata) { abort(); }
void qemu_plugin_register_vcpu_tb_trans_cb(qemu_plugin_id_t id, qemu_plugin_vcpu_tb_trans_cb_t cb) { }
void qemu_plugin_register_atexit_cb(qemu_plugin_id_t id, qemu_plugin_udata_cb_t cb, void *userdata) { }

/* ---- the driver */
#define FRAMES		(1ULL << 18)	/* 1 GiB of guest memory */
static uint64_t next_frame = 1;		/* frames handed out in order, or */
static unsigned char used[FRAMES];	/* at random from those not used */
static uint64_t rng = 88172645463325252ULL;

static uint64_t xorshift(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return rng;
}

/* a frame not used yet: the next one, or any of guest memory's */
static uint64_t new_frame(bool scatter)
{
	uint64_t f;

	do
		f = scatter ? 1 + xorshift() % (FRAMES - 1) : next_frame++;
	while (used[f]);
	used[f] = 1;
	return f;
}

static struct region *region(uint64_t va, uint64_t npages)
{
	struct region *r;

	if (nregions == MAX_REGIONS)
		abort();
	r = &regions[nregions++];
	r->va = va;
	r->npages = npages;
	r->frame = calloc(npages, sizeof(*r->frame));
	return r;
}

/* map(va, bytes, scatter): a region on fresh frames, in order or scattered
 * over guest memory (as a guest's pages are: its sets fill unevenly) */
static void map(uint64_t va, uint64_t bytes, bool scatter)
{
	struct region *r = region(va, (bytes + PAGE - 1) / PAGE);

	for (uint64_t i = 0; i < r->npages; i++)
		r->frame[i] = new_frame(scatter);
}

/* map_at(va, frame): one page on a frame of the caller's choice */
static void map_at(uint64_t va, uint64_t frame)
{
	if (frame >= FRAMES || used[frame])
		abort();
	used[frame] = 1;
	region(va, 1)->frame[0] = frame;
}

/* alias(va, of): one more virtual page on the frame of page @of */
static void alias(uint64_t va, uint64_t of)
{
	qemu_plugin_get_hwaddr(0, of);
	if (hw.io)
		abort();
	region(va, 1)->frame[0] = hw.pa / PAGE;
}

/* map_io(va): a page of a device's registers */
static void map_io(uint64_t va)
{
	region(va, 1)->io = true;
}

static void ld(unsigned int vcpu, uint64_t va) { vcpu_mem(vcpu, 3, va, NULL); }
static void st(unsigned int vcpu, uint64_t va) { vcpu_mem(vcpu, 3 | MI_STORE, va, NULL); }

/* the model's counts per LLC at the start of a case */
static uint64_t snap[MAX_LLCS][NR_SPACES][NR_COUNTS];
static uint64_t snap_unmapped, snap_io;

static void begin(void)
{
	for (unsigned int i = 0; i < nr_llcs; i++)
		memcpy(snap[i], llc[i].n, sizeof(llc[i].n));
	snap_unmapped = unmapped;
	snap_io = io;
}

/* a count's change in one LLC (@c >= 0) or all of them (@c < 0) */
static uint64_t delta_of(int c, int sp, int k)
{
	uint64_t v = 0;

	for (unsigned int i = 0; i < nr_llcs; i++)
		if (c < 0 || (unsigned int)c == i)
			v += llc[i].n[sp][k] - snap[i][sp][k];
	return v;
}

static uint64_t delta(int sp, int k)
{
	return delta_of(-1, sp, k);
}

static int ncase, nfailed, bad_case;

static void check(const char *what, uint64_t v, uint64_t min, uint64_t max)
{
	if (v >= min && v <= max)
		return;
	printf("    # %s %" PRIu64 ", expected %" PRIu64 "..%" PRIu64 "\n", what, v, min, max);
	bad_case = 1;
}

/* want(space, count, min, max): one count of the current case, all LLCs */
static void want(int sp, int k, uint64_t min, uint64_t max)
{
	char what[64];

	snprintf(what, sizeof(what), "%s %s", space_name[sp], count_name[k]);
	check(what, delta(sp, k), min, max);
}

/* want_llc(llc, count, v): one LLC's count, exact, in both spaces */
static void want_llc(int c, int k, uint64_t v)
{
	char what[64];

	for (int sp = 0; sp < NR_SPACES; sp++) {
		snprintf(what, sizeof(what), "LLC %d %s %s", c, space_name[sp], count_name[k]);
		check(what, delta_of(c, sp, k), v, v);
	}
}

/* exact(a, m, xi, xo, f, e, i): every count of a case of user accesses
 * only, the same in both spaces */
static void exact(uint64_t a, uint64_t m, uint64_t xi, uint64_t xo, uint64_t f,
		  uint64_t e, uint64_t i)
{
	const uint64_t v[NR_COUNTS] = { a, m, xi, xo, f, e, i };

	for (int sp = 0; sp < NR_SPACES; sp++)
		for (int k = 0; k < NR_COUNTS; k++)
			want(sp, k, v[k], v[k]);
}

static void report(const char *name)
{
	ncase++;
	printf("%s %d %s\n", bad_case ? "not ok" : "ok", ncase, name);
	nfailed += bad_case;
	bad_case = 0;
}

#define N	2000ULL		/* handoffs of a line */
#define UVA(x)	(0x10000000ULL + (x))			/* user addresses */
#define KVA(x)	(0xffff888000000000ULL + (x))		/* the kernel's */

/* N handoffs of the line at @va between vCPUs @a and @b: a load, then a
 * store, by each in turn */
static void handoffs(uint64_t va, unsigned int a, unsigned int b)
{
	begin();
	for (uint64_t i = 0; i < N; i++) {
		ld(i % 2 ? b : a, va);
		st(i % 2 ? b : a, va);
	}
}

/* an array of @bytes at @va on scattered frames, written once by vCPU 0,
 * then read one byte a line three times: the reads' misses (the case
 * begins after the writing pass) */
static uint64_t stream(uint64_t va, uint64_t bytes, uint64_t *reads)
{
	uint64_t lines = bytes / line;

	map(va, bytes, true);
	for (uint64_t l = 0; l < lines; l++)
		st(0, va + l * line);
	begin();
	for (int pass = 0; pass < 3; pass++)
		for (uint64_t l = 0; l < lines; l++)
			ld(0, va + l * line);
	*reads = 3 * lines;
	return delta(USER, MISS);
}

int main(void)
{
	char a0[] = "map=0:0:0:0:1:1:1:1:2:2:2:2:3:3:3:3", a1[] = "out=/dev/null";
	char *argv[] = { a0, a1 };
	qemu_info_t info = { .system_emulation = true };
	uint64_t m, reads, stride;

	info.system.max_vcpus = info.system.smp_vcpus = 16;
	if (qemu_plugin_install(1, &info, 2, argv))
		return 2;
	printf("KTAP version 1\n1..12\n");

	/* a line written in turn by vCPUs of two LLCs: each load after the
	 * other's store is one transfer (in for the loader's LLC, out for the
	 * other), each store after it an invalidation of the other's copy */
	map(UVA(0), PAGE, false);
	handoffs(UVA(64), 0, 4);
	exact(2 * N, N, N - 1, N - 1, 1, 0, N - 1);
	want_llc(0, XIN, N / 2 - 1);	/* LLC 0 loads N/2 times, the first a fill */
	want_llc(1, XIN, N / 2);
	want_llc(0, XOUT, N / 2);
	want_llc(1, XOUT, N / 2 - 1);
	want_llc(0, INVAL, N / 2);	/* invalidated by each store of LLC 1 */
	want_llc(1, INVAL, N / 2 - 1);
	report("transfers_between_llcs");

	/* the same within one LLC: one fill, nothing else */
	handoffs(UVA(128), 0, 1);
	exact(2 * N, 1, 0, 0, 1, 0, 0);
	report("transfers_within_llc");

	/* the kernel's accesses count in 'all' only */
	map(KVA(0), PAGE, false);
	handoffs(KVA(64), 0, 4);
	{
		const uint64_t v[NR_COUNTS] = { 2 * N, N, N - 1, N - 1, 1, 0, N - 1 };

		for (int k = 0; k < NR_COUNTS; k++) {
			want(ALL, k, v[k], v[k]);
			want(USER, k, 0, 0);
		}
	}
	report("kernel_counts_in_all_only");

	/* one frame under two virtual pages: written through one on LLC 0,
	 * read through the other on LLC 1, it is one line (physical index) */
	map(UVA(1ULL << 30), PAGE, false);
	alias(UVA(2ULL << 30), UVA(1ULL << 30));
	begin();
	for (uint64_t i = 0; i < N; i++) {
		st(0, UVA((1ULL << 30) + 192));
		ld(4, UVA((2ULL << 30) + 192));
	}
	exact(2 * N, N + 1, N, N, 1, 0, N - 1);
	want_llc(1, XIN, N);
	want_llc(0, XOUT, N);
	want_llc(1, INVAL, N - 1);
	report("shared_through_two_mappings");

	/* three LLCs: read on two, then written on a third: one transfer
	 * for the second reader, one for the writer, both copies invalidated */
	begin();
	ld(0, UVA(256));
	ld(4, UVA(256));
	st(8, UVA(256));
	exact(3, 3, 2, 2, 1, 0, 2);
	want_llc(1, XIN, 1);
	want_llc(2, XIN, 1);
	want_llc(0, INVAL, 1);
	want_llc(1, INVAL, 1);
	want_llc(2, INVAL, 0);
	report("three_llcs_one_writer");

	/* one set: ways + 1 lines a set apart fill it and evict the least
	 * recently used; a line touched again is not the one evicted (LRU,
	 * not first in, first out) */
	stride = sets * line / PAGE;		/* pages between two lines of a set */
	for (uint64_t j = 0; j <= ways; j++)
		map_at(UVA((16ULL << 30) + j * PAGE), 100000 + j * stride);
	begin();
	for (uint64_t j = 0; j < ways; j++)
		ld(0, UVA((16ULL << 30) + j * PAGE));
	ld(0, UVA(16ULL << 30));			/* line 0 again: a hit */
	ld(0, UVA((16ULL << 30) + ways * PAGE));	/* evicts line 1 */
	ld(0, UVA(16ULL << 30));			/* still there */
	ld(0, UVA((16ULL << 30) + PAGE));		/* line 1: evicts line 2 */
	exact(ways + 4, ways + 2, 0, 0, ways + 2, 2, 0);
	report("lru_in_one_set");

	/* an 8-byte store across a page boundary, the next page on a frame
	 * that does not follow: its second half is that frame's first line,
	 * whose copy in LLC 1 it invalidates, and which LLC 1 then takes
	 * back as a transfer */
	map(UVA(12ULL << 30), PAGE, false);
	next_frame += 100;
	map(UVA((12ULL << 30) + PAGE), PAGE, false);
	begin();
	ld(4, UVA((12ULL << 30) + PAGE));
	st(0, UVA((12ULL << 30) + PAGE - 4));
	ld(4, UVA((12ULL << 30) + PAGE));
	exact(4, 4, 2, 2, 2, 0, 1);
	want_llc(1, INVAL, 1);
	report("access_across_a_page");

	/* across two lines inside one page: both lines */
	begin();
	st(0, UVA((12ULL << 30) + 60));
	exact(2, 2, 0, 0, 2, 0, 0);
	report("access_across_two_lines");

	/* across into a device's page: the first part counts, the second is
	 * I/O */
	map(UVA(13ULL << 30), PAGE, false);
	map_io(UVA((13ULL << 30) + PAGE));
	begin();
	st(0, UVA((13ULL << 30) + PAGE - 4));
	exact(1, 1, 0, 0, 1, 0, 0);
	check("io", io - snap_io, 1, 1);
	report("access_across_into_io");

	/* what the model cannot place: an address without RAM behind it
	 * (QEMU answers as for I/O) and a vCPU outside the map are left out,
	 * each counted as such */
	begin();
	ld(0, 0x7000000000ULL);
	ld(16, UVA(64));
	exact(0, 0, 0, 0, 0, 0, 0);
	check("io", io - snap_io, 1, 1);
	check("unmapped", unmapped - snap_unmapped, 1, 1);
	report("unplaced_accesses_left_out");

	/* last: these fill LLC 0, so that cases after them would evict */
	/* an array twice the LLC on scattered frames, read three times by
	 * one vCPU: LRU misses nearly every read (sets fill unevenly), every
	 * miss fills from memory and evicts a line, none transfers */
	m = stream(UVA(4ULL << 30), 2 * size, &reads);
	exact(reads, m, 0, 0, m, m, 0);
	check("user misses", m, reads * 99 / 100, reads);
	printf("    # twice the LLC: %" PRIu64 " misses of %" PRIu64 " reads\n", m, reads);
	report("stream_twice_the_llc");

	/* half the LLC, scattered: after the writing pass nearly all hits */
	m = stream(UVA(8ULL << 30), size / 2, &reads);
	exact(reads, m, 0, 0, m, m, 0);
	check("user misses", m, 0, reads / 100);
	printf("    # half the LLC: %" PRIu64 " misses of %" PRIu64 " reads\n", m, reads);
	report("stream_half_the_llc");

	printf("# llc-host: %d passed, %d failed\n", ncase - nfailed, nfailed);
	return nfailed ? 1 : 0;
}
