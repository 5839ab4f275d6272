// SPDX-License-Identifier: GPL-2.0
/*
 * ddl_sched.c - the sch_ddl scheduling core: the configuration, and who
 * sends next: the green job (in mode fair the job whose burst has the
 * smallest finish tag, ddl_fair.c; in mode cluster the job whose burst has
 * the smallest cluster key, ddl_cluster.c; in the rotation modes fixed
 * slices or turns learned from each job's bursts, and yield), the
 * starvation guard, the background share, the ACK lane (a job that holds
 * only pure ACKs is served ahead of the order, for a bounded share) and
 * deficit round robin among the yellow jobs.  It is the core's top: the
 * glue calls in here, and it calls the other units, each with its own state
 * and the facts it needs; none of them calls another back.  A packet's
 * arrival enters each unit at most once.
 *
 * Everything here runs in O(1) per packet: backlogged jobs are a two-level
 * bitmap (64 x 64 bits) and the waiters and DRR rings are lists that only
 * ever move their head.  No clock is read: @now comes from the caller.
 */

#include <linux/bitops.h>
#include <linux/bug.h>
#include <linux/log2.h>
#include <linux/math64.h>
#include <linux/minmax.h>
#include <linux/overflow.h>
#include <linux/slab.h>
#include <linux/vmalloc.h>

#include "ddl_sched.h"

/**
 * ddl_params_init() - fill in the default configuration
 * @p: configuration to initialise
 *
 * Every option's default from ddl_opts[]; then what they derive.
 *
 * Context: any.
 */
void ddl_params_init(struct ddl_params *p)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(ddl_opts); i++)
		ddl_opt_set(p, &ddl_opts[i], ddl_opts[i].def);
	ddl_params_derive(p);
}

/* The target in force, bytes: see ddl_params_derive(). */
static u64 ddl_target_bytes(const struct ddl_params *p)
{
	if (!p->rate)
		return p->target;
	if (p->target_us == TC_DDL_AUTO)
		return p->target ?:
		       max_t(u64, DDL_TARGET_AUTO_MIN,
			     div64_u64(DDL_TARGET_AUTO_US * p->rate,
				       USEC_PER_SEC_U64));
	if (p->target_us)
		return div64_u64(p->target_us * p->rate, USEC_PER_SEC_U64);
	return p->target;
}

/**
 * ddl_params_derive() - compute the derived fields of a configuration
 * @p: configuration; @rate at most DDL_RATE_MAX, @target_us at most
 *     DDL_TARGET_TIME_MAX or TC_DDL_AUTO
 *
 * @p->burst_ns is the burst as time at the rate: @p->burst bytes, or with
 * @p->burst 0, DDL_BURST_AUTO_US but at least DDL_BURST_MIN_AUTO bytes.
 * @p->target_bytes is @p->target, or @p->target_us at the rate; with
 * @p->target_us TC_DDL_AUTO and no @p->target, DDL_TARGET_AUTO_US at the
 * rate but at least DDL_TARGET_AUTO_MIN bytes.  Without a rate both are 0,
 * except a target in bytes.  @p->lead_ns is @p->lead_us, DDL_LEAD_AUTO_US
 * (at most a quarter of @p->maxperiod_us) for TC_DDL_AUTO, and 0 without a
 * target.  No overflow: 1e13 us*bytes/s and 2^26 bytes * 1e9 stay far
 * below 2^64.
 *
 * Context: any.
 */
void ddl_params_derive(struct ddl_params *p)
{
	u64 burst;
	u32 lead;

	p->burst_ns = 0;
	p->target_bytes = ddl_target_bytes(p);
	if (p->rate) {
		if (p->burst) {
			burst = p->burst;
		} else {
			burst = div64_u64(DDL_BURST_AUTO_US * p->rate,
					  USEC_PER_SEC_U64);
			burst = max_t(u64, burst, DDL_BURST_MIN_AUTO);
		}
		p->burst_ns = div64_u64(burst * NSEC_PER_SEC_U64, p->rate);
	}

	lead = p->lead_us;
	if (lead == TC_DDL_AUTO)
		lead = min(DDL_LEAD_AUTO_US, p->maxperiod_us / 4);
	p->lead_ns = p->target_bytes ? (u64)lead * NSEC_PER_USEC : 0;
}

