/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ddl_sched.h - who sends next (ddl_sched.c): the state of a class and of
 * an instance, each unit's part embedded, and the calls the glue makes.
 * The scheduler is the one unit that calls the others: it hands each its
 * own state and the facts it needs.
 */
#ifndef _DDL_SCHED_H
#define _DDL_SCHED_H

#include <linux/bitops.h>
#include <linux/list.h>
#include <linux/minmax.h>
#include <linux/sizes.h>
#include <linux/types.h>

#include "ddl_burst.h"
#include "ddl_cluster.h"
#include "ddl_fair.h"
#include "ddl_keymap.h"
#include "ddl_log.h"
#include "ddl_pace.h"
#include "ddl_params.h"
#include "ddl_predict.h"

#define DDL_AUTO_CAP_NS		((u64)DDL_AUTO_CAP_US * NSEC_PER_USEC_U64)

/* Bytes a yellow job may send per DRR round, times its weight. */
#define DDL_QUANTUM		1514

/*
 * The ACK lane: a job that holds packets but no data (a parameter server's
 * ACKs of the gradients it receives) is served ahead of the order, for at
 * most 1/DDL_ACK_SHARE of the bytes sent; the credit for it holds at most
 * DDL_ACK_CREDIT_MAX bytes' worth of ACKs.
 */
#define DDL_ACK_SHARE		16
#define DDL_ACK_CREDIT_MAX	((s64)SZ_64K * DDL_ACK_SHARE)

/* Largest background credit, bytes times percent: one 64 KiB GSO packet. */
#define DDL_BG_CREDIT_MAX	(65536LL * 100)

/**
 * enum ddl_reason - why ddl_pick() chose a class
 * @DDL_R_GUARD: the starvation guard: its head waited longer than maxwait
 * @DDL_R_BGSHARE: the background class is owed its minimum share
 * @DDL_R_ACK: a job that holds no data, only packets shorter than
 *	DDL_BURST_PKT_MIN (pure ACKs)
 * @DDL_R_GREEN: the green job
 * @DDL_R_YELLOW: a job behind green, green having nothing to send
 * @DDL_R_BACKGROUND: the background class, no job having anything to send
 */
enum ddl_reason {
	DDL_R_GUARD,
	DDL_R_BGSHARE,
	DDL_R_ACK,
	DDL_R_GREEN,
	DDL_R_YELLOW,
	DDL_R_BACKGROUND,
};

/**
 * enum ddl_green_rule - how a mode chooses the green job (ddl_pick())
 * @DDL_GREEN_TURNS: each job in turn, for a slice or an automatic turn,
 *	handing on early when it yields
 * @DDL_GREEN_FIRST: the backlogged job of the lowest minor
 * @DDL_GREEN_FAIR: the job whose burst has the smallest finish tag
 *	(ddl_fair.c)
 * @DDL_GREEN_CLUSTER: the job whose burst has the smallest cluster key
 *	(ddl_cluster.c)
 */
enum ddl_green_rule {
	DDL_GREEN_TURNS,
	DDL_GREEN_FIRST,
	DDL_GREEN_FAIR,
	DDL_GREEN_CLUSTER,
};

/**
 * enum ddl_yellow_rule - how a mode chooses among the jobs behind green
 * @DDL_YELLOW_NEXT: the next backlogged job after green, by minor
 * @DDL_YELLOW_DRR: deficit round robin, green skipped
 * @DDL_YELLOW_FIRST: the backlogged job of the lowest minor
 */
enum ddl_yellow_rule {
	DDL_YELLOW_NEXT,
	DDL_YELLOW_DRR,
	DDL_YELLOW_FIRST,
};

/**
 * struct ddl_mode - what one mode (enum tc_ddl_mode) does, in ddl_modes[]
 * @name: the mode's name, as tc spells it
 * @green: how it chooses the green job, enum ddl_green_rule
 * @yellow: how it chooses among the other jobs, enum ddl_yellow_rule
 * @why: why green changes other than the first time, enum ddl_turn_why
 *	(unused by DDL_GREEN_TURNS, which says slice or yield)
 * @cluster: it keeps the cluster order: a job's bursts get cluster keys,
 *	its packets the rank they give (dscp), and it reads the shared clock
 * @turns: green's turn has a length (ddl_turn_ns()) worth reporting
 */
struct ddl_mode {
	const char	*name;
	u8		green;
	u8		yellow;
	u8		why;
	bool		cluster;
	bool		turns;
};

