/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ddl_kunit_sim.h - the simulated qdisc, the one model of sch_ddl the
 * KUnit suites drive the core through, as the glue does: per-class packet
 * counters stand in for the queues; the tests set the clock themselves,
 * or give the sim a rate and it is a link.  ddl_sim_new() and its helpers
 * count packets of a fixed length per class; ddl_sim_arrive() tells the
 * core of each packet as the glue does, ddl_sim_push() queues packets of
 * their own length; ddl_psim_new() and the ddl_psim_ helpers send whole
 * bursts at once, for the shaper, the target and the predictor.  The
 * suites' workloads (closed-loop jobs, rounds of bursts, TCP senders) and
 * their references (GPS, SRPT) are built on it.  Include it after the
 * core units (ddl_kunit_core.h).
 */
#ifndef _DDL_KUNIT_SIM_H
#define _DDL_KUNIT_SIM_H

#include "ddl_kunit.h"

/* The burst in bytes that ddl_params_derive() documents for @rate. */
static inline u64 ddl_p_burst_bytes(u64 rate, u32 burst)
{
	if (burst)
		return burst;
	return max_t(u64, div64_u64(rate * DDL_BURST_AUTO_US, 1000000),
		     DDL_BURST_MIN_AUTO);
}

/*
 * The simulated qdisc: the scheduler, per-class packet counters and a
 * clock.  Every packet of a class has that class's length, or, after
 * ddl_sim_fifo(), its own, kept in a FIFO per class.  With a rate, the
 * sim is a link: a packet sent moves the clock on by its time on the
 * wire, after the core has heard of it as the glue tells it, at the time
 * it was dequeued.
 */
struct ddl_sim {
	struct kunit		*test;
	struct ddl_sched	s;
	struct ddl_params	p;
	u64			now;
	u32			*qlen;	/* packets queued, per class */
	u32			*len;	/* length of every packet, per class */
	u64			*bytes;	/* bytes sent, per class */
	enum ddl_reason		reason;	/* of the last pick */
	u64			rate;	/* of the link, bytes/s; 0: none */
	u32			*fifo;	/* ddl_sim_fifo(): lengths, per class */
	u32			*head;	/* ... the oldest's place, per class */
	u32			fifo_cap;	/* ... packets a class holds */
};

/*
 * A scheduler with @jobs job classes and the default configuration; the
 * caller sets parameters and calls ddl_params_derive().  ddl_sched_exit()
 * frees it.
 */
static inline struct ddl_sim *ddl_sim_alloc(struct kunit *test, u32 jobs)
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
	KUNIT_ASSERT_EQ(test, ddl_sched_init(&sim->s, jobs), 0);
	test->priv = sim;
	return sim;
}

/* As ddl_sim_alloc(), in mode rotate. */
static inline struct ddl_sim *ddl_psim_new(struct kunit *test, u32 jobs)
{
	struct ddl_sim *sim = ddl_sim_alloc(test, jobs);

	/* The suites of the rotation and its parts: mode fair has its own. */
	sim->p.mode = TC_DDL_MODE_ROTATE;
	return sim;
}

/*
 * As ddl_psim_new(), except that yield is off and the starvation guard
 * waits as long as it can: tests of these turn them on.
 */
static inline struct ddl_sim *ddl_sim_new(struct kunit *test, u32 jobs)
{
	struct ddl_sim *sim = ddl_psim_new(test, jobs);

	sim->p.yield_us = 0;
	sim->p.maxwait_us = DDL_MAXWAIT_MAX;
	return sim;
}

