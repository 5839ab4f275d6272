// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests for the sch_ddl burst predictor (ddl_predict.c) as the core
 * runs: burst detection and learning of periods and sizes, lead windows,
 * hits and bounded misses, changes of pattern and pauses.
 *
 * The suite compiles the whole core into its own module and drives it
 * through the simulated qdisc of ddl_kunit_sim.h.  The moving average and
 * the learned size, functions of the predictor alone, are tested in
 * sch_ddl_predict_unit_kunit.c.
 */

#include <kunit/test.h>

#include "compat.h"
#include <linux/prandom.h>

#include "ddl_kunit_core.h"

#include "ddl_kunit_sim.h"

/* No job waits for its next burst, in the tree or on the list. */
static bool ddl_periodic_none(const struct ddl_pred *pr)
{
	return RB_EMPTY_ROOT(&pr->periodic.rb_root) && list_empty(&pr->fifo);
}

/* sch_ddl_predict: burst detection and learning */

struct ddl_learn_case {
	const char	*name;
	u64		period;
	u64		bytes;
	u64		jitter;		/* intervals off by up to this */
	u64		bytes_jitter;
};

static const struct ddl_learn_case ddl_learn_cases[] = {
	{ "100ms_30000B", 100 * DDL_P_MS, 30000, 0, 0 },
	{ "100ms_128B", 100 * DDL_P_MS, DDL_BURST_PKT_MIN, 0, 0 },
	{ "100ms_1MB", 100 * DDL_P_MS, 1000000, 0, 0 },
	{ "20ms_50000B", 20 * DDL_P_MS, 50000, 0, 0 },
	{ "100ms_jittered", 100 * DDL_P_MS, 30000, 2 * DDL_P_MS, 3000 },
	{ "20ms_jittered", 20 * DDL_P_MS, 50000, 500 * DDL_P_US, 5000 },
	{ "1s_jittered", DDL_P_SEC, 200000, 10 * DDL_P_MS, 20000 },
};

KUNIT_ARRAY_PARAM_DESC(ddl_learn, ddl_learn_cases, name);

static const int ddl_jitter_pattern[] = { 0, 1, -1, 1, 0, -1, 1, -1 };

/*
 * A periodic job: the period and burst size are learned, predicted turns
 * on after three intervals (the fourth burst), not before.
 */
static void ddl_predict_learn_test(struct kunit *test)
{
	const struct ddl_learn_case *c = test->param_value;
	struct ddl_sim *sim = ddl_psim_new(test, 4);
	struct ddl_cls *cls = &sim->s.cls[2];
	u64 t = DDL_P_T0, bytes;
	u32 i;
	int j;

	ddl_params_derive(&sim->p);
	for (i = 0; i < 30; i++) {
		j = ddl_jitter_pattern[i % ARRAY_SIZE(ddl_jitter_pattern)];
		bytes = c->bytes + j * (s64)c->bytes_jitter;
		KUNIT_EXPECT_TRUE_MSG(test, ddl_psim_burst(sim, 2, t, bytes),
				      "burst %u", i);
		KUNIT_EXPECT_EQ(test, cls->burst.count, (u64)i + 1);
		KUNIT_EXPECT_EQ_MSG(test, cls->pred.predicted, i >= 3, "burst %u", i);
		if (!c->jitter && i >= 1)
			KUNIT_EXPECT_EQ_MSG(test, cls->pred.period, c->period,
					    "burst %u", i);
		if (!c->bytes_jitter && i >= 1)
			KUNIT_EXPECT_EQ_MSG(test, cls->pred.burst_size, c->bytes,
					    "burst %u", i);
		j = ddl_jitter_pattern[(i + 3) % ARRAY_SIZE(ddl_jitter_pattern)];
		t += c->period + j * (s64)c->jitter;
	}
	KUNIT_EXPECT_TRUE(test, cls->pred.predicted);
	KUNIT_EXPECT_LE(test, cls->pred.period, c->period + c->jitter);
	KUNIT_EXPECT_GE(test, cls->pred.period, c->period - c->jitter);
	KUNIT_EXPECT_LE(test, cls->pred.burst_size, c->bytes + c->bytes_jitter);
	KUNIT_EXPECT_GE(test, cls->pred.burst_size, c->bytes - c->bytes_jitter);
	KUNIT_EXPECT_EQ(test, sim->s.burst.count, 30ULL);
}

struct ddl_gap_case {
	const char	*name;
	u32		yield_us;
	u64		gap;		/* queue empty this long */
	bool		burst;
};

static const struct ddl_gap_case ddl_gap_cases[] = {
	{ "back_to_back", 1000, 0, false },
	{ "yield_1ms_gap_999us", 1000, 999 * DDL_P_US, false },
	{ "yield_1ms_gap_1ms_less_1ns", 1000, DDL_P_MS - 1, false },
	{ "yield_1ms_gap_1ms", 1000, DDL_P_MS, true },
	{ "yield_1ms_gap_1s", 1000, DDL_P_SEC, true },
	{ "yield_5ms_gap_4999us", 5000, 4999 * DDL_P_US, false },
	{ "yield_5ms_gap_5ms", 5000, 5 * DDL_P_MS, true },
	{ "yield_100us_gap_99us", 100, 99 * DDL_P_US, false },
	{ "yield_100us_gap_100us", 100, 100 * DDL_P_US, true },
	{ "yield_off_gap_999us", 0, 999 * DDL_P_US, false },
	{ "yield_off_gap_1ms", 0, DDL_P_MS, true },
	{ "yield_off_gap_1h", 0, 3600 * DDL_P_SEC, true },
};

KUNIT_ARRAY_PARAM_DESC(ddl_gap, ddl_gap_cases, name);

/*
 * A job's first send is a burst; after that, only a send after it had no
 * data queued for yield_us (1 ms with yield off) starts one.  Bytes sent
 * without a new burst count to the running one.
 */
static void ddl_predict_gap_test(struct kunit *test)
{
	const struct ddl_gap_case *c = test->param_value;
	struct ddl_sim *sim = ddl_psim_new(test, 4);
	struct ddl_cls *cls = &sim->s.cls[1];

	sim->p.yield_us = c->yield_us;
	ddl_params_derive(&sim->p);
	KUNIT_EXPECT_TRUE(test, ddl_psim_burst(sim, 1, DDL_P_T0, 3000));
	KUNIT_EXPECT_EQ(test, cls->burst.count, 1ULL);
	KUNIT_EXPECT_EQ(test, cls->burst.bytes, 3000ULL);
	/* The gap runs from the dequeue of the last data packet. */
	KUNIT_EXPECT_EQ(test, ddl_psim_burst(sim, 1, cls->burst.empty_since + c->gap,
					     1500), c->burst);
	KUNIT_EXPECT_EQ(test, cls->burst.count, c->burst ? 2ULL : 1ULL);
	KUNIT_EXPECT_EQ(test, sim->s.burst.count, c->burst ? 2ULL : 1ULL);
	KUNIT_EXPECT_EQ(test, cls->burst.bytes, c->burst ? 1500ULL : 4500ULL);
}

/*
 * Pure ACKs (a parameter server acknowledging gradients between its
 * bursts) neither start a burst nor end the quiet time before the next:
 * the quiet time runs from the last data packet; data 12 ms after it
 * starts a burst, and the size learned is the burst's with the ACKs'
 * bytes.
 */
