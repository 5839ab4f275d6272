// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests for ddl_sched.c, the scheduling decisions of the sch_ddl
 * core: the configuration's defaults and the queue limit, rotation of the
 * green job (fixed slices and automatic turns), yield, the starvation
 * guard, the background share, the ACK lane, and live reconfiguration.
 *
 * The tests drive the core the way the glue does, through the simulated
 * qdisc of ddl_kunit_sim.h.
 */

#include <kunit/test.h>
#include <linux/sched.h>

#include "compat.h"

#include "ddl_kunit_core.h"

#include "ddl_kunit_sim.h"

/* sch_ddl_core: defaults, admission and excess */

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

/* sch_ddl_rotation */

#define DDL_T_SLICE_US	1000U
#define DDL_T_SLICE	(DDL_T_SLICE_US * DDL_T_US)

struct ddl_order_case {
	const char	*name;
	u32		jobs;
	u32		mode;
	u32		nact;
	u32		act[4];		/* backlogged jobs, activation order */
	u32		nseq;
	u32		seq[10];	/* green in slice 0, 1, ... */
};

static const struct ddl_order_case ddl_order_cases[] = {
	{ "all_four", 4, TC_DDL_MODE_ROTATE, 4, { 0, 1, 2, 3 },
	  7, { 0, 1, 2, 3, 0, 1, 2 } },
	{ "skips_idle_jobs", 8, TC_DDL_MODE_ROTATE, 3, { 1, 3, 6 },
	  7, { 1, 3, 6, 1, 3, 6, 1 } },
	{ "activation_order_irrelevant", 8, TC_DDL_MODE_ROTATE, 3,
	  { 6, 1, 3 }, 5, { 1, 3, 6, 1, 3 } },
	{ "two_jobs", 2, TC_DDL_MODE_ROTATE, 2, { 1, 0 },
	  5, { 0, 1, 0, 1, 0 } },
	{ "first_and_last", 16, TC_DDL_MODE_ROTATE, 2, { 15, 0 },
	  4, { 0, 15, 0, 15 } },
	{ "word_boundary_63_64", 128, TC_DDL_MODE_ROTATE, 2, { 64, 63 },
	  5, { 63, 64, 63, 64, 63 } },
	{ "jobs_1024_ends", 1024, TC_DDL_MODE_ROTATE, 3, { 1023, 511, 0 },
	  5, { 0, 511, 1023, 0, 511 } },
	{ "jobs_4096_63_64_4095", 4096, TC_DDL_MODE_ROTATE, 3,
	  { 4095, 64, 63 }, 7, { 63, 64, 4095, 63, 64, 4095, 63 } },
	{ "jobs_4096_sparse_words", 4096, TC_DDL_MODE_ROTATE, 4,
	  { 4032, 4095, 0, 2000 }, 6, { 0, 2000, 4032, 4095, 0, 2000 } },
	{ "one_job_renews", 8, TC_DDL_MODE_ROTATE, 1, { 5 },
	  4, { 5, 5, 5, 5 } },
	{ "mode_green_rotates_too", 4, TC_DDL_MODE_GREEN, 2, { 2, 0 },
	  5, { 0, 2, 0, 2, 0 } },
};

KUNIT_ARRAY_PARAM_DESC(ddl_order, ddl_order_cases, name);

/*
 * Every job backlogged for good: green moves at each slice end, exactly at
 * it, to the next backlogged job after it, cyclically.
 */
static void ddl_rotation_order_test(struct kunit *test)
{
	const struct ddl_order_case *c = test->param_value;
	struct ddl_sim *sim = ddl_sim_new(test, c->jobs);
	u64 changes = 0, greens = 0;
	u32 i;

	sim->p.mode = c->mode;
	sim->p.slice_us = DDL_T_SLICE_US;
	for (i = 0; i < c->nact; i++)
		ddl_sim_enqueue(sim, c->act[i], DDL_T_LOTS);

	for (i = 0; i < c->nseq; i++) {
		if (i) {
			u64 t = i * DDL_T_SLICE - 1;

			KUNIT_EXPECT_EQ_MSG(test, ddl_sim_send_at(sim, t),
					    c->seq[i - 1],
					    "end of slice %u", i - 1);
			changes += c->seq[i] != c->seq[i - 1];
		}
		KUNIT_EXPECT_EQ_MSG(test, ddl_sim_send_at(sim, i * DDL_T_SLICE),
				    c->seq[i], "start of slice %u", i);
		KUNIT_EXPECT_EQ(test, sim->reason, DDL_R_GREEN);
		KUNIT_EXPECT_EQ(test, sim->s.green, c->seq[i]);
	}
	KUNIT_EXPECT_EQ(test, sim->s.rotations, changes);
	for (i = 0; i < c->jobs; i++)
		greens += sim->s.cls[i].greens;
	KUNIT_EXPECT_EQ(test, greens, changes + 1);
	KUNIT_EXPECT_EQ(test, sim->s.yields, 0ULL);
}

static const u32 ddl_all_jobs[] = { 1, 2, 63, 64, 65, 1024, 4096 };

static void ddl_all_jobs_desc(const u32 *jobs, char *desc)
{
	snprintf(desc, KUNIT_PARAM_DESC_SIZE, "jobs_%u", *jobs);
}

KUNIT_ARRAY_PARAM(ddl_all_jobs, ddl_all_jobs, ddl_all_jobs_desc);

/* All jobs backlogged: every one is green once, then 0 again (wrap). */
static void ddl_rotation_all_jobs_test(struct kunit *test)
{
	const u32 jobs = *(const u32 *)test->param_value;
	struct ddl_sim *sim = ddl_sim_new(test, jobs);
	const u64 slice = DDL_SLICE_MIN * DDL_T_US;
	u32 i, idx;

	sim->p.slice_us = DDL_SLICE_MIN;
	for (i = 0; i < jobs; i++)
		ddl_sim_enqueue(sim, i, DDL_T_LOTS);

	for (i = 0; i <= jobs; i++) {
		idx = ddl_sim_send_at(sim, i * slice);
		KUNIT_EXPECT_EQ_MSG(test, idx, i % jobs, "slice %u", i);
		if (idx != i % jobs)
			break;
		KUNIT_EXPECT_EQ(test, sim->reason, DDL_R_GREEN);
	}
	KUNIT_EXPECT_EQ(test, sim->s.rotations, jobs > 1 ? (u64)jobs : 0ULL);
	KUNIT_EXPECT_EQ(test, sim->s.cls[0].greens, jobs > 1 ? 2ULL : 1ULL);
	for (i = 1; i < jobs; i++)
		KUNIT_EXPECT_EQ_MSG(test, sim->s.cls[i].greens, 1ULL, "job %u",
				    i);
}

struct ddl_bm_case {
	const char	*name;
	u32		jobs;
	u32		nset;
	u32		set[3];		/* backlogged */
	u32		nclr;
	u32		clr[2];		/* backlogged once, empty again */
	u32		from;
	u32		next;
};

static const struct ddl_bm_case ddl_bm_cases[] = {
	{ "none", 4096, 0, {}, 0, {}, 0, DDL_NONE },
	{ "none_after_clear", 4096, 0, {}, 2, { 63, 64 }, 0, DDL_NONE },
	{ "bit_63", 4096, 1, { 63 }, 0, {}, 0, 63 },
	{ "bit_64_from_63", 4096, 1, { 64 }, 0, {}, 63, 64 },
	{ "bit_63_from_64_wraps", 4096, 1, { 63 }, 0, {}, 64, 63 },
	{ "63_64_from_64", 4096, 2, { 63, 64 }, 0, {}, 64, 64 },
	{ "63_64_from_65_wraps", 4096, 2, { 63, 64 }, 0, {}, 65, 63 },
	{ "last_from_last", 4096, 1, { 4095 }, 0, {}, 4095, 4095 },
	{ "last_from_0", 4096, 1, { 4095 }, 0, {}, 0, 4095 },
	{ "first_from_last_wraps", 4096, 1, { 0 }, 0, {}, 4095, 0 },
	{ "from_jobs_wraps", 4096, 2, { 4095, 0 }, 0, {}, 4096, 0 },
	{ "skips_empty_words", 4096, 2, { 130, 4032 }, 0, {}, 131, 4032 },
	{ "cleared_word_skipped", 4096, 1, { 200 }, 1, { 64 }, 1, 200 },
	{ "partly_cleared_word", 4096, 1, { 65 }, 1, { 64 }, 64, 65 },
	{ "jobs_1024_last", 1024, 1, { 1023 }, 0, {}, 1000, 1023 },
	{ "jobs_1024_wraps", 1024, 1, { 5 }, 0, {}, 1023, 5 },
	{ "jobs_1024_from_jobs", 1024, 1, { 5 }, 0, {}, 1024, 5 },
	{ "jobs_65_last_word", 65, 1, { 64 }, 0, {}, 1, 64 },
	{ "jobs_65_wraps", 65, 1, { 0 }, 0, {}, 64, 0 },
	{ "jobs_1", 1, 1, { 0 }, 0, {}, 1, 0 },
	{ "background_not_a_job", 4, 1, { DDL_T_BG }, 0, {}, 0, DDL_NONE },
};

KUNIT_ARRAY_PARAM_DESC(ddl_bm, ddl_bm_cases, name);

/* The job's bit in the backlogged bitmap and in its summary word. */
static bool ddl_t_bm_bit(const struct ddl_sched *s, u32 idx)
{
	bool bit = s->bm[idx / 64] & BIT_ULL(idx % 64);

	return bit && (s->bm_top & BIT_ULL(idx / 64));
}

static void ddl_rotation_bm_next_test(struct kunit *test)
{
	const struct ddl_bm_case *c = test->param_value;
	struct ddl_sim *sim = ddl_sim_new(test, c->jobs);
	u32 i;

	for (i = 0; i < c->nclr; i++)
		ddl_activate(&sim->s, &sim->p, c->clr[i], 0);
	for (i = 0; i < c->nset; i++)
		ddl_activate(&sim->s, &sim->p, ddl_t_cls(sim, c->set[i]), 0);
	for (i = 0; i < c->nclr; i++)
		ddl_deactivate(&sim->s, c->clr[i], 0);
	for (i = 0; i < c->nclr; i++)
		KUNIT_EXPECT_FALSE(test, ddl_t_bm_bit(&sim->s, c->clr[i]));
	for (i = 0; i < c->nset; i++)
		if (c->set[i] != DDL_T_BG)
			KUNIT_EXPECT_TRUE(test, ddl_t_bm_bit(&sim->s, c->set[i]));
	KUNIT_EXPECT_EQ(test, ddl_bm_next(&sim->s, c->from), c->next);
}

/*
 * Green's slice ends while its queue is empty: the job served as yellow
 * meanwhile becomes green at the slice end, a rotation.
 */
static void ddl_rotation_idle_green_expiry_test(struct kunit *test)
{
	struct ddl_sim *sim = ddl_sim_new(test, 4);
	u64 t, yellow = 0;
	u32 idx;

	sim->p.slice_us = DDL_T_SLICE_US;
	ddl_sim_green_idle(sim, 0);
	sim->now = 100 * DDL_T_US;
	ddl_sim_enqueue(sim, 2, DDL_T_LOTS);

	for (t = sim->now; t < DDL_T_SLICE; t += DDL_T_PKT_NS) {
		idx = ddl_sim_send_at(sim, t);
		KUNIT_EXPECT_EQ(test, idx, 2U);
		KUNIT_EXPECT_EQ(test, sim->reason, DDL_R_YELLOW);
		KUNIT_EXPECT_EQ(test, sim->s.green, 0U);
		if (idx != 2 || sim->reason != DDL_R_YELLOW)
			return;
		yellow++;
	}
	KUNIT_EXPECT_EQ(test, ddl_sim_send_at(sim, DDL_T_SLICE), 2U);
	KUNIT_EXPECT_EQ(test, sim->reason, DDL_R_GREEN);
	KUNIT_EXPECT_EQ(test, sim->s.green, 2U);
	KUNIT_EXPECT_EQ(test, sim->s.rotations, 1ULL);
	KUNIT_EXPECT_EQ(test, sim->s.cls[0].greens, 1ULL);
	KUNIT_EXPECT_EQ(test, sim->s.cls[2].greens, 1ULL);
	KUNIT_EXPECT_EQ(test, sim->s.cls[2].bytes_yellow, yellow * DDL_T_LEN);
	KUNIT_EXPECT_EQ(test, sim->s.cls[2].bytes_green, (u64)DDL_T_LEN);
	KUNIT_EXPECT_EQ(test, ddl_green_ns(&sim->s, 0, 3 * DDL_T_SLICE),
			DDL_T_SLICE);
	KUNIT_EXPECT_EQ(test, ddl_green_ns(&sim->s, 2, 3 * DDL_T_SLICE),
			2 * DDL_T_SLICE);
}

