// SPDX-License-Identifier: GPL-2.0
/*
 * tcg-insns.c - a QEMU TCG plugin for bench/bench-insns: what the guest's
 * kernel executes inside the measured calls of tests/harness/ddl_qbench.c,
 * every function the qdisc calls included.
 *
 * The harness puts each batch of enqueues, and each batch of dequeues,
 * between two marks: "nopl TAG(%rax)", bytes 0f 1f 80 and a 32-bit tag
 * (ENQ, DEQ, then END).  The plugin finds them in the code it sees
 * translated and opens or closes a window of that virtual CPU when one
 * runs; no address is needed.  For every translation block of the kernel
 * (addresses in the upper half) it counts the runs and the memory accesses
 * made while its CPU was in an enqueue window, and those in a dequeue
 * window.  Written to out=FILE when QEMU exits: a line "# windows ENQ DEQ"
 * (how many of each opened), then one block a line, "ADDRESS INSNS
 * ENQ_RUNS ENQ_ACCESSES DEQ_RUNS DEQ_ACCESSES" (address in hex), blocks
 * that never ran in a window left out.  The harness's own blocks are in
 * the file too (the loop around the calls): the script leaves them out by
 * their symbol.
 *
 * The plugin API of QEMU 7.2 (version 1, Debian 12's QEMU) is declared
 * here, the few calls it needs, so that no QEMU source is needed to build
 * it:
 *
 *   gcc -O2 -shared -fPIC -o tcg-insns.so bench/tcg-insns.c
 *
 * That API's inline counters cannot be turned off outside a window, so
 * every kernel block calls back at each run and each memory access: the
 * guest runs several times slower than without the plugin.  Blocks
 * translated again (after a flush) add to the same record.
 */

#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef uint64_t qemu_plugin_id_t;
typedef uint32_t qemu_plugin_meminfo_t;
struct qemu_plugin_tb;
struct qemu_plugin_insn;
struct qemu_info;

enum qemu_plugin_cb_flags { QEMU_PLUGIN_CB_NO_REGS };
enum qemu_plugin_mem_rw {
	QEMU_PLUGIN_MEM_R = 1,
	QEMU_PLUGIN_MEM_W,
	QEMU_PLUGIN_MEM_RW,
};

typedef void (*tcg_insns_trans_cb)(qemu_plugin_id_t id,
				   struct qemu_plugin_tb *tb);
typedef void (*tcg_insns_exit_cb)(qemu_plugin_id_t id, void *data);
typedef void (*tcg_insns_udata_cb)(unsigned int vcpu, void *data);
typedef void (*tcg_insns_mem_cb)(unsigned int vcpu, qemu_plugin_meminfo_t info,
				 uint64_t vaddr, void *data);

void qemu_plugin_register_vcpu_tb_trans_cb(qemu_plugin_id_t id,
					   tcg_insns_trans_cb cb);
void qemu_plugin_register_atexit_cb(qemu_plugin_id_t id,
				    tcg_insns_exit_cb cb, void *data);
size_t qemu_plugin_tb_n_insns(const struct qemu_plugin_tb *tb);
uint64_t qemu_plugin_tb_vaddr(const struct qemu_plugin_tb *tb);
struct qemu_plugin_insn *qemu_plugin_tb_get_insn(const struct qemu_plugin_tb *tb,
						 size_t idx);
const void *qemu_plugin_insn_data(const struct qemu_plugin_insn *insn);
size_t qemu_plugin_insn_size(const struct qemu_plugin_insn *insn);
void qemu_plugin_register_vcpu_tb_exec_cb(struct qemu_plugin_tb *tb,
					  tcg_insns_udata_cb cb,
					  enum qemu_plugin_cb_flags flags,
					  void *data);
void qemu_plugin_register_vcpu_insn_exec_cb(struct qemu_plugin_insn *insn,
					    tcg_insns_udata_cb cb,
					    enum qemu_plugin_cb_flags flags,
					    void *data);
void qemu_plugin_register_vcpu_mem_cb(struct qemu_plugin_insn *insn,
				      tcg_insns_mem_cb cb,
				      enum qemu_plugin_cb_flags flags,
				      enum qemu_plugin_mem_rw rw, void *data);

__attribute__((visibility("default"))) int qemu_plugin_version = 1;

#define TCG_INSNS_KERNEL	0xffff800000000000ULL
#define TCG_INSNS_BUCKETS	(1U << 20)
#define TCG_INSNS_VCPUS		64

/* The marks' tags, as tests/harness/ddl_qbench.c writes them. */
#define TCG_INSNS_MARK_END	0x71628e00U
#define TCG_INSNS_MARK_ENQ	0x71628e01U
#define TCG_INSNS_MARK_DEQ	0x71628e02U

/* Windows: none, enqueue, dequeue; a block's counters per window. */
enum { TCG_INSNS_OUT, TCG_INSNS_ENQ, TCG_INSNS_DEQ };

struct tcg_insns_block {
	uint64_t addr;
	uint64_t runs[2];
	uint64_t accesses[2];
	size_t insns;
	struct tcg_insns_block *next;
};

static struct tcg_insns_block **tcg_insns_table;
static pthread_mutex_t tcg_insns_lock = PTHREAD_MUTEX_INITIALIZER;
static char tcg_insns_out[4096] = "tcg-insns.txt";
/* Per virtual CPU: the window it is in. */
static unsigned char tcg_insns_win[TCG_INSNS_VCPUS];
static uint64_t tcg_insns_windows[2];

/* The record of the block at @addr with @insns instructions; NULL if none
 * can be had (the block then goes uncounted). */
