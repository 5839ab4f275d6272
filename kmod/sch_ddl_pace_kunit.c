// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests for ddl_pace.c, the shaper and the standing-queue control of
 * the sch_ddl core, as the core runs: earliest-departure-time pacing and
 * its accounting, the derived parameters, and ddl_aqm().  One packet's
 * departure time, a function of the shaper alone, is tested in
 * sch_ddl_pace_unit_kunit.c.
 *
 * The expectations come from the kernel-doc of the core, not from the
 * code.  The tests set the clock themselves; the simulated qdisc of
 * ddl_kunit_sim.h stands in for the glue where the scheduler state is
 * involved.
 */

#include <kunit/test.h>

#include "compat.h"

#include "ddl_kunit_core.h"

#include "ddl_kunit_sim.h"

/* sch_ddl_pace: ddl_edt_next()'s idle credit and spans */

struct ddl_credit_case {
	const char	*name;
	u64		rate;
	u32		burst;		/* 0: auto */
	u32		len;
};

static const struct ddl_credit_case ddl_credit_cases[] = {
	{ "1Gbit_auto", DDL_GBIT(1), 0, 1514 },
	{ "10Mbit_auto_floor", DDL_MBIT(10), 0, 1514 },
	{ "1kbit_auto_floor", DDL_KBIT(1), 0, 1514 },
	{ "100Gbit_auto_64KiB", DDL_GBIT(100), 0, 65536 },
	{ "rate_max_auto_64KiB", DDL_RATE_MAX, 0, 65536 },
	{ "odd_rate_3000B_truncated", DDL_ODD_RATE, 3000, 1500 },
	{ "1Gbit_64MiB", DDL_GBIT(1), DDL_BURST_MAX, 65536 },
	{ "1Gbit_burst_below_one_packet", DDL_GBIT(1), 100, 1514 },
};

KUNIT_ARRAY_PARAM_DESC(ddl_credit, ddl_credit_cases, name);

/* Bytes that leave back to back at @now after the last departure @t_next. */
static u64 ddl_back_to_back(const struct ddl_params *p, u64 t_next, u64 now,
			    u32 len, u64 *first)
{
	/* A shaper that lets too much through fails, not loops. */
	u64 limit = 2 * div64_u64(p->burst_ns * p->rate, DDL_P_SEC) + 4 * len;
	u64 rem = 0, bytes = 0;

	*first = 0;
	while (t_next <= now && bytes < limit) {
		t_next = ddl_edt_next(t_next, &rem, now, len, p->rate,
				      p->burst_ns);
		if (!bytes)
			*first = t_next;
		bytes += len;
	}
	return bytes;
}

/*
 * Idle credit: after an idle period of at least the burst, the next
 * departure counts from now - burst_ns, so burst + at most one packet leave
 * back to back, however long the idle period was.  After a shorter idle
 * period, less.
 */
static void ddl_edt_idle_credit_test(struct kunit *test)
{
	const struct ddl_credit_case *c = test->param_value;
	const u64 t0 = 100000 * DDL_P_SEC;
	u64 burst = ddl_p_burst_bytes(c->rate, c->burst);
	u64 idles[4], bytes, first, q, r, full = 0;
	struct ddl_params p;
	u32 i;

	ddl_params_init(&p);
	p.rate = c->rate;
	p.burst = c->burst;
	ddl_params_derive(&p);
	idles[0] = p.burst_ns;
	idles[1] = p.burst_ns + 1;
	idles[2] = 2 * p.burst_ns;
	idles[3] = p.burst_ns + 10000 * DDL_P_SEC;

	q = div64_u64_rem((u64)c->len * DDL_P_SEC, c->rate, &r);
	for (i = 0; i < ARRAY_SIZE(idles); i++) {
		bytes = ddl_back_to_back(&p, t0, t0 + idles[i], c->len, &first);
		KUNIT_EXPECT_EQ_MSG(test, first, t0 + idles[i] - p.burst_ns + q,
				    "idle %llu ns", idles[i]);
		KUNIT_EXPECT_LE_MSG(test, bytes, burst + c->len,
				    "idle %llu ns", idles[i]);
		KUNIT_EXPECT_GT_MSG(test, bytes + c->len, burst,
				    "idle %llu ns", idles[i]);
		if (!i)
			full = bytes;
		KUNIT_EXPECT_EQ_MSG(test, bytes, full, "idle %llu ns",
				    idles[i]);
	}

	/*
	 * Idle for half the burst: half the credit (departure times are whole
	 * ns, the remainder carried: one ns more).
	 */
	bytes = ddl_back_to_back(&p, t0, t0 + p.burst_ns / 2, c->len, &first);
	KUNIT_EXPECT_EQ(test, first, t0 + q);
	KUNIT_EXPECT_LE(test, bytes,
			div64_u64((p.burst_ns / 2 + 1) * c->rate, DDL_P_SEC) +
			c->len);
}

struct ddl_span_case {
	const char	*name;
	u64		rate;
	u32		len;
	u64		span_ns;	/* T */
	u64		slack_ns;	/* timer late by up to this */
};

static const struct ddl_span_case ddl_span_cases[] = {
	{ "10Mbit_1514B", DDL_MBIT(10), 1514, DDL_P_SEC, 0 },
	{ "100Mbit_1514B", DDL_MBIT(100), 1514, 100 * DDL_P_MS, 0 },
	{ "1Gbit_1514B", DDL_GBIT(1), 1514, 10 * DDL_P_MS, 0 },
	{ "1Gbit_1514B_late_timer", DDL_GBIT(1), 1514, 10 * DDL_P_MS,
	  500 * DDL_P_US },
	{ "odd_rate_1514B", DDL_ODD_RATE, 1514, 10 * DDL_P_MS, 0 },
	{ "10Gbit_9000B", DDL_GBIT(10), 9000, 10 * DDL_P_MS, 0 },
	{ "25Gbit_64KiB_late_timer", DDL_GBIT(25), 65536, 10 * DDL_P_MS,
	  200 * DDL_P_US },
	{ "40Gbit_64KiB", DDL_GBIT(40), 65536, 10 * DDL_P_MS, 0 },
	{ "100Gbit_1514B", DDL_GBIT(100), 1514, 2 * DDL_P_MS, 0 },
	{ "100Gbit_64KiB", DDL_GBIT(100), 65536, 10 * DDL_P_MS, 0 },
};

KUNIT_ARRAY_PARAM_DESC(ddl_span, ddl_span_cases, name);

/* Bytes that may leave in T: rate * T + burst + one packet at most. */
static void ddl_expect_span(struct kunit *test, const struct ddl_span_case *c,
			    u64 burst, u64 bytes, u64 slack, const char *what)
{
	u64 rt = c->rate * c->span_ns;	/* < 2^64 for the table */

	KUNIT_EXPECT_LE_MSG(test, bytes,
			    div64_u64(rt, DDL_P_SEC) + burst + c->len,
			    "%s window", what);
	KUNIT_EXPECT_GE_MSG(test, bytes + c->len,
			    DIV64_U64_ROUND_UP(rt - c->rate * slack, DDL_P_SEC),
			    "%s window", what);
}

