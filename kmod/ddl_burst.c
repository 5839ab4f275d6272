// SPDX-License-Identifier: GPL-2.0
/*
 * ddl_burst.c - the bursts of sch_ddl's jobs: where a burst starts,
 * pauses, has its gap and ends, decided here and only here, once per
 * packet.
 *
 * A job's burst starts when it queues data after it had none queued for
 * the burst gap (ddl_burst_gap()), or for the first time; but not when its
 * sender only paused in the burst (the predictor judges that, from the
 * job's learned iteration: ddl_pred_paused()).  A burst ends when the
 * job's next one starts, or, for a reader of the statistics, when the job
 * has stayed quiet past the gap and the pause (ddl_burst_settle()); it
 * ended when the job's queue last held data.  Each start goes to the
 * predictor (ddl_pred_burst()), each end to the log (ddl_log_burst()); the
 * orders learn of starts and pauses from the event ddl_burst_begin()
 * returns.
 *
 * Constant time per packet, O(log jobs) when a burst starts (the
 * predictor's tree).  No clock is read: @now comes from the caller.
 */

#include <linux/minmax.h>

#include "ddl_core.h"

/**
 * ddl_burst_gap() - the pause between two bursts of a job
 * @p: configuration
 *
 * Context: any; pure.
 * Return: yield_us when it is explicit and not 0, else DDL_BURST_GAP_US,
 * in ns.
 */
u64 ddl_burst_gap(const struct ddl_params *p)
{
	return p->yield_us && p->yield_us != TC_DDL_AUTO ?
	       (u64)p->yield_us * NSEC_PER_USEC_U64 : DDL_BURST_GAP_NS;
}

/**
 * ddl_burst_paused() - would data from a job now go on with its burst?
 * @c: job class, with no data queued
 * @now: current time, ns
 *
 * The predictor's judgement (ddl_pred_paused()) on the bytes of the burst
 * and the time its queue has been empty.
 *
 * Context: under the qdisc lock; pure.
 * Return: true if the burst goes on.
 */
bool ddl_burst_paused(const struct ddl_cls *c, u64 now)
{
	return ddl_pred_paused(&c->pred, c->burst.bytes,
			       now - c->burst.empty_since, now);
}

/* Record the open burst of job @idx as complete. */
static void ddl_burst_end(struct ddl_sched *s, u32 idx)
{
	struct ddl_burst_cls *b = &s->cls[idx].burst;

	if (!b->open)
		return;
	b->open = false;
	ddl_log_burst(s, idx, b->start, max(b->empty_since, b->start),
		      b->bytes);
}

/**
 * ddl_burst_begin() - data joined a job's queue, which held none
 * @s: scheduler
 * @p: configuration
 * @idx: job class index, backlogged (ddl_arrived())
 * @now: current time, ns
 *
 * Called when ddl_burst_data() says so.  A burst starts when the job had
 * no data queued for at least yield_us (DDL_BURST_GAP_US if yield is off
 * or auto), or for the first time; but not when the sender only paused in
 * its burst (ddl_burst_paused()): then the burst goes on.  Pure ACKs,
 * which a parameter server sends for the gradients it receives, neither
 * start a burst nor end the quiet time before one.
 *
 * A burst that starts completes the one before (the log records it) and
 * is told to the predictor (ddl_pred_burst()).
 *
 * Context: under the qdisc lock.  O(log jobs) when a burst starts, else
 * constant time.
 * Return: what happened to the job's burst.
 */
enum ddl_burst_event ddl_burst_begin(struct ddl_sched *s,
				     const struct ddl_params *p, u32 idx,
				     u64 now)
{
	struct ddl_cls *c = &s->cls[idx];
	struct ddl_burst_cls *b = &c->burst;
	bool first = !b->count;

	if (!first && now - b->empty_since < ddl_burst_gap(p))
		return DDL_BURST_NONE;
	if (!first && ddl_burst_paused(c, now))
		return DDL_BURST_RESUME;

	ddl_burst_end(s, idx);
	ddl_pred_burst(s, p, idx, now - b->empty_since, b->bytes, first, now);
	s->burst.count++;
	b->count++;
	b->start = now;
	b->bytes = 0;
	b->open = true;
	return DDL_BURST_START;
}

/**
 * ddl_burst_reset() - a class changes owner (a new key)
 * @s: scheduler
 * @c: job class
 * @now: current time, ns
 *
 * The old owner's burst is complete; what was learned about its bursts is
 * forgotten, and its place in the orders and its lead window go.  Its
 * counters stay.
 *
 * Context: under the qdisc lock.  O(log jobs).
 */
void ddl_burst_reset(struct ddl_sched *s, struct ddl_cls *c, u64 now)
{
	ddl_burst_end(s, c - s->cls);
	c->burst.bytes = 0;
	c->burst.start = now;
	ddl_pred_reset(s, c, now);
	ddl_fair_reset(s, c);
	ddl_cluster_reset(c);
}

/**
 * ddl_burst_settle() - complete a quiet job's burst
 * @s: scheduler
 * @p: configuration
 * @idx: class index
 * @now: current time, ns
 *
 * A burst that has had no data queued for the burst gap, and that
 * ddl_burst_begin() would no longer continue, is complete; record it.
 * Call before reading a job's log, so that a job that went quiet shows its
 * last burst.
 *
 * Context: under the qdisc lock.  Constant time.
 */
void ddl_burst_settle(struct ddl_sched *s, const struct ddl_params *p,
		      u32 idx, u64 now)
{
	const struct ddl_cls *c = &s->cls[idx];

	if (idx == DDL_BG(s) || !c->burst.open || c->burst.data_qlen)
		return;
	if (now - c->burst.empty_since < ddl_burst_gap(p))
		return;
	/* ddl_burst_begin() would go on with it. */
	if (ddl_burst_paused(c, now))
		return;
	ddl_burst_end(s, idx);
}