static void ddl_predict_acks_test(struct kunit *test)
{
	struct ddl_sim *sim = ddl_psim_new(test, 4);
	struct ddl_cls *cls = &sim->s.cls[2];
	u64 t;
	u32 i;

	ddl_params_derive(&sim->p);	/* yield 1 ms */
	KUNIT_EXPECT_TRUE(test, ddl_psim_burst(sim, 2, DDL_P_T0, 30000));
	t = cls->burst.empty_since;
	for (i = 1; i <= 5; i++)
		KUNIT_EXPECT_FALSE_MSG(test,
				       ddl_psim_burst(sim, 2, t + i * DDL_P_MS,
						      66), "ack %u", i);
	KUNIT_EXPECT_EQ(test, cls->burst.count, 1ULL);
	KUNIT_EXPECT_EQ(test, cls->burst.bytes, 30000ULL + 5 * 66);
	KUNIT_EXPECT_EQ(test, cls->burst.empty_since, t);
	/* 12 ms after the last data, 7 ms after the last ACK: learned. */
	KUNIT_EXPECT_TRUE(test, ddl_psim_burst(sim, 2, t + 12 * DDL_P_MS,
					       1500));
	KUNIT_EXPECT_EQ(test, cls->burst.count, 2ULL);
	KUNIT_EXPECT_EQ(test, cls->pred.burst_size, 30000ULL + 5 * 66);
}

/*
 * A burst made of many short sends, each after less than yield_us of
 * empty queue, is one burst and its size is all of their bytes, however
 * long it lasts.
 */
static void ddl_predict_sub_bursts_test(struct kunit *test)
{
	struct ddl_sim *sim = ddl_psim_new(test, 4);
	struct ddl_cls *cls = &sim->s.cls[0];
	u64 t = DDL_P_T0;
	u32 i;

	ddl_params_derive(&sim->p);	/* yield 1 ms */
	for (i = 0; i < 50; i++) {
		KUNIT_EXPECT_EQ_MSG(test, ddl_psim_burst(sim, 0, t, 1500), !i,
				    "send %u", i);
		t = sim->now + 900 * DDL_P_US;
	}
	KUNIT_EXPECT_EQ(test, cls->burst.count, 1ULL);
	KUNIT_EXPECT_TRUE(test, ddl_psim_burst(sim, 0, DDL_P_T0 + DDL_P_SEC,
					       1500));
	KUNIT_EXPECT_EQ(test, cls->pred.burst_size, 50ULL * 1500);
	KUNIT_EXPECT_EQ(test, cls->pred.period, DDL_P_SEC);
}

/*
 * Each job's first send is a burst, at any time; the background class never
 * starts one, even when it sends periodically.
 */
static void ddl_predict_first_and_background_test(struct kunit *test)
{
	struct ddl_sim *sim = ddl_psim_new(test, 8);
	const u32 bg = DDL_BG(&sim->s);
	u64 t = DDL_P_T0;
	u32 i;

	ddl_psim_predict(sim, 10000);
	for (i = 0; i < 10; i++, t += 100 * DDL_P_MS) {
		ddl_psim_tick(sim, t, DDL_P_MS);
		KUNIT_EXPECT_FALSE_MSG(test, ddl_psim_burst(sim, bg, t, 30000),
				       "background send %u", i);
		KUNIT_EXPECT_EQ(test, ddl_lead_job(&sim->s), DDL_NONE);
	}
	KUNIT_EXPECT_EQ(test, sim->s.burst.count, 0ULL);
	KUNIT_EXPECT_EQ(test, sim->s.cls[bg].burst.count, 0ULL);
	KUNIT_EXPECT_FALSE(test, sim->s.cls[bg].pred.predicted);
	KUNIT_EXPECT_TRUE(test, ddl_periodic_none(&sim->s.pred));

	KUNIT_EXPECT_TRUE(test, ddl_psim_burst(sim, 7, t, 1500));
	KUNIT_EXPECT_TRUE(test, ddl_psim_burst(sim, 3, sim->now, 1500));
	KUNIT_EXPECT_TRUE(test, ddl_psim_burst(sim, 0, sim->now, 1500));
	KUNIT_EXPECT_EQ(test, sim->s.burst.count, 3ULL);
	KUNIT_EXPECT_EQ(test, sim->s.cls[7].burst.count, 1ULL);
	KUNIT_EXPECT_EQ(test, sim->s.cls[3].burst.count, 1ULL);
	KUNIT_EXPECT_FALSE(test, sim->s.cls[3].pred.predicted);
}

/* sch_ddl_predict: lead windows */

struct ddl_window_case {
	const char	*name;
	u64		period;
	u32		lead_us;
	u32		target;
	bool		armed;
};

static const struct ddl_window_case ddl_window_cases[] = {
	{ "lead_10ms_period_100ms", 100 * DDL_P_MS, 10000, DDL_P_TARGET,
	  true },
	{ "lead_1ms_period_20ms", 20 * DDL_P_MS, 1000, DDL_P_TARGET, true },
	{ "lead_49ms_period_100ms", 100 * DDL_P_MS, 49000, DDL_P_TARGET,
	  true },
	{ "lead_50ms_period_100ms_never", 100 * DDL_P_MS, 50000, DDL_P_TARGET,
	  false },
	{ "lead_80ms_period_100ms_never", 100 * DDL_P_MS, 80000, DDL_P_TARGET,
	  false },
	{ "lead_off_never", 100 * DDL_P_MS, 0, DDL_P_TARGET, false },
	{ "no_target_never", 100 * DDL_P_MS, 10000, 0, false },
};

KUNIT_ARRAY_PARAM_DESC(ddl_window, ddl_window_cases, name);

/*
 * Once the period is trusted, a window opens lead_us before each predicted
 * burst (not a ns earlier) and the burst inside it is a hit that closes
 * it.  A period of at most 2 * lead, no lead or no target: never a window.
 */
static void ddl_predict_window_test(struct kunit *test)
{
	const struct ddl_window_case *c = test->param_value;
	struct ddl_sim *sim = ddl_psim_new(test, 4);
	const u64 lead = c->lead_us * DDL_P_US;
	struct ddl_sched *s = &sim->s;
	u64 t, open, tt;
	u32 i, want;

	sim->p.lead_us = c->lead_us;
	sim->p.target = c->target;
	ddl_params_derive(&sim->p);
	t = ddl_psim_periodic(sim, 3, DDL_P_T0, c->period, 4, 30000);
	KUNIT_ASSERT_TRUE(test, s->cls[3].pred.predicted);
	KUNIT_ASSERT_EQ(test, s->cls[3].pred.period, c->period);

	for (i = 0; i < 8; i++) {
		open = t + c->period - lead;
		/* Scan the whole period, then the edges exactly. */
		for (tt = sim->now + DDL_P_MS; tt < open - 1; tt += DDL_P_MS) {
			ddl_window(&s->pred, &sim->p, tt);
			KUNIT_EXPECT_EQ_MSG(test, ddl_lead_job(s), DDL_NONE,
					    "period %u at %llu", i, tt - t);
		}
		ddl_window(&s->pred, &sim->p, open - 1);
		KUNIT_EXPECT_EQ_MSG(test, ddl_lead_job(s), DDL_NONE,
				    "period %u, before open", i);
		want = c->armed ? 3 : DDL_NONE;
		for (tt = open; tt < t + c->period; tt += DDL_P_MS) {
			ddl_window(&s->pred, &sim->p, tt);
			KUNIT_EXPECT_EQ_MSG(test, ddl_lead_job(s), want,
					    "period %u at %llu", i, tt - t);
		}
		ddl_window(&s->pred, &sim->p, t + c->period - 1);
		KUNIT_EXPECT_EQ(test, ddl_lead_job(s), want);

		t += c->period;
		KUNIT_EXPECT_TRUE(test, ddl_psim_burst(sim, 3, t, 30000));
		KUNIT_EXPECT_EQ_MSG(test, ddl_lead_job(s), DDL_NONE,
				    "period %u, after the burst", i);
	}
	KUNIT_EXPECT_EQ(test, s->pred.hits, c->armed ? 8ULL : 0ULL);
	KUNIT_EXPECT_EQ(test, s->cls[3].pred.hits, c->armed ? 8ULL : 0ULL);
	KUNIT_EXPECT_EQ(test, s->pred.leads, c->armed ? 8ULL : 0ULL);
	KUNIT_EXPECT_EQ(test, s->pred.misses, 0ULL);
	KUNIT_EXPECT_EQ(test, s->cls[3].pred.misses, 0ULL);
	KUNIT_EXPECT_EQ(test, ddl_lead_ns(&s->pred, sim->now), c->armed ? 8 * lead : 0);
}

