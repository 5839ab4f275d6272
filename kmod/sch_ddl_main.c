// SPDX-License-Identifier: GPL-2.0
/*
 * sch_ddl - time-slice scheduler for deep-learning clusters
 *
 * Several training jobs share a NIC; every parameter server pushes a burst of
 * model updates to its workers each iteration.  The scheduling that serves
 * those bursts one after another is built on this foundation: a
 * packet-limited FIFO with exact accounting.
 *
 *  enqueue():
 *   - ask the core whether the packet fits under the limit, drop it if not.
 *   - append it to the queue.
 *
 *  dequeue():
 *   - take the head of the queue (qdisc_dequeue_head).
 *
 *  change():
 *   - validate every attribute before touching anything; a refused change
 *     leaves the old configuration in force.
 *   - lowering the limit below the backlog drops the oldest packets, counted
 *     in drop_change and propagated to the parents.
 *
 * Decisions live in ddl_core.[ch], which know nothing of skbs or clocks.
 */

#include <linux/module.h>
#include <linux/skbuff.h>
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

/*
 * Take the oldest packet for change() to drop: requeued packets (gso_skb)
 * first, then the head of the queue.  Keeps qlen and backlog in step on
 * every kernel, whatever qdisc_dequeue_internal() does there.
 */
static struct sk_buff *ddl_dequeue_oldest(struct Qdisc *sch)
{
	struct sk_buff *skb;

	skb = __skb_dequeue(&sch->gso_skb);
	if (skb)
		sch->q.qlen--;
	else
		skb = __qdisc_dequeue_head(&sch->q);
	if (skb)
		qdisc_qstats_backlog_dec(sch, skb);
	return skb;
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
		struct sk_buff *skb = ddl_dequeue_oldest(sch);

		if (WARN_ON_ONCE(!skb))
			break;
		dropped_pkts++;
		dropped_bytes += qdisc_pkt_len(skb);
		rtnl_qdisc_drop(skb, sch);
	}
	if (dropped_pkts) {
		q->drop_change += dropped_pkts;
		qdisc_tree_reduce_backlog(sch, dropped_pkts, dropped_bytes);
	}

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
	.dequeue	= qdisc_dequeue_head,
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
