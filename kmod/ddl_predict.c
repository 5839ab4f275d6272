// SPDX-License-Identifier: GPL-2.0
/*
 * ddl_predict.c - the sch_ddl burst predictor: each job's burst period
 * and size, learned from the starts of its bursts (ddl_burst.c asks, at
 * data that found none queued, whether a burst starts or the sender only
 * paused in one: ddl_pred_burst()), and the lead window that drains the
 * other traffic before a predicted burst.
 *
 * Constant time per packet; a burst start or a closing window costs
 * O(log jobs), amortised (a red-black tree of the predicted jobs).  No
 * clock is read: @now comes from the caller.
 */

#include <linux/minmax.h>

#include "ddl_predict.h"

/* Burst prediction */

/**
 * ddl_pred_init() - a predictor that knows nothing yet
 * @pr: the predictor, zeroed; its jobs' state is ddl_pred_cls_init()'s
 *
 * Context: process context.
 */
void ddl_pred_init(struct ddl_pred *pr)
{
	pr->periodic = RB_ROOT_CACHED;
	INIT_LIST_HEAD(&pr->fifo);
	pr->lead = NULL;
}

/**
 * ddl_disarm() - close the armed lead window, if any
 * @pr: the predictor
 * @now: current time, ns
 *
 * The time the window was open is added up.
 *
 * Context: under the qdisc lock.
 */
void ddl_disarm(struct ddl_pred *pr, u64 now)
{
	if (pr->lead_active && now > pr->lead_open)
		pr->lead_ns += min(now, pr->lead_close) - pr->lead_open;
	pr->lead = NULL;
	pr->lead_active = false;
}

/* The predicted time of @pc's next burst: its key in &ddl_pred.periodic. */
static u64 ddl_next_burst(const struct ddl_pred_cls *pc)
{
	return pc->iter_start + pc->period;
}

static void ddl_periodic_erase(struct ddl_pred *pr, struct ddl_pred_cls *pc)
{
	if (pr->periodic_last == &pc->node)
		pr->periodic_last = rb_prev(&pc->node);
	rb_erase_cached(&pc->node, &pr->periodic);
	RB_CLEAR_NODE(&pc->node);
}

static void ddl_periodic_del(struct ddl_pred *pr, struct ddl_pred_cls *pc)
{
	if (!pc->periodic)
		return;
	pc->periodic = false;
	if (pr->fifo_only) {
		list_del(&pc->fifo);
		RB_CLEAR_NODE(&pc->node);	/* off the tree, as it is */
	} else {
		ddl_periodic_erase(pr, pc);
	}
}

/*
 * Insert @pc by its next burst; among equal times, after the others.  Jobs
 * that burst in turn each go to the end of the tree, after the last job:
 * that takes no descent.
 */
static void ddl_periodic_insert(struct ddl_pred *pr, struct ddl_pred_cls *pc)
{
	struct rb_node **link = &pr->periodic.rb_root.rb_node;
	struct rb_node *parent = NULL;
	struct rb_node *last = pr->periodic_last;
	bool leftmost = true, rightmost = true;
	u64 next = ddl_next_burst(pc);

	if (last && next >= ddl_next_burst(rb_entry(last, struct ddl_pred_cls,
						    node))) {
		/* The last node has no right child. */
		parent = last;
		link = &last->rb_right;
		leftmost = false;
	} else {
		while (*link) {
			parent = *link;
			if (next < ddl_next_burst(rb_entry(parent,
							   struct ddl_pred_cls,
							   node))) {
				link = &parent->rb_left;
				rightmost = false;
			} else {
				link = &parent->rb_right;
				leftmost = false;
			}
		}
	}
	rb_link_node(&pc->node, parent, link);
	rb_insert_color_cached(&pc->node, &pr->periodic, leftmost);
	if (rightmost)
		pr->periodic_last = &pc->node;
}

static void ddl_periodic_add(struct ddl_pred *pr, struct ddl_pred_cls *pc)
{
	pc->periodic = true;
	if (pr->fifo_only)
		list_add_tail(&pc->fifo, &pr->fifo);
	else
		ddl_periodic_insert(pr, pc);
}

