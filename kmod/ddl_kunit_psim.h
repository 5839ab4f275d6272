/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ddl_kunit_psim.h - the simulated qdisc the KUnit suites of the shaper,
 * the queue target and the predictor drive (sch_ddl_pace_kunit.c,
 * sch_ddl_predict_kunit.c): a scheduler, the clock, and helpers that send
 * packets and bursts.  Include it after the core units.
 */
#ifndef _DDL_KUNIT_PSIM_H
#define _DDL_KUNIT_PSIM_H

#include <kunit/test.h>

#define DDL_P_US	1000ULL			/* ns */
#define DDL_P_MS	1000000ULL		/* ns */
#define DDL_P_SEC	1000000000ULL		/* ns */
#define DDL_P_T0	DDL_P_SEC		/* a clock well past boot */
#define DDL_P_PKT	1500U			/* default packet, bytes */
#define DDL_P_TARGET	30000U			/* default target, bytes */

#define DDL_KBIT(k)	((k) * 125ULL)		/* bytes/s */
#define DDL_MBIT(m)	((m) * 125000ULL)
#define DDL_GBIT(g)	((g) * 125000000ULL)
#define DDL_ODD_RATE	123456789ULL		/* 1514e9 / rate: 12263.4 ns */

/* The burst in bytes that ddl_params_derive() documents for @rate. */
static inline u64 ddl_p_burst_bytes(u64 rate, u32 burst)
{
	if (burst)
		return burst;
	return max_t(u64, div64_u64(rate * DDL_BURST_AUTO_US, 1000000),
		     DDL_BURST_MIN_AUTO);
}

/* The simulated qdisc: the scheduler, its configuration and the clock. */
struct ddl_psim {
	struct kunit		*test;
	struct ddl_sched	s;
	struct ddl_params	p;
	u64			now;
};

/*
 * A scheduler with @jobs job classes and the default configuration; the
 * caller sets parameters and calls ddl_params_derive().  The suite's exit
 * frees it.
 */
static inline struct ddl_psim *ddl_psim_new(struct kunit *test, u32 jobs)
{
	struct ddl_psim *sim;

	sim = kunit_kzalloc(test, sizeof(*sim), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, sim);
	sim->test = test;
	ddl_params_init(&sim->p);
	sim->p.jobs = jobs;
	/* The suites of the rotation and its parts: mode fair has its own. */
	sim->p.mode = TC_DDL_MODE_ROTATE;
	KUNIT_ASSERT_EQ(test, ddl_sched_init(&sim->s, jobs), 0);
	test->priv = sim;
	return sim;
}

static inline int ddl_psim_init(struct kunit *test)
{
	test->priv = NULL;
	return 0;
}

static inline void ddl_psim_exit(struct kunit *test)
{
	struct ddl_psim *sim = test->priv;

	if (sim)
		ddl_sched_destroy(&sim->s);
}

static inline void ddl_psim_send(struct ddl_psim *sim, u32 idx, u32 len,
				 u64 now)
{
	sim->now = now;
	ddl_served(&sim->s, &sim->p, idx, DDL_R_GREEN, len, now);
}

/*
 * Job @idx receives @bytes at @t and sends them at once in packets of up
 * to DDL_P_PKT, one per us; its queue is empty at the end.  Returns what
 * ddl_arrived() said.
 */
static inline bool ddl_psim_burst(struct ddl_psim *sim, u32 idx, u64 t,
				  u64 bytes)
{
	struct kunit *test = sim->test;
	enum ddl_reason reason;
	bool started = false;
	u64 left = bytes;
	u32 len;

	ddl_activate(&sim->s, &sim->p, idx, t);
	do {
		len = min_t(u64, left, DDL_P_PKT);
		started |= ddl_arrived(&sim->s, &sim->p, idx, len, t);
		left -= len;
	} while (left);
	do {
		len = min_t(u64, bytes, DDL_P_PKT);
		KUNIT_ASSERT_EQ(test, ddl_pick(&sim->s, &sim->p, t, &reason),
				idx);
		ddl_served(&sim->s, &sim->p, idx, reason, len, t);
		bytes -= len;
		t += DDL_P_US;
	} while (bytes);
	ddl_deactivate(&sim->s, idx, t);
	sim->now = t;
	return started;
}

/* Advance the clock to @to in steps of @step, checking the lead windows. */
static inline void ddl_psim_tick(struct ddl_psim *sim, u64 to, u64 step)
{
	u64 t = sim->now;

	while (t < to) {
		t = min(t + step, to);
		ddl_window(&sim->s, &sim->p, t);
	}
	sim->now = to;
}

/* A configuration that predicts: lead @lead_us, a target, short yield. */
static inline void ddl_psim_predict(struct ddl_psim *sim, u32 lead_us)
{
	sim->p.lead_us = lead_us;
	sim->p.target = DDL_P_TARGET;
	ddl_params_derive(&sim->p);
}

/* @n bursts of job @idx at @t, @t + @period ...; returns the last time. */
static inline u64 ddl_psim_periodic(struct ddl_psim *sim, u32 idx, u64 t,
				    u64 period, u32 n, u64 bytes)
{
	u32 i;

	for (i = 0; i < n; i++, t += period) {
		ddl_psim_tick(sim, t, DDL_P_MS);
		KUNIT_EXPECT_TRUE_MSG(sim->test,
				      ddl_psim_burst(sim, idx, t, bytes),
				      "burst %u", i);
	}
	return t - period;
}

#endif /* _DDL_KUNIT_PSIM_H */