extern const struct ddl_mode ddl_modes[TC_DDL_MODE_MAX + 1];

/**
 * ddl_mode() - the mode a configuration runs
 * @p: configuration, its mode validated
 *
 * Context: any; pure.
 * Return: its entry of ddl_modes[].
 */
static inline const struct ddl_mode *ddl_mode(const struct ddl_params *p)
{
	return &ddl_modes[p->mode];
}

/**
 * ddl_shared_clock() - whether the core wants the shared clock's offset
 * @p: configuration
 *
 * Mode cluster keys bursts by the shared clock; a shuffle deals the
 * fabric's code points by it.  The glue then keeps &ddl_cluster.clock_off
 * up to date.
 *
 * Context: any; pure.
 * Return: true if it does.
 */
static inline bool ddl_shared_clock(const struct ddl_params *p)
{
	return ddl_mode(p)->cluster || p->shuffle_us;
}

/**
 * struct ddl_cls - scheduling state of one class
 * @wait_node: on &ddl_sched.waiters while backlogged, oldest @wait_since
 *	first
 * @rr_node: on &ddl_sched.rr while a backlogged job (DRR of yellow jobs)
 * @ack_node: on &ddl_sched.acks while a backlogged job with no data queued
 * @wait_since: last service or look of the guard, or when the class
 *	became backlogged
 * @head_since: when its head packet was queued, as the glue tells
 *	(ddl_head_queued()); else its last service or activation
 * @deficit: DRR deficit in bytes
 * @weight: the job's share in the fair order, and the multiplier of its
 *	turn in the rotation modes
 * @backlogged: the class has packets (as told by the glue)
 * @green_ns: time spent green, up to the last change of green
 * @bytes_green: bytes sent while green
 * @bytes_yellow: bytes sent while not green
 * @greens: times made green
 * @yields: times it handed green on early
 * @guard_runs: packets sent for it by the starvation guard
 * @ack_runs: packets sent for it ahead of the order as it held no data
 * @keymap: the key that owns it (ddl_keymap.c)
 * @burst: its current burst (ddl_burst.c)
 * @pred: what was learned of its bursts (ddl_predict.c)
 * @fair: its burst in the fair order (ddl_fair.c)
 * @cl: its burst in the cluster order (ddl_cluster.c)
 */
struct ddl_cls {
	struct list_head	wait_node;
	struct list_head	rr_node;
	struct list_head	ack_node;
	u64			wait_since;
	u64			head_since;
	s64			deficit;
	u16			weight;
	bool			backlogged;

	u64			green_ns;
	u64			bytes_green;
	u64			bytes_yellow;
	u64			greens;
	u64			yields;
	u64			guard_runs;
	u64			ack_runs;

	struct ddl_keymap_cls	keymap;
	struct ddl_burst_cls	burst;
	struct ddl_pred_cls	pred;
	struct ddl_fair_cls	fair;
	struct ddl_cluster_cls	cl;
};

/**
 * struct ddl_sched - scheduling state of one sch_ddl instance
 * @jobs: number of job classes
 * @cls: @jobs job classes and the background class, DDL_BG()
 * @bg: the background class, &@cls[DDL_BG()]: one load where a packet
 *	reads it
 * @bm: backlogged jobs, one bit each
 * @bm_top: bit w set when @bm[w] is non-zero
 * @waiters: backlogged classes, least recently served first
 * @rr: backlogged jobs in DRR order
 * @acks: backlogged jobs with no data queued, in the order they got so
 * @green: index of the green job, or DDL_NONE
 * @green_since: when @green became green
 * @slice_start: when @green's current slice began; an explicit slice
 *	ends ddl_turn_ns() later
 * @green_empty_since: when @green's queue became empty, 0 while backlogged
 * @bg_credit: background share credit, bytes times percent
 * @ack_credit: credit of the ACK lane, bytes times DDL_ACK_SHARE
 * @rotations: slice ends that moved green to another job
 * @turns_forced: turns ended while green still had packets queued
 * @yields: green handed on early
 * @guard_runs: packets sent by the starvation guard
 * @bgshare_runs: packets sent for the background share
 * @ack_runs: job packets sent in the ACK lane
 * @keymap: the key map (ddl_keymap.c)
 * @pace: the shaper and the target (ddl_pace.c)
 * @burst: the bursts (ddl_burst.c)
 * @pred: the predictor and its lead window (ddl_predict.c)
 * @fair: the fair order (ddl_fair.c)
 * @cl: the cluster order (ddl_cluster.c)
 * @log: the records (ddl_log.c)
 */
