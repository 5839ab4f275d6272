// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests of ddl_gate.c alone: the device's turn that the ddl qdiscs
 * of a device's transmit queues share.  The gate calls no other unit, so
 * this module builds it only; its glue (ddl_share.c) is driven end to end
 * by tests/e2e/share.sh.
 */

#include <kunit/test.h>

#include "compat.h"

#include "ddl_gate.c"

#define DDL_G_T0	(1000ULL * NSEC_PER_SEC)
#define DDL_G_EPOCH	(20ULL * NSEC_PER_MSEC)
#define DDL_G_STALE	(12500ULL * NSEC_PER_USEC)	/* maxwait 100 ms / 8 */

/* sch_ddl_gate: one queue's question against the turn as it stands */

struct ddl_gate_case {
	const char	*name;
	u32		job;		/* the turn's job; DDL_NONE: free */
	u64		key;		/* its key and rotation */
	u32		rot;
	u64		seen;		/* ns after DDL_G_T0 */
	u32		ask_job;	/* the queue's pick */
	u64		ask_key;
	u32		ask_rot;
	u64		now;		/* ns after DDL_G_T0 */
	enum ddl_gate_verdict want;
	u32		want_job;	/* the turn's job after */
	u64		want_key;
};

static const struct ddl_gate_case ddl_gate_cases[] = {
	{ "free_turn_claimed", DDL_NONE, 0, 0, 0, 2, 5 * DDL_G_EPOCH, 0, 10,
	  DDL_GATE_CLAIM, 2, 5 * DDL_G_EPOCH },
	{ "own_job_same_key", 2, 5 * DDL_G_EPOCH, 1, 0, 2, 5 * DDL_G_EPOCH, 1,
	  10, DDL_GATE_OWN, 2, 5 * DDL_G_EPOCH },
	{ "own_job_earlier_key_kept", 2, 5 * DDL_G_EPOCH, 1, 0, 2,
	  4 * DDL_G_EPOCH, 1, 10, DDL_GATE_OWN, 2, 5 * DDL_G_EPOCH },
	{ "own_job_later_key_recorded", 2, 5 * DDL_G_EPOCH, 1, 0, 2,
	  7 * DDL_G_EPOCH, 1, 10, DDL_GATE_LATER, 2, 7 * DDL_G_EPOCH },
	{ "other_job_later_key_holds", 2, 5 * DDL_G_EPOCH, 1, 0, 3,
	  6 * DDL_G_EPOCH, 0, 10, DDL_GATE_HOLD, 2, 5 * DDL_G_EPOCH },
	{ "other_job_earlier_key_claims", 2, 5 * DDL_G_EPOCH, 1, 0, 3,
	  4 * DDL_G_EPOCH, 0, 10, DDL_GATE_CLAIM, 3, 4 * DDL_G_EPOCH },
	{ "equal_key_lower_rotation_claims", 2, 5 * DDL_G_EPOCH, 1, 0, 3,
	  5 * DDL_G_EPOCH, 0, 10, DDL_GATE_CLAIM, 3, 5 * DDL_G_EPOCH },
	{ "equal_key_higher_rotation_holds", 2, 5 * DDL_G_EPOCH, 1, 0, 3,
	  5 * DDL_G_EPOCH, 2, 10, DDL_GATE_HOLD, 2, 5 * DDL_G_EPOCH },
	{ "stale_at_exactly_the_bound_holds", 2, 5 * DDL_G_EPOCH, 1, 0, 3,
	  6 * DDL_G_EPOCH, 0, DDL_G_STALE, DDL_GATE_HOLD, 2,
	  5 * DDL_G_EPOCH },
	{ "stale_past_the_bound_claims", 2, 5 * DDL_G_EPOCH, 1, 0, 3,
	  6 * DDL_G_EPOCH, 0, DDL_G_STALE + 1, DDL_GATE_CLAIM, 3,
	  6 * DDL_G_EPOCH },
	/* Another CPU's clock a little behind the one that wrote seen. */
	{ "seen_after_now_is_fresh", 2, 5 * DDL_G_EPOCH, 1, 500, 3,
	  6 * DDL_G_EPOCH, 0, 400, DDL_GATE_HOLD, 2, 5 * DDL_G_EPOCH },
	/* Keys compare modulo 2^64: U64_MAX is just before 0. */
	{ "key_wraps_earlier", 2, 3, 1, 0, 3, U64_MAX - 2, 0, 10,
	  DDL_GATE_CLAIM, 3, U64_MAX - 2 },
	{ "key_wraps_later", 2, U64_MAX - 2, 1, 0, 3, 3, 0, 10,
	  DDL_GATE_HOLD, 2, U64_MAX - 2 },
};

