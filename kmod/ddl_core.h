/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ddl_core.h - the sch_ddl scheduling core.
 *
 * Pure decision logic: no sk_buff, no Qdisc, no clock reads.  Times are
 * nanoseconds passed in by the caller; all arithmetic is integer.  The glue
 * (sch_ddl_main.c) owns the packets and calls in here under the qdisc lock.
 *
 * Classes are indexed 0 .. jobs - 1 (job classes, tc minors 1 .. jobs) and
 * DDL_BG(s) == jobs (the background class).
 */
#ifndef _DDL_CORE_H
#define _DDL_CORE_H

#include <linux/bitops.h>
#include <linux/list.h>
#include <linux/types.h>

#include <uapi/linux/sch_ddl.h>

#define DDL_LIMIT_DEFAULT	10000U
#define DDL_LIMIT_MIN		1U
#define DDL_LIMIT_MAX		1048576U

#define DDL_JOBS_DEFAULT	16U
#define DDL_JOBS_MIN		1U
#define DDL_JOBS_MAX		4096U	/* two bitmap levels of 64 */

#define DDL_SLICE_DEFAULT	20000U	/* us */
#define DDL_SLICE_MIN		100U
#define DDL_SLICE_MAX		10000000U

#define DDL_YIELD_DEFAULT	1000U	/* us; 0 disables yielding */
#define DDL_YIELD_MAX		DDL_SLICE_MAX

#define DDL_MAXWAIT_DEFAULT	500000U	/* us */
#define DDL_MAXWAIT_MIN		1000U
#define DDL_MAXWAIT_MAX		60000000U

#define DDL_BGSHARE_DEFAULT	5U	/* percent */
#define DDL_BGSHARE_MAX		50U

#define DDL_KEYTTL_DEFAULT	1000U	/* ms */
#define DDL_KEYTTL_MAX		3600000U

#define DDL_WEIGHT_DEFAULT	1U
#define DDL_WEIGHT_MIN		1U
#define DDL_WEIGHT_MAX		256U

/* Bytes a yellow job may send per DRR round, times its weight. */
#define DDL_QUANTUM		1514

#define DDL_NONE		U32_MAX

/**
 * struct ddl_params - configuration of one sch_ddl instance
 * @limit: maximum packets queued in the qdisc
 * @jobs: number of job classes (fixed for the life of the instance)
 * @mode: enum tc_ddl_mode
 * @slice_us: length of a green slice for a job of weight 1
 * @yield_us: a green job whose queue stays empty this long yields; 0: never
 * @maxwait_us: a backlogged class unserved this long is served at once
 * @bgshare: minimum share of the background class while backlogged, percent
 * @key: enum tc_ddl_key, the built-in classification key
 * @keyttl_ms: an empty keyed class idle this long may take a new key
 */
struct ddl_params {
	u32	limit;
	u32	jobs;
	u32	mode;
	u32	slice_us;
	u32	yield_us;
	u32	maxwait_us;
	u32	bgshare;
	u32	key;
	u32	keyttl_ms;
};

/**
 * enum ddl_reason - why ddl_pick() chose a class
 * @DDL_R_GUARD: the starvation guard: the class waited longer than maxwait
 * @DDL_R_BGSHARE: the background class is owed its minimum share
 * @DDL_R_GREEN: the green job
 * @DDL_R_YELLOW: a job behind green, green having nothing to send
 * @DDL_R_BACKGROUND: the background class, no job having anything to send
 */
enum ddl_reason {
	DDL_R_GUARD,
	DDL_R_BGSHARE,
	DDL_R_GREEN,
	DDL_R_YELLOW,
	DDL_R_BACKGROUND,
};

/**
 * struct ddl_cls - scheduling state of one class
 * @wait_node: on &ddl_sched.waiters while backlogged, oldest service first
 * @rr_node: on &ddl_sched.rr while a backlogged job (DRR of yellow jobs)
 * @key_node: in the key hash while @keyed
 * @idle_node: on &ddl_sched.idle while keyed with an empty queue
 * @wait_since: last service, or when the class became backlogged
 * @idle_since: when a keyed class last became empty
 * @deficit: DRR deficit in bytes
 * @weight: slice multiplier
 * @bound: number of tc filters bound to the class (changed under RTNL)
 * @key: key value, valid if @keyed
 * @keyed: the built-in key owns this class
 * @backlogged: the class has packets (as told by the glue)
 * @green_ns: time spent green, up to the last change of green
 * @bytes_green: bytes sent while green
 * @bytes_yellow: bytes sent while not green
 * @greens: times made green
 * @yields: times it handed green on early
 * @guard_runs: packets sent for it by the starvation guard
 */