/* A job alone renews its slice: no rotation, made green only once. */
static void ddl_rotation_alone_renews_test(struct kunit *test)
{
	struct ddl_sim *sim = ddl_sim_new(test, 4);
	u32 i;

	sim->p.slice_us = DDL_T_SLICE_US;
	ddl_sim_enqueue(sim, 0, DDL_T_LOTS);
	for (i = 0; i < 5; i++) {
		KUNIT_EXPECT_EQ(test, ddl_sim_send_at(sim, i * DDL_T_SLICE),
				0U);
		KUNIT_EXPECT_EQ(test, sim->reason, DDL_R_GREEN);
	}
	KUNIT_EXPECT_EQ(test, sim->s.rotations, 0ULL);
	KUNIT_EXPECT_EQ(test, sim->s.cls[0].greens, 1ULL);
	KUNIT_EXPECT_EQ(test, ddl_green_ns(&sim->s, 0, 4 * DDL_T_SLICE),
			4 * DDL_T_SLICE);

	/* The renewed slice runs its full length for a newcomer. */
	sim->now = 4 * DDL_T_SLICE + DDL_T_SLICE / 2;
	ddl_sim_enqueue(sim, 1, DDL_T_LOTS);
	KUNIT_EXPECT_EQ(test, ddl_sim_send_at(sim, 5 * DDL_T_SLICE - 1), 0U);
	KUNIT_EXPECT_EQ(test, ddl_sim_send_at(sim, 5 * DDL_T_SLICE), 1U);
	KUNIT_EXPECT_EQ(test, sim->reason, DDL_R_GREEN);
	KUNIT_EXPECT_EQ(test, sim->s.rotations, 1ULL);
}

/* Nothing backlogged: DDL_NONE, and green does not move meanwhile. */
static void ddl_rotation_all_idle_test(struct kunit *test)
{
	struct ddl_sim *sim = ddl_sim_new(test, 4);

	sim->p.slice_us = DDL_T_SLICE_US;
	KUNIT_EXPECT_EQ(test, ddl_sim_send(sim), DDL_NONE);
	KUNIT_EXPECT_EQ(test, sim->s.green, DDL_NONE);

	ddl_sim_enqueue(sim, 2, 1);
	KUNIT_EXPECT_EQ(test, ddl_sim_send(sim), 2U);
	KUNIT_EXPECT_EQ(test, ddl_sim_send(sim), DDL_NONE);
	KUNIT_EXPECT_EQ(test, ddl_sim_send_at(sim, 10 * DDL_T_SLICE), DDL_NONE);
	KUNIT_EXPECT_EQ(test, sim->s.green, 2U);
	KUNIT_EXPECT_EQ(test, sim->s.rotations, 0ULL);

	/* The former green comes back alone: a new slice, no rotation. */
	ddl_sim_enqueue(sim, 2, 1);
	KUNIT_EXPECT_EQ(test, ddl_sim_send(sim), 2U);
	KUNIT_EXPECT_EQ(test, sim->reason, DDL_R_GREEN);
	KUNIT_EXPECT_EQ(test, sim->s.rotations, 0ULL);
	KUNIT_EXPECT_EQ(test, sim->s.cls[2].greens, 1ULL);
	KUNIT_EXPECT_EQ(test, ddl_sim_send(sim), DDL_NONE);

	/* Another job comes back after the slice end: a rotation. */
	KUNIT_EXPECT_EQ(test, ddl_sim_send_at(sim, 20 * DDL_T_SLICE), DDL_NONE);
	sim->now = 20 * DDL_T_SLICE;
	ddl_sim_enqueue(sim, 3, 1);
	KUNIT_EXPECT_EQ(test, ddl_sim_send(sim), 3U);
	KUNIT_EXPECT_EQ(test, sim->reason, DDL_R_GREEN);
	KUNIT_EXPECT_EQ(test, sim->s.rotations, 1ULL);
	KUNIT_EXPECT_EQ(test, ddl_sim_send(sim), DDL_NONE);
	KUNIT_EXPECT_EQ(test, ddl_sim_send_at(sim, 30 * DDL_T_SLICE), DDL_NONE);
	KUNIT_EXPECT_EQ(test, sim->s.green, 3U);
}

struct ddl_weight_case {
	const char	*name;
	u32		slice_us;
	u32		jobs;
	u32		weight[4];
	u32		cycles;
};

static const struct ddl_weight_case ddl_weight_cases[] = {
	{ "equal", 1000, 3, { 1, 1, 1 }, 3 },
	{ "three_to_one", 1000, 2, { 3, 1 }, 3 },
	{ "one_to_three", 1000, 2, { 1, 3 }, 3 },
	{ "one_two_four", 500, 3, { 1, 2, 4 }, 2 },
	{ "four_jobs", 200, 4, { 2, 1, 1, 3 }, 3 },
	{ "max_weight", 100, 2, { DDL_WEIGHT_MAX, 1 }, 2 },
};

KUNIT_ARRAY_PARAM_DESC(ddl_weight, ddl_weight_cases, name);

/* A job of weight w stays green w slices: green time scales with weight. */
static void ddl_rotation_weight_test(struct kunit *test)
{
	const struct ddl_weight_case *c = test->param_value;
	struct ddl_sim *sim = ddl_sim_new(test, c->jobs);
	const u64 step = 10 * DDL_T_US, slice = c->slice_us * DDL_T_US;
	u64 t, end, cycle = 0;
	u32 i;

	KUNIT_ASSERT_EQ(test, c->slice_us % 10, 0U);
	sim->p.slice_us = c->slice_us;
	for (i = 0; i < c->jobs; i++) {
		ddl_set_weight(&sim->s, &sim->p, i, c->weight[i]);
		ddl_sim_enqueue(sim, i, DDL_T_LOTS);
		cycle += slice * c->weight[i];
	}
	end = c->cycles * cycle;
	for (t = 0; t < end; t += step)
		ddl_sim_send_at(sim, t);
	KUNIT_EXPECT_EQ(test, ddl_sim_send_at(sim, end), 0U);

	KUNIT_EXPECT_EQ(test, sim->s.rotations, (u64)c->cycles * c->jobs);
	for (i = 0; i < c->jobs; i++) {
		KUNIT_EXPECT_EQ_MSG(test, ddl_green_ns(&sim->s, i, end),
				    c->cycles * slice * c->weight[i], "job %u",
				    i);
		KUNIT_EXPECT_EQ_MSG(test, sim->s.cls[i].greens,
				    c->cycles + (i ? 0ULL : 1ULL), "job %u", i);
	}
}

struct ddl_setw_case {
	const char	*name;
	u32		w0;		/* weight of job 0, green from 0 */
	bool		renewed;	/* job 0 was alone at its slice end */
	u32		at_us;
	u32		idx;		/* reweighted at @at_us */
	u32		weight;
	u32		end_us;		/* job 0's slice ends, job 1 green */
	u32		next_end_us;	/* job 1's slice ends, job 0 green */
};

static const struct ddl_setw_case ddl_setw_cases[] = {
	{ "raise_green", 1, false, 500, 0, 3, 3000, 4000 },
	{ "lower_green", 3, false, 1500, 0, 2, 2000, 3000 },
	{ "lower_green_end_passed", 3, false, 2000, 0, 1, 2000, 3000 },
	{ "same_weight", 2, false, 500, 0, 2, 2000, 3000 },
	{ "yellow_job_next_slice", 1, false, 500, 1, 4, 1000, 5000 },
	{ "green_after_renewal", 1, true, 1500, 0, 2, 3000, 4000 },
	{ "green_after_renewal_lower", 2, true, 2500, 0, 1, 3000, 4000 },
};

KUNIT_ARRAY_PARAM_DESC(ddl_setw, ddl_setw_cases, name);

/*
 * ddl_set_weight() on the green job recomputes its running slice from the
 * slice's start; on another job it applies from that job's next slice.
 */
static void ddl_rotation_set_weight_test(struct kunit *test)
{
	const struct ddl_setw_case *c = test->param_value;
	struct ddl_sim *sim = ddl_sim_new(test, 2);
	const u64 at = c->at_us * DDL_T_US, end = c->end_us * DDL_T_US;
	const u64 next_end = c->next_end_us * DDL_T_US, turn = max(at, end);

	sim->p.slice_us = DDL_T_SLICE_US;
	ddl_set_weight(&sim->s, &sim->p, 0, c->w0);
	ddl_sim_enqueue(sim, 0, DDL_T_LOTS);
	KUNIT_ASSERT_EQ(test, ddl_sim_send(sim), 0U);
	if (c->renewed) {
		KUNIT_ASSERT_EQ(test,
				ddl_sim_send_at(sim, c->w0 * DDL_T_SLICE), 0U);
		KUNIT_ASSERT_EQ(test, sim->s.rotations, 0ULL);
	}
	ddl_sim_enqueue(sim, 1, DDL_T_LOTS);

	sim->now = at;
	ddl_set_weight(&sim->s, &sim->p, c->idx, c->weight);
	KUNIT_EXPECT_EQ(test, sim->s.cls[c->idx].weight, c->weight);
	if (end > at)
		KUNIT_EXPECT_EQ(test, ddl_sim_send_at(sim, end - 1), 0U);
	KUNIT_EXPECT_EQ(test, ddl_sim_send_at(sim, turn), 1U);
	KUNIT_EXPECT_EQ(test, sim->reason, DDL_R_GREEN);
	KUNIT_EXPECT_EQ(test, sim->s.rotations, 1ULL);
	KUNIT_EXPECT_EQ(test, ddl_sim_send_at(sim, next_end - 1), 1U);
	KUNIT_EXPECT_EQ(test, ddl_sim_send_at(sim, next_end), 0U);
	KUNIT_EXPECT_EQ(test, sim->s.rotations, 2ULL);
}

#define DDL_T_DRR_JOBS	4
#define DDL_T_DRR_PKTS	100000U

struct ddl_drr_case {
	const char	*name;
	u32		n;		/* yellow jobs 1 .. n */
	u32		len[DDL_T_DRR_JOBS];
	u32		weight[DDL_T_DRR_JOBS];
	u32		rounds;
};

static const struct ddl_drr_case ddl_drr_cases[] = {
	{ "equal_mtu", 3, { 1500, 1500, 1500 }, { 1, 1, 1 }, 50 },
	{ "mixed_sizes", 3, { 1500, 300, 64 }, { 1, 1, 1 }, 50 },
	{ "quantum_sized", 2, { DDL_QUANTUM, DDL_QUANTUM }, { 1, 1 }, 50 },
	{ "small_packets", 2, { 64, 100 }, { 1, 1 }, 30 },
	{ "four_jobs", 4, { 1000, 1500, 576, 40 }, { 1, 1, 1, 1 }, 30 },
	{ "weighted", 3, { 1500, 1500, 1500 }, { 1, 2, 3 }, 30 },
	{ "weighted_small_packets", 2, { 64, 64 }, { 1, 2 }, 20 },
};

KUNIT_ARRAY_PARAM_DESC(ddl_drr, ddl_drr_cases, name);

/*
 * Mode green, green idle: the backlogged yellow jobs share bytes by DRR.
 * After every round each has sent DDL_QUANTUM times its weight per round,
 * give or take one of its packets.
 */
