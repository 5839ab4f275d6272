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
 * reference; O(1) then too for a tag that joins its set in growing order
 * (struct ddl_fair_set: a FIFO beside the tree).  V is exact to the byte:
 * a burst leaves the reference within the packet whose bytes take V past
 * its tag.  Virtual times are u64 and compared modulo 2^64.  No clock is
 * read: the reference runs on bytes.
 */

#include <linux/list.h>
#include <linux/math64.h>
#include <linux/minmax.h>
#include <linux/rbtree.h>

#include "ddl_fair.h"

/* Virtual time that @bytes take in the reference at weight @w. */
static u64 ddl_vlen(u64 bytes, u32 w)
{
	return div_u64(bytes * DDL_VSCALE, w);
}

/* The sets of a job: its place in &ddl_fair.order, and in &ddl_fair.gps. */
#define DDL_SET_ORDER	0
#define DDL_SET_GPS	1

static __always_inline union ddl_fair_link *
ddl_set_link(struct ddl_fair_cls *fc, int k)
{
	return k == DDL_SET_GPS ? &fc->gps_node : &fc->node;
}

static __always_inline struct ddl_fair_cls *
ddl_set_job(const union ddl_fair_link *l, int k)
{
	return k == DDL_SET_GPS ?
	       container_of(l, struct ddl_fair_cls, gps_node) :
	       container_of(l, struct ddl_fair_cls, node);
}

/* The tag of the job whose tree node in set @k is @node. */
static __always_inline u64 ddl_set_tag(const struct rb_node *node, int k)
{
	return ddl_set_job(container_of(node, union ddl_fair_link, rb),
			   k)->vfinish;
}

static bool ddl_fair_less(struct rb_node *a, const struct rb_node *b)
{
	return ddl_v_before(ddl_set_tag(a, DDL_SET_ORDER),
			    ddl_set_tag(b, DDL_SET_ORDER));
}

static bool ddl_gps_less(struct rb_node *a, const struct rb_node *b)
{
	return ddl_v_before(ddl_set_tag(a, DDL_SET_GPS),
			    ddl_set_tag(b, DDL_SET_GPS));
}

/*
 * Insert @node into @tree by @less, after its equals; @last is the tree's
 * last node.  A node that goes after the last, as the bursts of jobs that
 * start together with the same size do, takes no descent: the descent
 * would end at the same link.
 */
static __always_inline void
ddl_rb_add_last(struct rb_node *node, struct rb_root_cached *tree,
		struct rb_node **last,
		bool (*less)(struct rb_node *, const struct rb_node *))
{
	struct rb_node **link = &tree->rb_root.rb_node;
	struct rb_node *parent = NULL;
	bool leftmost = true, rightmost = true;

	if (*last && !less(node, *last)) {
		/* The last node has no right child. */
		parent = *last;
		link = &parent->rb_right;
		leftmost = false;
	} else {
		while (*link) {
			parent = *link;
			if (less(node, parent)) {
				link = &parent->rb_left;
				rightmost = false;
			} else {
				link = &parent->rb_right;
				leftmost = false;
			}
		}
	}
	rb_link_node(node, parent, link);
	rb_insert_color_cached(node, tree, leftmost);
	if (rightmost)
		*last = node;
}

static void ddl_set_init(struct ddl_fair_set *set)
{
	INIT_LIST_HEAD(&set->fifo);
	set->tree = RB_ROOT_CACHED;
	set->tree_last = NULL;
	set->head = NULL;
}

/*
 * The first job of set @k: the first of its FIFO, unless the first of its
 * tree has a smaller tag (of equal tags the FIFO's came first).
 */
static __always_inline struct ddl_fair_cls *
ddl_set_first(const struct ddl_fair_set *set, int k)
{
	struct rb_node *node = rb_first_cached(&set->tree);
	struct ddl_fair_cls *fifo = NULL, *tree;

	if (!list_empty(&set->fifo))
		fifo = ddl_set_job(container_of(set->fifo.next,
						union ddl_fair_link, fifo), k);
	if (!node)
		return fifo;
	tree = ddl_set_job(container_of(node, union ddl_fair_link, rb), k);
	return fifo && !ddl_v_before(tree->vfinish, fifo->vfinish) ? fifo :
								      tree;
}

/*
 * The largest tag in set @k, not empty: the last of its FIFO's or of its
 * tree's.
 */
static __always_inline u64 ddl_set_last_tag(const struct ddl_fair_set *set,
					    int k)
{
	u64 tag;

	if (list_empty(&set->fifo))
		return ddl_set_tag(set->tree_last, k);
	tag = ddl_set_job(container_of(set->fifo.prev, union ddl_fair_link,
				       fifo), k)->vfinish;
	if (set->tree_last && ddl_v_before(tag, ddl_set_tag(set->tree_last, k)))
		return ddl_set_tag(set->tree_last, k);
	return tag;
}

