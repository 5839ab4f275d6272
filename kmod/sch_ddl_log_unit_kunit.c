// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests of ddl_log.c alone: the histogram's buckets and its quantile
 * estimates.  The log calls no other unit, so this module builds the log
 * only; what the log records as the core runs is in sch_ddl_log_kunit.c.
 */

#include <kunit/test.h>

#include "compat.h"

#include "ddl_log.c"

/* sch_ddl_log_unit: ddl_hist_bucket() and ddl_hist_lo() */

struct ddl_bucket_case {
	const char	*name;
	u64		us;
	u32		want;
};

static const struct ddl_bucket_case ddl_bucket_cases[] = {
	{ "zero", 0, 0 },
	{ "one", 1, 1 },
	{ "two", 2, 2 },
	{ "three", 3, 2 },
	{ "four", 4, 3 },
	{ "1023", 1023, 10 },
	{ "1024", 1024, 11 },
	{ "last_bucket_starts", BIT_ULL(DDL_HIST_BUCKETS - 2),
	  DDL_HIST_BUCKETS - 1 },
	{ "below_last_bucket", BIT_ULL(DDL_HIST_BUCKETS - 2) - 1,
	  DDL_HIST_BUCKETS - 2 },
	{ "u64_max", U64_MAX, DDL_HIST_BUCKETS - 1 },
};

KUNIT_ARRAY_PARAM_DESC(ddl_bucket, ddl_bucket_cases, name);

static void ddl_hist_bucket_test(struct kunit *test)
{
	const struct ddl_bucket_case *c = test->param_value;

	KUNIT_EXPECT_EQ(test, ddl_hist_bucket(c->us), c->want);
}

/* Every bucket's lowest time falls in it, and the time below it does not. */
static void ddl_hist_lo_test(struct kunit *test)
{
	u32 b;

	KUNIT_EXPECT_EQ(test, ddl_hist_lo(0), 0);
	for (b = 1; b < DDL_HIST_BUCKETS; b++) {
		KUNIT_EXPECT_EQ(test, ddl_hist_bucket(ddl_hist_lo(b)), b);
		KUNIT_EXPECT_EQ(test, ddl_hist_bucket(ddl_hist_lo(b) - 1),
				b - 1);
	}
}

/* sch_ddl_log_unit: ddl_hist_quantile() */

static void ddl_hist_add(u32 *hist, u64 us, u32 n)
{
	hist[ddl_hist_bucket(us)] += n;
}

static void ddl_quantile_empty_test(struct kunit *test)
{
	u32 hist[DDL_HIST_BUCKETS] = {};

	KUNIT_EXPECT_EQ(test, ddl_hist_count(hist), 0);
	KUNIT_EXPECT_EQ(test, ddl_hist_quantile(hist, 0, 500), 0);
	KUNIT_EXPECT_EQ(test, ddl_hist_quantile(hist, 0, 990), 0);
}

/* One burst: the middle of its bucket, but never above the longest. */
static void ddl_quantile_one_test(struct kunit *test)
{
	u32 hist[DDL_HIST_BUCKETS] = {};

	ddl_hist_add(hist, 1500, 1);	/* bucket 1024 .. 2047 */
	KUNIT_EXPECT_EQ(test, ddl_hist_count(hist), 1);
	KUNIT_EXPECT_EQ(test, ddl_hist_quantile(hist, 1500, 500), 1500);
	KUNIT_EXPECT_EQ(test, ddl_hist_quantile(hist, 2047, 500), 1536);
	KUNIT_EXPECT_EQ(test, ddl_hist_quantile(hist, 2047, 990), 1536);
}

/*
 * 100 bursts: 90 of 1 ms (bucket 512 .. 1023 us) and 10 of 20 ms (bucket
 * 16384 .. 32767 us).  The median lies with the short ones; the 99th
 * percentile (rank 99) is the ninth of the long ones.
 */
static void ddl_quantile_two_modes_test(struct kunit *test)
{
	u32 hist[DDL_HIST_BUCKETS] = {};
	u64 p50, p99;

	ddl_hist_add(hist, 1000, 90);
	ddl_hist_add(hist, 20000, 10);
	p50 = ddl_hist_quantile(hist, 20000, 500);
	p99 = ddl_hist_quantile(hist, 20000, 990);
	/* rank 50 of 90 in [512, 1024): 512 + 512 * 99 / 180 */
	KUNIT_EXPECT_EQ(test, p50, 512 + 512 * 99 / 180);
	/* rank 9 of 10 in [16384, 32768), capped at the longest */
	KUNIT_EXPECT_EQ(test, p99, 20000);
	KUNIT_EXPECT_EQ(test, ddl_hist_quantile(hist, 40000, 990),
			16384 + 16384 * 17 / 20);
	/* Within a factor of two of the true values. */
	KUNIT_EXPECT_GE(test, p50 * 2, 1000);
	KUNIT_EXPECT_LE(test, p50, 2 * 1000);
}

/* Quantiles never decrease with the rank and stay within the range. */
static void ddl_quantile_monotonic_test(struct kunit *test)
{
	u32 hist[DDL_HIST_BUCKETS] = {};
	u64 prev = 0, q;
	u32 pm, b;

	for (b = 0; b < DDL_HIST_BUCKETS; b++)
		hist[b] = b * 7 + 1;
	for (pm = 1; pm <= 1000; pm++) {
		q = ddl_hist_quantile(hist, 9000000, pm);
		KUNIT_EXPECT_GE(test, q, prev);
		KUNIT_EXPECT_LE(test, q, 9000000);
		prev = q;
	}
}

/* The largest counts and times: no overflow. */
static void ddl_quantile_huge_test(struct kunit *test)
{
	u32 hist[DDL_HIST_BUCKETS];
	u64 q;
	u32 b;

	for (b = 0; b < DDL_HIST_BUCKETS; b++)
		hist[b] = U32_MAX;
	KUNIT_EXPECT_EQ(test, ddl_hist_count(hist),
			(u64)U32_MAX * DDL_HIST_BUCKETS);
	q = ddl_hist_quantile(hist, U32_MAX, 1000);
	KUNIT_EXPECT_GE(test, q, ddl_hist_lo(DDL_HIST_BUCKETS - 1));
	KUNIT_EXPECT_LE(test, q, U32_MAX);
	/* Rank n / 2 is the last count of bucket DDL_HIST_BUCKETS / 2 - 1. */
	q = ddl_hist_quantile(hist, U32_MAX, 500);
	KUNIT_EXPECT_GE(test, q, ddl_hist_lo(DDL_HIST_BUCKETS / 2 - 1));
	KUNIT_EXPECT_LT(test, q, ddl_hist_lo(DDL_HIST_BUCKETS / 2));
}

static struct kunit_case ddl_log_unit_test_cases[] = {
	KUNIT_CASE_PARAM(ddl_hist_bucket_test, ddl_bucket_gen_params),
	KUNIT_CASE(ddl_hist_lo_test),
	KUNIT_CASE(ddl_quantile_empty_test),
	KUNIT_CASE(ddl_quantile_one_test),
	KUNIT_CASE(ddl_quantile_two_modes_test),
	KUNIT_CASE(ddl_quantile_monotonic_test),
	KUNIT_CASE(ddl_quantile_huge_test),
	{}
};

static struct kunit_suite ddl_log_unit_test_suite = {
	.name = "sch_ddl_log_unit",
	.test_cases = ddl_log_unit_test_cases,
};

kunit_test_suite(ddl_log_unit_test_suite);

MODULE_DESCRIPTION("KUnit tests for the sch_ddl histogram");
MODULE_LICENSE("GPL");
