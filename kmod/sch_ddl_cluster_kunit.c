// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests for the cluster order of sch_ddl (ddl_cluster.c, mode
 * cluster): two hosts with different local views and the same shared
 * inputs order the jobs alike at every step; clock skew within the stated
 * bound does not reorder them; a host that keys bursts by what it sees
 * locally (its shard's size) does, and the check catches it; on one host
 * every burst meets its deadline; hosts that hold different jobs order the
 * jobs they share alike; the rank, a key that moves on, a change
 * of mode; the fabric's code points, alike on hosts that hold different
 * jobs.
 *
 * Each host is a simulated qdisc of ddl_kunit_sim.h; the hosts share one
 * clock, which moves on a slot at a time.  The simulated links send one
 * byte per nanosecond (rate 1e9 bytes/s): a packet of DDL_C_PKT bytes (a
 * GSO packet) takes DDL_C_PKT ns, a slot.  Jobs
 * compute longer than DDL_FAIR_PAUSE_US between iterations, as training
 * jobs do: a shorter gap is a pause within a burst.
 */

#include <kunit/test.h>

#include "compat.h"
#include <linux/prandom.h>

#include "ddl_kunit_core.h"

#include "ddl_kunit_sim.h"

#define DDL_C_PKT	15000U		/* bytes, and ns on the link */
#define DDL_C_US	1000ULL		/* ns */
#define DDL_C_RATE	1000000000ULL	/* bytes/s */
#define DDL_C_EPOCH_US	1000U		/* 1 ms: 66 packets */
#define DDL_C_EPOCH	(DDL_C_EPOCH_US * 1000ULL)
#define DDL_C_JOBS	4U
#define DDL_C_HOSTS	2U

/*
 * One host: its qdisc, a ddl_sim that runs on the cluster's clock, and
 * its jobs' next bursts.
 */
struct ddl_chost {
	struct ddl_sim		*sim;
	u64			next[DDL_C_JOBS];	/* its next burst start */
	u32			shard[DDL_C_JOBS];	/* its packets of it */
};

/*
 * A cluster of DDL_C_HOSTS hosts running the same closed-loop jobs: not
 * one qdisc but several, each a ddl_sim, on one clock, so that their
 * orders can be compared at every step.
 */
struct ddl_cluster_sim {
	struct kunit		*test;
	struct ddl_chost	h[DDL_C_HOSTS];
	struct rnd_state	rnd;
	u64			now;
	u64			size[DDL_C_JOBS];	/* declared, whole */
	u64			compute[DDL_C_JOBS];	/* ns */
	u32			hosts[DDL_C_JOBS];	/* mask of its hosts */
	u64			skew;	/* host 1's clock ahead, ns */
	u64			margin;	/* starts this far from a boundary */
	bool			local;	/* broken: key by the local shard */
	bool			local_sum; /* broken: scale by local weights */
	bool			churn;	/* jobs 2, 3 declared at random */
	u32			declared[DDL_C_HOSTS];	/* masks of jobs */
	u32			pending[DDL_C_JOBS];	/* hosts not drained */
	u64			iters;
	u64			compared;	/* steps with jobs to compare */
	u64			disagree;	/* steps whose orders differed */
};

static u32 ddl_c_rand(struct ddl_cluster_sim *c, u32 n)
{
	return prandom_u32_state(&c->rnd) % n;
}

static int ddl_cluster_test_init(struct kunit *test)
{
	test->priv = NULL;
	return 0;
}

static void ddl_cluster_test_exit(struct kunit *test)
{
	struct ddl_cluster_sim *c = test->priv;
	u32 h;

	if (!c)
		return;
	for (h = 0; h < DDL_C_HOSTS; h++)
		if (c->h[h].sim)
			ddl_sched_destroy(&c->h[h].sim->s);
}

static void ddl_c_params(struct ddl_params *p)
{
	ddl_params_init(p);
	p->jobs = DDL_C_JOBS;
	p->mode = TC_DDL_MODE_CLUSTER;
	p->rate = DDL_C_RATE;
	p->epoch_us = DDL_C_EPOCH_US;
	p->maxwait_us = DDL_MAXWAIT_MAX;
	p->bgshare = 0;
	ddl_params_derive(p);
}

static struct ddl_cluster_sim *ddl_c_new(struct kunit *test, u64 seed)
{
	struct ddl_cluster_sim *c;
	u32 h, j;

	c = kunit_kzalloc(test, sizeof(*c), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, c);
	c->test = test;
	prandom_seed_state(&c->rnd, seed);
	c->margin = 100 * DDL_C_US;
	test->priv = c;
	for (h = 0; h < DDL_C_HOSTS; h++) {
		struct ddl_sim *sim = ddl_sim_alloc(test, DDL_C_JOBS);

		test->priv = c;	/* which ddl_sim_alloc() set to @sim */
		c->h[h].sim = sim;
		ddl_c_params(&sim->p);
		sim->s.cl.clock_off = 1000 * DDL_C_EPOCH;
		for (j = 0; j < DDL_C_JOBS; j++)
			sim->len[j] = DDL_C_PKT;
	}
	for (j = 0; j < DDL_C_JOBS; j++) {
		c->hosts[j] = BIT(DDL_C_HOSTS) - 1;
		c->size[j] = 2000000 + ddl_c_rand(c, 10000000);
		c->compute[j] = DDL_FAIR_PAUSE_NS + DDL_C_EPOCH +
				ddl_c_rand(c, 20 * DDL_C_EPOCH);
	}
	return c;
}

/*
 * Job @j's next iteration: each host's shard of its whole size (a share
 * drawn anew, so the hosts see different sizes), starting at @t on the
 * shared clock rounded up to an epoch, then at a point of that epoch drawn
 * per host, c->margin away from its edges.
 */
static void ddl_c_iterate(struct ddl_cluster_sim *c, u32 j, u64 t)
{
	u64 epoch = DDL_C_EPOCH, start, shared;
	u32 h, frac = 10 + ddl_c_rand(c, 81);	/* percent on host 0 */

	shared = t + c->h[0].sim->s.cl.clock_off;
	start = roundup(shared, epoch) - c->h[0].sim->s.cl.clock_off;
	if (c->hosts[j] != BIT(DDL_C_HOSTS) - 1)
		frac = 100;	/* a job of one host: all of it there */
	for (h = 0; h < DDL_C_HOSTS; h++) {
		struct ddl_chost *x = &c->h[h];
		u64 part = div_u64(c->size[j] * (h ? 100 - frac : frac), 100);

		if (!(c->hosts[j] & BIT(h))) {
			x->next[j] = U64_MAX;
			continue;
		}
		if (c->hosts[j] == BIT(h))
			part = c->size[j];
		x->shard[j] = max_t(u32, div_u64(part, DDL_C_PKT), 1);
		x->next[j] = start + c->margin +
			     ddl_c_rand(c, epoch - 2 * c->margin);
	}
	c->pending[j] = hweight32(c->hosts[j]);
}

/* Host @x: job @j's shard arrives at once at c->now. */
static void ddl_c_arrive(struct ddl_cluster_sim *c, struct ddl_chost *x,
			 u32 j)
{
	if (c->local)
		ddl_cluster_size(&x->sim->s.cls[j].cl, (u64)x->shard[j] * DDL_C_PKT);
	ddl_sim_arrive(x->sim, j, x->shard[j], c->now);
	x->next[j] = U64_MAX;
}

/* Host @x sends a packet: the job with the smallest key goes. */
static void ddl_c_send(struct ddl_cluster_sim *c, struct ddl_chost *x)
{
	struct ddl_sim *sim = x->sim;
	u32 idx, first;

	first = ddl_cluster_first(&sim->s);
	sim->now = c->now;
	idx = ddl_sim_pick(sim);
	KUNIT_ASSERT_EQ(c->test, idx, first);
	if (idx == DDL_NONE)
		return;
	KUNIT_ASSERT_LT(c->test, idx, DDL_C_JOBS);
	KUNIT_ASSERT_GT(c->test, sim->qlen[idx], 0U);
	ddl_sim_serve(sim, idx);
	if (sim->qlen[idx])
		return;
	if (!--c->pending[idx]) {
		c->iters++;
		ddl_c_iterate(c, idx, c->now + c->compute[idx]);
	}
}

/*
 * The two hosts' orders of the jobs backlogged on both: one step counts as
 * a disagreement if any two of them are ordered differently.
 */
static void ddl_c_compare(struct ddl_cluster_sim *c)
{
	struct ddl_sched *a = &c->h[0].sim->s, *b = &c->h[1].sim->s;
	bool any = false;
	u32 i, j;

	for (i = 0; i < DDL_C_JOBS; i++) {
		if (!a->cls[i].backlogged || !b->cls[i].backlogged)
			continue;
		for (j = i + 1; j < DDL_C_JOBS; j++) {
			if (!a->cls[j].backlogged || !b->cls[j].backlogged)
				continue;
			any = true;
			if (ddl_cl_before(&a->cls[i].cl, &a->cls[j].cl) !=
			    ddl_cl_before(&b->cls[i].cl, &b->cls[j].cl)) {
				c->disagree++;
				c->compared++;
				return;
			}
		}
	}
	c->compared += any;
}

/*
 * Host @h declares the jobs of its c->declared mask and no other.  Broken
 * on purpose with c->local_sum: each size is scaled by the sum of the
 * weights of the jobs the host declared, over the number of job classes,
 * which keys the bursts by a local sum as sch_ddl once did.
 */
static void ddl_c_declare_host(struct ddl_cluster_sim *c, u32 h)
{
	struct ddl_chost *x = &c->h[h];
	u64 size, wsum = 0;
	u32 j;

	for (j = 0; j < DDL_C_JOBS; j++)
		if (c->declared[h] & BIT(j))
			wsum += x->sim->s.cls[j].weight;
	for (j = 0; j < DDL_C_JOBS; j++) {
		size = c->declared[h] & BIT(j) ? c->size[j] : 0;
		if (c->local_sum)
			size = div_u64(size * wsum, DDL_C_JOBS);
		ddl_cluster_size(&x->sim->s.cls[j].cl, size);
	}
}

/*
 * Host 1 alone holds jobs 2 and 3: one of them is declared, undeclared or
 * given a new weight (1 to 4) there, as a launcher binds and unbinds jobs.
 */
static void ddl_c_churn(struct ddl_cluster_sim *c)
{
	struct ddl_chost *x = &c->h[1];
	u32 j = 2 + ddl_c_rand(c, 2);

	if (ddl_c_rand(c, 2))
		c->declared[1] ^= BIT(j);
	else
		ddl_set_weight(&x->sim->s, &x->sim->p, j, 1 + ddl_c_rand(c, 4));
	ddl_c_declare_host(c, 1);
}

/* Run the cluster for @slots packet times. */
static void ddl_c_run(struct ddl_cluster_sim *c, u32 slots)
{
	u32 n, h, j;

	for (j = 0; j < DDL_C_JOBS; j++)
		ddl_c_iterate(c, j, ddl_c_rand(c, DDL_C_EPOCH));
	for (n = 0; n < slots; n++) {
		if (c->churn && !ddl_c_rand(c, 500))
			ddl_c_churn(c);
		for (h = 0; h < DDL_C_HOSTS; h++)
			for (j = 0; j < DDL_C_JOBS; j++)
				if (c->h[h].next[j] <= c->now)
					ddl_c_arrive(c, &c->h[h], j);
		ddl_c_compare(c);
		for (h = 0; h < DDL_C_HOSTS; h++)
			ddl_c_send(c, &c->h[h]);
		c->now += DDL_C_PKT;
	}
}

static void ddl_c_declare(struct ddl_cluster_sim *c)
{
	u32 h, j;

	for (h = 0; h < DDL_C_HOSTS; h++)
		for (j = 0; j < DDL_C_JOBS; j++)
			ddl_cluster_size(&c->h[h].sim->s.cls[j].cl, c->size[j]);
}

/*
 * Different shard sizes, different start times within the epoch, the same
 * declared sizes: the hosts order every pair of jobs alike at every step,
 * over several seeds and thousands of contended steps.
 */
static void ddl_cluster_same_order_test(struct kunit *test)
{
	u64 seed;

	for (seed = 1; seed <= 4; seed++) {
		struct ddl_cluster_sim *c = ddl_c_new(test, seed);

		ddl_c_declare(c);
		ddl_c_run(c, 60000);
		KUNIT_EXPECT_GT(test, c->iters, 80ULL);
		KUNIT_EXPECT_GT(test, c->compared, 500ULL);
		KUNIT_EXPECT_EQ_MSG(test, c->disagree, 0ULL, "seed %llu",
				    seed);
		ddl_cluster_test_exit(test);
		test->priv = NULL;
	}
}

/*
 * Clock skew: host 1's clock runs ahead by up to the margin that bursts
 * keep from an epoch's edge.  The order holds: the bound is that a burst
 * starts in the same epoch on every host, i.e. skew plus the spread of
 * its start over the hosts stays within its distance to the epoch's edge.
 */
static void ddl_cluster_skew_test(struct kunit *test)
{
	static const u64 skews[] = { 1, 10 * DDL_C_US, 99 * DDL_C_US };
	u32 i;

	for (i = 0; i < ARRAY_SIZE(skews); i++) {
		struct ddl_cluster_sim *c = ddl_c_new(test, 10 + i);

		c->h[1].sim->s.cl.clock_off += skews[i];
		ddl_c_declare(c);
		ddl_c_run(c, 60000);
		KUNIT_EXPECT_GT(test, c->compared, 500ULL);
		KUNIT_EXPECT_EQ_MSG(test, c->disagree, 0ULL, "skew %llu ns",
				    skews[i]);
		ddl_cluster_test_exit(test);
		test->priv = NULL;
	}
}

/*
 * Hosts that hold different jobs: host 0 holds jobs 0 and 1, host 1 holds
 * them and jobs 2 and 3, which it declares, undeclares and reweighs at
 * random steps.  The two hosts order jobs 0 and 1 alike at every step.
 * Keyed by the sum of the weights each host declared, they do not.
 */
static void ddl_cluster_subsets_test(struct kunit *test)
{
	u64 seed;
	u32 h;

	for (seed = 1; seed <= 6; seed++) {
		struct ddl_cluster_sim *c = ddl_c_new(test, 20 + seed);
		bool broken = seed > 3;

		/* Close sizes: the order of 0 and 1 turns on the epochs. */
		c->size[0] = 3000000;
		c->size[1] = 4000000;
		c->size[2] = 1000000;
		c->size[3] = 1000000;
		c->compute[0] = DDL_FAIR_PAUSE_NS + DDL_C_EPOCH;
		c->compute[1] = DDL_FAIR_PAUSE_NS + 3 * DDL_C_EPOCH;
		c->hosts[2] = BIT(1);
		c->hosts[3] = BIT(1);
		c->declared[0] = BIT(0) | BIT(1);
		c->declared[1] = BIT(0) | BIT(1) | BIT(2);
		c->churn = true;
		c->local_sum = broken;
		for (h = 0; h < DDL_C_HOSTS; h++)
			ddl_c_declare_host(c, h);
		ddl_c_run(c, 120000);
		KUNIT_EXPECT_GT(test, c->compared, 300ULL);
		if (broken)
			KUNIT_EXPECT_GT_MSG(test, c->disagree, 0ULL,
					    "seed %llu, local sum", seed);
		else
			KUNIT_EXPECT_EQ_MSG(test, c->disagree, 0ULL,
					    "seed %llu", seed);
		ddl_cluster_test_exit(test);
		test->priv = NULL;
	}
}

/*
 * Break it on purpose: each host keys a burst by its own shard's size (what
 * the fair order learns), as if it had declared that.  The hosts then
 * disagree, and the check above sees it.  Skew beyond the bound (half an
 * epoch with starts anywhere in it) is caught too.
 */
static void ddl_cluster_local_size_breaks_test(struct kunit *test)
{
	struct ddl_cluster_sim *c = ddl_c_new(test, 1);

	c->local = true;
	ddl_c_run(c, 60000);
	KUNIT_EXPECT_GT(test, c->compared, 500ULL);
	KUNIT_EXPECT_GT(test, c->disagree, 0ULL);
	ddl_cluster_test_exit(test);

	c = ddl_c_new(test, 2);
	c->margin = 1;
	c->h[1].sim->s.cl.clock_off += DDL_C_EPOCH / 2;
	ddl_c_declare(c);
	ddl_c_run(c, 60000);
	KUNIT_EXPECT_GT(test, c->disagree, 0ULL);
}

/*
 * One host, the bound: bursts of declared sizes arriving at random, each
 * job's next no sooner than its share of the rate would finish the one
 * before, the weights of the busy jobs summing to the number of job
 * classes.  Each completes by its start + its span + an epoch + a packet,
 * span = size * jobs / (weight * rate).
 */
static void ddl_cluster_deadline_test(struct kunit *test)
{
	struct ddl_cluster_sim *c = ddl_c_new(test, 7);
	struct ddl_chost *x = &c->h[0];
	u64 start[DDL_C_JOBS], span[DDL_C_JOBS], late = 0, done = 0;
	u32 j, n, w[DDL_C_JOBS] = { 1, 2, 1, 0 };	/* job 3 idle */
	enum ddl_reason why;
	u32 idx;

	for (j = 0; j < DDL_C_JOBS; j++) {
		x->next[j] = U64_MAX;
		if (!w[j])
			continue;
		ddl_set_weight(&x->sim->s, &x->sim->p, j, w[j]);
		ddl_cluster_size(&x->sim->s.cls[j].cl, c->size[j]);
		span[j] = div64_u64(c->size[j] * DDL_C_JOBS * NSEC_PER_SEC,
				    w[j] * DDL_C_RATE);
		x->shard[j] = div_u64(c->size[j], DDL_C_PKT);
		x->next[j] = ddl_c_rand(c, 3 * DDL_C_EPOCH);
	}
	for (n = 0; n < 60000; n++) {
		for (j = 0; j < DDL_C_JOBS; j++) {
			if (x->next[j] > c->now)
				continue;
			start[j] = c->now;
			ddl_c_arrive(c, x, j);
			/* Not before the static share would have finished. */
			x->next[j] = start[j] + span[j] + DDL_FAIR_PAUSE_NS +
				     ddl_c_rand(c, 4 * DDL_C_EPOCH);
		}
		idx = ddl_pick(&x->sim->s, &x->sim->p, c->now, &why);
		c->now += DDL_C_PKT;
		if (idx == DDL_NONE)
			continue;
		x->sim->qlen[idx]--;
		ddl_served(&x->sim->s, &x->sim->p, idx, why, DDL_C_PKT,
			   !x->sim->qlen[idx], c->now);
		if (x->sim->qlen[idx])
			continue;
		done++;
		if (c->now > start[idx] + span[idx] + DDL_C_EPOCH + DDL_C_PKT)
			late++;
	}
	KUNIT_EXPECT_GT(test, done, 50ULL);
	KUNIT_EXPECT_EQ(test, late, 0ULL);
}

/*
 * Host @x: job 0 declares less than jobs 1 and 2, so it is first and they
 * tie (rotated); jobs @first..2 arrive with 2 packets each.
 */
static void ddl_c_three(struct ddl_cluster_sim *c, struct ddl_chost *x,
			u32 first)
{
	u32 j;

	ddl_cluster_size(&x->sim->s.cls[0].cl, 1000000);
	ddl_cluster_size(&x->sim->s.cls[1].cl, 9000000);
	ddl_cluster_size(&x->sim->s.cls[2].cl, 9000000);
	c->now = 5 * DDL_C_EPOCH + 10;
	for (j = first; j < 3; j++) {
		x->shard[j] = 2;
		ddl_c_arrive(c, x, j);
	}
}

/* Host @x sends job 0's 2 packets; its queue empties. */
static void ddl_c_drain0(struct ddl_cluster_sim *c, struct ddl_chost *x)
{
	enum ddl_reason why;
	u32 n;

	for (n = 0; n < 2; n++) {
		KUNIT_ASSERT_EQ(c->test,
				ddl_pick(&x->sim->s, &x->sim->p, c->now, &why),
				0U);
		ddl_served(&x->sim->s, &x->sim->p, 0, why, DDL_C_PKT, false,
			   c->now);
	}
	x->sim->qlen[0] = 0;
	ddl_deactivate(&x->sim->s, 0, c->now);
}

/* The rank of job @j on host @x, up to @max. */
static u32 ddl_c_rank(struct ddl_chost *x, u32 j, u32 max, u64 now)
{
	return ddl_cluster_rank(&x->sim->s.cl, &x->sim->s.cls[j].cl, max, now);
}

/* The rank counts bursts in progress ahead: paused ones until the pause ends. */
static void ddl_cluster_rank_test(struct kunit *test)
{
	struct ddl_cluster_sim *c = ddl_c_new(test, 3);
	struct ddl_chost *x = &c->h[0];

	ddl_c_three(c, x, 0);
	KUNIT_EXPECT_EQ(test, ddl_cluster_first(&x->sim->s), 0U);
	KUNIT_EXPECT_EQ(test, ddl_c_rank(x, 0, 7, c->now), 0U);
	KUNIT_EXPECT_EQ(test, ddl_c_rank(x, 1, 7, c->now) +
			ddl_c_rank(x, 2, 7, c->now), 3U);
	KUNIT_EXPECT_EQ(test, ddl_c_rank(x, 2, 1, c->now), 1U);

	/* Job 0 empties: it pauses, and still counts ahead. */
	ddl_c_drain0(c, x);
	KUNIT_EXPECT_NE(test, ddl_cluster_first(&x->sim->s), 0U);
	KUNIT_EXPECT_GE(test, ddl_c_rank(x, 1, 7, c->now), 1U);

	/* After the pause it no longer does, and leaves the ranked jobs. */
	c->now += DDL_FAIR_PAUSE_NS;
	KUNIT_EXPECT_EQ(test, ddl_c_rank(x, 1, 7, c->now) +
			ddl_c_rank(x, 2, 7, c->now), 1U);
	KUNIT_EXPECT_TRUE(test, RB_EMPTY_NODE(&x->sim->s.cls[0].cl.rank_node));
}

/*
 * A burst past its declared size and an eighth (headers) has its key
 * moved on by its span per size: a size declared too small buys no more
 * than it declared.  A job that declared none is keyed at its epoch and
 * moves on by DDL_CL_NOMINAL epochs per that many epochs of bytes.
 */
static void ddl_cluster_overrun_test(struct kunit *test)
{
	struct ddl_cluster_sim *c = ddl_c_new(test, 4);
	struct ddl_chost *x = &c->h[0];
	u64 key, span, allow;

	ddl_cluster_size(&x->sim->s.cls[0].cl, 150000);
	c->now = 3 * DDL_C_EPOCH + 50;
	x->shard[0] = 10;			/* 150000 bytes: as declared */
	ddl_c_arrive(c, x, 0);
	key = x->sim->s.cls[0].cl.key;
	span = div64_u64(150000ULL * DDL_C_JOBS * NSEC_PER_SEC, DDL_C_RATE);
	KUNIT_EXPECT_EQ(test, key, (3 + 1000) * DDL_C_EPOCH + span);
	KUNIT_EXPECT_EQ(test, x->sim->s.cl.exts, 0ULL);
	/* 50 ns into its epoch: within 1/16 of an epoch of the edge. */
	KUNIT_EXPECT_EQ(test, x->sim->s.cl.edge_bursts, 1ULL);

	/* 165000 bytes: within the eighth (18750 bytes) past the size */
	x->shard[0] = 1;
	ddl_c_arrive(c, x, 0);
	KUNIT_EXPECT_EQ(test, x->sim->s.cls[0].cl.key, key);
	KUNIT_EXPECT_EQ(test, x->sim->s.cls[0].cl.allow, 168750ULL);
	KUNIT_EXPECT_EQ(test, x->sim->s.cl.exts, 0ULL);

	x->shard[0] = 1;			/* 180000 bytes: past it */
	ddl_c_arrive(c, x, 0);
	KUNIT_EXPECT_EQ(test, x->sim->s.cls[0].cl.key, key + DDL_C_EPOCH);
	KUNIT_EXPECT_EQ(test, x->sim->s.cls[0].cl.allow, 318750ULL);
	KUNIT_EXPECT_EQ(test, x->sim->s.cl.exts, 1ULL);

	/* No declared size: keyed at the epoch, nominal allowance. */
	c->now = 7 * DDL_C_EPOCH + 20;
	x->shard[1] = 1;
	ddl_c_arrive(c, x, 1);
	allow = DDL_C_EPOCH_US * DDL_CL_NOMINAL * DDL_C_RATE / 1000000;
	KUNIT_EXPECT_EQ(test, x->sim->s.cls[1].cl.key,
			(7 + 1000) * DDL_C_EPOCH);
	KUNIT_EXPECT_EQ(test, x->sim->s.cls[1].cl.allow, allow);

	/* Half an epoch in: not near an edge. */
	c->now = 9 * DDL_C_EPOCH + DDL_C_EPOCH / 2;
	x->shard[2] = 1;
	ddl_c_arrive(c, x, 2);
	KUNIT_EXPECT_EQ(test, x->sim->s.cl.edge_bursts, 2ULL);
}

/*
 * Entering mode cluster keys the backlogged jobs; leaving it empties the
 * order, and mode fair serves by its own tags again.
 */
static void ddl_cluster_mode_test(struct kunit *test)
{
	struct ddl_cluster_sim *c = ddl_c_new(test, 5);
	struct ddl_chost *x = &c->h[0];
	struct ddl_params old;
	enum ddl_reason why;
	u32 j;

	old = x->sim->p;
	x->sim->p.mode = TC_DDL_MODE_FAIR;
	ddl_reconfigure(&x->sim->s, &old, &x->sim->p, 0);
	KUNIT_EXPECT_TRUE(test, RB_EMPTY_ROOT(&x->sim->s.cl.order.rb_root));
	for (j = 0; j < 3; j++) {
		x->shard[j] = 3;
		ddl_c_arrive(c, x, j);
	}
	KUNIT_EXPECT_EQ(test, x->sim->s.cl.jobs, 0U);
	KUNIT_EXPECT_EQ(test, ddl_cluster_first(&x->sim->s), DDL_NONE);

	ddl_cluster_size(&x->sim->s.cls[2].cl, 100000);
	ddl_cluster_size(&x->sim->s.cls[0].cl, 5000000);
	old = x->sim->p;
	x->sim->p.mode = TC_DDL_MODE_CLUSTER;
	ddl_reconfigure(&x->sim->s, &old, &x->sim->p, c->now);
	KUNIT_EXPECT_EQ(test, x->sim->s.cl.jobs, 3U);
	/* Job 1 declared nothing: span 0, first; then 2, smaller than 0. */
	KUNIT_EXPECT_EQ(test, ddl_pick(&x->sim->s, &x->sim->p, c->now, &why),
			1U);
	KUNIT_EXPECT_TRUE(test, ddl_cl_before(&x->sim->s.cls[2].cl,
					      &x->sim->s.cls[0].cl));

	old = x->sim->p;
	x->sim->p.mode = TC_DDL_MODE_FAIR;
	ddl_reconfigure(&x->sim->s, &old, &x->sim->p, c->now);
	KUNIT_EXPECT_EQ(test, x->sim->s.cl.jobs, 0U);
	KUNIT_EXPECT_TRUE(test, RB_EMPTY_ROOT(&x->sim->s.cl.ranked.rb_root));
	KUNIT_EXPECT_EQ(test, ddl_pick(&x->sim->s, &x->sim->p, c->now, &why),
			ddl_fair_first(&x->sim->s));
}

/* The mark of job @j on host @x with @n code points. */
static u32 ddl_c_mark(struct ddl_cluster_sim *c, struct ddl_chost *x, u32 j,
		      u32 n)
{
	x->sim->p.ndscp = n;
	return ddl_mark(&x->sim->s, &x->sim->p, j, c->now);
}

/* Marks of jobs 1 and 2 on host @x, summed: their ranks are 0..2. */
static u32 ddl_c_marks(struct ddl_cluster_sim *c, struct ddl_chost *x)
{
	return ddl_c_mark(c, x, 1, 8) + ddl_c_mark(c, x, 2, 8);
}

/*
 * The mark is the rank held through a burst: it rises at once, and falls
 * only with the job's next burst.
 */
static void ddl_cluster_mark_test(struct kunit *test)
{
	struct ddl_cluster_sim *c = ddl_c_new(test, 4);
	struct ddl_chost *x = &c->h[0];
	u32 j;

	ddl_c_three(c, x, 1);
	KUNIT_EXPECT_EQ(test, ddl_c_marks(c, x), 1U);

	/* Job 0's burst, keyed earlier, begins: both marks rise at once. */
	c->now += 1000;
	x->shard[0] = 2;
	ddl_c_arrive(c, x, 0);
	KUNIT_EXPECT_EQ(test, ddl_c_mark(c, x, 0, 8), 0U);
	KUNIT_EXPECT_EQ(test, ddl_c_marks(c, x), 3U);
	KUNIT_EXPECT_EQ(test, ddl_c_mark(c, x, 2, 2), 1U);

	/* Job 0's burst ends: the ranks fall, the marks hold. */
	ddl_c_drain0(c, x);
	c->now += DDL_FAIR_PAUSE_NS;
	KUNIT_EXPECT_EQ(test, ddl_c_rank(x, 1, 7, c->now) +
			ddl_c_rank(x, 2, 7, c->now), 1U);
	KUNIT_EXPECT_EQ(test, ddl_c_marks(c, x), 3U);

	/* Jobs 1 and 2 come back after a gap: new bursts, marked by rank. */
	for (j = 1; j < 3; j++) {
		x->sim->qlen[j] = 0;
		ddl_deactivate(&x->sim->s, j, c->now);
	}
	c->now += 10 * DDL_FAIR_PAUSE_NS;
	for (j = 1; j < 3; j++)
		ddl_c_arrive(c, x, j);
	KUNIT_EXPECT_EQ(test, ddl_c_marks(c, x), 1U);
}

/*
 * The fabric's code points.  Two hosts hold different jobs: host 0 jobs 0,
 * 1 and 2, host 1 jobs 0 and 3.  Job 0's bursts reach both at the same
 * times, with its compute between them; the others come at random and
 * keep the hosts busy half of the time, so that job 0 often waits.  Each
 * host sends a packet per slot and marks it as the glue does.  Whenever
 * both send a packet of job 0 in the same slot, the two must carry the
 * same place; with a shuffle, every packet of job 0 must carry the place
 * the rule gives it: the last of its places in the deals from the one its
 * burst began in to the one it is sent in.  Job 0's bursts are all of one
 * size, so that neither host takes one for a pause in the last
 * (ddl_burst_paused()), and 3 ms long, so that many span a deal's edge.
 */
#define DDL_F_PLACES	4U

struct ddl_fabric_sim {
	struct ddl_cluster_sim	*c;
	u64			start;		/* job 0's burst began, ns */
	u64			sent;		/* packets of job 0 sent */
	u64			compared;	/* ... in one slot on both */
	u64			disagree;	/* ... with different places */
	u64			off_rule;	/* ... not as the rule says */
	u64			spans;		/* bursts over a deal's edge */
};

static const u32 ddl_f_holds[DDL_C_HOSTS] = { 0x7, 0x9 };

static void ddl_f_setup(struct ddl_cluster_sim *c, u32 mode, u32 shuffle_us)
{
	struct ddl_params old;
	u32 h;

	for (h = 0; h < DDL_C_HOSTS; h++) {
		struct ddl_chost *x = &c->h[h];

		old = x->sim->p;
		x->sim->p.mode = mode;
		x->sim->p.ndscp = DDL_F_PLACES;
		x->sim->p.shuffle_us = shuffle_us;
		ddl_reconfigure(&x->sim->s, &old, &x->sim->p, 0);
	}
}

/* Both hosts split the code points into tiers at @size (0: one tier). */
static void ddl_f_tiers(struct ddl_cluster_sim *c, u64 size)
{
	struct ddl_params old;
	u32 h;

	for (h = 0; h < DDL_C_HOSTS; h++) {
		struct ddl_chost *x = &c->h[h];

		old = x->sim->p;
		x->sim->p.ntiers = !!size;
		x->sim->p.tiers[0] = size;
		ddl_reconfigure(&x->sim->s, &old, &x->sim->p, 0);
	}
}

/* The place the rule gives a packet of job 0 sent at @now. */
static u32 ddl_f_rule(struct ddl_fabric_sim *f, const struct ddl_chost *x)
{
	u64 d = ddl_deal_of(&x->sim->p, f->start + x->sim->s.cl.clock_off);
	u64 last = ddl_deal_of(&x->sim->p, f->c->now + x->sim->s.cl.clock_off);
	const struct ddl_cls *c = &x->sim->s.cls[0];
	u32 tier = ddl_fabric_tier(&x->sim->p, c->cl.size, c->weight);
	u32 place = 0;

	if (last - d > DDL_DEAL_SPAN)
		return DDL_F_PLACES - 1;
	for (; d <= last; d++)
		place = max(place, ddl_fabric_place(&x->sim->p, 0, tier, d));
	return place;
}

/* Whether job 0's burst, of 3 ms at @t, spans the edge of a deal. */
static bool ddl_f_spans(struct ddl_cluster_sim *c, u64 t)
{
	const struct ddl_chost *x = &c->h[0];

	t += x->sim->s.cl.clock_off;
	return x->sim->p.shuffle_us &&
	       ddl_deal_of(&x->sim->p, t) !=
	       ddl_deal_of(&x->sim->p, t + 3 * DDL_C_EPOCH);
}

static void ddl_f_run(struct ddl_fabric_sim *f, u32 slots)
{
	struct ddl_cluster_sim *c = f->c;
	u64 next[DDL_C_JOBS];
	u32 n, h, j, mark[DDL_C_HOSTS];

	for (j = 0; j < DDL_C_JOBS; j++)
		next[j] = ddl_c_rand(c, 20 * DDL_C_EPOCH);
	for (n = 0; n < slots; n++) {
		bool both = true;

		/* Job 0 computes once both hosts have sent its burst. */
		if (next[0] == U64_MAX && !c->h[0].sim->qlen[0] &&
		    !c->h[1].sim->qlen[0])
			next[0] = c->now + DDL_FAIR_PAUSE_NS + DDL_C_EPOCH +
				  ddl_c_rand(c, 10 * DDL_C_EPOCH);
		for (j = 0; j < DDL_C_JOBS; j++) {
			u32 pkts = j ? 50 + ddl_c_rand(c, 100) : 200;

			if (next[j] > c->now)
				continue;
			for (h = 0; h < DDL_C_HOSTS; h++) {
				if (!(ddl_f_holds[h] & BIT(j)))
					continue;
				c->h[h].shard[j] = pkts;
				ddl_c_arrive(c, &c->h[h], j);
			}
			if (!j) {
				f->start = c->now;
				f->spans += ddl_f_spans(c, c->now);
			}
			next[j] = j ? c->now + 2 * DDL_C_EPOCH +
				      ddl_c_rand(c, 8 * DDL_C_EPOCH) : U64_MAX;
		}
		for (h = 0; h < DDL_C_HOSTS; h++) {
			struct ddl_chost *x = &c->h[h];
			struct ddl_sim *sim = x->sim;
			u32 idx;

			sim->now = c->now;
			idx = ddl_sim_pick(sim);
			both &= idx == 0;
			if (idx == DDL_NONE)
				continue;
			KUNIT_ASSERT_GT(c->test, sim->qlen[idx], 0U);
			mark[h] = ddl_mark(&sim->s, &sim->p, idx, c->now);
			if (!idx) {
				f->sent++;
				if (sim->p.shuffle_us &&
				    mark[h] != ddl_f_rule(f, x))
					f->off_rule++;
			}
			ddl_sim_serve(sim, idx);
		}
		if (both) {
			f->compared++;
			f->disagree += mark[0] != mark[1];
		}
		c->now += DDL_C_PKT;
	}
}

/*
 * With a shuffle, the shared job's mark is the same on both hosts at every
 * step, in mode fair and in mode cluster, over several seeds, though the
 * hosts hold different jobs and job 0 is sent at different times there;
 * with one tier, and with two split at 6 MB (job 0 declares 2 to 12 MB,
 * by the seed).
 */
static void ddl_cluster_fabric_same_mark_test(struct kunit *test)
{
	static const u32 modes[] = { TC_DDL_MODE_FAIR, TC_DDL_MODE_CLUSTER };
	static const u64 tiers[] = { 0, 6000000 };
	u32 i, t, seed;

	for (i = 0; i < ARRAY_SIZE(modes); i++) {
		for (t = 0; t < ARRAY_SIZE(tiers); t++) {
			for (seed = 1; seed <= 3; seed++) {
				struct ddl_fabric_sim f = {};

				f.c = ddl_c_new(test, 100 * i + 10 * t + seed);
				ddl_c_declare(f.c);
				ddl_f_setup(f.c, modes[i], DDL_SHUFFLE_MIN);
				ddl_f_tiers(f.c, tiers[t]);
				ddl_f_run(&f, 100000);
				KUNIT_EXPECT_GT(test, f.compared, 1000ULL);
				KUNIT_EXPECT_GT(test, f.spans, 10ULL);
				KUNIT_EXPECT_EQ_MSG(test, f.disagree, 0ULL,
						    "mode %u tiers %llu seed %u",
						    modes[i], tiers[t], seed);
				KUNIT_EXPECT_EQ_MSG(test, f.off_rule, 0ULL,
						    "mode %u tiers %llu seed %u: %llu of %llu",
						    modes[i], tiers[t], seed,
						    f.off_rule, f.sent);
				ddl_cluster_test_exit(test);
				test->priv = NULL;
			}
		}
	}
}

/*
 * Break it on purpose: mark by the job's rank among the jobs each host
 * holds (shuffle 0, what dscp did alone).  Host 0 ranks job 0 behind its
 * other jobs at times host 1 does not: the check above sees it.
 */
static void ddl_cluster_fabric_rank_breaks_test(struct kunit *test)
{
	struct ddl_fabric_sim f = {};

	f.c = ddl_c_new(test, 1);
	ddl_c_declare(f.c);
	ddl_f_setup(f.c, TC_DDL_MODE_CLUSTER, 0);
	ddl_f_run(&f, 100000);
	KUNIT_EXPECT_GT(test, f.compared, 1000ULL);
	KUNIT_EXPECT_GT(test, f.disagree, 0ULL);
}

/* Host @x sends all it holds of job @j, marking each packet. */
static u32 ddl_f_send_all(struct ddl_cluster_sim *c, struct ddl_chost *x,
			  u32 j)
{
	enum ddl_reason why;
	u32 mark = 0;

	while (x->sim->qlen[j]) {
		KUNIT_ASSERT_EQ(c->test,
				ddl_pick(&x->sim->s, &x->sim->p, c->now, &why),
				j);
		mark = ddl_mark(&x->sim->s, &x->sim->p, j, c->now);
		ddl_served(&x->sim->s, &x->sim->p, j, why, DDL_C_PKT, false,
			   c->now);
		c->now += DDL_C_PKT;
		if (!--x->sim->qlen[j])
			ddl_deactivate(&x->sim->s, j, c->now);
	}
	return mark;
}

/*
 * The place is held through an iteration, not a burst: a job sends the
 * first 7.5 ms of its iteration at the end of deal d (of 50 ms), is quiet
 * for 2 ms (a new burst: longer than the burst gap; the same iteration:
 * shorter than the pause) and sends on in deal d + 1, where its place
 * would be better.  Its packets keep the
 * place of deal d: they must not overtake those still queued in the
 * fabric.  After a quiet time of a pause, a new iteration takes the new
 * deal's place.  (Held per burst, as the rank is, the place rises and the
 * test fails.)
 */
static void ddl_cluster_fabric_iteration_hold_test(struct kunit *test)
{
	struct ddl_cluster_sim *c = ddl_c_new(test, 8);
	struct ddl_chost *x = &c->h[0];
	u64 deal = 5ULL * DDL_SHUFFLE_MIN * NSEC_PER_USEC, d;
	u32 hi, lo;

	ddl_f_setup(c, TC_DDL_MODE_FAIR, 5 * DDL_SHUFFLE_MIN);	/* 50 ms */
	/* A deal whose place for job 0 is worse than the next one's. */
	for (d = 2000; d < 2100; d++)
		if (ddl_fabric_place(&x->sim->p, 0, 0, d) >
		    ddl_fabric_place(&x->sim->p, 0, 0, d + 1))
			break;
	KUNIT_ASSERT_LT(test, d, 2100ULL);
	hi = ddl_fabric_place(&x->sim->p, 0, 0, d);
	lo = ddl_fabric_place(&x->sim->p, 0, 0, d + 1);

	c->now = (d + 1) * deal - 9 * NSEC_PER_MSEC - x->sim->s.cl.clock_off;
	x->shard[0] = 500;			/* 7.5 ms */
	ddl_c_arrive(c, x, 0);
	KUNIT_EXPECT_EQ(test, ddl_f_send_all(c, x, 0), hi);
	c->now = (d + 1) * deal + 500 * NSEC_PER_USEC - x->sim->s.cl.clock_off;
	x->shard[0] = 20;
	ddl_c_arrive(c, x, 0);
	KUNIT_EXPECT_EQ(test, x->sim->s.cls[0].burst.count, 2ULL);
	KUNIT_EXPECT_EQ(test, ddl_f_send_all(c, x, 0), hi);
	KUNIT_EXPECT_EQ(test, x->sim->s.cl.edge_bursts, 0ULL);

	/* Quiet for a pause: a new iteration, in deal d + 1. */
	c->now += DDL_FAIR_PAUSE_NS;
	KUNIT_ASSERT_EQ(test,
			ddl_deal_of(&x->sim->p,
				    c->now + x->sim->s.cl.clock_off),
			d + 1);
	x->shard[0] = 20;
	ddl_c_arrive(c, x, 0);
	KUNIT_EXPECT_EQ(test, ddl_f_send_all(c, x, 0), lo);
}

/*
 * The deal itself: of any two jobs, each is ahead of the other, or level,
 * in one deal of every pair; every job is first in about its share of the
 * deals; a place is one of the code points.
 */
static void ddl_cluster_fabric_deal_test(struct kunit *test)
{
	struct ddl_params p;
	u32 first[8] = {}, n, i, j;
	u64 d;

	ddl_c_params(&p);
	p.shuffle_us = DDL_SHUFFLE_MIN;
	for (n = 1; n <= 8; n++) {
		p.ndscp = n;
		for (d = 0; d < 400; d += 2) {
			for (i = 0; i < 8; i++) {
				u32 a0 = ddl_fabric_place(&p, i, 0, d);
				u32 a1 = ddl_fabric_place(&p, i, 0, d + 1);

				KUNIT_ASSERT_LT(test, a0, n);
				KUNIT_ASSERT_LT(test, a1, n);
				if (n == 4 && !a0)
					first[i]++;
				for (j = 0; j < i; j++) {
					u32 b0 = ddl_fabric_place(&p, j, 0, d);
					u32 b1 = ddl_fabric_place(&p, j, 0, d + 1);

					if (a0 < b0)
						KUNIT_EXPECT_GE(test, a1, b1);
					if (b0 < a0)
						KUNIT_EXPECT_GE(test, b1, a1);
				}
			}
		}
	}
	/* 200 even deals, 4 places: first in 50 of them, give or take. */
	for (i = 0; i < 8; i++)
		KUNIT_EXPECT_TRUE_MSG(test, first[i] >= 25 && first[i] <= 75,
				      "job %u first in %u of 200", i, first[i]);
	/* The deal counts from the base, on the shared clock. */
	p.base_ns = 5;
	KUNIT_EXPECT_EQ(test, ddl_deal_of(&p, 5 + 3ULL * DDL_SHUFFLE_MIN *
					  NSEC_PER_USEC), 3ULL);
}

/* The first and last places 8 jobs of tier @t get in deals @d, @d + 1. */
static void ddl_t_range(const struct ddl_params *p, u32 t, u64 d, u32 *lo,
			u32 *hi)
{
	u32 i, x;
	u64 e;

	*lo = U32_MAX;
	*hi = 0;
	for (i = 0; i < 8; i++) {
		for (e = d; e <= d + 1; e++) {
			x = ddl_fabric_place(p, i, t, e);
			*lo = min(*lo, x);
			*hi = max(*hi, x);
		}
	}
}

/* Of 8 jobs of tier @t, each is ahead of each in one of deals @d, @d + 1. */
static void ddl_t_reverses(struct kunit *test, const struct ddl_params *p,
			   u32 t, u64 d)
{
	u32 i, j, a0, a1, b0, b1;

	for (i = 0; i < 8; i++) {
		a0 = ddl_fabric_place(p, i, t, d);
		a1 = ddl_fabric_place(p, i, t, d + 1);
		for (j = 0; j < i; j++) {
			b0 = ddl_fabric_place(p, j, t, d);
			b1 = ddl_fabric_place(p, j, t, d + 1);
			if (a0 < b0)
				KUNIT_EXPECT_GE(test, a1, b1);
			if (b0 < a0)
				KUNIT_EXPECT_GE(test, b1, a1);
		}
	}
}

/*
 * Tiers: every place of a tier is ahead of every place of the next, at
 * every deal, for every split of 2 to 8 code points into 2 to 8 tiers,
 * and every place is one of the code points; within a tier the deal still
 * reverses every two jobs in a pair of deals; a size is in the tier of
 * the last size of the tiers it reaches, per unit of weight, and no size
 * at all is in the last tier.
 */
static void ddl_cluster_fabric_tiers_test(struct kunit *test)
{
	u32 n, k, t, lo, hi, lo1, hi1;
	struct ddl_params p;
	u64 d;

	ddl_c_params(&p);
	p.shuffle_us = DDL_SHUFFLE_MIN;
	for (n = 2; n <= TC_DDL_DSCP_MAX; n++) {
		p.ndscp = n;
		for (k = 1; k < n; k++) {
			p.ntiers = k;
			for (d = 0; d < 200; d += 2) {
				for (t = 0; t < k; t++) {
					ddl_t_range(&p, t, d, &lo, &hi);
					ddl_t_range(&p, t + 1, d, &lo1, &hi1);
					KUNIT_ASSERT_LT_MSG(test, hi, lo1,
							    "%u places, %u tiers, tier %u",
							    n, k + 1, t);
					KUNIT_ASSERT_LT(test, hi1, n);
				}
				ddl_t_reverses(test, &p, d % (k + 1), d);
			}
		}
	}

	p.ntiers = 2;
	p.tiers[0] = 1000000;
	p.tiers[1] = 4000000;
	KUNIT_EXPECT_EQ(test, ddl_fabric_tier(&p, 999999, 1), 0U);
	KUNIT_EXPECT_EQ(test, ddl_fabric_tier(&p, 1000000, 1), 1U);
	KUNIT_EXPECT_EQ(test, ddl_fabric_tier(&p, 3999999, 1), 1U);
	KUNIT_EXPECT_EQ(test, ddl_fabric_tier(&p, 4000000, 1), 2U);
	KUNIT_EXPECT_EQ(test, ddl_fabric_tier(&p, DDL_SIZE_MAX, 1), 2U);
	/* Per unit of weight: 6 MB of weight 2 are 3 MB of weight 1. */
	KUNIT_EXPECT_EQ(test, ddl_fabric_tier(&p, 6000000, 2), 1U);
	KUNIT_EXPECT_EQ(test, ddl_fabric_tier(&p, 0, 1), 2U);
	p.ntiers = 0;
	KUNIT_EXPECT_EQ(test, ddl_fabric_tier(&p, 999999, 1), 0U);
	KUNIT_EXPECT_EQ(test, ddl_fabric_tier(&p, 0, 1), 0U);
	/* A tier kept from before the tiers were cut back: the last one. */
	p.ndscp = 4;
	p.ntiers = 1;
	for (d = 0; d < 50; d++)
		KUNIT_EXPECT_GE(test, ddl_fabric_place(&p, 3, 5, d), 2U);
}

/*
 * Extremes: sizes from a byte to a terabyte, 400 Gbit/s, 4096 job classes,
 * weights 1 and DDL_WEIGHT_MAX.  One host of @jobs classes in mode
 * cluster at @rate with the default epoch; test->priv holds it as a
 * cluster of one, for ddl_cluster_test_exit().
 */
#define DDL_X_RATE	50000000000ULL	/* bytes/s: 400 Gbit/s */
#define DDL_X_EPOCH	((u64)DDL_EPOCH_DEFAULT * 1000)	/* ns */
#define DDL_X_OFF	(1000 * DDL_X_EPOCH)	/* shared clock less ours */
#define DDL_X_NOW	(5 * DDL_X_EPOCH + DDL_X_EPOCH / 2)
#define DDL_X_START	(1005 * DDL_X_EPOCH)	/* its epoch, shared clock */

static struct ddl_sim *ddl_x_new(struct kunit *test, u32 jobs, u64 rate)
{
	struct ddl_cluster_sim *c;
	struct ddl_sim *sim;

	c = kunit_kzalloc(test, sizeof(*c), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, c);
	c->test = test;
	test->priv = c;
	sim = ddl_sim_alloc(test, jobs);
	c->h[0].sim = sim;
	test->priv = c;	/* which ddl_sim_alloc() set to @sim */
	sim->p.mode = TC_DDL_MODE_CLUSTER;
	sim->p.rate = rate;
	sim->p.maxwait_us = DDL_MAXWAIT_MAX;
	sim->p.bgshare = 0;
	ddl_params_derive(&sim->p);
	sim->s.cl.clock_off = DDL_X_OFF;
	sim->now = DDL_X_NOW;
	return sim;
}

/* Job @j declares @size at weight @w. */
static void ddl_x_declare(struct ddl_sim *sim, u32 j, u64 size, u32 w)
{
	ddl_set_weight(&sim->s, &sim->p, j, w);
	ddl_cluster_size(&sim->s.cls[j].cl, size);
}

/* Send every queued packet; each must be the head the rule says. */
static void ddl_x_drain(struct kunit *test, struct ddl_sim *sim,
			const u32 *order, u32 n)
{
	u32 i;

	for (i = 0; i < n; i++) {
		KUNIT_ASSERT_EQ_MSG(test, ddl_cluster_first(&sim->s), order[i],
				    "place %u", i);
		KUNIT_ASSERT_EQ(test, ddl_sim_send(sim), order[i]);
	}
	KUNIT_EXPECT_EQ(test, ddl_sim_pick(sim), (u32)DDL_NONE);
}

struct ddl_x_job {
	u64	size;
	u32	weight;
};

#define DDL_X_MB	1000000ULL
#define DDL_X_GB	1000000000ULL
#define DDL_X_TB	1000000000000ULL

/*
 * Sizes three orders of magnitude apart (1 MB, 1 GB, 1 TB and 1 TiB), at
 * weight 1 and DDL_WEIGHT_MAX, in one epoch at 400 Gbit/s: every key is
 * the epoch's start + size * jobs / (weight * rate), exact to the ns, and
 * the order is the documented one, smallest size per weight first.
 */
static const struct ddl_x_job ddl_x_apart[] = {
	{ DDL_X_TB, 1 }, { DDL_X_GB, 1 }, { DDL_X_MB, 1 },
	{ DDL_X_TB, DDL_WEIGHT_MAX }, { DDL_X_GB, DDL_WEIGHT_MAX },
	{ DDL_X_MB, DDL_WEIGHT_MAX }, { DDL_SIZE_MAX, 1 },
};

static void ddl_cluster_sizes_apart_test(struct kunit *test)
{
	/* Bytes per unit of weight: 3906, 1e6, 3.9e6, 1e9, 3.9e9, 1e12, 2^40. */
	static const u32 order[] = { 5, 2, 4, 1, 3, 0, 6 };
	u32 n = ARRAY_SIZE(ddl_x_apart), jobs = DDL_JOBS_DEFAULT, j;
	struct ddl_sim *sim = ddl_x_new(test, jobs, DDL_X_RATE);
	u64 span;

	for (j = 0; j < n; j++)
		ddl_x_declare(sim, j, ddl_x_apart[j].size,
			      ddl_x_apart[j].weight);
	/* The largest first, so that arrival order is not the answer. */
	for (j = n; j-- > 0;)
		ddl_sim_arrive(sim, j, 1, sim->now);
	for (j = 0; j < n; j++) {
		const struct ddl_x_job *x = &ddl_x_apart[j];
		struct ddl_cluster_cls *cc = &sim->s.cls[j].cl;

		/* 1e9 / 50e9 per byte: size * jobs / (50 * weight) ns. */
		span = div64_u64(x->size * jobs, 50ULL * x->weight);
		KUNIT_EXPECT_LT(test, span, DDL_CL_SPAN_MAX);
		KUNIT_EXPECT_EQ_MSG(test, cc->key, DDL_X_START + span,
				    "job %u", j);
		KUNIT_EXPECT_EQ(test, cc->allow,
				x->size + (x->size >> DDL_CL_SLACK_SHIFT));
	}
	KUNIT_EXPECT_EQ(test, sim->s.cl.exts, 0ULL);
	ddl_x_drain(test, sim, order, ARRAY_SIZE(order));
}

/*
 * DDL_JOBS_MAX job classes at 400 Gbit/s: class i declares 4096 - i MB
 * (class 4095, the last of the bitmap, the smallest), class 1 1 TiB at
 * DDL_WEIGHT_MAX, just over class 2's size per weight, and class 0 1 TiB
 * at weight 1, whose span saturates at DDL_CL_SPAN_MAX.  The head is the
 * right one at every step: 4095, 4094 ... 0.
 */
static void ddl_cluster_max_jobs_test(struct kunit *test)
{
	u32 jobs = DDL_JOBS_MAX, j, *order;
	struct ddl_sim *sim = ddl_x_new(test, jobs, DDL_X_RATE);

	order = kunit_kcalloc(test, jobs, sizeof(*order), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, order);
	ddl_x_declare(sim, 0, DDL_SIZE_MAX, 1);
	ddl_x_declare(sim, 1, DDL_SIZE_MAX, DDL_WEIGHT_MAX);
	for (j = 2; j < jobs; j++)
		ddl_x_declare(sim, j, (jobs - j) * DDL_X_MB, 1);
	for (j = 0; j < jobs; j++) {
		ddl_sim_arrive(sim, j, 1, sim->now);
		order[j] = jobs - 1 - j;
	}
	KUNIT_EXPECT_EQ(test, sim->s.cl.jobs, jobs);
	KUNIT_EXPECT_EQ(test, sim->s.cls[0].cl.key,
			DDL_X_START + DDL_CL_SPAN_MAX);
	/* 2^40 * 4096 / (256 * 50) ns: below the cap. */
	KUNIT_EXPECT_EQ(test, sim->s.cls[1].cl.key,
			DDL_X_START + div64_u64(DDL_SIZE_MAX * jobs, 50 * 256));
	ddl_x_drain(test, sim, order, jobs);
}

/*
 * The span saturates at DDL_CL_SPAN_MAX exactly where it reaches it, and
 * before dividing: 1 TiB over 4096 jobs at the lowest rate would be a
 * quotient past 2^64, which traps in x86-64's divq.  The allowance of a
 * job with no size holds at the longest epoch and the highest rate.
 */
static void ddl_cluster_span_saturates_test(struct kunit *test)
{
	struct ddl_sim *sim = ddl_x_new(test, DDL_JOBS_MAX, DDL_RATE_MIN);
	struct ddl_cls *c = &sim->s.cls[0];

	ddl_x_declare(sim, 0, DDL_SIZE_MAX, 1);
	KUNIT_EXPECT_EQ(test, ddl_cl_span(&sim->p, &c->cl, c->weight), DDL_CL_SPAN_MAX);
	ddl_x_declare(sim, 0, DDL_SIZE_MAX, DDL_WEIGHT_MAX);
	KUNIT_EXPECT_EQ(test, ddl_cl_span(&sim->p, &c->cl, c->weight), DDL_CL_SPAN_MAX);
	ddl_sim_arrive(sim, 0, 1, sim->now);
	KUNIT_EXPECT_EQ(test, c->cl.key, DDL_X_START + DDL_CL_SPAN_MAX);

	/* One byte over 4096 jobs at 1 Tbit/s: 32.768 ns. */
	sim->p.rate = DDL_RATE_MAX;
	ddl_x_declare(sim, 0, 1, 1);
	KUNIT_EXPECT_EQ(test, ddl_cl_span(&sim->p, &c->cl, c->weight), 32ULL);

	/* One job at 8 Gbit/s: 1000 s is 1e12 bytes. */
	sim->p.jobs = 1;
	sim->p.rate = DDL_GBIT(8);
	ddl_x_declare(sim, 0, DDL_X_TB - 1, 1);
	KUNIT_EXPECT_EQ(test, ddl_cl_span(&sim->p, &c->cl, c->weight), DDL_CL_SPAN_MAX - 1);
	ddl_x_declare(sim, 0, DDL_X_TB, 1);
	KUNIT_EXPECT_EQ(test, ddl_cl_span(&sim->p, &c->cl, c->weight), DDL_CL_SPAN_MAX);

	/*
	 * No size, the longest epoch at the highest rate: DDL_CL_NOMINAL
	 * epochs of 10 s at 1.25e11 bytes/s, 1e19 us * bytes/s < 2^64.
	 */
	sim->p.epoch_us = DDL_EPOCH_MAX;
	sim->p.rate = DDL_RATE_MAX;
	ddl_x_declare(sim, 0, 0, 1);
	KUNIT_EXPECT_EQ(test, ddl_cl_allow(&sim->p, &c->cl),
			DDL_CL_NOMINAL * 10 * DDL_RATE_MAX);
	KUNIT_EXPECT_EQ(test, ddl_cl_step(&sim->p, &c->cl, c->weight),
			DDL_CL_NOMINAL * 10 * NSEC_PER_SEC_U64);
}

/*
 * A size of one byte and a burst of 1 TiB (1 GiB packets) at the default
 * epoch: the key moves an epoch per byte over, 2^40 * 2e7 ns in all,
 * past 2^64.  It stops at DDL_CL_MOVE_MAX, and the job stays behind one
 * that declared its terabyte and began in the same epoch at every step:
 * a key 2^63 ahead, compared modulo 2^64, would come first.
 */
static void ddl_cluster_tiny_size_test(struct kunit *test)
{
	struct ddl_sim *sim = ddl_x_new(test, DDL_JOBS_DEFAULT, DDL_X_RATE);
	struct ddl_cls *c = &sim->s.cls[0];
	u32 i;

	ddl_x_declare(sim, 0, 1, 1);
	ddl_x_declare(sim, 1, DDL_SIZE_MAX, 1);
	ddl_sim_arrive(sim, 1, 1, sim->now);
	sim->len[0] = SZ_1G;
	ddl_sim_arrive(sim, 0, 1, sim->now);
	/* 2^30 - 1 bytes over its one, an epoch each: 2.1e16 ns. */
	KUNIT_EXPECT_EQ(test, c->cl.moved, (SZ_1G - 1) * DDL_X_EPOCH);
	KUNIT_EXPECT_EQ(test, c->cl.key,
			DDL_X_START + (SZ_1G - 1) * DDL_X_EPOCH);
	for (i = 1; i < 1024; i++) {
		ddl_sim_arrive(sim, 0, 1, sim->now);
		KUNIT_ASSERT_EQ_MSG(test, ddl_cluster_first(&sim->s), 1U,
				    "after %u GiB", i + 1);
		KUNIT_ASSERT_TRUE(test, ddl_cl_before(&sim->s.cls[1].cl, &c->cl));
	}
	KUNIT_EXPECT_EQ(test, c->cl.moved, DDL_CL_MOVE_MAX);
	KUNIT_EXPECT_EQ(test, c->cl.key, DDL_X_START + DDL_CL_MOVE_MAX);
	KUNIT_EXPECT_EQ(test, c->cl.allow, 1024ULL * SZ_1G);
	KUNIT_EXPECT_EQ(test, sim->s.cl.exts, 1024ULL);

	/* Both sent, job 1 first; the next burst starts from its epoch. */
	for (i = 0; i < 1025; i++)
		KUNIT_ASSERT_EQ(test, ddl_sim_send(sim), i ? 0U : 1U);
	KUNIT_EXPECT_EQ(test, ddl_sim_pick(sim), (u32)DDL_NONE);
	sim->now += DDL_X_EPOCH;
	sim->len[0] = DDL_T_LEN;
	ddl_sim_arrive(sim, 0, 1, sim->now);
	KUNIT_EXPECT_EQ(test, c->cl.moved, (DDL_T_LEN - 1) * DDL_X_EPOCH);
	KUNIT_EXPECT_EQ(test, c->cl.key,
			DDL_X_START + DDL_T_LEN * DDL_X_EPOCH);
}

static struct kunit_case ddl_cluster_test_cases[] = {
	KUNIT_CASE_SLOW(ddl_cluster_same_order_test),
	KUNIT_CASE_SLOW(ddl_cluster_skew_test),
	KUNIT_CASE_SLOW(ddl_cluster_local_size_breaks_test),
	KUNIT_CASE_SLOW(ddl_cluster_subsets_test),
	KUNIT_CASE(ddl_cluster_deadline_test),
	KUNIT_CASE(ddl_cluster_rank_test),
	KUNIT_CASE(ddl_cluster_mark_test),
	KUNIT_CASE_SLOW(ddl_cluster_fabric_same_mark_test),
	KUNIT_CASE(ddl_cluster_fabric_rank_breaks_test),
	KUNIT_CASE(ddl_cluster_fabric_deal_test),
	KUNIT_CASE(ddl_cluster_fabric_iteration_hold_test),
	KUNIT_CASE(ddl_cluster_fabric_tiers_test),
	KUNIT_CASE(ddl_cluster_overrun_test),
	KUNIT_CASE(ddl_cluster_mode_test),
	KUNIT_CASE(ddl_cluster_sizes_apart_test),
	KUNIT_CASE(ddl_cluster_max_jobs_test),
	KUNIT_CASE(ddl_cluster_span_saturates_test),
	KUNIT_CASE(ddl_cluster_tiny_size_test),
	{}
};

static struct kunit_suite ddl_cluster_test_suite = {
	.name = "sch_ddl_cluster",
	.init = ddl_cluster_test_init,
	.exit = ddl_cluster_test_exit,
	.test_cases = ddl_cluster_test_cases,
};

kunit_test_suite(ddl_cluster_test_suite);

MODULE_DESCRIPTION("KUnit tests for the sch_ddl cluster order");
MODULE_LICENSE("GPL");