/**
 * ddl_excess() - packets to drop after the limit was lowered
 * @p: configuration with the new limit
 * @qlen: packets queued now
 *
 * Context: any.
 * Return: how many packets are above @p->limit, 0 if none.
 */
u32 ddl_excess(const struct ddl_params *p, u32 qlen)
{
	return qlen > p->limit ? qlen - p->limit : 0;
}

/* Backlogged-job bitmap */

/**
 * ddl_bm_first() - the first backlogged job at or after an index
 * @s: scheduler
 * @from: first index to consider; the search does not wrap
 *
 * Context: any.  Constant time: two levels of 64-bit words.
 * Return: index of a backlogged job, or DDL_NONE if none is at or after
 * @from.
 */
u32 ddl_bm_first(const struct ddl_sched *s, u32 from)
{
	u32 w = from / 64;
	u64 word, top;

	if (from >= s->jobs)
		return DDL_NONE;

	word = s->bm[w] & (~0ULL << (from % 64));
	if (word)
		return w * 64 + __ffs64(word);

	top = w + 1 < 64 ? s->bm_top & (~0ULL << (w + 1)) : 0;
	if (!top)
		return DDL_NONE;
	w = __ffs64(top);
	return w * 64 + __ffs64(s->bm[w]);
}

/**
 * ddl_bm_next() - the next backlogged job in round-robin order
 * @s: scheduler
 * @from: first index to consider; the search wraps around to 0
 *
 * Context: any.  Constant time: two levels of 64-bit words.
 * Return: index of a backlogged job, or DDL_NONE if no job is backlogged.
 */
u32 ddl_bm_next(const struct ddl_sched *s, u32 from)
{
	u32 idx = ddl_bm_first(s, from);

	return idx != DDL_NONE ? idx : ddl_bm_first(s, 0);
}

/**
 * ddl_sched_init() - allocate and initialise the scheduler state
 * @s: scheduler, zeroed by the caller
 * @jobs: number of job classes, DDL_JOBS_MIN .. DDL_JOBS_MAX
 *
 * All classes start empty, with weight 1, unkeyed and free for the key.
 *
 * Context: process context; allocates with GFP_KERNEL.
 * Return: 0, -EINVAL for a bad @jobs, or -ENOMEM.
 */
int ddl_sched_init(struct ddl_sched *s, u32 jobs)
{
	u32 i;

	if (jobs < DDL_JOBS_MIN || jobs > DDL_JOBS_MAX)
		return -EINVAL;

	s->jobs = jobs;
	s->green = DDL_NONE;
	INIT_LIST_HEAD(&s->waiters);
	INIT_LIST_HEAD(&s->rr);
	INIT_LIST_HEAD(&s->acks);
	s->ack_credit = DDL_ACK_CREDIT_MAX;

	s->cls = ddl_calloc(jobs + 1, sizeof(*s->cls));
	if (!s->cls || ddl_keymap_init(&s->keymap, jobs) ||
	    ddl_log_init(&s->log, jobs)) {
		ddl_sched_destroy(s);
		return -ENOMEM;
	}
	s->bg = &s->cls[DDL_BG(s)];
	for (i = 0; i <= jobs; i++) {
		struct ddl_cls *c = &s->cls[i];

		INIT_LIST_HEAD(&c->wait_node);
		INIT_LIST_HEAD(&c->rr_node);
		INIT_LIST_HEAD(&c->ack_node);
		c->weight = DDL_WEIGHT_DEFAULT;
		ddl_keymap_cls_init(&s->keymap, &c->keymap, i);
		ddl_pred_cls_init(&c->pred);
		ddl_fair_cls_init(&c->fair, c->weight);
		ddl_cluster_cls_init(&c->cl, i);
	}
	ddl_pred_init(&s->pred);
	ddl_fair_init(&s->fair);
	ddl_cluster_init(&s->cl, jobs);
	return 0;
}

/**
 * ddl_sched_destroy() - free what ddl_sched_init() allocated
 * @s: scheduler; may be partly initialised or already destroyed
 *
 * Context: process context.
 */