static void ddl_rotation_drr_test(struct kunit *test)
{
	const struct ddl_drr_case *c = test->param_value;
	struct ddl_sim *sim = ddl_sim_new(test, c->n + 1);
	u32 turns[DDL_T_DRR_JOBS + 1] = {};
	u32 prev = DDL_NONE, rounds = 0, idx, j, k;

	KUNIT_ASSERT_LE(test, c->n, DDL_T_DRR_JOBS);
	sim->p.mode = TC_DDL_MODE_GREEN;
	sim->p.slice_us = DDL_SLICE_MAX;
	ddl_sim_green_idle(sim, 0);
	for (j = 1; j <= c->n; j++) {
		KUNIT_ASSERT_LE(test, c->len[j - 1], (u32)DDL_QUANTUM);
		sim->len[j] = c->len[j - 1];
		ddl_set_weight(&sim->s, &sim->p, j, c->weight[j - 1]);
		ddl_sim_enqueue(sim, j, DDL_T_LOTS);
	}

	for (k = 0; k < DDL_T_DRR_PKTS && rounds < c->rounds; k++) {
		sim->now += DDL_T_PKT_NS;
		idx = ddl_sim_pick(sim);
		KUNIT_ASSERT_NE(test, idx, DDL_NONE);
		KUNIT_ASSERT_NE(test, idx, 0U);
		KUNIT_ASSERT_EQ(test, sim->reason, DDL_R_YELLOW);
		if (prev != DDL_NONE && idx != prev) {
			turns[prev]++;
			for (j = 2; j <= c->n; j++)
				if (turns[j] != turns[1])
					break;
			if (j > c->n) {
				/* A round ended: every job had a turn. */
				rounds = turns[1];
				for (j = 1; j <= c->n; j++) {
					u64 want = (u64)rounds * DDL_QUANTUM *
						   c->weight[j - 1];
					u64 got = sim->bytes[j];

					if (got + sim->len[j] > want &&
					    got < want + sim->len[j])
						continue;
					KUNIT_FAIL(test,
						   "round %u: job %u sent %llu, want %llu +- %u",
						   rounds, j, got, want,
						   sim->len[j]);
					return;
				}
			}
		}
		prev = idx;
		ddl_sim_serve(sim, idx);
	}
	KUNIT_EXPECT_EQ(test, rounds, c->rounds);
	KUNIT_EXPECT_EQ(test, sim->s.green, 0U);
	KUNIT_EXPECT_EQ(test, sim->s.rotations, 0ULL);
}

struct ddl_drr_big_case {
	const char	*name;
	u32		len[2];
};

static const struct ddl_drr_big_case ddl_drr_big_cases[] = {
	{ "jumbo", { 1500, 9000 } },
	{ "gso_64k", { 1500, 65536 } },
	{ "gso_vs_small", { 64, 65536 } },
	{ "two_gso", { 65536, 65536 } },
};

KUNIT_ARRAY_PARAM_DESC(ddl_drr_big, ddl_drr_big_cases, name);

/*
 * Packets larger than the quantum (jumbo frames, GSO): DRR still shares
 * bytes fairly, the shares never drift apart by more than a quantum and a
 * packet of each.
 */
static void ddl_rotation_drr_big_packets_test(struct kunit *test)
{
	const struct ddl_drr_big_case *c = test->param_value;
	struct ddl_sim *sim = ddl_sim_new(test, 3);
	const u64 bound = DDL_QUANTUM + c->len[0] + c->len[1];
	u64 diff, worst = 0;
	u32 k, idx;

	sim->p.mode = TC_DDL_MODE_GREEN;
	sim->p.slice_us = DDL_SLICE_MAX;
	ddl_sim_green_idle(sim, 0);
	sim->len[1] = c->len[0];
	sim->len[2] = c->len[1];
	ddl_sim_enqueue(sim, 1, DDL_T_LOTS);
	ddl_sim_enqueue(sim, 2, DDL_T_LOTS);

	for (k = 0; k < 5000; k++) {
		sim->now += DDL_T_PKT_NS;
		idx = ddl_sim_send(sim);
		KUNIT_ASSERT_TRUE(test, idx == 1 || idx == 2);
		diff = sim->bytes[1] > sim->bytes[2] ?
		       sim->bytes[1] - sim->bytes[2] :
		       sim->bytes[2] - sim->bytes[1];
		worst = max(worst, diff);
	}
	KUNIT_EXPECT_LE_MSG(test, worst, bound,
			    "bytes sent: job 1 %llu, job 2 %llu",
			    sim->bytes[1], sim->bytes[2]);
}

struct ddl_static_case {
	const char	*name;
	u32		jobs;
	u32		n;
	u32		idx[3];
	u32		pkts[3];
	u32		late;		/* two packets after the first pick */
	u32		nseq;
	u32		seq[8];
};

static const struct ddl_static_case ddl_static_cases[] = {
	{ "lowest_first", 8, 3, { 5, 2, 7 }, { 2, 3, 1 }, DDL_NONE,
	  6, { 2, 2, 2, 5, 5, 7 } },
	{ "lower_newcomer_goes_first", 8, 1, { 5 }, { 3 }, 1,
	  5, { 5, 1, 1, 5, 5 } },
	{ "higher_newcomer_waits", 8, 1, { 1 }, { 3 }, 6,
	  5, { 1, 1, 1, 6, 6 } },
	{ "jobs_4096_edges", 4096, 3, { 4095, 64, 63 }, { 1, 1, 1 }, 0,
	  5, { 63, 0, 0, 64, 4095 } },
	{ "one_job", 1, 1, { 0 }, { 3 }, DDL_NONE, 3, { 0, 0, 0 } },
};

KUNIT_ARRAY_PARAM_DESC(ddl_static, ddl_static_cases, name);

/*
 * Mode static: the lowest backlogged job is always green, across any
 * number of slice ends; nothing rotates, nothing yields.
 */
static void ddl_rotation_static_test(struct kunit *test)
{
	const struct ddl_static_case *c = test->param_value;
	struct ddl_sim *sim = ddl_sim_new(test, c->jobs);
	u32 i, idx;

	sim->p.mode = TC_DDL_MODE_STATIC;
	sim->p.slice_us = DDL_SLICE_MIN;
	sim->p.yield_us = 10;
	for (i = 0; i < c->n; i++)
		ddl_sim_enqueue(sim, c->idx[i], c->pkts[i]);

	for (i = 0; i < c->nseq; i++) {
		if (i == 1 && c->late != DDL_NONE)
			ddl_sim_enqueue(sim, c->late, 2);
		idx = ddl_sim_send(sim);
		KUNIT_EXPECT_EQ_MSG(test, idx, c->seq[i], "packet %u", i);
		KUNIT_EXPECT_EQ(test, sim->reason, DDL_R_GREEN);
		KUNIT_EXPECT_EQ(test, sim->s.green, idx);
		sim->now += 3 * DDL_SLICE_MIN * DDL_T_US / 2;
	}
	KUNIT_EXPECT_EQ(test, ddl_sim_send(sim), DDL_NONE);
	KUNIT_EXPECT_EQ(test, sim->s.rotations, 0ULL);
	KUNIT_EXPECT_EQ(test, sim->s.yields, 0ULL);
}

struct ddl_wc_case {
	const char	*name;
	u32		mode;
	u32		jobs;
	u32		green;		/* made green, then empty */
	u32		n;
	u32		act[2];		/* backlogged next, in this order */
	bool		bg;		/* the background is backlogged too */
	u32		want;
	enum ddl_reason	reason;
};

static const struct ddl_wc_case ddl_wc_cases[] = {
	{ "rotate_next_after_green", TC_DDL_MODE_ROTATE, 8, 2, 2, { 0, 5 },
	  false, 5, DDL_R_YELLOW },
	{ "rotate_wraps", TC_DDL_MODE_ROTATE, 8, 2, 2, { 1, 0 },
	  false, 0, DDL_R_YELLOW },
	{ "rotate_green_last", TC_DDL_MODE_ROTATE, 8, 7, 1, { 3 },
	  false, 3, DDL_R_YELLOW },
	{ "rotate_word_boundary", TC_DDL_MODE_ROTATE, 4096, 63, 2, { 62, 64 },
	  false, 64, DDL_R_YELLOW },
	{ "rotate_4096_wraps", TC_DDL_MODE_ROTATE, 4096, 4095, 2, { 4094, 0 },
	  false, 0, DDL_R_YELLOW },
	{ "rotate_job_before_background", TC_DDL_MODE_ROTATE, 8, 2, 1, { 6 },
	  true, 6, DDL_R_YELLOW },
	{ "rotate_background_last", TC_DDL_MODE_ROTATE, 8, 2, 0, {},
	  true, DDL_T_BG, DDL_R_BACKGROUND },
	{ "green_drr_head", TC_DDL_MODE_GREEN, 8, 2, 2, { 5, 1 },
	  false, 5, DDL_R_YELLOW },
	{ "green_drr_head_low", TC_DDL_MODE_GREEN, 8, 2, 2, { 1, 5 },
	  false, 1, DDL_R_YELLOW },
	{ "green_background_last", TC_DDL_MODE_GREEN, 8, 2, 0, {},
	  true, DDL_T_BG, DDL_R_BACKGROUND },
	{ "static_lowest_turns_green", TC_DDL_MODE_STATIC, 8, 2, 2, { 6, 4 },
	  false, 4, DDL_R_GREEN },
	{ "static_background_last", TC_DDL_MODE_STATIC, 8, 2, 0, {},
	  true, DDL_T_BG, DDL_R_BACKGROUND },
};

KUNIT_ARRAY_PARAM_DESC(ddl_wc, ddl_wc_cases, name);

/* Work conservation: green has nothing to send, someone else sends. */
static void ddl_rotation_work_conserving_test(struct kunit *test)
{
	const struct ddl_wc_case *c = test->param_value;
	struct ddl_sim *sim = ddl_sim_new(test, c->jobs);
	u32 i;

	sim->p.mode = c->mode;
	ddl_sim_green_idle(sim, c->green);
	sim->now = 10 * DDL_T_US;
	for (i = 0; i < c->n; i++)
		ddl_sim_enqueue(sim, c->act[i], DDL_T_LOTS);
	if (c->bg)
		ddl_sim_enqueue(sim, DDL_BG(&sim->s), DDL_T_LOTS);

	sim->now = 20 * DDL_T_US;
	KUNIT_EXPECT_EQ(test, ddl_sim_send(sim), ddl_t_cls(sim, c->want));
	KUNIT_EXPECT_EQ(test, sim->reason, c->reason);
	if (c->reason != DDL_R_GREEN)
		KUNIT_EXPECT_EQ(test, sim->s.green, c->green);
	KUNIT_EXPECT_EQ(test, sim->s.rotations, 0ULL);
}

static struct kunit_case ddl_rotation_test_cases[] = {
	KUNIT_CASE_PARAM(ddl_rotation_order_test, ddl_order_gen_params),
	KUNIT_CASE_PARAM(ddl_rotation_all_jobs_test, ddl_all_jobs_gen_params),
	KUNIT_CASE_PARAM(ddl_rotation_bm_next_test, ddl_bm_gen_params),
	KUNIT_CASE(ddl_rotation_idle_green_expiry_test),
	KUNIT_CASE(ddl_rotation_alone_renews_test),
	KUNIT_CASE(ddl_rotation_all_idle_test),
	KUNIT_CASE_PARAM(ddl_rotation_weight_test, ddl_weight_gen_params),
	KUNIT_CASE_PARAM(ddl_rotation_set_weight_test, ddl_setw_gen_params),
	KUNIT_CASE_PARAM(ddl_rotation_drr_test, ddl_drr_gen_params),
	KUNIT_CASE_PARAM(ddl_rotation_drr_big_packets_test,
			 ddl_drr_big_gen_params),
	KUNIT_CASE_PARAM(ddl_rotation_static_test, ddl_static_gen_params),
	KUNIT_CASE_PARAM(ddl_rotation_work_conserving_test,
			 ddl_wc_gen_params),
	{}
};

