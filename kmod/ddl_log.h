/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ddl_log.h - what the core records for those who watch it (ddl_log.c):
 * green changes, completed bursts and their histogram.
 */
#ifndef _DDL_LOG_H
#define _DDL_LOG_H

#include <linux/types.h>

#include "ddl_params.h"

/* Green changes kept per instance, and completed bursts kept per job. */
#define DDL_TURN_LOG		64U
#define DDL_BURST_LOG		4U

#define DDL_HIST_BUCKETS	TC_DDL_HIST_BUCKETS

/**
 * enum ddl_turn_why - why the green job changed
 * @DDL_TURN_START: no job was green
 * @DDL_TURN_SLICE: green's turn was over and another job was backlogged
 * @DDL_TURN_YIELD: green's queue stayed empty for its yield time
 * @DDL_TURN_STATIC: mode static: a job of a lower minor became backlogged
 * @DDL_TURN_FAIR: mode fair: another job's burst has the smallest finish tag
 * @DDL_TURN_CLUSTER: mode cluster: another job's burst has the smallest key
 */
enum ddl_turn_why {
	DDL_TURN_START,
	DDL_TURN_SLICE,
	DDL_TURN_YIELD,
	DDL_TURN_STATIC,
	DDL_TURN_FAIR,
	DDL_TURN_CLUSTER,
};

/**
 * struct ddl_turn_rec - one change of the green job
 * @time: when, ns
 * @from: job that was green, or DDL_NONE
 * @to: job made green
 * @why: enum ddl_turn_why
 */
struct ddl_turn_rec {
	u64	time;
	u32	from;
	u32	to;
	u32	why;
};

/**
 * struct ddl_burst_rec - one completed burst of a job
 * @start: when its first packet was queued, ns
 * @end: when its queue last became empty, ns
 * @bytes: bytes sent in it
 */
struct ddl_burst_rec {
	u64	start;
	u64	end;
	u64	bytes;
};

/**
 * struct ddl_job_log - completed bursts of one job
 * @hist: completion times, bucket ddl_hist_bucket() of microseconds
 * @max_us: longest completion time, us (saturating)
 * @sum_us: completion times summed, us
 * @done: bursts completed; the last min(@done, DDL_BURST_LOG) are in @ring
 * @ring: the last completed bursts, the newest at (@done - 1) % DDL_BURST_LOG
 */
struct ddl_job_log {
	u32			hist[DDL_HIST_BUCKETS];
	u32			max_us;
	u64			sum_us;
	u64			done;
	struct ddl_burst_rec	ring[DDL_BURST_LOG];
};

/**
 * struct ddl_log - the records of one instance
 * @jlog: completed bursts, one log per job
 * @bursts_done: bursts completed, all jobs
 * @turns: green changes recorded; the last min(@turns, DDL_TURN_LOG) are in
 *	@turn_log, the newest at (@turns - 1) % DDL_TURN_LOG
 * @turn_log: the last green changes
 */
struct ddl_log {
	struct ddl_job_log	*jlog;
	u64			bursts_done;
	u64			turns;
	struct ddl_turn_rec	turn_log[DDL_TURN_LOG];
};

int ddl_log_init(struct ddl_log *log, u32 jobs);
void ddl_log_destroy(struct ddl_log *log);
u32 ddl_hist_bucket(u64 us);
u64 ddl_hist_lo(u32 bucket);
u64 ddl_hist_count(const u32 *hist);
u64 ddl_hist_quantile(const u32 *hist, u64 max_us, u32 permille);
void ddl_log_burst(struct ddl_log *log, u32 idx, u64 start, u64 end,
		   u64 bytes);
const struct ddl_burst_rec *ddl_burst_last(const struct ddl_log *log,
					   u32 idx, u32 back);
const struct ddl_turn_rec *ddl_turn_last(const struct ddl_log *log,
					 u32 back);

/**
 * ddl_turn_record() - record a change of the green job
 * @log: the records
 * @from: job that was green, or DDL_NONE
 * @to: job made green
 * @why: the reason
 * @now: current time, ns
 *
 * Context: under the qdisc lock.  Constant time: inline, as green changes
 * often in mode fair.
 */
static inline void ddl_turn_record(struct ddl_log *log, u32 from, u32 to,
				   enum ddl_turn_why why, u64 now)
{
	struct ddl_turn_rec *r = &log->turn_log[log->turns % DDL_TURN_LOG];

	r->time = now;
	r->from = from;
	r->to = to;
	r->why = why;
	log->turns++;
}

#endif /* _DDL_LOG_H */
