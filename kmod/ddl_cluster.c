// SPDX-License-Identifier: GPL-2.0
/*
 * ddl_cluster.c - the cluster order of sch_ddl (mode cluster): one order
 * of the jobs on every host of a cluster, with no message between them.
 *
 * A job spans hosts: its parameter server is sharded, its workers push from
 * many hosts.  Its iteration waits for its slowest shard, so the hosts must
 * serve the jobs in the same order.  What each host learns of a job (the
 * size of its shard there) differs from host to host; the order is
 * therefore made only of what is the same on every host:
 *
 *  - the shared clock, CLOCK_TAI (kept in step by chrony or linuxptp),
 *    cut into epochs of @epoch_us from @base_ns;
 *  - each job's class, weight and declared size: its whole burst over all
 *    of its hosts (TCA_DDL_CLASS_SIZE), configured alike everywhere.
 *
 * A burst that starts in epoch k gets the key
 *
 *	key = k * epoch + span,  span = size * jobs / (weight * rate)
 *
 * jobs being the number of job classes, set alike on every host: span is
 * the time per-job fair sharing among that many busy jobs of weight 1
 * takes to send the whole burst at the rate.  Nothing of the other jobs a
 * host holds goes into a key: hosts that hold different sets of jobs, or
 * declare them one after another, order the jobs they share alike.  The
 * backlogged job with the smallest key is sent; equal keys are ordered by
 * a rotation that moves on each epoch, so that each of identical jobs is
 * first in turn.  So the key is the burst's deadline under fair sharing
 * among that many busy jobs (counted from the start of its epoch), and
 * the order is earliest deadline first: on one host, while the busy jobs'
 * weights sum to at most jobs, every burst whose deadline that sharing
 * meets is sent by it, plus an epoch and a packet.  Two hosts that see a
 * burst start in the same epoch give it the same key, and order the same
 * jobs the same way.  A job with no
 * declared size has span 0: bursts are then served by their epoch, first
 * come first served, and within it by the rotation.
 *
 * A burst that outgrows what its key covers (its declared size and an
 * eighth, or DDL_CL_NOMINAL epochs at the rate for a job that declared
 * none) has its key moved on by its span (at least an epoch) for each
 * further such amount: a wrong or missing size cannot hold the link beyond
 * it.  The eighth is for what a size declared as payload leaves out:
 * headers (TCP over IPv4 at a 1500-byte MTU adds 4.6 %, a GSO packet's
 * share of them included) and retransmissions.  Without it, a host that
 * sends a job's whole declared burst (a parameter server's push, a ring
 * member declared with its own share) would find it outgrown near its
 * end, and its last packets would wait a whole span behind the bursts of
 * the next epochs: later than under fair sharing.
 *
 * The rank of a job (for its DSCP) counts the jobs ahead of it whose burst
 * is in progress: backlogged, or paused for less than DDL_FAIR_PAUSE_US.
 *
 * A host that holds one job has no rank to give: the job is always first
 * there.  Jobs that meet only in the fabric are ordered by a deal instead
 * (@shuffle_us): every deal of the shared clock gives each job class a
 * place among the code points from its class and the deal's number alone,
 * and the next deal gives every job the reverse of its place.  So every
 * host computes the same place for a job without knowing the others, and
 * of any two jobs each is ahead (or level) in one deal of every pair.
 * Sizes given as tiers (@tiers) split the code points among tiers of
 * declared size, smaller sizes ahead, as PIAS's thresholds do for flows;
 * the deal then places a job within its tier's code points only.
 *
 * Cost: O(1) per packet, O(log jobs) when a burst starts or its key moves;
 * a rank walks at most TC_DDL_DSCP_MAX jobs.  No clock is read: the glue
 * keeps @clock_off, the shared clock less its own.
 */

#include <linux/math64.h>
#include <linux/minmax.h>
#include <linux/overflow.h>
#include <linux/rbtree.h>

