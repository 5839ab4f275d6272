/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ddl_kunit_sim.h - the simulated qdisc the KUnit suites of the scheduling
 * decisions drive (sch_ddl_sched_kunit.c, sch_ddl_keymap_kunit.c):
 * per-class packet counters stand in for the queues, and the tests set
 * the clock themselves.  Include it after the core units.
 */
#ifndef _DDL_KUNIT_SIM_H
#define _DDL_KUNIT_SIM_H

#include <kunit/test.h>

#define DDL_T_US	1000ULL			/* ns */
#define DDL_T_MS	1000000ULL		/* ns */
#define DDL_T_LEN	1500U			/* default packet, bytes */
#define DDL_T_PKT_NS	(12 * DDL_T_US)		/* 1500 bytes at 1 Gbit/s */
#define DDL_T_LOTS	1000000000U		/* a queue never running dry */
#define DDL_T_BG	(U32_MAX - 1)		/* in tables: the background */

/* The simulated qdisc: the scheduler and per-class packet counters. */
struct ddl_sim {
	struct kunit		*test;
	struct ddl_sched	s;
	struct ddl_params	p;
	u64			now;
	u32			*qlen;	/* packets queued, per class */
	u32			*len;	/* length of every packet, per class */
	u64			*bytes;	/* bytes sent, per class */
	enum ddl_reason		reason;	/* of the last pick */
};

/*
 * A scheduler with @jobs job classes and the default configuration, except
 * that yield is off and the starvation guard waits as long as it can: tests
 * of these turn them on.  ddl_sched_exit() frees it.
 */
static inline struct ddl_sim *ddl_sim_new(struct kunit *test, u32 jobs)
{
	struct ddl_sim *sim;
	u32 i;

	sim = kunit_kzalloc(test, sizeof(*sim), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, sim);
	sim->qlen = kunit_kcalloc(test, jobs + 1, sizeof(*sim->qlen),
				  GFP_KERNEL);
	sim->len = kunit_kcalloc(test, jobs + 1, sizeof(*sim->len),
				 GFP_KERNEL);
	sim->bytes = kunit_kcalloc(test, jobs + 1, sizeof(*sim->bytes),
				   GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, sim->qlen);
	KUNIT_ASSERT_NOT_NULL(test, sim->len);
	KUNIT_ASSERT_NOT_NULL(test, sim->bytes);
	for (i = 0; i <= jobs; i++)
		sim->len[i] = DDL_T_LEN;

	sim->test = test;
	ddl_params_init(&sim->p);
	sim->p.jobs = jobs;
	/* The suites of the rotation and its parts: mode fair has its own. */
	sim->p.mode = TC_DDL_MODE_ROTATE;
	sim->p.yield_us = 0;
	sim->p.maxwait_us = DDL_MAXWAIT_MAX;
	KUNIT_ASSERT_EQ(test, ddl_sched_init(&sim->s, jobs), 0);
	test->priv = sim;
	return sim;
}

static inline int ddl_sched_init_case(struct kunit *test)
{
	test->priv = NULL;
	return 0;
}

static inline void ddl_sched_exit(struct kunit *test)
{
	struct ddl_sim *sim = test->priv;

	if (sim)
		ddl_sched_destroy(&sim->s);
}

/* A class index from a table: DDL_T_BG is the background class. */
static inline u32 ddl_t_cls(const struct ddl_sim *sim, u32 idx)
{
	return idx == DDL_T_BG ? DDL_BG(&sim->s) : idx;
}

/* @n packets arrive in class @idx. */
static inline void ddl_sim_enqueue(struct ddl_sim *sim, u32 idx, u32 n)
{
	if (!n)
		return;
	if (!sim->qlen[idx])
		ddl_activate(&sim->s, &sim->p, idx, sim->now);
	sim->qlen[idx] += n;
}

static inline u32 ddl_sim_pick(struct ddl_sim *sim)
{
	return ddl_pick(&sim->s, &sim->p, sim->now, &sim->reason);
}

/* Send one packet of class @idx, as ddl_pick() chose it. */
static inline u32 ddl_sim_serve(struct ddl_sim *sim, u32 idx)
{
	if (idx == DDL_NONE)
		return idx;
	if (idx > DDL_BG(&sim->s) || !sim->qlen[idx]) {
		KUNIT_FAIL(sim->test, "ddl_pick() chose empty class %u", idx);
		return DDL_NONE;
	}
	ddl_served(&sim->s, &sim->p, idx, sim->reason, sim->len[idx],
		   sim->now);
	sim->bytes[idx] += sim->len[idx];
	if (!--sim->qlen[idx])
		ddl_deactivate(&sim->s, idx, sim->now);
	return idx;
}

/* Dequeue one packet: the class it came from, or DDL_NONE. */
static inline u32 ddl_sim_send(struct ddl_sim *sim)
{
	return ddl_sim_serve(sim, ddl_sim_pick(sim));
}

static inline u32 ddl_sim_send_at(struct ddl_sim *sim, u64 now)
{
	sim->now = now;
	return ddl_sim_send(sim);
}

/* Make @idx green with an empty queue: one packet, sent at once. */
static inline void ddl_sim_green_idle(struct ddl_sim *sim, u32 idx)
{
	ddl_sim_enqueue(sim, idx, 1);
	KUNIT_ASSERT_EQ(sim->test, ddl_sim_send(sim), idx);
	KUNIT_ASSERT_EQ(sim->test, sim->s.green, idx);
	KUNIT_ASSERT_FALSE(sim->test, sim->s.cls[idx].backlogged);
}

#endif /* _DDL_KUNIT_SIM_H */
