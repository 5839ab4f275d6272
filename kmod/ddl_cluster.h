/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ddl_cluster.h - the cluster order (ddl_cluster.c): one order on every
 * host of a cluster, and the place a job's packets carry into the fabric.
 */
#ifndef _DDL_CLUSTER_H
#define _DDL_CLUSTER_H

#include <linux/rbtree.h>
#include <linux/types.h>

#include "ddl_burst.h"
#include "ddl_params.h"

/**
 * struct ddl_cluster_cls - a job's burst in the cluster order
 * @node: in &ddl_cluster.order while a backlogged job (mode cluster)
 * @rank_node: in &ddl_cluster.ranked while its burst is in progress
 * @size: declared bytes of the job's whole burst over all its hosts, 0: none
 * @key: key of its current burst, ns of the shared clock since the base
 * @allow: bytes of the burst @key covers
 * @bytes: bytes queued since @key was given
 * @moved: ns @key moved on since it was given (ddl_cluster_enqueued()),
 *	at most DDL_CL_MOVE_MAX
 * @rot: the burst's place in its epoch's rotation, breaks ties of @key
 * @mark: the place its packets carry out (dscp): the last of the places
 *	it had since its burst (with a shuffle: its iteration) began
 * @mark_burst: the start of its burst (with a shuffle: of its iteration)
 *	when @mark was set
 * @mark_deal: the last deal @mark covers (shuffle)
 * @tier: the tier of its iteration's places (ddl_fabric_tier())
 * @idx: the job's class index: its rotation and its places depend on it
 * @quiet_since: when its queue last held data, as it left @node: its
 *	pause counts from there (ddl_cluster_rank())
 */
struct ddl_cluster_cls {
	struct rb_node		node;
	struct rb_node		rank_node;
	u64			size;
	u64			key;
	u64			allow;
	u64			bytes;
	u64			moved;
	u32			rot;
	u32			mark;
	u64			mark_burst;
	u64			mark_deal;
	u32			tier;
	u32			idx;
	u64			quiet_since;
};

/**
 * struct ddl_cluster - the cluster order of one instance
 * @order: backlogged jobs by cluster key (mode cluster serves the first)
 * @ranked: jobs whose burst is in progress, by cluster key: backlogged,
 *	or empty for less than DDL_FAIR_PAUSE_US (pruned when seen)
 * @jobs: number of jobs in @order
 * @clock_off: the shared clock (CLOCK_TAI) less the caller's clock, ns, as
 *	the glue last read it
 * @epoch: epoch of the shared clock at the last burst start
 * @bursts: bursts given a cluster key
 * @exts: cluster keys moved on because a burst outgrew them
 * @edge_bursts: bursts keyed or marked within 1/DDL_EDGE_DIV of an epoch
 *	of the edge of their epoch or deal
 * @deal: the deal of the fabric's code points the last mark fell in
 * @deal_start: where @deal began on the shared clock
 * @deal_len: the length of a deal @deal was computed with, ns; 0: none
 *	(a change of the configuration computes it again)
 * @classes: number of job classes, over which the rotation turns
 */
struct ddl_cluster {
	struct rb_root_cached	order;
	struct rb_root_cached	ranked;
	u32			jobs;
	u64			clock_off;
	u64			epoch;
	u64			bursts;
	u64			exts;
	u64			edge_bursts;
	u64			deal;
	u64			deal_start;
	u64			deal_len;
	u32			classes;
};

void ddl_cluster_init(struct ddl_cluster *cl, u32 classes);
u64 ddl_epoch_of(const struct ddl_params *p, u64 shared);
void ddl_cluster_arrived(struct ddl_cluster *cl, struct ddl_cluster_cls *cc,
			 const struct ddl_params *p, u32 weight, u32 len,
			 const struct ddl_burst_news *bn, u64 now);
void ddl_cluster_queue(struct ddl_cluster *cl, struct ddl_cluster_cls *cc);
u32 ddl_cluster_rank(struct ddl_cluster *cl, struct ddl_cluster_cls *cc,
		     u32 max, u64 now);
u64 ddl_deal_of(const struct ddl_params *p, u64 shared);
u32 ddl_fabric_tier(const struct ddl_params *p, u64 size, u32 weight);
u32 ddl_fabric_place(const struct ddl_params *p, u32 idx, u32 tier,
		     u64 deal);
u32 ddl_cluster_mark(struct ddl_cluster *cl, struct ddl_cluster_cls *cc,
		     const struct ddl_params *p, u32 weight, u64 from,
		     u64 now);
void ddl_cluster_reset(struct ddl_cluster_cls *cc);
void ddl_cluster_reconfigure(struct ddl_cluster *cl);
void ddl_cluster_join(struct ddl_cluster *cl, struct ddl_cluster_cls *cc,
		      const struct ddl_params *p, u32 weight, bool backlogged,
		      u64 now);
void ddl_cluster_leave(struct ddl_cluster *cl, struct ddl_cluster_cls *cc);

/**
 * ddl_cluster_cls_init() - a job outside the cluster order
 * @cc: its cluster state, zeroed
 * @idx: its class index
 *
 * Context: process context.
 */
static inline void ddl_cluster_cls_init(struct ddl_cluster_cls *cc, u32 idx)
{
	RB_CLEAR_NODE(&cc->node);
	RB_CLEAR_NODE(&cc->rank_node);
	cc->idx = idx;
}

/**
 * ddl_cluster_size() - a job declares the size of its whole burst
 * @cc: the job's cluster state
 * @size: bytes, 0 .. DDL_SIZE_MAX; 0: none
 *
 * The running burst keeps its key; the next is keyed with the new size.
 *
 * Context: under the qdisc lock.
 */
static inline void ddl_cluster_size(struct ddl_cluster_cls *cc, u64 size)
{
	cc->size = size;
}

/**
 * ddl_cluster_unqueue() - a job class became empty
 * @cl: the cluster order
 * @cc: the class's place in it
 * @since: when its queue last held data (ddl_burst_idle())
 *
 * It keeps its key and its place among the ranked jobs: a pause in its
 * burst.  ddl_cluster_rank() drops it from there when the pause is over.
 * Outside mode cluster the class is in no order: nothing to do.
 *
 * Context: under the qdisc lock.  O(log jobs).
 */
static inline void ddl_cluster_unqueue(struct ddl_cluster *cl,
				       struct ddl_cluster_cls *cc, u64 since)
{
	if (RB_EMPTY_NODE(&cc->node))
		return;
	rb_erase_cached(&cc->node, &cl->order);
	RB_CLEAR_NODE(&cc->node);
	cl->jobs--;
	cc->quiet_since = since;
}

/**
 * ddl_cluster_head() - the head of the cluster order
 * @cl: the cluster order
 *
 * Context: under the qdisc lock.  Constant time.
 * Return: the cluster state of the backlogged job with the smallest key,
 * or NULL if no job is in the order (always, outside mode cluster).
 */
static inline struct ddl_cluster_cls *
ddl_cluster_head(const struct ddl_cluster *cl)
{
	struct rb_node *node = rb_first_cached(&cl->order);

	return node ? rb_entry(node, struct ddl_cluster_cls, node) : NULL;
}

#endif /* _DDL_CLUSTER_H */
