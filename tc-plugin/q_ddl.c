// SPDX-License-Identifier: GPL-2.0
/*
 * q_ddl.c	tc plugin for the sch_ddl qdisc.
 *
 * Loaded by tc from $TC_LIB_DIR/q_ddl.so; the helpers it calls (get_u32,
 * print_uint, ...) are resolved from the tc binary.
 */

#include <stdio.h>
#include <stdlib.h>
#include <stddef.h>
#include <string.h>

#include "utils.h"
#include "tc_util.h"

#include "../include/uapi/linux/sch_ddl.h"

/* Ranges (also enforced by the kernel). */
#define DDL_JOBS_MAX		4096
#define DDL_SLICE_MIN		100U		/* us */
#define DDL_SLICE_MAX		10000000U	/* us */
#define DDL_YIELD_MAX		10000000U	/* us */
#define DDL_MAXWAIT_MIN		1000U		/* us */
#define DDL_MAXWAIT_MAX		60000000U	/* us */
#define DDL_BGSHARE_MAX		50
#define DDL_KEYTTL_MAX		3600000000U	/* us; sent in ms */
#define DDL_WEIGHT_MAX		256

static const char * const ddl_modes[] = {
	[TC_DDL_MODE_ROTATE]	= "rotate",
	[TC_DDL_MODE_GREEN]	= "green",
	[TC_DDL_MODE_STATIC]	= "static",
};

static const char * const ddl_keys[] = {
	[TC_DDL_KEY_NONE]	= "none",
	[TC_DDL_KEY_SPORT]	= "sport",
	[TC_DDL_KEY_DPORT]	= "dport",
	[TC_DDL_KEY_MARK]	= "mark",
	[TC_DDL_KEY_DSCP]	= "dscp",
};

static void explain(void)
{
	fprintf(stderr,
		"Usage: ... ddl [ limit PACKETS ] [ jobs N ]\n"
		"               [ mode rotate|green|static ] [ slice TIME ]\n"
		"               [ yield TIME ] [ maxwait TIME ] [ bgshare PERCENT ]\n"
		"               [ key none|sport|dport|mark|dscp ] [ keyttl TIME ]\n"
		"\n"
		"  limit    maximum packets queued in the qdisc, 1..1048576 (default 10000)\n"
		"  jobs     number of job classes, 1..4096, fixed at creation (default 16)\n"
		"  mode     what rotates each slice (default rotate)\n"
		"  slice    green time of a job of weight 1, 100us..10s (default 20ms)\n"
		"  yield    an idle green job hands on after, 0..10s, 0: never (default 1ms)\n"
		"  maxwait  starvation guard, 1ms..60s, at least slice (default 500ms)\n"
		"  bgshare  minimum share of the background class, 0..50%% (default 5%%)\n"
		"  key      built-in classification key (default sport)\n"
		"  keyttl   idle time before a key class is reused, 0..3600s (default 1s)\n");
}

static void cexplain(void)
{
	fprintf(stderr,
		"Usage: ... class ... ddl [ weight W ]\n"
		"\n"
		"  weight   slice multiplier of a job class, 1..256 (default 1)\n");
}

/*
 * get_time() (microseconds) with a range check.  get_time() stores its
 * double result in a u32, which wraps silently, so the magnitude is checked
 * on the double first, by the first letter of the unit; get_time() then
 * checks the unit itself.
 */
static int ddl_get_time(__u32 *us, const char *arg, __u32 lo, __u32 hi)
{
	double t;
	char *p;

	t = strtod(arg, &p);
	if (*p == 's' || *p == 'S')
		t *= 1000000;
	else if (*p == 'm' || *p == 'M')
		t *= 1000;
	if (!(t >= 0 && t <= hi))
		return -1;
	if (get_time(us, arg))
		return -1;
	return *us < lo ? -1 : 0;
}

