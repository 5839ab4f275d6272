// SPDX-License-Identifier: GPL-2.0
/*
 * tcg-insns.c - a QEMU TCG plugin for bench/bench-insns: for every
 * translation block of the guest's kernel (addresses in the upper half),
 * how often it ran, how many instructions it holds and how many memory
 * accesses its runs made.  Written to out=FILE when QEMU exits, one block
 * a line: "ADDRESS INSNS RUNS ACCESSES" (address in hex).
 *
 * The plugin API of QEMU 7.2 (version 1, Debian 12's QEMU) is declared
 * here, the few calls it needs, so that no QEMU source is needed to build
 * it:
 *
 *   gcc -O2 -shared -fPIC -o tcg-insns.so bench/tcg-insns.c
 *
 * Counting is inline (no callback per block), so the guest runs at about
 * half its usual speed.  Blocks translated again (after a flush) add to
 * the same record.
 */

#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef uint64_t qemu_plugin_id_t;
struct qemu_plugin_tb;
struct qemu_plugin_insn;
struct qemu_info;

enum qemu_plugin_op { QEMU_PLUGIN_INLINE_ADD_U64 };
enum qemu_plugin_mem_rw {
	QEMU_PLUGIN_MEM_R = 1,
	QEMU_PLUGIN_MEM_W,
	QEMU_PLUGIN_MEM_RW,
};

typedef void (*tcg_insns_trans_cb)(qemu_plugin_id_t id,
				   struct qemu_plugin_tb *tb);
typedef void (*tcg_insns_exit_cb)(qemu_plugin_id_t id, void *data);

void qemu_plugin_register_vcpu_tb_trans_cb(qemu_plugin_id_t id,
					   tcg_insns_trans_cb cb);
void qemu_plugin_register_atexit_cb(qemu_plugin_id_t id,
				    tcg_insns_exit_cb cb, void *data);
size_t qemu_plugin_tb_n_insns(const struct qemu_plugin_tb *tb);
uint64_t qemu_plugin_tb_vaddr(const struct qemu_plugin_tb *tb);
struct qemu_plugin_insn *qemu_plugin_tb_get_insn(const struct qemu_plugin_tb *tb,
						 size_t idx);
void qemu_plugin_register_vcpu_tb_exec_inline(struct qemu_plugin_tb *tb,
					      enum qemu_plugin_op op,
					      void *ptr, uint64_t imm);
void qemu_plugin_register_vcpu_mem_inline(struct qemu_plugin_insn *insn,
					  enum qemu_plugin_mem_rw rw,
					  enum qemu_plugin_op op,
					  void *ptr, uint64_t imm);

__attribute__((visibility("default"))) int qemu_plugin_version = 1;

#define TCG_INSNS_KERNEL	0xffff800000000000ULL
#define TCG_INSNS_BUCKETS	(1U << 20)

struct tcg_insns_block {
	uint64_t addr;
	uint64_t runs;
	uint64_t accesses;
	size_t insns;
	struct tcg_insns_block *next;
};

static struct tcg_insns_block **tcg_insns_table;
static pthread_mutex_t tcg_insns_lock = PTHREAD_MUTEX_INITIALIZER;
static char tcg_insns_out[4096] = "tcg-insns.txt";

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

static void tcg_insns_trans(qemu_plugin_id_t id, struct qemu_plugin_tb *tb)
{
	uint64_t addr = qemu_plugin_tb_vaddr(tb);
	size_t n = qemu_plugin_tb_n_insns(tb), i;
	struct tcg_insns_block *b;

	if (addr < TCG_INSNS_KERNEL)
		return;
	b = tcg_insns_find(addr, n);
	if (!b)
		return;
	qemu_plugin_register_vcpu_tb_exec_inline(tb, QEMU_PLUGIN_INLINE_ADD_U64,
						 &b->runs, 1);
	for (i = 0; i < n; i++)
		qemu_plugin_register_vcpu_mem_inline(qemu_plugin_tb_get_insn(tb, i),
						     QEMU_PLUGIN_MEM_RW,
						     QEMU_PLUGIN_INLINE_ADD_U64,
						     &b->accesses, 1);
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
	for (i = 0; i < TCG_INSNS_BUCKETS; i++)
		for (b = tcg_insns_table[i]; b; b = b->next)
			if (b->runs)
				fprintf(f, "%llx %zu %llu %llu\n",
					(unsigned long long)b->addr, b->insns,
					(unsigned long long)b->runs,
					(unsigned long long)b->accesses);
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
