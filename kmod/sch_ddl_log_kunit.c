// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests for what the sch_ddl core records (ddl_log.c) as it runs:
 * completed bursts (on the next burst and when a quiet job settles), and
 * the log of green changes.  The records come from ddl_burst.c and
 * ddl_sched.c, so the suite builds the whole core and drives it through
 * the simulated qdisc of ddl_kunit_sim.h; the histogram's own functions
 * are tested alone in sch_ddl_log_unit_kunit.c.
 */

#include <kunit/test.h>

#include "compat.h"

#include "ddl_kunit_core.h"

#include "ddl_kunit_sim.h"

/* sch_ddl_log: completed bursts */

/* Send everything queued, one packet per @gap ns. */
static void ddl_log_drain(struct ddl_sim *sim, u64 gap)
{
	u32 i;

	for (i = 0; i < 100000 && ddl_sim_send(sim) != DDL_NONE; i++)
		sim->now += gap;
}

/*
 * A burst is recorded when the job's next burst begins: start, end (when
 * the queue emptied), bytes, and one count in the bucket of its duration.
 */
static void ddl_burst_next_closes_test(struct kunit *test)
{
	struct ddl_sim *sim = ddl_sim_new(test, 2);
	const struct ddl_burst_rec *r;
	struct ddl_job_log *l;

	sim->now = 10 * DDL_T_MS;
	ddl_sim_arrive(sim, 0, 10, sim->now);
	ddl_log_drain(sim, 100 * DDL_T_US);	/* last sent at +0.9 ms */
	KUNIT_EXPECT_TRUE(test, sim->s.cls[0].burst.open);
	KUNIT_EXPECT_EQ(test, sim->s.log.bursts_done, 0);
	KUNIT_EXPECT_NULL(test, ddl_burst_last(&sim->s.log, 0, 0));

	sim->now = 20 * DDL_T_MS;
	ddl_sim_arrive(sim, 0, 1, sim->now);
	l = &sim->s.log.jlog[0];
	KUNIT_EXPECT_EQ(test, sim->s.log.bursts_done, 1);
	KUNIT_EXPECT_EQ(test, l->done, 1);
	r = ddl_burst_last(&sim->s.log, 0, 0);
	KUNIT_ASSERT_NOT_NULL(test, r);
	KUNIT_EXPECT_EQ(test, r->start, 10 * DDL_T_MS);
	KUNIT_EXPECT_EQ(test, r->end, 10 * DDL_T_MS + 900 * DDL_T_US);
	KUNIT_EXPECT_EQ(test, r->bytes, 10 * DDL_T_LEN);
	KUNIT_EXPECT_EQ(test, l->hist[ddl_hist_bucket(900)], 1);
	KUNIT_EXPECT_EQ(test, ddl_hist_count(l->hist), 1);
	KUNIT_EXPECT_EQ(test, l->max_us, 900);
	KUNIT_EXPECT_EQ(test, l->sum_us, 900);
	KUNIT_EXPECT_TRUE(test, sim->s.cls[0].burst.open);
}

/* A pause shorter than the burst gap continues the burst. */
static void ddl_burst_pause_continues_test(struct kunit *test)
{
	struct ddl_sim *sim = ddl_sim_new(test, 2);
	const struct ddl_burst_rec *r;

	sim->now = DDL_T_MS;
	ddl_sim_arrive(sim, 1, 2, sim->now);
	ddl_log_drain(sim, 10 * DDL_T_US);
	sim->now += 500 * DDL_T_US;	/* under DDL_BURST_GAP_US */
	ddl_sim_arrive(sim, 1, 2, sim->now);
	ddl_log_drain(sim, 10 * DDL_T_US);
	ddl_settle_burst(&sim->s, &sim->p, 1, sim->now);
	KUNIT_EXPECT_EQ(test, sim->s.log.bursts_done, 0);

	sim->now += DDL_BURST_GAP_NS;
	ddl_settle_burst(&sim->s, &sim->p, 1, sim->now);
	KUNIT_EXPECT_EQ(test, sim->s.log.bursts_done, 1);
	r = ddl_burst_last(&sim->s.log, 1, 0);
	KUNIT_ASSERT_NOT_NULL(test, r);
	KUNIT_EXPECT_EQ(test, r->bytes, 4 * DDL_T_LEN);
	KUNIT_EXPECT_EQ(test, r->start, DDL_T_MS);
	/* sent at +0, +10, then +520, +530 us: empty after the last */
	KUNIT_EXPECT_EQ(test, r->end, DDL_T_MS + 530 * DDL_T_US);
	KUNIT_EXPECT_FALSE(test, sim->s.cls[1].burst.open);

	/* Settled once: a second settle records nothing. */
	ddl_settle_burst(&sim->s, &sim->p, 1, sim->now + DDL_T_MS);
	KUNIT_EXPECT_EQ(test, sim->s.log.bursts_done, 1);
}

