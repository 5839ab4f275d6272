// SPDX-License-Identifier: GPL-2.0
/*
 * ddl_log.c - what the sch_ddl core records for those who watch it: the
 * last changes of the green job, the last completed bursts of each job, and
 * each job's histogram of burst completion times (log2 buckets of
 * microseconds) with its quantile estimates.
 *
 * A burst is complete when its job's queue has stayed empty for the burst
 * gap (the time ddl_burst_start() needs to see a new burst), or when the
 * job's next burst begins; it ended when its queue last became empty.  The
 * next burst start closes it on the datapath; ddl_burst_settle() closes it
 * for a reader of the statistics when the job has gone quiet.
 *
 * Fixed memory: DDL_TURN_LOG records per instance, one struct ddl_job_log
 * per job.  Constant time per record; a quantile walks the buckets.
 */

#include <linux/bitops.h>
#include <linux/math64.h>
#include <linux/minmax.h>

#include "ddl_core.h"

/**
 * ddl_hist_bucket() - the histogram bucket of a completion time
 * @us: completion time, microseconds
 *
 * Bucket 0 holds 0 us; bucket i (1 .. DDL_HIST_BUCKETS - 2) holds
 * 2^(i - 1) .. 2^i - 1 us; the last bucket holds everything from
 * 2^(DDL_HIST_BUCKETS - 2) us (about 4.2 s) up.
 *
 * Context: any; pure.
 * Return: bucket index.
 */
u32 ddl_hist_bucket(u64 us)
{
	return min_t(u32, fls64(us), DDL_HIST_BUCKETS - 1);
}

/**
 * ddl_hist_lo() - the smallest completion time of a bucket
 * @bucket: bucket index, below DDL_HIST_BUCKETS
 *
 * Context: any; pure.
 * Return: microseconds.
 */
u64 ddl_hist_lo(u32 bucket)
{
	return bucket ? BIT_ULL(bucket - 1) : 0;
}

/**
 * ddl_hist_count() - bursts counted in a histogram
 * @hist: DDL_HIST_BUCKETS counters
 *
 * Context: any; pure.
 * Return: the sum of the buckets.
 */
u64 ddl_hist_count(const u32 *hist)
{
	u64 n = 0;
	u32 b;

	for (b = 0; b < DDL_HIST_BUCKETS; b++)
		n += hist[b];
	return n;
}

/**
 * ddl_hist_quantile() - estimate a quantile of the completion times
 * @hist: DDL_HIST_BUCKETS counters
 * @max_us: the longest time counted, us: bounds the top bucket
 * @permille: the quantile, 1 .. 1000 (500: median, 990: 99th percentile)
 *
 * The k-th smallest of the n times, k = ceil(n * permille / 1000), is
 * taken to lie in the middle of its share of its bucket: the bucket's
 * range [lo, hi) cut into as many equal parts as it has counts.  The top
 * bucket's range ends at @max_us + 1.  The estimate is at most @max_us.
 * So a quantile is off by less than its bucket's width: a factor of two.
 *
 * Context: any; pure.  O(DDL_HIST_BUCKETS).
 * Return: microseconds; 0 for an empty histogram.
 */
u64 ddl_hist_quantile(const u32 *hist, u64 max_us, u32 permille)
{
	u64 n = ddl_hist_count(hist), rank, below = 0, lo, hi, est;
	u32 b;

	if (!n)
		return 0;
	permille = clamp_t(u32, permille, 1, 1000);
	rank = max_t(u64, DIV_ROUND_UP_ULL(n * permille, 1000), 1);
	for (b = 0; b < DDL_HIST_BUCKETS; b++) {
		if (below + hist[b] >= rank)
			break;
		below += hist[b];
	}
	if (b == DDL_HIST_BUCKETS)	/* not reached: rank <= n */
		return max_us;

	lo = ddl_hist_lo(b);
	hi = b < DDL_HIST_BUCKETS - 1 ? BIT_ULL(b) : max(max_us + 1, lo + 1);
	/* lo + (hi - lo) * (2 * (rank - below) - 1) / (2 * hist[b]) */
	est = lo + mul_u64_u64_div_u64(hi - lo, 2 * (rank - below) - 1,
				       2 * (u64)hist[b]);
	return min(est, max_us);
}

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
 * ddl_burst_end() - record the open burst of a job as complete
 * @s: scheduler
 * @idx: job class index; its burst began at last_burst and its last data
 *	left at empty_since
 *
 * Context: under the qdisc lock.  Constant time.
 */
