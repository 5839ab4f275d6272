// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests of ddl_predict.c alone: the moving average and the size a
 * job has learned.  The predictor calls no other unit, so this module
 * builds the predictor only; how it learns as the core runs is in
 * sch_ddl_predict_kunit.c.
 */

#include <kunit/test.h>

#include "compat.h"

#include "ddl_predict.c"

#include "ddl_kunit.h"

/* sch_ddl_predict_unit: ddl_ewma() */

struct ddl_ewma_case {
	const char	*name;
	u64		avg;
	u64		sample;
	u64		want;
};

static const struct ddl_ewma_case ddl_ewma_cases[] = {
	{ "up_a_quarter", 0, 400, 100 },
	{ "down_a_quarter", 400, 0, 300 },
	{ "equal_stays", 777, 777, 777 },
	{ "up_rounds_toward_avg", 1000, 1007, 1001 },
	{ "down_rounds_toward_avg", 1007, 1000, 1006 },
	{ "up_less_than_a_step", 1000, 1003, 1000 },
	{ "down_less_than_a_step", 1003, 1000, 1003 },
	{ "zero_to_u64_max", 0, U64_MAX, U64_MAX / 4 },
	{ "u64_max_to_zero", U64_MAX, 0, U64_MAX - U64_MAX / 4 },
	{ "half_to_u64_max", BIT_ULL(63), U64_MAX,
	  BIT_ULL(63) + BIT_ULL(61) - 1 },
	{ "u64_max_to_half", U64_MAX, BIT_ULL(63),
	  U64_MAX - BIT_ULL(61) + 1 },
	{ "near_max_up", U64_MAX - 4, U64_MAX, U64_MAX - 3 },
	{ "u64_max_stays", U64_MAX, U64_MAX, U64_MAX },
};

KUNIT_ARRAY_PARAM_DESC(ddl_ewma, ddl_ewma_cases, name);

/* One step moves a quarter of the way, rounded toward the average. */
static void ddl_ewma_step_test(struct kunit *test)
{
	const struct ddl_ewma_case *c = test->param_value;

	KUNIT_EXPECT_EQ(test, ddl_ewma(c->avg, c->sample), c->want);
}

struct ddl_conv_case {
	const char	*name;
	u64		start;
	u64		sample;
};

static const struct ddl_conv_case ddl_conv_cases[] = {
	{ "zero_to_100", 0, 100 },
	{ "100_to_zero", 100, 0 },
	{ "zero_to_100ms", 0, 100 * DDL_P_MS },
	{ "zero_to_u64_max", 0, U64_MAX },
	{ "u64_max_to_zero", U64_MAX, 0 },
	{ "near_u64_max", U64_MAX - 1000000, U64_MAX },
	{ "already_there", 5, 5 },
};

KUNIT_ARRAY_PARAM_DESC(ddl_conv, ddl_conv_cases, name);

/*
 * A constant sample: the average moves monotonically toward it, never
 * past it, and ends within one rounding step, 2^DDL_EWMA_SHIFT - 1.
 */
static void ddl_ewma_converges_test(struct kunit *test)
{
	const struct ddl_conv_case *c = test->param_value;
	const u64 step = BIT_ULL(DDL_EWMA_SHIFT) - 1;
	u64 avg = c->start, next;
	bool up = c->sample >= c->start;
	u32 i;

	for (i = 0; i < 200; i++) {
		next = ddl_ewma(avg, c->sample);
		if (up) {
			KUNIT_ASSERT_GE_MSG(test, next, avg, "step %u", i);
			KUNIT_ASSERT_LE_MSG(test, next, c->sample, "step %u", i);
		} else {
			KUNIT_ASSERT_LE_MSG(test, next, avg, "step %u", i);
			KUNIT_ASSERT_GE_MSG(test, next, c->sample, "step %u", i);
		}
		/* Each step takes at least a quarter of a large distance. */
		if (up && c->sample - avg >= 4)
			KUNIT_ASSERT_GE(test, next - avg, (c->sample - avg) / 4);
		if (!up && avg - c->sample >= 4)
			KUNIT_ASSERT_GE(test, avg - next, (avg - c->sample) / 4);
		avg = next;
	}
	if (up)
		KUNIT_EXPECT_LE(test, c->sample - avg, step);
	else
		KUNIT_EXPECT_LE(test, avg - c->sample, step);
}

/* sch_ddl_predict_unit: ddl_size_learned() */

struct ddl_learned_case {
	const char	*name;
	u32		sizes[DDL_SIZE_SAMPLES];
	u32		n;
	u32		want;
};

static const struct ddl_learned_case ddl_learned_cases[] = {
	{ "none", { 5, 6, 7 }, 0, 0 },
	{ "one", { 5, 6, 7 }, 1, 5 },
	{ "two_the_larger", { 9, 4, 7 }, 2, 9 },
	{ "two_the_larger_second", { 4, 9, 7 }, 2, 9 },
	{ "three_sorted", { 1, 2, 3 }, 3, 3 },
	{ "three_reversed", { 3, 2, 1 }, 3, 3 },
	{ "three_one_cut", { 1000, 10, 990 }, 3, 1000 },
	/* One iteration cut in two: both parts are among the three. */
	{ "three_two_halves", { 500, 1000, 500 }, 3, 1000 },
	{ "three_equal", { 7, 7, 7 }, 3, 7 },
	{ "three_max", { U32_MAX, 0, U32_MAX }, 3, U32_MAX },
};

KUNIT_ARRAY_PARAM_DESC(ddl_learned, ddl_learned_cases, name);

/* The largest of the last sizes; of none, 0. */
static void ddl_size_learned_test(struct kunit *test)
{
	const struct ddl_learned_case *c = test->param_value;

	KUNIT_EXPECT_EQ(test, ddl_size_learned(c->sizes, c->n), c->want);
}

static struct kunit_case ddl_predict_unit_test_cases[] = {
	KUNIT_CASE_PARAM(ddl_ewma_step_test, ddl_ewma_gen_params),
	KUNIT_CASE_PARAM(ddl_ewma_converges_test, ddl_conv_gen_params),
	KUNIT_CASE_PARAM(ddl_size_learned_test, ddl_learned_gen_params),
	{}
};

static struct kunit_suite ddl_predict_unit_test_suite = {
	.name = "sch_ddl_predict_unit",
	.test_cases = ddl_predict_unit_test_cases,
};

kunit_test_suite(ddl_predict_unit_test_suite);

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("KUnit tests for the sch_ddl predictor alone");
