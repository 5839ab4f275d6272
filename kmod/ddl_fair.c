// SPDX-License-Identifier: GPL-2.0
/*
 * ddl_fair.c - the fair order of sch_ddl (mode fair): serve, alone, the
 * burst that per-job fair sharing would finish first.
 *
 * This is the Fair Sojourn Protocol (Friedman and Henderson, SIGMETRICS
 * 2003) with a job's burst as the unit.  The reference is generalised
 * processor sharing (GPS) among the jobs that have a burst in progress in
 * it, each with the share of its weight.  Its virtual time V advances by
 * 1 / (sum of their weights) per byte the jobs send, so a burst of B bytes
 * of weight w that starts in the reference at V = S leaves it at
 * F = S + B / w.  A burst starts at S = max(V, F of the job's previous
 * burst) and is tagged with F from its job's learned burst size; the
 * backlogged job with the smallest F is sent.  So once the sizes are
 * right, every burst completes no later than in the reference, plus one
 * packet (open loop: the same arrivals in both).
 *
 * While a job's size is not learned, its burst is tagged with
 * DDL_FAIR_QUANTUM bytes, and the tag doubles whenever the bytes queued
 * outgrow it; a burst that outgrows a learned size has its tag extended by
 * an eighth of it (at least DDL_FAIR_QUANTUM, at most DDL_FAIR_STEP_MAX),
 * and doubled once it is twice that size: least attained service in coarse
 * steps, and an underestimate cannot buy priority.  The extended
 * work also enters the reference, so the reference never runs out of work
 * before the real link; when the link has no job left to send, the
 * reference is emptied (what it held was tags that were too large).
 *
 * Cost: O(1) per packet but for O(log jobs) when a burst starts, its tag is
 * extended (a logarithmic number of times per burst) or it leaves the
 * reference.  V is exact to the byte: a burst leaves the reference within
 * the packet whose bytes take V past its tag.  Virtual times are u64 and
 * compared modulo 2^64.  No clock is read: the reference runs on bytes.
 */

#include <linux/math64.h>
#include <linux/minmax.h>
#include <linux/rbtree.h>

#include "ddl_core.h"

static bool ddl_v_before(u64 a, u64 b)
{
	return (s64)(a - b) < 0;
}

/* Virtual time that @bytes take in the reference at weight @w. */
static u64 ddl_vlen(u64 bytes, u32 w)
{
	return div_u64(bytes * DDL_VSCALE, w);
}

static bool ddl_fair_less(struct rb_node *a, const struct rb_node *b)
{
	return ddl_v_before(rb_entry(a, struct ddl_cls, fair_node)->vfinish,
			    rb_entry(b, struct ddl_cls, fair_node)->vfinish);
}

static bool ddl_gps_less(struct rb_node *a, const struct rb_node *b)
{
	return ddl_v_before(rb_entry(a, struct ddl_cls, gps_node)->vfinish,
			    rb_entry(b, struct ddl_cls, gps_node)->vfinish);
}

static void ddl_gps_del(struct ddl_sched *s, struct ddl_cls *c)
{
	if (RB_EMPTY_NODE(&c->gps_node))
		return;
	rb_erase_cached(&c->gps_node, &s->gps);
	RB_CLEAR_NODE(&c->gps_node);
	s->gps_weight -= c->weight;
	s->gps_jobs--;
}

/*
 * Give job @c the finish tag @vfinish.  Equal tags keep their order of
 * arrival: an insertion goes after its equals, so jobs with identical
 * bursts keep the order they settled in.
 */
static void ddl_fair_retag(struct ddl_sched *s, struct ddl_cls *c,
			   u64 vfinish)
{
	bool queued = !RB_EMPTY_NODE(&c->fair_node);

	if (queued)
		rb_erase_cached(&c->fair_node, &s->fair);
	ddl_gps_del(s, c);
	c->vfinish = vfinish;
	if (queued)
		rb_add_cached(&c->fair_node, &s->fair, ddl_fair_less);
	if (ddl_v_before(s->vtime, vfinish)) {
		rb_add_cached(&c->gps_node, &s->gps, ddl_gps_less);
		s->gps_weight += c->weight;
		s->gps_jobs++;
	}
}

/**
 * ddl_fair_queue() - a job class became backlogged: it competes by its tag
 * @s: scheduler
 * @c: job class
 *
 * Context: under the qdisc lock.  O(log jobs).
 */