struct ddl_sched {
	u32			jobs;
	struct ddl_cls		*cls;
	struct ddl_cls		*bg;
	u64			bm[DDL_JOBS_MAX / 64];
	u64			bm_top;
	struct list_head	waiters;
	struct list_head	rr;
	struct list_head	acks;

	u32			green;
	u64			green_since;
	u64			slice_start;
	u64			green_empty_since;
	s64			bg_credit;
	s64			ack_credit;

	u64			rotations;
	u64			turns_forced;
	u64			yields;
	u64			guard_runs;
	u64			bgshare_runs;
	u64			ack_runs;

	struct ddl_keymap	keymap;
	struct ddl_pace		pace;
	struct ddl_burst	burst;
	struct ddl_pred		pred;
	struct ddl_fair		fair;
	struct ddl_cluster	cl;
	struct ddl_log		log;
};

/* Index of the background class. */
#define DDL_BG(s)		((s)->jobs)

/**
 * ddl_fair_first() - the backlogged job with the smallest finish tag
 * @s: scheduler
 *
 * The class whose fair state heads the fair order (ddl_fair_head()).
 *
 * Context: under the qdisc lock.  Constant time.
 * Return: job class index, or DDL_NONE if no job is backlogged.
 */
static inline u32 ddl_fair_first(const struct ddl_sched *s)
{
	const struct ddl_fair_cls *fc = ddl_fair_head(&s->fair);

	return fc ? container_of(fc, struct ddl_cls, fair) - s->cls : DDL_NONE;
}

/**
 * ddl_cluster_first() - the backlogged job with the smallest cluster key
 * @s: scheduler
 *
 * The class whose cluster state heads the cluster order
 * (ddl_cluster_head()).
 *
 * Context: under the qdisc lock.  Constant time.
 * Return: job class index, or DDL_NONE if no job is in the order.
 */
static inline u32 ddl_cluster_first(const struct ddl_sched *s)
{
	const struct ddl_cluster_cls *cc = ddl_cluster_head(&s->cl);

	return cc ? container_of(cc, struct ddl_cls, cl) - s->cls : DDL_NONE;
}

/**
 * ddl_pred_job() - the class of what the predictor learned of a job
 * @s: scheduler
 * @pc: the predictor's state of a job, or NULL
 *
 * Context: any.  Constant time.
 * Return: job class index, or DDL_NONE if @pc is NULL.
 */
static inline u32 ddl_pred_job(const struct ddl_sched *s,
			       const struct ddl_pred_cls *pc)
{
	return pc ? container_of(pc, struct ddl_cls, pred) - s->cls : DDL_NONE;
}

/**
 * ddl_lead_job() - the job a lead window is open for
 * @s: scheduler
 *
 * Context: under the qdisc lock, after ddl_window().
 * Return: job index, or DDL_NONE if no window is open.
 */
static inline u32 ddl_lead_job(const struct ddl_sched *s)
{
	return ddl_pred_job(s, ddl_pred_lead(&s->pred));
}

int ddl_sched_init(struct ddl_sched *s, u32 jobs);
void ddl_sched_destroy(struct ddl_sched *s);
void ddl_activate(struct ddl_sched *s, const struct ddl_params *p, u32 idx,
		  u64 now);
void ddl_deactivate(struct ddl_sched *s, u32 idx, u64 now);
u32 ddl_pick_full(struct ddl_sched *s, const struct ddl_params *p, u64 now,
		  enum ddl_reason *reason);
u32 ddl_green_fair(struct ddl_sched *s, struct ddl_fair_cls *fc, u64 now);
void ddl_dropped(struct ddl_sched *s, u32 idx, u32 len, u64 now);
void ddl_owner_changed(struct ddl_sched *s, u32 idx, u64 now);
void ddl_settle_burst(struct ddl_sched *s, const struct ddl_params *p,
		      u32 idx, u64 now);
void ddl_set_weight(struct ddl_sched *s, const struct ddl_params *p, u32 idx,
		    u32 weight);
void ddl_reconfigure(struct ddl_sched *s, const struct ddl_params *old,
		     const struct ddl_params *p, u64 now);
