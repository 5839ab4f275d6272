/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ddl_gate.h - the device's turn (ddl_gate.c): one job at a time over the
 * ddl qdiscs of a device's transmit queues.
 */
#ifndef _DDL_GATE_H
#define _DDL_GATE_H

#include <linux/compiler.h>
#include <linux/types.h>

/**
 * enum ddl_gate_verdict - what a queue may do with its pick
 * @DDL_GATE_OWN: its job has the turn: send
 * @DDL_GATE_LATER: its job has the turn, and its key moved on (the burst
 *	outgrew it): send, and let the waiting queues look again
 * @DDL_GATE_CLAIM: the turn was free, stale, or held by a later burst:
 *	it took the turn for its job; send
 * @DDL_GATE_HOLD: another job's earlier burst has the turn: wait
 */
enum ddl_gate_verdict {
	DDL_GATE_OWN,
	DDL_GATE_LATER,
	DDL_GATE_CLAIM,
	DDL_GATE_HOLD,
};

/**
 * struct ddl_gate - the turn the ddl qdiscs of one device share
 * @job: class index of the job whose burst has the turn; DDL_NONE: free
 * @rot: that burst's rotation, which breaks ties of @key
 * @key: that burst's cluster key: the latest any queue that sent it gave
 * @seen: when a queue last sent a packet of @job, ns (to within an
 *	eighth of the stale time)
 *
 * The members write it under a lock of their own (the glue's); the job
 * that has the turn reads @job and @key, and refreshes @seen, without it.
 */
struct ddl_gate {
	u32	job;
	u32	rot;
	u64	key;
	u64	seen;
};

void ddl_gate_init(struct ddl_gate *g);
enum ddl_gate_verdict ddl_gate_try(struct ddl_gate *g, u32 job, u64 key,
				   u32 rot, u64 now, u64 stale);
bool ddl_gate_release(struct ddl_gate *g, u32 job);

/**
 * ddl_gate_owns() - whether a job's burst has the turn
 * @g: the gate
 * @job: the job's class index
 * @key: the cluster key of its burst on the caller's queue
 *
 * A lockless read for the common case, a packet of the job that has the
 * turn.  A key later than the turn's (the burst outgrew it on this queue)
 * takes ddl_gate_try(), which records it; an earlier one (another queue's
 * view of the same burst) does not.  A read torn by a claim on another
 * queue lets at most this one packet through.
 *
 * Context: under the caller's qdisc lock.  Constant time.
 * Return: true if @job has the turn and @key is not later than its key.
 */
static inline bool ddl_gate_owns(const struct ddl_gate *g, u32 job, u64 key)
{
	return READ_ONCE(g->job) == job &&
	       (s64)(key - READ_ONCE(g->key)) <= 0;
}

/**
 * ddl_gate_sent() - the job that has the turn sent a packet
 * @g: the gate
 * @now: current time, ns
 * @stale: the caller's stale time, ns (ddl_gate_try())
 *
 * Writes @g->seen only when it is an eighth of @stale old, so that queues
 * which send the same job do not write one cache line at every packet.
 *
 * Context: under the caller's qdisc lock.  Constant time.
 */
static inline void ddl_gate_sent(struct ddl_gate *g, u64 now, u64 stale)
{
	if ((s64)(now - READ_ONCE(g->seen)) > (s64)(stale / 8))
		WRITE_ONCE(g->seen, now);
}

/**
 * ddl_gate_free_at() - when a waiting queue looks again
 * @g: the gate, under its lock
 * @stale: the caller's stale time, ns
 *
 * Context: under the gate's lock.  Constant time.
 * Return: the time the turn goes stale if its job sends nothing more.
 */
static inline u64 ddl_gate_free_at(const struct ddl_gate *g, u64 stale)
{
	return g->seen + stale;
}

#endif /* _DDL_GATE_H */
