// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests of ddl_pace.c alone: ddl_edt_next(), the departure time of
 * one packet and the remainder it carries.  The shaper calls no other
 * unit (it asks the predictor's header whether a lead window is open), so
 * this module builds the shaper only; the shaper and the target as the
 * core runs are in sch_ddl_pace_kunit.c.
 */

#include <kunit/test.h>

#include "compat.h"

#include "ddl_pace.c"

#include "ddl_kunit.h"

/* sch_ddl_pace_unit: ddl_edt_next() */

struct ddl_edt_case {
	const char	*name;
	u64		t_next;
	u64		rem;
	u64		now;
	u32		len;
	u64		rate;
	u64		burst_ns;
	u64		want;
	u64		want_rem;
};

#define DDL_P_IDLE	(1000 * DDL_P_SEC)

static const struct ddl_edt_case ddl_edt_cases[] = {
	{ "1500B_at_1Gbit", DDL_P_T0, 0, DDL_P_T0, 1500, DDL_GBIT(1), 0,
	  DDL_P_T0 + 12000, 0 },
	{ "64B_at_1Gbit", DDL_P_T0, 0, DDL_P_T0, 64, DDL_GBIT(1), 0,
	  DDL_P_T0 + 512, 0 },
	{ "backlog_counts_from_t_next", DDL_P_T0 + 50000, 0, DDL_P_T0, 1500,
	  DDL_GBIT(1), DDL_P_MS, DDL_P_T0 + 62000, 0 },
	{ "late_within_burst_counts_from_t_next", DDL_P_T0, 0,
	  DDL_P_T0 + DDL_P_MS / 2, 1500, DDL_GBIT(1), DDL_P_MS,
	  DDL_P_T0 + 12000, 0 },
	{ "late_exactly_burst", DDL_P_T0, 0, DDL_P_T0 + DDL_P_MS, 1500,
	  DDL_GBIT(1), DDL_P_MS, DDL_P_T0 + 12000, 0 },
	{ "late_one_ns_past_burst", DDL_P_T0, 0, DDL_P_T0 + DDL_P_MS + 1, 1500,
	  DDL_GBIT(1), DDL_P_MS, DDL_P_T0 + 1 + 12000, 0 },
	{ "long_idle_credit_capped", DDL_P_T0, 0, DDL_P_T0 + DDL_P_IDLE, 1500,
	  DDL_GBIT(1), DDL_P_MS, DDL_P_T0 + DDL_P_IDLE - DDL_P_MS + 12000, 0 },
	{ "idle_without_burst_starts_now", DDL_P_T0, 0, DDL_P_T0 + 5 * DDL_P_MS,
	  1500, DDL_GBIT(1), 0, DDL_P_T0 + 5 * DDL_P_MS + 12000, 0 },
	{ "clock_below_burst", 0, 0, DDL_P_MS / 2, 1500, DDL_GBIT(1), DDL_P_MS,
	  12000, 0 },
	{ "1514B_at_100Gbit_remainder", DDL_P_T0, 0, DDL_P_T0, 1514,
	  DDL_GBIT(100), 0, DDL_P_T0 + 121, 1500000000 },
	{ "remainder_carried_in", DDL_P_T0, 11000000000ULL, DDL_P_T0, 1514,
	  DDL_GBIT(100), 0, DDL_P_T0 + 122, 0 },
	{ "1514B_at_odd_rate", DDL_P_T0, 0, DDL_P_T0, 1514, DDL_ODD_RATE, 0,
	  DDL_P_T0 + 12263, 49396493 },
	{ "64KiB_at_100Gbit", DDL_P_T0, 0, DDL_P_T0, 65536, DDL_GBIT(100), 0,
	  DDL_P_T0 + 5242, 11000000000ULL },
	{ "u32_max_at_100Gbit", DDL_P_T0, 0, DDL_P_T0, U32_MAX, DDL_GBIT(100),
	  0, DDL_P_T0 + 343597383, 7500000000ULL },
	{ "u32_max_at_rate_max_full_remainder", DDL_P_T0, DDL_RATE_MAX - 1,
	  DDL_P_T0, U32_MAX, DDL_RATE_MAX, 0, DDL_P_T0 + 34359739,
	  44999999999ULL },
	{ "1500B_at_400Gbit", DDL_P_T0, 0, DDL_P_T0, 1500, DDL_GBIT(400), 0,
	  DDL_P_T0 + 30, 0 },
	{ "1B_at_400Gbit_all_remainder", DDL_P_T0, 0, DDL_P_T0, 1,
	  DDL_GBIT(400), 0, DDL_P_T0, 1000000000 },
	{ "64KiB_at_400Gbit", DDL_P_T0, 0, DDL_P_T0, 65536, DDL_GBIT(400), 0,
	  DDL_P_T0 + 1310, 36000000000ULL },
	{ "u32_max_at_400Gbit", DDL_P_T0, 0, DDL_P_T0, U32_MAX, DDL_GBIT(400),
	  0, DDL_P_T0 + 85899345, 45000000000ULL },
	{ "1B_at_1kbit", DDL_P_T0, 0, DDL_P_T0, 1, DDL_KBIT(1), 0,
	  DDL_P_T0 + 8000000, 0 },
	{ "64KiB_at_1kbit", DDL_P_T0, 0, DDL_P_T0, 65536, DDL_KBIT(1), 0,
	  DDL_P_T0 + 524288000000ULL, 0 },
	{ "u32_max_at_1kbit", DDL_P_T0, 0, DDL_P_T0, U32_MAX, DDL_KBIT(1), 0,
	  DDL_P_T0 + 34359738360000000ULL, 0 },
};

KUNIT_ARRAY_PARAM_DESC(ddl_edt, ddl_edt_cases, name);

/*
 * One packet occupies len / rate of the link from the later of the last
 * departure time and now - burst; the remainder goes to @rem.
 */
static void ddl_edt_single_packet_test(struct kunit *test)
{
	const struct ddl_edt_case *c = test->param_value;
	u64 rem = c->rem;

	KUNIT_EXPECT_EQ(test, ddl_edt_next(c->t_next, &rem, c->now, c->len,
					   c->rate, c->burst_ns), c->want);
	KUNIT_EXPECT_EQ(test, rem, c->want_rem);
	KUNIT_EXPECT_LT(test, rem, c->rate);
}

struct ddl_bias_case {
	const char	*name;
	u64		rate;
	u32		len;		/* 0: a mix of lengths */
	u32		n;
	u64		late_ns;	/* sender late by up to 6 times this */
};

static const struct ddl_bias_case ddl_bias_cases[] = {
	{ "1514B_at_100Gbit", DDL_GBIT(100), 1514, 1000000, 0 },
	{ "1514B_at_100Gbit_late_sender", DDL_GBIT(100), 1514, 1000000, 10 },
	{ "1514B_at_odd_rate", DDL_ODD_RATE, 1514, 100000, 0 },
	{ "1514B_at_3Mbit_late_sender", DDL_MBIT(3), 1514, 10000, 1000 },
	{ "9001B_at_40Gbit", DDL_GBIT(40), 9001, 100000, 0 },
	{ "64KiB_at_7Gbit", DDL_GBIT(7), 65536, 10000, 0 },
	{ "1B_at_127Bps", 127, 1, 1000, 0 },
	{ "1514B_at_rate_max", DDL_RATE_MAX, 1514, 1000000, 0 },
	{ "mixed_at_100Gbit", DDL_GBIT(100), 0, 100000, 0 },
	{ "mixed_at_odd_rate_late_sender", DDL_ODD_RATE, 0, 100000, 100 },
};

KUNIT_ARRAY_PARAM_DESC(ddl_bias, ddl_bias_cases, name);

static const u32 ddl_mixed_len[] = { 64, 1514, 9000, 65536, 40, 576, 1500,
				     1280, 4097 };

/*
 * No truncation bias: N packets sent back to back (on time, or a little
 * late but within the burst credit) end exactly where N * len / rate says,
 * to the nanosecond.
 */
static void ddl_edt_no_bias_test(struct kunit *test)
{
	const struct ddl_bias_case *c = test->param_value;
	u64 t = DDL_P_T0, rem = 0, bytes = 0, now, q, r;
	u32 i, len;

	for (i = 0; i < c->n; i++) {
		len = c->len ?: ddl_mixed_len[i % ARRAY_SIZE(ddl_mixed_len)];
		now = t + (i % 7) * c->late_ns;
		t = ddl_edt_next(t, &rem, now, len, c->rate, DDL_P_MS);
		bytes += len;
	}
	q = div64_u64_rem(bytes * DDL_P_SEC, c->rate, &r);
	KUNIT_EXPECT_GE(test, t - DDL_P_T0, q);
	KUNIT_EXPECT_LE(test, t - DDL_P_T0, q + (r ? 1 : 0));
}

struct ddl_total_case {
	const char	*name;
	u64		rate;
	u32		len;
	u32		n;
	u64		want;	/* n * len / rate, ns, rounded down */
};

/* Worked out by hand: 400 Gbit/s is 50 bytes per ns, 1 Tbit/s 125. */
static const struct ddl_total_case ddl_total_cases[] = {
	/* Each 1 byte is 0.02 ns: without the remainder, no time at all. */
	{ "1MB_in_1B_at_400Gbit", DDL_GBIT(400), 1, 1000000, 20000 },
	{ "1.5GB_in_1500B_at_400Gbit", DDL_GBIT(400), 1500, 1000000,
	  30000000 },
	/* 2^30 / 50 = 21474836.48 ns */
	{ "1GiB_in_64KiB_at_400Gbit", DDL_GBIT(400), 65536, 16384, 21474836 },
	/* 256 * (2^32 - 1) = 2^40 - 256 bytes: 21990232550.4 ns */
	{ "1TiB_in_4GiB_at_400Gbit", DDL_GBIT(400), U32_MAX, 256,
	  21990232550ULL },
	/* (2^40 - 256) / 125 = 8796093020.16 ns */
	{ "1TiB_in_4GiB_at_rate_max", DDL_RATE_MAX, U32_MAX, 256,
	  8796093020ULL },
};

KUNIT_ARRAY_PARAM_DESC(ddl_total, ddl_total_cases, name);

/*
 * A known number of bytes sent back to back takes the time the rate
 * says, within 1 ns over the whole run (the remainder carried between
 * packets), up to a terabyte at 400 Gbit/s and at the highest rate: no
 * overflow, no truncation per packet.
 */
static void ddl_edt_total_test(struct kunit *test)
{
	const struct ddl_total_case *c = test->param_value;
	u64 t = DDL_P_T0, rem = 0;
	u32 i;

	for (i = 0; i < c->n; i++) {
		t = ddl_edt_next(t, &rem, t, c->len, c->rate, DDL_P_MS);
		KUNIT_ASSERT_LT(test, rem, c->rate);
	}
	KUNIT_EXPECT_GE(test, t - DDL_P_T0, c->want);
	KUNIT_EXPECT_LE(test, t - DDL_P_T0, c->want + 1);
}

static struct kunit_case ddl_pace_unit_test_cases[] = {
	KUNIT_CASE_PARAM(ddl_edt_single_packet_test, ddl_edt_gen_params),
	KUNIT_CASE_PARAM(ddl_edt_no_bias_test, ddl_bias_gen_params),
	KUNIT_CASE_PARAM(ddl_edt_total_test, ddl_total_gen_params),
	{}
};

static struct kunit_suite ddl_pace_unit_test_suite = {
	.name = "sch_ddl_pace_unit",
	.test_cases = ddl_pace_unit_test_cases,
};

kunit_test_suite(ddl_pace_unit_test_suite);

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("KUnit tests for the sch_ddl shaper's departure times");