static struct tcg_insns_block *tcg_insns_find(uint64_t addr, size_t insns)
{
	struct tcg_insns_block **head, *b;

	head = &tcg_insns_table[(addr >> 2) & (TCG_INSNS_BUCKETS - 1)];
	pthread_mutex_lock(&tcg_insns_lock);
	for (b = *head; b; b = b->next)
		if (b->addr == addr && b->insns == insns)
			break;
	if (!b) {
		b = calloc(1, sizeof(*b));
		if (b) {
			b->addr = addr;
			b->insns = insns;
			b->next = *head;
			*head = b;
		}
	}
	pthread_mutex_unlock(&tcg_insns_lock);
	return b;
}

static void tcg_insns_run(unsigned int vcpu, void *data)
{
	struct tcg_insns_block *b = data;
	unsigned int w;

	if (vcpu < TCG_INSNS_VCPUS && (w = tcg_insns_win[vcpu]))
		b->runs[w - 1]++;
}

static void tcg_insns_access(unsigned int vcpu, qemu_plugin_meminfo_t info,
			     uint64_t vaddr, void *data)
{
	struct tcg_insns_block *b = data;
	unsigned int w;

	if (vcpu < TCG_INSNS_VCPUS && (w = tcg_insns_win[vcpu]))
		b->accesses[w - 1]++;
}

/* A mark ran: @data is the window it opens, or TCG_INSNS_OUT. */
static void tcg_insns_mark(unsigned int vcpu, void *data)
{
	unsigned int w = (uintptr_t)data;

	if (vcpu >= TCG_INSNS_VCPUS)
		return;
	tcg_insns_win[vcpu] = w;
	if (w)
		__atomic_fetch_add(&tcg_insns_windows[w - 1], 1,
				   __ATOMIC_RELAXED);
}

/* The window @insn's mark opens (TCG_INSNS_OUT: it closes one), or -1 if
 * it is no mark. */
static int tcg_insns_is_mark(const struct qemu_plugin_insn *insn)
{
	const unsigned char *p = qemu_plugin_insn_data(insn);
	uint32_t tag;

	if (qemu_plugin_insn_size(insn) != 7 || p[0] != 0x0f || p[1] != 0x1f ||
	    p[2] != 0x80)
		return -1;
	tag = p[3] | p[4] << 8 | p[5] << 16 | (uint32_t)p[6] << 24;
	switch (tag) {
	case TCG_INSNS_MARK_END:
		return TCG_INSNS_OUT;
	case TCG_INSNS_MARK_ENQ:
		return TCG_INSNS_ENQ;
	case TCG_INSNS_MARK_DEQ:
		return TCG_INSNS_DEQ;
	}
	return -1;
}

static void tcg_insns_trans(qemu_plugin_id_t id, struct qemu_plugin_tb *tb)
{
	uint64_t addr = qemu_plugin_tb_vaddr(tb);
	size_t n = qemu_plugin_tb_n_insns(tb), i;
	struct tcg_insns_block *b;
	int w;

	if (addr < TCG_INSNS_KERNEL)
		return;
	b = tcg_insns_find(addr, n);
	if (!b)
		return;
	qemu_plugin_register_vcpu_tb_exec_cb(tb, tcg_insns_run,
					     QEMU_PLUGIN_CB_NO_REGS, b);
	for (i = 0; i < n; i++) {
		struct qemu_plugin_insn *insn = qemu_plugin_tb_get_insn(tb, i);

		w = tcg_insns_is_mark(insn);
		if (w >= 0)
			qemu_plugin_register_vcpu_insn_exec_cb(insn,
				tcg_insns_mark, QEMU_PLUGIN_CB_NO_REGS,
				(void *)(uintptr_t)w);
		qemu_plugin_register_vcpu_mem_cb(insn, tcg_insns_access,
						 QEMU_PLUGIN_CB_NO_REGS,
						 QEMU_PLUGIN_MEM_RW, b);
	}
}

static void tcg_insns_exit(qemu_plugin_id_t id, void *data)
{
	struct tcg_insns_block *b;
	FILE *f = fopen(tcg_insns_out, "w");
	uint32_t i;

	if (!f) {
		perror(tcg_insns_out);
		return;
	}
	fprintf(f, "# windows %llu %llu\n",
		(unsigned long long)tcg_insns_windows[0],
		(unsigned long long)tcg_insns_windows[1]);
	for (i = 0; i < TCG_INSNS_BUCKETS; i++)
		for (b = tcg_insns_table[i]; b; b = b->next)
			if (b->runs[0] || b->runs[1])
				fprintf(f, "%llx %zu %llu %llu %llu %llu\n",
					(unsigned long long)b->addr, b->insns,
					(unsigned long long)b->runs[0],
					(unsigned long long)b->accesses[0],
					(unsigned long long)b->runs[1],
					(unsigned long long)b->accesses[1]);
	fclose(f);
}

__attribute__((visibility("default")))
int qemu_plugin_install(qemu_plugin_id_t id, const struct qemu_info *info,
			int argc, char **argv)
{
	int i;

	for (i = 0; i < argc; i++)
		if (!strncmp(argv[i], "out=", 4))
			snprintf(tcg_insns_out, sizeof(tcg_insns_out), "%s",
				 argv[i] + 4);
	tcg_insns_table = calloc(TCG_INSNS_BUCKETS, sizeof(*tcg_insns_table));
	if (!tcg_insns_table)
		return -1;
	qemu_plugin_register_vcpu_tb_trans_cb(id, tcg_insns_trans);
	qemu_plugin_register_atexit_cb(id, tcg_insns_exit, NULL);
	return 0;
}