/*
 * A greedy sender after a long idle period, its queue never empty, the
 * shaper's timer firing at the departure time (or late by up to half the
 * burst): in the first window of length T and in a window starting at a
 * departure in steady state, at most rate * T + burst + one packet leave,
 * and at least rate * T - one packet (less what a late timer defers).
 */
static void ddl_edt_span_test(struct kunit *test)
{
	const struct ddl_span_case *c = test->param_value;
	const u64 start = 100000 * DDL_P_SEC, span = c->span_ns;
	u64 burst = ddl_p_burst_bytes(c->rate, 0);
	u64 t_next = 0, rem = 0, now = start, mid = 0, first = 0, steady = 0;
	u64 total = 0, cap;
	u32 waits = 0;
	struct ddl_params p;

	ddl_params_init(&p);
	p.rate = c->rate;
	ddl_params_derive(&p);
	KUNIT_ASSERT_LE(test, c->slack_ns, p.burst_ns / 2);
	/* A shaper that lets too much through fails, not loops. */
	cap = div64_u64(c->rate * 4 * span, DDL_P_SEC) + 2 * burst;

	while (now <= start + 3 * span) {
		if (t_next > now) {
			/* The watchdog fires at t_next, up to slack late. */
			now = t_next + div_u64(c->slack_ns * (waits * 7 % 5), 4);
			waits++;
			continue;
		}
		total += c->len;
		KUNIT_ASSERT_LE(test, total, cap);
		if (now <= start + span)
			first += c->len;
		if (!mid && now >= start + span + span / 2)
			mid = now;
		if (mid && now <= mid + span)
			steady += c->len;
		t_next = ddl_edt_next(t_next, &rem, now, c->len, c->rate,
				      p.burst_ns);
	}
	ddl_expect_span(test, c, burst, first, c->slack_ns, "first");
	ddl_expect_span(test, c, burst, steady, c->slack_ns, "steady");
	/*
	 * In steady state the burst credit is spent: rate * T + one packet
	 * (departure times are whole ns: T + 1).
	 */
	if (!c->slack_ns)
		KUNIT_EXPECT_LE(test, steady,
				div64_u64(c->rate * (span + 1), DDL_P_SEC) +
				c->len);
}

/* sch_ddl_pace: ddl_params_derive() */

/* In the table: the auto burst, DDL_BURST_AUTO_US of the rate. */
#define DDL_P_AUTO	U64_MAX

struct ddl_derive_case {
	const char	*name;
	u64		rate;
	u32		burst;
	u32		target;
	u32		target_us;
	u64		burst_ns;	/* DDL_P_AUTO: DDL_BURST_AUTO_US */
	u64		target_bytes;
};

static const struct ddl_derive_case ddl_derive_cases[] = {
	{ "no_rate", 0, 0, 0, 0, 0, 0 },
	{ "no_rate_burst_ignored", 0, 5000, 0, 0, 0, 0 },
	{ "no_rate_target_bytes", 0, 0, 30000, 0, 0, 30000 },
	{ "no_rate_target_time_ignored", 0, 0, 0, 5000, 0, 0 },
	{ "no_rate_target_bytes_kept", 0, 0, 7000, 5000, 0, 7000 },
	{ "auto_1Gbit", DDL_GBIT(1), 0, 0, 0, DDL_P_AUTO, 0 },
	{ "auto_100Gbit", DDL_GBIT(100), 0, 0, 0, DDL_P_AUTO, 0 },
	{ "auto_rate_max", DDL_RATE_MAX, 0, 0, 0, DDL_P_AUTO, 0 },
	{ "auto_odd_rate", DDL_ODD_RATE, 0, 0, 0, DDL_P_AUTO, 0 },
	{ "auto_floor_100kbit", DDL_KBIT(100), 0, 0, 0, 242240000, 0 },
	{ "auto_floor_1kbit", DDL_KBIT(1), 0, 0, 0, 24224000000ULL, 0 },
	{ "explicit_1Gbit", DDL_GBIT(1), 10000, 0, 0, 80000, 0 },
	{ "explicit_below_floor", DDL_GBIT(1), 1, 0, 0, 8, 0 },
	{ "explicit_odd_rate_truncated", DDL_ODD_RATE, 3000, 0, 0, 24300, 0 },
	{ "explicit_max_at_1kbit", DDL_KBIT(1), DDL_BURST_MAX, 0, 0,
	  536870912000000ULL, 0 },
	{ "explicit_max_at_rate_max", DDL_RATE_MAX, DDL_BURST_MAX, 0, 0,
	  536870, 0 },
	{ "target_bytes_with_rate", DDL_GBIT(1), 0, 20000, 0, DDL_P_AUTO,
	  20000 },
	{ "target_5ms_at_1Gbit", DDL_GBIT(1), 0, 0, 5000, DDL_P_AUTO, 625000 },
	{ "target_1s_at_1kbit", DDL_KBIT(1), 0, 0, 1000000, 24224000000ULL,
	  125 },
	{ "target_max_at_rate_max", DDL_RATE_MAX, 0, 0, DDL_TARGET_TIME_MAX,
	  DDL_P_AUTO, 1250000000000ULL },
	{ "target_1ms_at_odd_rate", DDL_ODD_RATE, 0, 0, 1000, DDL_P_AUTO,
	  123456 },
	/* The default target: 2 ms at the rate, at least two frames. */
	{ "target_auto_no_rate", 0, 0, 0, TC_DDL_AUTO, 0, 0 },
	{ "target_auto_at_1Gbit", DDL_GBIT(1), 0, 0, TC_DDL_AUTO, DDL_P_AUTO,
	  250000 },
	{ "target_auto_at_rate_max", DDL_RATE_MAX, 0, 0, TC_DDL_AUTO,
	  DDL_P_AUTO, 250000000 },
	{ "target_auto_floor_10Mbit", DDL_MBIT(10), 0, 0, TC_DDL_AUTO,
	  DDL_P_AUTO, DDL_TARGET_AUTO_MIN },
	{ "target_auto_floor_1kbit", DDL_KBIT(1), 0, 0, TC_DDL_AUTO,
	  24224000000ULL, DDL_TARGET_AUTO_MIN },
	{ "target_auto_bytes_given", DDL_GBIT(1), 0, 20000, TC_DDL_AUTO,
	  DDL_P_AUTO, 20000 },
};

KUNIT_ARRAY_PARAM_DESC(ddl_derive, ddl_derive_cases, name);

/*
 * The auto burst above the floor: DDL_BURST_AUTO_US of the rate in whole
 * bytes, as time: at most DDL_BURST_AUTO_US, less by under one byte's time.
 */