/*
 * Keep the predicted jobs in the tree (@tree: lead windows can be armed)
 * or on the list.  The tree orders them by next burst and, among equal
 * times, by when they joined; the list by when they joined.  So the tree
 * becomes the list in its order, and the list the tree by inserting its
 * jobs in turn: each order is the one the other would have kept.  A job's
 * node is its list entry too, so each leaves one before it joins the
 * other.  O(jobs log jobs), once per change of the configuration.
 */
static void ddl_periodic_keep(struct ddl_pred *pr, bool tree)
{
	struct ddl_pred_cls *pc;
	struct rb_node *node;

	if (tree != pr->fifo_only)
		return;
	if (tree) {
		pr->fifo_only = false;
		/* Bounded by the jobs: each pass takes one off the list. */
		while (!list_empty(&pr->fifo)) {
			pc = list_first_entry(&pr->fifo, struct ddl_pred_cls,
					      fifo);
			list_del(&pc->fifo);
			ddl_periodic_insert(pr, pc);
		}
		return;
	}
	pr->fifo_only = true;
	/* Bounded by the jobs: each pass takes one off the tree. */
	while ((node = rb_first_cached(&pr->periodic))) {
		pc = rb_entry(node, struct ddl_pred_cls, node);
		ddl_periodic_erase(pr, pc);
		list_add_tail(&pc->fifo, &pr->fifo);
	}
}

/**
 * ddl_pred_reset() - a class changes owner: forget what was learned
 * @pr: the predictor
 * @pc: what it learned of the job
 * @now: current time, ns
 *
 * Its lead window closes; its counters stay.
 *
 * Context: under the qdisc lock.  O(log jobs).
 */
void ddl_pred_reset(struct ddl_pred *pr, struct ddl_pred_cls *pc, u64 now)
{
	pc->samples = 0;
	pc->predicted = false;
	pc->period = 0;
	pc->mdev = 0;
	pc->burst_size = 0;
	pc->nsizes = 0;
	pc->size_pos = 0;
	pc->iter_start = now;
	pc->iter_bytes = 0;
	pc->pre_bytes = 0;
	pc->gap = 0;
	pc->gapped = false;
	ddl_periodic_del(pr, pc);
	if (pr->lead == pc)
		ddl_disarm(pr, now);
}

/**
 * ddl_ewma() - one step of the predictor's moving average
 * @avg: average so far
 * @sample: new sample
 *
 * avg + (sample - avg) / 2^DDL_EWMA_SHIFT, rounded toward @avg, in
 * unsigned arithmetic: no overflow for any u64 inputs.
 *
 * Context: any; pure.
 * Return: the new average.
 */
u64 ddl_ewma(u64 avg, u64 sample)
{
	if (sample >= avg)
		return avg + ((sample - avg) >> DDL_EWMA_SHIFT);
	return avg - ((avg - sample) >> DDL_EWMA_SHIFT);
}

/*
 * Arm the lead window of the periodic job whose next burst is predicted
 * first and whose window has not passed.  Jobs found in front of it leave
 * the tree: their window passed, or their period is too short for one
 * (a window longer than the gap between bursts would throttle forever).
 * Each job comes back with its next burst (ddl_pred_burst()), so a job
 * leaves at most once per burst of its own: O(log jobs) amortised per
 * burst or window, never per packet otherwise.
 */
static void ddl_rearm(struct ddl_pred *pr, const struct ddl_params *p,
		      u64 now)
{
	struct ddl_pred_cls *pc = NULL;
	u64 lead = p->lead_ns, next = 0;
	struct rb_node *node;

	if (!ddl_pred_leads(p))
		return;
	ddl_periodic_keep(pr, true);
	/* Bounded by the tree: each pass takes one job off it. */
	while ((node = rb_first_cached(&pr->periodic))) {
		pc = rb_entry(node, struct ddl_pred_cls, node);
		next = ddl_next_burst(pc);
		if (pc->period > 2 * lead && next + lead > now)
			break;
		ddl_periodic_del(pr, pc);
	}
	if (!node)
		return;
	pr->lead = pc;
	/* A window armed late opens now: lead_ns counts real window time. */
	pr->lead_open = max(next > lead ? next - lead : 0, now);
	pr->lead_close = next + lead;
	pr->lead_active = false;
}