/*
 * The predicted burst never comes: the window closes lead_us after the
 * predicted time, counts one miss and exactly 2 * lead of lead time, and
 * no new window opens for the job until it sends again.
 */
static void ddl_predict_miss_bounded_test(struct kunit *test)
{
	struct ddl_sim *sim = ddl_psim_new(test, 4);
	const u64 period = 100 * DDL_P_MS, lead = 10 * DDL_P_MS;
	struct ddl_sched *s = &sim->s;
	u64 t, pred, tt;
	u32 want;

	ddl_psim_predict(sim, 10000);
	t = ddl_psim_periodic(sim, 1, DDL_P_T0, period, 4, 30000);
	pred = t + period;

	for (tt = sim->now + 100 * DDL_P_US; tt < t + 10 * period;
	     tt += 100 * DDL_P_US) {
		ddl_window(&s->pred, &sim->p, tt);
		want = tt >= pred - lead && tt < pred + lead ? 1 : DDL_NONE;
		KUNIT_ASSERT_EQ_MSG(test, ddl_lead_job(s), want, "at %llu",
				    tt - t);
		KUNIT_ASSERT_LE(test, ddl_lead_ns(&s->pred, tt), 2 * lead);
	}
	sim->now = tt;
	KUNIT_EXPECT_EQ(test, s->pred.misses, 1ULL);
	KUNIT_EXPECT_EQ(test, s->cls[1].pred.misses, 1ULL);
	KUNIT_EXPECT_EQ(test, s->pred.hits, 0ULL);
	KUNIT_EXPECT_EQ(test, s->pred.leads, 1ULL);
	KUNIT_EXPECT_EQ(test, ddl_lead_ns(&s->pred, sim->now), 2 * lead);
	KUNIT_EXPECT_EQ(test, ddl_lead_ns(&s->pred, U64_MAX), 2 * lead);

	/* It comes back: a burst, but neither a hit nor another miss. */
	KUNIT_EXPECT_TRUE(test, ddl_psim_burst(sim, 1, sim->now, 30000));
	KUNIT_EXPECT_EQ(test, s->pred.misses, 1ULL);
	KUNIT_EXPECT_EQ(test, s->pred.hits, 0ULL);
}

/* Exactly at the edges: open at pred - lead, closed at pred + lead. */
static void ddl_predict_miss_edges_test(struct kunit *test)
{
	struct ddl_sim *sim = ddl_psim_new(test, 4);
	const u64 period = 100 * DDL_P_MS, lead = 10 * DDL_P_MS;
	struct ddl_sched *s = &sim->s;
	u64 t, pred;

	ddl_psim_predict(sim, 10000);
	t = ddl_psim_periodic(sim, 2, DDL_P_T0, period, 4, 30000);
	pred = t + period;

	ddl_window(&s->pred, &sim->p, pred - lead - 1);
	KUNIT_EXPECT_EQ(test, ddl_lead_job(s), DDL_NONE);
	ddl_window(&s->pred, &sim->p, pred - lead);
	KUNIT_EXPECT_EQ(test, ddl_lead_job(s), 2U);
	KUNIT_EXPECT_EQ(test, ddl_lead_ns(&s->pred, pred), lead);
	ddl_window(&s->pred, &sim->p, pred + lead - 1);
	KUNIT_EXPECT_EQ(test, ddl_lead_job(s), 2U);
	KUNIT_EXPECT_EQ(test, s->pred.misses, 0ULL);
	ddl_window(&s->pred, &sim->p, pred + lead);
	KUNIT_EXPECT_EQ(test, ddl_lead_job(s), DDL_NONE);
	KUNIT_EXPECT_EQ(test, s->pred.misses, 1ULL);
	KUNIT_EXPECT_EQ(test, ddl_lead_ns(&s->pred, pred + lead), 2 * lead);
}

/*
 * A window checked only after it should have closed (nobody asked while it
 * was open) still closes as a miss, and no other window is left open.
 */
static void ddl_predict_miss_unobserved_test(struct kunit *test)
{
	struct ddl_sim *sim = ddl_psim_new(test, 4);
	const u64 period = 100 * DDL_P_MS, lead = 10 * DDL_P_MS;
	struct ddl_sched *s = &sim->s;
	u64 t;

	ddl_psim_predict(sim, 10000);
	t = ddl_psim_periodic(sim, 0, DDL_P_T0, period, 4, 30000);
	ddl_window(&s->pred, &sim->p, t + 5 * period);
	KUNIT_EXPECT_EQ(test, ddl_lead_job(s), DDL_NONE);
	KUNIT_EXPECT_EQ(test, s->pred.misses, 1ULL);
	KUNIT_EXPECT_LE(test, ddl_lead_ns(&s->pred, U64_MAX), 2 * lead);
}

/*
 * The next window of job @idx, whose last burst began at @t, opens exactly
 * at @t + its period - @lead, not before.
 */
static void ddl_expect_next_window(struct ddl_sim *sim, u32 idx, u64 t,
				   u64 lead)
{
	struct kunit *test = sim->test;
	struct ddl_sched *s = &sim->s;
	u64 open = t + s->cls[idx].pred.period - lead;

	ddl_psim_tick(sim, open - 1, DDL_P_MS);
	KUNIT_EXPECT_EQ(test, ddl_lead_job(s), DDL_NONE);
	ddl_window(&s->pred, &sim->p, open);
	KUNIT_EXPECT_EQ(test, ddl_lead_job(s), idx);
}

/*
 * A burst that comes before its window opens is a miss: the window closes
 * unopened and the next one is armed from this burst and the new period.
 */
static void ddl_predict_early_burst_test(struct kunit *test)
{
	struct ddl_sim *sim = ddl_psim_new(test, 4);
	const u64 period = 100 * DDL_P_MS, lead = 10 * DDL_P_MS;
	struct ddl_sched *s = &sim->s;
	struct ddl_cls *cls = &s->cls[1];
	u64 t;

	ddl_psim_predict(sim, 10000);
	t = ddl_psim_periodic(sim, 1, DDL_P_T0, period, 4, 30000);
	t += period - lead - DDL_P_MS;
	ddl_psim_tick(sim, t - 1, 100 * DDL_P_US);
	KUNIT_EXPECT_EQ(test, ddl_lead_job(s), DDL_NONE);
	KUNIT_EXPECT_TRUE(test, ddl_psim_burst(sim, 1, t, 30000));
	KUNIT_EXPECT_EQ(test, s->pred.misses, 1ULL);
	KUNIT_EXPECT_EQ(test, cls->pred.misses, 1ULL);
	KUNIT_EXPECT_EQ(test, s->pred.hits, 0ULL);
	KUNIT_EXPECT_EQ(test, s->pred.leads, 0ULL);
	KUNIT_EXPECT_EQ(test, ddl_lead_ns(&s->pred, U64_MAX), 0ULL);
	KUNIT_ASSERT_TRUE(test, cls->pred.predicted);

	ddl_expect_next_window(sim, 1, t, lead);
}