static void ddl_expect_auto_burst(struct kunit *test, u64 rate, u64 burst_ns)
{
	const u64 auto_ns = DDL_BURST_AUTO_US * DDL_P_US;

	KUNIT_EXPECT_LE(test, burst_ns, auto_ns);
	KUNIT_EXPECT_GE(test, burst_ns,
			auto_ns - DIV64_U64_ROUND_UP(DDL_P_SEC, rate));
}

/*
 * burst_ns is the burst as time at the rate (auto: DDL_BURST_AUTO_US of
 * the rate, at least DDL_BURST_MIN_AUTO bytes); target_bytes is the byte
 * target or target_us at the rate.  Without a rate, no burst and only a
 * byte target.
 */
static void ddl_params_derive_test(struct kunit *test)
{
	const struct ddl_derive_case *c = test->param_value;
	struct ddl_params p;
	u32 i;

	ddl_params_init(&p);
	p.rate = c->rate;
	p.burst = c->burst;
	p.target = c->target;
	p.target_us = c->target_us;
	/* Deriving again changes nothing. */
	for (i = 0; i < 2; i++) {
		ddl_params_derive(&p);
		if (c->burst_ns == DDL_P_AUTO)
			ddl_expect_auto_burst(test, c->rate, p.burst_ns);
		else
			KUNIT_EXPECT_EQ(test, p.burst_ns, c->burst_ns);
		KUNIT_EXPECT_EQ(test, p.target_bytes, c->target_bytes);
	}
}

/*
 * Around the rate where DDL_BURST_AUTO_US of it is DDL_BURST_MIN_AUTO
 * bytes: below, the floor (a longer burst time); above, the auto time.
 */
static void ddl_params_auto_floor_test(struct kunit *test)
{
	const u64 edge = DDL_BURST_MIN_AUTO * 1000000ULL / DDL_BURST_AUTO_US;
	const u64 auto_ns = DDL_BURST_AUTO_US * DDL_P_US;
	struct ddl_params p;

	ddl_params_init(&p);
	p.rate = edge;
	ddl_params_derive(&p);
	KUNIT_EXPECT_EQ(test, p.burst_ns,
			div64_u64(DDL_BURST_MIN_AUTO * DDL_P_SEC, edge));
	ddl_expect_auto_burst(test, edge, p.burst_ns);

	p.rate = edge - edge / 100;
	ddl_params_derive(&p);
	KUNIT_EXPECT_EQ(test, p.burst_ns,
			div64_u64(DDL_BURST_MIN_AUTO * DDL_P_SEC, p.rate));
	KUNIT_EXPECT_GT(test, p.burst_ns, auto_ns);

	p.rate = edge + edge / 100;
	ddl_params_derive(&p);
	ddl_expect_auto_burst(test, p.rate, p.burst_ns);
}

/*
 * The defaults neither shape nor control the queue nor predict: target
 * and lead are automatic, and without a rate that is none.
 */
static void ddl_params_init_no_shaping_test(struct kunit *test)
{
	struct ddl_params p;

	memset(&p, 0xff, sizeof(p));
	ddl_params_init(&p);
	KUNIT_EXPECT_EQ(test, p.rate, 0ULL);
	KUNIT_EXPECT_EQ(test, p.burst_ns, 0ULL);
	KUNIT_EXPECT_EQ(test, p.target_us, TC_DDL_AUTO);
	KUNIT_EXPECT_EQ(test, p.target_bytes, 0ULL);
	KUNIT_EXPECT_EQ(test, p.lead_us, TC_DDL_AUTO);
	KUNIT_EXPECT_EQ(test, p.lead_ns, 0ULL);
	KUNIT_EXPECT_EQ(test, p.interval_us, DDL_INTERVAL_DEFAULT);
	KUNIT_EXPECT_EQ(test, p.maxperiod_us, DDL_MAXPERIOD_DEFAULT);
}

struct ddl_lead_case {
	const char	*name;
	u64		rate;
	u32		target;
	u32		target_us;
	u32		lead_us;
	u32		maxperiod_us;
	u64		lead_ns;
};

static const struct ddl_lead_case ddl_lead_cases[] = {
	{ "auto_with_auto_target", DDL_GBIT(1), 0, TC_DDL_AUTO, TC_DDL_AUTO,
	  DDL_MAXPERIOD_DEFAULT, 20000000 },
	{ "auto_no_rate", 0, 0, TC_DDL_AUTO, TC_DDL_AUTO,
	  DDL_MAXPERIOD_DEFAULT, 0 },
	{ "auto_target_off", DDL_GBIT(1), 0, 0, TC_DDL_AUTO,
	  DDL_MAXPERIOD_DEFAULT, 0 },
	{ "auto_target_bytes_no_rate", 0, 30000, 0, TC_DDL_AUTO,
	  DDL_MAXPERIOD_DEFAULT, 20000000 },
	{ "auto_quarter_maxperiod", DDL_GBIT(1), 0, TC_DDL_AUTO, TC_DDL_AUTO,
	  40000, 10000000 },
	{ "auto_maxperiod_min", DDL_GBIT(1), 0, TC_DDL_AUTO, TC_DDL_AUTO,
	  DDL_MAXPERIOD_MIN, 250000 },
	{ "given", DDL_GBIT(1), 0, TC_DDL_AUTO, 5000,
	  DDL_MAXPERIOD_DEFAULT, 5000000 },
	{ "given_off", DDL_GBIT(1), 0, TC_DDL_AUTO, 0,
	  DDL_MAXPERIOD_DEFAULT, 0 },
};

KUNIT_ARRAY_PARAM_DESC(ddl_lead, ddl_lead_cases, name);

/*
 * lead_ns is the lead in force: the one given, or for auto
 * DDL_LEAD_AUTO_US but at most a quarter of maxperiod; none without a
 * target in force.
 */
static void ddl_params_lead_test(struct kunit *test)
{
	const struct ddl_lead_case *c = test->param_value;
	struct ddl_params p;

	ddl_params_init(&p);
	p.rate = c->rate;
	p.target = c->target;
	p.target_us = c->target_us;
	p.lead_us = c->lead_us;
	p.maxperiod_us = c->maxperiod_us;
	ddl_params_derive(&p);
	KUNIT_EXPECT_EQ(test, p.lead_ns, c->lead_ns);
}

/* sch_ddl_pace: the shaper in the scheduler */

/*
 * The queue is held from a packet's send until the next departure time;
 * a hold period counts once in throttles however often the shaper is
 * asked, and its time, packet and bytes count at the next send.
 */