/**
 * ddl_window() - open or time out the armed lead window
 * @pr: the predictor
 * @p: configuration
 * @now: current time, ns
 *
 * A window opens lead_us before a job's predicted burst and closes when
 * the burst begins (a hit, see ddl_pred_burst()) or lead_us after the
 * predicted time (a miss).  So a window lasts at most 2 * lead_us, and a
 * job's windows are at least one learned period apart: a misprediction
 * costs one bounded window, then service is back to normal.
 *
 * Context: under the qdisc lock.  Constant time except when a window
 * closes (then O(log jobs) amortised, see ddl_rearm(); O(jobs log jobs)
 * once after lead windows came back).
 */
void ddl_window(struct ddl_pred *pr, const struct ddl_params *p, u64 now)
{
	if (!pr->lead)
		return;
	if (now >= pr->lead_close) {
		if (!pr->lead_active)
			pr->leads++;
		pr->lead_active = true;
		pr->misses++;
		pr->lead->misses++;
		ddl_disarm(pr, now);
		ddl_rearm(pr, p, now);
		if (!pr->lead || now < pr->lead_open)
			return;
	}
	if (!pr->lead_active && now >= pr->lead_open) {
		pr->lead_active = true;
		pr->leads++;
	}
}

/**
 * ddl_lead_ns() - time spent in lead windows up to @now
 * @pr: the predictor
 * @now: current time, ns
 *
 * Context: under the qdisc lock.
 * Return: nanoseconds.
 */
u64 ddl_lead_ns(const struct ddl_pred *pr, u64 now)
{
	u64 ns = pr->lead_ns;

	if (pr->lead_active && now > pr->lead_open)
		ns += min(now, pr->lead_close) - pr->lead_open;
	return ns;
}

/**
 * ddl_size_learned() - the learned size from a job's last iteration sizes
 * @sizes: bytes of the last @n iterations, in any order
 * @n: entries of @sizes, 0 to DDL_SIZE_SAMPLES
 *
 * The largest, since the usual error is an iteration cut in two by a
 * sender's stall, and both parts are too small: one cut iteration takes
 * two of the three entries, which would move a median.  A size learned too
 * small then cuts the next iteration too (ddl_burst_paused() no longer
 * holds the job's burst through a stall), and a ring all-reduce member,
 * which waits for its neighbour between its steps, went on learning half
 * its iteration.  A size learned too large only delays the job's own
 * bursts, for three iterations at most.
 *
 * Context: any; pure.
 * Return: bytes, 0 if @n is 0.
 */
u32 ddl_size_learned(const u32 *sizes, u32 n)
{
	u32 size = 0, i;

	for (i = 0; i < n; i++)
		size = max(size, sizes[i]);
	return size;
}

/* Learn from the bytes of @c's iteration that just ended. */
static void ddl_learn_size(struct ddl_pred_cls *c, u64 bytes)
{
	if (!bytes)	/* a new owner's first: nothing sent */
		return;
	c->sizes[c->size_pos] = min_t(u64, bytes, DDL_FAIR_SIZE_MAX);
	c->size_pos = (c->size_pos + 1) % DDL_SIZE_SAMPLES;
	if (c->nsizes < DDL_SIZE_SAMPLES)
		c->nsizes++;
	c->burst_size = ddl_size_learned(c->sizes, c->nsizes);
}

/*
 * Learn from one iteration interval of @c.  The period restarts when the
 * pattern changes; the size does not, since a job's model does not change
 * size when its iterations change pace.
 */
