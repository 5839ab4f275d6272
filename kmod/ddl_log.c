// SPDX-License-Identifier: GPL-2.0
/*
 * ddl_log.c - what the sch_ddl core records for those who watch it: the
 * last changes of the green job, the last completed bursts of each job, and
 * each job's histogram of burst completion times (log2 buckets of
 * microseconds) with its quantile estimates.
 *
 * When a burst is complete, and when it ended, is for ddl_burst.c to say;
 * the scheduler records the burst here (ddl_log_burst()).
 *
 * Fixed memory: DDL_TURN_LOG records per instance, one struct ddl_job_log
 * per job.  Constant time per record; a quantile walks the buckets.
 */

#include <linux/bitops.h>
#include <linux/math64.h>
#include <linux/minmax.h>
#include <linux/slab.h>

#include "ddl_log.h"

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
 * ddl_log_init() - allocate the per-job logs
 * @log: the records, zeroed
 * @jobs: number of job classes
 *
 * Context: process context; allocates with GFP_KERNEL.
 * Return: 0 or -ENOMEM.
 */
int ddl_log_init(struct ddl_log *log, u32 jobs)
{
	log->jlog = ddl_calloc(jobs, sizeof(*log->jlog));
	return log->jlog ? 0 : -ENOMEM;
}

/**
 * ddl_log_destroy() - free what ddl_log_init() allocated
 * @log: the records
 *
 * Context: process context.
 */
void ddl_log_destroy(struct ddl_log *log)
{
	kvfree(log->jlog);
	log->jlog = NULL;
}

/**
 * ddl_log_burst() - record a completed burst of a job
 * @log: the records
 * @idx: job class index
 * @start: when its first packet was queued, ns
 * @end: when its queue last held data, ns, not before @start
 * @bytes: bytes sent in it
 *
 * Context: under the qdisc lock.  Constant time.
 */
void ddl_log_burst(struct ddl_log *log, u32 idx, u64 start, u64 end,
		   u64 bytes)
{
	struct ddl_job_log *l = &log->jlog[idx];
	struct ddl_burst_rec *r;
	u64 us;
	u32 b;

	r = &l->ring[l->done % DDL_BURST_LOG];
	r->start = start;
	r->end = end;
	r->bytes = bytes;
	l->done++;
	log->bursts_done++;

	us = div_u64(r->end - r->start, NSEC_PER_USEC_U64);
	b = ddl_hist_bucket(us);
	if (l->hist[b] < U32_MAX)
		l->hist[b]++;
	l->max_us = max_t(u64, l->max_us, min_t(u64, us, U32_MAX));
	l->sum_us += us;
}

/**
 * ddl_burst_last() - a recently completed burst of a job
 * @log: the records
 * @idx: job class index
 * @back: 0 for the newest, 1 for the one before, ...
 *
 * Context: under the qdisc lock.
 * Return: the record, or NULL if @back is not below DDL_BURST_LOG and the
 * number of bursts the job completed.
 */
const struct ddl_burst_rec *ddl_burst_last(const struct ddl_log *log,
					   u32 idx, u32 back)
{
	const struct ddl_job_log *l = &log->jlog[idx];

	if (back >= DDL_BURST_LOG || back >= l->done)
		return NULL;
	return &l->ring[(l->done - 1 - back) % DDL_BURST_LOG];
}

/**
 * ddl_turn_last() - a recent change of the green job
 * @log: the records
 * @back: 0 for the newest, 1 for the one before, ...
 *
 * Context: under the qdisc lock.
 * Return: the record, or NULL if @back is not below DDL_TURN_LOG and the
 * number of changes recorded.
 */
const struct ddl_turn_rec *ddl_turn_last(const struct ddl_log *log, u32 back)
{
	if (back >= DDL_TURN_LOG || back >= log->turns)
		return NULL;
	return &log->turn_log[(log->turns - 1 - back) % DDL_TURN_LOG];
}