static void ddl_pace_hold_accounting_test(struct kunit *test)
{
	struct ddl_sim *sim = ddl_psim_new(test, 4);
	struct ddl_sched *s = &sim->s;
	const u64 t0 = DDL_P_T0;
	u32 i;

	sim->p.rate = DDL_GBIT(1);	/* 1500 bytes: 12 us */
	sim->p.burst = 3000;
	ddl_params_derive(&sim->p);
	ddl_activate(s, &sim->p, 0, t0);

	/* Idle before: the burst and one packet leave at once. */
	for (i = 0; i < 3; i++) {
		KUNIT_EXPECT_FALSE_MSG(test, ddl_pace_hold(&s->pace, &sim->p, t0),
				       "packet %u", i);
		ddl_psim_send(sim, 0, 1500, t0);
	}
	KUNIT_EXPECT_EQ(test, s->pace.next, t0 + 12000);
	KUNIT_EXPECT_EQ(test, s->pace.throttles, 0ULL);

	KUNIT_EXPECT_TRUE(test, ddl_pace_hold(&s->pace, &sim->p, t0));
	KUNIT_EXPECT_EQ(test, s->pace.throttles, 1ULL);
	KUNIT_EXPECT_TRUE(test, ddl_pace_hold(&s->pace, &sim->p, t0 + 5000));
	KUNIT_EXPECT_TRUE(test, ddl_pace_hold(&s->pace, &sim->p, t0 + 11999));
	KUNIT_EXPECT_EQ(test, s->pace.throttles, 1ULL);
	KUNIT_EXPECT_FALSE(test, ddl_pace_hold(&s->pace, &sim->p, t0 + 12000));
	KUNIT_EXPECT_EQ(test, s->pace.throttles, 1ULL);
	ddl_psim_send(sim, 0, 1500, t0 + 12000);
	KUNIT_EXPECT_EQ(test, s->pace.throttled_ns, 12000ULL);
	KUNIT_EXPECT_EQ(test, s->pace.paced_pkts, 1ULL);
	KUNIT_EXPECT_EQ(test, s->pace.paced_bytes, 1500ULL);
	KUNIT_EXPECT_EQ(test, s->pace.next, t0 + 24000);

	/* A second hold period, asked first at 20 us, ends with a late send. */
	KUNIT_EXPECT_TRUE(test, ddl_pace_hold(&s->pace, &sim->p, t0 + 20000));
	KUNIT_EXPECT_EQ(test, s->pace.throttles, 2ULL);
	KUNIT_EXPECT_FALSE(test, ddl_pace_hold(&s->pace, &sim->p, t0 + 30000));
	ddl_psim_send(sim, 0, 9000, t0 + 30000);
	KUNIT_EXPECT_EQ(test, s->pace.throttles, 2ULL);
	KUNIT_EXPECT_EQ(test, s->pace.throttled_ns, 22000ULL);
	KUNIT_EXPECT_EQ(test, s->pace.paced_pkts, 2ULL);
	KUNIT_EXPECT_EQ(test, s->pace.paced_bytes, 10500ULL);
	KUNIT_EXPECT_EQ(test, s->pace.next, t0 + 24000 + 72000);

	/* A packet sent without a hold is not a paced one. */
	KUNIT_EXPECT_FALSE(test, ddl_pace_hold(&s->pace, &sim->p, t0 + DDL_P_SEC));
	ddl_psim_send(sim, 0, 1500, t0 + DDL_P_SEC);
	KUNIT_EXPECT_EQ(test, s->pace.paced_pkts, 2ULL);
	KUNIT_EXPECT_EQ(test, s->pace.throttled_ns, 22000ULL);
	KUNIT_EXPECT_EQ(test, s->pace.throttles, 2ULL);
}

struct ddl_greedy_case {
	const char	*name;
	u64		rate;
	u32		burst;
	u32		len;
	u32		n;
	u64		late_ns;	/* the watchdog fires this late */
};

static const struct ddl_greedy_case ddl_greedy_cases[] = {
	{ "1Gbit_1514B", DDL_GBIT(1), 0, 1514, 2000, 0 },
	{ "100Gbit_64KiB", DDL_GBIT(100), 0, 65536, 2000, 0 },
	{ "10Mbit_1514B_late_timer", DDL_MBIT(10), 0, 1514, 500,
	  100 * DDL_P_US },
	{ "odd_rate_one_byte_burst", DDL_ODD_RATE, 1, 1514, 1000, 0 },
	{ "1kbit_64KiB", DDL_KBIT(1), 0, 65536, 20, 0 },
};

KUNIT_ARRAY_PARAM_DESC(ddl_greedy, ddl_greedy_cases, name);

/*
 * A backlog of n packets sent as the glue does: ask ddl_pace_hold() before
 * each packet, sleep until pace_next when held.  Every hold period counts
 * once; the time held, the packets and bytes sent after a hold add up; the
 * last departure time is exact.
 */
static void ddl_pace_greedy_test(struct kunit *test)
{
	const struct ddl_greedy_case *c = test->param_value;
	struct ddl_sim *sim = ddl_psim_new(test, 2);
	struct ddl_sched *s = &sim->s;
	u64 now = DDL_P_T0 * 100, held = 0, q, r;
	u32 sent = 0, waits = 0;
	bool after_hold = false;

	sim->p.rate = c->rate;
	sim->p.burst = c->burst;
	ddl_params_derive(&sim->p);
	KUNIT_ASSERT_LT(test, c->late_ns, sim->p.burst_ns);
	ddl_activate(s, &sim->p, 1, now);

	while (sent < c->n) {
		u64 next = s->pace.next;

		if (ddl_pace_hold(&s->pace, &sim->p, now)) {
			KUNIT_ASSERT_GT(test, next, now);
			/* Asking again halfway changes nothing. */
			KUNIT_EXPECT_TRUE(test, ddl_pace_hold(&s->pace, &sim->p,
							      now + (next - now) / 2));
			held += next + c->late_ns - now;
			now = next + c->late_ns;
			waits++;
			after_hold = true;
			continue;
		}
		ddl_psim_send(sim, 1, c->len, now);
		sent++;
		KUNIT_EXPECT_EQ(test, s->pace.paced_pkts, (u64)waits);
		after_hold = false;
	}
	KUNIT_EXPECT_FALSE(test, after_hold);
	KUNIT_EXPECT_EQ(test, s->pace.throttles, (u64)waits);
	KUNIT_EXPECT_EQ(test, s->pace.throttled_ns, held);
	KUNIT_EXPECT_EQ(test, s->pace.paced_pkts, (u64)waits);
	KUNIT_EXPECT_EQ(test, s->pace.paced_bytes, (u64)waits * c->len);
	KUNIT_EXPECT_GT(test, waits, 0U);

	/* From the idle start, now - burst_ns, at the rate, to the ns. */
	q = div64_u64_rem((u64)c->n * c->len * DDL_P_SEC, c->rate, &r);
	KUNIT_EXPECT_GE(test, s->pace.next,
			DDL_P_T0 * 100 - sim->p.burst_ns + q);
	KUNIT_EXPECT_LE(test, s->pace.next,
			DDL_P_T0 * 100 - sim->p.burst_ns + q + (r ? 1 : 0));
}

