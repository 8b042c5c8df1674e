/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Measurement windows of the cache model (qemu/plugins/llc.c), shared by
 * the plugin and the guest programs that mark them.
 *
 * A mark is one instruction, nopl DISP(%rax) (bytes 0f 1f 80, then DISP
 * as 32 bits little-endian), with DISP = LLC_MARK_MAGIC | op << 12 | id:
 * a no-op for the guest, recognised by the plugin when it translates the
 * instruction. op LLC_MARK_START opens window id (0..4095), LLC_MARK_END
 * closes it; the plugin writes the window's counts per LLC when it
 * closes. Windows may overlap: each is its own pair of snapshots.
 */
#ifndef CAS_LLC_MARK_H
#define CAS_LLC_MARK_H

#define LLC_MARK_MAGIC	0x4c430000u	/* "CL" */
#define LLC_MARK_START	1u
#define LLC_MARK_END	2u
#define LLC_MARK_MAX_ID	4095u

#define LLC_MARK_DISP(op, id)	(LLC_MARK_MAGIC | (op) << 12 | (id))

#ifndef LLC_MARK_PLUGIN
#include <string.h>
#include <sys/mman.h>

/*
 * The id is chosen at run time, the displacement is part of the
 * instruction: write the instruction and a ret into an executable page
 * and call it. TCG notices the write to a page it translated and
 * translates it again, so each call executes the bytes just written.
 * Returns -1 if the page cannot be had (then nothing is marked).
 */
static inline int llc_mark(unsigned int op, unsigned int id)
{
	static unsigned char *stub;
	unsigned int disp = LLC_MARK_DISP(op, id & LLC_MARK_MAX_ID);
	unsigned char code[8] = { 0x0f, 0x1f, 0x80,
		disp & 0xff, disp >> 8 & 0xff, disp >> 16 & 0xff, disp >> 24,
		0xc3 };

	if (!stub) {
		void *p = mmap(NULL, 4096, PROT_READ | PROT_WRITE | PROT_EXEC,
			       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

		if (p == MAP_FAILED)
			return -1;
		stub = p;
	}
	memcpy(stub, code, sizeof(code));
	__atomic_signal_fence(__ATOMIC_SEQ_CST);
	((void (*)(void))stub)();
	return 0;
}
#endif /* LLC_MARK_PLUGIN */
#endif /* CAS_LLC_MARK_H */
