// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests for the sch_ddl key map (ddl_keymap.c): keys to job classes,
 * exhaustion, reuse after keyttl, classes bound to filters or claimed by
 * them.
 *
 * The suite compiles the core units into its own module and drives them
 * through the simulated qdisc of ddl_kunit_sim.h.
 */

#include <kunit/test.h>

#include "compat.h"

#include "ddl_kunit_core.h"

#include "ddl_kunit_sim.h"

/* sch_ddl_key */

enum ddl_key_op {
	DDL_K_END,
	DDL_K_KEY,	/* ddl_key_class(arg) at @ms gives @want */
	DDL_K_BIND,	/* a filter points at class arg */
	DDL_K_UNBIND,
	DDL_K_ACT,	/* class arg becomes backlogged at @ms */
	DDL_K_DEACT,	/* class arg runs empty at @ms */
	DDL_K_MAPPED,	/* keys_mapped == arg */
	DDL_K_OVERFLOW,	/* key_overflow == arg */
	DDL_K_RECYCLED,	/* key_recycled == arg */
	DDL_K_CLAIM,	/* a filter or skb->priority chose class arg */
	DDL_K_KNOWN,	/* ddl_keymap_known(arg) gives @want */
};

struct ddl_key_step {
	enum ddl_key_op	op;
	u32		arg;
	u32		ms;
	u32		want;
};

#define DDL_T_KEY_STEPS	16

struct ddl_key_case {
	const char		*name;
	u32			jobs;
	u32			keyttl_ms;
	struct ddl_key_step	step[DDL_T_KEY_STEPS];
};

#define K_KEY(key, ms, want)	{ DDL_K_KEY, key, ms, want }
#define K_BIND(idx)		{ DDL_K_BIND, idx, 0, 0 }
#define K_UNBIND(idx)		{ DDL_K_UNBIND, idx, 0, 0 }
#define K_ACT(idx, ms)		{ DDL_K_ACT, idx, ms, 0 }
#define K_DEACT(idx, ms)	{ DDL_K_DEACT, idx, ms, 0 }
#define K_MAPPED(n)		{ DDL_K_MAPPED, n, 0, 0 }
#define K_OVERFLOW(n)		{ DDL_K_OVERFLOW, n, 0, 0 }
#define K_RECYCLED(n)		{ DDL_K_RECYCLED, n, 0, 0 }
#define K_CLAIM(idx)		{ DDL_K_CLAIM, idx, 0, 0 }
#define K_KNOWN(key, want)	{ DDL_K_KNOWN, key, 0, want }