#include "ddl_cluster.h"

static bool ddl_key_before(u64 a, u64 b)
{
	return (s64)(a - b) < 0;
}

/* Smaller key first; equal keys by their rotation, then by arrival. */
static bool ddl_cl_before(const struct ddl_cluster_cls *a,
			  const struct ddl_cluster_cls *b)
{
	if (a->key != b->key)
		return ddl_key_before(a->key, b->key);
	return a->rot < b->rot;
}

static bool ddl_cl_less(struct rb_node *a, const struct rb_node *b)
{
	return ddl_cl_before(rb_entry(a, struct ddl_cluster_cls, node),
			     rb_entry(b, struct ddl_cluster_cls, node));
}

static bool ddl_rank_less(struct rb_node *a, const struct rb_node *b)
{
	return ddl_cl_before(rb_entry(a, struct ddl_cluster_cls, rank_node),
			     rb_entry(b, struct ddl_cluster_cls, rank_node));
}

static void ddl_ranked_del(struct ddl_cluster *cl, struct ddl_cluster_cls *cc)
{
	if (RB_EMPTY_NODE(&cc->rank_node))
		return;
	rb_erase_cached(&cc->rank_node, &cl->ranked);
	RB_CLEAR_NODE(&cc->rank_node);
}

static void ddl_ranked_add(struct ddl_cluster *cl, struct ddl_cluster_cls *cc)
{
	if (RB_EMPTY_NODE(&cc->rank_node))
		rb_add_cached(&cc->rank_node, &cl->ranked, ddl_rank_less);
}

/*
 * Give job @cc, backlogged, a new key: it moves in both trees, and is
 * among the ranked jobs.
 */
static void ddl_cl_rekey(struct ddl_cluster *cl, struct ddl_cluster_cls *cc,
			 u64 key, u32 rot)
{
	bool queued = !RB_EMPTY_NODE(&cc->node);

	if (queued)
		rb_erase_cached(&cc->node, &cl->order);
	ddl_ranked_del(cl, cc);
	cc->key = key;
	cc->rot = rot;
	if (queued)
		rb_add_cached(&cc->node, &cl->order, ddl_cl_less);
	ddl_ranked_add(cl, cc);
}

/**
 * ddl_cluster_init() - an empty cluster order
 * @cl: the cluster order, zeroed; its jobs' state is
 *	ddl_cluster_cls_init()'s
 * @classes: number of job classes
 *
 * Context: process context.
 */
void ddl_cluster_init(struct ddl_cluster *cl, u32 classes)
{
	cl->order = RB_ROOT_CACHED;
	cl->ranked = RB_ROOT_CACHED;
	cl->classes = classes;
}

/**
 * ddl_epoch_of() - the epoch a time of the shared clock falls in
 * @p: configuration
 * @shared: nanoseconds of the shared clock
 *
 * Epochs count from @p->base_ns; a time before it wraps, the same way on
 * every host.
 *
 * Context: any; pure.
 * Return: the epoch's number.
 */
u64 ddl_epoch_of(const struct ddl_params *p, u64 shared)
{
	return div64_u64(shared - p->base_ns,
			 (u64)p->epoch_us * NSEC_PER_USEC_U64);
}

/*
 * Whether @shared lies within 1/DDL_EDGE_DIV of an epoch of the edge of
 * the period of @len_ns it falls in, periods counting from the base.
 */
static bool ddl_near_edge(const struct ddl_params *p, u64 shared, u64 len_ns)
{
	u64 margin = (u64)p->epoch_us * NSEC_PER_USEC_U64 / DDL_EDGE_DIV;
	u64 off;

	div64_u64_rem(shared - p->base_ns, len_ns, &off);
	return off < margin || len_ns - off <= margin;
}

