/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ddl_core.h - the sch_ddl scheduling core, in nine units, each with its
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
 *   ddl_gate.c     the device's turn: one job at a time over the queues
 *
 * Which unit calls which (no circle; tests/callgraph_check.py checks it,
 * the inlines and macros of a header counted as its unit's):
 *
 *   sched --> keymap, pace, burst, predict, fair, cluster, log
 *   burst --> predict (did the sender only pause?  what was learned?),
 *             log (a burst that ended)
 *
 * The glue alone calls gate, for the turn the ddl qdiscs of a device's
 * transmit queues share (ddl_share.c).  No other unit calls another; fair
 * and cluster include ddl_burst.h for the type of what they are told,
 * struct ddl_burst_news.  This header is
 * the glue's index of them all: no unit includes it, each file includes
 * the headers it uses.
 *
 * Each unit's API takes its own state, its part of struct ddl_sched and
 * of struct ddl_cls, and the facts it needs, which sched hands it: a
 * job's weight, what a packet did to its burst (struct ddl_burst_news:
 * the event, whether the quiet time before it was brief, the learned
 * size), when its queue last held data, where its burst or iteration
 * began.  What a unit keeps of those facts it is told again when they
 * change: fair a job's weight (ddl_fair_weight()) and learned size (at
 * each burst start), cluster when a job's queue last held data
 * (ddl_cluster_unqueue()).  The key map finds its classes' state by index
 * (ddl_keymap_cls_init()), and the cluster order knows each job's index;
 * else only sched, which embeds every unit's state, maps a unit's state
 * of a job back to its class (ddl_fair_first(), ddl_cluster_first(),
 * ddl_pred_job()).
 *
 * A class that a new key takes changes owner: the key map says so
 * (ddl_keymap_class()) and sched does the rest (ddl_owner_changed()): the
 * old owner's burst ends (the log records it), what the predictor learned
 * goes with its lead window, its tag in the fair order and its key in the
 * cluster order.
 *
 * A packet that arrives: ddl_arrived(), which enters each unit at most
 * once: sched (the class becomes backlogged if its queue was empty, and
 * keymap hears that it is busy), burst (ddl_burst_arrived(), which counts
 * data and, for data that found none queued, asks predict whether a burst
 * starts, ddl_pred_burst(), which learns from it, and has the log record
 * the burst that ended), fair, cluster (mode cluster), each told what
 * happened to the burst: tagging a new one, counting its bytes and then
 * putting a job whose queue was empty back in its order.  A packet that
 * leaves: ddl_pace_hold() (pace), ddl_pick() (sched, reading the head of
 * the fair or cluster order and the jobs' learned periods through their
 * headers, recording a green change in the log), ddl_mark() with dscp
 * (cluster, told where the job's burst or iteration began), ddl_served()
 * (sched, burst, pace, then fair; a job whose queue emptied leaves the
 * fair order there, the cluster order and the key map's busy classes
 * through their headers).
 *
 * The glue calls sched for a packet's way through and for the key
 * (ddl_key_class(): a new owner is sched's to handle), and the other units
 * with their own state for what is theirs alone: the shaper and the target
 * (pace), the lead window (predict), the ranks and declared sizes
 * (cluster), the classes filters are bound to or chose (keymap), the
 * records (log).  The modes are a table, ddl_modes[] (ddl_sched.h).
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

#include "ddl_gate.h"
#include "ddl_params.h"
#include "ddl_sched.h"

#endif /* _DDL_CORE_H */