void ddl_burst_end(struct ddl_sched *s, u32 idx)
{
	struct ddl_cls *c = &s->cls[idx];
	struct ddl_burst_rec *r;
	struct ddl_job_log *l;
	u64 us;
	u32 b;

	if (!c->in_burst)
		return;
	c->in_burst = false;
	l = &s->jlog[idx];

	r = &l->ring[l->done % DDL_BURST_LOG];
	r->start = c->last_burst;
	r->end = max(c->empty_since, c->last_burst);
	r->bytes = c->cur_bytes;
	l->done++;
	s->bursts_done++;

	us = div_u64(r->end - r->start, NSEC_PER_USEC_U64);
	b = ddl_hist_bucket(us);
	if (l->hist[b] < U32_MAX)
		l->hist[b]++;
	l->max_us = max_t(u64, l->max_us, min_t(u64, us, U32_MAX));
	l->sum_us += us;
}

/**
 * ddl_burst_settle() - complete a quiet job's burst
 * @s: scheduler
 * @p: configuration
 * @idx: class index
 * @now: current time, ns
 *
 * A burst that has had no data queued for the burst gap, and that
 * ddl_burst_start() would no longer continue, is complete; record it.
 * Call before reading a job's log, so that a job that went quiet shows its
 * last burst.
 *
 * Context: under the qdisc lock.  Constant time.
 */
void ddl_burst_settle(struct ddl_sched *s, const struct ddl_params *p,
		      u32 idx, u64 now)
{
	const struct ddl_cls *c = &s->cls[idx];

	if (idx == DDL_BG(s) || !c->in_burst || c->data_qlen)
		return;
	if (now - c->empty_since < ddl_burst_gap(p))
		return;
	/* ddl_burst_start() would go on with it. */
	if (ddl_burst_paused(c, now))
		return;
	ddl_burst_end(s, idx);
}

/**
 * ddl_burst_last() - a recently completed burst of a job
 * @s: scheduler
 * @idx: job class index
 * @back: 0 for the newest, 1 for the one before, ...
 *
 * Context: under the qdisc lock.
 * Return: the record, or NULL if @back is not below DDL_BURST_LOG and the
 * number of bursts the job completed.
 */
const struct ddl_burst_rec *ddl_burst_last(const struct ddl_sched *s,
					   u32 idx, u32 back)
{
	const struct ddl_job_log *l = &s->jlog[idx];

	if (back >= DDL_BURST_LOG || back >= l->done)
		return NULL;
	return &l->ring[(l->done - 1 - back) % DDL_BURST_LOG];
}

/**
 * ddl_turn_record() - record a change of the green job
 * @s: scheduler, @s->green still the job that was green
 * @to: job made green
 * @why: the reason
 * @now: current time, ns
 *
 * Context: under the qdisc lock.  Constant time.
 */
void ddl_turn_record(struct ddl_sched *s, u32 to, enum ddl_turn_why why,
		     u64 now)
{
	struct ddl_turn_rec *r = &s->turn_log[s->turns % DDL_TURN_LOG];

	r->time = now;
	r->from = s->green;
	r->to = to;
	r->why = why;
	s->turns++;
}

/**
 * ddl_turn_last() - a recent change of the green job
 * @s: scheduler
 * @back: 0 for the newest, 1 for the one before, ...
 *
 * Context: under the qdisc lock.
 * Return: the record, or NULL if @back is not below DDL_TURN_LOG and the
 * number of changes recorded.
 */
const struct ddl_turn_rec *ddl_turn_last(const struct ddl_sched *s, u32 back)
{
	if (back >= DDL_TURN_LOG || back >= s->turns)
		return NULL;
	return &s->turn_log[(s->turns - 1 - back) % DDL_TURN_LOG];
}