/**
 * ddl_deal_of() - the deal of the fabric's code points at a time
 * @p: configuration, with a shuffle
 * @shared: nanoseconds of the shared clock
 *
 * Deals last @p->shuffle_us and count from @p->base_ns, as epochs do.
 *
 * Context: any; pure.
 * Return: the deal's number.
 */
u64 ddl_deal_of(const struct ddl_params *p, u64 shared)
{
	return div64_u64(shared - p->base_ns,
			 (u64)p->shuffle_us * NSEC_PER_USEC_U64);
}

/*
 * A 32-bit hash of a job class and a pair of deals, the same on every
 * host and every kernel: it is part of what hosts agree on, so it is
 * written out here (the SplitMix64 finaliser) rather than borrowed.
 */
static u32 ddl_deal_hash(u32 idx, u64 pair)
{
	u64 x = pair * 0x9e3779b97f4a7c15ULL + idx;

	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
	x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
	return (x ^ (x >> 31)) >> 32;
}

/**
 * ddl_fabric_tier() - the tier of a job's declared size
 * @p: configuration
 * @size: the job's declared whole burst, bytes; 0: none
 * @weight: the job's weight
 *
 * The sizes of @p->tiers cut the declared sizes, taken per unit of weight
 * (as a job of the default weight would declare them), into tiers: below
 * the first is tier 0, from the first to the second tier 1, and so on.  A
 * job that declared no size is in the last tier: nothing says it is short.
 *
 * Context: any; pure.  At most TC_DDL_TIERS_MAX comparisons.
 * Return: the tier, 0 .. @p->ntiers.
 */
u32 ddl_fabric_tier(const struct ddl_params *p, u64 size, u32 weight)
{
	u32 t;

	if (!size)
		return p->ntiers;
	/* size <= 2^40, DDL_WEIGHT_DEFAULT < 2^8 */
	size = div_u64(size * DDL_WEIGHT_DEFAULT, weight);
	for (t = 0; t < p->ntiers && size >= p->tiers[t]; t++)
		;
	return t;
}

/**
 * ddl_fabric_place() - the place a deal gives a job among the code points
 * @p: configuration: @p->ndscp code points, at least @p->ntiers + 1
 * @idx: job class index
 * @tier: the job's tier (ddl_fabric_tier())
 * @deal: the deal's number (ddl_deal_of())
 *
 * The code points are shared out among the tiers in order, as evenly as
 * they divide, the first ones to tier 0: every place of a tier is ahead of
 * every place of the next.  Within its tier's share a job is dealt its
 * place.  Deals go in pairs.  The first of a pair places each job by a
 * hash of its class and the pair; the second by the complement of that
 * hash, which reverses the order of every two jobs.  A job's place is a
 * function of its class, its tier and the deal only: two hosts that hold
 * different jobs give a job they both hold the same place, and over any
 * pair of deals every job is ahead of every other one of its tier in one
 * deal (or level with it in both).  Jobs whose hashes fall in the same
 * share of the range are level, as are jobs of the same class.
 *
 * Context: any; pure.
 * Return: the place, 0 (first) .. @p->ndscp - 1.
 */
u32 ddl_fabric_place(const struct ddl_params *p, u32 idx, u32 tier, u64 deal)
{
	u32 h = ddl_deal_hash(idx, deal >> 1);
	u32 lo, hi;

	/* A tier kept from before the tiers changed: the last of them. */
	tier = min(tier, p->ntiers);
	lo = tier * p->ndscp / (p->ntiers + 1);
	hi = (tier + 1) * p->ndscp / (p->ntiers + 1);
	if (deal & 1)
		h = ~h;
	return lo + (mul_u32_u32(h, hi - lo) >> 32);
}

/*
 * Time the declared size of job @cc, of weight @weight, takes at its share
 * of the rate, ns.
 */