void ddl_sched_destroy(struct ddl_sched *s)
{
	ddl_log_destroy(&s->log);
	ddl_keymap_destroy(&s->keymap);
	kvfree(s->cls);
	s->cls = NULL;
	s->bg = NULL;
}

/**
 * ddl_turn_ns() - how long a job's green turn lasts
 * @s: scheduler
 * @p: configuration
 * @idx: job class index
 *
 * With an explicit slice, the slice times the job's weight.  With slice
 * auto, DDL_AUTO_TURN_PERIODS of the job's learned burst period times its
 * weight, at most DDL_SLICE_MAX: long enough for the jobs' bursts to fall
 * into step behind each other, short enough to rotate within a few of the
 * job's iterations.  0 while the job has no learned period: its turn then
 * ends at its first pause.
 *
 * Context: any.
 * Return: nanoseconds.
 */
u64 ddl_turn_ns(const struct ddl_sched *s, const struct ddl_params *p,
		u32 idx)
{
	const struct ddl_cls *c = &s->cls[idx];

	if (p->slice_us != TC_DDL_AUTO)
		return (u64)p->slice_us * NSEC_PER_USEC_U64 * c->weight;
	return min_t(u64,
		     ddl_pred_period(&c->pred) * DDL_AUTO_TURN_PERIODS * c->weight,
		     (u64)DDL_SLICE_MAX * NSEC_PER_USEC_U64);
}

/**
 * ddl_yield_ns() - how long a green job's queue may stay empty
 * @s: scheduler
 * @p: configuration
 * @idx: job class index
 *
 * An explicit yield (0: never yield).  With yield auto, the job's learned
 * burst period: a job that stays idle that long has missed its next burst,
 * so it paused or ended.  DDL_BURST_GAP_US while it has no learned period.
 *
 * Context: any.
 * Return: nanoseconds, 0 for never.
 */
u64 ddl_yield_ns(const struct ddl_sched *s, const struct ddl_params *p,
		 u32 idx)
{
	if (p->yield_us != TC_DDL_AUTO)
		return (u64)p->yield_us * NSEC_PER_USEC_U64;
	return max_t(u64, ddl_pred_period(&s->cls[idx].pred), DDL_BURST_GAP_NS);
}

/*
 * The modes, as tc numbers them.  Each is a choice of rules, applied in
 * one place each: green in ddl_advance(), yellow in ddl_pick_full(), the
 * cluster order in ddl_arrived() and ddl_reconfigure().
 */
const struct ddl_mode ddl_modes[TC_DDL_MODE_MAX + 1] = {
	[TC_DDL_MODE_ROTATE] = {
		.name	= "rotate",
		.green	= DDL_GREEN_TURNS,
		.yellow	= DDL_YELLOW_NEXT,
		.turns	= true,
	},
	[TC_DDL_MODE_GREEN] = {
		.name	= "green",
		.green	= DDL_GREEN_TURNS,
		.yellow	= DDL_YELLOW_DRR,
		.turns	= true,
	},
	[TC_DDL_MODE_STATIC] = {
		.name	= "static",
		.green	= DDL_GREEN_FIRST,
		.yellow	= DDL_YELLOW_FIRST,
		.why	= DDL_TURN_STATIC,
		.turns	= true,
	},
	[TC_DDL_MODE_FAIR] = {
		.name	= "fair",
		.green	= DDL_GREEN_FAIR,
		.yellow	= DDL_YELLOW_NEXT,
		.why	= DDL_TURN_FAIR,
	},
	[TC_DDL_MODE_CLUSTER] = {
		.name	= "cluster",
		.green	= DDL_GREEN_CLUSTER,
		.yellow	= DDL_YELLOW_NEXT,
		.why	= DDL_TURN_CLUSTER,
		.cluster = true,
		.turns	= true,
	},
};

/* Close @s->green's current stint and make job @idx green. */
static __always_inline void ddl_set_green(struct ddl_sched *s, u32 idx,
					  enum ddl_turn_why why, u64 now)
{
	struct ddl_cls *c;

	ddl_turn_record(&s->log, s->green, idx, why, now);
	if (s->green != DDL_NONE)
		s->cls[s->green].green_ns += now - s->green_since;

