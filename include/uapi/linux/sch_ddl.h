/* SPDX-License-Identifier: GPL-2.0 WITH Linux-syscall-note */
/*
 * sch_ddl - deep-learning-cluster time-slice scheduler: netlink interface
 * shared by the kernel module and the tc plugin.
 *
 * Attributes are nested in TCA_OPTIONS (NLA_F_NESTED) and parsed strictly.
 * New attributes and new xstats fields are only ever appended.
 */
#ifndef _UAPI_LINUX_SCH_DDL_H
#define _UAPI_LINUX_SCH_DDL_H

#include <linux/types.h>

enum {
	TCA_DDL_UNSPEC,
	TCA_DDL_PAD,
	TCA_DDL_LIMIT,		/* u32: queue limit, packets */
	__TCA_DDL_MAX
};

#define TCA_DDL_MAX	(__TCA_DDL_MAX - 1)

/* Qdisc-wide counters returned in TCA_STATS_APP (tc -s qdisc show). */
struct tc_ddl_xstats {
	__u64	drop_overlimit;	/* packets dropped because the queue was full */
	__u64	drop_change;	/* packets dropped when a change lowered the limit */
};

#endif /* _UAPI_LINUX_SCH_DDL_H */
