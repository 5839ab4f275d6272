/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ddl_kunit.h - the units of time, length and rate the KUnit suites write
 * their tables in.  A suite that tests one unit alone includes this and
 * that unit; one that drives the whole core includes ddl_kunit_sim.h,
 * which includes this.
 */
#ifndef _DDL_KUNIT_H
#define _DDL_KUNIT_H

#include <kunit/test.h>

#define DDL_T_US	1000ULL			/* ns */
#define DDL_T_MS	1000000ULL		/* ns */
#define DDL_T_LEN	1500U			/* default packet, bytes */
#define DDL_T_PKT_NS	(12 * DDL_T_US)		/* 1500 bytes at 1 Gbit/s */
#define DDL_T_LOTS	1000000000U		/* a queue never running dry */
#define DDL_T_BG	(U32_MAX - 1)		/* in tables: the background */

#define DDL_P_US	1000ULL			/* ns */
#define DDL_P_MS	1000000ULL		/* ns */
#define DDL_P_SEC	1000000000ULL		/* ns */
#define DDL_P_T0	DDL_P_SEC		/* a clock well past boot */
#define DDL_P_PKT	1500U			/* default packet, bytes */
#define DDL_P_TARGET	30000U			/* default target, bytes */

#define DDL_KBIT(k)	((k) * 125ULL)		/* bytes/s */
#define DDL_MBIT(m)	((m) * 125000ULL)
#define DDL_GBIT(g)	((g) * 125000000ULL)
#define DDL_ODD_RATE	123456789ULL		/* 1514e9 / rate: 12263.4 ns */

#endif /* _DDL_KUNIT_H */
