/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ddl_burst.h - the bursts of the jobs (ddl_burst.c): where a burst
 * starts, pauses and ends, decided once per packet.
 */
#ifndef _DDL_BURST_H
#define _DDL_BURST_H

#include <linux/types.h>

#include "ddl_params.h"

struct ddl_cls;
struct ddl_sched;

/* A job empty this long starts a new burst when it sends again (no yield). */
#define DDL_BURST_GAP_US	1000U

/* A job's queue empty shorter than this is a pause within its burst. */
#define DDL_FAIR_PAUSE_US	10000U

/* Packets shorter than this (pure ACKs) do not start a burst. */
#define DDL_BURST_PKT_MIN	128U

#define DDL_BURST_GAP_NS	((u64)DDL_BURST_GAP_US * NSEC_PER_USEC_U64)
#define DDL_FAIR_PAUSE_NS	((u64)DDL_FAIR_PAUSE_US * NSEC_PER_USEC_U64)

/**
 * enum ddl_burst_event - what a packet's arrival did to its job's burst
 * @DDL_BURST_NONE: nothing: the burst goes on, or the packet is no data
 * @DDL_BURST_START: a new burst started
 * @DDL_BURST_RESUME: the job's queue had run dry, but its sender only
 *	paused in its burst (ddl_pred_paused()): the burst goes on
 */
enum ddl_burst_event {
	DDL_BURST_NONE,
	DDL_BURST_START,
	DDL_BURST_RESUME,
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

u64 ddl_burst_gap(const struct ddl_params *p);
bool ddl_burst_paused(const struct ddl_cls *c, u64 now);
enum ddl_burst_event ddl_burst_begin(struct ddl_sched *s,
				     const struct ddl_params *p, u32 idx,
				     u64 now);
void ddl_burst_reset(struct ddl_sched *s, struct ddl_cls *c, u64 now);
void ddl_burst_settle(struct ddl_sched *s, const struct ddl_params *p,
		      u32 idx, u64 now);

/**
 * ddl_burst_data() - a packet joined a job's queue: may a burst begin?
 * @b: the job's burst
 * @len: the packet's length, bytes
 *
 * A data packet (DDL_BURST_PKT_MIN bytes or more) is counted; if it found
 * no other data queued, the caller asks ddl_burst_begin() what it begins.
 *
 * Context: under the qdisc lock.
 * Return: true if it is data and found none queued.
 */
static inline bool ddl_burst_data(struct ddl_burst_cls *b, u32 len)
{
	return len >= DDL_BURST_PKT_MIN && !b->data_qlen++;
}

/**
 * ddl_burst_has_data() - whether a job holds data packets
 * @b: the job's burst
 *
 * Context: under the qdisc lock.
 * Return: true if a packet of DDL_BURST_PKT_MIN bytes or more is queued.
 */
static inline bool ddl_burst_has_data(const struct ddl_burst_cls *b)
{
	return b->data_qlen;
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
 */
static inline void ddl_burst_idle(struct ddl_burst_cls *b, u64 now)
{
	if (b->data_qlen) {
		b->data_qlen = 0;
		b->empty_since = now;
	}
}

/**
 * ddl_burst_quiet() - how long a job has held no data
 * @b: the job's burst
 * @now: current time, ns
 *
 * Context: under the qdisc lock.
 * Return: nanoseconds since its queue last held data; meaningless while it
 * holds some (ddl_burst_has_data()).
 */
static inline u64 ddl_burst_quiet(const struct ddl_burst_cls *b, u64 now)
{
	return now - b->empty_since;
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
