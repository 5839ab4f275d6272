// SPDX-License-Identifier: GPL-2.0
/*
 * net/sched/sch_ddl - time-slice scheduler for deep-learning clusters
 *
 * Several training jobs share a NIC; every parameter server pushes a burst of
 * model updates to its workers each iteration.  sch_ddl will give the link to
 * one job at a time in short rotating slices so that bursts complete one after
 * another instead of all crawling together.
 *
 * This is the foundation: a packet-limited FIFO with exact accounting.
 *
 *  enqueue():
 *   - ask the core whether the packet fits under the limit, drop it if not.
 *   - append it to the queue.
 *
 *  dequeue():
 *   - take the head of the queue.
 *
 *  change():
 *   - validate every attribute before touching anything; a refused change
 *     leaves the old configuration in force.
 *   - lowering the limit below the backlog drops the oldest packets, counted
 *     in drop_change and propagated to the parents.
 *
 * Decisions live in ddl_core.c, which knows nothing of skbs or clocks.
 */

#include <linux/kernel.h>
#include <linux/module.h>
#include <linux/skbuff.h>
#include <linux/types.h>
#include <net/netlink.h>
#include <net/pkt_sched.h>
#include <net/sch_generic.h>

#include <uapi/linux/sch_ddl.h>

#include "compat.h"
#include "ddl_core.h"

struct ddl_sched_data {
	/* Configuration, read on every packet, written by change() */
	struct ddl_params	params;

	/* Statistics */
	u64			drop_overlimit;
	u64			drop_change;
};

static int ddl_enqueue(struct sk_buff *skb, struct Qdisc *sch,
		       struct sk_buff **to_free)
{
	struct ddl_sched_data *q = qdisc_priv(sch);

	if (unlikely(!ddl_admit(&q->params, sch->q.qlen))) {
		q->drop_overlimit++;
		return qdisc_drop(skb, sch, to_free);
	}

	return qdisc_enqueue_tail(skb, sch);
}

static struct sk_buff *ddl_dequeue(struct Qdisc *sch)
{
	/* Updates backlog and byte/packet counters. */
	return qdisc_dequeue_head(sch);
}

/* Not const: struct nla_policy's range pointer is const only since 6.2. */
static struct netlink_range_validation ddl_limit_range = {
	.min = DDL_LIMIT_MIN,
	.max = DDL_LIMIT_MAX,
};

static const struct nla_policy ddl_policy[TCA_DDL_MAX + 1] = {
	[TCA_DDL_PAD]	= { .type = NLA_REJECT },
	[TCA_DDL_LIMIT]	= NLA_POLICY_FULL_RANGE(NLA_U32, &ddl_limit_range),
};

/* Parse @opt on top of @p; touches nothing but @p. */
static int ddl_parse_opt(struct ddl_params *p, struct nlattr *opt,
			 struct netlink_ext_ack *extack)
{
	struct nlattr *tb[TCA_DDL_MAX + 1];
	int err;

	if (!opt)
		return 0;

	err = nla_parse_nested(tb, TCA_DDL_MAX, opt, ddl_policy, extack);
	if (err < 0)
		return err;

	/* Ranges are enforced by ddl_policy. */
	if (tb[TCA_DDL_LIMIT])
		p->limit = nla_get_u32(tb[TCA_DDL_LIMIT]);

	return 0;
}

static int ddl_change(struct Qdisc *sch, struct nlattr *opt,
		      struct netlink_ext_ack *extack)
{
	struct ddl_sched_data *q = qdisc_priv(sch);
	unsigned int dropped_pkts = 0, dropped_bytes = 0;
	struct ddl_params p = q->params;
	u32 excess;
	int err;

	err = ddl_parse_opt(&p, opt, extack);
	if (err)
		return err;

	sch_tree_lock(sch);

	WRITE_ONCE(q->params.limit, p.limit);

	/* Bounded: at most the packets above the new limit. */
	for (excess = ddl_excess(&p, sch->q.qlen); excess; excess--) {
		struct sk_buff *skb = qdisc_dequeue_internal(sch, true);

		if (!skb)
			break;
		dropped_pkts++;
		dropped_bytes += qdisc_pkt_len(skb);
		qdisc_qstats_drop(sch);
		rtnl_kfree_skbs(skb, skb);
	}
	q->drop_change += dropped_pkts;
	qdisc_tree_reduce_backlog(sch, dropped_pkts, dropped_bytes);

	sch_tree_unlock(sch);
	return 0;
}

static int ddl_init(struct Qdisc *sch, struct nlattr *opt,
		    struct netlink_ext_ack *extack)
{
	struct ddl_sched_data *q = qdisc_priv(sch);

	ddl_params_init(&q->params);
	if (!opt)
		return 0;
	return ddl_change(sch, opt, extack);
}

static int ddl_dump(struct Qdisc *sch, struct sk_buff *skb)
{
	struct ddl_sched_data *q = qdisc_priv(sch);
	struct nlattr *opts;

	opts = nla_nest_start_noflag(skb, TCA_OPTIONS);
	if (!opts)
		return -EMSGSIZE;

	if (nla_put_u32(skb, TCA_DDL_LIMIT, READ_ONCE(q->params.limit)))
		goto nla_put_failure;

	return nla_nest_end(skb, opts);

nla_put_failure:
	nla_nest_cancel(skb, opts);
	return -EMSGSIZE;
}

static int ddl_dump_stats(struct Qdisc *sch, struct gnet_dump *d)
{
	struct ddl_sched_data *q = qdisc_priv(sch);
	struct tc_ddl_xstats st = {};

	sch_tree_lock(sch);
	st.drop_overlimit = q->drop_overlimit;
	st.drop_change = q->drop_change;
	sch_tree_unlock(sch);

	return gnet_stats_copy_app(d, &st, sizeof(st));
}

static struct Qdisc_ops ddl_qdisc_ops __read_mostly = {
	.id		= "ddl",
	.priv_size	= sizeof(struct ddl_sched_data),
	.enqueue	= ddl_enqueue,
	.dequeue	= ddl_dequeue,
	.peek		= qdisc_peek_head,
	.init		= ddl_init,
	.reset		= qdisc_reset_queue,
	.change		= ddl_change,
	.dump		= ddl_dump,
	.dump_stats	= ddl_dump_stats,
	.owner		= THIS_MODULE,
};
MODULE_ALIAS_NET_SCH("ddl");

static int __init ddl_module_init(void)
{
	return register_qdisc(&ddl_qdisc_ops);
}

static void __exit ddl_module_exit(void)
{
	unregister_qdisc(&ddl_qdisc_ops);
}

module_init(ddl_module_init);
module_exit(ddl_module_exit);
MODULE_AUTHOR("The sch_ddl developers");
MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("Time-slice scheduler for deep-learning clusters");
