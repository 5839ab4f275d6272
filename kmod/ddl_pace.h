/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ddl_pace.h - the shaper and the standing-queue target (ddl_pace.c).
 */
#ifndef _DDL_PACE_H
#define _DDL_PACE_H

#include <linux/types.h>

#include "ddl_params.h"

/**
 * enum ddl_signal - congestion signal for an arriving packet
 * @DDL_SIG_NONE: queue it
 * @DDL_SIG_TARGET: the standing queue stayed above target for an interval
 * @DDL_SIG_LEAD: a lead window is open and the queue is above target
 *
 * The caller marks an ECN-capable packet CE when ECN is on, else drops it.
 */
enum ddl_signal {
	DDL_SIG_NONE,
	DDL_SIG_TARGET,
	DDL_SIG_LEAD,
};

/**
 * struct ddl_pace - the shaper and the target control of one instance
 * @next: earliest departure time of the next packet, ns
 * @rem: remainder of the last departure-time division, ns * rate
 * @throttled_since: when the shaper began holding the queue back; 0: not
 * @throttled_ns: time the shaper held a backlog back
 * @throttles: times the shaper began holding the queue back
 * @paced_pkts: packets the shaper held back
 * @paced_bytes: bytes of @paced_pkts
 * @above: the unprotected backlog was above target at the last arrival
 * @above_since: when it went above target
 * @next_signal: no target signal before this time
 */
struct ddl_pace {
	u64			next;
	u64			rem;
	u64			throttled_since;
	u64			throttled_ns;
	u64			throttles;
	u64			paced_pkts;
	u64			paced_bytes;
	bool			above;
	u64			above_since;
	u64			next_signal;
};

u64 ddl_edt_next(u64 t_next, u64 *rem, u64 now, u32 len, u64 rate,
		 u64 burst_ns);
void ddl_pace_throttle(struct ddl_pace *pc, u64 now);
void ddl_pace_release(struct ddl_pace *pc, u64 now);
void ddl_pace_reset(struct ddl_pace *pc, u64 now);
void ddl_pace_reconfigure(struct ddl_pace *pc, const struct ddl_params *old,
			  const struct ddl_params *p, u64 now);
enum ddl_signal ddl_aqm(struct ddl_pace *pc, const struct ddl_params *p,
			u64 other, u32 len, bool lead, u64 now);
void ddl_aqm_drained(struct ddl_pace *pc, const struct ddl_params *p,
		     u64 other);

/**
 * ddl_pace_sent() - a packet left: the shaper moves on
 * @pc: the shaper
 * @p: configuration
 * @len: its length, bytes
 * @now: current time, ns
 *
 * With a rate, this moves the earliest departure time of the next packet
 * and ends the time the queue was held back.
 *
 * Context: under the qdisc lock.  Constant time.
 */
static inline void ddl_pace_sent(struct ddl_pace *pc,
				 const struct ddl_params *p, u32 len, u64 now)
{
	if (!p->rate)
		return;
	if (pc->throttled_since) {
		pc->throttled_ns += now - pc->throttled_since;
		pc->throttled_since = 0;
		pc->paced_pkts++;
		pc->paced_bytes += len;
	}
	pc->next = ddl_edt_next(pc->next, &pc->rem, now, len, p->rate,
				p->burst_ns);
}

/**
 * ddl_pace_hold() - whether the shaper holds the queue back at @now
 * @pc: the shaper
 * @p: configuration
 * @now: current time, ns
 *
 * When it does, the caller sends nothing and arms a timer for @pc->next;
 * the time held back is accounted until the next ddl_pace_sent().
 *
 * Context: under the qdisc lock, with packets queued.
 * Return: true if no packet may leave before @pc->next.
 */
static inline bool ddl_pace_hold(struct ddl_pace *pc,
				 const struct ddl_params *p, u64 now)
{
	if (!p->rate || now >= pc->next)
		return false;
	ddl_pace_throttle(pc, now);
	return true;
}

#endif /* _DDL_PACE_H */