	s->green = idx;
	s->green_since = now;

	c = &s->cls[idx];
	c->greens++;
	s->slice_start = now;
	s->green_empty_since = c->backlogged ? 0 : now;
}

/**
 * ddl_green_fair() - mode fair: the head of the fair order becomes green
 * @s: scheduler
 * @fc: the fair state of the job that heads the fair order, not green
 * @now: current time, ns
 *
 * What ddl_pick_full() does when ddl_pick_quiet(): green moves on to the
 * head of the order (ddl_advance()), which is then the pick.  Out of line,
 * as ddl_pick_full() is; but without its other rules.
 *
 * Context: under the qdisc lock.  Constant time.
 * Return: the job's class index.
 */
u32 ddl_green_fair(struct ddl_sched *s, struct ddl_fair_cls *fc, u64 now)
{
	u32 idx = container_of(fc, struct ddl_cls, fair) - s->cls;

	ddl_set_green(s, idx, s->green == DDL_NONE ? DDL_TURN_START :
			      DDL_TURN_FAIR, now);
	return idx;
}

/*
 * Whether green's turn is over at @now.  An explicit slice ends on time.
 * An automatic turn ends in a pause of green (its queue empty for
 * DDL_BURST_GAP_US, so between two of its bursts, not within one) once the
 * turn is used up, and in any case after twice the turn (DDL_AUTO_CAP_US
 * for a job with no learned period).
 */
static bool ddl_turn_over(const struct ddl_sched *s,
			  const struct ddl_params *p, u64 now)
{
	const struct ddl_cls *c = &s->cls[s->green];
	u64 turn, ran = now - s->slice_start;

	turn = ddl_turn_ns(s, p, s->green);
	if (p->slice_us != TC_DDL_AUTO)
		return now >= s->slice_start + turn;
	if (ran >= (turn ? 2 * turn : DDL_AUTO_CAP_NS))
		return true;
	return ran >= turn && !c->backlogged &&
	       now - s->green_empty_since >= DDL_BURST_GAP_NS;
}

/* DDL_GREEN_TURNS: hand green on at the end of its turn, or on a yield. */
static void ddl_rotate(struct ddl_sched *s, const struct ddl_params *p,
		       u64 now)
{
	struct ddl_cls *c;
	u64 yield;
	u32 next;

	if (s->green == DDL_NONE) {
		next = ddl_bm_next(s, 0);
		if (next != DDL_NONE)
			ddl_set_green(s, next, DDL_TURN_START, now);
		return;
	}

	/* Yield: green's queue has stayed empty for its yield time. */
	c = &s->cls[s->green];
	yield = ddl_yield_ns(s, p, s->green);
	if (!c->backlogged && yield && now - s->green_empty_since >= yield) {
		next = ddl_bm_next(s, s->green + 1);
		if (next != DDL_NONE) {
			s->yields++;
			c->yields++;
			ddl_set_green(s, next, DDL_TURN_YIELD, now);
			return;
		}
	}

	if (ddl_turn_over(s, p, now)) {
		next = ddl_bm_next(s, s->green + 1);
		if (next == DDL_NONE)
			return;	/* nobody to hand over to: keep green */
		if (next == s->green) {
			/* Alone: a new slice, not a rotation. */
			s->slice_start = now;
			return;
		}
		if (c->backlogged)
			s->turns_forced++;
		s->rotations++;
		ddl_set_green(s, next, DDL_TURN_SLICE, now);
	}
}

/* Decide who is green at @now. */
static void ddl_advance(struct ddl_sched *s, const struct ddl_params *p,
			u64 now)
{
	const struct ddl_mode *m = ddl_mode(p);
	u32 next;

	switch (m->green) {
	case DDL_GREEN_FAIR:
		next = ddl_fair_first(s);
		break;
	case DDL_GREEN_CLUSTER:
		next = ddl_cluster_first(s);
		break;
	case DDL_GREEN_FIRST:
		next = ddl_bm_first(s, 0);
		break;
	default:
		ddl_rotate(s, p, now);
		return;
	}
	if (next != DDL_NONE && next != s->green)
		ddl_set_green(s, next, s->green == DDL_NONE ?
			      DDL_TURN_START : m->why, now);
}

