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
 * unevenly as in a guest, have bounds. Every case judges every count it
 * touches, in both spaces (all, user), so a model that counts a fill as
 * a transfer, skips the 'all' space, indexes by virtual address, replaces
 * at random or forgets to invalidate fails a named case
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

/* The page table: regions of virtual pages, each on its own frames */
#define PAGE		4096ULL
#define MAX_REGIONS	16

static struct region {
	uint64_t va, npages;
	uint64_t *frame;
} regions[MAX_REGIONS];
static int nregions;

struct qemu_plugin_hwaddr *qemu_plugin_get_hwaddr(qemu_plugin_meminfo_t info, uint64_t vaddr)
{
	for (int i = 0; i < nregions; i++) {
		struct region *r = &regions[i];

		if (vaddr >= r->va && vaddr < r->va + r->npages * PAGE) {
			uint64_t p = (vaddr - r->va) / PAGE;

			hw.pa = r->frame[p] * PAGE + vaddr % PAGE;
			hw.io = false;
			return &hw;
		}
	}
	return NULL;
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

/* map(va, bytes, scatter): a region on fresh frames, in order or scattered
 * over guest memory (as a guest's pages are: its sets fill unevenly) */
static void map(uint64_t va, uint64_t bytes, bool scatter)
{
	struct region *r = &regions[nregions++];

	r->va = va;
	r->npages = (bytes + PAGE - 1) / PAGE;
	r->frame = calloc(r->npages, sizeof(*r->frame));
	for (uint64_t i = 0; i < r->npages; i++)
		r->frame[i] = new_frame(scatter);
}

/* alias(va, of): one more virtual page on the frame of page @of */
static void alias(uint64_t va, uint64_t of)
{
	struct region *r = &regions[nregions++];

	r->va = va;
	r->npages = 1;
	r->frame = calloc(1, sizeof(*r->frame));
	qemu_plugin_get_hwaddr(0, of);
	r->frame[0] = hw.pa / PAGE;
}

static void ld(unsigned int vcpu, uint64_t va) { vcpu_mem(vcpu, 3, va, NULL); }
static void st(unsigned int vcpu, uint64_t va) { vcpu_mem(vcpu, 3 | MI_STORE, va, NULL); }

/* the model's counts summed over its LLCs, and their change over a case */
static uint64_t snap[NR_SPACES][NR_COUNTS];

static void begin(void)
{
	memset(snap, 0, sizeof(snap));
	for (unsigned int i = 0; i < nr_llcs; i++)
		for (int sp = 0; sp < NR_SPACES; sp++)
			for (int k = 0; k < NR_COUNTS; k++)
				snap[sp][k] += llc[i].n[sp][k];
}

static uint64_t delta(int sp, int k)
{
	uint64_t v = 0;

	for (unsigned int i = 0; i < nr_llcs; i++)
		v += llc[i].n[sp][k];
	return v - snap[sp][k];
}

static int ncase, nfailed, bad_case;

/* want(space, count, min, max): one count of the current case */
static void want(int sp, int k, uint64_t min, uint64_t max)
{
	uint64_t v = delta(sp, k);

	if (v >= min && v <= max)
		return;
	printf("    # %s %s %" PRIu64 ", expected %" PRIu64 "..%" PRIu64 "\n",
	       space_name[sp], count_name[k], v, min, max);
	bad_case = 1;
}

/* exact in both spaces (a case of user accesses only) */
static void both(int k, uint64_t v)
{
	want(USER, k, v, v);
	want(ALL, k, v, v);
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

int main(void)
{
	char a0[] = "map=0:0:0:0:1:1:1:1:2:2:2:2:3:3:3:3", a1[] = "out=/dev/null";
	char *argv[] = { a0, a1 };
	qemu_info_t info = { .system_emulation = true };
	uint64_t lines, l;

	info.system.max_vcpus = info.system.smp_vcpus = 16;
	if (qemu_plugin_install(1, &info, 2, argv))
		return 2;
	printf("KTAP version 1\n1..9\n");

	/* a line written in turn by vCPUs of two LLCs: each load after the
	 * other's store is one transfer, each store after it an invalidation */
	map(UVA(0), PAGE, false);
	begin();
	for (uint64_t i = 0; i < N; i++) {
		ld(i % 2 ? 4 : 0, UVA(64));
		st(i % 2 ? 4 : 0, UVA(64));
	}
	both(ACC, 2 * N);
	both(MISS, N);
	both(XIN, N - 1);
	both(XOUT, N - 1);
	both(FILL, 1);
	both(INVAL, N - 1);
	both(EVICT, 0);
	report("transfers_between_llcs");

	/* the same within one LLC: one fill, nothing else */
	begin();
	for (uint64_t i = 0; i < N; i++) {
		ld(i % 2, UVA(128));
		st(i % 2, UVA(128));
	}
	both(ACC, 2 * N);
	both(MISS, 1);
	both(FILL, 1);
	both(XIN, 0);
	both(INVAL, 0);
	report("transfers_within_llc");

	/* the kernel's accesses count in 'all' only */
	map(KVA(0), PAGE, false);
	begin();
	for (uint64_t i = 0; i < N; i++) {
		ld(i % 2 ? 4 : 0, KVA(64));
		st(i % 2 ? 4 : 0, KVA(64));
	}
	want(ALL, ACC, 2 * N, 2 * N);
	want(ALL, XIN, N - 1, N - 1);
	want(ALL, FILL, 1, 1);
	want(USER, ACC, 0, 0);
	want(USER, XIN, 0, 0);
	want(USER, MISS, 0, 0);
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
	both(ACC, 2 * N);
	both(MISS, N + 1);
	both(FILL, 1);
	both(XIN, N);
	both(INVAL, N - 1);
	report("shared_through_two_mappings");

	/* three LLCs: read on two, then written on a third: one transfer
	 * for the second reader, one for the writer, two copies invalidated */
	begin();
	ld(0, UVA(256));
	ld(4, UVA(256));
	st(8, UVA(256));
	both(ACC, 3);
	both(MISS, 3);
	both(FILL, 1);
	both(XIN, 2);
	both(INVAL, 2);
	report("three_llcs_one_writer");

	/* an array twice the LLC on scattered frames, written once, read one
	 * byte a line three times by one vCPU: LRU misses nearly every read
	 * (sets fill unevenly), every miss fills from memory, none transfers */
	lines = 2 * size / line;
	map(UVA(4ULL << 30), 2 * size, true);
	for (l = 0; l < lines; l++)
		st(0, UVA((4ULL << 30) + l * line));
	begin();
	for (int pass = 0; pass < 3; pass++)
		for (l = 0; l < lines; l++)
			ld(0, UVA((4ULL << 30) + l * line));
	both(ACC, 3 * lines);
	want(USER, MISS, 3 * lines * 99 / 100, 3 * lines);
	want(USER, FILL, delta(USER, MISS), delta(USER, MISS));
	want(ALL, MISS, delta(USER, MISS), delta(USER, MISS));
	both(XIN, 0);
	printf("    # twice the LLC: %" PRIu64 " misses of %" PRIu64 " reads\n",
	       delta(USER, MISS), 3 * lines);
	report("stream_twice_the_llc");

	/* half the LLC, scattered: after the writing pass nearly all hits */
	lines = size / 2 / line;
	map(UVA(8ULL << 30), size / 2, true);
	for (l = 0; l < lines; l++)
		st(0, UVA((8ULL << 30) + l * line));
	begin();
	for (int pass = 0; pass < 3; pass++)
		for (l = 0; l < lines; l++)
			ld(0, UVA((8ULL << 30) + l * line));
	both(ACC, 3 * lines);
	want(USER, MISS, 0, 3 * lines / 100);
	want(ALL, MISS, delta(USER, MISS), delta(USER, MISS));
	both(XIN, 0);
	printf("    # half the LLC: %" PRIu64 " misses of %" PRIu64 " reads\n",
	       delta(USER, MISS), 3 * lines);
	report("stream_half_the_llc");

	/* an 8-byte store across a page boundary, the next page on a frame
	 * that does not follow: its second half is that frame's first line,
	 * which a load on another LLC then takes as a transfer */
	map(UVA(12ULL << 30), PAGE, false);
	next_frame += 100;
	map(UVA((12ULL << 30) + PAGE), PAGE, false);
	begin();
	st(0, UVA((12ULL << 30) + PAGE - 4));
	ld(4, UVA((12ULL << 30) + PAGE));
	both(ACC, 3);
	both(FILL, 2);
	both(XIN, 1);
	report("access_across_a_page");

	/* an access the model cannot place (no physical address) is left out
	 * and counted as such, not charged to a line */
	begin();
	l = unmapped;
	ld(0, 0x7000000000ULL);
	both(ACC, 0);
	if (unmapped != l + 1) {
		printf("    # unmapped %" PRIu64 ", expected %" PRIu64 "\n", unmapped, l + 1);
		bad_case = 1;
	}
	report("unplaced_access_left_out");

	printf("# llc-host: %d passed, %d failed\n", ncase - nfailed, nfailed);
	return nfailed ? 1 : 0;
}
