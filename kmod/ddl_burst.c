// SPDX-License-Identifier: GPL-2.0
/*
 * ddl_burst.c - the bursts of sch_ddl's jobs: where a burst starts,
 * pauses, has its gap and ends, decided here and only here, once per
 * packet.
 *
 * A job's burst starts when it queues data after it had none queued for
 * the burst gap (ddl_burst_gap()), or for the first time; but not when its
 * sender only paused in the burst (the predictor judges that, from the
 * job's learned iteration, and learns from each burst that starts:
 * ddl_pred_burst()).  A burst ends when the job's next one starts, or, for
 * a reader of the statistics, when the job has stayed quiet past the gap
 * and the pause (ddl_burst_settle()); it ended when the job's queue last
 * held data.  Each end goes to the log (ddl_log_burst()); the caller tells
 * the orders of starts and pauses (struct ddl_burst_news).
 *
 * Constant time per packet, O(log jobs) when a burst starts (the
 * predictor's tree).  No clock is read: @now comes from the caller.
 */

#include <linux/minmax.h>

#include "ddl_burst.h"

/**
 * ddl_burst_paused() - would data from a job now go on with its burst?
 * @b: the job's burst, with no data queued
 * @pc: what the predictor learned of the job
 * @now: current time, ns
 *
 * The predictor's judgement (ddl_pred_paused()) on the bytes of the burst
 * and the time its queue has been empty.
 *
 * Context: under the qdisc lock; pure.
 * Return: true if the burst goes on.
 */
bool ddl_burst_paused(const struct ddl_burst_cls *b,
		      const struct ddl_pred_cls *pc, u64 now)
{
	return ddl_pred_paused(pc, b->bytes, now - b->empty_since, now);
}

/* Record the open burst of job @idx, @b, as complete. */
static void ddl_burst_end(struct ddl_burst_cls *b, struct ddl_log *log,
			  u32 idx)
{
	if (!b->open)
		return;
	b->open = false;
	ddl_log_burst(log, idx, b->start, max(b->empty_since, b->start),
		      b->bytes);
}

/**
 * ddl_burst_begin() - data joined a job's queue, which held none
 * @bu: the bursts
 * @b: the job's burst
 * @pr: the predictor
 * @pc: what it learned of the job
 * @log: the records
 * @idx: the job's class index
 * @p: configuration
 * @now: current time, ns
 *
 * Called by ddl_burst_arrived() when the job had no data queued for at
 * least the gap (ddl_burst_gap()), or queues data for the first time: a
 * burst then starts, but not when the sender only paused in its burst
 * (ddl_pred_burst()): then the burst goes on.  Pure ACKs, which a
 * parameter server sends for the gradients it receives, neither start a
 * burst nor end the quiet time before one.
 *
 * A burst that starts completes the one before (the log records it); the
 * predictor has learned from it.
 *
 * Context: under the qdisc lock.  O(log jobs) when a burst starts, else
 * constant time.
 * Return: what happened to the job's burst.
 */
struct ddl_burst_news ddl_burst_begin(struct ddl_burst *bu,
				      struct ddl_burst_cls *b,
				      struct ddl_pred *pr,
				      struct ddl_pred_cls *pc,
				      struct ddl_log *log, u32 idx,
				      const struct ddl_params *p, u64 now)
{
	struct ddl_burst_news bn = { .ev = DDL_BURST_NONE };
	u64 quiet = now - b->empty_since, size;
	bool first = !b->count;

	if (!ddl_pred_burst(pr, pc, p, quiet, b->bytes, first, now, &size)) {
		bn.ev = DDL_BURST_RESUME;
		return bn;
	}

	ddl_burst_end(b, log, idx);
	bu->count++;
	b->count++;
	b->start = now;
	b->bytes = 0;
	b->open = true;
	bn.ev = DDL_BURST_START;
	bn.brief = quiet < DDL_FAIR_PAUSE_NS;
	bn.size = size;
	return bn;
}

/**
 * ddl_burst_reset() - a class changes owner (a new key)
 * @b: the job's burst
 * @log: the records
 * @idx: the job's class index
 * @now: current time, ns
 *
 * The old owner's burst is complete; the log records it.  Its counters
 * stay.
 *
 * Context: under the qdisc lock.  Constant time.
 */
void ddl_burst_reset(struct ddl_burst_cls *b, struct ddl_log *log, u32 idx,
		     u64 now)
{
	ddl_burst_end(b, log, idx);
	b->bytes = 0;
	b->start = now;
}

/**
 * ddl_burst_settle() - complete a quiet job's burst
 * @b: the job's burst
 * @pc: what the predictor learned of the job
 * @log: the records
 * @idx: the job's class index
 * @p: configuration
 * @now: current time, ns
 *
 * A burst that has had no data queued for the burst gap, and that
 * ddl_burst_begin() would no longer continue, is complete; record it.
 * Call before reading a job's log, so that a job that went quiet shows its
 * last burst.
 *
 * Context: under the qdisc lock.  Constant time.
 */
void ddl_burst_settle(struct ddl_burst_cls *b, const struct ddl_pred_cls *pc,
		      struct ddl_log *log, u32 idx,
		      const struct ddl_params *p, u64 now)
{
	if (!b->open || b->data_qlen)
		return;
	if (now - b->empty_since < ddl_burst_gap(p))
		return;
	/* ddl_burst_begin() would go on with it. */
	if (ddl_burst_paused(b, pc, now))
		return;
	ddl_burst_end(b, log, idx);
}