/* A backlogged job, or one quiet for less than the gap, is not settled. */
static void ddl_burst_settle_waits_test(struct kunit *test)
{
	struct ddl_sim *sim = ddl_sim_new(test, 2);
	u64 empty;

	sim->now = DDL_T_MS;
	ddl_sim_arrive(sim, 0, 3, sim->now);
	ddl_settle_burst(&sim->s, &sim->p, 0, sim->now + DDL_T_MS * 100);
	KUNIT_EXPECT_EQ(test, sim->s.log.bursts_done, 0);
	ddl_log_drain(sim, DDL_T_US);
	empty = sim->s.cls[0].burst.empty_since;
	ddl_settle_burst(&sim->s, &sim->p, 0, empty + DDL_BURST_GAP_NS - 1);
	KUNIT_EXPECT_EQ(test, sim->s.log.bursts_done, 0);
	/* The background class has no bursts. */
	ddl_settle_burst(&sim->s, &sim->p, DDL_BG(&sim->s), sim->now);
	KUNIT_EXPECT_EQ(test, sim->s.log.bursts_done, 0);
	ddl_settle_burst(&sim->s, &sim->p, 0, empty + DDL_BURST_GAP_NS);
	KUNIT_EXPECT_EQ(test, sim->s.log.bursts_done, 1);
}

/*
 * The ring keeps the last DDL_BURST_LOG bursts; the histogram counts all.
 * Every 100 ms: the job's period is learned, and a steady job's burst is
 * settled only a quarter period after it began.
 */
static void ddl_burst_ring_wraps_test(struct kunit *test)
{
	struct ddl_sim *sim = ddl_sim_new(test, 1);
	const u32 n = DDL_BURST_LOG * 3 + 1;
	const struct ddl_burst_rec *r;
	u32 i;

	for (i = 0; i < n; i++) {
		/* Burst i: i + 1 packets, one every 100 us. */
		sim->now = (u64)(i + 1) * 100 * DDL_T_MS;
		ddl_sim_arrive(sim, 0, i + 1, sim->now);
		ddl_log_drain(sim, 100 * DDL_T_US);
		ddl_settle_burst(&sim->s, &sim->p, 0,
				 sim->now + DDL_BURST_GAP_NS);
		/* Closed by the next burst from the fourth on. */
		KUNIT_EXPECT_EQ(test, sim->s.log.jlog[0].done,
				sim->s.cls[0].pred.predicted ? i : i + 1);
	}
	KUNIT_EXPECT_TRUE(test, sim->s.cls[0].pred.predicted);
	ddl_settle_burst(&sim->s, &sim->p, 0, sim->now + 25 * DDL_T_MS);
	KUNIT_EXPECT_EQ(test, sim->s.log.jlog[0].done, n);
	KUNIT_EXPECT_EQ(test, ddl_hist_count(sim->s.log.jlog[0].hist), n);
	for (i = 0; i < DDL_BURST_LOG; i++) {
		r = ddl_burst_last(&sim->s.log, 0, i);
		KUNIT_ASSERT_NOT_NULL(test, r);
		KUNIT_EXPECT_EQ(test, r->bytes, (u64)(n - i) * DDL_T_LEN);
		KUNIT_EXPECT_EQ(test, r->start, (u64)(n - i) * 100 * DDL_T_MS);
	}
	KUNIT_EXPECT_NULL(test, ddl_burst_last(&sim->s.log, 0, DDL_BURST_LOG));
	/* Burst i took i * 100 us; the last is the longest. */
	KUNIT_EXPECT_EQ(test, sim->s.log.jlog[0].max_us, (n - 1) * 100);
	KUNIT_EXPECT_EQ(test, sim->s.log.jlog[0].sum_us, (u64)n * (n - 1) / 2 * 100);
}

/* A class recycled for a new key completes its old owner's burst. */
static void ddl_burst_new_owner_test(struct kunit *test)
{
	struct ddl_sim *sim = ddl_sim_new(test, 1);

	sim->p.keyttl_ms = 0;
	sim->now = DDL_T_MS;
	KUNIT_ASSERT_EQ(test, ddl_key_class(&sim->s, &sim->p, 7001, sim->now),
			0);
	ddl_sim_arrive(sim, 0, 2, sim->now);
	ddl_log_drain(sim, DDL_T_US);
	sim->now += 10 * DDL_T_US;
	KUNIT_ASSERT_EQ(test, ddl_key_class(&sim->s, &sim->p, 7002, sim->now),
			0);
	KUNIT_EXPECT_EQ(test, sim->s.log.bursts_done, 1);
	KUNIT_EXPECT_FALSE(test, sim->s.cls[0].burst.open);
}

/* sch_ddl_log: green changes */

