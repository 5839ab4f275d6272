/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ddl_fair.h - the fair order (ddl_fair.c): the burst that per-job fair
 * sharing would finish first.
 */
#ifndef _DDL_FAIR_H
#define _DDL_FAIR_H

#include <linux/list.h>
#include <linux/math64.h>
#include <linux/rbtree.h>
#include <linux/types.h>

#include "ddl_burst.h"
#include "ddl_params.h"

/*
 * Virtual time is bytes per unit weight times DDL_VSCALE; a burst of
 * unknown size is tagged DDL_FAIR_QUANTUM bytes, a tag grows by at most
 * DDL_FAIR_STEP_MAX at a time, a learned size counts up to
 * DDL_FAIR_SIZE_MAX (ddl_params.h).
 */
#define DDL_VSCALE		DDL_WEIGHT_MAX

/*
 * A burst may exceed its learned size by 1/DDL_FAIR_SLACK of it before its
 * tag grows: learned sizes are averages, and a step of an eighth for a few
 * bytes over would put the burst's tail behind another job's whole burst.
 */
#define DDL_FAIR_SLACK		16U

/**
 * union ddl_fair_link - a job's place in one set of &struct ddl_fair_set
 * @rb: a node of its tree
 * @fifo: an entry of its FIFO
 *
 * RB_EMPTY_NODE(&@rb) says whether the job is in the set at all: an entry
 * of a list never points to itself.
 */
union ddl_fair_link {
	struct rb_node		rb;
	struct list_head	fifo;
};

/**
 * struct ddl_fair_cls - a job's burst in the fair order
 * @node: in &ddl_fair.order while a backlogged job, by @vfinish
 * @gps_node: in &ddl_fair.gps while its burst is in the fair reference
 * @vstart: virtual time its current burst started at in the reference
 * @vfinish: virtual time the reference finishes its current burst
 * @budget: bytes its current burst is tagged with
 * @seg_bytes: bytes queued in its current burst
 * @tag_exts: times a burst of it outgrew its tag
 * @size: the job's learned size as its last burst began
 *	(&ddl_burst_news.size), 0: none
 * @weight: the job's weight, its share in the reference (ddl_fair_weight())
 * @in_fifo: @node, @gps_node (in that order) is an entry of its set's
 *	FIFO, not a node of its tree
 */
struct ddl_fair_cls {
	union ddl_fair_link	node;
	union ddl_fair_link	gps_node;
	u64			vstart;
	u64			vfinish;
	u64			budget;
	u64			seg_bytes;
	u64			tag_exts;
	u64			size;
	u32			weight;
	bool			in_fifo[2];
};

/**
 * struct ddl_fair_set - jobs by finish tag, equal tags in the order they
 *	came: the fair order, or the jobs in the fair reference
 * @fifo: jobs whose tags came in an order that only grows: each tag is at
 *	least the FIFO's last and beyond every tag of @tree
 * @tree: the other jobs, by tag
 * @tree_last: the last node of @tree, NULL while it is empty
 * @head: the job with the smallest tag, the first of equals; NULL while
 *	the set is empty
 *
 * Jobs that start bursts of one size in turn, and jobs that come back in
 * the order they left, join the FIFO, a list append instead of a tree's
 * insertion and rebalancing.  The first of @fifo and the first of @tree
 * are the two candidates for @head; of equal tags the FIFO's came first
 * (a tag joins the FIFO only beyond every tag of the tree).
 */
struct ddl_fair_set {
	struct list_head	fifo;
	struct rb_root_cached	tree;
	struct rb_node		*tree_last;
	struct ddl_fair_cls	*head;
};

/**
 * struct ddl_fair - the fair order and its reference
 * @order: backlogged jobs by finish tag (mode fair serves the first)
 * @gps: jobs whose burst is in progress in the fair reference, by finish tag
 * @vtime: virtual time of the fair reference
 * @vrem: remainder of the last advance of @vtime
 * @gps_weight: sum of the weights of the jobs in @gps
 * @gps_jobs: number of jobs in @gps
 * @tag_exts: bursts' tags extended, all jobs
 */
struct ddl_fair {
	struct ddl_fair_set	order;
	struct ddl_fair_set	gps;
	u64			vtime;
	u32			vrem;
	u32			gps_weight;
	u32			gps_jobs;
	u64			tag_exts;
};