/* An unsigned integer in [lo, hi], optionally followed by '%'. */
static int ddl_get_percent(__u32 *val, const char *arg, __u32 lo, __u32 hi)
{
	char buf[16];
	size_t len = strlen(arg);

	if (len == 0 || len >= sizeof(buf))
		return -1;
	memcpy(buf, arg, len + 1);
	if (buf[len - 1] == '%')
		buf[len - 1] = '\0';
	if (get_u32(val, buf, 10))
		return -1;
	return *val < lo || *val > hi ? -1 : 0;
}

static int ddl_get_name(__u32 *val, const char *arg,
			const char * const *names, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		if (names[i] && strcmp(arg, names[i]) == 0) {
			*val = i;
			return 0;
		}
	}
	return -1;
}

static int ddl_illegal(const char *what)
{
	fprintf(stderr, "Illegal \"%s\"\n", what);
	explain();
	return -1;
}

static int ddl_parse_opt(struct qdisc_util *qu, int argc, char **argv,
			 struct nlmsghdr *n, const char *dev)
{
	bool set[TCA_DDL_MAX + 1] = {};
	__u32 val[TCA_DDL_MAX + 1] = {};
	struct rtattr *tail;
	int type;

	while (argc > 0) {
		if (strcmp(*argv, "limit") == 0) {
			type = TCA_DDL_LIMIT;
			NEXT_ARG();
			/* The upper bound is left to the kernel. */
			if (get_u32(&val[type], *argv, 0) || val[type] == 0)
				return ddl_illegal("limit");
		} else if (strcmp(*argv, "jobs") == 0) {
			type = TCA_DDL_JOBS;
			NEXT_ARG();
			if (get_u32(&val[type], *argv, 0) || val[type] == 0 ||
			    val[type] > DDL_JOBS_MAX)
				return ddl_illegal("jobs");
		} else if (strcmp(*argv, "mode") == 0) {
			type = TCA_DDL_MODE;
			NEXT_ARG();
			if (ddl_get_name(&val[type], *argv, ddl_modes,
					 ARRAY_SIZE(ddl_modes)))
				return ddl_illegal("mode");
		} else if (strcmp(*argv, "slice") == 0) {
			type = TCA_DDL_SLICE;
			NEXT_ARG();
			if (ddl_get_time(&val[type], *argv, DDL_SLICE_MIN,
					 DDL_SLICE_MAX))
				return ddl_illegal("slice");
		} else if (strcmp(*argv, "yield") == 0) {
			type = TCA_DDL_YIELD;
			NEXT_ARG();
			if (ddl_get_time(&val[type], *argv, 0, DDL_YIELD_MAX))
				return ddl_illegal("yield");
		} else if (strcmp(*argv, "maxwait") == 0) {
			type = TCA_DDL_MAXWAIT;
			NEXT_ARG();
			if (ddl_get_time(&val[type], *argv, DDL_MAXWAIT_MIN,
					 DDL_MAXWAIT_MAX))
				return ddl_illegal("maxwait");
		} else if (strcmp(*argv, "bgshare") == 0) {
			type = TCA_DDL_BGSHARE;
			NEXT_ARG();
			if (ddl_get_percent(&val[type], *argv, 0,
					    DDL_BGSHARE_MAX))
				return ddl_illegal("bgshare");
		} else if (strcmp(*argv, "key") == 0) {
			type = TCA_DDL_KEY;
			NEXT_ARG();
			if (ddl_get_name(&val[type], *argv, ddl_keys,
					 ARRAY_SIZE(ddl_keys)))
				return ddl_illegal("key");
		} else if (strcmp(*argv, "keyttl") == 0) {
			type = TCA_DDL_KEYTTL;
			NEXT_ARG();
			if (ddl_get_time(&val[type], *argv, 0, DDL_KEYTTL_MAX))
				return ddl_illegal("keyttl");
			val[type] /= 1000;	/* the kernel wants ms */
		} else if (strcmp(*argv, "help") == 0) {
			explain();
			return -1;
		} else {
			fprintf(stderr, "What is \"%s\"?\n", *argv);
			explain();
			return -1;
		}
		set[type] = true;
		argc--;
		argv++;
	}