void ddl_fair_queue(struct ddl_sched *s, struct ddl_cls *c)
{
	if (RB_EMPTY_NODE(&c->fair_node))
		rb_add_cached(&c->fair_node, &s->fair, ddl_fair_less);
}

/**
 * ddl_fair_unqueue() - a job class became empty
 * @s: scheduler
 * @c: job class
 *
 * It keeps its tag: a burst the sender paused in goes on with the same
 * tag.  When no job is left backlogged, the reference is emptied.
 *
 * Context: under the qdisc lock.  O(log jobs), amortised: a job leaves the
 * reference once per burst.
 */
void ddl_fair_unqueue(struct ddl_sched *s, struct ddl_cls *c)
{
	struct rb_node *node;

	if (RB_EMPTY_NODE(&c->fair_node))
		return;
	rb_erase_cached(&c->fair_node, &s->fair);
	RB_CLEAR_NODE(&c->fair_node);
	if (!RB_EMPTY_ROOT(&s->fair.rb_root))
		return;

	/*
	 * No job has anything to send, so the reference, which had the same
	 * work, has none either: what it still holds is the part of some
	 * tags their bursts did not use.  Bounded by the jobs.
	 */
	while ((node = rb_first_cached(&s->gps)))
		ddl_gps_del(s, rb_entry(node, struct ddl_cls, gps_node));
	s->vrem = 0;
}

/**
 * ddl_fair_burst() - tag a new burst of a job
 * @s: scheduler
 * @idx: job class index; its learned size (burst_size) already includes
 *	the burst before
 * @now: current time, ns
 *
 * A burst that the reference has not finished, that has not queued three
 * quarters of its size and whose queue was empty for less than
 * DDL_FAIR_PAUSE_US goes on with its tag: its sender paused in it (a TCP
 * flow waiting for ACKs).  Otherwise the burst before gives back the part
 * of its tag it did not use, and the new burst starts in the reference at
 * S = max(V, that finish), tagged with the learned size (DDL_FAIR_QUANTUM
 * while none is learned).
 *
 * Context: under the qdisc lock.  O(log jobs).
 */
void ddl_fair_burst(struct ddl_sched *s, u32 idx, u64 now)
{
	struct ddl_cls *c = &s->cls[idx];
	u64 prev = c->vfinish;

	if (c->seg_bytes < c->budget - c->budget / 4 &&
	    ddl_v_before(s->vtime, c->vfinish) &&
	    now - c->empty_since < DDL_FAIR_PAUSE_NS)
		return;
	if (c->budget > c->seg_bytes)
		prev -= ddl_vlen(c->budget - c->seg_bytes, c->weight);
	c->vstart = ddl_v_before(s->vtime, prev) ? prev : s->vtime;
	c->budget = c->burst_size ?: DDL_FAIR_QUANTUM;
	c->budget = min_t(u64, c->budget, DDL_FAIR_SIZE_MAX);
	c->seg_bytes = 0;
	ddl_fair_retag(s, c, c->vstart + ddl_vlen(c->budget, c->weight));
}

/**
 * ddl_fair_resume() - a job's burst goes on after its sender paused
 * @s: scheduler
 * @idx: job class index
 *
 * The burst keeps its tag while the reference still holds it.  If the
 * reference finished it during the pause, the rest of its tag enters the
 * reference again from V, as a burst of that many bytes arriving now
 * would: the pause does not buy the rest a place ahead of the bursts that
 * arrived meanwhile.
 *
 * Context: under the qdisc lock.  O(log jobs).
 */
void ddl_fair_resume(struct ddl_sched *s, u32 idx)
{
	struct ddl_cls *c = &s->cls[idx];

	if (ddl_v_before(s->vtime, c->vfinish) || c->seg_bytes >= c->budget)
		return;
	c->vstart = s->vtime;
	ddl_fair_retag(s, c, s->vtime +
			     ddl_vlen(c->budget - c->seg_bytes, c->weight));
}

/**
 * ddl_fair_enqueued() - bytes joined a job's queue
 * @s: scheduler
 * @idx: job class index
 * @len: bytes
 *
 * A burst that outgrows its tag has it extended: if its size was learned,
 * once it is more than 1/DDL_FAIR_SLACK of that size over, by an eighth of
 * what it was given so far (DDL_FAIR_QUANTUM .. DDL_FAIR_STEP_MAX), so that
 * the last bytes of a burst a little larger than its learned average do
 * not wait behind another job's whole burst; else, and once it has queued
 * twice its learned size (the size was learned from a piece of a burst,
 * such as a first window of TCP's slow start), by all of it (at most
 * DDL_FAIR_STEP_MAX), so that bursts of unknown size that start together
 * are served in a few rounds of doubling shares rather than in small
 * turns; at least by the excess, from V if the reference had already
 * finished it.
 *
 * Context: under the qdisc lock.  Constant time, O(log jobs) when the tag
 * is extended: a logarithmic number of times per burst.
 */