/*
 * A burst that comes after its window should have closed, nobody having
 * called ddl_window() since: that window is one miss, not a hit, and the
 * next window is armed from this burst.
 */
static void ddl_predict_late_burst_test(struct kunit *test)
{
	struct ddl_sim *sim = ddl_psim_new(test, 4);
	const u64 period = 100 * DDL_P_MS, lead = 10 * DDL_P_MS;
	struct ddl_sched *s = &sim->s;
	struct ddl_cls *cls = &s->cls[1];
	u64 t;

	ddl_psim_predict(sim, 10000);
	t = ddl_psim_periodic(sim, 1, DDL_P_T0, period, 4, 30000);
	t += period + lead + 5 * DDL_P_MS;
	KUNIT_EXPECT_TRUE(test, ddl_psim_burst(sim, 1, t, 30000));
	KUNIT_ASSERT_TRUE(test, cls->pred.predicted);
	KUNIT_EXPECT_EQ(test, s->pred.misses, 1ULL);
	KUNIT_EXPECT_EQ(test, cls->pred.misses, 1ULL);
	KUNIT_EXPECT_EQ(test, s->pred.hits, 0ULL);
	KUNIT_EXPECT_LE(test, ddl_lead_ns(&s->pred, U64_MAX), 2 * lead);

	ddl_expect_next_window(sim, 1, t, lead);
}

/*
 * The period changes from 100 ms to 200 ms: after a bounded number of
 * bursts without a hit (the old window misses, then the period is not
 * trusted while it moves), the new period is learned and every burst hits
 * again.
 */
static void ddl_predict_period_change_test(struct kunit *test)
{
	struct ddl_sim *sim = ddl_psim_new(test, 4);
	const u64 lead = 10 * DDL_P_MS, p2 = 200 * DDL_P_MS;
	struct ddl_sched *s = &sim->s;
	struct ddl_cls *cls = &s->cls[3];
	u32 i, misses = 0, first_hit = 0, hits;
	u64 t, before;

	ddl_psim_predict(sim, 10000);
	t = ddl_psim_periodic(sim, 3, DDL_P_T0, 100 * DDL_P_MS, 8, 30000);
	KUNIT_ASSERT_EQ(test, s->pred.hits, 4ULL);
	KUNIT_ASSERT_EQ(test, s->pred.misses, 0ULL);

	for (i = 1; i <= 30; i++) {
		t += p2;
		ddl_psim_tick(sim, t, DDL_P_MS);
		before = cls->pred.hits;
		KUNIT_ASSERT_TRUE(test, ddl_psim_burst(sim, 3, t, 30000));
		if (cls->pred.hits == before) {
			misses++;
			KUNIT_EXPECT_EQ_MSG(test, first_hit, 0U,
					    "burst %u missed after a hit", i);
		} else if (!first_hit) {
			first_hit = i;
		}
	}
	/* Measured: 9 bursts without a hit (gain 1/4, steady at 1/8). */
	KUNIT_EXPECT_GT(test, first_hit, 0U);
	KUNIT_EXPECT_LE(test, misses, 12U);
	KUNIT_EXPECT_LE(test, cls->pred.misses, 3ULL);
	KUNIT_EXPECT_TRUE(test, cls->pred.predicted);
	KUNIT_EXPECT_LE(test, cls->pred.period, p2 + p2 / 100);
	KUNIT_EXPECT_GE(test, cls->pred.period, p2 - p2 / 100);
	/* Lead time: 2 * lead at most per window, hit or miss. */
	hits = cls->pred.hits;
	KUNIT_EXPECT_LE(test, ddl_lead_ns(&s->pred, sim->now),
			(hits + cls->pred.misses) * 2 * lead);
}

struct ddl_change_case {
	const char	*name;
	u64		p1;		/* learned period */
	u64		p2;		/* the next interval */
	bool		restart;
};

static const struct ddl_change_case ddl_change_cases[] = {
	{ "longer_by_half", 100 * DDL_P_MS, 150 * DDL_P_MS, false },
	{ "longer_by_more_than_half", 100 * DDL_P_MS, 150 * DDL_P_MS + 1,
	  true },
	{ "triple", 100 * DDL_P_MS, 300 * DDL_P_MS, true },
	{ "shorter_by_half", 100 * DDL_P_MS, 50 * DDL_P_MS, false },
	{ "shorter_by_more_than_half", 100 * DDL_P_MS, 50 * DDL_P_MS - 1,
	  true },
};

KUNIT_ARRAY_PARAM_DESC(ddl_change, ddl_change_cases, name);

/*
 * An interval more than half a period away from the learned one restarts
 * learning from it: that interval is the period and three intervals are
 * needed again.  Up to half a period away, it is averaged in (gain 1/4).
 */
static void ddl_predict_restart_test(struct kunit *test)
{
	const struct ddl_change_case *c = test->param_value;
	struct ddl_sim *sim = ddl_psim_new(test, 4);
	struct ddl_cls *cls = &sim->s.cls[2];
	u64 t;
	u32 i;

	ddl_params_derive(&sim->p);
	t = ddl_psim_periodic(sim, 2, DDL_P_T0, c->p1, 6, 30000);
	KUNIT_ASSERT_TRUE(test, cls->pred.predicted);
	KUNIT_ASSERT_EQ(test, cls->pred.period, c->p1);

	t += c->p2;
	KUNIT_EXPECT_TRUE(test, ddl_psim_burst(sim, 2, t, 30000));
	if (!c->restart) {
		KUNIT_EXPECT_EQ(test, cls->pred.period, c->p2 > c->p1 ?
				c->p1 + (c->p2 - c->p1) / 4 :
				c->p1 - (c->p1 - c->p2) / 4);
		return;
	}
	KUNIT_EXPECT_EQ(test, cls->pred.period, c->p2);
	KUNIT_EXPECT_FALSE(test, cls->pred.predicted);
	for (i = 2; i <= 3; i++) {
		t += c->p2;
		KUNIT_EXPECT_TRUE(test, ddl_psim_burst(sim, 2, t, 30000));
		KUNIT_EXPECT_EQ(test, cls->pred.period, c->p2);
		KUNIT_EXPECT_EQ_MSG(test, cls->pred.predicted, i == 3,
				    "interval %u", i);
	}
}

struct ddl_pause_case {
	const char	*name;
	u32		bursts;		/* before; 4 and more: predicted */
	u64		offset;		/* of the next send after the last burst */
	bool		burst;
};

static const struct ddl_pause_case ddl_pause_cases[] = {
	{ "predicted_2ms_later", 4, 2 * DDL_P_MS, false },
	{ "predicted_quarter_period_less_1ns", 4, 25 * DDL_P_MS - 1, false },
	{ "predicted_quarter_period", 4, 25 * DDL_P_MS, true },
	{ "not_predicted_2ms_later", 3, 2 * DDL_P_MS, true },
};

KUNIT_ARRAY_PARAM_DESC(ddl_pause, ddl_pause_cases, name);

/*
 * A job with a steady period that sends again within a quarter period of
 * its last burst start paused in that burst: no new burst, its bytes count
 * to the running one, and the prediction and its window stay.  A job not
 * yet predicted starts a burst after the usual gap.
 */