/*
 * Job @fc joins set @k by its tag, after its equals.  A tag at least the
 * FIFO's last and beyond the tree's last is appended to the FIFO: no
 * descent, no rebalancing; any other goes into the tree.  Either way the
 * first of equals stays first: of the FIFO's and the tree's, the FIFO's
 * came first, since a tag equal to one in the tree goes into the tree.
 */
static __always_inline void ddl_set_add(struct ddl_fair_set *set,
					struct ddl_fair_cls *fc, int k)
{
	union ddl_fair_link *l = ddl_set_link(fc, k);
	u64 tag = fc->vfinish;

	if ((list_empty(&set->fifo) ||
	     !ddl_v_before(tag, ddl_set_job(container_of(set->fifo.prev,
							   union ddl_fair_link,
							   fifo),
					    k)->vfinish)) &&
	    (!set->tree_last ||
	     ddl_v_before(ddl_set_tag(set->tree_last, k), tag))) {
		list_add_tail(&l->fifo, &set->fifo);
		fc->in_fifo[k] = true;
	} else {
		ddl_rb_add_last(&l->rb, &set->tree, &set->tree_last,
				k == DDL_SET_GPS ? ddl_gps_less :
						   ddl_fair_less);
		fc->in_fifo[k] = false;
	}
	if (!set->head || ddl_v_before(tag, set->head->vfinish))
		set->head = fc;
}

/* Take job @fc, in it, out of set @k. */
static __always_inline void ddl_set_del(struct ddl_fair_set *set,
					struct ddl_fair_cls *fc, int k)
{
	union ddl_fair_link *l = ddl_set_link(fc, k);

	if (fc->in_fifo[k]) {
		list_del(&l->fifo);
	} else {
		if (set->tree_last == &l->rb)
			set->tree_last = rb_prev(&l->rb);
		rb_erase_cached(&l->rb, &set->tree);
	}
	RB_CLEAR_NODE(&l->rb);
	if (set->head == fc)
		set->head = ddl_set_first(set, k);
}

static void ddl_gps_leave(struct ddl_fair *f, struct ddl_fair_cls *fc)
{
	ddl_set_del(&f->gps, fc, DDL_SET_GPS);
	f->gps_weight -= fc->weight;
	f->gps_jobs--;
}

/* Job @fc leaves the reference, if it is in it. */
static __always_inline void ddl_gps_del(struct ddl_fair *f,
					struct ddl_fair_cls *fc)
{
	if (!RB_EMPTY_NODE(&fc->gps_node.rb))
		ddl_gps_leave(f, fc);
}

/*
 * Every job leaves the reference at once, as ddl_gps_del() of each would
 * leave it, without rebalancing the tree on the way.  Bounded by the jobs.
 */
static void ddl_gps_clear(struct ddl_fair *f)
{
	struct ddl_fair_cls *fc, *next;
	union ddl_fair_link *l, *tmp;

	list_for_each_entry_safe(l, tmp, &f->gps.fifo, fifo)
		RB_CLEAR_NODE(&l->rb);
	rbtree_postorder_for_each_entry_safe(fc, next, &f->gps.tree.rb_root,
					     gps_node.rb)
		RB_CLEAR_NODE(&fc->gps_node.rb);
	ddl_set_init(&f->gps);
	f->gps_weight = 0;
	f->gps_jobs = 0;
}

/*
 * Give job @fc the finish tag @vfinish.  Equal tags keep their order of
 * arrival: an insertion goes after its equals, so jobs with identical
 * bursts keep the order they settled in.
 */
static __always_inline void __ddl_fair_retag(struct ddl_fair *f,
					     struct ddl_fair_cls *fc,
					     u64 vfinish)
{
	bool queued = !RB_EMPTY_NODE(&fc->node.rb);

	if (queued)
		ddl_set_del(&f->order, fc, DDL_SET_ORDER);
	ddl_gps_del(f, fc);
	fc->vfinish = vfinish;
	if (queued)
		ddl_set_add(&f->order, fc, DDL_SET_ORDER);
	if (ddl_v_before(f->vtime, vfinish)) {
		ddl_set_add(&f->gps, fc, DDL_SET_GPS);
		f->gps_weight += fc->weight;
		f->gps_jobs++;
	}
}

/* ddl_fair_retag() out of line, for the rarer retags. */
static void ddl_fair_retag(struct ddl_fair *f, struct ddl_fair_cls *fc,
			   u64 vfinish)
{
	__ddl_fair_retag(f, fc, vfinish);
}

