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

static void explain(void)
{
	fprintf(stderr,
		"Usage: ... ddl [ limit PACKETS ]\n"
		"\n"
		"  limit   maximum packets queued in the qdisc (default 10000)\n");
}

static int ddl_parse_opt(struct qdisc_util *qu, int argc, char **argv,
			 struct nlmsghdr *n, const char *dev)
{
	bool set_limit = false;
	struct rtattr *tail;
	__u32 limit = 0;

	while (argc > 0) {
		if (strcmp(*argv, "limit") == 0) {
			NEXT_ARG();
			if (get_u32(&limit, *argv, 0) || limit == 0) {
				fprintf(stderr, "Illegal \"limit\"\n");
				return -1;
			}
			set_limit = true;
		} else if (strcmp(*argv, "help") == 0) {
			explain();
			return -1;
		} else {
			fprintf(stderr, "What is \"%s\"?\n", *argv);
			explain();
			return -1;
		}
		argc--;
		argv++;
	}

	tail = addattr_nest(n, 1024, TCA_OPTIONS | NLA_F_NESTED);
	if (set_limit)
		addattr32(n, 1024, TCA_DDL_LIMIT, limit);
	addattr_nest_end(n, tail);
	return 0;
}

static int ddl_print_opt(struct qdisc_util *qu, FILE *f, struct rtattr *opt)
{
	struct rtattr *tb[TCA_DDL_MAX + 1];

	if (!opt)
		return 0;

	parse_rtattr_nested(tb, TCA_DDL_MAX, opt);

	if (tb[TCA_DDL_LIMIT] &&
	    RTA_PAYLOAD(tb[TCA_DDL_LIMIT]) >= sizeof(__u32))
		print_uint(PRINT_ANY, "limit", "limit %up ",
			   rta_getattr_u32(tb[TCA_DDL_LIMIT]));
	return 0;
}

/* Whether the kernel's xstats (of @len bytes) hold @field. */
#define DDL_HAS(len, field) \
	((len) >= offsetof(struct tc_ddl_xstats, field) + \
		  sizeof(((struct tc_ddl_xstats *)0)->field))

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

	if (DDL_HAS(len, drop_overlimit))
		print_lluint(PRINT_ANY, "drop_overlimit", "  drop_overlimit %llu",
			     st.drop_overlimit);
	if (DDL_HAS(len, drop_change))
		print_lluint(PRINT_ANY, "drop_change", " drop_change %llu",
			     st.drop_change);
	return 0;
}

struct qdisc_util ddl_qdisc_util = {
	.id		= "ddl",
	.parse_qopt	= ddl_parse_opt,
	.print_qopt	= ddl_print_opt,
	.print_xstats	= ddl_print_xstats,
};
