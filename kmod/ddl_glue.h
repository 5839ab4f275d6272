/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ddl_glue.h - what the parts of the sch_ddl glue share: the qdisc's
 * private data (sch_ddl_main.c) and its debugfs files and module
 * parameters (ddl_debugfs.c).
 */
#ifndef _DDL_GLUE_H
#define _DDL_GLUE_H

#include <linux/list.h>
#include <net/gen_stats.h>
#include <net/pkt_sched.h>
#include <net/sch_generic.h>

#include "ddl_core.h"

struct dentry;

/**
 * enum ddl_drop_why - why a packet was dropped (tracepoint sch_ddl:ddl_drop)
 * @DDL_DROP_OVERLIMIT: the qdisc held limit packets
 * @DDL_DROP_FILTER: a filter action dropped it
 * @DDL_DROP_TARGET: standing-queue signal, the packet not ECN-capable
 * @DDL_DROP_LEAD: lead-window signal, the packet not ECN-capable
 * @DDL_DROP_CHANGE: a change lowered the limit below the backlog
 * @DDL_DROP_OVERMEMORY: the qdisc held memory_limit bytes of memory; the
 *	class holding the most lost its head packet
 */
enum ddl_drop_why {
	DDL_DROP_OVERLIMIT,
	DDL_DROP_FILTER,
	DDL_DROP_TARGET,
	DDL_DROP_LEAD,
	DDL_DROP_CHANGE,
	DDL_DROP_OVERMEMORY,
};

/**
 * struct ddl_share - the turn of the ddl qdiscs under one parent of a device
 * @gate: the turn (ddl_gate.c), written under @lock
 * @lock: guards @gate's writes, @members and each member's share_held
 * @members: the members (&ddl_sched_data.share_node)
 * @nmembers: how many; read without @lock
 * @node: in ddl_shares, under ddl_shares_lock
 * @users: members and members to be, under ddl_shares_lock
 * @dev: the device, for finding the share only (never dereferenced)
 * @parent: the major number of the members' parent
 */
struct ddl_share {
	struct ddl_gate		gate;
	spinlock_t		lock;	/* @gate, @members, share_held */
	struct list_head	members;
	u32			nmembers;
	struct list_head	node;
	u32			users;
	const struct net_device	*dev;
	u32			parent;
};

/*
 * One class: its FIFO and statistics.  bstats, 16-byte aligned, comes
 * first, so that the class packs into 112 bytes with no hole.
 */
struct ddl_class {
	struct gnet_stats_basic_sync	bstats;
	struct qdisc_skb_head		q;
	struct gnet_stats_queue		qstats;
	u64				ce_marks;
	u64				dscp_marks;
	u64				burst_backlog;
	u64				burst_backlog_max;
	u64				burst_backlog_sum;
	u64				drop_overmemory;
	u32				mem;		/* truesize queued */
};

struct ddl_addrset;

/*
 * What a launcher bound a job class to: a cgroup (ddl_cgroup.c), in the
 * hash of its id while the id is not 0, and addresses (ddl_addr.c).
 */
struct ddl_bind {
	struct hlist_node		node;
	u64				id;
	struct ddl_addrset		*addrs;
};

#define DDL_CG_HASH_BITS	6
#define DDL_ADDR_HASH_BITS	8

struct ddl_sched_data {
	/* Configuration, read on every packet, written by change() */
	struct ddl_params		params;
	bool				clock_shared;	/* ddl_shared_clock() */

	/* Datapath state */
	struct ddl_sched		s;
	struct ddl_class		*classes;	/* jobs + 1, by index */
	struct tcf_proto __rcu		*filter_list;
	struct tcf_block		*block;
	struct qdisc_watchdog		watchdog;
	struct ddl_bind			*binds;		/* jobs, by index */
	struct hlist_head		cg_hash[1 << DDL_CG_HASH_BITS];
	u32				cg_bound;	/* classes bound */
	u32				addr_bound;	/* addresses bound */
	struct hlist_head		addr_hash[1 << DDL_ADDR_HASH_BITS];

	u32				mem_used;	/* truesize queued */
	u32				mem_peak;

	/* Statistics */
	u64				drop_overlimit;
	u64				drop_overmemory;
	u64				drop_change;
	u64				drop_filter;
	u64				cls_filter;
	u64				cls_priority;
	u64				cls_cgroup;
	u64				cls_addr;
	u64				cls_key;
	u64				cls_background;
	u64				aqm_marks;
	u64				aqm_drops;
	u64				lead_marks;
	u64				lead_drops;
	u64				dscp_marks;
	u64				dscp_fails;

	/* The device's turn (ddl_share.c) */
	struct ddl_share		*share;		/* NULL: share off */
	struct list_head		share_node;	/* in share->members */
	bool				share_held;	/* under share->lock */
	bool				per_queue;	/* ddl_per_queue() */
	u64				share_holds;
	u64				share_claims;
	u64				share_wakes;

	/* debugfs (ddl_debugfs.c): under ddl_instances_lock */
	struct Qdisc			*sch;
	struct list_head		node;
	struct dentry			*dir;
};

/* sch_ddl_main.c */
u32 ddl_idx_to_minor(const struct ddl_sched_data *q, u32 idx);
void ddl_settle(struct Qdisc *sch, u64 now);
int ddl_params_check(const struct ddl_params *p, const struct ddl_params *old,
		     struct nlattr **tb, u32 mtu,
		     struct netlink_ext_ack *extack);

/* ddl_share.c */
struct ddl_share *ddl_share_get(const struct Qdisc *sch);
void ddl_share_put(struct ddl_share *sh);
void ddl_share_attach(struct ddl_sched_data *q, struct ddl_share *sh);
struct ddl_share *ddl_share_detach(struct ddl_sched_data *q);
bool ddl_share_holds(struct Qdisc *sch, u32 *idx, enum ddl_reason *reason,
		     u64 now);
void ddl_share_emptied(struct Qdisc *sch, u32 idx);

/* ddl_cgroup.c */
int ddl_cgroup_check(struct ddl_sched_data *q, u32 idx, u64 id,
		     struct netlink_ext_ack *extack);
void ddl_cgroup_bind(struct ddl_sched_data *q, u32 idx, u64 id);
u32 ddl_cgroup_class(struct ddl_sched_data *q, const struct sk_buff *skb);

/* ddl_addr.c */
int ddl_addr_prepare(struct ddl_sched_data *q, u32 idx,
		     const struct nlattr *attr, struct ddl_addrset **set,
		     struct netlink_ext_ack *extack);
void ddl_addr_bind(struct ddl_sched_data *q, u32 idx, struct ddl_addrset **set);
void ddl_addr_free(struct ddl_addrset *set);
void ddl_addr_destroy(struct ddl_sched_data *q);
u32 ddl_addr_count(const struct ddl_sched_data *q, u32 idx);
int ddl_addr_dump(const struct ddl_sched_data *q, u32 idx,
		  struct sk_buff *skb);
u32 ddl_addr_class(struct ddl_sched_data *q, const struct sk_buff *skb);

/* ddl_debugfs.c */
void ddl_params_defaults(struct ddl_params *p);
void ddl_debugfs_add(struct Qdisc *sch);
void ddl_debugfs_del(struct Qdisc *sch);
int ddl_debugfs_init(void);
void ddl_debugfs_exit(void);

#endif /* _DDL_GLUE_H */