/**
 * ddl_fair_init() - an empty fair order
 * @f: fair order, zeroed; its jobs' state is ddl_fair_cls_init()'s
 *
 * Context: process context.
 */
void ddl_fair_init(struct ddl_fair *f)
{
	ddl_set_init(&f->order);
	ddl_set_init(&f->gps);
}

/* Job @fc competes by its tag, if it did not already. */
static __always_inline void ddl_fair_order_add(struct ddl_fair *f, struct ddl_fair_cls *fc)
{
	if (RB_EMPTY_NODE(&fc->node.rb))
		ddl_set_add(&f->order, fc, DDL_SET_ORDER);
}

/**
 * ddl_fair_queue() - a job class became backlogged: it competes by its tag
 * @f: fair order
 * @fc: the job's fair state
 *
 * Context: under the qdisc lock.  O(log jobs).
 */
void ddl_fair_queue(struct ddl_fair *f, struct ddl_fair_cls *fc)
{
	ddl_fair_order_add(f, fc);
}

/**
 * ddl_fair_unqueue() - a job class became empty
 * @f: fair order
 * @fc: the job's fair state
 *
 * It keeps its tag: a burst the sender paused in goes on with the same
 * tag.  When no job is left backlogged, the reference is emptied.
 *
 * Context: under the qdisc lock.  O(log jobs), amortised: a job leaves the
 * reference once per burst.
 */
void ddl_fair_unqueue(struct ddl_fair *f, struct ddl_fair_cls *fc)
{
	if (RB_EMPTY_NODE(&fc->node.rb))
		return;
	ddl_set_del(&f->order, fc, DDL_SET_ORDER);
	if (f->order.head)
		return;

	/*
	 * No job has anything to send, so the reference, which had the same
	 * work, has none either: what it still holds is the part of some
	 * tags their bursts did not use.
	 */
	ddl_gps_clear(f);
	f->vrem = 0;
}

/**
 * ddl_fair_burst() - tag a new burst of a job
 * @f: fair order
 * @fc: the job's fair state
 * @size: its learned size, the burst before included (&ddl_burst_news.size)
 * @brief: its queue had held no data for less than DDL_FAIR_PAUSE_US
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
static void ddl_fair_burst(struct ddl_fair *f, struct ddl_fair_cls *fc,
			   u64 size, bool brief)
{
	u64 prev = fc->vfinish;

	fc->size = size;
	if (fc->seg_bytes < fc->budget - fc->budget / 4 &&
	    ddl_v_before(f->vtime, fc->vfinish) && brief)
		return;
	if (fc->budget > fc->seg_bytes)
		prev -= ddl_vlen(fc->budget - fc->seg_bytes, fc->weight);
	fc->vstart = ddl_v_before(f->vtime, prev) ? prev : f->vtime;
	fc->budget = size ?: DDL_FAIR_QUANTUM;
	fc->budget = min_t(u64, fc->budget, DDL_FAIR_SIZE_MAX);
	fc->seg_bytes = 0;
	__ddl_fair_retag(f, fc,
			 fc->vstart + ddl_vlen(fc->budget, fc->weight));
}

/**
 * ddl_fair_resume() - a job's burst goes on after its sender paused
 * @f: fair order
 * @fc: the job's fair state
 *
 * The burst keeps its tag while the reference still holds it.  If the
 * reference finished it during the pause, the rest of its tag enters the
 * reference again from V, as a burst of that many bytes arriving now
 * would: the pause does not buy the rest a place ahead of the bursts that
 * arrived meanwhile.
 *
 * Context: under the qdisc lock.  O(log jobs).
 */
static void ddl_fair_resume(struct ddl_fair *f, struct ddl_fair_cls *fc)
{
	if (ddl_v_before(f->vtime, fc->vfinish) || fc->seg_bytes >= fc->budget)
		return;
	fc->vstart = f->vtime;
	ddl_fair_retag(f, fc, f->vtime +
			      ddl_vlen(fc->budget - fc->seg_bytes, fc->weight));
}

