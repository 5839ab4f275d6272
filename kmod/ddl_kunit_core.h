/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ddl_kunit_core.h - the scheduling core, compiled into a KUnit suite.
 *
 * Each suite is a module of its own that tests the core's static helpers
 * too, so it includes the core's units rather than linking sch_ddl.ko.
 * Every suite drives the core as the glue does, through ddl_sched.c, which
 * calls every other unit (ddl_core.h draws the graph): so each needs all
 * eight, listed here once, leaves first.
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
