/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ddl_kunit_core.h - ddl_sched.c and the units it calls, compiled into a
 * KUnit suite: the whole scheduling core.
 *
 * Each suite is a module of its own that tests the core's static helpers
 * too, so it includes the units it tests rather than linking sch_ddl.ko,
 * and only those and the units they call (ddl_core.h draws the graph).  A
 * suite that drives the core as the glue does, through ddl_sched.c and
 * the simulated qdisc of ddl_kunit_sim.h, needs every unit: they are
 * listed here once, leaves first.  A suite of one unit alone includes
 * that unit's file itself (sch_ddl_log_unit_kunit.c: ddl_log.c;
 * sch_ddl_predict_unit_kunit.c: ddl_predict.c; sch_ddl_pace_unit_kunit.c:
 * ddl_pace.c: neither calls another unit).
 */
#ifndef _DDL_KUNIT_CORE_H
#define _DDL_KUNIT_CORE_H

#include "ddl_log.c"
#include "ddl_predict.c"
#include "ddl_fair.c"
#include "ddl_cluster.c"
#include "ddl_burst.c"
#include "ddl_pace.c"
#include "ddl_keymap.c"
#include "ddl_sched.c"

#endif /* _DDL_KUNIT_CORE_H */