static void ddl_predict_pause_test(struct kunit *test)
{
	const struct ddl_pause_case *c = test->param_value;
	struct ddl_sim *sim = ddl_psim_new(test, 4);
	const u64 period = 100 * DDL_P_MS, lead = 10 * DDL_P_MS;
	struct ddl_sched *s = &sim->s;
	struct ddl_cls *cls = &s->cls[1];
	u64 t;

	ddl_psim_predict(sim, 10000);
	t = ddl_psim_periodic(sim, 1, DDL_P_T0, period, c->bursts, 30000);
	KUNIT_ASSERT_EQ(test, cls->pred.predicted, c->bursts >= 4);
	KUNIT_EXPECT_EQ(test, ddl_psim_burst(sim, 1, t + c->offset, 1500),
			c->burst);
	KUNIT_EXPECT_EQ(test, cls->burst.count, (u64)c->bursts + c->burst);
	if (c->burst)
		return;
	KUNIT_EXPECT_EQ(test, cls->burst.bytes, 31500ULL);
	KUNIT_EXPECT_TRUE(test, cls->pred.predicted);
	KUNIT_EXPECT_EQ(test, cls->pred.period, period);
	ddl_psim_tick(sim, t + period - lead, DDL_P_MS);
	KUNIT_EXPECT_EQ(test, ddl_lead_job(s), 1U);
	KUNIT_EXPECT_TRUE(test, ddl_psim_burst(sim, 1, t + period, 30000));
	KUNIT_EXPECT_EQ(test, cls->pred.hits, 1ULL);
	/* The largest of 30000, 30000 and 31500. */
	KUNIT_EXPECT_EQ(test, cls->pred.burst_size, 31500ULL);
}

struct ddl_tail_case {
	const char	*name;
	u64		sizes[3];	/* the job's last three bursts */
	u64		sent;		/* of the fourth, before it stalls */
	bool		burst;		/* its tail starts a new burst */
};

static const struct ddl_tail_case ddl_tail_cases[] = {
	/* Repeated sizes: within 1/1024 of the size it is done. */
	{ "steady_94pct", { 30000, 30000, 30000 }, 28200, false },
	{ "steady_99pct", { 30000, 30000, 30000 }, 29700, false },
	{ "steady_99_95pct", { 30000, 30000, 30000 }, 29985, true },
	/* Sizes that spread by 20 %: within 1/8 of the largest, 33000. */
	{ "spread_88pct", { 27000, 30000, 33000 }, 29000, true },
	{ "spread_85pct", { 27000, 30000, 33000 }, 28200, false },
};

KUNIT_ARRAY_PARAM_DESC(ddl_tail, ddl_tail_cases, name);

/*
 * A job whose iteration stalls short of its learned size, for longer than
 * the gap that ends a burst and shorter than DDL_FAIR_PAUSE_US, paused in
 * it when it is short by more than its sizes spread (at least 1/1024, at
 * most 1/8 of the size): its tail keeps the burst's place.  Before, 7/8
 * of any size ended the burst, then 31/32 (steady_94pct, then
 * steady_99pct fail on those), and the tail of a burst whose one flow
 * lagged waited behind other jobs' whole bursts.
 */
static void ddl_predict_tail_test(struct kunit *test)
{
	const struct ddl_tail_case *c = test->param_value;
	struct ddl_sim *sim = ddl_psim_new(test, 4);
	const u64 period = 100 * DDL_P_MS;
	struct ddl_cls *cls = &sim->s.cls[1];
	u64 t = DDL_P_T0;
	u32 i;

	for (i = 0; i < 3; i++, t += period) {
		ddl_psim_tick(sim, t, DDL_P_MS);
		KUNIT_ASSERT_TRUE(test, ddl_psim_burst(sim, 1, t, c->sizes[i]));
	}
	ddl_psim_tick(sim, t, DDL_P_MS);
	KUNIT_ASSERT_TRUE(test, ddl_psim_burst(sim, 1, t, c->sent));
	KUNIT_ASSERT_EQ(test, cls->pred.burst_size, c->sizes[2]);
	/*
	 * 40 ms on: past a quarter period (not early), within half the
	 * job's compute (a pause, if the bytes say so).
	 */
	t += 40 * DDL_P_MS;
	KUNIT_EXPECT_EQ(test, ddl_psim_burst(sim, 1, t, 1500), c->burst);
	KUNIT_EXPECT_EQ(test, cls->burst.count, 5ULL - !c->burst);
}

struct ddl_stall_case {
	const char	*name;
	u32		stalls;		/* per iteration */
	u64		stall_min;	/* ns */
	u64		stall_max;
	u32		from;		/* size right at this iteration's start */
	bool		early;		/* the long stalls in the first 100 ms */
	u32		late_every;	/* and a late 150 ms stall this often */
	bool		steps;		/* equal pieces, late stall 200 ms */
};

/*
 * Stalls a sender makes within an iteration of 1000 packets every 400 ms:
 * TCP waiting for ACKs (1-2 ms), a loaded host (up to 9 ms), a host that
 * does not run the sender for 20-90 ms early in the iteration, and a stall
 * of 150 ms before the last packets of every third iteration; and a ring
 * all-reduce member, whose two phases wait 2-40 ms for its neighbour, and
 * 200 ms in every fourth iteration (its neighbour served other jobs).  A
 * long stall in the first iteration, before any size is known, cuts it:
 * then the size is right from the fourth.
 */
static const struct ddl_stall_case ddl_stall_cases[] = {
	{ "tcp_1ms", 4, DDL_P_MS, 2 * DDL_P_MS, 1, false, 0 },
	{ "loaded_9ms", 3, 2 * DDL_P_MS, 9 * DDL_P_MS, 1, false, 0 },
	{ "loaded_90ms_early", 2, 20 * DDL_P_MS, 90 * DDL_P_MS, 4, true, 0 },
	{ "late_150ms_every_3rd", 2, DDL_P_MS, 2 * DDL_P_MS, 1, false, 3 },
	{ "gloo_20_60ms_anywhere", 3, 20 * DDL_P_MS, 60 * DDL_P_MS, 5, false,
	  0 },
	{ "ring_phases_cut_every_4th", 1, 2 * DDL_P_MS, 40 * DDL_P_MS, 5, false,
	  4, true },
};

KUNIT_ARRAY_PARAM_DESC(ddl_stall, ddl_stall_cases, name);

#define DDL_STALL_PKTS	1000U
#define DDL_STALL_ITERS	20U

/* Job 3 sends @pkts packets at @t; returns whether a burst started. */
static bool ddl_stall_send(struct ddl_sim *sim, u64 t, u32 pkts)
{
	return ddl_psim_burst(sim, 3, t, (u64)pkts * DDL_P_PKT);
}

/*
 * A sender that stalls within its iterations.  Once the size is learned
 * (after the first iteration, the fourth if the first was cut), it is
 * within 10 % of the iteration's, and a stall shorter than
 * DDL_FAIR_PAUSE_US, or early in the iteration, or of at most 90 ms,
 * starts no burst.  A late long stall cuts an iteration in two, but the
 * largest of the last sizes keeps the size.  The period is learned.
 */