void ddl_fair_enqueued(struct ddl_sched *s, u32 idx, u32 len)
{
	struct ddl_cls *c = &s->cls[idx];
	u64 step, from;

	c->seg_bytes += len;
	if (c->seg_bytes <= c->budget)
		return;

	if (c->burst_size && c->seg_bytes <= 2 * c->burst_size) {
		/* A learned size: within its slack, a burst as learned. */
		if (c->seg_bytes - c->budget <= c->burst_size / DDL_FAIR_SLACK)
			return;
		step = clamp_t(u64, c->budget / 8, DDL_FAIR_QUANTUM,
			       DDL_FAIR_STEP_MAX);
	} else {	/* none, or twice the size learned: it doubles */
		step = min_t(u64, c->budget, DDL_FAIR_STEP_MAX);
	}
	step = max(step, c->seg_bytes - c->budget);
	c->budget += step;
	c->tag_exts++;
	s->tag_exts++;
	from = ddl_v_before(c->vfinish, s->vtime) ? s->vtime : c->vfinish;
	ddl_fair_retag(s, c, from + ddl_vlen(step, c->weight));
}

/**
 * ddl_fair_served() - the link sent bytes of a job: the reference moves on
 * @s: scheduler
 * @len: bytes
 *
 * V advances by @len / (sum of the weights in the reference), piece by
 * piece: a burst whose finish tag V reaches leaves the reference, and the
 * rest of the bytes go at the new slope.  Bytes sent while the reference
 * is empty leave V where it is.
 *
 * Context: under the qdisc lock.  Constant time, O(log jobs) per burst
 * that leaves the reference (each leaves once).
 */
void ddl_fair_served(struct ddl_sched *s, u32 len)
{
	u64 work = (u64)len * DDL_VSCALE + s->vrem, dv;
	struct rb_node *node;
	struct ddl_cls *c;
	u32 rem;

	s->vrem = 0;
	/* Bounded by the jobs: each pass but the last takes one off. */
	while ((node = rb_first_cached(&s->gps))) {
		c = rb_entry(node, struct ddl_cls, gps_node);
		if (ddl_v_before(s->vtime, c->vfinish)) {
			dv = c->vfinish - s->vtime;
			if (dv > div_u64(work, s->gps_weight)) {
				s->vtime += div_u64_rem(work, s->gps_weight,
							&rem);
				s->vrem = rem;
				return;
			}
			work -= dv * s->gps_weight;
			s->vtime = c->vfinish;
		}
		ddl_gps_del(s, c);
	}
}

/**
 * ddl_fair_first() - the backlogged job with the smallest finish tag
 * @s: scheduler
 *
 * Context: under the qdisc lock.  Constant time.
 * Return: job class index, or DDL_NONE if no job is backlogged.
 */
u32 ddl_fair_first(const struct ddl_sched *s)
{
	struct rb_node *node = rb_first_cached(&s->fair);

	return node ? rb_entry(node, struct ddl_cls, fair_node) - s->cls :
		      DDL_NONE;
}

/**
 * ddl_fair_weight() - a job's weight changes
 * @s: scheduler
 * @idx: job class index
 * @weight: the new weight
 *
 * The tag of the running burst stays; its share of the reference changes
 * at once, the next burst is tagged at the new weight.
 *
 * Context: under the qdisc lock.
 */
void ddl_fair_weight(struct ddl_sched *s, u32 idx, u32 weight)
{
	struct ddl_cls *c = &s->cls[idx];

	if (!RB_EMPTY_NODE(&c->gps_node))
		s->gps_weight = s->gps_weight - c->weight + weight;
	c->weight = weight;
}

/**
 * ddl_fair_reset() - a class changes owner: its burst leaves the reference
 * @s: scheduler
 * @c: job class
 *
 * Context: under the qdisc lock.  O(log jobs).
 */
void ddl_fair_reset(struct ddl_sched *s, struct ddl_cls *c)
{
	c->budget = 0;
	c->seg_bytes = 0;
	c->vstart = s->vtime;
	ddl_fair_retag(s, c, s->vtime);
}