static struct kunit_suite ddl_rotation_test_suite = {
	.name = "sch_ddl_rotation",
	.init = ddl_sched_init_case,
	.exit = ddl_sched_exit,
	.test_cases = ddl_rotation_test_cases,
};

/* sch_ddl_yield */

#define DDL_T_YSLICE_US	5000U

struct ddl_yield_case {
	const char	*name;
	u32		mode;
	u32		yield_us;
	u32		hand_us;	/* job 2 green from this pick on */
	u64		yields;
	u64		rotations;
};

static const struct ddl_yield_case ddl_yield_cases[] = {
	{ "yield_1ms", TC_DDL_MODE_ROTATE, 1000, 1000, 1, 0 },
	{ "yield_100us", TC_DDL_MODE_ROTATE, 100, 100, 1, 0 },
	{ "yield_10us_at_once", TC_DDL_MODE_ROTATE, 10, 10, 1, 0 },
	{ "yield_just_before_slice_end", TC_DDL_MODE_ROTATE, 4990, 4990, 1, 0 },
	{ "mode_green_yields", TC_DDL_MODE_GREEN, 1000, 1000, 1, 0 },
	{ "yield_off_slice_end", TC_DDL_MODE_ROTATE, 0, DDL_T_YSLICE_US, 0, 1 },
	{ "yield_after_slice_end", TC_DDL_MODE_ROTATE, 8000, DDL_T_YSLICE_US,
	  0, 1 },
	{ "static_never_yields", TC_DDL_MODE_STATIC, 1000, 10, 0, 0 },
};

KUNIT_ARRAY_PARAM_DESC(ddl_yield, ddl_yield_cases, name);

/*
 * Green (job 0) runs empty at 0, job 2 is backlogged from 0 and served as
 * yellow until green has been empty for yield_us: from that pick on, job 2
 * is green, and the hand-over counts as a yield.
 */
static void ddl_yield_timing_test(struct kunit *test)
{
	const struct ddl_yield_case *c = test->param_value;
	struct ddl_sim *sim = ddl_sim_new(test, 4);
	const u64 step = 10 * DDL_T_US, hand = c->hand_us * DDL_T_US;
	u64 t;
	u32 idx;

	sim->p.mode = c->mode;
	sim->p.slice_us = DDL_T_YSLICE_US;
	sim->p.yield_us = c->yield_us;
	ddl_sim_green_idle(sim, 0);
	ddl_sim_enqueue(sim, 2, DDL_T_LOTS);

	for (t = step; t <= hand + 5 * step; t += step) {
		bool before = t < hand;

		idx = ddl_sim_send_at(sim, t);
		KUNIT_EXPECT_EQ_MSG(test, idx, 2U, "at %llu ns", t);
		KUNIT_EXPECT_EQ_MSG(test, sim->reason,
				    before ? DDL_R_YELLOW : DDL_R_GREEN,
				    "at %llu ns", t);
		KUNIT_EXPECT_EQ_MSG(test, sim->s.green, before ? 0U : 2U,
				    "at %llu ns", t);
		if (idx != 2 || sim->s.green != (before ? 0U : 2U))
			break;
	}
	KUNIT_EXPECT_EQ(test, sim->s.yields, c->yields);
	KUNIT_EXPECT_EQ(test, sim->s.cls[0].yields, c->yields);
	KUNIT_EXPECT_EQ(test, sim->s.cls[2].yields, 0ULL);
	KUNIT_EXPECT_EQ(test, sim->s.rotations, c->rotations);
}

/* Green refilled before yield_us keeps green; the idle clock restarts. */
static void ddl_yield_refill_test(struct kunit *test)
{
	struct ddl_sim *sim = ddl_sim_new(test, 4);

	sim->p.slice_us = 20000;
	sim->p.yield_us = 1000;
	ddl_sim_green_idle(sim, 0);
	ddl_sim_enqueue(sim, 2, DDL_T_LOTS);

	KUNIT_EXPECT_EQ(test, ddl_sim_send_at(sim, 500 * DDL_T_US), 2U);
	KUNIT_EXPECT_EQ(test, sim->reason, DDL_R_YELLOW);
	ddl_sim_enqueue(sim, 0, 1);
	KUNIT_EXPECT_EQ(test, ddl_sim_send_at(sim, 600 * DDL_T_US), 0U);
	KUNIT_EXPECT_EQ(test, sim->reason, DDL_R_GREEN);

	/* Empty again since 600 us: no yield at 1000 us, nor before 1600. */
	KUNIT_EXPECT_EQ(test, ddl_sim_send_at(sim, 1000 * DDL_T_US), 2U);
	KUNIT_EXPECT_EQ(test, sim->reason, DDL_R_YELLOW);
	KUNIT_EXPECT_EQ(test, ddl_sim_send_at(sim, 1600 * DDL_T_US - 1), 2U);
	KUNIT_EXPECT_EQ(test, sim->reason, DDL_R_YELLOW);
	KUNIT_EXPECT_EQ(test, sim->s.green, 0U);
	KUNIT_EXPECT_EQ(test, sim->s.yields, 0ULL);

	KUNIT_EXPECT_EQ(test, ddl_sim_send_at(sim, 1600 * DDL_T_US), 2U);
	KUNIT_EXPECT_EQ(test, sim->reason, DDL_R_GREEN);
	KUNIT_EXPECT_EQ(test, sim->s.green, 2U);
	KUNIT_EXPECT_EQ(test, sim->s.yields, 1ULL);
	KUNIT_EXPECT_EQ(test, sim->s.cls[0].yields, 1ULL);
	KUNIT_EXPECT_EQ(test, sim->s.rotations, 0ULL);
}

/* Green idle with no other job backlogged stays green. */
static void ddl_yield_nobody_else_test(struct kunit *test)
{
	struct ddl_sim *sim = ddl_sim_new(test, 4);

	sim->p.slice_us = 20000;
	sim->p.yield_us = 1000;
	sim->p.bgshare = 0;
	ddl_sim_green_idle(sim, 0);
	ddl_sim_enqueue(sim, DDL_BG(&sim->s), DDL_T_LOTS);

	KUNIT_EXPECT_EQ(test, ddl_sim_send_at(sim, 5 * DDL_T_MS),
			DDL_BG(&sim->s));
	KUNIT_EXPECT_EQ(test, sim->reason, DDL_R_BACKGROUND);
	KUNIT_EXPECT_EQ(test, sim->s.green, 0U);
	KUNIT_EXPECT_EQ(test, sim->s.yields, 0ULL);

	sim->now = 5 * DDL_T_MS + 100 * DDL_T_US;
	ddl_sim_enqueue(sim, 0, 1);
	KUNIT_EXPECT_EQ(test, ddl_sim_send(sim), 0U);
	KUNIT_EXPECT_EQ(test, sim->reason, DDL_R_GREEN);
	KUNIT_EXPECT_EQ(test, sim->s.cls[0].greens, 1ULL);
	KUNIT_EXPECT_EQ(test, sim->s.yields, 0ULL);

	/* Idle for 1.9 ms when job 1 arrives: it takes green at once. */
	sim->now = 7 * DDL_T_MS;
	ddl_sim_enqueue(sim, 1, DDL_T_LOTS);
	KUNIT_EXPECT_EQ(test, ddl_sim_send(sim), 1U);
	KUNIT_EXPECT_EQ(test, sim->reason, DDL_R_GREEN);
	KUNIT_EXPECT_EQ(test, sim->s.yields, 1ULL);
	KUNIT_EXPECT_EQ(test, sim->s.rotations, 0ULL);
}

static struct kunit_case ddl_yield_test_cases[] = {
	KUNIT_CASE_PARAM(ddl_yield_timing_test, ddl_yield_gen_params),
	KUNIT_CASE(ddl_yield_refill_test),
	KUNIT_CASE(ddl_yield_nobody_else_test),
	{}
};

static struct kunit_suite ddl_yield_test_suite = {
	.name = "sch_ddl_yield",
	.init = ddl_sched_init_case,
	.exit = ddl_sched_exit,
	.test_cases = ddl_yield_test_cases,
};

/* sch_ddl_guard */

#define DDL_T_STARVED	4

struct ddl_guard_case {
	const char	*name;
	u32		mode;
	u32		jobs;
	u32		maxwait_us;
	u32		n;
	u32		starved[DDL_T_STARVED];
	u32		windows;
};

static const struct ddl_guard_case ddl_guard_cases[] = {
	{ "static_one_job", TC_DDL_MODE_STATIC, 8, 1000, 1, { 7 }, 20 },
	{ "static_job_and_background", TC_DDL_MODE_STATIC, 8, 1000, 2,
	  { 7, DDL_T_BG }, 20 },
	{ "static_background", TC_DDL_MODE_STATIC, 4, 2000, 1, { DDL_T_BG },
	  10 },
	{ "static_three_jobs_and_background", TC_DDL_MODE_STATIC, 8, 1000, 4,
	  { 1, 4, 7, DDL_T_BG }, 20 },
	{ "static_4096", TC_DDL_MODE_STATIC, 4096, 1000, 2,
	  { 4095, DDL_T_BG }, 20 },
	{ "static_maxwait_default", TC_DDL_MODE_STATIC, 4, DDL_MAXWAIT_DEFAULT,
	  2, { 3, DDL_T_BG }, 3 },
	{ "rotate_long_slice", TC_DDL_MODE_ROTATE, 8, 1000, 2,
	  { 3, DDL_T_BG }, 20 },
	{ "green_long_slice", TC_DDL_MODE_GREEN, 8, 1000, 2,
	  { 3, DDL_T_BG }, 20 },
};

KUNIT_ARRAY_PARAM_DESC(ddl_guard, ddl_guard_cases, name);

/*
 * Job 0 is always backlogged and always green; the starved classes are
 * always backlogged too and are only ever served by the starvation guard:
 * each at least once in every maxwait and a few packets.
 */
static void ddl_guard_bound_test(struct kunit *test)
{
	const struct ddl_guard_case *c = test->param_value;
	struct ddl_sim *sim = ddl_sim_new(test, c->jobs);
	const u64 maxwait = c->maxwait_us * DDL_T_US;
	u64 last[DDL_T_STARVED] = {}, gap[DDL_T_STARVED] = {};
	u64 served[DDL_T_STARVED] = {};
	u64 bound, end, pkts, k, guards = 0, total = 0;
	u32 cls[DDL_T_STARVED];
	u32 i, idx;

	KUNIT_ASSERT_LE(test, c->n, DDL_T_STARVED);
	sim->p.mode = c->mode;
	sim->p.slice_us = DDL_SLICE_MAX;
	sim->p.maxwait_us = c->maxwait_us;
	sim->p.bgshare = 0;
	ddl_sim_enqueue(sim, 0, DDL_T_LOTS);
	for (i = 0; i < c->n; i++) {
		cls[i] = ddl_t_cls(sim, c->starved[i]);
		ddl_sim_enqueue(sim, cls[i], DDL_T_LOTS);
	}

	end = c->windows * maxwait;
	pkts = div64_u64(end, DDL_T_PKT_NS) + 1;
	for (k = 0; k < pkts; k++, sim->now += DDL_T_PKT_NS) {
		idx = ddl_sim_send(sim);
		KUNIT_ASSERT_NE(test, idx, DDL_NONE);
		if (sim->reason == DDL_R_GUARD)
			guards++;
		else
			KUNIT_ASSERT_EQ(test, idx, 0U);
		for (i = 0; i < c->n; i++) {
			if (idx != cls[i])
				continue;
			gap[i] = max(gap[i], sim->now - last[i]);
			last[i] = sim->now;
			served[i]++;
		}
	}

	bound = maxwait + (c->n + 1) * DDL_T_PKT_NS;
	for (i = 0; i < c->n; i++) {
		gap[i] = max(gap[i], sim->now - last[i]);
		KUNIT_EXPECT_LE_MSG(test, gap[i], bound, "class %u", cls[i]);
		KUNIT_EXPECT_GE_MSG(test, served[i], div64_u64(end, bound),
				    "class %u", cls[i]);
		KUNIT_EXPECT_EQ_MSG(test, sim->s.cls[cls[i]].guard_runs,
				    served[i], "class %u", cls[i]);
		total += served[i];
	}
	KUNIT_EXPECT_EQ(test, sim->s.cls[0].guard_runs, 0ULL);
	KUNIT_EXPECT_EQ(test, sim->s.guard_runs, guards);
	KUNIT_EXPECT_EQ(test, guards, total);
	KUNIT_EXPECT_EQ(test, sim->s.bgshare_runs, 0ULL);
	KUNIT_EXPECT_EQ(test, sim->s.green, 0U);
}