/* Without a rate nothing is ever held and nothing is accounted. */
static void ddl_pace_no_rate_test(struct kunit *test)
{
	struct ddl_sim *sim = ddl_psim_new(test, 2);
	struct ddl_sched *s = &sim->s;
	u32 i;

	ddl_params_derive(&sim->p);
	ddl_activate(s, &sim->p, 0, DDL_P_T0);
	for (i = 0; i < 1000; i++) {
		KUNIT_EXPECT_FALSE(test, ddl_pace_hold(&s->pace, &sim->p, DDL_P_T0));
		ddl_psim_send(sim, 0, 65536, DDL_P_T0);
	}
	KUNIT_EXPECT_FALSE(test, ddl_pace_hold(&s->pace, &sim->p, 0));
	KUNIT_EXPECT_EQ(test, s->pace.throttles, 0ULL);
	KUNIT_EXPECT_EQ(test, s->pace.throttled_ns, 0ULL);
	KUNIT_EXPECT_EQ(test, s->pace.paced_pkts, 0ULL);
	KUNIT_EXPECT_EQ(test, s->pace.paced_bytes, 0ULL);
}

struct ddl_newrate_case {
	const char	*name;
	u64		old_rate;
	u64		new_rate;
	u32		len;
};

static const struct ddl_newrate_case ddl_newrate_cases[] = {
	{ "1kbit_to_1Gbit", DDL_KBIT(1), DDL_GBIT(1), 1500 },
	{ "1Gbit_to_1Mbit", DDL_GBIT(1), DDL_MBIT(1), 1500 },
	{ "10Mbit_to_100Gbit", DDL_MBIT(10), DDL_GBIT(100), 65536 },
};

KUNIT_ARRAY_PARAM_DESC(ddl_newrate, ddl_newrate_cases, name);

/*
 * A new rate takes effect at the next packet, which may leave at once even
 * while the old rate held the queue back, but without idle credit: a rate
 * change is no licence for a burst.  The packets after it follow the new
 * rate, len / rate apart.
 */
static void ddl_pace_new_rate_test(struct kunit *test)
{
	const struct ddl_newrate_case *c = test->param_value;
	struct ddl_sim *sim = ddl_psim_new(test, 2);
	struct ddl_sched *s = &sim->s;
	u64 t = DDL_P_T0, gap, prev, bytes = 0, burst;
	struct ddl_params old;

	sim->p.rate = c->old_rate;
	sim->p.burst = 1;
	ddl_params_derive(&sim->p);
	ddl_activate(s, &sim->p, 0, t);
	ddl_psim_send(sim, 0, 65536, t);
	ddl_psim_send(sim, 0, 65536, t);
	KUNIT_ASSERT_TRUE(test, ddl_pace_hold(&s->pace, &sim->p, t + 10));

	old = sim->p;
	sim->p.rate = c->new_rate;
	sim->p.burst = 0;
	ddl_params_derive(&sim->p);
	t += 20;
	ddl_reconfigure(s, &old, &sim->p, t);
	burst = ddl_p_burst_bytes(c->new_rate, 0);

	while (!ddl_pace_hold(&s->pace, &sim->p, t)) {
		ddl_psim_send(sim, 0, c->len, t);
		bytes += c->len;
		KUNIT_ASSERT_LE(test, bytes, burst + c->len);
	}
	KUNIT_EXPECT_EQ(test, bytes, (u64)c->len);
	KUNIT_EXPECT_EQ(test, s->pace.paced_pkts, 1ULL);
	KUNIT_EXPECT_EQ(test, s->pace.throttled_ns, 10ULL);

	/* Then one packet per len / rate. */
	gap = div64_u64((u64)c->len * DDL_P_SEC, c->new_rate);
	t = s->pace.next;
	ddl_psim_send(sim, 0, c->len, t);
	prev = s->pace.next;
	KUNIT_EXPECT_GE(test, prev - t, gap);
	KUNIT_EXPECT_LE(test, prev - t, gap + 1);
	ddl_psim_send(sim, 0, c->len, prev);
	KUNIT_EXPECT_GE(test, s->pace.next - prev, gap);
	KUNIT_EXPECT_LE(test, s->pace.next - prev, gap + 1);
}

/* Reconfiguring something else leaves a held queue held. */
static void ddl_pace_other_change_keeps_hold_test(struct kunit *test)
{
	struct ddl_sim *sim = ddl_psim_new(test, 2);
	struct ddl_sched *s = &sim->s;
	struct ddl_params old;
	u64 next;

	sim->p.rate = DDL_KBIT(1);
	sim->p.burst = 1;
	ddl_params_derive(&sim->p);
	ddl_activate(s, &sim->p, 0, DDL_P_T0);
	ddl_psim_send(sim, 0, 65536, DDL_P_T0);
	next = s->pace.next;
	KUNIT_ASSERT_TRUE(test, ddl_pace_hold(&s->pace, &sim->p, DDL_P_T0 + 1));

	old = sim->p;
	sim->p.slice_us = 2 * old.slice_us;
	sim->p.target = DDL_P_TARGET;
	ddl_params_derive(&sim->p);
	ddl_reconfigure(s, &old, &sim->p, DDL_P_T0 + 2);
	KUNIT_EXPECT_TRUE(test, ddl_pace_hold(&s->pace, &sim->p, DDL_P_T0 + 3));
	KUNIT_EXPECT_EQ(test, s->pace.next, next);
	KUNIT_EXPECT_EQ(test, s->pace.throttles, 1ULL);
}

/* Shaping turned off: nothing is held from then on; the hold ends there. */
static void ddl_pace_rate_off_test(struct kunit *test)
{
	struct ddl_sim *sim = ddl_psim_new(test, 2);
	struct ddl_sched *s = &sim->s;
	struct ddl_params old;
	u32 i;

	sim->p.rate = DDL_KBIT(1);
	sim->p.burst = 1;
	ddl_params_derive(&sim->p);
	ddl_activate(s, &sim->p, 0, DDL_P_T0);
	ddl_psim_send(sim, 0, 65536, DDL_P_T0);
	KUNIT_ASSERT_TRUE(test, ddl_pace_hold(&s->pace, &sim->p, DDL_P_T0 + 100));

	old = sim->p;
	sim->p.rate = 0;
	sim->p.burst = 0;
	ddl_params_derive(&sim->p);
	ddl_reconfigure(s, &old, &sim->p, DDL_P_T0 + 700);
	KUNIT_EXPECT_EQ(test, s->pace.throttled_ns, 600ULL);
	for (i = 0; i < 10; i++) {
		KUNIT_EXPECT_FALSE(test, ddl_pace_hold(&s->pace, &sim->p,
						       DDL_P_T0 + 800));
		ddl_psim_send(sim, 0, 65536, DDL_P_T0 + 800);
	}
	KUNIT_EXPECT_EQ(test, s->pace.throttled_ns, 600ULL);
	KUNIT_EXPECT_EQ(test, s->pace.throttles, 1ULL);
}

/*
 * A queue emptied while held (reset, purge): the time held ends there, no
 * packet counts as paced, and a later hold is a new one.  Without a hold,
 * releasing changes nothing.
 */