static void ddl_learn(const struct ddl_params *p, struct ddl_pred_cls *c,
		      u64 interval)
{
	u64 dev;

	dev = interval > c->period ? interval - c->period :
				     c->period - interval;
	if (interval > (u64)p->maxperiod_us * NSEC_PER_USEC_U64) {
		/* Not periodic (or it paused): learn afresh. */
		c->samples = 0;
	} else if (!c->samples || dev > c->period / 2) {
		/* First interval, or the pattern changed: start from it. */
		c->period = interval;
		c->mdev = 0;
		c->samples = 1;
	} else {
		c->mdev = ddl_ewma(c->mdev, dev);
		c->period = ddl_ewma(c->period, interval);
		if (c->samples < U16_MAX)
			c->samples++;
	}

	/* Steady: seen often enough, deviation within 1/8 of the period. */
	c->predicted = c->samples >= DDL_PRED_SAMPLES &&
		       c->mdev * 8 <= c->period;
}

/*
 * A burst of @c starts at @now, after a quiet time: does an iteration end?
 * A job quiet for DDL_FAIR_PAUSE_US has compute phases that long: from
 * then on only such a quiet time ends an iteration.  Before, a quiet time
 * of half the iteration so far does (a job with a short period); if one
 * did, at the first long one all the job sent until then was one
 * iteration, and what the short ones taught is forgotten.
 */
static void ddl_learn_iteration(const struct ddl_params *p,
				struct ddl_pred_cls *c, u64 quiet, u64 bytes,
				u64 now)
{
	bytes += c->iter_bytes;
	if (quiet >= DDL_FAIR_PAUSE_NS && !c->gapped && c->pre_bytes) {
		c->gapped = true;
		c->nsizes = 0;
		c->size_pos = 0;
		c->samples = 0;
		c->predicted = false;
		ddl_learn_size(c, c->pre_bytes + bytes);
	} else if (quiet >= DDL_FAIR_PAUSE_NS ||
		   (!c->gapped && quiet >= (now - c->iter_start) / 2)) {
		ddl_learn(p, c, now - c->iter_start);
		ddl_learn_size(c, bytes);
		if (quiet >= DDL_FAIR_PAUSE_NS)
			c->gapped = true;
		else
			c->pre_bytes += bytes;
	} else {
		c->iter_bytes = bytes;	/* the iteration goes on */
		return;
	}
	c->gap = c->gap ? ddl_ewma(c->gap, quiet) : quiet;
	c->iter_start = now;
	c->iter_bytes = 0;
}

/*
 * How far short of its learned size a job's iteration may stop and still
 * have paused: the spread of the job's last sizes, at least 1/1024 and at
 * most 1/8 of the size.  A job whose sizes repeat then keeps its last
 * bytes in their burst (one TCP flow behind the others stalls there),
 * however few: a tail that starts a burst of its own waits behind other
 * jobs' whole bursts, while a burst that ended short and is taken for
 * paused only keeps its tag until the pause outlasts the quiet time.
 */
static u64 ddl_pause_short(const struct ddl_pred_cls *c)
{
	u32 lo = U32_MAX, hi = 0, i;

	for (i = 0; i < c->nsizes; i++) {
		lo = min(lo, c->sizes[i]);
		hi = max(hi, c->sizes[i]);
	}
	return clamp_t(u64, hi > lo ? hi - lo : 0, c->burst_size / 1024,
		       c->burst_size / 8);
}

/* ddl_pred_paused(), inline for ddl_pred_burst(). */
static __always_inline bool __ddl_pred_paused(const struct ddl_pred_cls *c,
					      u64 bytes, u64 quiet, u64 now)
{
	bool early = c->samples && now - c->iter_start < c->period / 4;
	u64 size = c->burst_size;

	if (c->predicted && early)
		return true;
	/* The times first: a quiet time too long for a pause is the rule. */
	return size && (early || quiet < max(DDL_FAIR_PAUSE_NS, c->gap / 2)) &&
	       c->iter_bytes + bytes < size - ddl_pause_short(c);
}

