// SPDX-License-Identifier: GPL-2.0
/*
 * ddl_share.c - the ddl qdiscs of one device's transmit queues share a
 * turn (ddl_gate.c): which qdiscs share one, its lock, and the wake-ups.
 *
 * The qdiscs with share on that have the same parent on a device (the
 * queues' ddl under mq) are the members of one struct ddl_share.  The
 * datapath of a member reaches it through its own pointer, which it holds
 * from attach to detach; the list of shares is for finding one when a
 * member joins, under ddl_shares_lock.
 *
 * A member that waits for the turn arms its watchdog for when the turn
 * goes stale; a member that frees the turn, or moves its key on, wakes the
 * waiting members at once with __netif_schedule() of their root qdisc,
 * from the lock that keeps them members.
 */

#include <linux/list.h>
#include <linux/mutex.h>
#include <linux/netdevice.h>
#include <linux/rcupdate.h>
#include <linux/slab.h>
#include <linux/spinlock.h>
#include <net/pkt_sched.h>
#include <net/sch_generic.h>

#include "ddl_glue.h"

static LIST_HEAD(ddl_shares);
static DEFINE_MUTEX(ddl_shares_lock);

/**
 * ddl_share_get() - the share a qdisc joins, found or made
 * @sch: the qdisc
 *
 * Context: process context; may sleep.
 * Return: the share, counted for @sch (ddl_share_attach() makes it a
 * member, ddl_share_put() gives it back), or NULL if out of memory.
 */
struct ddl_share *ddl_share_get(const struct Qdisc *sch)
{
	const struct net_device *dev = qdisc_dev(sch);
	u32 parent = TC_H_MAJ(sch->parent);
	struct ddl_share *sh;

	mutex_lock(&ddl_shares_lock);
	list_for_each_entry(sh, &ddl_shares, node) {
		if (sh->dev == dev && sh->parent == parent) {
			sh->users++;
			goto out;
		}
	}
	sh = kzalloc(sizeof(*sh), GFP_KERNEL);
	if (sh) {
		ddl_gate_init(&sh->gate);
		spin_lock_init(&sh->lock);
		INIT_LIST_HEAD(&sh->members);
		sh->dev = dev;
		sh->parent = parent;
		sh->users = 1;
		list_add(&sh->node, &ddl_shares);
	}
out:
	mutex_unlock(&ddl_shares_lock);
	return sh;
}

/**
 * ddl_share_put() - a qdisc gives its share back
 * @sh: the share, detached from it
 *
 * The last user frees it: no member is left to reach it.
 *
 * Context: process context; may sleep.
 */
void ddl_share_put(struct ddl_share *sh)
{
	mutex_lock(&ddl_shares_lock);
	if (!--sh->users) {
		list_del(&sh->node);
		kfree(sh);
	}
	mutex_unlock(&ddl_shares_lock);
}

/**
 * ddl_share_attach() - a qdisc becomes a member of its share
 * @q: the qdisc's private data; @q->sch set
 * @sh: its share, from ddl_share_get()
 *
 * Context: process context, under the qdisc's tree lock or before the
 * qdisc is attached.
 */
void ddl_share_attach(struct ddl_sched_data *q, struct ddl_share *sh)
{
	spin_lock_bh(&sh->lock);
	list_add_tail(&q->share_node, &sh->members);
	q->share_held = false;
	WRITE_ONCE(sh->nmembers, sh->nmembers + 1);
	spin_unlock_bh(&sh->lock);
	q->share = sh;
}

/**
 * ddl_share_detach() - a qdisc leaves its share
 * @q: the qdisc's private data, a member
 *
 * No member wakes it afterwards.  A turn its jobs held goes stale.
 *
 * Context: process context, under the qdisc's tree lock or after the
 * qdisc was detached.
 * Return: the share, for ddl_share_put() once out of the lock.
 */
struct ddl_share *ddl_share_detach(struct ddl_sched_data *q)
{
	struct ddl_share *sh = q->share;