static void ddl_pace_release_test(struct kunit *test)
{
	struct ddl_sim *sim = ddl_psim_new(test, 2);
	struct ddl_sched *s = &sim->s;
	u64 next;

	sim->p.rate = DDL_KBIT(1);
	sim->p.burst = 1;
	ddl_params_derive(&sim->p);
	ddl_activate(s, &sim->p, 0, DDL_P_T0);
	ddl_pace_release(&s->pace, DDL_P_T0);
	KUNIT_EXPECT_EQ(test, s->pace.throttled_ns, 0ULL);

	ddl_psim_send(sim, 0, 65536, DDL_P_T0);
	next = s->pace.next;
	KUNIT_ASSERT_TRUE(test, ddl_pace_hold(&s->pace, &sim->p, DDL_P_T0 + 100));
	ddl_pace_release(&s->pace, DDL_P_T0 + 400);
	KUNIT_EXPECT_EQ(test, s->pace.throttled_ns, 300ULL);
	ddl_pace_release(&s->pace, DDL_P_T0 + 900);
	KUNIT_EXPECT_EQ(test, s->pace.throttled_ns, 300ULL);

	ddl_psim_send(sim, 0, 1500, next);
	KUNIT_EXPECT_EQ(test, s->pace.paced_pkts, 0ULL);
	KUNIT_EXPECT_EQ(test, s->pace.paced_bytes, 0ULL);
	KUNIT_EXPECT_EQ(test, s->pace.throttled_ns, 300ULL);
	KUNIT_EXPECT_EQ(test, s->pace.throttles, 1ULL);

	KUNIT_ASSERT_TRUE(test, ddl_pace_hold(&s->pace, &sim->p, next + 1000));
	KUNIT_EXPECT_EQ(test, s->pace.throttles, 2ULL);
	ddl_psim_send(sim, 0, 1500, s->pace.next);
	KUNIT_EXPECT_EQ(test, s->pace.paced_pkts, 1ULL);
}

static struct kunit_case ddl_pace_test_cases[] = {
	KUNIT_CASE_PARAM(ddl_edt_idle_credit_test, ddl_credit_gen_params),
	KUNIT_CASE_PARAM(ddl_edt_span_test, ddl_span_gen_params),
	KUNIT_CASE_PARAM(ddl_params_derive_test, ddl_derive_gen_params),
	KUNIT_CASE(ddl_params_auto_floor_test),
	KUNIT_CASE(ddl_params_init_no_shaping_test),
	KUNIT_CASE_PARAM(ddl_params_lead_test, ddl_lead_gen_params),
	KUNIT_CASE(ddl_pace_hold_accounting_test),
	KUNIT_CASE_PARAM(ddl_pace_greedy_test, ddl_greedy_gen_params),
	KUNIT_CASE(ddl_pace_no_rate_test),
	KUNIT_CASE_PARAM(ddl_pace_new_rate_test, ddl_newrate_gen_params),
	KUNIT_CASE(ddl_pace_other_change_keeps_hold_test),
	KUNIT_CASE(ddl_pace_rate_off_test),
	KUNIT_CASE(ddl_pace_release_test),
	{}
};

static struct kunit_suite ddl_pace_test_suite = {
	.name = "sch_ddl_pace",
	.init = ddl_sched_init_case,
	.exit = ddl_sched_exit,
	.test_cases = ddl_pace_test_cases,
};

/* sch_ddl_aqm: ddl_aqm() */

/* ddl_aqm() as the glue calls it: told whether a lead window is open. */
static enum ddl_signal ddl_t_aqm(struct ddl_sched *s,
				 const struct ddl_params *p, u64 other, u32 len,
				 u64 now)
{
	return ddl_aqm(&s->pace, p, other, len, ddl_lead_open(&s->pred), now);
}

/* Without a target nothing is ever signalled, whatever the queue. */
static void ddl_aqm_no_target_test(struct kunit *test)
{
	static const u64 others[] = { 0, 1, 1000000, U32_MAX };
	static const u32 lens[] = { 1, DDL_P_PKT, 65536 };
	struct ddl_sim *sim = ddl_psim_new(test, 4);
	u32 i, j;
	u64 t;

	sim->p.interval_us = DDL_INTERVAL_MIN;
	ddl_params_derive(&sim->p);
	for (i = 0; i < ARRAY_SIZE(others); i++)
		for (j = 0; j < ARRAY_SIZE(lens); j++)
			for (t = DDL_P_T0; t < DDL_P_T0 + 100 * DDL_P_MS;
			     t += 50 * DDL_P_US)
				KUNIT_EXPECT_EQ(test,
						ddl_t_aqm(&sim->s, &sim->p,
							  others[i], lens[j], t),
						DDL_SIG_NONE);
}

struct ddl_below_case {
	const char	*name;
	u64		rate;
	u32		target;
	u32		target_us;
	u32		len;
	s64		delta;		/* other + len = target_bytes + delta */
};

static const struct ddl_below_case ddl_below_cases[] = {
	{ "empty", 0, DDL_P_TARGET, 0, DDL_P_PKT,
	  (s64)DDL_P_PKT - DDL_P_TARGET },
	{ "one_below", 0, DDL_P_TARGET, 0, DDL_P_PKT, -1 },
	{ "at_target", 0, DDL_P_TARGET, 0, DDL_P_PKT, 0 },
	{ "one_packet_of_target_size", 0, DDL_P_TARGET, 0, DDL_P_TARGET, 0 },
	{ "time_target_at_1Gbit_one_below", DDL_GBIT(1), 0, 5000, 65536, -1 },
	{ "time_target_at_1Gbit_at", DDL_GBIT(1), 0, 5000, 65536, 0 },
	{ "target_one_byte_at", 0, 1, 0, 1, 0 },
};

KUNIT_ARRAY_PARAM_DESC(ddl_below, ddl_below_cases, name);

/*
 * A packet that leaves the queue at or below the target is never
 * signalled, however long the queue stays there.
 */
static void ddl_aqm_at_or_below_test(struct kunit *test)
{
	const struct ddl_below_case *c = test->param_value;
	struct ddl_sim *sim = ddl_psim_new(test, 4);
	u64 t, other;

	sim->p.rate = c->rate;
	sim->p.target = c->target;
	sim->p.target_us = c->target_us;
	ddl_params_derive(&sim->p);
	KUNIT_ASSERT_GT(test, sim->p.target_bytes, 0ULL);
	other = sim->p.target_bytes + c->delta - c->len;
	for (t = DDL_P_T0; t < DDL_P_T0 + 100 * DDL_P_MS; t += DDL_P_MS)
		KUNIT_EXPECT_EQ(test,
				ddl_t_aqm(&sim->s, &sim->p, other, c->len, t),
				DDL_SIG_NONE);
}

struct ddl_above_case {
	const char	*name;
	u32		interval_us;
	u64		steps[4];	/* call spacing, cycled */
	u64		span;		/* above target this long */
	u32		len;
	u64		rate;
	u32		target_us;
};

