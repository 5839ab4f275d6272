// SPDX-License-Identifier: GPL-2.0
/*
 * sch_ddl scheduling core.
 *
 * Invariant kept by the glue with these helpers: after every enqueue and
 * after every change(), the number of queued packets is at most
 * ddl_params.limit.
 */

#include "ddl_core.h"

/**
 * ddl_params_init() - fill in the default configuration
 * @p: parameters to initialise
 *
 * Context: any context.
 */
void ddl_params_init(struct ddl_params *p)
{
	p->limit = DDL_LIMIT_DEFAULT;
}

/**
 * ddl_admit() - decide whether one more packet may be queued
 * @p: current parameters
 * @qlen: packets queued now, before the new one
 *
 * Context: any context.
 * Return: true if the packet fits under the limit, false if it must be
 * dropped.
 */
bool ddl_admit(const struct ddl_params *p, u32 qlen)
{
	return qlen < p->limit;
}

/**
 * ddl_excess() - packets to drop so that a queue fits the limit
 * @p: parameters that are about to take effect
 * @qlen: packets queued now
 *
 * Used by change() when the limit is lowered below the current backlog.
 *
 * Context: any context.
 * Return: the number of packets above @p->limit, 0 if the queue fits.
 */
u32 ddl_excess(const struct ddl_params *p, u32 qlen)
{
	return qlen > p->limit ? qlen - p->limit : 0;
}