static void ddl_predict_stall_test(struct kunit *test)
{
	const struct ddl_stall_case *c = test->param_value;
	struct ddl_sim *sim = ddl_psim_new(test, 4);
	const u64 period = 400 * DDL_P_MS, size = DDL_STALL_PKTS * DDL_P_PKT;
	const u64 span = c->stall_max - c->stall_min;
	struct ddl_cls *cls = &sim->s.cls[3];
	u32 cut[8], i, k, n, left;
	struct rnd_state rnd;
	bool late, started;
	u64 t, t0, sent;

	prandom_seed_state(&rnd, 42);
	ddl_params_derive(&sim->p);
	n = c->stalls + 1;
	for (i = 0; i < DDL_STALL_ITERS; i++) {
		late = c->late_every && i % c->late_every == c->late_every - 1;
		/* Piece k is cut[k] packets, at least one. */
		left = DDL_STALL_PKTS;
		for (k = 0; k < n - 1; k++) {
			cut[k] = c->steps ? DDL_STALL_PKTS / n :
			       1 + prandom_u32_state(&rnd) % (left / (n - k));
			left -= cut[k];
		}
		cut[n - 1] = left;
		t0 = DDL_P_T0 + i * period;
		t = t0;
		for (k = 0; k < n; k++) {
			sent = sim->now;	/* the last piece ended */
			if (late && !c->steps && k == n - 1 && cut[k] > 1) {
				ddl_stall_send(sim, t, cut[k] - 1);
				t = sim->now + 150 * DDL_P_MS;
				cut[k] = 1;
			}
			started = ddl_stall_send(sim, t, cut[k]);
			/* Its start learned from the iterations before. */
			if (k == 0 && i >= c->from)
				KUNIT_EXPECT_LE_MSG(test,
						    abs_diff(cls->pred.burst_size,
							     size),
						    size / 10, "iteration %u", i);
			if (k == 0)
				KUNIT_EXPECT_TRUE_MSG(test, started,
						      "iteration %u", i);
			else if (i >= c->from && !late &&
				 t - sent <= 90 * DDL_P_MS)
				KUNIT_EXPECT_FALSE_MSG(test, started,
						       "iteration %u piece %u",
						       i, k);
			/* The long stalls of early end 100 ms in. */
			if (c->early && sim->now + c->stall_max >
					t0 + 100 * DDL_P_MS)
				t = sim->now + DDL_P_MS;
			else
				t = sim->now + c->stall_min +
				    prandom_u32_state(&rnd) % (u32)(span + 1);
			if (late && c->steps && k == n - 2)
				t = sim->now + 200 * DDL_P_MS;
		}
	}
	KUNIT_EXPECT_LE(test, abs_diff(cls->pred.burst_size, size), size / 10);
	/* The last iteration of ring_phases_cut_every_4th was cut. */
	if (!c->steps)
		KUNIT_EXPECT_LE(test, abs_diff(cls->pred.period, period),
				period / 10);
	if (!c->late_every)
		KUNIT_EXPECT_TRUE(test, cls->pred.predicted);
}

static const u32 ddl_aperiodic_ms[] = { 30, 170, 60, 250, 20, 140, 90, 310,
					45, 200, 15, 120, 75, 280, 35, 180,
					55, 230, 25, 160 };

/* Bursts at irregular intervals are never predicted, so never a window. */
static void ddl_predict_aperiodic_test(struct kunit *test)
{
	struct ddl_sim *sim = ddl_psim_new(test, 4);
	struct ddl_sched *s = &sim->s;
	u64 t = DDL_P_T0;
	u32 i;

	ddl_psim_predict(sim, 5000);
	for (i = 0; i < ARRAY_SIZE(ddl_aperiodic_ms); i++) {
		KUNIT_EXPECT_TRUE(test, ddl_psim_burst(sim, 0, t, 30000));
		KUNIT_EXPECT_FALSE_MSG(test, s->cls[0].pred.predicted, "burst %u",
				       i);
		t += ddl_aperiodic_ms[i] * DDL_P_MS;
		while (sim->now + DDL_P_MS < t) {
			ddl_psim_tick(sim, sim->now + DDL_P_MS, DDL_P_MS);
			KUNIT_ASSERT_EQ(test, ddl_lead_job(s), DDL_NONE);
		}
	}
	KUNIT_EXPECT_TRUE(test, ddl_periodic_none(&s->pred));
	KUNIT_EXPECT_EQ(test, s->pred.leads, 0ULL);
	KUNIT_EXPECT_EQ(test, s->pred.hits, 0ULL);
	KUNIT_EXPECT_EQ(test, s->pred.misses, 0ULL);
}

struct ddl_maxp_case {
	const char	*name;
	u32		maxperiod_us;
	u64		period;
	bool		predicted;
};

static const struct ddl_maxp_case ddl_maxp_cases[] = {
	{ "at_maxperiod", 150000, 150 * DDL_P_MS, true },
	{ "above_maxperiod", 150000, 150 * DDL_P_MS + DDL_P_US, false },
	{ "above_maxperiod_by_1ns", 150000, 150 * DDL_P_MS + 1, false },
	{ "at_default_10s", DDL_MAXPERIOD_DEFAULT, 10 * DDL_P_SEC, true },
	{ "above_default_10s", DDL_MAXPERIOD_DEFAULT, 10 * DDL_P_SEC + 1,
	  false },
	{ "at_min_1ms", DDL_MAXPERIOD_MIN, DDL_P_MS, true },
	{ "above_max_60s", DDL_MAXPERIOD_MAX, 61 * DDL_P_SEC, false },
};

KUNIT_ARRAY_PARAM_DESC(ddl_maxp, ddl_maxp_cases, name);

/* Intervals above maxperiod are not periodic. */
static void ddl_predict_maxperiod_test(struct kunit *test)
{
	const struct ddl_maxp_case *c = test->param_value;
	struct ddl_sim *sim = ddl_psim_new(test, 4);
	u64 t = DDL_P_T0;
	u32 i;

	sim->p.yield_us = 100;
	sim->p.maxperiod_us = c->maxperiod_us;
	ddl_params_derive(&sim->p);
	for (i = 0; i < 8; i++, t += c->period)
		KUNIT_EXPECT_TRUE(test, ddl_psim_burst(sim, 1, t, 1500));
	KUNIT_EXPECT_EQ(test, sim->s.cls[1].pred.predicted, c->predicted);
	KUNIT_EXPECT_EQ(test, ddl_periodic_none(&sim->s.pred),
			!c->predicted);
}

/*
 * An interval above maxperiod resets learning: prediction stops at once
 * and the period is learned afresh (not averaged with the old one), again
 * trusted after three intervals.
 */
static void ddl_predict_maxperiod_reset_test(struct kunit *test)
{
	struct ddl_sim *sim = ddl_psim_new(test, 4);
	struct ddl_cls *cls = &sim->s.cls[0];
	const u64 p2 = 60 * DDL_P_MS;
	u64 t;
	u32 i;

	sim->p.maxperiod_us = 150000;
	ddl_psim_predict(sim, 10000);
	t = ddl_psim_periodic(sim, 0, DDL_P_T0, 100 * DDL_P_MS, 5, 30000);
	KUNIT_ASSERT_TRUE(test, cls->pred.predicted);

	t += 151 * DDL_P_MS;
	ddl_psim_tick(sim, t, DDL_P_MS);
	KUNIT_EXPECT_TRUE(test, ddl_psim_burst(sim, 0, t, 30000));
	KUNIT_EXPECT_FALSE(test, cls->pred.predicted);
	KUNIT_EXPECT_TRUE(test, ddl_periodic_none(&sim->s.pred));
	for (i = 1; i <= 3; i++) {
		t += p2;
		ddl_psim_tick(sim, t, DDL_P_MS);
		KUNIT_EXPECT_EQ(test, ddl_lead_job(&sim->s), DDL_NONE);
		KUNIT_EXPECT_TRUE(test, ddl_psim_burst(sim, 0, t, 30000));
		KUNIT_EXPECT_EQ_MSG(test, cls->pred.period, p2, "interval %u", i);
		KUNIT_EXPECT_EQ_MSG(test, cls->pred.predicted, i == 3, "interval %u",
				    i);
	}
}