/*
 * Yellow pick in mode green: deficit round robin over the backlogged jobs,
 * green skipped.  The head may overdraw its deficit by one packet; a head
 * without deficit gets a quantum and goes to the back.  Each turn grants at
 * least DDL_QUANTUM bytes that are then sent, so the turns are O(1) per byte
 * on average; DDL_DRR_TURNS bounds them per packet (GSO packets of 64 KiB
 * against 1514-byte quanta need up to 44 turns per job).
 */
#define DDL_DRR_TURNS(s)	(((s)->jobs + 1) * 48)

static u32 ddl_pick_drr(struct ddl_sched *s)
{
	struct ddl_cls *c = NULL;
	u32 turn;

	for (turn = 0; turn < DDL_DRR_TURNS(s); turn++) {
		if (list_empty(&s->rr))
			return DDL_NONE;
		c = list_first_entry(&s->rr, struct ddl_cls, rr_node);
		if (c - s->cls == s->green) {
			if (list_is_singular(&s->rr))
				return DDL_NONE;
			list_move_tail(&c->rr_node, &s->rr);
			continue;
		}
		if (c->deficit > 0)
			return c - s->cls;
		c->deficit += (s64)DDL_QUANTUM * c->weight;
		list_move_tail(&c->rr_node, &s->rr);
	}
	/* Not reached with sane packet sizes: serve the head anyway. */
	return c && c - s->cls != s->green ? c - s->cls : DDL_NONE;
}

/**
 * ddl_pick_full() - choose the class to send from, every rule applied
 * @s: scheduler
 * @p: configuration
 * @now: current time, ns
 * @reason: set to why the class was chosen
 *
 * What ddl_pick() does when green does not simply keep the link.  Moves
 * green on first (mode fair: to the backlogged job with the smallest
 * finish tag; the rotation modes: slice end, yield), then picks, in this
 * order: the starvation guard (the class it looked at or served least
 * recently, if that was over maxwait / DDL_GUARD_SPLIT ago and its head
 * packet has waited more than maxwait less that; a class not taken goes
 * to the back), the background if it is owed its share, the ACK lane
 * (a job that holds only packets shorter than DDL_BURST_PKT_MIN, while
 * the lane has credit), the green job, a yellow job (the next in rotated
 * order, by DRR in mode green, the next by minor in mode static), the
 * background.  The caller then sends one packet of the class and reports
 * it with ddl_served().
 *
 * Context: under the qdisc lock.  Constant time.
 * Return: class index, or DDL_NONE if no class is backlogged.
 */
u32 ddl_pick_full(struct ddl_sched *s, const struct ddl_params *p, u64 now,
		  enum ddl_reason *reason)
{
	struct ddl_cls *bg = s->bg;
	u64 maxwait, look;
	struct ddl_cls *c;
	u32 idx;

	if (list_empty(&s->waiters))
		return DDL_NONE;

	ddl_advance(s, p, now);

	/*
	 * The guard looks at one class per dequeue, the one it looked at or
	 * served least recently, and at each class at least once in
	 * maxwait / DDL_GUARD_SPLIT and one packet per class.  Serving the
	 * class whose head would pass maxwait before its next look, and
	 * sending the others to the back, bounds every head's wait while
	 * others keep theirs young.
	 */
	c = list_first_entry(&s->waiters, struct ddl_cls, wait_node);
	maxwait = ddl_maxwait_ns(p);
	look = ddl_guard_look_ns(p);
	if (now - c->wait_since > look) {
		if (now - c->head_since > maxwait - look) {
			*reason = DDL_R_GUARD;
			return c - s->cls;
		}
		c->wait_since = now;
		list_move_tail(&c->wait_node, &s->waiters);
	}

	if (s->bg_credit > 0 && bg->backlogged) {
		*reason = DDL_R_BGSHARE;
		return DDL_BG(s);
	}

	if (!list_empty(&s->acks) && s->ack_credit > 0) {
		*reason = DDL_R_ACK;
		c = list_first_entry(&s->acks, struct ddl_cls, ack_node);
		return c - s->cls;
	}

	if (s->green != DDL_NONE && s->cls[s->green].backlogged) {
		*reason = DDL_R_GREEN;
		return s->green;
	}