#define DDL_T_BGSHARE_PKTS	20000U

struct ddl_bgshare_case {
	const char	*name;
	u32		bgshare;
	u32		job_len;
	u32		bg_len;
	u32		maxwait_us;
	u32		want_pct;	/* of all bytes, +- 2 */
	enum ddl_reason	bg_reason;	/* of every background packet */
};

static const struct ddl_bgshare_case ddl_bgshare_cases[] = {
	{ "share_20", 20, 1500, 1500, DDL_MAXWAIT_MAX, 20, DDL_R_BGSHARE },
	{ "share_5", 5, 1500, 1500, DDL_MAXWAIT_MAX, 5, DDL_R_BGSHARE },
	{ "share_1", 1, 1500, 1500, DDL_MAXWAIT_MAX, 1, DDL_R_BGSHARE },
	{ "share_50", 50, 1500, 1500, DDL_MAXWAIT_MAX, 50, DDL_R_BGSHARE },
	{ "share_20_small_background", 20, 1500, 64, DDL_MAXWAIT_MAX, 20,
	  DDL_R_BGSHARE },
	{ "share_20_small_job", 20, 64, 1500, DDL_MAXWAIT_MAX, 20,
	  DDL_R_BGSHARE },
	{ "share_10_gso_job", 10, 65536, 1500, DDL_MAXWAIT_MAX, 10,
	  DDL_R_BGSHARE },
	{ "share_0_guard_only", 0, 1500, 1500, 1000, 1, DDL_R_GUARD },
	{ "share_0_nothing", 0, 1500, 1500, DDL_MAXWAIT_MAX, 0,
	  DDL_R_GUARD },
};

KUNIT_ARRAY_PARAM_DESC(ddl_bgshare, ddl_bgshare_cases, name);

/* A saturating job and a saturating background: bgshare percent of bytes. */
static void ddl_guard_bgshare_test(struct kunit *test)
{
	const struct ddl_bgshare_case *c = test->param_value;
	struct ddl_sim *sim = ddl_sim_new(test, 2);
	const u32 bg = DDL_BG(&sim->s);
	u64 total, bp, shares = 0;
	u32 k, idx;

	sim->p.mode = TC_DDL_MODE_STATIC;
	sim->p.bgshare = c->bgshare;
	sim->p.maxwait_us = c->maxwait_us;
	sim->len[0] = c->job_len;
	sim->len[bg] = c->bg_len;
	ddl_sim_enqueue(sim, 0, DDL_T_LOTS);
	ddl_sim_enqueue(sim, bg, DDL_T_LOTS);

	for (k = 0; k < DDL_T_BGSHARE_PKTS; k++) {
		idx = ddl_sim_send(sim);
		sim->now += DDL_T_PKT_NS;
		if (sim->reason == DDL_R_BGSHARE)
			shares++;
		if (idx == 0) {
			KUNIT_ASSERT_EQ(test, sim->reason, DDL_R_GREEN);
			continue;
		}
		KUNIT_ASSERT_EQ(test, idx, bg);
		KUNIT_ASSERT_EQ(test, sim->reason, c->bg_reason);
	}

	total = sim->bytes[0] + sim->bytes[bg];
	bp = div64_u64(sim->bytes[bg] * 10000, total);
	KUNIT_EXPECT_GE_MSG(test, bp + 200, c->want_pct * 100ULL,
			    "background got %llu.%02llu %%", bp / 100,
			    bp % 100);
	KUNIT_EXPECT_LE_MSG(test, bp, c->want_pct * 100ULL + 200,
			    "background got %llu.%02llu %%", bp / 100,
			    bp % 100);
	KUNIT_EXPECT_EQ(test, sim->s.bgshare_runs, shares);
	if (!c->bgshare)
		KUNIT_EXPECT_EQ(test, shares, 0ULL);
	if (c->bg_reason == DDL_R_GUARD)
		KUNIT_EXPECT_EQ(test, sim->s.guard_runs,
				div64_u64(sim->bytes[bg], c->bg_len));
}

/*
 * The guard counts from the head packet's enqueue time when the glue tells
 * it (ddl_head_queued()).  Job 1's three packets, queued at 0, wait behind a
 * job that is always green.  The first goes out when it has waited more
 * than maxwait less one look (maxwait / DDL_GUARD_SPLIT) and no more than
 * maxwait; told that the second was queued at 0 too, the guard sends it one
 * look later; told nothing, it counts the third from the second's service.
 */
static void ddl_guard_head_age_test(struct kunit *test)
{
	struct ddl_sim *sim = ddl_sim_new(test, 2);
	const u64 maxwait = 100 * DDL_T_MS, look = maxwait / DDL_GUARD_SPLIT;
	const u64 slack = 2 * DDL_T_PKT_NS;
	u64 t, at[3];
	u32 n = 0;

	sim->p.mode = TC_DDL_MODE_STATIC;
	sim->p.maxwait_us = div_u64(maxwait, DDL_T_US);
	ddl_sim_enqueue(sim, 0, DDL_T_LOTS);
	ddl_sim_enqueue(sim, 1, 3);

	for (t = 0; n < 3 && t < 4 * maxwait; t += DDL_T_PKT_NS) {
		if (ddl_sim_send_at(sim, t) != 1) {
			KUNIT_ASSERT_EQ(test, sim->reason, DDL_R_GREEN);
			continue;
		}
		KUNIT_EXPECT_EQ(test, sim->reason, DDL_R_GUARD);
		at[n++] = t;
		if (n == 1)
			ddl_head_queued(&sim->s, 1, 0);
	}
	KUNIT_ASSERT_EQ(test, n, 3U);
	KUNIT_EXPECT_GT(test, at[0], maxwait - look);
	KUNIT_EXPECT_LE(test, at[0], maxwait);
	KUNIT_EXPECT_GT(test, at[1] - at[0], look);
	KUNIT_EXPECT_LE(test, at[1] - at[0], look + slack);
	KUNIT_EXPECT_GT(test, at[2] - at[1], maxwait - look);
	KUNIT_EXPECT_LE(test, at[2] - at[1], maxwait);
	KUNIT_EXPECT_EQ(test, sim->s.guard_runs, 3ULL);
}

/*
 * A class whose head is young must not hold the guard back from one whose
 * head is old.  Behind an always green job 0, job 1's head is young after
 * each of its packets (the glue tells that the next one was queued just
 * then); job 2's whole queue was queued at 0.  Job 2's head waits no more
 * than maxwait and a few packets for the first guard packet, and then gets
 * one every look.  A guard that only waits for the class served least
 * recently leaves job 2 a whole maxwait behind job 1 each time.
 */
static void ddl_guard_young_head_test(struct kunit *test)
{
	struct ddl_sim *sim = ddl_sim_new(test, 3);
	const u64 maxwait = 100 * DDL_T_MS, look = maxwait / DDL_GUARD_SPLIT;
	u64 t, first = 0, last = 0, gap = 0;
	u32 idx, n2 = 0;

	sim->p.mode = TC_DDL_MODE_STATIC;
	sim->p.maxwait_us = div_u64(maxwait, DDL_T_US);
	ddl_sim_enqueue(sim, 0, DDL_T_LOTS);
	ddl_sim_enqueue(sim, 1, DDL_T_LOTS);
	ddl_sim_enqueue(sim, 2, DDL_T_LOTS);

	for (t = 0; t < 10 * maxwait; t += DDL_T_PKT_NS) {
		idx = ddl_sim_send_at(sim, t);
		if (idx == 1) {
			/* job 1's next packet was queued just now */
			ddl_head_queued(&sim->s, 1, t);
		} else if (idx == 2) {
			ddl_head_queued(&sim->s, 2, 0);
			if (n2++)
				gap = max(gap, t - last);
			else
				first = t;
			last = t;
		}
	}
	KUNIT_EXPECT_LE(test, first, maxwait + 3 * DDL_T_PKT_NS);
	KUNIT_EXPECT_GT(test, n2, 60U);
	KUNIT_EXPECT_LE(test, gap, look + 3 * DDL_T_PKT_NS);
}

static struct kunit_case ddl_guard_test_cases[] = {
	KUNIT_CASE_PARAM(ddl_guard_bound_test, ddl_guard_gen_params),
	KUNIT_CASE_PARAM(ddl_guard_bgshare_test, ddl_bgshare_gen_params),
	KUNIT_CASE(ddl_guard_head_age_test),
	KUNIT_CASE(ddl_guard_young_head_test),
	{}
};

static struct kunit_suite ddl_guard_test_suite = {
	.name = "sch_ddl_guard",
	.init = ddl_sched_init_case,
	.exit = ddl_sched_exit,
	.test_cases = ddl_guard_test_cases,
};

/* sch_ddl_change */

struct ddl_slice_case {
	const char	*name;
	u32		weight;		/* of job 0, green from 0 */
	bool		renewed;	/* job 0 was alone at its slice end */
	u32		old_us;
	u32		new_us;
	u32		at_us;
	u32		end_us;		/* job 0's slice now ends */
};

static const struct ddl_slice_case ddl_slice_cases[] = {
	{ "longer", 1, false, 1000, 3000, 500, 3000 },
	{ "shorter", 1, false, 1000, 800, 500, 800 },
	{ "shorter_end_passed", 1, false, 1000, 200, 500, 500 },
	{ "weighted", 2, false, 1000, 3000, 500, 6000 },
	{ "unchanged", 1, false, 1000, 1000, 500, 1000 },
	{ "to_minimum", 1, false, 20000, DDL_SLICE_MIN, 50, 100 },
	{ "longer_after_renewal", 1, true, 1000, 2000, 1500, 3000 },
	{ "shorter_after_renewal", 1, true, 1000, 300, 1200, 1300 },
};

KUNIT_ARRAY_PARAM_DESC(ddl_slice, ddl_slice_cases, name);

/* A new slice length applies to the running slice, from its start. */
static void ddl_change_slice_test(struct kunit *test)
{
	const struct ddl_slice_case *c = test->param_value;
	struct ddl_sim *sim = ddl_sim_new(test, 2);
	const u64 at = c->at_us * DDL_T_US, end = c->end_us * DDL_T_US;
	const u64 turn = max(at, end), next_end = turn + c->new_us * DDL_T_US;
	struct ddl_params old;

	sim->p.slice_us = c->old_us;
	ddl_set_weight(&sim->s, &sim->p, 0, c->weight);
	ddl_sim_enqueue(sim, 0, DDL_T_LOTS);
	KUNIT_ASSERT_EQ(test, ddl_sim_send(sim), 0U);
	if (c->renewed) {
		u64 t = (u64)c->weight * c->old_us * DDL_T_US;

		KUNIT_ASSERT_EQ(test, ddl_sim_send_at(sim, t), 0U);
		KUNIT_ASSERT_EQ(test, sim->s.rotations, 0ULL);
	}
	ddl_sim_enqueue(sim, 1, DDL_T_LOTS);

	old = sim->p;
	sim->p.slice_us = c->new_us;
	sim->now = at;
	ddl_reconfigure(&sim->s, &old, &sim->p, at);
	if (end > at)
		KUNIT_EXPECT_EQ(test, ddl_sim_send_at(sim, end - 1), 0U);
	KUNIT_EXPECT_EQ(test, ddl_sim_send_at(sim, turn), 1U);
	KUNIT_EXPECT_EQ(test, sim->reason, DDL_R_GREEN);
	KUNIT_EXPECT_EQ(test, sim->s.rotations, 1ULL);
	/* The next slice has the new length. */
	KUNIT_EXPECT_EQ(test, ddl_sim_send_at(sim, next_end - 1), 1U);
	KUNIT_EXPECT_EQ(test, ddl_sim_send_at(sim, next_end), 0U);
}