/**
 * ddl_pred_paused() - would data from a job now go on with its burst?
 * @c: what was learned of the job
 * @bytes: bytes sent in its current burst
 * @quiet: how long its queue has held no data, ns
 * @now: current time, ns
 *
 * A sender stalls within a burst: TCP waits for ACKs, a loaded host does
 * not run the sender.  Such a pause does not end the burst when the job
 * has a learned size, its iteration is short of it by more than the spread
 * of its last sizes (at least 1/1024, at most 1/8 of it), and it was quiet
 * for less than DDL_FAIR_PAUSE_US or half its usual compute (the quiet
 * time before its iterations), whichever is longer, or came back within a
 * quarter period of the iteration's start; nor,
 * whatever its bytes, when its period is steady (predicted) and it came
 * back within a quarter period.  A size learned too large is unlearned by
 * the job's compute time: iterations a period apart are more than a
 * quarter period apart.
 *
 * Context: under the qdisc lock; pure.
 * Return: true if the burst goes on.
 */
bool ddl_pred_paused(const struct ddl_pred_cls *c, u64 bytes, u64 quiet,
		     u64 now)
{
	return __ddl_pred_paused(c, bytes, quiet, now);
}

/**
 * ddl_pred_burst() - data of a job that held none: does a burst start?
 * @pr: the predictor
 * @pc: what it learned of the job
 * @p: configuration
 * @quiet: how long its queue held no data before, ns
 * @bytes: bytes sent in its burst before
 * @first: the job's first burst
 * @now: current time, ns
 * @size: set to the job's learned size (ddl_pred_size()) when a burst
 *	starts, what it learned from the burst before counted
 *
 * Unless it is the job's first, the burst goes on if its sender only
 * paused in it (ddl_pred_paused()): nothing is learned.  Otherwise a burst
 * starts.  What is learned is learned per iteration: the bursts from one that
 * follows a quiet time (a job's compute) to the next such, so that a
 * sender's short stalls cannot cut an iteration in two.  Once a job has
 * been quiet for DDL_FAIR_PAUSE_US, only that long a quiet time ends an
 * iteration; until then, half the time since the iteration began does
 * (ddl_learn_iteration()).  The interval between iteration starts feeds
 * the job's period average (ddl_ewma()); an interval more than half a
 * period away from the average, or longer than maxperiod, restarts the
 * period from it.  A period is trusted (predicted) after DDL_PRED_SAMPLES
 * intervals whose mean deviation is within 1/8 of it.  The iteration's
 * bytes join the job's last sizes; the learned size is the largest of
 * them (ddl_size_learned()), so that one iteration cut by a longer stall
 * does not move it.
 *
 * If the job's lead window is armed, the burst is a hit when the window is
 * open and a miss when it came before; either way the window closes and
 * the earliest next prediction is armed.
 *
 * Context: under the qdisc lock.  Constant time while the sender paused,
 * else O(log jobs), amortised (ddl_rearm()), constant time without lead
 * windows; O(jobs log jobs) once after lead windows come or go.
 * Return: true if a burst starts, false if the one before goes on.
 */
bool ddl_pred_burst(struct ddl_pred *pr, struct ddl_pred_cls *pc,
		    const struct ddl_params *p, u64 quiet, u64 bytes,
		    bool first, u64 now, u64 *size)
{
	if (!first && __ddl_pred_paused(pc, bytes, quiet, now))
		return false;

	/* Time out a passed window first: it was armed on the old burst. */
	if (pr->lead)
		ddl_window(pr, p, now);

	/*
	 * Its key moves: out of the tree, and back in if still predicted.
	 * Without lead windows, the tree is not kept: the job goes to the
	 * end of the list instead.
	 */
	if (ddl_pred_leads(p) == pr->fifo_only)	/* the other one */
		ddl_periodic_keep(pr, ddl_pred_leads(p));
	ddl_periodic_del(pr, pc);
	if (first)
		pc->iter_start = now;
	else
		ddl_learn_iteration(p, pc, quiet, bytes, now);
	if (pc->predicted)
		ddl_periodic_add(pr, pc);

	if (pr->lead == pc) {
		if (pr->lead_active) {
			pr->hits++;
			pc->hits++;
		} else {
			pr->misses++;
			pc->misses++;
		}
		ddl_disarm(pr, now);
	}
	if ((!pr->lead || !pr->lead_active) && ddl_pred_leads(p))
		ddl_rearm(pr, p, now);
	*size = pc->burst_size;
	return true;
}