/**
 * ddl_fair_enqueued() - bytes joined a job's queue
 * @f: fair order
 * @fc: the job's fair state
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
static void ddl_fair_enqueued(struct ddl_fair *f, struct ddl_fair_cls *fc,
			      u32 len)
{
	u64 size = fc->size;
	u64 step, from;

	fc->seg_bytes += len;
	if (fc->seg_bytes <= fc->budget)
		return;

	if (size && fc->seg_bytes <= 2 * size) {
		/* A learned size: within its slack, a burst as learned. */
		if (fc->seg_bytes - fc->budget <= size / DDL_FAIR_SLACK)
			return;
		step = clamp_t(u64, fc->budget / 8, DDL_FAIR_QUANTUM,
			       DDL_FAIR_STEP_MAX);
	} else {	/* none, or twice the size learned: it doubles */
		step = min_t(u64, fc->budget, DDL_FAIR_STEP_MAX);
	}
	step = max(step, fc->seg_bytes - fc->budget);
	fc->budget += step;
	fc->tag_exts++;
	f->tag_exts++;
	from = ddl_v_before(fc->vfinish, f->vtime) ? f->vtime : fc->vfinish;
	ddl_fair_retag(f, fc, from + ddl_vlen(step, fc->weight));
}

/**
 * ddl_fair_update() - a packet joined a job's queue: the part of
 *	ddl_fair_arrived() that changes the orders
 * @f: fair order
 * @fc: the job's fair state
 * @len: bytes
 * @bn: what the packet did to the job's burst (ddl_burst_arrived())
 *
 * A new burst is tagged (ddl_fair_burst()), a paused one goes on
 * (ddl_fair_resume()); every job packet counts toward its burst's tag
 * (ddl_fair_enqueued()); a job whose queue was empty competes again, by
 * its tag (ddl_fair_queue(): a job with packets queued is in the order
 * already).
 *
 * Context: under the qdisc lock.  Constant time, O(log jobs) when the job
 * becomes backlogged, a burst starts or its tag grows.
 */
void ddl_fair_update(struct ddl_fair *f, struct ddl_fair_cls *fc, u32 len,
		     const struct ddl_burst_news *bn)
{
	if (bn->ev == DDL_BURST_START)
		ddl_fair_burst(f, fc, bn->size, bn->brief);
	else if (bn->ev == DDL_BURST_RESUME)
		ddl_fair_resume(f, fc);
	ddl_fair_enqueued(f, fc, len);
	ddl_fair_order_add(f, fc);
}

/**
 * ddl_fair_advance() - the link sent bytes of a job: V moves on
 * @f: fair order
 * @len: bytes
 *
 * V advances by @len / (sum of the weights in the reference), piece by
 * piece: a burst whose finish tag V reaches leaves the reference, and the
 * rest of the bytes go at the new slope.  Bytes sent while the reference
 * is empty leave V where it is.  ddl_fair_served() does the common case,
 * where V does not reach the first tag, itself.
 *
 * Context: under the qdisc lock.  Constant time, O(log jobs) per burst
 * that leaves the reference (each leaves once).
 */
void ddl_fair_advance(struct ddl_fair *f, u32 len)
{
	u64 work = (u64)len * DDL_VSCALE + f->vrem, dv;
	struct ddl_fair_cls *fc;
	u32 rem;

	f->vrem = 0;
	/* Bounded by the jobs: each pass but the last takes one off. */
	while ((fc = f->gps.head)) {
		if (ddl_v_before(f->vtime, fc->vfinish)) {
			dv = fc->vfinish - f->vtime;
			if (dv > div_u64(work, f->gps_weight)) {
				f->vtime += div_u64_rem(work, f->gps_weight,
							&rem);
				f->vrem = rem;
				return;
			}
			work -= dv * f->gps_weight;
			f->vtime = fc->vfinish;
		}
		/* V reached the last tag too: every burst leaves. */
		if (!ddl_v_before(f->vtime,
				  ddl_set_last_tag(&f->gps, DDL_SET_GPS))) {
			ddl_gps_clear(f);
			return;
		}
		ddl_gps_del(f, fc);
	}
}

/**
 * ddl_fair_weight() - a job's weight changes
 * @f: fair order
 * @fc: the job's fair state
 * @weight: the new weight
 *
 * The tag of the running burst stays; its share of the reference changes
 * at once, the next burst is tagged at the new weight.
 *
 * Context: under the qdisc lock.
 */
void ddl_fair_weight(struct ddl_fair *f, struct ddl_fair_cls *fc, u32 weight)
{
	if (!RB_EMPTY_NODE(&fc->gps_node.rb))
		f->gps_weight = f->gps_weight - fc->weight + weight;
	fc->weight = weight;
}

/**
 * ddl_fair_reset() - a class changes owner: its burst leaves the reference
 * @f: fair order
 * @fc: the job's fair state
 *
 * The new owner has no learned size yet.
 *
 * Context: under the qdisc lock.  O(log jobs).
 */
void ddl_fair_reset(struct ddl_fair *f, struct ddl_fair_cls *fc)
{
	fc->budget = 0;
	fc->seg_bytes = 0;
	fc->size = 0;
	fc->vstart = f->vtime;
	ddl_fair_retag(f, fc, f->vtime);
}
