/* SPDX-License-Identifier: GPL-2.0 */
/*
 * sch_ddl scheduling core: pure decisions, no skb, no clock, integer math.
 *
 * The glue in sch_ddl_main.c owns packets, locks and time; it asks this core
 * what to do.  Everything here can be exercised by KUnit without a device.
 */
#ifndef _NET_SCHED_DDL_CORE_H
#define _NET_SCHED_DDL_CORE_H

#include <linux/types.h>

/* Defaults and bounds of the user-visible parameters. */
#define DDL_LIMIT_DEFAULT	10000U
#define DDL_LIMIT_MIN		1U
#define DDL_LIMIT_MAX		1048576U	/* 2^20 packets */

/**
 * struct ddl_params - configuration the core decides with
 * @limit: maximum number of packets queued in the qdisc
 */
struct ddl_params {
	u32	limit;
};

void ddl_params_init(struct ddl_params *p);
u32 ddl_excess(const struct ddl_params *p, u32 qlen);

/**
 * ddl_admit() - decide whether one more packet may be queued
 * @p: current parameters
 * @qlen: packets queued now, before the new one
 *
 * Inline: it runs for every packet.
 *
 * Context: any context.
 * Return: true if the packet fits under the limit, false if it must be
 * dropped.
 */
static inline bool ddl_admit(const struct ddl_params *p, u32 qlen)
{
	return qlen < p->limit;
}

#endif /* _NET_SCHED_DDL_CORE_H */
