// SPDX-License-Identifier: GPL-2.0
/*
 * ddl_cgroup.c - job classes bound to cgroups (class parameter cgroup)
 *
 * A training job has neither a port nor a user of its own: gloo and NCCL
 * pick their ports, and a Slurm job runs as its submitter.  What it has is
 * a cgroup (v2): Slurm, systemd and container runtimes put each job in
 * one, and its steps and children in that cgroup's subtree.  A job class
 * bound to a cgroup takes the packets of every socket created in that
 * cgroup or below it.
 *
 * A binding is the cgroup's id (its inode number in cgroupfs, what
 * name_to_handle_at() returns), checked when it is made and then kept as
 * a number: no reference is held, so a job's cgroup goes when the job
 * ends, and an id the kernel never gives twice simply stops matching.  A
 * packet's socket cgroup and its ancestors, at most DDL_CG_DEPTH_MAX of
 * them from the socket's up, are looked up in a hash of the bindings; the
 * nearest bound one wins.  One cgroup is bound to one class at most.
 *
 * The table changes under RTNL and the qdisc tree lock; it is read under
 * RTNL in change_class() and under the qdisc lock in enqueue, which is
 * the tree lock.
 */

#include <linux/cgroup.h>
#include <linux/hash.h>
#include <net/inet_sock.h>
#include <net/sock.h>

#include "ddl_glue.h"

#define DDL_CG_DEPTH_MAX	32

/* Is there a cgroup (v2) @id in the caller's cgroup namespace? */
static bool ddl_cgroup_exists(u64 id)
{
#ifdef CONFIG_SOCK_CGROUP_DATA
	struct cgroup *cg = cgroup_get_from_id(id);

	if (IS_ERR(cg))
		return false;
	cgroup_put(cg);
	return true;
#else
	return false;
#endif
}

static struct hlist_head *ddl_cg_bucket(struct ddl_sched_data *q, u64 id)
{
	return &q->cg_hash[hash_64(id, DDL_CG_HASH_BITS)];
}

static struct ddl_bind *ddl_cg_find(struct ddl_sched_data *q, u64 id)
{
	struct ddl_bind *b;

	hlist_for_each_entry(b, ddl_cg_bucket(q, id), node)
		if (b->id == id)
			return b;
	return NULL;
}

/**
 * ddl_cgroup_check() - may job class @idx be bound to cgroup @id?
 * @q: the qdisc
 * @idx: job class index
 * @id: cgroup id, 0 to unbind
 * @extack: where a refusal is told
 *
 * Nothing changes here: the caller binds with ddl_cgroup_bind() once every
 * attribute has been checked.
 *
 * Context: process, under RTNL; may sleep.
 * Return: 0, or -ENOENT (no such cgroup in the caller's cgroup namespace),
 * -EBUSY (bound to another class) or -EOPNOTSUPP (no socket cgroups).
 */
int ddl_cgroup_check(struct ddl_sched_data *q, u32 idx, u64 id,
		     struct netlink_ext_ack *extack)
{
	struct ddl_bind *b;

	if (!id)
		return 0;
	if (!IS_ENABLED(CONFIG_SOCK_CGROUP_DATA)) {
		NL_SET_ERR_MSG_MOD(extack,
				   "This kernel keeps no cgroup of a socket");
		return -EOPNOTSUPP;
	}
	if (!ddl_cgroup_exists(id)) {
		NL_SET_ERR_MSG_MOD(extack, "No cgroup (v2) with this id here");
		return -ENOENT;
	}
	b = ddl_cg_find(q, id);
	if (b && b - q->binds != idx) {
		NL_SET_ERR_MSG_MOD(extack,
				   "The cgroup is bound to another class");
		return -EBUSY;
	}
	return 0;
}

/**
 * ddl_cgroup_bind() - bind job class @idx to cgroup @id, or unbind it
 * @q: the qdisc
 * @idx: job class index
 * @id: cgroup id as ddl_cgroup_check() passed it; 0 unbinds
 *
 * Packets already queued stay where they are; the next packet of a socket
 * in the cgroup goes to the class.
 *
 * Context: under the qdisc tree lock.
 */
void ddl_cgroup_bind(struct ddl_sched_data *q, u32 idx, u64 id)
{
	struct ddl_bind *b = &q->binds[idx];

	if (b->id == id)
		return;
	if (b->id) {
		hlist_del(&b->node);
		q->cg_bound--;
	}
	b->id = id;
	if (!id)
		return;
	hlist_add_head(&b->node, ddl_cg_bucket(q, id));
	q->cg_bound++;
}

/**
 * ddl_cgroup_class() - the job class bound to the cgroup of @skb's socket
 * @q: the qdisc
 * @skb: packet
 *
 * Context: enqueue, under the qdisc lock, with a class bound (@q->cg_bound:
 * the caller tests it, so that a qdisc with none pays no call).  At most
 * DDL_CG_DEPTH_MAX lookups, each of a hash chain of bound classes.
 * Return: the class index, or DDL_NONE.
 */
u32 ddl_cgroup_class(struct ddl_sched_data *q, const struct sk_buff *skb)
{
#ifdef CONFIG_SOCK_CGROUP_DATA
	struct ddl_bind *b;
	struct cgroup *cg;
	struct sock *sk;
	u32 depth;

	sk = skb_to_full_sk(skb);
	if (!sk || !sk_fullsock(sk))
		return DDL_NONE;
	cg = sock_cgroup_ptr(&sk->sk_cgrp_data);
	for (depth = 0; cg && depth < DDL_CG_DEPTH_MAX; depth++) {
		b = ddl_cg_find(q, cgroup_id(cg));
		if (b)
			return b - q->binds;
		cg = cgroup_parent(cg);
	}
#endif
	return DDL_NONE;
}