static const struct ddl_key_case ddl_key_cases[] = {
	{ "distinct_keys_lowest_first", 4, 1000, {
		K_KEY(10, 0, 0), K_KEY(20, 0, 1), K_KEY(30, 0, 2),
		K_MAPPED(3), K_OVERFLOW(0) } },
	{ "same_key_same_class", 4, 1000, {
		K_KEY(10, 0, 0), K_KEY(20, 0, 1), K_KEY(10, 1, 0),
		K_KEY(20, 2, 1), K_KEY(10, 5000, 0), K_MAPPED(2),
		K_OVERFLOW(0), K_RECYCLED(0) } },
	{ "exhaustion", 2, 1000, {
		K_KEY(10, 0, 0), K_KEY(20, 0, 1), K_KEY(30, 0, DDL_NONE),
		K_KEY(30, 999, DDL_NONE), K_OVERFLOW(2), K_KEY(10, 999, 0),
		K_KEY(20, 999, 1), K_MAPPED(2), K_RECYCLED(0) } },
	{ "recycle_after_keyttl", 2, 1000, {
		K_KEY(10, 0, 0), K_KEY(20, 0, 1), K_KEY(30, 999, DDL_NONE),
		K_KEY(30, 1000, 0), K_RECYCLED(1), K_KEY(30, 1000, 0),
		K_KEY(10, 1000, 1), K_RECYCLED(2), K_KEY(20, 1000, DDL_NONE),
		K_OVERFLOW(2), K_MAPPED(2) } },
	{ "recycle_keyttl_0", 2, 0, {
		K_KEY(10, 0, 0), K_KEY(20, 0, 1), K_KEY(30, 0, 0),
		K_KEY(40, 0, 1), K_RECYCLED(2), K_OVERFLOW(0), K_MAPPED(2) } },
	{ "backlogged_not_recycled", 2, 1000, {
		K_KEY(10, 0, 0), K_KEY(20, 0, 1), K_ACT(0, 0),
		K_KEY(30, 5000, 1), K_ACT(1, 5000), K_KEY(40, 9000, DDL_NONE),
		K_DEACT(0, 9000), K_KEY(40, 9999, DDL_NONE),
		K_KEY(40, 10000, 0), K_KEY(10, 10000, DDL_NONE),
		K_RECYCLED(2), K_OVERFLOW(3), K_MAPPED(2) } },
	{ "longest_idle_first", 3, 1000, {
		K_KEY(10, 0, 0), K_KEY(20, 0, 1), K_KEY(30, 0, 2),
		K_ACT(0, 1), K_DEACT(0, 2), K_KEY(40, 1001, 1),
		K_KEY(50, 1001, 2), K_KEY(60, 1001, DDL_NONE),
		K_KEY(60, 1002, 0), K_RECYCLED(3) } },
	{ "bound_never_handed_out", 4, 0, {
		K_BIND(0), K_BIND(2), K_KEY(10, 0, 1), K_KEY(20, 0, 3),
		K_KEY(30, 0, 1), K_KEY(40, 0, 3), K_KEY(50, 0, 1),
		K_MAPPED(2), K_RECYCLED(3) } },
	{ "bind_unmaps_key", 4, 1000, {
		K_KEY(10, 0, 0), K_KEY(20, 0, 1), K_BIND(0), K_MAPPED(2),
		K_KEY(10, 0, 2), K_KEY(20, 0, 1), K_MAPPED(2) } },
	{ "bind_unmaps_backlogged_key", 4, 0, {
		K_KEY(10, 0, 0), K_ACT(0, 0), K_BIND(0), K_MAPPED(1),
		K_DEACT(0, 1), K_KEY(20, 2, 1), K_KEY(30, 2, 2),
		K_KEY(40, 2, 3), K_KEY(50, 2, 1), K_RECYCLED(1) } },
	{ "unbind_frees_class", 2, 1000, {
		K_BIND(0), K_KEY(10, 0, 1), K_KEY(20, 0, DDL_NONE),
		K_UNBIND(0), K_KEY(20, 0, 0), K_MAPPED(2), K_OVERFLOW(1) } },
	{ "unbind_lowest_first", 4, 1000, {
		K_BIND(0), K_KEY(10, 0, 1), K_UNBIND(0), K_KEY(20, 0, 0),
		K_KEY(30, 0, 2) } },
	{ "bound_twice", 2, 1000, {
		K_BIND(0), K_BIND(0), K_UNBIND(0), K_KEY(10, 0, 1),
		K_KEY(20, 0, DDL_NONE), K_UNBIND(0), K_KEY(20, 0, 0) } },
	{ "background_bind_ignored", 2, 1000, {
		K_BIND(DDL_T_BG), K_KEY(10, 0, 0), K_UNBIND(DDL_T_BG),
		K_KEY(20, 0, 1), K_MAPPED(2) } },
	/* flow map and skb->priority bind no class: the first packet claims */
	{ "claimed_never_handed_out", 4, 1000, {
		K_CLAIM(0), K_CLAIM(2), K_KEY(10, 0, 1), K_KEY(20, 0, 3),
		K_KEY(30, 0, DDL_NONE), K_MAPPED(2), K_OVERFLOW(1) } },
	{ "claim_takes_class_from_key", 2, 1000, {
		K_KEY(10, 0, 0), K_CLAIM(0), K_MAPPED(0), K_KEY(10, 1, 1),
		K_KEY(20, 1, DDL_NONE), K_MAPPED(1) } },
	{ "claimed_idle_class_not_recycled", 2, 1000, {
		K_KEY(10, 0, 0), K_KEY(20, 0, 1), K_CLAIM(0),
		K_KEY(30, 5000, 1), K_RECYCLED(1), K_MAPPED(1) } },
	{ "background_claim_ignored", 2, 1000, {
		K_CLAIM(DDL_T_BG), K_KEY(10, 0, 0), K_KEY(20, 0, 1),
		K_MAPPED(2) } },
	/* the inline hit: a known key's class, nothing changed */
	{ "known_key_hit_only", 4, 1000, {
		K_KNOWN(10, DDL_NONE), K_MAPPED(0), K_KEY(10, 0, 0),
		K_KEY(20, 0, 1), K_KNOWN(10, 0), K_KNOWN(20, 1),
		K_KNOWN(30, DDL_NONE), K_BIND(0), K_KNOWN(10, DDL_NONE),
		K_MAPPED(2), K_KEY(10, 0, 2), K_KNOWN(10, 2), K_MAPPED(2) } },
};

KUNIT_ARRAY_PARAM_DESC(ddl_key, ddl_key_cases, name);