struct ddl_keych_case {
	const char	*name;
	u32		new_key;
	bool		bind2;		/* a filter points at class 2 */
	u32		mapped;		/* keys_mapped after the change */
	u32		want[3];	/* classes of three new keys */
};

static const struct ddl_keych_case ddl_keych_cases[] = {
	{ "key_changed", TC_DDL_KEY_DPORT, false, 0, { 0, 1, 2 } },
	{ "key_changed_bound_stays", TC_DDL_KEY_MARK, true, 0, { 0, 1, 3 } },
	{ "key_to_none", TC_DDL_KEY_NONE, false, 0, { 0, 1, 2 } },
	{ "key_unchanged", TC_DDL_KEY_SPORT, false, 3,
	  { 3, DDL_NONE, DDL_NONE } },
};

KUNIT_ARRAY_PARAM_DESC(ddl_keych, ddl_keych_cases, name);

/*
 * A new key releases every key mapping; the classes keep their packets and
 * backlog.  Another change (here the slice) keeps the mappings.
 */
static void ddl_change_key_test(struct kunit *test)
{
	const struct ddl_keych_case *c = test->param_value;
	struct ddl_sim *sim = ddl_sim_new(test, 4);
	struct ddl_sched *s = &sim->s;
	const bool changed = c->new_key != sim->p.key;
	const u32 keyed[3] = { 0, 1, c->bind2 ? 3 : 2 };
	struct ddl_params old;
	u32 i;

	sim->p.keyttl_ms = 1000;
	if (c->bind2)
		ddl_bind(&s->keymap, 2);
	for (i = 0; i < 3; i++)
		KUNIT_ASSERT_EQ(test, ddl_key_class(s, &sim->p, 10 + 10 * i, 0),
				keyed[i]);
	ddl_sim_enqueue(sim, 1, 3);
	KUNIT_ASSERT_EQ(test, s->keymap.mapped, 3U);

	old = sim->p;
	sim->p.key = c->new_key;
	if (!changed)
		sim->p.slice_us = 2 * old.slice_us;
	sim->now = DDL_T_MS;
	ddl_reconfigure(s, &old, &sim->p, sim->now);

	KUNIT_EXPECT_EQ(test, s->keymap.mapped, c->mapped);
	for (i = 0; i < 3; i++)
		KUNIT_EXPECT_EQ_MSG(test, s->cls[keyed[i]].keymap.keyed, !changed,
				    "class %u", keyed[i]);
	KUNIT_EXPECT_TRUE(test, s->cls[1].backlogged);
	KUNIT_EXPECT_EQ(test, ddl_bm_next(s, 0), 1U);
	if (!changed)
		KUNIT_EXPECT_EQ(test, ddl_key_class(s, &sim->p, 10, sim->now),
				0U);

	/* New keys, while class 1 still holds its packets. */
	for (i = 0; i < 3; i++) {
		u32 idx = ddl_key_class(s, &sim->p, 100 + i, sim->now);

		KUNIT_EXPECT_EQ_MSG(test, idx, c->want[i], "new key %u",
				    100 + i);
	}
	KUNIT_EXPECT_FALSE(test, s->cls[2].keymap.keyed && c->bind2);

	for (i = 0; i < 3; i++) {
		KUNIT_EXPECT_EQ(test, ddl_sim_send(sim), 1U);
		KUNIT_EXPECT_EQ(test, sim->reason, DDL_R_GREEN);
	}
	KUNIT_EXPECT_EQ(test, ddl_sim_send(sim), DDL_NONE);
}

struct ddl_mode_case {
	const char	*name;
	u32		old_mode;
	u32		new_mode;
	u32		green;		/* green first */
	bool		green_busy;	/* ... and keeps packets */
	u32		n;
	u32		act[2];		/* backlogged next, in this order */
	u32		before;
	enum ddl_reason	before_reason;
	u32		after;
	enum ddl_reason	after_reason;
};

static const struct ddl_mode_case ddl_mode_cases[] = {
	{ "rotate_to_static", TC_DDL_MODE_ROTATE, TC_DDL_MODE_STATIC, 3, true,
	  1, { 1 }, 3, DDL_R_GREEN, 1, DDL_R_GREEN },
	{ "static_to_rotate", TC_DDL_MODE_STATIC, TC_DDL_MODE_ROTATE, 1, true,
	  1, { 3 }, 1, DDL_R_GREEN, 1, DDL_R_GREEN },
	{ "rotate_to_green", TC_DDL_MODE_ROTATE, TC_DDL_MODE_GREEN, 3, false,
	  2, { 1, 5 }, 5, DDL_R_YELLOW, 1, DDL_R_YELLOW },
	{ "green_to_rotate", TC_DDL_MODE_GREEN, TC_DDL_MODE_ROTATE, 3, false,
	  2, { 1, 5 }, 1, DDL_R_YELLOW, 5, DDL_R_YELLOW },
	{ "green_to_static", TC_DDL_MODE_GREEN, TC_DDL_MODE_STATIC, 3, false,
	  2, { 5, 1 }, 5, DDL_R_YELLOW, 1, DDL_R_GREEN },
};

KUNIT_ARRAY_PARAM_DESC(ddl_mode, ddl_mode_cases, name);

/* A new mode takes over at the next pick. */
static void ddl_change_mode_test(struct kunit *test)
{
	const struct ddl_mode_case *c = test->param_value;
	struct ddl_sim *sim = ddl_sim_new(test, 8);
	struct ddl_params old;
	u32 i;

	sim->p.mode = c->old_mode;
	ddl_sim_enqueue(sim, c->green, c->green_busy ? DDL_T_LOTS : 1);
	KUNIT_ASSERT_EQ(test, ddl_sim_send(sim), c->green);
	KUNIT_ASSERT_EQ(test, sim->s.green, c->green);
	for (i = 0; i < c->n; i++)
		ddl_sim_enqueue(sim, c->act[i], DDL_T_LOTS);

	KUNIT_EXPECT_EQ(test, ddl_sim_send_at(sim, 10 * DDL_T_US), c->before);
	KUNIT_EXPECT_EQ(test, sim->reason, c->before_reason);
	old = sim->p;
	sim->p.mode = c->new_mode;
	ddl_reconfigure(&sim->s, &old, &sim->p, 20 * DDL_T_US);
	KUNIT_EXPECT_EQ(test, ddl_sim_send_at(sim, 30 * DDL_T_US), c->after);
	KUNIT_EXPECT_EQ(test, sim->reason, c->after_reason);
	if (c->after_reason == DDL_R_GREEN)
		KUNIT_EXPECT_EQ(test, sim->s.green, c->after);
	else
		KUNIT_EXPECT_EQ(test, sim->s.green, c->green);
	KUNIT_EXPECT_EQ(test, sim->s.rotations, 0ULL);
}

struct ddl_bgch_case {
	const char	*name;
	u32		old_share;
	u32		new_share;
	bool		after_bg;	/* change after a background packet */
	enum ddl_reason	next[5];	/* reasons of the next picks */
};

#define DDL_T_G	DDL_R_GREEN
#define DDL_T_B	DDL_R_BGSHARE

static const struct ddl_bgch_case ddl_bgch_cases[] = {
	{ "changed_credit_dropped", 20, 10, false,
	  { DDL_T_G, DDL_T_B, DDL_T_G, DDL_T_G, DDL_T_G } },
	{ "unchanged_credit_kept", 20, 20, false,
	  { DDL_T_B, DDL_T_G, DDL_T_G, DDL_T_G, DDL_T_G } },
	{ "changed_debt_dropped", 20, 25, true,
	  { DDL_T_G, DDL_T_B, DDL_T_G, DDL_T_G, DDL_T_G } },
	{ "unchanged_debt_kept", 20, 20, true,
	  { DDL_T_G, DDL_T_G, DDL_T_G, DDL_T_G, DDL_T_B } },
	{ "to_zero", 20, 0, false,
	  { DDL_T_G, DDL_T_G, DDL_T_G, DDL_T_G, DDL_T_G } },
	{ "from_zero", 0, 20, false,
	  { DDL_T_G, DDL_T_B, DDL_T_G, DDL_T_G, DDL_T_G } },
};

KUNIT_ARRAY_PARAM_DESC(ddl_bgch, ddl_bgch_cases, name);

/*
 * A new bgshare starts from a clean slate: credit earned (or debt run up)
 * under the old share is dropped.  Another change keeps it.
 */
static void ddl_change_bgshare_test(struct kunit *test)
{
	const struct ddl_bgch_case *c = test->param_value;
	struct ddl_sim *sim = ddl_sim_new(test, 2);
	const u32 bg = DDL_BG(&sim->s);
	struct ddl_params old;
	u32 i;

	sim->p.mode = TC_DDL_MODE_STATIC;
	sim->p.bgshare = c->old_share;
	ddl_sim_enqueue(sim, 0, DDL_T_LOTS);
	ddl_sim_enqueue(sim, bg, DDL_T_LOTS);
	KUNIT_ASSERT_EQ(test, ddl_sim_send(sim), 0U);
	if (c->after_bg) {
		KUNIT_ASSERT_EQ(test, ddl_sim_send(sim), bg);
		KUNIT_ASSERT_EQ(test, sim->reason, DDL_R_BGSHARE);
	}

	old = sim->p;
	sim->p.bgshare = c->new_share;
	if (c->new_share == c->old_share)
		sim->p.slice_us = 2 * old.slice_us;
	ddl_reconfigure(&sim->s, &old, &sim->p, sim->now);
	for (i = 0; i < ARRAY_SIZE(c->next); i++) {
		sim->now += DDL_T_PKT_NS;
		KUNIT_EXPECT_EQ_MSG(test, ddl_sim_send(sim),
				    c->next[i] == DDL_R_GREEN ? 0U : bg,
				    "packet %u", i);
		KUNIT_EXPECT_EQ_MSG(test, sim->reason, c->next[i], "packet %u",
				    i);
	}
}

/* Reconfiguring an idle scheduler changes nothing but the parameters. */
static void ddl_change_idle_test(struct kunit *test)
{
	struct ddl_sim *sim = ddl_sim_new(test, 4);
	struct ddl_params old = sim->p;

	sim->p.slice_us = DDL_SLICE_MIN;
	sim->p.bgshare = DDL_BGSHARE_MAX;
	sim->p.key = TC_DDL_KEY_MARK;
	sim->p.mode = TC_DDL_MODE_GREEN;
	ddl_reconfigure(&sim->s, &old, &sim->p, DDL_T_MS);
	KUNIT_EXPECT_EQ(test, sim->s.green, DDL_NONE);
	KUNIT_EXPECT_EQ(test, sim->s.keymap.mapped, 0U);
	KUNIT_EXPECT_EQ(test, ddl_sim_send(sim), DDL_NONE);
	KUNIT_EXPECT_EQ(test, ddl_key_class(&sim->s, &sim->p, 7, DDL_T_MS),
			0U);
}

static struct kunit_case ddl_change_test_cases[] = {
	KUNIT_CASE_PARAM(ddl_change_slice_test, ddl_slice_gen_params),
	KUNIT_CASE_PARAM(ddl_change_key_test, ddl_keych_gen_params),
	KUNIT_CASE_PARAM(ddl_change_mode_test, ddl_mode_gen_params),
	KUNIT_CASE_PARAM(ddl_change_bgshare_test, ddl_bgch_gen_params),
	KUNIT_CASE(ddl_change_idle_test),
	{}
};

static struct kunit_suite ddl_change_test_suite = {
	.name = "sch_ddl_change",
	.init = ddl_sched_init_case,
	.exit = ddl_sched_exit,
	.test_cases = ddl_change_test_cases,
};

