/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Compatibility with older kernels, decided by probing for features (macros
 * and helpers), never by version numbers.  Debian 6.1 lacks some helpers
 * that 6.12 has.
 */
#ifndef _NET_SCHED_DDL_COMPAT_H
#define _NET_SCHED_DDL_COMPAT_H

#include <linux/module.h>
#include <net/pkt_sched.h>

/* 6.1 autoloads "sch_<kind>", which is our module name already. */
#ifndef MODULE_ALIAS_NET_SCH
#define MODULE_ALIAS_NET_SCH(id)	MODULE_ALIAS("net-sch-" id)
#endif

#endif /* _NET_SCHED_DDL_COMPAT_H */