struct ddl_two_case {
	const char	*name;
	u64		offset;		/* of job 1's bursts after job 0's */
};

static const struct ddl_two_case ddl_two_cases[] = {
	{ "offset_30ms", 30 * DDL_P_MS },
	{ "offset_5ms_windows_overlap", 5 * DDL_P_MS },
	{ "offset_50ms", 50 * DDL_P_MS },
};

KUNIT_ARRAY_PARAM_DESC(ddl_two, ddl_two_cases, name);

/*
 * Two periodic jobs out of phase: each burst arms the earliest next
 * prediction, so after learning every burst of both jobs is a hit.
 */
static void ddl_predict_two_jobs_test(struct kunit *test)
{
	const struct ddl_two_case *c = test->param_value;
	struct ddl_sim *sim = ddl_psim_new(test, 4);
	const u64 period = 100 * DDL_P_MS;
	struct ddl_sched *s = &sim->s;
	u64 t = DDL_P_T0;
	u32 i;

	ddl_psim_predict(sim, 10000);
	for (i = 0; i < 12; i++, t += period) {
		ddl_psim_tick(sim, t, DDL_P_MS);
		KUNIT_EXPECT_TRUE(test, ddl_psim_burst(sim, 0, t, 30000));
		ddl_psim_tick(sim, t + c->offset, DDL_P_MS);
		KUNIT_EXPECT_TRUE(test, ddl_psim_burst(sim, 1, t + c->offset,
						       30000));
	}
	/* Bursts 5 .. 12 of each: the 4th made the period trusted. */
	KUNIT_EXPECT_EQ(test, s->cls[0].pred.hits, 8ULL);
	KUNIT_EXPECT_EQ(test, s->cls[1].pred.hits, 8ULL);
	KUNIT_EXPECT_EQ(test, s->pred.hits, 16ULL);
	KUNIT_EXPECT_EQ(test, s->pred.misses, 0ULL);
}

/*
 * A class the key gives to a new owner forgets the old owner's period and
 * its armed lead window: the new flow is not protected on the old one's
 * schedule.
 */
static void ddl_predict_new_owner_test(struct kunit *test)
{
	struct ddl_sim *sim = ddl_psim_new(test, 1);
	struct ddl_cls *cls = &sim->s.cls[0];
	const u64 period = 100 * DDL_P_MS;
	u64 t = DDL_P_T0;
	u32 i;

	sim->p.keyttl_ms = 0;
	sim->p.target = DDL_P_TARGET;
	sim->p.lead_us = 10000;
	ddl_params_derive(&sim->p);

	KUNIT_ASSERT_EQ(test, ddl_key_class(&sim->s, &sim->p, 1000, t), 0U);
	for (i = 0; i < 5; i++, t += period)
		ddl_psim_burst(sim, 0, t, 4 * DDL_P_PKT);
	KUNIT_ASSERT_TRUE(test, cls->pred.predicted);
	KUNIT_ASSERT_EQ(test, ddl_pred_job(&sim->s, sim->s.pred.lead), 0U);
	KUNIT_ASSERT_TRUE(test, cls->pred.periodic);

	/* No class free: the idle one goes to key 2000 at once (keyttl 0). */
	t = sim->now + DDL_P_MS;
	KUNIT_ASSERT_EQ(test, ddl_key_class(&sim->s, &sim->p, 2000, t), 0U);
	KUNIT_EXPECT_EQ(test, sim->s.keymap.recycled, 1ULL);
	KUNIT_EXPECT_FALSE(test, cls->pred.predicted);
	KUNIT_EXPECT_EQ(test, cls->pred.samples, 0U);
	KUNIT_EXPECT_EQ(test, cls->pred.period, 0ULL);
	KUNIT_EXPECT_FALSE(test, cls->pred.periodic);
	KUNIT_EXPECT_NULL(test, sim->s.pred.lead);

	/* Nothing opens at the old owner's next predicted burst. */
	ddl_window(&sim->s.pred, &sim->p, DDL_P_T0 + 5 * period - DDL_P_MS);
	KUNIT_EXPECT_EQ(test, ddl_lead_job(&sim->s), DDL_NONE);
}

/*
 * A new lead time closes an open window at once; the learned period is
 * kept, so the window after the next burst opens at the new lead.  The
 * closed window is not a miss.
 */
static void ddl_predict_reconfigure_keeps_period_test(struct kunit *test)
{
	struct ddl_sim *sim = ddl_psim_new(test, 4);
	const u64 period = 100 * DDL_P_MS, lead2 = 5 * DDL_P_MS;
	struct ddl_sched *s = &sim->s;
	struct ddl_params old;
	u64 t;

	ddl_psim_predict(sim, 10000);
	t = ddl_psim_periodic(sim, 2, DDL_P_T0, period, 6, 30000);
	ddl_psim_tick(sim, t + period - 5 * DDL_P_MS, DDL_P_MS);
	KUNIT_ASSERT_EQ(test, ddl_lead_job(s), 2U);

	old = sim->p;
	sim->p.lead_us = 5000;
	ddl_params_derive(&sim->p);
	ddl_reconfigure(s, &old, &sim->p, sim->now);
	KUNIT_EXPECT_EQ(test, ddl_lead_job(s), DDL_NONE);
	KUNIT_EXPECT_TRUE(test, s->cls[2].pred.predicted);
	KUNIT_EXPECT_EQ(test, s->cls[2].pred.period, period);

	t += period;
	ddl_psim_tick(sim, t, DDL_P_MS);
	KUNIT_EXPECT_TRUE(test, ddl_psim_burst(sim, 2, t, 30000));
	KUNIT_EXPECT_EQ(test, s->pred.misses, 0ULL);

	ddl_psim_tick(sim, t + period - lead2 - 1, DDL_P_MS);
	KUNIT_EXPECT_EQ(test, ddl_lead_job(s), DDL_NONE);
	ddl_window(&s->pred, &sim->p, t + period - lead2);
	KUNIT_EXPECT_EQ(test, ddl_lead_job(s), 2U);
	sim->now = t + period - lead2;
	KUNIT_EXPECT_TRUE(test, ddl_psim_burst(sim, 2, t + period, 30000));
	KUNIT_EXPECT_EQ(test, s->cls[2].pred.hits, 3ULL);
	KUNIT_EXPECT_EQ(test, s->pred.misses, 0ULL);
}

#define DDL_MANY_JOBS	64U

/*
 * The job armed is the one a scan of every job would choose: the earliest
 * next burst among predicted jobs whose period is longer than two leads
 * and whose window has not passed at @now; DDL_NONE if there is none.
 */
static u64 ddl_scan_next(const struct ddl_sched *s, u64 lead, u64 now)
{
	u64 next, best = U64_MAX;
	u32 i;

	for (i = 0; i < s->jobs; i++) {
		const struct ddl_cls *c = &s->cls[i];

		if (!c->pred.predicted || c->pred.period <= 2 * lead)
			continue;
		next = c->burst.start + c->pred.period;
		if (next + lead > now && next < best)
			best = next;
	}
	return best;
}