static u64 ddl_cl_span(const struct ddl_params *p,
		       const struct ddl_cluster_cls *cc, u32 weight)
{
	u64 bytes, per_sec;

	if (!cc->size || !p->rate)
		return 0;
	/* size * jobs <= 2^40 * 2^12; weight * rate < 2^8 * 2^37. */
	bytes = cc->size * p->jobs * DDL_WEIGHT_DEFAULT;
	per_sec = (u64)weight * p->rate;
	/*
	 * Saturate before the division: a quotient past 2^64 (1 TiB over 4096
	 * jobs at 1 kbit/s) traps in x86-64's divq.  per_sec * 1000 < 2^55.
	 */
	if (bytes >= per_sec * (DDL_CL_SPAN_MAX / NSEC_PER_SEC_U64))
		return DDL_CL_SPAN_MAX;
	return mul_u64_u64_div_u64(bytes, NSEC_PER_SEC_U64, per_sec);
}

/* Bytes a key of job @cc covers: its declared size, or nominal epochs. */
static u64 ddl_cl_allow(const struct ddl_params *p,
			const struct ddl_cluster_cls *cc)
{
	u64 bytes;

	if (cc->size)
		return cc->size;
	if (!p->rate)
		return DDL_FAIR_STEP_MAX;
	bytes = div64_u64((u64)p->epoch_us * DDL_CL_NOMINAL * p->rate,
			  USEC_PER_SEC_U64);
	return max_t(u64, bytes, DDL_FAIR_QUANTUM);
}

/* How far a key moves for each allowance a burst outgrows, ns. */
static u64 ddl_cl_step(const struct ddl_params *p,
		       const struct ddl_cluster_cls *cc, u32 weight)
{
	u64 epoch = (u64)p->epoch_us * NSEC_PER_USEC_U64;

	if (!cc->size || !p->rate)
		return epoch * DDL_CL_NOMINAL;
	return max(ddl_cl_span(p, cc, weight), epoch);
}

/* The key and rotation of a burst of job @cc that starts at @shared. */
static void ddl_cl_tag(struct ddl_cluster *cl, struct ddl_cluster_cls *cc,
		       const struct ddl_params *p, u32 weight, u64 shared)
{
	u64 epoch_ns = (u64)p->epoch_us * NSEC_PER_USEC_U64;
	u64 k = ddl_epoch_of(p, shared);
	u32 turn;

	div_u64_rem(k, cl->classes, &turn);
	cl->epoch = k;
	if (ddl_near_edge(p, shared, epoch_ns))
		cl->edge_bursts++;
	/* size <= 2^40: no overflow */
	cc->allow = ddl_cl_allow(p, cc) + (cc->size >> DDL_CL_SLACK_SHIFT);
	cc->bytes = 0;
	cc->moved = 0;
	ddl_cl_rekey(cl, cc, k * epoch_ns + ddl_cl_span(p, cc, weight),
		     (cc->idx + cl->classes - turn) % cl->classes);
}

/**
 * ddl_cluster_burst() - give a new burst of a job its cluster key
 * @cl: the cluster order
 * @cc: the job's cluster state
 * @p: configuration
 * @weight: the job's weight
 * @brief: its queue had held no data for less than DDL_FAIR_PAUSE_US
 * @now: current time of the caller's clock, ns
 *
 * A burst its sender paused in (queue empty for less than
 * DDL_FAIR_PAUSE_US) goes on with its key.  Unlike the fair order's, the
 * test looks at time only: the bytes a host queued of a job differ from
 * host to host, the time between a job's iterations (its computation)
 * does not.  Called only in mode cluster.
 *
 * Context: under the qdisc lock.  O(log jobs).
 */
static void ddl_cluster_burst(struct ddl_cluster *cl,
			      struct ddl_cluster_cls *cc,
			      const struct ddl_params *p, u32 weight,
			      bool brief, u64 now)
{
	if (cc->allow && brief)
		return;
	cl->bursts++;
	ddl_cl_tag(cl, cc, p, weight, now + cl->clock_off);
}

