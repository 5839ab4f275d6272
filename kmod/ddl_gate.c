// SPDX-License-Identifier: GPL-2.0
/*
 * ddl_gate.c - the device's turn: one job at a time over the ddl qdiscs
 * of a device's transmit queues (mode cluster, share on).
 *
 * Under mq each transmit queue has its own ddl, and the NIC takes from its
 * queues in turn.  The cluster order is the same on every queue, but it
 * orders only the jobs that share a queue: a ring member sends one flow,
 * and jobs whose flows sit on different queues are served round robin by
 * the NIC, which is fair sharing.  The turn makes the queues serve the
 * device's jobs as one ddl would: the job whose burst has the smallest
 * cluster key (its rotation breaking ties) has the turn, and a queue
 * whose pick is another job's burst waits while the turn's job sends.
 *
 * The rules, for a queue whose pick is job j's burst of key k:
 *
 *  - j has the turn: send;
 *  - the turn is free, or its job sent nothing for the stale time, or its
 *    burst's key is later than k: j takes the turn; send;
 *  - else wait until the turn goes stale, or is freed.
 *
 * The stale time is the starvation guard's look, maxwait / 8: a waiting
 * queue looks again at least that often, so that its guard still serves
 * a head that waited maxwait; and a turn whose job sent nothing for that
 * long (a queue the NIC stopped, a member that went) holds no queue back
 * for longer.  It is not the end of a burst.
 *
 * A queue that sends the turn's job's last queued data frees the turn
 * (ddl_gate_release()) and wakes the waiting queues: the link is never
 * idle while a queue holds data, but for the time a woken queue takes to
 * run.  A queue with more of the job's burst takes the turn back at its
 * next packet, its key being earlier.  Every queue computes the same key
 * for a burst that starts in the same epoch on it (ddl_cluster.c), so the
 * queues agree on who goes first with nothing but the turn exchanged.
 *
 * Packets the starvation guard, the background share or the ACK lane
 * picks never wait, nor those of a job that holds only ACKs (the glue
 * asks only for a job's data): a waiting job's flows still get a packet
 * out within maxwait, and the ACKs of its other flows are not held.
 *
 * Cost: O(1).  The turn's job reads the turn and refreshes @seen at most
 * every eighth of the stale time without a lock; the rest runs under the
 * members' lock, once per packet of a queue that claims or waits.
 */

#include "ddl_gate.h"
#include "ddl_params.h"

static bool ddl_gate_before(u64 key, u32 rot, const struct ddl_gate *g)
{
	if (key != g->key)
		return (s64)(key - g->key) < 0;
	return rot < g->rot;
}

/**
 * ddl_gate_init() - a free turn
 * @g: the gate
 *
 * Context: process context.
 */
void ddl_gate_init(struct ddl_gate *g)
{
	g->job = DDL_NONE;
	g->rot = 0;
	g->key = 0;
	g->seen = 0;
}

/**
 * ddl_gate_try() - a queue's pick is a job's burst: may it send?
 * @g: the gate
 * @job: the job's class index
 * @key: the cluster key of its burst on this queue
 * @rot: the burst's rotation
 * @now: current time, ns
 * @stale: a turn whose job sent nothing for this long is free, ns
 *
 * Context: under the gate's lock.  Constant time.
 * Return: DDL_GATE_OWN if @job has the turn, DDL_GATE_LATER if it has it
 * and @key, later than the turn's, is now the turn's, DDL_GATE_CLAIM if it
 * took the turn, DDL_GATE_HOLD if the queue waits until ddl_gate_free_at()
 * or a release.
 */
enum ddl_gate_verdict ddl_gate_try(struct ddl_gate *g, u32 job, u64 key,
				   u32 rot, u64 now, u64 stale)
{
	enum ddl_gate_verdict v = DDL_GATE_CLAIM;

	if (g->job == job) {
		WRITE_ONCE(g->seen, now);
		if ((s64)(key - g->key) <= 0)
			return DDL_GATE_OWN;
		v = DDL_GATE_LATER;
	} else if (g->job != DDL_NONE &&
		   (s64)(now - g->seen) <= (s64)stale &&
		   !ddl_gate_before(key, rot, g)) {
		return DDL_GATE_HOLD;
	}

	WRITE_ONCE(g->job, job);
	WRITE_ONCE(g->key, key);
	g->rot = rot;
	WRITE_ONCE(g->seen, now);
	return v;
}

/**
 * ddl_gate_release() - a queue sent the last queued packet of a job
 * @g: the gate
 * @job: the job's class index
 *
 * If @job has the turn, the turn is free: the next queue to look takes it.
 *
 * Context: under the gate's lock.  Constant time.
 * Return: true if the turn was @job's, and the waiting queues should look.
 */
bool ddl_gate_release(struct ddl_gate *g, u32 job)
{
	if (g->job != job)
		return false;
	WRITE_ONCE(g->job, DDL_NONE);
	return true;
}