/* sch_ddl_turn: automatic turns (slice auto, yield auto) */

#define DDL_T_JOBS_MAX	64

/*
 * A periodic job: a burst of @pkts packets arrives at once; @compute_ns
 * after its last packet left, the next one arrives.  One iteration runs
 * from a burst's arrival to the next's: alone, @pkts packet times plus
 * @compute_ns.
 */
struct ddl_t_job {
	u32	pkts;
	u64	compute_ns;
	u32	stop_after;	/* no burst after this many; 0: never */
	u64	next;		/* arrival of the next burst; U64_MAX: none */
	u64	start;		/* arrival of the current burst */
	u64	done;		/* when the last burst's last packet left */
	u32	iters;		/* bursts completed */
	u32	counted;	/* ... of them after the warm-up */
	u64	iter_sum;	/* their iteration times, ns */
};

/* Jobs on a link of one packet per DDL_T_PKT_NS, scheduled by the core. */
struct ddl_t_link {
	struct ddl_sim		*sim;
	struct ddl_t_job	job[DDL_T_JOBS_MAX];
	u32			njobs;
	u32			warmup;	/* iterations of each job not counted */
};

static struct ddl_t_link *ddl_t_link_new(struct kunit *test, u32 njobs,
					 u32 pkts, u64 compute_ns)
{
	struct ddl_t_link *l;
	u32 j;

	l = kunit_kzalloc(test, sizeof(*l), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, l);
	l->sim = ddl_sim_new(test, njobs);
	l->sim->rate = DDL_GBIT(1);	/* a packet per DDL_T_PKT_NS */
	/* The defaults, as a user gets them: slice and yield auto. */
	l->sim->p.slice_us = DDL_SLICE_DEFAULT;
	l->sim->p.yield_us = DDL_YIELD_DEFAULT;
	l->njobs = njobs;
	for (j = 0; j < njobs; j++) {
		l->job[j].pkts = pkts;
		l->job[j].compute_ns = compute_ns;
		l->job[j].next = 0;	/* every job starts at once */
	}
	return l;
}

static u64 ddl_t_solo_ns(const struct ddl_t_job *jb)
{
	return jb->pkts * DDL_T_PKT_NS + jb->compute_ns;
}

/* A burst of job @j arrives, told to the core as the glue tells it. */
static void ddl_t_arrive(struct ddl_t_link *l, u32 j)
{
	struct ddl_sim *sim = l->sim;

	ddl_sim_arrive(sim, j, l->job[j].pkts, sim->now);
	l->job[j].start = sim->now;
	l->job[j].next = U64_MAX;
}

/*
 * Run the link until @until; bounded by @until / DDL_T_PKT_NS packets.  A
 * long run takes over 20 s on a KASAN kernel under emulation: it lets the
 * CPU go now and then, or the soft-lockup watchdog fires.
 */
static void ddl_t_run(struct ddl_t_link *l, u64 until)
{
	struct ddl_sim *sim = l->sim;
	struct ddl_t_job *jb;
	u32 j, idx, n = 0;
	u64 next;

	while (sim->now < until) {
		if (!(++n % 4096))
			cond_resched();
		next = U64_MAX;
		for (j = 0; j < l->njobs; j++) {
			if (l->job[j].next <= sim->now)
				ddl_t_arrive(l, j);
			next = min(next, l->job[j].next);
		}
		idx = ddl_sim_send(sim);
		if (idx == DDL_NONE) {
			if (next == U64_MAX)
				return;
			sim->now = min(next, until);
			continue;
		}
		if (idx >= l->njobs || sim->qlen[idx])
			continue;
		/* The burst's last packet left: the job computes. */
		jb = &l->job[idx];
		jb->done = sim->now;
		if (++jb->iters > l->warmup) {
			jb->iter_sum += sim->now + jb->compute_ns - jb->start;
			jb->counted++;
		}
		if (!jb->stop_after || jb->iters < jb->stop_after)
			jb->next = sim->now + jb->compute_ns;
	}
}

/* Average iteration of job @j after the warm-up, in 1/1000 of its solo. */
static u64 ddl_t_permille(struct kunit *test, const struct ddl_t_link *l,
			  u32 j)
{
	const struct ddl_t_job *jb = &l->job[j];

	KUNIT_ASSERT_GT(test, jb->counted, 0U);
	return div64_u64(jb->iter_sum * 1000, jb->counted * ddl_t_solo_ns(jb));
}

struct ddl_turn_value_case {
	const char	*name;
	u32		slice_us;
	u32		yield_us;
	u32		weight;
	u16		samples;	/* learned intervals */
	u64		period;		/* learned period, ns */
	u64		turn;		/* ddl_turn_ns(), ns */
	u64		yield;		/* ddl_yield_ns(), ns */
};

static const struct ddl_turn_value_case ddl_turn_value_cases[] = {
	{ "explicit_slice_times_weight", 1000, 0, 2, 5, 40 * DDL_T_MS,
	  2 * DDL_T_MS, 0 },
	{ "explicit_yield", 1000, 300, 1, 5, 40 * DDL_T_MS, DDL_T_MS,
	  300 * DDL_T_US },
	{ "auto_nothing_learned", TC_DDL_AUTO, TC_DDL_AUTO, 1, 0, 0, 0,
	  DDL_BURST_GAP_US * DDL_T_US },
	{ "auto_learning_restarted", TC_DDL_AUTO, TC_DDL_AUTO, 1, 0,
	  40 * DDL_T_MS, 0, DDL_BURST_GAP_US * DDL_T_US },
	{ "auto_four_periods", TC_DDL_AUTO, TC_DDL_AUTO, 1, 1, 40 * DDL_T_MS,
	  160 * DDL_T_MS, 40 * DDL_T_MS },
	{ "auto_times_weight", TC_DDL_AUTO, TC_DDL_AUTO, 3, 9, 40 * DDL_T_MS,
	  480 * DDL_T_MS, 40 * DDL_T_MS },
	{ "auto_short_period_yield_floor", TC_DDL_AUTO, TC_DDL_AUTO, 1, 4,
	  100 * DDL_T_US, 400 * DDL_T_US, DDL_BURST_GAP_US * DDL_T_US },
	{ "auto_capped_at_slice_max", TC_DDL_AUTO, TC_DDL_AUTO, 256, 4,
	  50000 * DDL_T_MS, DDL_SLICE_MAX * DDL_T_US, 50000 * DDL_T_MS },
	{ "auto_slice_explicit_yield", TC_DDL_AUTO, 0, 1, 4, 40 * DDL_T_MS,
	  160 * DDL_T_MS, 0 },
};

KUNIT_ARRAY_PARAM_DESC(ddl_turn_value, ddl_turn_value_cases, name);

/* The turn and yield times the rule derives from what a job taught it. */
static void ddl_turn_value_test(struct kunit *test)
{
	const struct ddl_turn_value_case *c = test->param_value;
	struct ddl_sim *sim = ddl_sim_new(test, 2);
	struct ddl_cls *cl = &sim->s.cls[1];

	sim->p.slice_us = c->slice_us;
	sim->p.yield_us = c->yield_us;
	cl->weight = c->weight;
	cl->pred.samples = c->samples;
	cl->pred.period = c->period;
	KUNIT_EXPECT_EQ(test, ddl_turn_ns(&sim->s, &sim->p, 1), c->turn);
	KUNIT_EXPECT_EQ(test, ddl_yield_ns(&sim->s, &sim->p, 1), c->yield);
}

struct ddl_converge_case {
	const char	*name;
	u32		jobs;
	u32		pkts;
	u64		compute_ns;
	u32		slice_us;	/* 0: the defaults */
	u32		permille_min;	/* iteration / solo, at least */
	u32		permille_max;	/* ... at most */
};

static const struct ddl_converge_case ddl_converge_cases[] = {
	/* 36 ms of bursts in a 42 ms solo iteration: they fit. */
	{ "three_jobs_fit", 3, 1000, 30 * DDL_T_MS, 0, 1000, 1050 },
	/* 24 of 30 ms: a tight fit. */
	{ "four_jobs_tight_fit", 4, 500, 24 * DDL_T_MS, 0, 1000, 1050 },
	/* Short fixed slices cut every burst: the jobs stay in step. */
	{ "fixed_2ms_slices_stay_in_step", 3, 1000, 30 * DDL_T_MS, 2000,
	  1200, 2000 },
};

KUNIT_ARRAY_PARAM_DESC(ddl_converge, ddl_converge_cases, name);

/*
 * Jobs whose bursts fit in one iteration, started together: under the
 * automatic turns their bursts fall into step behind each other within a
 * few iterations, and from then on every job iterates at its solo speed
 * (the interleaving bound), and no turn ends in the middle of a burst.
 */
static void ddl_turn_converge_test(struct kunit *test)
{
	const struct ddl_converge_case *c = test->param_value;
	struct ddl_t_link *l = ddl_t_link_new(test, c->jobs, c->pkts,
					      c->compute_ns);
	u32 j;

	if (c->slice_us) {
		l->sim->p.slice_us = c->slice_us;
		l->sim->p.yield_us = 1000;
	}
	l->warmup = 20;
	ddl_t_run(l, 60 * ddl_t_solo_ns(&l->job[0]));
	for (j = 0; j < c->jobs; j++) {
		u64 pm = ddl_t_permille(test, l, j);

		KUNIT_EXPECT_GE_MSG(test, pm, (u64)c->permille_min, "job %u", j);
		KUNIT_EXPECT_LE_MSG(test, pm, (u64)c->permille_max, "job %u", j);
	}
	if (!c->slice_us) {
		KUNIT_EXPECT_EQ(test, l->sim->s.turns_forced, 0ULL);
		KUNIT_EXPECT_GT(test, l->sim->s.rotations, 0ULL);
	}
}

/*
 * A job that stops: once it has been idle for its learned period, green
 * goes to a job with packets, which then runs alone at its solo speed.
 */
static void ddl_turn_job_stops_test(struct kunit *test)
{
	struct ddl_t_link *l = ddl_t_link_new(test, 2, 1000, 30 * DDL_T_MS);
	struct ddl_sched *s = &l->sim->s;
	u64 t, period, solo = ddl_t_solo_ns(&l->job[1]);

	l->job[0].stop_after = 10;
	ddl_t_run(l, 10 * solo);
	KUNIT_ASSERT_EQ(test, l->job[0].iters, 10U);
	KUNIT_ASSERT_TRUE(test, s->cls[0].pred.samples > 0);
	period = s->cls[0].pred.period;
	/* Find job 0 green after its last burst, or make it so. */
	if (s->green != 0) {
		ddl_t_run(l, l->sim->now + 4 * period);
		KUNIT_ASSERT_EQ(test, s->green, 1U);
		return;
	}
	for (t = l->job[0].done; s->green == 0 && t < l->job[0].done +
	     4 * period; t += DDL_T_MS)
		ddl_t_run(l, t);
	KUNIT_EXPECT_EQ(test, s->green, 1U);
	/* Idle for its period, then handed on at job 1's next packet. */
	KUNIT_EXPECT_LE(test, l->sim->now, l->job[0].done + period + solo +
			DDL_T_MS);
	KUNIT_EXPECT_GE(test, l->sim->now, l->job[0].done + period);
	KUNIT_EXPECT_EQ(test, s->cls[0].yields, 1ULL);

	l->job[1].iter_sum = 0;
	l->job[1].counted = 0;
	l->warmup = l->job[1].iters + 1;
	ddl_t_run(l, l->sim->now + 20 * solo);
	KUNIT_EXPECT_LE(test, ddl_t_permille(test, l, 1), 1001ULL);
}

/*
 * A job whose period changes: the learned period, and with it the turn,
 * follow within a few bursts, and the jobs fall into step again.
 */