static void ddl_gate_case_desc(const struct ddl_gate_case *c, char *desc)
{
	strscpy(desc, c->name, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(ddl_gate, ddl_gate_cases, ddl_gate_case_desc);

static void ddl_gate_try_test(struct kunit *test)
{
	const struct ddl_gate_case *c = test->param_value;
	struct ddl_gate g;

	ddl_gate_init(&g);
	g.job = c->job;
	g.key = c->key;
	g.rot = c->rot;
	g.seen = DDL_G_T0 + c->seen;

	KUNIT_EXPECT_EQ(test, ddl_gate_try(&g, c->ask_job, c->ask_key,
					   c->ask_rot, DDL_G_T0 + c->now,
					   DDL_G_STALE),
			c->want);
	KUNIT_EXPECT_EQ(test, g.job, c->want_job);
	KUNIT_EXPECT_EQ(test, g.key, c->want_key);
	/* Whoever sends now refreshed the turn; a wait leaves it alone. */
	KUNIT_EXPECT_EQ(test, g.seen, DDL_G_T0 + (c->want == DDL_GATE_HOLD ?
						  c->seen : c->now));
	if (c->want == DDL_GATE_HOLD)
		KUNIT_EXPECT_EQ(test, ddl_gate_free_at(&g, DDL_G_STALE),
				DDL_G_T0 + c->seen + DDL_G_STALE);
}

/* The lockless read: the turn's job, at a key not later than the turn's. */
static void ddl_gate_owns_test(struct kunit *test)
{
	struct ddl_gate g;

	ddl_gate_init(&g);
	KUNIT_EXPECT_FALSE(test, ddl_gate_owns(&g, 0, 0));
	KUNIT_EXPECT_EQ(test, ddl_gate_try(&g, 1, DDL_G_EPOCH, 0, DDL_G_T0,
					   DDL_G_STALE), DDL_GATE_CLAIM);
	KUNIT_EXPECT_TRUE(test, ddl_gate_owns(&g, 1, DDL_G_EPOCH));
	KUNIT_EXPECT_TRUE(test, ddl_gate_owns(&g, 1, 0));
	KUNIT_EXPECT_FALSE(test, ddl_gate_owns(&g, 1, DDL_G_EPOCH + 1));
	KUNIT_EXPECT_FALSE(test, ddl_gate_owns(&g, 0, DDL_G_EPOCH));
}

/* The turn's job refreshes it an eighth of the stale bound at a time. */
static void ddl_gate_sent_test(struct kunit *test)
{
	const u64 step = DDL_G_STALE / 8;
	struct ddl_gate g;

	ddl_gate_init(&g);
	ddl_gate_try(&g, 1, DDL_G_EPOCH, 0, DDL_G_T0, DDL_G_STALE);
	ddl_gate_sent(&g, DDL_G_T0 + step, DDL_G_STALE);
	KUNIT_EXPECT_EQ(test, g.seen, DDL_G_T0);
	ddl_gate_sent(&g, DDL_G_T0 + step + 1, DDL_G_STALE);
	KUNIT_EXPECT_EQ(test, g.seen, DDL_G_T0 + step + 1);
	/* A clock behind the one that wrote it moves nothing back. */
	ddl_gate_sent(&g, DDL_G_T0, DDL_G_STALE);
	KUNIT_EXPECT_EQ(test, g.seen, DDL_G_T0 + step + 1);
}

/* Only the turn's job frees it; the next to ask takes it. */
static void ddl_gate_release_test(struct kunit *test)
{
	struct ddl_gate g;

	ddl_gate_init(&g);
	KUNIT_EXPECT_FALSE(test, ddl_gate_release(&g, 1));
	ddl_gate_try(&g, 1, 2 * DDL_G_EPOCH, 0, DDL_G_T0, DDL_G_STALE);
	KUNIT_EXPECT_FALSE(test, ddl_gate_release(&g, 2));
	KUNIT_EXPECT_EQ(test, g.job, 1);
	KUNIT_EXPECT_TRUE(test, ddl_gate_release(&g, 1));
	KUNIT_EXPECT_EQ(test, g.job, DDL_NONE);
	KUNIT_EXPECT_FALSE(test, ddl_gate_release(&g, 1));
	/* A later burst takes a freed turn; the earlier one takes it back. */
	KUNIT_EXPECT_EQ(test, ddl_gate_try(&g, 2, 3 * DDL_G_EPOCH, 0,
					   DDL_G_T0 + 10, DDL_G_STALE),
			DDL_GATE_CLAIM);
	KUNIT_EXPECT_EQ(test, ddl_gate_try(&g, 1, 2 * DDL_G_EPOCH, 0,
					   DDL_G_T0 + 20, DDL_G_STALE),
			DDL_GATE_CLAIM);
	KUNIT_EXPECT_EQ(test, ddl_gate_try(&g, 2, 3 * DDL_G_EPOCH, 0,
					   DDL_G_T0 + 30, DDL_G_STALE),
			DDL_GATE_HOLD);
}

/*
 * Four queues, each asking in turn for its own pick, the jobs' bursts
 * keyed 1, 2 and 3 epochs: whatever the order they ask in, once the
 * earliest burst has asked, no other queue sends until it is released;
 * then the next earliest.
 */
static void ddl_gate_order_test(struct kunit *test)
{
	static const u32 picks[4] = { 2, 0, 1, 2 };	/* job per queue */
	static const u64 keys[3] = { 3 * DDL_G_EPOCH, 1 * DDL_G_EPOCH,
				     2 * DDL_G_EPOCH };
	u32 order[3], n = 0, round, qi, first, done = 0;
	struct ddl_gate g;
	u64 now = DDL_G_T0;

	ddl_gate_init(&g);
	for (round = 0; round < 3; round++) {
		first = DDL_NONE;
		/* Two rounds of asking settle the turn on the earliest. */
		for (qi = 0; qi < 8; qi++) {
			u32 job = picks[(qi + round) % 4];

			if (done & BIT(job))
				continue;
			if (ddl_gate_try(&g, job, keys[job], 0, ++now,
					 DDL_G_STALE) != DDL_GATE_HOLD && qi >= 4)
				first = first == DDL_NONE ? job : first;
		}
		KUNIT_ASSERT_NE(test, first, DDL_NONE);
		KUNIT_EXPECT_EQ(test, g.job, first);
		order[n++] = first;
		done |= BIT(first);
		KUNIT_EXPECT_TRUE(test, ddl_gate_release(&g, first));
	}
	KUNIT_EXPECT_EQ(test, order[0], 1);
	KUNIT_EXPECT_EQ(test, order[1], 2);
	KUNIT_EXPECT_EQ(test, order[2], 0);
}

static struct kunit_case ddl_gate_test_cases[] = {
	KUNIT_CASE_PARAM(ddl_gate_try_test, ddl_gate_gen_params),
	KUNIT_CASE(ddl_gate_owns_test),
	KUNIT_CASE(ddl_gate_sent_test),
	KUNIT_CASE(ddl_gate_release_test),
	KUNIT_CASE(ddl_gate_order_test),
	{}
};

static struct kunit_suite ddl_gate_test_suite = {
	.name = "sch_ddl_gate",
	.test_cases = ddl_gate_test_cases,
};

kunit_test_suite(ddl_gate_test_suite);

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("KUnit tests for the sch_ddl device's turn");