void ddl_quiesce(struct ddl_sched *s, u64 now);
u64 ddl_green_ns(const struct ddl_sched *s, u32 idx, u64 now);
u64 ddl_turn_ns(const struct ddl_sched *s, const struct ddl_params *p,
		u32 idx);
u64 ddl_yield_ns(const struct ddl_sched *s, const struct ddl_params *p,
		 u32 idx);
u32 ddl_bm_next(const struct ddl_sched *s, u32 from);
u32 ddl_bm_first(const struct ddl_sched *s, u32 from);

/* The backlogged-job bitmap: job @idx in. */
static inline void ddl_bm_set(struct ddl_sched *s, u32 idx)
{
	s->bm[idx / 64] |= BIT_ULL(idx % 64);
	s->bm_top |= BIT_ULL(idx / 64);
}

/* The backlogged-job bitmap: job @idx out. */
static inline void ddl_bm_clear(struct ddl_sched *s, u32 idx)
{
	s->bm[idx / 64] &= ~BIT_ULL(idx % 64);
	if (!s->bm[idx / 64])
		s->bm_top &= ~BIT_ULL(idx / 64);
}

/**
 * ddl_backlog() - a class's queue is no longer empty
 * @s: scheduler
 * @idx: class index
 * @now: current time, ns
 *
 * It waits, competes in round robin and keeps its key.  The orders' part
 * is theirs (ddl_fair_queue(), ddl_cluster_queue()).  Inline:
 * ddl_arrived() runs it for a class that was not backlogged, which a job
 * whose bursts are a packet or a few is at every few packets.
 *
 * Context: under the qdisc lock.  Constant time.
 * Return: false if it was backlogged already.
 */
static inline bool ddl_backlog(struct ddl_sched *s, u32 idx, u64 now)
{
	struct ddl_cls *c = &s->cls[idx];

	if (c->backlogged)
		return false;
	c->backlogged = true;
	c->wait_since = now;
	c->head_since = now;
	list_add_tail(&c->wait_node, &s->waiters);

	if (idx == DDL_BG(s)) {
		s->bg_credit = 0;
		return true;
	}

	ddl_bm_set(s, idx);
	list_add_tail(&c->rr_node, &s->rr);
	if (c->deficit <= 0)
		c->deficit = (s64)DDL_QUANTUM * c->weight;
	if (idx == s->green)
		s->green_empty_since = 0;
	ddl_key_busy(&c->keymap);
	return true;
}

/**
 * ddl_unbacklog() - a backlogged class's queue became empty
 * @s: scheduler
 * @idx: class index, backlogged
 * @now: current time, ns
 *
 * It no longer waits, competes in round robin or holds ACKs, and leaves
 * the cluster order, its pause counted from when it last held data.  The
 * fair order's part is the caller's (ddl_fair_served(),
 * ddl_fair_unqueue()).  Inline: ddl_served() runs it for the packet that
 * empties a queue, which a job whose bursts are a packet or a few does
 * for every few packets.
 *
 * Context: under the qdisc lock.  O(log jobs).
 */
static inline void ddl_unbacklog(struct ddl_sched *s, u32 idx, u64 now)
{
	struct ddl_cls *c = &s->cls[idx];
	u64 since;

	c->backlogged = false;
	list_del_init(&c->wait_node);

	if (idx == DDL_BG(s)) {
		s->bg_credit = 0;
		return;
	}

	ddl_bm_clear(s, idx);
	since = ddl_burst_idle(&c->burst, now);
	ddl_cluster_unqueue(&s->cl, &c->cl, since);
	list_del_init(&c->rr_node);
	list_del_init(&c->ack_node);
	if (idx == s->green)
		s->green_empty_since = now;
	ddl_key_idle(&s->keymap, &c->keymap, now);
}

/**
 * ddl_maxwait_ns() - the longest a class's head packet should wait
 * @p: configuration
 *
 * Context: any; pure.
 * Return: maxwait, ns.
 */
static inline u64 ddl_maxwait_ns(const struct ddl_params *p)
{
	return (u64)p->maxwait_us * NSEC_PER_USEC_U64;
}

/**
 * ddl_guard_look_ns() - how often the starvation guard looks at a class
 * @p: configuration
 *
 * Context: any; pure.
 * Return: maxwait / DDL_GUARD_SPLIT, ns.
 */
static inline u64 ddl_guard_look_ns(const struct ddl_params *p)
{
	return ddl_maxwait_ns(p) / DDL_GUARD_SPLIT;
}

