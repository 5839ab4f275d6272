// SPDX-License-Identifier: GPL-2.0
/*
 * ddl_pace.c - the sch_ddl shaper and standing-queue target: earliest-
 * departure-time pacing at the configured rate, and the congestion signal
 * (CE mark or drop) for the background traffic when its queue stays above
 * the target.
 *
 * Constant time per packet, integer arithmetic only.  No clock is read:
 * @now comes from the caller.
 */

#include <linux/math64.h>
#include <linux/minmax.h>

#include "ddl_pace.h"

/* Shaping */

/**
 * ddl_edt_next() - earliest departure time after sending a packet
 * @t_next: earliest departure time of the packet just sent, ns
 * @rem: remainder carried between calls, < @rate; updated
 * @now: current time, ns
 * @len: bytes of the packet just sent (qdisc_pkt_len)
 * @rate: bytes per second, 1 .. DDL_RATE_MAX
 * @burst_ns: credit an idle link may accumulate, ns
 *
 * Earliest-departure-time pacing: a packet of @len bytes occupies
 * @len / @rate seconds of the link, counted from the later of @t_next and
 * @now - @burst_ns.  After an idle period at most @burst_ns worth of bytes
 * plus one packet therefore leave back to back; in any interval of length T
 * at most @rate * T + burst + one packet leave.  The division remainder is
 * carried in @rem so that the rate has no truncation bias.
 *
 * No overflow: @len * 1e9 + @rem < 2^32 * 1e9 + 2^37 < 2^64.
 *
 * Context: any; pure.
 * Return: earliest departure time of the next packet, ns.
 */
u64 ddl_edt_next(u64 t_next, u64 *rem, u64 now, u32 len, u64 rate,
		 u64 burst_ns)
{
	u64 base = t_next, num;

	if (now > burst_ns && base < now - burst_ns) {
		base = now - burst_ns;
		*rem = 0;
	}
	num = (u64)len * NSEC_PER_SEC_U64 + *rem;
	return base + div64_u64_rem(num, rate, rem);
}

/**
 * ddl_pace_throttle() - the shaper holds the queue back, from @now
 * @pc: the shaper
 * @now: current time, ns
 *
 * Called by ddl_pace_hold(): the time held back is accounted from the
 * first hold until the next ddl_pace_sent().
 *
 * Context: under the qdisc lock.
 */
void ddl_pace_throttle(struct ddl_pace *pc, u64 now)
{
	if (!pc->throttled_since) {
		pc->throttled_since = now;
		pc->throttles++;
	}
}

/**
 * ddl_pace_release() - the queue was emptied while the shaper held it
 * @pc: the shaper
 * @now: current time, ns
 *
 * Ends the time held back without a packet sent (reset, purge).
 *
 * Context: under the qdisc lock.
 */
void ddl_pace_release(struct ddl_pace *pc, u64 now)
{
	if (pc->throttled_since) {
		pc->throttled_ns += now - pc->throttled_since;
		pc->throttled_since = 0;
	}
}

/**
 * ddl_pace_reset() - the qdisc was emptied (reset)
 * @pc: the shaper
 * @now: current time, ns
 *
 * Ends a hold of the shaper, lets the next packet leave at once without
 * idle credit and restarts the target control.
 *
 * Context: under the qdisc lock.
 */
void ddl_pace_reset(struct ddl_pace *pc, u64 now)
{
	ddl_pace_release(pc, now);
	pc->next = min(pc->next, now);
	pc->rem = 0;
	pc->above = false;
}

/**
 * ddl_pace_reconfigure() - apply a new configuration
 * @pc: the shaper
 * @old: configuration in force until now
 * @p: new configuration
 * @now: current time, ns
 *
 * A new rate takes effect at the next packet, which may leave at once.  A
 * change of the target, the lead time or maxperiod restarts the target
 * control.
 *
 * Context: under the qdisc lock.
 */
void ddl_pace_reconfigure(struct ddl_pace *pc, const struct ddl_params *old,
			  const struct ddl_params *p, u64 now)
{
	if (old->rate != p->rate || old->burst_ns != p->burst_ns) {
		/* The next packet may leave now, without idle credit. */
		pc->next = min(pc->next, now);
		pc->rem = 0;
	}
	if (!p->rate)
		ddl_pace_release(pc, now);
	if (old->target_bytes != p->target_bytes ||
	    old->lead_ns != p->lead_ns ||
	    old->maxperiod_us != p->maxperiod_us)
		pc->above = false;
}

/* Standing-queue target */

/**
 * ddl_aqm_drained() - the controlled backlog after a dequeue
 * @pc: the target control
 * @p: configuration
 * @other: bytes queued in the controlled traffic (the glue: the background
 *	   class)
 *
 * A queue that has drained to the target is no longer above it: the next
 * arrival above target starts a new interval.
 *
 * Context: under the qdisc lock.  Constant time.
 */
void ddl_aqm_drained(struct ddl_pace *pc, const struct ddl_params *p,
		     u64 other)
{
	if (other <= p->target_bytes)
		pc->above = false;
}

/**
 * ddl_aqm() - congestion signal for an arriving packet of the controlled
 *	traffic
 * @pc: the target control
 * @p: configuration
 * @other: bytes queued in the controlled traffic (the glue: the background
 *	   class), before this packet
 * @len: bytes of this packet
 * @lead: a lead window is open (ddl_lead_open(), after ddl_window())
 * @now: current time, ns
 *
 * The queue is above target when @other + @len exceeds it.  Outside lead
 * windows the control is gentle: once the queue has stayed above target
 * for interval_us (as seen at arrivals and at dequeues, see
 * ddl_aqm_drained()), one packet gets a signal, and then one per
 * interval_us while it stays above.  In a lead window every packet that
 * would take the queue above target gets one, so that, with senders that
 * back off (or with drops), the queue is at most the target when the
 * predicted burst begins.
 *
 * Context: under the qdisc lock.  Constant time.
 * Return: the signal to give, DDL_SIG_NONE if none.
 */
enum ddl_signal ddl_aqm(struct ddl_pace *pc, const struct ddl_params *p,
			u64 other, u32 len, bool lead, u64 now)
{
	u64 interval = (u64)p->interval_us * NSEC_PER_USEC_U64;

	if (!p->target_bytes || other + len <= p->target_bytes) {
		pc->above = false;
		return DDL_SIG_NONE;
	}
	if (lead)
		return DDL_SIG_LEAD;
	if (!pc->above) {
		pc->above = true;
		pc->above_since = now;
		return DDL_SIG_NONE;
	}
	if (now - pc->above_since < interval || now < pc->next_signal)
		return DDL_SIG_NONE;
	pc->next_signal = now + interval;
	return DDL_SIG_TARGET;
}