/* The tree is in order of next burst and holds only predicted jobs. */
static void ddl_check_periodic(struct kunit *test, const struct ddl_sched *s)
{
	const struct ddl_cls *c;
	struct rb_node *node;
	u64 prev = 0;
	u32 n = 0;

	for (node = rb_first_cached(&s->pred.periodic); node; node = rb_next(node)) {
		c = rb_entry(node, struct ddl_cls, pred.node);
		KUNIT_EXPECT_TRUE(test, c->pred.predicted);
		KUNIT_EXPECT_GE(test, ddl_next_burst(&c->pred), prev);
		prev = ddl_next_burst(&c->pred);
		KUNIT_ASSERT_LE(test, ++n, s->jobs);
	}
	/* The cached last node, which insertions at the end start from. */
	KUNIT_EXPECT_PTR_EQ(test, s->pred.periodic_last,
			    rb_last(&s->pred.periodic.rb_root));
}

/*
 * Many periodic jobs with different periods and phases, some too short
 * for a window: after every burst, with no window open, the armed job is
 * the one a scan of all jobs finds (the tree replaces that scan), and the
 * tree stays ordered.  Once all periods are learned, windows hit.
 */
static void ddl_predict_many_jobs_test(struct kunit *test)
{
	struct ddl_sim *sim = ddl_psim_new(test, DDL_MANY_JOBS);
	const u64 lead = 2 * DDL_P_MS, end = DDL_P_T0 + 3 * DDL_P_SEC;
	struct ddl_sched *s = &sim->s;
	u32 i, j, bursts = 0, checked = 0;
	u64 *due, *period, t, want;

	due = kunit_kcalloc(test, DDL_MANY_JOBS, sizeof(*due), GFP_KERNEL);
	period = kunit_kcalloc(test, DDL_MANY_JOBS, sizeof(*period),
			       GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, due);
	KUNIT_ASSERT_NOT_NULL(test, period);
	ddl_psim_predict(sim, lead / DDL_P_US);
	for (i = 0; i < DDL_MANY_JOBS; i++) {
		/* 2 .. 98.6 ms: jobs 0 and 1 are too short for a window. */
		period[i] = 2 * DDL_P_MS + i * 1533 * DDL_P_US + i * 7;
		due[i] = DDL_P_T0 + (i * 7919 % 97) * DDL_P_MS + i * 13;
	}
	/* At most one burst per job per 2 ms over 3 s. */
	while (bursts < DDL_MANY_JOBS * 1500) {
		for (i = 0, j = 0; i < DDL_MANY_JOBS; i++)
			if (due[i] < due[j])
				j = i;
		t = due[j];
		if (t >= end)
			break;
		if (t < sim->now)
			t = sim->now;
		ddl_psim_tick(sim, t, DDL_P_MS);
		KUNIT_EXPECT_TRUE_MSG(test, ddl_psim_burst(sim, j, t, 3000),
				      "job %u at %llu", j, t);
		bursts++;
		due[j] = t + period[j];
		ddl_check_periodic(test, s);
		if (s->pred.lead_active)
			continue;
		want = ddl_scan_next(s, lead, t);
		if (want == U64_MAX) {
			KUNIT_EXPECT_NULL(test, s->pred.lead);
		} else {
			KUNIT_ASSERT_NOT_NULL(test, s->pred.lead);
			KUNIT_EXPECT_EQ(test, ddl_next_burst(s->pred.lead), want);
		}
		checked++;
	}
	KUNIT_EXPECT_GT(test, bursts, 1000U);
	KUNIT_EXPECT_GT(test, checked, 100U);
	KUNIT_EXPECT_GT(test, s->pred.hits, 100ULL);
	/* The jobs too short for a window never had one. */
	for (i = 0; i < 2; i++) {
		KUNIT_EXPECT_TRUE(test, s->cls[i].pred.predicted);
		KUNIT_EXPECT_EQ(test, s->cls[i].pred.hits, 0ULL);
		KUNIT_EXPECT_EQ(test, s->cls[i].pred.misses, 0ULL);
	}
}

#define DDL_RR_JOBS	64U

/*
 * Jobs that burst in turn with one period, as a parameter server's
 * workers do: each burst moves its job from the front of the tree to the
 * end (the insertion that starts from the cached last node).  The tree
 * stays ordered and ends up holding every job, in the order they burst.
 */
static void ddl_predict_in_turn_test(struct kunit *test)
{
	struct ddl_sim *sim = ddl_psim_new(test, DDL_RR_JOBS);
	const u64 period = DDL_RR_JOBS * DDL_P_MS;
	struct ddl_sched *s = &sim->s;
	struct rb_node *node;
	u32 i, round;
	u64 t;

	ddl_psim_predict(sim, 500);
	for (round = 0; round < 8; round++) {
		for (i = 0; i < DDL_RR_JOBS; i++) {
			t = DDL_P_T0 + round * period + i * DDL_P_MS;
			ddl_psim_tick(sim, t, DDL_P_MS);
			KUNIT_EXPECT_TRUE(test, ddl_psim_burst(sim, i, t, 3000));
			ddl_check_periodic(test, s);
		}
	}
	i = 0;
	for (node = rb_first_cached(&s->pred.periodic); node; node = rb_next(node))
		KUNIT_EXPECT_EQ(test, (u32)(rb_entry(node, struct ddl_cls,
						     pred.node) - s->cls),
				i++);
	KUNIT_EXPECT_EQ(test, i, DDL_RR_JOBS);
	KUNIT_EXPECT_GT(test, s->pred.hits, 100ULL);
}

static struct kunit_case ddl_predict_test_cases[] = {
	KUNIT_CASE_PARAM(ddl_predict_learn_test, ddl_learn_gen_params),
	KUNIT_CASE_PARAM(ddl_predict_gap_test, ddl_gap_gen_params),
	KUNIT_CASE(ddl_predict_acks_test),
	KUNIT_CASE(ddl_predict_sub_bursts_test),
	KUNIT_CASE(ddl_predict_first_and_background_test),
	KUNIT_CASE_PARAM(ddl_predict_window_test, ddl_window_gen_params),
	KUNIT_CASE(ddl_predict_miss_bounded_test),
	KUNIT_CASE(ddl_predict_miss_edges_test),
	KUNIT_CASE(ddl_predict_miss_unobserved_test),
	KUNIT_CASE(ddl_predict_early_burst_test),
	KUNIT_CASE(ddl_predict_late_burst_test),
	KUNIT_CASE(ddl_predict_period_change_test),
	KUNIT_CASE_PARAM(ddl_predict_restart_test, ddl_change_gen_params),
	KUNIT_CASE_PARAM(ddl_predict_pause_test, ddl_pause_gen_params),
	KUNIT_CASE_PARAM(ddl_predict_tail_test, ddl_tail_gen_params),
	KUNIT_CASE_PARAM(ddl_predict_stall_test, ddl_stall_gen_params),
	KUNIT_CASE(ddl_predict_aperiodic_test),
	KUNIT_CASE_PARAM(ddl_predict_maxperiod_test, ddl_maxp_gen_params),
	KUNIT_CASE(ddl_predict_maxperiod_reset_test),
	KUNIT_CASE_PARAM(ddl_predict_two_jobs_test, ddl_two_gen_params),
	KUNIT_CASE(ddl_predict_reconfigure_keeps_period_test),
	KUNIT_CASE(ddl_predict_new_owner_test),
	KUNIT_CASE(ddl_predict_many_jobs_test),
	KUNIT_CASE(ddl_predict_in_turn_test),
	{}
};

static struct kunit_suite ddl_predict_test_suite = {
	.name = "sch_ddl_predict",
	.init = ddl_sched_init_case,
	.exit = ddl_sched_exit,
	.test_cases = ddl_predict_test_cases,
};

kunit_test_suite(ddl_predict_test_suite);

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("KUnit tests for the sch_ddl burst predictor");