struct ddl_cls {
	struct list_head	wait_node;
	struct list_head	rr_node;
	struct hlist_node	key_node;
	struct list_head	idle_node;
	u64			wait_since;
	u64			idle_since;
	s64			deficit;
	u32			weight;
	u32			bound;
	u32			key;
	bool			keyed;
	bool			backlogged;

	u64			green_ns;
	u64			bytes_green;
	u64			bytes_yellow;
	u64			greens;
	u64			yields;
	u64			guard_runs;
};

/**
 * struct ddl_sched - scheduling state of one sch_ddl instance
 * @jobs: number of job classes
 * @cls: @jobs job classes and the background class, DDL_BG()
 * @bm: backlogged jobs, one bit each
 * @bm_top: bit w set when @bm[w] is non-zero
 * @waiters: backlogged classes, least recently served first
 * @rr: backlogged jobs in DRR order
 * @idle: keyed job classes with empty queues, longest idle first
 * @keyed_bm: job classes the key owns
 * @bound_bm: job classes tc filters point at (atomic bit operations)
 * @keyhash: key value to class, DDL_KEYHASH_SIZE(jobs) buckets
 * @keyhash_bits: log2 of the number of buckets
 * @green: index of the green job, or DDL_NONE
 * @green_since: when @green became green
 * @slice_start: when @green's current slice began
 * @slice_end: when @green's slice ends
 * @green_empty_since: when @green's queue became empty, 0 while backlogged
 * @bg_credit: background share credit, bytes times percent
 * @rotations: slice ends that moved green to another job
 * @yields: green handed on early
 * @guard_runs: packets sent by the starvation guard
 * @bgshare_runs: packets sent for the background share
 * @key_overflow: keys that found no free class
 * @key_recycled: idle key classes given a new key
 * @keys_mapped: job classes holding a key
 */
struct ddl_sched {
	u32			jobs;
	struct ddl_cls		*cls;
	u64			bm[DDL_JOBS_MAX / 64];
	u64			bm_top;
	struct list_head	waiters;
	struct list_head	rr;
	struct list_head	idle;
	unsigned long		keyed_bm[BITS_TO_LONGS(DDL_JOBS_MAX)];
	unsigned long		bound_bm[BITS_TO_LONGS(DDL_JOBS_MAX)];
	struct hlist_head	*keyhash;
	u32			keyhash_bits;

	u32			green;
	u64			green_since;
	u64			slice_start;
	u64			slice_end;
	u64			green_empty_since;
	s64			bg_credit;

	u64			rotations;
	u64			yields;
	u64			guard_runs;
	u64			bgshare_runs;
	u64			key_overflow;
	u64			key_recycled;
	u32			keys_mapped;
};

/* Index of the background class. */
#define DDL_BG(s)		((s)->jobs)

void ddl_params_init(struct ddl_params *p);
u32 ddl_excess(const struct ddl_params *p, u32 qlen);

/**
 * ddl_admit() - whether a packet may join the queue
 * @p: configuration
 * @qlen: packets queued now
 *
 * Context: any; pure.
 * Return: true if one more packet fits under @p->limit.
 */
static inline bool ddl_admit(const struct ddl_params *p, u32 qlen)
{
	return qlen < p->limit;
}

int ddl_sched_init(struct ddl_sched *s, u32 jobs);
void ddl_sched_destroy(struct ddl_sched *s);
void ddl_activate(struct ddl_sched *s, u32 idx, u64 now);
void ddl_deactivate(struct ddl_sched *s, u32 idx, u64 now);
u32 ddl_pick(struct ddl_sched *s, const struct ddl_params *p, u64 now,
	     enum ddl_reason *reason);
void ddl_served(struct ddl_sched *s, const struct ddl_params *p, u32 idx,
		enum ddl_reason reason, u32 len, u64 now);
u32 ddl_key_class(struct ddl_sched *s, const struct ddl_params *p, u32 key,
		  u64 now);
void ddl_bind(struct ddl_sched *s, u32 idx);
void ddl_unbind(struct ddl_sched *s, u32 idx);
void ddl_set_weight(struct ddl_sched *s, const struct ddl_params *p, u32 idx,
		    u32 weight);
void ddl_reconfigure(struct ddl_sched *s, const struct ddl_params *old,
		     const struct ddl_params *p, u64 now);
u64 ddl_green_ns(const struct ddl_sched *s, u32 idx, u64 now);
u32 ddl_bm_next(const struct ddl_sched *s, u32 from);

#endif /* _DDL_CORE_H */