/* Two backlogged jobs with 1 ms slices: START, then SLICE each turn. */
static void ddl_turn_log_test(struct kunit *test)
{
	struct ddl_sim *sim = ddl_sim_new(test, 2);
	const struct ddl_turn_rec *r;
	u32 i;

	sim->p.slice_us = 1000;
	sim->p.maxwait_us = 10000;
	ddl_sim_enqueue(sim, 0, DDL_T_LOTS);
	ddl_sim_enqueue(sim, 1, DDL_T_LOTS);
	KUNIT_EXPECT_NULL(test, ddl_turn_last(&sim->s.log, 0));
	for (i = 0; i < 100; i++)
		ddl_sim_send_at(sim, i * 100 * DDL_T_US);	/* 0 .. 9.9 ms */

	/* Green at 0, then a change every 1 ms: 10 changes. */
	KUNIT_EXPECT_EQ(test, sim->s.log.turns, 10);
	KUNIT_EXPECT_EQ(test, sim->s.log.turns, sim->s.rotations + 1);
	r = ddl_turn_last(&sim->s.log, 9);
	KUNIT_ASSERT_NOT_NULL(test, r);
	KUNIT_EXPECT_EQ(test, r->time, 0);
	KUNIT_EXPECT_EQ(test, r->from, DDL_NONE);
	KUNIT_EXPECT_EQ(test, r->to, 0);
	KUNIT_EXPECT_EQ(test, r->why, DDL_TURN_START);
	r = ddl_turn_last(&sim->s.log, 0);
	KUNIT_ASSERT_NOT_NULL(test, r);
	KUNIT_EXPECT_EQ(test, r->time, 9 * DDL_T_MS);
	KUNIT_EXPECT_EQ(test, r->from, 0);
	KUNIT_EXPECT_EQ(test, r->to, 1);
	KUNIT_EXPECT_EQ(test, r->why, DDL_TURN_SLICE);
	KUNIT_EXPECT_NULL(test, ddl_turn_last(&sim->s.log, 10));
}

/* A yield is recorded as such; the log keeps the last DDL_TURN_LOG. */
static void ddl_turn_log_yield_wraps_test(struct kunit *test)
{
	struct ddl_sim *sim = ddl_sim_new(test, 2);
	const struct ddl_turn_rec *r;
	u32 i;

	sim->p.slice_us = 100000;
	sim->p.yield_us = 100;
	/* Each round the other job sends: the idle green yields to it. */
	for (i = 0; i < DDL_TURN_LOG + 5; i++) {
		sim->now = (u64)i * DDL_T_MS;
		ddl_sim_enqueue(sim, i % 2, 1);
		ddl_log_drain(sim, DDL_T_US);
	}
	KUNIT_EXPECT_GT(test, sim->s.yields, DDL_TURN_LOG);
	KUNIT_EXPECT_EQ(test, sim->s.log.turns, sim->s.yields + 1);
	r = ddl_turn_last(&sim->s.log, 0);
	KUNIT_ASSERT_NOT_NULL(test, r);
	KUNIT_EXPECT_EQ(test, r->why, DDL_TURN_YIELD);
	KUNIT_EXPECT_NE(test, r->from, r->to);
	KUNIT_EXPECT_NOT_NULL(test, ddl_turn_last(&sim->s.log, DDL_TURN_LOG - 1));
	KUNIT_EXPECT_NULL(test, ddl_turn_last(&sim->s.log, DDL_TURN_LOG));
	/* Records come newest first, in time order. */
	for (i = 1; i < DDL_TURN_LOG; i++)
		KUNIT_EXPECT_LE(test, ddl_turn_last(&sim->s.log, i)->time,
				ddl_turn_last(&sim->s.log, i - 1)->time);
}

/* Mode static: a lower minor taking over is recorded as STATIC. */
static void ddl_turn_log_static_test(struct kunit *test)
{
	struct ddl_sim *sim = ddl_sim_new(test, 3);

	sim->p.mode = TC_DDL_MODE_STATIC;
	ddl_sim_enqueue(sim, 2, 5);
	ddl_sim_send(sim);
	sim->now = DDL_T_MS;
	ddl_sim_enqueue(sim, 0, 5);
	ddl_sim_send(sim);
	KUNIT_EXPECT_EQ(test, sim->s.log.turns, 2);
	KUNIT_EXPECT_EQ(test, ddl_turn_last(&sim->s.log, 1)->why, DDL_TURN_START);
	KUNIT_EXPECT_EQ(test, ddl_turn_last(&sim->s.log, 0)->why, DDL_TURN_STATIC);
	KUNIT_EXPECT_EQ(test, ddl_turn_last(&sim->s.log, 0)->from, 2);
	KUNIT_EXPECT_EQ(test, ddl_turn_last(&sim->s.log, 0)->to, 0);
}

static struct kunit_case ddl_log_test_cases[] = {
	KUNIT_CASE(ddl_burst_next_closes_test),
	KUNIT_CASE(ddl_burst_pause_continues_test),
	KUNIT_CASE(ddl_burst_settle_waits_test),
	KUNIT_CASE(ddl_burst_ring_wraps_test),
	KUNIT_CASE(ddl_burst_new_owner_test),
	KUNIT_CASE(ddl_turn_log_test),
	KUNIT_CASE(ddl_turn_log_yield_wraps_test),
	KUNIT_CASE(ddl_turn_log_static_test),
	{}
};

static struct kunit_suite ddl_log_test_suite = {
	.name = "sch_ddl_log",
	.init = ddl_sched_init_case,
	.exit = ddl_sched_exit,
	.test_cases = ddl_log_test_cases,
};

kunit_test_suite(ddl_log_test_suite);

MODULE_DESCRIPTION("KUnit tests for the sch_ddl event log");
MODULE_LICENSE("GPL");
