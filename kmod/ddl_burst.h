/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ddl_burst.h - the bursts of the jobs (ddl_burst.c): where a burst
 * starts, pauses and ends, decided once per packet; the predictor is
 * asked whether its sender only paused, the log records each burst that
 * ends.
 */
#ifndef _DDL_BURST_H
#define _DDL_BURST_H

#include <linux/types.h>

#include "ddl_log.h"
#include "ddl_params.h"
#include "ddl_predict.h"

/* A job empty this long starts a new burst when it sends again (no yield). */
#define DDL_BURST_GAP_US	1000U

/* Packets shorter than this (pure ACKs) do not start a burst. */
#define DDL_BURST_PKT_MIN	128U

#define DDL_BURST_GAP_NS	((u64)DDL_BURST_GAP_US * NSEC_PER_USEC_U64)

/**
 * enum ddl_burst_event - what a packet's arrival did to its job's burst
 * @DDL_BURST_NONE: nothing: the burst goes on, or the packet is a pure
 *	ACK and the job holds data
 * @DDL_BURST_START: a new burst started
 * @DDL_BURST_RESUME: the job's queue had run dry, but its sender only
 *	paused in its burst (ddl_pred_paused()): the burst goes on
 * @DDL_BURST_ACKS: nothing either, but the packet is a pure ACK and the
 *	job holds no data: what it holds are ACKs (the ACK lane, ddl_pick())
 */
enum ddl_burst_event {
	DDL_BURST_NONE,
	DDL_BURST_START,
	DDL_BURST_RESUME,
	DDL_BURST_ACKS,
};

/**
 * struct ddl_burst_news - what a packet's arrival did to its job's burst,
 *	as ddl_burst_arrived() tells the caller, who tells the orders
 * @ev: enum ddl_burst_event
 * @brief: the job's queue had held no data for less than
 *	DDL_FAIR_PAUSE_US (set if @ev is DDL_BURST_START): a pause, by time
 * @size: the job's learned size (ddl_pred_size()), bytes, once the
 *	predictor learned from the burst that ended (set if @ev is
 *	DDL_BURST_START); at most DDL_FAIR_SIZE_MAX
 */
struct ddl_burst_news {
	u8			ev;
	bool			brief;
	u32			size;
};

/**
 * struct ddl_burst_cls - the current burst of one job
 * @empty_since: when its queue last held no data packet: one of
 *	DDL_BURST_PKT_MIN bytes or more (pure ACKs are not data)
 * @start: when the current burst began
 * @bytes: bytes sent since @start
 * @count: bursts seen
 * @data_qlen: data packets queued
 * @open: a burst began at @start and is not complete yet
 */
struct ddl_burst_cls {
	u64			empty_since;
	u64			start;
	u64			bytes;
	u64			count;
	u32			data_qlen;
	bool			open;
};

/**
 * struct ddl_burst - the bursts of one instance
 * @count: bursts seen, all jobs
 */
struct ddl_burst {
	u64			count;
};

bool ddl_burst_paused(const struct ddl_burst_cls *b,
		      const struct ddl_pred_cls *pc, u64 now);
struct ddl_burst_news ddl_burst_begin(struct ddl_burst *bu,
				      struct ddl_burst_cls *b,
				      struct ddl_pred *pr,
				      struct ddl_pred_cls *pc,
				      struct ddl_log *log, u32 idx,
				      const struct ddl_params *p, u64 now);
void ddl_burst_reset(struct ddl_burst_cls *b, struct ddl_log *log, u32 idx,
		     u64 now);
void ddl_burst_settle(struct ddl_burst_cls *b, const struct ddl_pred_cls *pc,
		      struct ddl_log *log, u32 idx,
		      const struct ddl_params *p, u64 now);

/**
 * ddl_burst_gap() - the pause between two bursts of a job
 * @p: configuration
 *
 * Context: any; pure.
 * Return: yield_us when it is explicit and not 0, else DDL_BURST_GAP_US,
 * in ns.
 */
static inline u64 ddl_burst_gap(const struct ddl_params *p)
{
	return p->yield_us && p->yield_us != TC_DDL_AUTO ?
	       (u64)p->yield_us * NSEC_PER_USEC_U64 : DDL_BURST_GAP_NS;
}

/**
 * ddl_burst_arrived() - a packet joined a job's queue
 * @bu: the bursts
 * @b: the job's burst
 * @pr: the predictor
 * @pc: what it learned of the job
 * @log: the records
 * @idx: the job's class index
 * @p: configuration
 * @len: the packet's length, bytes
 * @now: current time, ns
 *
 * A data packet (DDL_BURST_PKT_MIN bytes or more) is counted; if it found
 * no other data queued, after a quiet time of at least the gap
 * (ddl_burst_gap()) or for the first time, ddl_burst_begin() says whether
 * it begins a burst.  A pure ACK is not data: it only says whether the job
 * holds any.
 *
 * Context: under the qdisc lock.  Constant time, O(log jobs) when a burst
 * starts.
 * Return: what the packet did to the job's burst.
 */
static inline struct ddl_burst_news
ddl_burst_arrived(struct ddl_burst *bu, struct ddl_burst_cls *b,
		  struct ddl_pred *pr, struct ddl_pred_cls *pc,
		  struct ddl_log *log, u32 idx, const struct ddl_params *p,
		  u32 len, u64 now)
{
	struct ddl_burst_news bn = { .ev = DDL_BURST_NONE };

	if (len < DDL_BURST_PKT_MIN) {
		if (!b->data_qlen)
			bn.ev = DDL_BURST_ACKS;
	} else if (!b->data_qlen++ &&
		   (!b->count || now - b->empty_since >= ddl_burst_gap(p))) {
		bn = ddl_burst_begin(bu, b, pr, pc, log, idx, p, now);
	}
	return bn;
}

/**
 * ddl_burst_sent() - bytes of a job were sent
 * @b: the job's burst
 * @len: bytes
 *
 * Context: under the qdisc lock.
 */
static inline void ddl_burst_sent(struct ddl_burst_cls *b, u32 len)
{
	b->bytes += len;
}

/**
 * ddl_burst_left() - a packet of a job left its queue
 * @b: the job's burst
 * @len: the packet's length, bytes
 * @now: current time, ns
 *
 * Context: under the qdisc lock.
 * Return: true if it was the last data packet queued: what the job still
 * holds are pure ACKs, if anything.
 */
static inline bool ddl_burst_left(struct ddl_burst_cls *b, u32 len, u64 now)
{
	if (len < DDL_BURST_PKT_MIN || !b->data_qlen || --b->data_qlen)
		return false;
	b->empty_since = now;
	return true;
}

/**
 * ddl_burst_idle() - a job's queue became empty
 * @b: the job's burst
 * @now: current time, ns
 *
 * Context: under the qdisc lock.
 * Return: when its queue last held data, ns: its quiet time counts from
 * there until it queues data again.
 */
static inline u64 ddl_burst_idle(struct ddl_burst_cls *b, u64 now)
{
	if (b->data_qlen) {
		b->data_qlen = 0;
		b->empty_since = now;
	}
	return b->empty_since;
}

/**
 * ddl_burst_began() - when a job's current burst started
 * @b: the job's burst
 *
 * Context: under the qdisc lock.
 * Return: the time its burst started, ns.
 */
static inline u64 ddl_burst_began(const struct ddl_burst_cls *b)
{
	return b->start;
}

#endif /* _DDL_BURST_H */