/**
 * ddl_cluster_enqueued() - bytes joined a job's queue (mode cluster)
 * @cl: the cluster order
 * @cc: the job's cluster state
 * @p: configuration
 * @weight: the job's weight
 * @len: bytes
 *
 * A burst that outgrows what its key covers has the key moved on by
 * ddl_cl_step() for each allowance, or part of one, it is over, in all at
 * most DDL_CL_MOVE_MAX: keys are compared modulo 2^64, and a tiny size
 * (one byte, an epoch per byte) would otherwise wrap the key past the
 * others' within a burst of a few hundred GB.  The caller calls it only
 * in mode cluster: in the other modes nothing is called per packet.
 *
 * Context: under the qdisc lock.  Constant time, O(log jobs) when the key
 * moves.
 */
static void ddl_cluster_enqueued(struct ddl_cluster *cl,
				 struct ddl_cluster_cls *cc,
				 const struct ddl_params *p, u32 weight,
				 u32 len)
{
	u64 allow, n, move;

	cc->bytes += len;
	if (cc->bytes <= cc->allow)
		return;

	allow = ddl_cl_allow(p, cc);
	n = div64_u64(cc->bytes - cc->allow + allow - 1, allow);
	cc->allow += n * allow;
	cl->exts++;
	if (check_mul_overflow(n, ddl_cl_step(p, cc, weight), &move))
		move = U64_MAX;
	move = min(move, DDL_CL_MOVE_MAX - cc->moved);
	cc->moved += move;
	ddl_cl_rekey(cl, cc, cc->key + move, cc->rot);
}

/**
 * ddl_cluster_arrived() - a packet joined a job's queue (mode cluster)
 * @cl: the cluster order
 * @cc: the job's cluster state
 * @p: configuration
 * @weight: the job's weight
 * @len: bytes
 * @bn: what the packet did to the job's burst (ddl_burst_arrived())
 * @now: current time, ns
 *
 * A new burst gets its key (ddl_cluster_burst()); every job packet counts
 * toward what the key covers (ddl_cluster_enqueued()); a job whose queue
 * was empty competes again, by its key (ddl_cluster_queue(): a job with
 * packets queued is in the order already).
 *
 * Context: under the qdisc lock.  Constant time, O(log jobs) when the job
 * becomes backlogged, a burst starts or its key moves.
 */
void ddl_cluster_arrived(struct ddl_cluster *cl, struct ddl_cluster_cls *cc,
			 const struct ddl_params *p, u32 weight, u32 len,
			 const struct ddl_burst_news *bn, u64 now)
{
	if (bn->ev == DDL_BURST_START)
		ddl_cluster_burst(cl, cc, p, weight, bn->brief, now);
	ddl_cluster_enqueued(cl, cc, p, weight, len);
	ddl_cluster_queue(cl, cc);
}

/**
 * ddl_cluster_reset() - a class changes owner
 * @cc: the job's cluster state
 *
 * The new owner's first burst gets a key of its own.
 *
 * Context: under the qdisc lock.
 */
void ddl_cluster_reset(struct ddl_cluster_cls *cc)
{
	cc->allow = 0;
}

/**
 * ddl_cluster_queue() - a job class competes by its key (mode cluster)
 * @cl: the cluster order
 * @cc: the job's cluster state; the job is backlogged
 *
 * Nothing if it is in the order already (ddl_cluster_arrived() calls this
 * for every packet).
 *
 * Context: under the qdisc lock.  Constant time, O(log jobs) when the job
 * joins the order.
 */
void ddl_cluster_queue(struct ddl_cluster *cl, struct ddl_cluster_cls *cc)
{
	if (!RB_EMPTY_NODE(&cc->node))
		return;
	rb_add_cached(&cc->node, &cl->order, ddl_cl_less);
	cl->jobs++;
	ddl_ranked_add(cl, cc);
}