static void ddl_turn_period_change_test(struct kunit *test)
{
	struct ddl_t_link *l = ddl_t_link_new(test, 2, 1000, 30 * DDL_T_MS);
	struct ddl_sim *sim = l->sim;
	u64 solo, turn;

	ddl_t_run(l, 20 * ddl_t_solo_ns(&l->job[0]));
	l->job[0].compute_ns = 60 * DDL_T_MS;
	solo = ddl_t_solo_ns(&l->job[0]);
	l->warmup = l->job[0].iters + 10;
	l->job[0].iter_sum = 0;
	l->job[0].counted = 0;
	ddl_t_run(l, sim->now + 30 * solo);
	KUNIT_EXPECT_LE(test, ddl_t_permille(test, l, 0), 1050ULL);
	KUNIT_EXPECT_GE(test, ddl_t_permille(test, l, 0), 1000ULL);
	/* Within 5 % of the new solo period, and the turn four of it. */
	KUNIT_EXPECT_LE(test, sim->s.cls[0].pred.period, solo * 105 / 100);
	KUNIT_EXPECT_GE(test, sim->s.cls[0].pred.period, solo * 95 / 100);
	turn = ddl_turn_ns(&sim->s, &sim->p, 0);
	KUNIT_EXPECT_EQ(test, turn, 4 * sim->s.cls[0].pred.period);
}

/*
 * 64 jobs whose bursts do not fit: the order keeps rotating, and over the
 * run each job gets its fair share of the link within a quarter.  (Green
 * goes to the next job with packets: a job computing at every handover is
 * passed over as green, and still gets its share.)
 */
static void ddl_turn_many_jobs_test(struct kunit *test)
{
	struct ddl_t_link *l = ddl_t_link_new(test, 64, 50, 30 * DDL_T_MS);
	struct ddl_sched *s = &l->sim->s;
	u64 sum = 0, mean;
	u32 j;

	ddl_t_run(l, 40000 * DDL_T_MS);
	for (j = 0; j < 64; j++)
		sum += l->sim->bytes[j];
	mean = div_u64(sum, 64);
	KUNIT_EXPECT_GE(test, s->rotations, 64ULL);
	for (j = 0; j < 64; j++) {
		KUNIT_EXPECT_GE_MSG(test, l->sim->bytes[j] * 4, mean * 3,
				    "job %u", j);
		KUNIT_EXPECT_LE_MSG(test, l->sim->bytes[j] * 4, mean * 5,
				    "job %u", j);
	}
}

/* One job: never a rotation or a yield, always its solo speed. */
static void ddl_turn_one_job_test(struct kunit *test)
{
	struct ddl_t_link *l = ddl_t_link_new(test, 1, 1000, 30 * DDL_T_MS);

	l->warmup = 1;
	ddl_t_run(l, 30 * ddl_t_solo_ns(&l->job[0]));
	KUNIT_EXPECT_EQ(test, ddl_t_permille(test, l, 0), 1000ULL);
	KUNIT_EXPECT_EQ(test, l->sim->s.rotations, 0ULL);
	KUNIT_EXPECT_EQ(test, l->sim->s.yields, 0ULL);
	KUNIT_EXPECT_EQ(test, l->sim->s.green, 0U);
}

static struct kunit_case ddl_turn_test_cases[] = {
	KUNIT_CASE_PARAM(ddl_turn_value_test, ddl_turn_value_gen_params),
	KUNIT_CASE_PARAM(ddl_turn_converge_test, ddl_converge_gen_params),
	KUNIT_CASE(ddl_turn_job_stops_test),
	KUNIT_CASE(ddl_turn_period_change_test),
	KUNIT_CASE_SLOW(ddl_turn_many_jobs_test),
	KUNIT_CASE(ddl_turn_one_job_test),
	{}
};

static struct kunit_suite ddl_turn_test_suite = {
	.name = "sch_ddl_turn",
	.init = ddl_sched_init_case,
	.exit = ddl_sched_exit,
	.test_cases = ddl_turn_test_cases,
};

/* sch_ddl_ack: the ACK lane */

#define DDL_A_ACK	66U		/* a pure ACK with timestamps, bytes */
#define DDL_A_PKT	1500U		/* data, bytes, and ns on the link */
#define DDL_A_GAP	20000000ULL	/* ns of silence between rounds */
#define DDL_A_QCAP	64U		/* packets a test class can hold */
#define DDL_A_RATE	1000000000ULL	/* bytes/s: a byte per ns */

/*
 * Two job classes in mode fair as the glue keeps them: a FIFO of lengths
 * each, on a link that sends one byte per nanosecond; the bytes the ACK
 * lane sent.
 */
struct ddl_asim {
	struct ddl_sim	*sim;
	u64		lane_bytes;
};

/* Send one packet: the job it came from. */
static u32 ddl_asim_send(struct ddl_asim *a)
{
	struct ddl_sim *sim = a->sim;
	u32 idx, len;

	idx = ddl_sim_pick(sim);
	KUNIT_ASSERT_LT(sim->test, idx, 2U);
	KUNIT_ASSERT_GT(sim->test, sim->qlen[idx], 0U);
	len = sim->fifo[idx * sim->fifo_cap + sim->head[idx]];
	ddl_sim_serve(sim, idx);
	if (sim->reason == DDL_R_ACK)
		a->lane_bytes += len;
	return idx;
}

/*
 * Job 0 has learned 40-packet bursts, job 1 20-packet ones, and a burst of
 * job 1 is in progress: a burst of job 0 that begins now is tagged behind
 * it.
 */
static struct ddl_asim *ddl_asim_new(struct kunit *test)
{
	struct ddl_asim *a = kunit_kzalloc(test, sizeof(*a), GFP_KERNEL);
	struct ddl_sim *sim;
	u32 i, r;

	KUNIT_ASSERT_NOT_NULL(test, a);
	a->sim = ddl_psim_new(test, 2);
	sim = a->sim;
	ddl_sim_fifo(sim, DDL_A_QCAP);
	sim->rate = DDL_A_RATE;
	sim->p.mode = TC_DDL_MODE_FAIR;
	sim->p.maxwait_us = DDL_MAXWAIT_MAX;
	sim->p.bgshare = 0;
	for (r = 0; r < 4; r++) {
		for (i = 0; i < 40; i++)
			ddl_sim_push(sim, 0, DDL_A_PKT);
		for (i = 0; i < 20; i++)
			ddl_sim_push(sim, 1, DDL_A_PKT);
		while (sim->qlen[0] + sim->qlen[1])
			ddl_asim_send(a);
		sim->now += DDL_A_GAP;
	}
	KUNIT_ASSERT_EQ(test, sim->s.cls[0].pred.burst_size,
			40ULL * DDL_A_PKT);
	KUNIT_ASSERT_EQ(test, sim->s.cls[1].pred.burst_size,
			20ULL * DDL_A_PKT);
	KUNIT_ASSERT_EQ(test, sim->s.ack_runs, 0ULL);
	for (i = 0; i < 20; i++)
		ddl_sim_push(sim, 1, DDL_A_PKT);
	KUNIT_ASSERT_EQ(test, ddl_asim_send(a), 1U);
	return a;
}

/*
 * A job that holds only pure ACKs (a parameter server's, for the gradients
 * it receives) sends them ahead of the order, which would hold them behind
 * another job's burst, and with them the gradients they acknowledge.  A
 * data packet queued takes the class out of the lane (a FIFO: its ACKs
 * wait with it); ACKs left behind data join the lane once it is sent.
 */
static void ddl_ack_lane_test(struct kunit *test)
{
	struct ddl_asim *a = ddl_asim_new(test);
	struct ddl_sched *s = &a->sim->s;

	/* Job 0 holds an ACK: it goes ahead of job 1's burst. */
	ddl_sim_push(a->sim, 0, DDL_A_ACK);
	KUNIT_EXPECT_EQ(test, ddl_asim_send(a), 0U);
	KUNIT_EXPECT_EQ(test, a->sim->reason, DDL_R_ACK);
	KUNIT_EXPECT_EQ(test, s->ack_runs, 1ULL);
	KUNIT_EXPECT_EQ(test, s->cls[0].ack_runs, 1ULL);
	KUNIT_EXPECT_FALSE(test, s->cls[0].backlogged);
	KUNIT_EXPECT_TRUE(test, list_empty(&s->cls[0].ack_node));

	/*
	 * An ACK, data, an ACK: the data takes job 0 out of the lane, and
	 * the class, a FIFO, waits for job 1's burst.
	 */
	ddl_sim_push(a->sim, 0, DDL_A_ACK);
	ddl_sim_push(a->sim, 0, DDL_A_PKT);
	ddl_sim_push(a->sim, 0, DDL_A_ACK);
	KUNIT_EXPECT_TRUE(test, list_empty(&s->cls[0].ack_node));
	while (a->sim->qlen[1]) {
		KUNIT_ASSERT_EQ(test, ddl_asim_send(a), 1U);
		KUNIT_ASSERT_EQ(test, a->sim->reason, DDL_R_GREEN);
	}
	KUNIT_EXPECT_EQ(test, ddl_asim_send(a), 0U);
	KUNIT_EXPECT_EQ(test, ddl_asim_send(a), 0U);
	KUNIT_EXPECT_EQ(test, a->sim->reason, DDL_R_GREEN);

	/* With the data sent, the ACK left behind is in the lane. */
	KUNIT_EXPECT_FALSE(test, list_empty(&s->cls[0].ack_node));
	a->sim->now += DDL_A_GAP;
	ddl_sim_push(a->sim, 1, DDL_A_PKT);
	KUNIT_EXPECT_EQ(test, ddl_asim_send(a), 0U);
	KUNIT_EXPECT_EQ(test, a->sim->reason, DDL_R_ACK);
	KUNIT_EXPECT_EQ(test, s->ack_runs, 2ULL);
	KUNIT_EXPECT_FALSE(test, s->cls[0].backlogged);
	KUNIT_EXPECT_TRUE(test, list_empty(&s->cls[0].ack_node));
	KUNIT_EXPECT_EQ(test, ddl_asim_send(a), 1U);
}

/*
 * The lane takes at most 1/DDL_ACK_SHARE of the bytes, past the credit it
 * starts with: a job flooding small packets cannot starve the order.  Job
 * 0 keeps DDL_A_QCAP small packets queued while job 1 sends data.
 */
static void ddl_ack_lane_bound_test(struct kunit *test)
{
	struct ddl_asim *a = ddl_asim_new(test);
	struct ddl_sim *sim = a->sim;
	u64 base0 = sim->bytes[0], base1 = sim->bytes[1], others;
	u32 k;

	for (k = 0; k < 20000; k++) {
		while (sim->qlen[0] < DDL_A_QCAP)
			ddl_sim_push(sim, 0, DDL_A_ACK);
		if (sim->qlen[1] < 2)
			ddl_sim_push(sim, 1, DDL_A_PKT);
		ddl_asim_send(a);
	}
	/* What the other bytes earned, and no more; every lane packet counted. */
	others = sim->bytes[0] - base0 + sim->bytes[1] - base1 - a->lane_bytes;
	KUNIT_EXPECT_GT(test, a->lane_bytes, 0ULL);
	KUNIT_EXPECT_LE(test, a->lane_bytes * DDL_ACK_SHARE,
			others + DDL_ACK_CREDIT_MAX + DDL_A_ACK * DDL_ACK_SHARE);
	KUNIT_EXPECT_EQ(test, sim->s.ack_runs * DDL_A_ACK, a->lane_bytes);
}

static struct kunit_case ddl_ack_test_cases[] = {
	KUNIT_CASE(ddl_ack_lane_test),
	KUNIT_CASE(ddl_ack_lane_bound_test),
	{}
};

static struct kunit_suite ddl_ack_test_suite = {
	.name = "sch_ddl_ack",
	.init = ddl_sched_init_case,
	.exit = ddl_sched_exit,
	.test_cases = ddl_ack_test_cases,
};

kunit_test_suites(&ddl_core_test_suite, &ddl_rotation_test_suite,
		  &ddl_yield_test_suite, &ddl_guard_test_suite,
		  &ddl_change_test_suite, &ddl_turn_test_suite,
		  &ddl_ack_test_suite);

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("KUnit tests for the sch_ddl scheduling decisions");