/**
 * ddl_pick_quiet() - whether no rule but green's has anything to do
 * @s: scheduler, with a job backlogged
 * @p: configuration
 * @now: current time, ns
 *
 * The starvation guard is not due to look at the class it looks at next,
 * the background is owed no share and the ACK lane has no job or no
 * credit: ddl_pick_full() would choose green, once it has moved green on.
 *
 * Context: under the qdisc lock; pure.  Constant time.
 * Return: true if it would.
 */
static inline bool ddl_pick_quiet(const struct ddl_sched *s,
				  const struct ddl_params *p, u64 now)
{
	const struct ddl_cls *w;

	/* A job is backlogged, so there are waiters. */
	w = list_first_entry(&s->waiters, struct ddl_cls, wait_node);
	if (now - w->wait_since > ddl_guard_look_ns(p))
		return false;
	/* The credit first: it is 0 while the background is empty. */
	if (s->bg_credit > 0 && s->bg->backlogged)
		return false;
	return list_empty(&s->acks) || s->ack_credit <= 0;
}

/**
 * ddl_green_keeps() - whether green is the pick, with nothing else to do
 * @s: scheduler
 * @p: configuration
 * @now: current time, ns
 *
 * True when every rule of ddl_pick_full() would leave things as they are
 * and choose green: in mode fair or cluster, green is backlogged and heads
 * its order (or the order is empty), and ddl_pick_quiet().  The rotation
 * modes' turns and mode static are always decided in full.
 *
 * Context: under the qdisc lock; pure.  Constant time.
 * Return: true if ddl_pick_full() would return green, with DDL_R_GREEN,
 * and change nothing.
 */
static inline bool ddl_green_keeps(const struct ddl_sched *s,
				   const struct ddl_params *p, u64 now)
{
	const struct ddl_cls *g;

	if (s->green == DDL_NONE)
		return false;
	g = &s->cls[s->green];
	if (!g->backlogged)
		return false;
	/*
	 * The head of the order is green's own state, or there is none: the
	 * pointers compared, no index computed (ddl_fair_first()).
	 */
	switch (ddl_mode(p)->green) {
	case DDL_GREEN_FAIR: {
		const struct ddl_fair_cls *fc = ddl_fair_head(&s->fair);

		if (fc && fc != &g->fair)
			return false;
		break;
	}
	case DDL_GREEN_CLUSTER: {
		const struct ddl_cluster_cls *cc = ddl_cluster_head(&s->cl);

		if (cc && cc != &g->cl)
			return false;
		break;
	}
	default:
		return false;
	}
	/* Green is backlogged, so there are waiters. */
	return ddl_pick_quiet(s, p, now);
}

/**
 * ddl_pick() - choose the class to send from
 * @s: scheduler
 * @p: configuration
 * @now: current time, ns
 * @reason: set to why the class was chosen
 *
 * Green, where it simply keeps the link (ddl_green_keeps(): most packets
 * of a burst in mode fair); in mode fair, the head of the fair order made
 * green where no other rule has anything to do (ddl_pick_quiet(),
 * ddl_green_fair(): a job whose queue held one burst of a few packets);
 * else the full pick, ddl_pick_full().  The caller then sends one packet
 * of the class and reports it with ddl_served().
 *
 * Context: under the qdisc lock.  Constant time.
 * Return: class index, or DDL_NONE if no class is backlogged.
 */
static inline u32 ddl_pick(struct ddl_sched *s, const struct ddl_params *p,
			   u64 now, enum ddl_reason *reason)
{
	struct ddl_fair_cls *fc;

	if (ddl_green_keeps(s, p, now)) {
		*reason = DDL_R_GREEN;
		return s->green;
	}
	fc = ddl_fair_head(&s->fair);
	/* A job heads the order, so there are waiters. */
	if (fc && ddl_mode(p)->green == DDL_GREEN_FAIR &&
	    ddl_pick_quiet(s, p, now)) {
		*reason = DDL_R_GREEN;
		return ddl_green_fair(s, fc, now);
	}
	return ddl_pick_full(s, p, now, reason);
}

/*
 * A packet of @len bytes left job @c's queue: if it was the last data
 * packet, what the job still holds are ACKs, if any, and it joins the ACK
 * lane.  ddl_served() and ddl_dropped() run it.
 */