void ddl_fair_init(struct ddl_fair *f);
void ddl_fair_update(struct ddl_fair *f, struct ddl_fair_cls *fc, u32 len,
		     const struct ddl_burst_news *bn);
void ddl_fair_advance(struct ddl_fair *f, u32 len);
void ddl_fair_queue(struct ddl_fair *f, struct ddl_fair_cls *fc);
void ddl_fair_unqueue(struct ddl_fair *f, struct ddl_fair_cls *fc);
void ddl_fair_weight(struct ddl_fair *f, struct ddl_fair_cls *fc, u32 weight);
void ddl_fair_reset(struct ddl_fair *f, struct ddl_fair_cls *fc);

/* Whether virtual time @a is before @b (modulo 2^64). */
static inline bool ddl_v_before(u64 a, u64 b)
{
	return (s64)(a - b) < 0;
}

/**
 * ddl_fair_cls_init() - a job outside the fair order
 * @fc: its fair state, zeroed
 * @weight: its weight
 *
 * Context: process context.
 */
static inline void ddl_fair_cls_init(struct ddl_fair_cls *fc, u32 weight)
{
	RB_CLEAR_NODE(&fc->node.rb);
	RB_CLEAR_NODE(&fc->gps_node.rb);
	fc->weight = weight;
}

/**
 * ddl_fair_head() - the head of the fair order
 * @f: fair order
 *
 * Context: under the qdisc lock.  Constant time.
 * Return: the fair state of the backlogged job with the smallest finish
 * tag, or NULL if no job is backlogged.
 */
static inline struct ddl_fair_cls *ddl_fair_head(const struct ddl_fair *f)
{
	return f->order.head;
}

/**
 * ddl_fair_arrived() - a packet joined a job's queue
 * @f: fair order
 * @fc: the job's fair state
 * @len: bytes
 * @bn: what the packet did to the job's burst (ddl_burst_arrived())
 *
 * Its bytes count toward its burst's tag.  Most packets go on with a
 * burst, within its tag, of a job in the order: that is all they do.  The
 * others, which start or resume a burst, outgrow its tag or find the job
 * out of the order, go to ddl_fair_update().
 *
 * Context: under the qdisc lock.  Constant time, O(log jobs) when the job
 * becomes backlogged, a burst starts or its tag grows.
 */
static inline void ddl_fair_arrived(struct ddl_fair *f,
				    struct ddl_fair_cls *fc, u32 len,
				    const struct ddl_burst_news *bn)
{
	if (bn->ev != DDL_BURST_START && bn->ev != DDL_BURST_RESUME &&
	    fc->seg_bytes + len <= fc->budget && !RB_EMPTY_NODE(&fc->node.rb)) {
		fc->seg_bytes += len;
		return;
	}
	ddl_fair_update(f, fc, len, bn);
}

/**
 * ddl_fair_served() - the link sent bytes of a job: the reference moves on
 * @f: fair order
 * @len: bytes
 * @left: the fair state of the job whose queue they emptied, which leaves
 *	the order (ddl_fair_unqueue()); NULL if it still holds packets
 *
 * Most packets take V less far than the first finish tag in the
 * reference: V moves by their bytes over the weights in it, the remainder
 * kept for the next.  The others, and bytes sent while the reference is
 * empty, are ddl_fair_advance()'s.
 *
 * Context: under the qdisc lock.  Constant time, O(log jobs) per burst
 * that leaves the reference (each leaves once) and when a job leaves.
 */
static inline void ddl_fair_served(struct ddl_fair *f, u32 len,
				   struct ddl_fair_cls *left)
{
	const struct ddl_fair_cls *fc = f->gps.head;
	u64 work = (u64)len * DDL_VSCALE + f->vrem, q;
	u32 rem;

	if (fc) {
		q = div_u64_rem(work, f->gps_weight, &rem);
		if (ddl_v_before(f->vtime, fc->vfinish) &&
		    fc->vfinish - f->vtime > q) {
			f->vtime += q;
			f->vrem = rem;
		} else {
			ddl_fair_advance(f, len);
		}
	} else {
		f->vrem = 0;
	}
	if (left)
		ddl_fair_unqueue(f, left);
}

#endif /* _DDL_FAIR_H */