	spin_lock_bh(&sh->lock);
	list_del(&q->share_node);
	WRITE_ONCE(sh->nmembers, sh->nmembers - 1);
	spin_unlock_bh(&sh->lock);
	q->share = NULL;
	return sh;
}

/* The waiting members look again.  Under @sh->lock. */
static void ddl_share_wake(struct ddl_share *sh, struct ddl_sched_data *self)
{
	struct ddl_sched_data *m;

	rcu_read_lock();
	list_for_each_entry(m, &sh->members, share_node) {
		if (m == self || !m->share_held)
			continue;
		m->share_held = false;
		m->share_wakes++;
		__netif_schedule(qdisc_root(m->sch));
	}
	rcu_read_unlock();
}

/**
 * ddl_share_holds() - whether the queue waits for the device's turn
 * @sch: the qdisc, a member of a share of two or more, in mode cluster
 * @idx: its pick, a job's data; the job that has the turn instead, if the
 *	queue holds data of it
 * @reason: the pick's reason; DDL_R_YELLOW if @idx changes
 * @now: current time, ns
 *
 * Context: dequeue, under the qdisc lock.  Constant time but for the
 * wake-ups, one per waiting member.
 * Return: true if the queue sends nothing now: its watchdog is armed for
 * when the turn goes stale, at most the starvation guard's look away.
 */
bool ddl_share_holds(struct Qdisc *sch, u32 *idx, enum ddl_reason *reason,
		     u64 now)
{
	struct ddl_sched_data *q = qdisc_priv(sch);
	const struct ddl_cluster_cls *cc = &q->s.cls[*idx].cl;
	u64 stale = ddl_guard_look_ns(&q->params);
	struct ddl_share *sh = q->share;
	u64 until;
	u32 job;

	if (ddl_gate_owns(&sh->gate, *idx, cc->key)) {
		ddl_gate_sent(&sh->gate, now, stale);
		return false;
	}

	spin_lock(&sh->lock);
	switch (ddl_gate_try(&sh->gate, *idx, cc->key, cc->rot, now, stale)) {
	case DDL_GATE_OWN:
		break;
	case DDL_GATE_CLAIM:
		q->share_claims++;
		break;
	case DDL_GATE_LATER:
		ddl_share_wake(sh, q);
		break;
	case DDL_GATE_HOLD:
		/* The turn's job, if this queue holds data of it, goes. */
		job = sh->gate.job;
		if (job < q->params.jobs && q->s.cls[job].burst.data_qlen) {
			*idx = job;
			*reason = DDL_R_YELLOW;
			ddl_gate_sent(&sh->gate, now, stale);
			break;
		}
		q->share_held = true;
		q->share_holds++;
		until = ddl_gate_free_at(&sh->gate, stale);
		spin_unlock(&sh->lock);
		qdisc_watchdog_schedule_range_ns(&q->watchdog, until, stale / 8);
		return true;
	}
	q->share_held = false;
	spin_unlock(&sh->lock);
	return false;
}

/**
 * ddl_share_emptied() - a queue sent the last queued data of a job
 * @sch: the qdisc, a member of a share
 * @idx: the job's class index (or the background's: nothing to do)
 *
 * Called after each packet that leaves the class with no data queued,
 * pure ACKs aside, which never wait for the turn.
 *
 * If the job had the turn, the turn is free and the waiting members look
 * again; a member with more of the job's burst takes it back.
 *
 * Context: dequeue, under the qdisc lock.
 */
void ddl_share_emptied(struct Qdisc *sch, u32 idx)
{
	struct ddl_sched_data *q = qdisc_priv(sch);
	struct ddl_share *sh = q->share;

	if (READ_ONCE(sh->gate.job) != idx)
		return;
	spin_lock(&sh->lock);
	if (ddl_gate_release(&sh->gate, idx))
		ddl_share_wake(sh, q);
	spin_unlock(&sh->lock);
}
