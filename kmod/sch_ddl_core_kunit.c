// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests for the sch_ddl scheduling core.
 *
 * The suite compiles ddl_core.c into its own module, so it runs without
 * sch_ddl.ko and exercises exactly the code the qdisc links.
 */

#include <kunit/test.h>

#include "ddl_core.c"

static void ddl_params_init_defaults_test(struct kunit *test)
{
	struct ddl_params p;

	memset(&p, 0xff, sizeof(p));
	ddl_params_init(&p);
	KUNIT_EXPECT_EQ(test, p.limit, DDL_LIMIT_DEFAULT);
	KUNIT_EXPECT_GE(test, p.limit, DDL_LIMIT_MIN);
	KUNIT_EXPECT_LE(test, p.limit, DDL_LIMIT_MAX);
}

struct ddl_queue_case {
	const char	*name;
	u32		limit;
	u32		qlen;
	bool		admit;
	u32		excess;
};

static const struct ddl_queue_case ddl_queue_cases[] = {
	{ "empty",		10,	0,	true,	0 },
	{ "one_below",		10,	9,	true,	0 },
	{ "full",		10,	10,	false,	0 },
	{ "over_by_one",	10,	11,	false,	1 },
	{ "shrunk_to_one",	1,	500,	false,	499 },
	{ "limit_one_empty",	1,	0,	true,	0 },
	{ "limit_one_full",	1,	1,	false,	0 },
	{ "max_limit_full",	DDL_LIMIT_MAX,	DDL_LIMIT_MAX,	false,	0 },
	{ "u32_qlen",		DDL_LIMIT_MAX,	U32_MAX,	false,
	  U32_MAX - DDL_LIMIT_MAX },
};

static void ddl_queue_case_desc(const struct ddl_queue_case *c, char *desc)
{
	strscpy(desc, c->name, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(ddl_queue, ddl_queue_cases, ddl_queue_case_desc);

static void ddl_admit_test(struct kunit *test)
{
	const struct ddl_queue_case *c = test->param_value;
	struct ddl_params p = { .limit = c->limit };

	KUNIT_EXPECT_EQ(test, ddl_admit(&p, c->qlen), c->admit);
}

static void ddl_excess_test(struct kunit *test)
{
	const struct ddl_queue_case *c = test->param_value;
	struct ddl_params p = { .limit = c->limit };

	KUNIT_EXPECT_EQ(test, ddl_excess(&p, c->qlen), c->excess);
}

/* Filling an empty queue admits exactly @limit packets, then refuses. */
static void ddl_admit_fill_test(struct kunit *test)
{
	struct ddl_params p = { .limit = 1000 };
	u32 qlen = 0, tries;

	for (tries = 0; tries < 2 * p.limit; tries++)
		if (ddl_admit(&p, qlen))
			qlen++;
	KUNIT_EXPECT_EQ(test, qlen, p.limit);
	KUNIT_EXPECT_EQ(test, ddl_excess(&p, qlen), 0U);
}

/* After dropping the excess, the queue fits: change() leaves qlen <= limit. */
static void ddl_excess_then_fits_test(struct kunit *test)
{
	struct ddl_params p = { .limit = 37 };
	u32 qlen;

	for (qlen = 0; qlen < 200; qlen++) {
		u32 left = qlen - ddl_excess(&p, qlen);

		KUNIT_EXPECT_LE(test, left, p.limit);
		KUNIT_EXPECT_EQ(test, left, min(qlen, p.limit));
	}
}

static struct kunit_case ddl_core_test_cases[] = {
	KUNIT_CASE(ddl_params_init_defaults_test),
	KUNIT_CASE_PARAM(ddl_admit_test, ddl_queue_gen_params),
	KUNIT_CASE_PARAM(ddl_excess_test, ddl_queue_gen_params),
	KUNIT_CASE(ddl_admit_fill_test),
	KUNIT_CASE(ddl_excess_then_fits_test),
	{}
};

static struct kunit_suite ddl_core_test_suite = {
	.name = "sch_ddl_core",
	.test_cases = ddl_core_test_cases,
};

kunit_test_suite(ddl_core_test_suite);

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("KUnit tests for the sch_ddl scheduling core");