static const struct ddl_above_case ddl_above_cases[] = {
	{ "10ms_every_1ms", 10000,
	  { DDL_P_MS, DDL_P_MS, DDL_P_MS, DDL_P_MS }, 55 * DDL_P_MS,
	  DDL_P_PKT },
	{ "100us_every_10us", 100,
	  { 10 * DDL_P_US, 10 * DDL_P_US, 10 * DDL_P_US, 10 * DDL_P_US },
	  1050 * DDL_P_US, DDL_P_PKT },
	{ "1ms_every_1ms", 1000,
	  { DDL_P_MS, DDL_P_MS, DDL_P_MS, DDL_P_MS }, 20 * DDL_P_MS,
	  DDL_P_PKT },
	{ "1ms_every_3ms", 1000,
	  { 3 * DDL_P_MS, 3 * DDL_P_MS, 3 * DDL_P_MS, 3 * DDL_P_MS },
	  30 * DDL_P_MS, DDL_P_PKT },
	{ "10ms_irregular", 10000,
	  { 700 * DDL_P_US, 3 * DDL_P_MS, 1, 4100 * DDL_P_US },
	  100 * DDL_P_MS, DDL_P_PKT },
	{ "10s_every_100ms", 10000000,
	  { 100 * DDL_P_MS, 100 * DDL_P_MS, 100 * DDL_P_MS, 100 * DDL_P_MS },
	  35 * DDL_P_SEC, DDL_P_PKT },
	{ "one_byte_packets", 10000,
	  { DDL_P_MS, DDL_P_MS, DDL_P_MS, DDL_P_MS }, 55 * DDL_P_MS, 1 },
	{ "time_target_10ms_every_1ms", 10000,
	  { DDL_P_MS, DDL_P_MS, DDL_P_MS, DDL_P_MS }, 55 * DDL_P_MS,
	  65536, DDL_GBIT(1), 5000 },
};

KUNIT_ARRAY_PARAM_DESC(ddl_above, ddl_above_cases, name);

/*
 * Packets that take the queue above target (other + len, one byte over),
 * outside a lead window: nothing until the queue has stayed above for
 * interval_us, then one signal, then one per interval_us while it stays
 * above: a call is signalled exactly when it has been above for an
 * interval and the last signal is an interval old.
 */
static void ddl_aqm_interval_test(struct kunit *test)
{
	const struct ddl_above_case *c = test->param_value;
	struct ddl_sim *sim = ddl_psim_new(test, 4);
	const u64 interval = c->interval_us * DDL_P_US, t0 = DDL_P_T0;
	u64 t = t0, last = 0, signals = 0, other;
	enum ddl_signal sig, want;
	bool signalled = false;
	u32 k = 0;

	sim->p.interval_us = c->interval_us;
	sim->p.rate = c->rate;
	sim->p.target_us = c->target_us;
	sim->p.target = c->target_us ? 0 : DDL_P_TARGET;
	ddl_params_derive(&sim->p);
	other = sim->p.target_bytes + 1 - c->len;

	for (t = t0; t <= t0 + c->span; t += c->steps[k++ % 4]) {
		want = t - t0 >= interval &&
		       (!signalled || t - last >= interval) ?
		       DDL_SIG_TARGET : DDL_SIG_NONE;
		sig = ddl_t_aqm(&sim->s, &sim->p, other, c->len, t);
		KUNIT_EXPECT_EQ_MSG(test, sig, want, "at %llu ns", t - t0);
		if (sig == DDL_SIG_TARGET) {
			signalled = true;
			last = t;
			signals++;
		}
	}
	/* Never more than one per interval. */
	KUNIT_EXPECT_LE(test, signals, div64_u64(c->span, interval));
	KUNIT_EXPECT_GT(test, signals, 0ULL);
}

/*
 * The target watches the background only, so a change of green (in mode
 * fair, every burst) does not restart its interval: the background above
 * target across the jobs' turns is signalled one interval after it went
 * above.
 */
static void ddl_aqm_green_change_test(struct kunit *test)
{
	struct ddl_sim *sim = ddl_psim_new(test, 4);
	u64 t0 = DDL_P_T0, interval, other;

	sim->p.mode = TC_DDL_MODE_FAIR;
	sim->p.target = DDL_P_TARGET;
	ddl_params_derive(&sim->p);
	interval = sim->p.interval_us * DDL_P_US;
	other = sim->p.target_bytes;

	KUNIT_EXPECT_TRUE(test, ddl_psim_burst(sim, 0, t0, 3000));
	KUNIT_EXPECT_EQ(test, sim->s.green, 0U);
	KUNIT_EXPECT_EQ(test, ddl_t_aqm(&sim->s, &sim->p, other, 1, sim->now),
			DDL_SIG_NONE);
	KUNIT_EXPECT_TRUE(test, ddl_psim_burst(sim, 1, sim->now + DDL_P_MS,
					       3000));
	KUNIT_EXPECT_EQ(test, sim->s.green, 1U);
	KUNIT_EXPECT_EQ(test, ddl_t_aqm(&sim->s, &sim->p, other, 1,
					t0 + interval + 10 * DDL_P_US),
			DDL_SIG_TARGET);
}

struct ddl_reset_case {
	const char	*name;
	u64		drop;		/* below: other + len = target + 1 - drop */
};

static const struct ddl_reset_case ddl_reset_cases[] = {
	{ "to_target", 1 },
	{ "to_one_below", 2 },
	{ "to_one_packet", DDL_P_TARGET + 1 - DDL_P_PKT },
};

KUNIT_ARRAY_PARAM_DESC(ddl_reset, ddl_reset_cases, name);

/* ddl_aqm() stays silent for arrivals of @other bytes every ms in [@t, @end). */
static void ddl_aqm_expect_quiet(struct kunit *test, struct ddl_sched *s,
				 const struct ddl_params *p, u64 other, u64 t,
				 u64 end)
{
	for (; t < end; t += DDL_P_MS)
		KUNIT_EXPECT_EQ_MSG(test, ddl_t_aqm(s, p, other, DDL_P_PKT, t),
				    DDL_SIG_NONE, "at %llu", t);
}

/*
 * Dropping to or below the target resets the control: going above again
 * starts a new interval, whether or not a signal was given before.
 */