static inline void ddl_data_left(struct ddl_sched *s, struct ddl_cls *c,
				 u32 len, u64 now)
{
	if (ddl_burst_left(&c->burst, len, now) && list_empty(&c->ack_node))
		list_add_tail(&c->ack_node, &s->acks);
}

/**
 * ddl_served() - account one packet sent from a class
 * @s: scheduler
 * @p: configuration
 * @idx: class the packet came from, as returned by ddl_pick()
 * @reason: the reason ddl_pick() gave
 * @len: packet length, bytes (qdisc_pkt_len)
 * @empty: the packet emptied the class's queue
 * @now: current time, ns
 *
 * With a rate, this moves the earliest departure time of the next packet.
 * A job packet sent other than by the ACK lane earns the lane a byte of
 * credit per byte; one sent by it spends DDL_ACK_SHARE per byte.  A class
 * left @empty is no longer backlogged (as by ddl_deactivate()).  Each unit
 * is entered once.  Inline: it runs for every packet, as does a queue
 * that empties (ddl_unbacklog()), which a job with bursts of a few
 * packets does every few; the rare parts, the fair order's side of it
 * (ddl_fair_unqueue()) and a tag reached in the fair reference
 * (ddl_fair_advance()), are calls.
 *
 * Context: under the qdisc lock.  Constant time, O(log jobs) when @empty.
 */
static inline void ddl_served(struct ddl_sched *s,
			      const struct ddl_params *p, u32 idx,
			      enum ddl_reason reason, u32 len, bool empty,
			      u64 now)
{
	struct ddl_cls *c = &s->cls[idx];
	u32 bg = DDL_BG(s);

	c->wait_since = now;
	c->head_since = now;
	if (!list_is_last(&c->wait_node, &s->waiters))
		list_move_tail(&c->wait_node, &s->waiters);
	ddl_burst_sent(&c->burst, len);
	ddl_pace_sent(&s->pace, p, len, now);

	if (idx == s->green)
		c->bytes_green += len;
	else
		c->bytes_yellow += len;

	if (reason == DDL_R_GUARD) {
		s->guard_runs++;
		c->guard_runs++;
	} else if (reason == DDL_R_BGSHARE) {
		s->bgshare_runs++;
	}

	/*
	 * The credits never leave their bounds (they start within them, and
	 * a reset sets 0), so a gain can only pass the upper one and a
	 * spend only the lower one.
	 */
	if (idx != bg) {
		ddl_fair_served(&s->fair, len, empty ? &c->fair : NULL);
		ddl_data_left(s, c, len, now);
		/* DRR among yellow jobs; ddl_pick_drr() refills the deficit. */
		if (reason == DDL_R_YELLOW &&
		    ddl_mode(p)->yellow == DDL_YELLOW_DRR)
			c->deficit -= len;
		/* Background share: job bytes earn credit. */
		if (s->bg->backlogged)
			s->bg_credit = min_t(s64, s->bg_credit +
					     (s64)len * p->bgshare,
					     DDL_BG_CREDIT_MAX);
	} else if (c->backlogged) {
		/* Background bytes spend it. */
		s->bg_credit = max_t(s64, s->bg_credit -
				     (s64)len * (100 - p->bgshare),
				     -DDL_BG_CREDIT_MAX);
	}

	/* The ACK lane: job bytes earn credit, its own bytes spend it. */
	if (reason == DDL_R_ACK) {
		s->ack_runs++;
		c->ack_runs++;
		s->ack_credit = max_t(s64, s->ack_credit -
				      (s64)len * DDL_ACK_SHARE,
				      -DDL_ACK_CREDIT_MAX);
		list_move_tail(&c->ack_node, &s->acks);
	} else if (idx != bg) {
		s->ack_credit = min_t(s64, s->ack_credit + len,
				      DDL_ACK_CREDIT_MAX);
	}

	if (empty && c->backlogged)
		ddl_unbacklog(s, idx, now);
}