/* Give each class a FIFO of @cap packets, each with its own length. */
static inline void ddl_sim_fifo(struct ddl_sim *sim, u32 cap)
{
	u32 classes = DDL_BG(&sim->s) + 1;

	sim->fifo = kunit_kcalloc(sim->test, classes * cap, sizeof(u32),
				  GFP_KERNEL);
	sim->head = kunit_kcalloc(sim->test, classes, sizeof(u32),
				  GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(sim->test, sim->fifo);
	KUNIT_ASSERT_NOT_NULL(sim->test, sim->head);
	sim->fifo_cap = cap;
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

/*
 * @n packets arrive in class @idx at @t, as the glue takes them: the
 * class becomes backlogged, and the core hears of each (ddl_arrived()).
 */
static inline void ddl_sim_arrive(struct ddl_sim *sim, u32 idx, u32 n, u64 t)
{
	u32 i;

	if (!n)
		return;
	sim->qlen[idx] += n;
	for (i = 0; i < n; i++)
		ddl_arrived(&sim->s, &sim->p, idx, sim->len[idx], t);
}

/* A packet of @len bytes arrives now at the tail of class @idx's FIFO. */
static inline void ddl_sim_push(struct ddl_sim *sim, u32 idx, u32 len)
{
	u32 cap = sim->fifo_cap;

	KUNIT_ASSERT_LT(sim->test, sim->qlen[idx], cap);
	sim->fifo[idx * cap + (sim->head[idx] + sim->qlen[idx]) % cap] = len;
	sim->qlen[idx]++;
	ddl_arrived(&sim->s, &sim->p, idx, len, sim->now);
}

static inline u32 ddl_sim_pick(struct ddl_sim *sim)
{
	return ddl_pick(&sim->s, &sim->p, sim->now, &sim->reason);
}

/* Send one packet of class @idx, as ddl_pick() chose it. */
static inline u32 ddl_sim_serve(struct ddl_sim *sim, u32 idx)
{
	u32 len;

	if (idx == DDL_NONE)
		return idx;
	if (idx > DDL_BG(&sim->s) || !sim->qlen[idx]) {
		KUNIT_FAIL(sim->test, "ddl_pick() chose empty class %u", idx);
		return DDL_NONE;
	}
	len = sim->len[idx];
	if (sim->fifo) {
		len = sim->fifo[idx * sim->fifo_cap + sim->head[idx]];
		sim->head[idx] = (sim->head[idx] + 1) % sim->fifo_cap;
	}
	sim->qlen[idx]--;
	ddl_served(&sim->s, &sim->p, idx, sim->reason, len, !sim->qlen[idx],
		   sim->now);
	sim->bytes[idx] += len;
	if (sim->rate)
		sim->now += div64_u64((u64)len * NSEC_PER_SEC, sim->rate);
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

static inline void ddl_psim_send(struct ddl_sim *sim, u32 idx, u32 len,
				 u64 now)
{
	sim->now = now;
	ddl_served(&sim->s, &sim->p, idx, DDL_R_GREEN, len, false, now);
}

/*
 * Job @idx receives @bytes at @t and sends them at once in packets of up
 * to DDL_P_PKT, one per us; its queue is empty at the end.  Returns what
 * ddl_arrived() said.
 */
static inline bool ddl_psim_burst(struct ddl_sim *sim, u32 idx, u64 t,
				  u64 bytes)
{
	struct kunit *test = sim->test;
	enum ddl_reason reason;
	bool started = false;
	u64 left = bytes;
	u32 len;

	do {
		len = min_t(u64, left, DDL_P_PKT);
		started |= ddl_arrived(&sim->s, &sim->p, idx, len, t);
		left -= len;
	} while (left);
	do {
		len = min_t(u64, bytes, DDL_P_PKT);
		KUNIT_ASSERT_EQ(test, ddl_pick(&sim->s, &sim->p, t, &reason),
				idx);
		ddl_served(&sim->s, &sim->p, idx, reason, len, false, t);
		bytes -= len;
		t += DDL_P_US;
	} while (bytes);
	ddl_deactivate(&sim->s, idx, t);
	sim->now = t;
	return started;
}

/* Advance the clock to @to in steps of @step, checking the lead windows. */
static inline void ddl_psim_tick(struct ddl_sim *sim, u64 to, u64 step)
{
	u64 t = sim->now;

	while (t < to) {
		t = min(t + step, to);
		ddl_window(&sim->s.pred, &sim->p, t);
	}
	sim->now = to;
}

/* A configuration that predicts: lead @lead_us, a target, short yield. */
static inline void ddl_psim_predict(struct ddl_sim *sim, u32 lead_us)
{
	sim->p.lead_us = lead_us;
	sim->p.target = DDL_P_TARGET;
	ddl_params_derive(&sim->p);
}

/* @n bursts of job @idx at @t, @t + @period ...; returns the last time. */
static inline u64 ddl_psim_periodic(struct ddl_sim *sim, u32 idx, u64 t,
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

#endif /* _DDL_KUNIT_SIM_H */
