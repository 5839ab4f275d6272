/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ddl_predict.h - the burst predictor (ddl_predict.c): each job's
 * iteration period and size, and the lead window before its next burst.
 */
#ifndef _DDL_PREDICT_H
#define _DDL_PREDICT_H

#include <linux/list.h>
#include <linux/rbtree.h>
#include <linux/types.h>

#include "ddl_params.h"

/* Burst intervals seen before a period is trusted. */
#define DDL_PRED_SAMPLES	3U

/* A job's learned burst size: the largest of its last this many iterations. */
#define DDL_SIZE_SAMPLES	3U

/* EWMA gain of the predictor: 1 / 2^DDL_EWMA_SHIFT. */
#define DDL_EWMA_SHIFT		2

/**
 * struct ddl_pred_cls - what the predictor learned of one job
 * @node: in &ddl_pred.periodic, keyed by @iter_start + @period, while
 *	@periodic and the predictor keeps its tree
 * @fifo: on &ddl_pred.fifo instead, while @periodic and the predictor
 *	keeps no tree (&ddl_pred.fifo_only)
 * @samples: iteration intervals behind @period, saturating
 * @predicted: @period is steady enough to predict the next burst
 * @periodic: the job is one of the predicted jobs waiting for their next
 *	burst (in &ddl_pred.periodic or on &ddl_pred.fifo)
 * @iter_start: when the job's current iteration began: the start of its
 *	first burst after a quiet time (ddl_pred_burst())
 * @iter_bytes: bytes of the earlier bursts of the current iteration
 * @pre_bytes: bytes of its iterations before it was first @gapped
 * @gap: EWMA of the quiet time before its iterations (its compute), ns
 * @gapped: it has been quiet for DDL_FAIR_PAUSE_US between two bursts
 * @period: EWMA of the time between iteration starts, ns
 * @mdev: EWMA of the deviation of iteration intervals from @period, ns
 * @burst_size: learned bytes per burst, the largest of @sizes; 0: none
 * @sizes: bytes of the job's last DDL_SIZE_SAMPLES iterations, capped at
 *	DDL_FAIR_SIZE_MAX
 * @nsizes: entries of @sizes in use
 * @size_pos: the entry of @sizes the next burst replaces
 * @hits: bursts that began inside their lead window
 * @misses: lead windows of this job that missed its burst
 */
struct ddl_pred_cls {
	union {
		struct rb_node		node;
		struct list_head	fifo;
	};
	u16			samples;
	bool			predicted;
	bool			gapped;
	u8			nsizes;
	u8			size_pos;
	bool			periodic;
	u64			iter_start;
	u64			iter_bytes;
	u64			pre_bytes;
	u64			gap;
	u64			period;
	u64			mdev;
	u64			burst_size;
	u32			sizes[DDL_SIZE_SAMPLES];
	u64			hits;
	u64			misses;
};

/**
 * struct ddl_pred - the predictor of one instance
 * @periodic: predicted jobs by their next burst, earliest first; a job
 *	whose next burst passed waits off the tree for its next burst
 * @periodic_last: the last node of @periodic, NULL while it is empty
 * @fifo: the same jobs in the order they joined, instead of @periodic,
 *	while @fifo_only
 * @fifo_only: no lead window can be armed (ddl_pred_leads()), so the
 *	jobs wait on @fifo, and @periodic is empty: only ddl_rearm() reads
 *	the tree, and it is built from @fifo when windows can be armed again
 * @lead: the job whose lead window is armed, or NULL
 * @lead_open: when the armed lead window opens
 * @lead_close: when it closes if the burst does not come
 * @lead_active: the armed window is open
 * @leads: lead windows opened
 * @lead_ns: time spent in lead windows, closed ones
 * @hits: bursts that began inside their lead window
 * @misses: lead windows that missed their burst
 */
struct ddl_pred {
	struct rb_root_cached	periodic;
	struct rb_node		*periodic_last;
	struct list_head	fifo;
	bool			fifo_only;
	struct ddl_pred_cls	*lead;
	u64			lead_open;
	u64			lead_close;
	bool			lead_active;
	u64			leads;
	u64			lead_ns;
	u64			hits;
	u64			misses;
};

void ddl_pred_init(struct ddl_pred *pr);
u64 ddl_ewma(u64 avg, u64 sample);
u32 ddl_size_learned(const u32 *sizes, u32 n);
bool ddl_pred_paused(const struct ddl_pred_cls *pc, u64 bytes, u64 quiet,
		     u64 now);
bool ddl_pred_burst(struct ddl_pred *pr, struct ddl_pred_cls *pc,
		    const struct ddl_params *p, u64 quiet, u64 bytes,
		    bool first, u64 now, u64 *size);
void ddl_pred_reset(struct ddl_pred *pr, struct ddl_pred_cls *pc, u64 now);
void ddl_window(struct ddl_pred *pr, const struct ddl_params *p, u64 now);
void ddl_disarm(struct ddl_pred *pr, u64 now);
u64 ddl_lead_ns(const struct ddl_pred *pr, u64 now);

/**
 * ddl_pred_cls_init() - a job the predictor knows nothing of yet
 * @pc: what it learned of the job, zeroed
 *
 * Context: process context.
 */
static inline void ddl_pred_cls_init(struct ddl_pred_cls *pc)
{
	RB_CLEAR_NODE(&pc->node);
}

/**
 * ddl_pred_leads() - whether a configuration arms lead windows
 * @p: configuration
 *
 * Context: any; pure.
 * Return: true with a lead time and a target.
 */
static inline bool ddl_pred_leads(const struct ddl_params *p)
{
	return p->lead_ns && p->target_bytes;
}

/**
 * ddl_lead_open() - whether a lead window is open
 * @pr: the predictor
 *
 * Context: under the qdisc lock, after ddl_window().
 * Return: true while the armed window is open.
 */
static inline bool ddl_lead_open(const struct ddl_pred *pr)
{
	return pr->lead_active;
}

/**
 * ddl_pred_lead() - the job a lead window is open for
 * @pr: the predictor
 *
 * Context: under the qdisc lock, after ddl_window().
 * Return: what the predictor learned of the job, or NULL if no window is
 * open.
 */
static inline struct ddl_pred_cls *ddl_pred_lead(const struct ddl_pred *pr)
{
	return pr->lead_active ? pr->lead : NULL;
}

/**
 * ddl_pred_period() - a job's learned time between iteration starts
 * @c: what was learned of the job
 *
 * Context: under the qdisc lock.
 * Return: nanoseconds, 0 while it has none.
 */
static inline u64 ddl_pred_period(const struct ddl_pred_cls *c)
{
	return c->samples ? c->period : 0;
}

/**
 * ddl_pred_size() - a job's learned iteration size
 * @c: what was learned of the job
 *
 * Context: under the qdisc lock.
 * Return: bytes (ddl_size_learned()), 0 while none is learned.
 */
static inline u64 ddl_pred_size(const struct ddl_pred_cls *c)
{
	return c->burst_size;
}

/**
 * ddl_pred_iter_start() - when a job's current iteration began
 * @c: what was learned of the job
 *
 * Context: under the qdisc lock.
 * Return: the start of its first burst after a quiet time, ns.
 */
static inline u64 ddl_pred_iter_start(const struct ddl_pred_cls *c)
{
	return c->iter_start;
}

#endif /* _DDL_PREDICT_H */