/**
 * ddl_cluster_rank() - how many jobs' bursts are ahead of a job's
 * @cl: the cluster order
 * @cc: the job's cluster state; the job is backlogged
 * @max: the largest rank of interest
 * @now: current time, ns
 *
 * Counts the jobs before @cc in the cluster order whose burst is in
 * progress: backlogged (in the order: in mode cluster a job is there while
 * it is backlogged), or empty for less than DDL_FAIR_PAUSE_US.  A job
 * whose pause is over leaves the ranked jobs on the way.  Outside mode
 * cluster no job is ranked: 0.
 *
 * Context: under the qdisc lock.  At most @max jobs counted; each job
 * dropped on the way was added once, when it became backlogged.
 * Return: the rank, 0 .. @max.
 */
u32 ddl_cluster_rank(struct ddl_cluster *cl, struct ddl_cluster_cls *cc,
		     u32 max, u64 now)
{
	struct rb_node *node, *next;
	struct ddl_cluster_cls *o;
	u32 rank = 0;

	if (RB_EMPTY_NODE(&cc->rank_node))
		return 0;
	for (node = rb_first_cached(&cl->ranked); node && rank < max;
	     node = next) {
		next = rb_next(node);
		o = rb_entry(node, struct ddl_cluster_cls, rank_node);
		if (o == cc)
			break;
		if (RB_EMPTY_NODE(&o->node) &&
		    now - o->quiet_since >= DDL_FAIR_PAUSE_NS) {
			ddl_ranked_del(cl, o);
			continue;
		}
		rank++;
	}
	return rank;
}

/*
 * The deal @shared falls in.  A division only when it leaves the deal the
 * last mark fell in: once per deal, not per packet.  A clock stepped back
 * or a change of the configuration computes it again.
 */
static u64 ddl_deal_now(struct ddl_cluster *cl, const struct ddl_params *p,
			u64 shared)
{
	u64 len = (u64)p->shuffle_us * NSEC_PER_USEC_U64;

	if (len != cl->deal_len || shared - cl->deal_start >= len) {
		cl->deal = ddl_deal_of(p, shared);
		cl->deal_start = p->base_ns + cl->deal * len;
		cl->deal_len = len;
	}
	return cl->deal;
}

/*
 * The place of job @cc: the last of its places in every deal from the one
 * its iteration began in to @deal.  An iteration that spans more than
 * DDL_DEAL_SPAN deals is a steady flow: it takes the last place.  A clock
 * stepped back, or a new shuffle, lands there too: the work stays bounded.
 */
static void ddl_mark_deals(struct ddl_cluster_cls *cc,
			   const struct ddl_params *p, u64 deal)
{
	if (deal - cc->mark_deal > DDL_DEAL_SPAN) {
		cc->mark = p->ndscp - 1;
		cc->mark_deal = deal;
		return;
	}
	while (cc->mark_deal != deal) {
		cc->mark_deal++;
		cc->mark = max(cc->mark,
			       ddl_fabric_place(p, cc->idx, cc->tier,
						cc->mark_deal));
	}
}

/**
 * ddl_cluster_mark() - the place a job's packet carries out of the host
 * @cl: the cluster order
 * @cc: the job's cluster state; the job is backlogged
 * @p: configuration, with code points
 * @weight: the job's weight
 * @from: with a shuffle, when the job's iteration began
 *	(ddl_pred_iter_start()), else when its burst began
 *	(ddl_burst_began())
 * @now: current time, ns
 *
 * With a shuffle, the last of the places ddl_fabric_place() gives the job
 * in the deals from the one its iteration began in to now; else its rank in
 * the cluster order (ddl_cluster_rank()), the last it had in its burst.
 * So the place never rises during a burst.  A switch queues the burst's
 * packets by their code point: had the place risen (the jobs ahead
 * finished, or a new deal put the job ahead), the burst's later packets
 * would overtake its earlier ones, still queued behind a lower priority,
 * and the receiver's TCP would take that reordering for loss and the
 * sender retransmit.  A place that falls is written at once: later packets
 * then queue behind earlier ones, in order.  The job's next burst (as
 * ddl_burst_begin() sees it, after a gap) starts from its place then: a
 * synchronous job sends it only when its last one has arrived.  With a
 * shuffle the place is held through the job's iteration (from its first
 * burst after a quiet time, ddl_pred_burst()), not only its burst: a host
 * that is not the bottleneck sees an iteration as many short bursts, and
 * a burst's packets still wait in the fabric's queues when the next one
 * begins.  The place then depends on the job's class, its iteration's
 * start and the shared clock only, not on the other jobs the host holds.
 *
 * Context: under the qdisc lock.  As ddl_cluster_rank(); with a shuffle,
 * one hash per deal the burst spans, at most DDL_DEAL_SPAN.
 * Return: the place to write, 0 .. @p->ndscp - 1.
 */