/**
 * ddl_arrived() - a packet joined a class's queue
 * @s: scheduler
 * @p: configuration
 * @idx: class index
 * @len: packet length, bytes
 * @now: current time, ns
 *
 * A class whose queue was empty becomes backlogged (its key stays).  A
 * data packet that finds no other data queued may start the job's burst,
 * or continue it after a pause (ddl_burst_arrived(), which asks the
 * predictor); a burst that starts completes the one before, which the log
 * records.  Then the orders, told what happened to the burst, tag it,
 * count its bytes and queue a job that became backlogged.  A job that
 * holds packets but no data is in the ACK lane (ddl_pick()).  Each unit is
 * entered once.  Inline: it runs for every packet, as does a class that
 * becomes backlogged (ddl_backlog()), which a job with bursts of a few
 * packets does every few; the rare parts, a burst that may start
 * (ddl_burst_begin()), a tag that changes (ddl_fair_update()), are calls.
 *
 * Context: under the qdisc lock.  Constant time, O(log jobs) when a burst
 * starts, its tag grows or the job becomes backlogged.
 * Return: true if a burst started.
 */
static inline bool ddl_arrived(struct ddl_sched *s,
			       const struct ddl_params *p, u32 idx, u32 len,
			       u64 now)
{
	struct ddl_cls *c = &s->cls[idx];
	struct ddl_burst_news bn;

	if (!c->backlogged)
		ddl_backlog(s, idx, now);
	if (idx == DDL_BG(s))
		return false;
	bn = ddl_burst_arrived(&s->burst, &c->burst, &s->pred, &c->pred,
			       &s->log, idx, p, len, now);
	/* Data takes the job out of the ACK lane; ACKs alone put it in. */
	if (len >= DDL_BURST_PKT_MIN && !list_empty(&c->ack_node))
		list_del_init(&c->ack_node);
	else if (bn.ev == DDL_BURST_ACKS && list_empty(&c->ack_node))
		list_add_tail(&c->ack_node, &s->acks);
	ddl_fair_arrived(&s->fair, &c->fair, len, &bn);
	if (ddl_mode(p)->cluster)	/* a test per packet, not a call */
		ddl_cluster_arrived(&s->cl, &c->cl, p, c->weight, len, &bn,
				    now);
	return bn.ev == DDL_BURST_START;
}

/**
 * ddl_head_queued() - when the head packet of a class was queued
 * @s: scheduler
 * @idx: class index, backlogged
 * @since: its enqueue time, ns
 *
 * Call after ddl_served() when the class still holds packets: the guard
 * then bounds how long a packet waits, not only the gaps between two of a
 * class's packets.  A TCP flow whose packets wait less than its minimum
 * RTO keeps its timers: a job that waits for its turn loses no state.
 * Without the call the guard counts from the class's last service.
 *
 * Context: under the qdisc lock.  Constant time.
 */
static inline void ddl_head_queued(struct ddl_sched *s, u32 idx, u64 since)
{
	s->cls[idx].head_since = since;
}

/**
 * ddl_key_class() - the job class of a built-in key value
 * @s: scheduler
 * @p: configuration
 * @key: key value, non-zero
 * @now: current time, ns
 *
 * The key map's answer: the class of a known key (ddl_keymap_known()),
 * else ddl_keymap_class()'s; a class a new key took has changed owner
 * (ddl_owner_changed()).
 *
 * Context: under the qdisc lock.  Expected constant time, O(log jobs) when
 * a class changes owner.
 * Return: class index, or DDL_NONE (the caller uses the background class).
 */
static inline u32 ddl_key_class(struct ddl_sched *s,
				const struct ddl_params *p, u32 key, u64 now)
{
	u32 idx = ddl_keymap_known(&s->keymap, key);
	bool taken;

	if (idx != DDL_NONE)
		return idx;
	idx = ddl_keymap_class(&s->keymap, p, key, now, &taken);

	if (taken)
		ddl_owner_changed(s, idx, now);
	return idx;
}

/**
 * ddl_mark() - the place a job's packet carries out of the host
 * @s: scheduler
 * @p: configuration, with code points
 * @idx: job class index, backlogged
 * @now: current time, ns
 *
 * ddl_cluster_mark(), from the start of the job's iteration with a
 * shuffle (ddl_pred_iter_start()), else of its burst (ddl_burst_began()).
 *
 * Context: under the qdisc lock.  As ddl_cluster_mark().
 * Return: the place to write, 0 .. @p->ndscp - 1.
 */
static inline u32 ddl_mark(struct ddl_sched *s, const struct ddl_params *p,
			   u32 idx, u64 now)
{
	struct ddl_cls *c = &s->cls[idx];
	u64 from = p->shuffle_us ? ddl_pred_iter_start(&c->pred) :
				   ddl_burst_began(&c->burst);

	return ddl_cluster_mark(&s->cl, &c->cl, p, c->weight, from, now);
}

#endif /* _DDL_SCHED_H */
