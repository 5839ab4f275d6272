// SPDX-License-Identifier: GPL-2.0
/*
 * sch_ddl scheduling core.
 *
 * Invariants kept by the glue with these helpers: enqueue admits a packet
 * only while fewer than ddl_params.limit packets are queued, and change()
 * leaves at most ddl_params.limit packets queued.
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