	*reason = DDL_R_YELLOW;
	switch (ddl_mode(p)->yellow) {
	case DDL_YELLOW_DRR:
		idx = ddl_pick_drr(s);
		break;
	case DDL_YELLOW_FIRST:
		idx = ddl_bm_first(s, 0);
		break;
	default:
		idx = ddl_bm_next(s, s->green == DDL_NONE ? 0 : s->green + 1);
		break;
	}
	if (idx != DDL_NONE)
		return idx;

	*reason = DDL_R_BACKGROUND;
	return bg->backlogged ? DDL_BG(s) : DDL_NONE;
}

/**
 * ddl_dropped() - a queued packet of a class left without being sent
 * @s: scheduler
 * @idx: class index
 * @len: its length, bytes
 * @now: current time, ns
 *
 * Keeps the count of data packets a job has queued, which ends its burst,
 * right when a packet leaves the queue other than by ddl_served(): a
 * change that lowered the limit dropped it.  ddl_served() calls it too.
 * A job left with packets but no data joins the ACK lane.
 *
 * Context: under the qdisc lock.  Constant time.
 */
void ddl_dropped(struct ddl_sched *s, u32 idx, u32 len, u64 now)
{
	if (idx != DDL_BG(s))
		ddl_data_left(s, &s->cls[idx], len, now);
}

/**
 * ddl_activate() - make a class backlogged with no packet to count
 * @s: scheduler
 * @p: configuration
 * @idx: class index
 * @now: current time, ns
 *
 * What ddl_arrived() does first for a class whose queue was empty, without
 * the packet: for a caller that fills a queue the core should not count
 * (the KUnit suites' set-ups).  The glue calls ddl_arrived() alone.
 *
 * Context: under the qdisc lock.  O(log jobs).
 */
void ddl_activate(struct ddl_sched *s, const struct ddl_params *p, u32 idx,
		  u64 now)
{
	struct ddl_cls *c = &s->cls[idx];

	if (!ddl_backlog(s, idx, now) || idx == DDL_BG(s))
		return;
	ddl_fair_queue(&s->fair, &c->fair);
	if (ddl_mode(p)->cluster)
		ddl_cluster_queue(&s->cl, &c->cl);
}

/**
 * ddl_deactivate() - a class's queue became empty, not by a packet sent
 * @s: scheduler
 * @idx: class index
 * @now: current time, ns
 *
 * For a queue emptied by drops or a purge; ddl_served() does this itself
 * for the packet that empties a queue.
 *
 * Context: under the qdisc lock.  O(log jobs).
 */
void ddl_deactivate(struct ddl_sched *s, u32 idx, u64 now)
{
	struct ddl_cls *c = &s->cls[idx];

	if (!c->backlogged)
		return;
	if (idx != DDL_BG(s))
		ddl_fair_unqueue(&s->fair, &c->fair);
	ddl_unbacklog(s, idx, now);
}

/**
 * ddl_owner_changed() - a new key took a job class
 * @s: scheduler
 * @idx: job class index, as ddl_keymap_class() returned it
 * @now: current time, ns
 *
 * The old owner's burst is complete (the log records it); what was
 * learned about its bursts is forgotten, and its place in the orders and
 * its lead window go.  Its counters stay.  An empty class is idle for the
 * key map from now.
 *
 * Context: under the qdisc lock.  O(log jobs).
 */
void ddl_owner_changed(struct ddl_sched *s, u32 idx, u64 now)
{
	struct ddl_cls *c = &s->cls[idx];

	ddl_burst_reset(&c->burst, &s->log, idx, now);
	ddl_pred_reset(&s->pred, &c->pred, now);
	ddl_fair_reset(&s->fair, &c->fair);
	ddl_cluster_reset(&c->cl);
	if (!c->backlogged)
		ddl_key_idle(&s->keymap, &c->keymap, now);
}

/**
 * ddl_settle_burst() - complete a quiet job's burst
 * @s: scheduler
 * @p: configuration
 * @idx: class index
 * @now: current time, ns
 *
 * A burst that ddl_arrived() would no longer continue is complete
 * (ddl_burst_settle()); the log records it.  Call before reading a job's
 * log, so that a job that went quiet shows its last burst.
 *
 * Context: under the qdisc lock.  Constant time.
 */