	/*
	 * Relations between values given together; against the current
	 * or default value of the other one, the kernel checks them.
	 */
	if (set[TCA_DDL_YIELD] && set[TCA_DDL_SLICE] &&
	    val[TCA_DDL_YIELD] >= val[TCA_DDL_SLICE]) {
		fprintf(stderr, "Illegal \"yield\": must be less than \"slice\"\n");
		return -1;
	}
	if (set[TCA_DDL_MAXWAIT] && set[TCA_DDL_SLICE] &&
	    val[TCA_DDL_MAXWAIT] < val[TCA_DDL_SLICE]) {
		fprintf(stderr, "Illegal \"maxwait\": must be at least \"slice\"\n");
		return -1;
	}

	tail = addattr_nest(n, 1024, TCA_OPTIONS | NLA_F_NESTED);
	for (type = TCA_DDL_LIMIT; type <= TCA_DDL_MAX; type++)
		if (set[type])
			addattr32(n, 1024, type, val[type]);
	addattr_nest_end(n, tail);
	return 0;
}

/* Whether attribute @type is present and holds a u32. */
static bool ddl_attr_u32(struct rtattr *tb[], int type, __u32 *val)
{
	if (!tb[type] || RTA_PAYLOAD(tb[type]) < sizeof(__u32))
		return false;
	*val = rta_getattr_u32(tb[type]);
	return true;
}

/* JSON: the number in microseconds; text: "name 20ms". */
static void ddl_print_us(const char *name, __u32 us)
{
	char fmt[32];

	SPRINT_BUF(b1);

	snprintf(fmt, sizeof(fmt), "%s %%s ", name);
	print_uint(PRINT_JSON, name, NULL, us);
	print_string(PRINT_FP, NULL, fmt, sprint_time(us, b1));
}

static void ddl_print_name(const char *name, __u32 v,
			   const char * const *names, size_t n)
{
	char fmt[32];

	if (v < n && names[v]) {
		snprintf(fmt, sizeof(fmt), "%s %%s ", name);
		print_string(PRINT_ANY, name, fmt, names[v]);
	} else {
		snprintf(fmt, sizeof(fmt), "%s %%u ", name);
		print_uint(PRINT_ANY, name, fmt, v);
	}
}

static int ddl_print_opt(struct qdisc_util *qu, FILE *f, struct rtattr *opt)
{
	struct rtattr *tb[TCA_DDL_MAX + 1];
	__u32 v;

	SPRINT_BUF(b1);

	if (!opt)
		return 0;

	parse_rtattr_nested(tb, TCA_DDL_MAX, opt);

	if (ddl_attr_u32(tb, TCA_DDL_LIMIT, &v))
		print_uint(PRINT_ANY, "limit", "limit %up ", v);
	if (ddl_attr_u32(tb, TCA_DDL_JOBS, &v))
		print_uint(PRINT_ANY, "jobs", "jobs %u ", v);
	if (ddl_attr_u32(tb, TCA_DDL_MODE, &v))
		ddl_print_name("mode", v, ddl_modes, ARRAY_SIZE(ddl_modes));
	if (ddl_attr_u32(tb, TCA_DDL_SLICE, &v))
		ddl_print_us("slice", v);
	if (ddl_attr_u32(tb, TCA_DDL_YIELD, &v))
		ddl_print_us("yield", v);
	if (ddl_attr_u32(tb, TCA_DDL_MAXWAIT, &v))
		ddl_print_us("maxwait", v);
	if (ddl_attr_u32(tb, TCA_DDL_BGSHARE, &v))
		print_uint(PRINT_ANY, "bgshare", "bgshare %u%% ", v);
	if (ddl_attr_u32(tb, TCA_DDL_KEY, &v))
		ddl_print_name("key", v, ddl_keys, ARRAY_SIZE(ddl_keys));
	if (ddl_attr_u32(tb, TCA_DDL_KEYTTL, &v)) {
		/* Milliseconds, unlike the other times. */
		print_uint(PRINT_JSON, "keyttl", NULL, v);
		print_string(PRINT_FP, NULL, "keyttl %s ",
			     sprint_time64((__s64)v * 1000000, b1));
	}
	return 0;
}