static void ddl_aqm_reset_test(struct kunit *test)
{
	const struct ddl_reset_case *c = test->param_value;
	struct ddl_sim *sim = ddl_psim_new(test, 4);
	const u64 above = DDL_P_TARGET + 1 - DDL_P_PKT, below = above - c->drop;
	const u64 interval = 10 * DDL_P_MS;
	struct ddl_sched *s = &sim->s;
	const struct ddl_params *p = &sim->p;
	u64 t = DDL_P_T0, t1;

	sim->p.target = DDL_P_TARGET;
	ddl_params_derive(&sim->p);

	/* Above for just under an interval, then down: nothing. */
	ddl_aqm_expect_quiet(test, s, p, above, t, DDL_P_T0 + interval);
	t = DDL_P_T0 + interval;
	KUNIT_EXPECT_EQ(test, ddl_t_aqm(s, p, below, DDL_P_PKT, t),
			DDL_SIG_NONE);

	/* Above again: a full interval from now. */
	t1 = t + DDL_P_MS;
	ddl_aqm_expect_quiet(test, s, p, above, t1, t1 + interval);
	KUNIT_EXPECT_EQ(test, ddl_t_aqm(s, p, above, DDL_P_PKT, t1 + interval),
			DDL_SIG_TARGET);

	/* After a signal: down and up again, again a full interval. */
	t = t1 + interval + DDL_P_MS;
	KUNIT_EXPECT_EQ(test, ddl_t_aqm(s, p, below, DDL_P_PKT, t),
			DDL_SIG_NONE);
	t1 = t + 5 * interval;
	ddl_aqm_expect_quiet(test, s, p, above, t1, t1 + interval);
	KUNIT_EXPECT_EQ(test, ddl_t_aqm(s, p, above, DDL_P_PKT, t1 + interval),
			DDL_SIG_TARGET);
}

/*
 * A dequeue that finds the queue drained to the target restarts the
 * interval: an arrival above target right after waits a full interval.
 */
static void ddl_aqm_drained_test(struct kunit *test)
{
	struct ddl_sim *sim = ddl_psim_new(test, 4);
	const u64 above = DDL_P_TARGET + 1 - DDL_P_PKT;
	const u64 interval = 10 * DDL_P_MS;
	struct ddl_sched *s = &sim->s;
	const struct ddl_params *p = &sim->p;
	u64 t = DDL_P_T0, t1;

	sim->p.target = DDL_P_TARGET;
	ddl_params_derive(&sim->p);

	ddl_aqm_expect_quiet(test, s, p, above, t, DDL_P_T0 + interval);
	t = DDL_P_T0 + interval;
	/* Drained between two arrivals; still above at a dequeue: no reset. */
	ddl_aqm_drained(&s->pace, p, DDL_P_TARGET + 1);
	KUNIT_EXPECT_EQ(test, ddl_t_aqm(s, p, above, DDL_P_PKT, t),
			DDL_SIG_TARGET);

	t += 2 * interval;
	ddl_aqm_drained(&s->pace, p, DDL_P_TARGET);
	t1 = t;
	ddl_aqm_expect_quiet(test, s, p, above, t1, t1 + interval);
	KUNIT_EXPECT_EQ(test, ddl_t_aqm(s, p, above, DDL_P_PKT, t1 + interval),
			DDL_SIG_TARGET);
}

/*
 * In an open lead window every packet that would take the queue above
 * target is signalled DDL_SIG_LEAD, at once; one that would not, none.
 * Outside the window, before it, after the hit that closes it and after a
 * window that missed, never DDL_SIG_LEAD, and at most one signal per
 * interval.
 */
static void ddl_aqm_lead_window_test(struct kunit *test)
{
	struct ddl_sim *sim = ddl_psim_new(test, 4);
	const u64 period = 100 * DDL_P_MS, lead = 10 * DDL_P_MS;
	const u64 interval = DDL_INTERVAL_DEFAULT * DDL_P_US;
	const u64 above = DDL_P_TARGET + 1 - DDL_P_PKT;
	const u64 at = DDL_P_TARGET - DDL_P_PKT;
	const struct ddl_params *p = &sim->p;
	struct ddl_sched *s = &sim->s;
	u64 t, tt, last = 0;
	enum ddl_signal sig;
	u32 n = 0, w;

	ddl_psim_predict(sim, 10000);
	t = ddl_psim_periodic(sim, 0, DDL_P_T0, period, 4, 30000);

	for (w = 0; w < 2; w++) {
		/* Before the window: at target, nothing. */
		for (tt = sim->now + 100 * DDL_P_US; tt < t + period - lead;
		     tt += 100 * DDL_P_US) {
			ddl_window(&s->pred, p, tt);
			KUNIT_ASSERT_EQ(test, ddl_t_aqm(s, p, at, DDL_P_PKT, tt),
					DDL_SIG_NONE);
		}
		/* In it: every packet above target, at once. */
		for (tt = t + period - lead; tt < t + period;
		     tt += 100 * DDL_P_US) {
			ddl_window(&s->pred, p, tt);
			KUNIT_ASSERT_EQ(test, ddl_lead_job(s), 0U);
			if (++n % 5) {
				KUNIT_ASSERT_EQ(test,
						ddl_t_aqm(s, p, above, DDL_P_PKT,
							  tt),
						DDL_SIG_LEAD);
			} else {
				KUNIT_ASSERT_EQ(test,
						ddl_t_aqm(s, p, at, DDL_P_PKT,
							  tt),
						DDL_SIG_NONE);
			}
		}
		sim->now = tt;
		t += period;
		if (!w)
			KUNIT_EXPECT_TRUE(test,
					  ddl_psim_burst(sim, 0, t, 30000));
	}
	/* The second window misses: LEAD until pred + lead, then never. */
	for (tt = t; tt < t + lead; tt += 100 * DDL_P_US) {
		ddl_window(&s->pred, p, tt);
		KUNIT_ASSERT_EQ(test, ddl_t_aqm(s, p, above, DDL_P_PKT, tt),
				DDL_SIG_LEAD);
	}
	KUNIT_EXPECT_EQ(test, s->pred.hits, 1ULL);
	for (tt = t + lead; tt < t + 5 * period; tt += 100 * DDL_P_US) {
		ddl_window(&s->pred, p, tt);
		sig = ddl_t_aqm(s, p, above, DDL_P_PKT, tt);
		KUNIT_ASSERT_NE(test, sig, DDL_SIG_LEAD);
		if (sig == DDL_SIG_TARGET) {
			KUNIT_EXPECT_TRUE(test, !last || tt - last >= interval);
			last = tt;
		}
	}
	KUNIT_EXPECT_EQ(test, s->pred.misses, 1ULL);
	KUNIT_EXPECT_NE(test, last, 0ULL);
}

static struct kunit_case ddl_aqm_test_cases[] = {
	KUNIT_CASE(ddl_aqm_no_target_test),
	KUNIT_CASE_PARAM(ddl_aqm_at_or_below_test, ddl_below_gen_params),
	KUNIT_CASE_PARAM(ddl_aqm_interval_test, ddl_above_gen_params),
	KUNIT_CASE(ddl_aqm_green_change_test),
	KUNIT_CASE_PARAM(ddl_aqm_reset_test, ddl_reset_gen_params),
	KUNIT_CASE(ddl_aqm_lead_window_test),
	KUNIT_CASE(ddl_aqm_drained_test),
	{}
};

static struct kunit_suite ddl_aqm_test_suite = {
	.name = "sch_ddl_aqm",
	.init = ddl_sched_init_case,
	.exit = ddl_sched_exit,
	.test_cases = ddl_aqm_test_cases,
};

kunit_test_suites(&ddl_pace_test_suite, &ddl_aqm_test_suite);

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("KUnit tests for the sch_ddl shaper and queue target");