/* A script of key look-ups, filter binds and queue changes. */
static void ddl_key_map_test(struct kunit *test)
{
	const struct ddl_key_case *c = test->param_value;
	struct ddl_sim *sim = ddl_sim_new(test, c->jobs);
	struct ddl_sched *s = &sim->s;
	u32 i, idx;

	sim->p.keyttl_ms = c->keyttl_ms;
	for (i = 0; i < DDL_T_KEY_STEPS && c->step[i].op != DDL_K_END; i++) {
		const struct ddl_key_step *st = &c->step[i];
		u64 now = st->ms * DDL_T_MS;

		idx = ddl_t_cls(sim, st->arg);
		switch (st->op) {
		case DDL_K_KEY:
			idx = ddl_key_class(s, &sim->p, st->arg, now);
			KUNIT_EXPECT_EQ_MSG(test, idx, st->want,
					    "step %u: key %u at %u ms", i,
					    st->arg, st->ms);
			break;
		case DDL_K_BIND:
			ddl_bind(&s->keymap, idx);
			break;
		case DDL_K_UNBIND:
			ddl_unbind(&s->keymap, idx);
			break;
		case DDL_K_CLAIM:
			ddl_claim(&s->keymap, idx);
			break;
		case DDL_K_KNOWN:
			idx = ddl_keymap_known(&s->keymap, st->arg);
			KUNIT_EXPECT_EQ_MSG(test, idx, st->want,
					    "step %u: known key %u", i, st->arg);
			break;
		case DDL_K_ACT:
			ddl_activate(s, &sim->p, idx, now);
			break;
		case DDL_K_DEACT:
			ddl_deactivate(s, idx, now);
			break;
		case DDL_K_MAPPED:
			KUNIT_EXPECT_EQ_MSG(test, s->keymap.mapped, st->arg,
					    "step %u", i);
			break;
		case DDL_K_OVERFLOW:
			KUNIT_EXPECT_EQ_MSG(test, s->keymap.overflow, (u64)st->arg,
					    "step %u", i);
			break;
		case DDL_K_RECYCLED:
			KUNIT_EXPECT_EQ_MSG(test, s->keymap.recycled, (u64)st->arg,
					    "step %u", i);
			break;
		default:
			KUNIT_FAIL(test, "step %u: bad op %d", i, st->op);
			return;
		}
	}
	for (i = 0; i < c->jobs; i++)
		if (s->cls[i].keymap.bound || test_bit(i, s->keymap.claimed_bm))
			KUNIT_EXPECT_FALSE_MSG(test, s->cls[i].keymap.keyed,
					       "bound or claimed class %u is keyed",
					       i);
}

static const u32 ddl_key_jobs[] = { 1, 2, 3, 64, 100, 1024, 4096 };

static void ddl_key_jobs_desc(const u32 *jobs, char *desc)
{
	snprintf(desc, KUNIT_PARAM_DESC_SIZE, "jobs_%u", *jobs);
}

KUNIT_ARRAY_PARAM(ddl_key_jobs, ddl_key_jobs, ddl_key_jobs_desc);

static u32 ddl_t_key(u32 i)
{
	return (i + 1) * 65537;
}

/*
 * Every class takes a key, in order; the hash finds each again; one key
 * more overflows.  Any number of jobs from DDL_JOBS_MIN works.
 */
static void ddl_key_all_classes_test(struct kunit *test)
{
	const u32 jobs = *(const u32 *)test->param_value;
	struct ddl_sim *sim = ddl_sim_new(test, jobs);
	struct ddl_sched *s = &sim->s;
	u32 buckets = 1U << s->keymap.hash_bits;
	u32 i, idx;

	KUNIT_EXPECT_GE(test, buckets, jobs);
	/* A key's bucket must lie in the table before it is looked up. */
	for (i = 0; i <= jobs; i++)
		KUNIT_ASSERT_LT_MSG(test, ddl_key_bucket(&s->keymap, ddl_t_key(i)),
				    buckets, "key %u, %u buckets",
				    ddl_t_key(i), buckets);

	for (i = 0; i < jobs; i++) {
		idx = ddl_key_class(s, &sim->p, ddl_t_key(i), 0);
		KUNIT_EXPECT_EQ_MSG(test, idx, i, "key %u", ddl_t_key(i));
		if (idx != i)
			return;
	}
	for (i = 0; i < jobs; i++) {
		idx = ddl_key_class(s, &sim->p, ddl_t_key(i), DDL_T_MS);
		KUNIT_EXPECT_EQ_MSG(test, idx, i, "key %u again",
				    ddl_t_key(i));
		if (idx != i)
			return;
	}
	KUNIT_EXPECT_EQ(test, ddl_key_class(s, &sim->p, ddl_t_key(jobs), 0),
			DDL_NONE);
	KUNIT_EXPECT_EQ(test, s->keymap.mapped, jobs);
	KUNIT_EXPECT_EQ(test, s->keymap.overflow, 1ULL);
	KUNIT_EXPECT_EQ(test, s->keymap.recycled, 0ULL);
}

static struct kunit_case ddl_key_test_cases[] = {
	KUNIT_CASE_PARAM(ddl_key_map_test, ddl_key_gen_params),
	KUNIT_CASE_PARAM(ddl_key_all_classes_test, ddl_key_jobs_gen_params),
	{}
};

static struct kunit_suite ddl_key_test_suite = {
	.name = "sch_ddl_key",
	.init = ddl_sched_init_case,
	.exit = ddl_sched_exit,
	.test_cases = ddl_key_test_cases,
};

kunit_test_suite(ddl_key_test_suite);

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("KUnit tests for the sch_ddl key map");