static int ddl_parse_copt(struct qdisc_util *qu, int argc, char **argv,
			  struct nlmsghdr *n, const char *dev)
{
	bool set_weight = false;
	struct rtattr *tail;
	__u32 weight = 0;

	while (argc > 0) {
		if (strcmp(*argv, "weight") == 0) {
			NEXT_ARG();
			if (get_u32(&weight, *argv, 0) || weight == 0 ||
			    weight > DDL_WEIGHT_MAX) {
				fprintf(stderr, "Illegal \"weight\"\n");
				cexplain();
				return -1;
			}
			set_weight = true;
		} else if (strcmp(*argv, "help") == 0) {
			cexplain();
			return -1;
		} else {
			fprintf(stderr, "What is \"%s\"?\n", *argv);
			cexplain();
			return -1;
		}
		argc--;
		argv++;
	}

	tail = addattr_nest(n, 1024, TCA_OPTIONS | NLA_F_NESTED);
	if (set_weight)
		addattr32(n, 1024, TCA_DDL_CLASS_WEIGHT, weight);
	addattr_nest_end(n, tail);
	return 0;
}

static int ddl_print_copt(struct qdisc_util *qu, FILE *f, struct rtattr *opt)
{
	struct rtattr *tb[TCA_DDL_CLASS_MAX + 1];
	__u32 v;

	if (!opt)
		return 0;

	parse_rtattr_nested(tb, TCA_DDL_CLASS_MAX, opt);

	if (ddl_attr_u32(tb, TCA_DDL_CLASS_WEIGHT, &v))
		print_uint(PRINT_ANY, "weight", "weight %u ", v);
	return 0;
}

/* Whether the kernel's xstats (of @len bytes) hold @field. */
#define DDL_HAS(len, field) \
	((len) >= offsetof(struct tc_ddl_xstats, field) + \
		  sizeof(((struct tc_ddl_xstats *)0)->field))

/*
 * Text layout of the counters: lines start with two spaces, counters on a
 * line are separated by one; a line whose counters are all missing (older
 * kernel) is left out.  tc ends the last line itself.
 */
struct ddl_out {
	bool any;	/* something printed */
	bool open;	/* the current line has a counter */
};

static const char *ddl_sep(struct ddl_out *o)
{
	if (o->open)
		return " ";
	if (o->any)
		print_nl();
	o->any = true;
	o->open = true;
	return "  ";
}

static void ddl_line(struct ddl_out *o)
{
	o->open = false;
}

static void ddl_print_cnt(struct ddl_out *o, const char *name, __u64 v)
{
	char fmt[64];

	snprintf(fmt, sizeof(fmt), "%s%s %%llu", ddl_sep(o), name);
	print_lluint(PRINT_ANY, name, fmt, v);
}

#define DDL_CNT(o, len, st, u, field) do {				\
	if (DDL_HAS(len, u.field))					\
		ddl_print_cnt(o, #field, (st).u.field);			\
} while (0)

