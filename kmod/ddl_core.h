/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ddl_core.h - the sch_ddl scheduling core, in eight units, each with its
 * own state and header:
 *
 *   ddl_sched.c    who sends next: the green job, the starvation guard,
 *                  the background share, the ACK lane and DRR; the modes
 *   ddl_keymap.c   the built-in classification key
 *   ddl_pace.c     the shaper and the standing-queue target
 *   ddl_burst.c    where a job's burst starts, pauses and ends
 *   ddl_predict.c  burst periods and sizes, and lead windows
 *   ddl_fair.c     the fair order: the burst fair sharing finishes first
 *   ddl_cluster.c  the cluster order: one order on every host
 *   ddl_log.c      green changes, completed bursts and their histogram
 *
 * Which unit calls which (no circle):
 *
 *   sched --> keymap --> burst --> predict
 *     |                    |  \--> fair, cluster (a new owner), log
 *     +--> burst, pace, predict, fair, cluster, log
 *   pace --> predict (is a lead window open?)
 *
 * A unit reads another unit's state only through that unit's header:
 * fair and cluster read a job's quiet time and burst start
 * (ddl_burst_quiet(), ddl_burst_began()) and its learned size and
 * iteration start (ddl_pred_size(), ddl_pred_iter_start()); sched reads
 * the heads of the orders (ddl_fair_head(), ddl_cluster_head()).  The
 * class's own fields (weight, backlogged) are sched's, read by all.
 *
 * The glue calls sched for a packet's way through, and the other units
 * for what is theirs alone: the key (keymap), the shaper and the target
 * (pace), the lead window (predict), the marks and declared sizes
 * (cluster), settling a quiet job's burst (burst), the records (log).
 * A packet that arrives: ddl_arrived(), which enters each unit once:
 * sched (the class becomes backlogged if its queue was empty), burst
 * (which tells log and predict of a new burst), fair, cluster (mode
 * cluster), each tagging a new burst, counting its bytes and then putting
 * a job whose queue was empty back in its order.  A packet that leaves:
 * ddl_pace_hold() (pace), ddl_pick() (sched, reading the head of the fair
 * or cluster order through its header), ddl_cluster_mark() with dscp,
 * ddl_served() (sched, burst, pace, then fair; a job whose queue emptied
 * leaves the fair order there and the cluster order through its header).
 * The modes are a table, ddl_modes[] (ddl_sched.h).
 *
 * Pure decision logic: no sk_buff, no Qdisc, no clock reads.  Times are
 * nanoseconds passed in by the caller; all arithmetic is integer.  The glue
 * (sch_ddl_main.c) owns the packets and calls in here under the qdisc lock.
 *
 * Classes are indexed 0 .. jobs - 1 (job classes, tc minors 1 .. jobs) and
 * DDL_BG(s) == jobs (the background class).
 */
#ifndef _DDL_CORE_H
#define _DDL_CORE_H

#include "ddl_params.h"
#include "ddl_sched.h"

#endif /* _DDL_CORE_H */