void ddl_settle_burst(struct ddl_sched *s, const struct ddl_params *p,
		      u32 idx, u64 now)
{
	struct ddl_cls *c = &s->cls[idx];

	if (idx != DDL_BG(s))
		ddl_burst_settle(&c->burst, &c->pred, &s->log, idx, p, now);
}

/**
 * ddl_set_weight() - change a class's weight
 * @s: scheduler
 * @p: configuration
 * @idx: class index
 * @weight: DDL_WEIGHT_MIN .. DDL_WEIGHT_MAX
 *
 * The weight is the job's share in the fair reference (ddl_fair_weight())
 * and its slice multiplier in the rotation modes.  A green class's running
 * slice then ends its new turn after its start (ddl_turn_ns()); if that end
 * has passed, green moves on at the next ddl_pick().
 *
 * Context: under the qdisc lock.
 */
void ddl_set_weight(struct ddl_sched *s, const struct ddl_params *p, u32 idx,
		    u32 weight)
{
	struct ddl_cls *c = &s->cls[idx];

	ddl_fair_weight(&s->fair, &c->fair, weight);
	c->weight = weight;
}

/**
 * ddl_reconfigure() - apply a new configuration
 * @s: scheduler
 * @old: configuration in force until now
 * @p: new configuration, already validated
 * @now: current time, ns
 *
 * Queued packets are not touched.  A new slice length applies to the
 * running slice (from its start); a new key releases every key mapping,
 * classes keep their packets and serve them in order; a new mode takes over
 * at the next pick.  A new rate takes effect at the next packet, which may
 * leave at once.  A change of the target, the lead time or maxperiod
 * closes an open lead window; learned periods are kept.  Entering or
 * leaving mode cluster builds or empties its order, job by job
 * (ddl_cluster_join(), ddl_cluster_leave()).
 *
 * Context: under the qdisc lock.  O(jobs) if the key changes, O(jobs log
 * jobs) if mode cluster begins or ends, else O(1).
 */
void ddl_reconfigure(struct ddl_sched *s, const struct ddl_params *old,
		     const struct ddl_params *p, u64 now)
{
	bool was = ddl_mode(old)->cluster, on = ddl_mode(p)->cluster;
	struct ddl_cls *c;
	u32 i;

	if (old->bgshare != p->bgshare)
		s->bg_credit = 0;

	if (old->key != p->key)
		ddl_keymap_release_all(&s->keymap);

	ddl_pace_reconfigure(&s->pace, old, p, now);
	ddl_cluster_reconfigure(&s->cl);
	if (on != was) {
		for (i = 0; i < s->jobs; i++) {
			c = &s->cls[i];
			if (on)
				ddl_cluster_join(&s->cl, &c->cl, p, c->weight,
						 c->backlogged, now);
			else
				ddl_cluster_leave(&s->cl, &c->cl);
		}
	}

	if (old->target_bytes != p->target_bytes ||
	    old->lead_ns != p->lead_ns ||
	    old->maxperiod_us != p->maxperiod_us)
		ddl_disarm(&s->pred, now);
}

/**
 * ddl_quiesce() - the qdisc was emptied (reset)
 * @s: scheduler
 * @now: current time, ns
 *
 * Ends a hold of the shaper, lets the next packet leave at once without
 * idle credit, closes an open lead window and restarts the target control.
 * Learned periods are kept.
 *
 * Context: under the qdisc lock.
 */
void ddl_quiesce(struct ddl_sched *s, u64 now)
{
	ddl_pace_reset(&s->pace, now);
	ddl_disarm(&s->pred, now);
}

/**
 * ddl_green_ns() - time a class has spent green, up to @now
 * @s: scheduler
 * @idx: class index
 * @now: current time, ns
 *
 * Context: under the qdisc lock.
 * Return: nanoseconds.
 */
u64 ddl_green_ns(const struct ddl_sched *s, u32 idx, u64 now)
{
	u64 ns = s->cls[idx].green_ns;

	if (idx == s->green)
		ns += now - s->green_since;
	return ns;
}