static void ddl_print_qd_xstats(const struct tc_ddl_xstats *st, size_t len)
{
	struct ddl_out o = {};
	const char *green = "none";
	char buf[16];

	if (DDL_HAS(len, qdisc.green)) {
		/* Text as the minor of a class id (hex), JSON the number. */
		if (st->qdisc.green) {
			snprintf(buf, sizeof(buf), "%x", st->qdisc.green);
			green = buf;
		}
		print_string(PRINT_FP, NULL, "%s", ddl_sep(&o));
		print_uint(PRINT_JSON, "green", NULL, st->qdisc.green);
		print_string(PRINT_FP, NULL, "green %s", green);
	}
	DDL_CNT(&o, len, *st, qdisc, rotations);
	DDL_CNT(&o, len, *st, qdisc, yields);
	DDL_CNT(&o, len, *st, qdisc, guard_runs);
	DDL_CNT(&o, len, *st, qdisc, bgshare_runs);
	ddl_line(&o);
	DDL_CNT(&o, len, *st, qdisc, drop_overlimit);
	DDL_CNT(&o, len, *st, qdisc, drop_change);
	DDL_CNT(&o, len, *st, qdisc, drop_filter);
	ddl_line(&o);
	DDL_CNT(&o, len, *st, qdisc, cls_filter);
	DDL_CNT(&o, len, *st, qdisc, cls_priority);
	DDL_CNT(&o, len, *st, qdisc, cls_key);
	DDL_CNT(&o, len, *st, qdisc, cls_background);
	ddl_line(&o);
	if (DDL_HAS(len, qdisc.keys_mapped)) {
		print_string(PRINT_FP, NULL, "%s", ddl_sep(&o));
		print_uint(PRINT_ANY, "keys_mapped", "keys_mapped %u",
			   st->qdisc.keys_mapped);
	}
	DDL_CNT(&o, len, *st, qdisc, key_overflow);
	DDL_CNT(&o, len, *st, qdisc, key_recycled);
}

static void ddl_print_cl_xstats(const struct tc_ddl_xstats *st, size_t len)
{
	struct ddl_out o = {};

	SPRINT_BUF(b1);

	if (DDL_HAS(len, class.green_ns)) {
		print_string(PRINT_FP, NULL, "%s", ddl_sep(&o));
		print_lluint(PRINT_JSON, "green_ns", NULL, st->class.green_ns);
		print_string(PRINT_FP, NULL, "green_time %s",
			     sprint_time64(st->class.green_ns, b1));
	}
	DDL_CNT(&o, len, *st, class, greens);
	DDL_CNT(&o, len, *st, class, yields);
	DDL_CNT(&o, len, *st, class, guard_runs);
	ddl_line(&o);
	DDL_CNT(&o, len, *st, class, bytes_green);
	DDL_CNT(&o, len, *st, class, bytes_yellow);
	if (DDL_HAS(len, class.keyed)) {
		print_bool(PRINT_JSON, "keyed", NULL, st->class.keyed);
		print_uint(PRINT_JSON, "key", NULL, st->class.key);
		if (st->class.keyed) {
			print_string(PRINT_FP, NULL, "%s", ddl_sep(&o));
			print_uint(PRINT_FP, NULL, "key %u", st->class.key);
		}
	}
}

static int ddl_print_xstats(struct qdisc_util *qu, FILE *f,
			    struct rtattr *xstats)
{
	struct tc_ddl_xstats st = {};
	size_t len;

	if (!xstats)
		return 0;

	/* Kernel and tc may differ in version: use what both know. */
	len = min(RTA_PAYLOAD(xstats), sizeof(st));
	memcpy(&st, RTA_DATA(xstats), len);
	if (!DDL_HAS(len, type))
		return 0;

	switch (st.type) {
	case TCA_DDL_XSTATS_QDISC:
		ddl_print_qd_xstats(&st, len);
		break;
	case TCA_DDL_XSTATS_CLASS:
		ddl_print_cl_xstats(&st, len);
		break;
	}
	return 0;
}

struct qdisc_util ddl_qdisc_util = {
	.id		= "ddl",
	.parse_qopt	= ddl_parse_opt,
	.print_qopt	= ddl_print_opt,
	.print_xstats	= ddl_print_xstats,
	.parse_copt	= ddl_parse_copt,
	.print_copt	= ddl_print_copt,
};