u32 ddl_cluster_mark(struct ddl_cluster *cl, struct ddl_cluster_cls *cc,
		     const struct ddl_params *p, u32 weight, u64 from,
		     u64 now)
{
	u32 max = p->ndscp - 1;

	if (cc->mark_burst != from) {
		cc->mark_burst = from;
		cc->mark = 0;
		if (p->shuffle_us) {
			u64 start = from + cl->clock_off;

			cc->tier = ddl_fabric_tier(p, cc->size, weight);
			cc->mark_deal = ddl_deal_of(p, start);
			cc->mark = ddl_fabric_place(p, cc->idx, cc->tier,
						    cc->mark_deal);
			if (ddl_near_edge(p, start, (u64)p->shuffle_us *
						    NSEC_PER_USEC_U64))
				cl->edge_bursts++;
		}
	}
	if (p->shuffle_us)
		ddl_mark_deals(cc, p, ddl_deal_now(cl, p, now + cl->clock_off));
	else
		cc->mark = max(cc->mark, ddl_cluster_rank(cl, cc, max, now));
	return min(cc->mark, max);
}

/**
 * ddl_cluster_reconfigure() - a new configuration
 * @cl: the cluster order
 *
 * The deal of the fabric's code points is computed again at the next mark
 * (the shuffle or the base may be new).  Entering or leaving mode cluster
 * is the caller's, job by job: ddl_cluster_join(), ddl_cluster_leave().
 *
 * Context: under the qdisc lock.
 */
void ddl_cluster_reconfigure(struct ddl_cluster *cl)
{
	cl->deal_len = 0;
}

/**
 * ddl_cluster_join() - mode cluster begins: a job joins the order
 * @cl: the cluster order
 * @cc: the job's cluster state
 * @p: the new configuration
 * @weight: the job's weight
 * @backlogged: the job has packets queued
 * @now: current time of the caller's clock, ns
 *
 * A backlogged job is keyed as a burst that starts now; any job's next
 * burst gets a key of its own.
 *
 * Context: under the qdisc lock.  O(log jobs).
 */
void ddl_cluster_join(struct ddl_cluster *cl, struct ddl_cluster_cls *cc,
		      const struct ddl_params *p, u32 weight, bool backlogged,
		      u64 now)
{
	cc->allow = 0;
	if (!backlogged)
		return;
	ddl_cluster_queue(cl, cc);
	ddl_cl_tag(cl, cc, p, weight, now + cl->clock_off);
}

/**
 * ddl_cluster_leave() - mode cluster ends: a job leaves both trees
 * @cl: the cluster order
 * @cc: the job's cluster state
 *
 * Context: under the qdisc lock.  O(log jobs).
 */
void ddl_cluster_leave(struct ddl_cluster *cl, struct ddl_cluster_cls *cc)
{
	if (!RB_EMPTY_NODE(&cc->node)) {
		rb_erase_cached(&cc->node, &cl->order);
		RB_CLEAR_NODE(&cc->node);
		cl->jobs--;
	}
	ddl_ranked_del(cl, cc);
}
