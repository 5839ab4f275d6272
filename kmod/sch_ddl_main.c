// SPDX-License-Identifier: GPL-2.0
/*
 * sch_ddl - burst scheduler for deep-learning clusters
 *
 * Several training jobs share a NIC; every parameter server pushes a burst of
 * model updates to its workers each iteration.  Fair sharing stretches every
 * burst.  sch_ddl gives the link to one job's burst at a time.  By default
 * (mode fair, ddl_fair.c) it serves the burst that per-job fair sharing
 * would finish first, so no burst finishes later than under fair sharing;
 * mode cluster (ddl_cluster.c) keeps one such order on every host of a
 * cluster, and on every transmit queue under mq, where it is the default;
 * the rotation modes (rotate, green, static) give one backlogged
 * job a time slice as green while the others (yellow) wait.
 *
 * Each job is a class MAJ:1 .. MAJ:jobs with its own FIFO; MAJ:ffff is the
 * background class for traffic of no job.
 *
 *  enqueue():
 *   - classify: tc filters, then skb->priority (major == our handle), then
 *     the cgroup of the packet's socket (a class bound to it or to an
 *     ancestor, ddl_cgroup.c), then its source address before NAT (a
 *     class bound to the addresses of a job's pods, ddl_addr.c), then the
 *     built-in key (ports, mark or DSCP map to a class of their own), else
 *     the background class.
 *   - drop the packet if the qdisc holds limit packets; else stamp it with
 *     the time, append it to its class and tell the core
 *     (ddl_arrived()).
 *
 *   - with a target, a packet of the background class may get a congestion
 *     signal when the background's backlog is above target: CE if it is
 *     ECN-capable and ecn is on, else it is dropped.  Job packets are
 *     never signalled: waiting for their turn is not a standing queue.
 *   - a job that becomes backlogged after an idle gap starts a burst with
 *     its first packet that is not a pure ACK: the core learns its period
 *     and size, tags it in the fair order and may arm a lead window
 *     before the next.
 *
 *  dequeue():
 *   - with a rate, nothing leaves before the earliest departure time of
 *     the next packet; the watchdog (an hrtimer) wakes us then.  It is
 *     armed only while packets are queued.
 *   - the core picks the class (starvation guard, background share, then
 *     the mode's order: fair, cluster or green and yellow; background; see
 *     ddl_sched.c) and we send its head packet,
 *     then tell the core when the next head was queued: the guard serves a
 *     class whose head waited maxwait, so no TCP flow of a waiting job
 *     sits in the queue past its minimum RTO.
 *   - with share, the ddl qdiscs of a device's transmit queues take turns
 *     (ddl_share.c, ddl_gate.c): a queue whose pick is a job's data waits
 *     while another queue sends the data of a job whose burst is earlier
 *     in the cluster order.
 *
 *  change():
 *   - validate every attribute before touching anything; a refused change
 *     leaves the old configuration in force.  Nothing queued moves or is
 *     reordered; lowering the limit below the backlog drops packets from the
 *     heads of the classes, background first, counted in drop_change.
 *
 * Decisions live in the core, which knows nothing of skbs or clocks: nine
 * units, ddl_sched.c, ddl_keymap.c, ddl_pace.c, ddl_burst.c, ddl_predict.c,
 * ddl_fair.c, ddl_cluster.c, ddl_log.c and ddl_gate.c.  ddl_sched.c decides
 * who sends next and is the one that calls the others but gate, which the
 * glue calls; ddl_core.h draws the graph.
 */

#include <linux/bitmap.h>
#include <linux/ip.h>
#include <linux/ipv6.h>
#include <linux/module.h>
#include <linux/rtnetlink.h>
#include <linux/skbuff.h>
#include <net/dsfield.h>
#include <net/flow_dissector.h>
#include <net/inet_ecn.h>
#include <net/ip.h>
#include <net/netlink.h>
#include <net/pkt_cls.h>
#include <net/pkt_sched.h>
#include <net/sch_generic.h>

#include <uapi/linux/sch_ddl.h>

#include "compat.h"
#include "ddl_core.h"
#include "ddl_glue.h"

#define CREATE_TRACE_POINTS
#include "ddl_trace.h"

/* What sch_ddl keeps in a queued packet's control block. */
struct ddl_skb_cb {
	u64	enqueued;	/* ns */
	u32	truesize;	/* as charged to memory_limit */
};

static struct ddl_skb_cb *ddl_skb_cb(const struct sk_buff *skb)
{
	qdisc_cb_private_validate(skb, sizeof(struct ddl_skb_cb));
	return (struct ddl_skb_cb *)qdisc_skb_cb(skb)->data;
}

/*
 * The shared clock of mode cluster, CLOCK_TAI, less the clock the core is
 * given (CLOCK_MONOTONIC): constant but for a step of the system's time.
 */
static u64 ddl_clock_off(void)
{
	return ktime_mono_to_any(0, TK_OFFS_TAI);
}

/*
 * The kernel's TAI offset: CLOCK_TAI less CLOCK_REALTIME, ns; adjtimex()
 * sets no negative one.
 */
static u64 ddl_tai_off(void)
{
	return ktime_to_ns(ktime_sub(ktime_mono_to_any(0, TK_OFFS_TAI),
				     ktime_mono_to_any(0, TK_OFFS_REAL)));
}

/* Longest the watchdog may fire late; the burst credit makes up for it. */
#define DDL_SLACK_MAX_NS	(250 * NSEC_PER_USEC)

/* Class index of tc minor @minor, or DDL_NONE. */
static u32 ddl_minor_to_idx(const struct ddl_sched_data *q, u32 minor)
{
	if (minor == TC_DDL_BG_MINOR)
		return DDL_BG(&q->s);
	if (minor >= 1 && minor <= q->s.jobs)
		return minor - 1;
	return DDL_NONE;
}

u32 ddl_idx_to_minor(const struct ddl_sched_data *q, u32 idx)
{
	if (idx == DDL_NONE)
		return 0;
	return idx == DDL_BG(&q->s) ? TC_DDL_BG_MINOR : idx + 1;
}

/* Tracepoints for what the core recorded since it held @turns and @done. */
static void ddl_trace_turn(struct Qdisc *sch, u64 turns)
{
	struct ddl_sched_data *q = qdisc_priv(sch);
	const struct ddl_turn_rec *r;

	if (q->s.log.turns == turns || !trace_ddl_turn_enabled())
		return;
	r = ddl_turn_last(&q->s.log, 0);
	trace_ddl_turn(sch, ddl_idx_to_minor(q, r->from),
		       ddl_idx_to_minor(q, r->to), r->why);
}

static void ddl_trace_burst_end(struct Qdisc *sch, u32 idx, u64 done)
{
	struct ddl_sched_data *q = qdisc_priv(sch);

	if (q->s.log.bursts_done == done || !trace_ddl_burst_end_enabled())
		return;
	trace_ddl_burst_end(sch, idx + 1,
			    ddl_burst_last(&q->s.log, idx, 0));
}

/**
 * ddl_settle() - complete the bursts of the jobs that went quiet
 * @sch: the qdisc, its tree lock held
 * @now: current time, ns
 *
 * Before the statistics are read: a job's last burst then shows.
 * O(jobs).
 */
void ddl_settle(struct Qdisc *sch, u64 now)
{
	struct ddl_sched_data *q = qdisc_priv(sch);
	u64 done;
	u32 i;

	for (i = 0; i < q->s.jobs; i++) {
		done = q->s.log.bursts_done;
		ddl_settle_burst(&q->s, &q->params, i, now);
		ddl_trace_burst_end(sch, i, done);
	}
}

/*
 * The source (@src) or destination port of a TCP or UDP packet over IPv4,
 * not a fragment, or over IPv6 without extension headers, read straight
 * from the headers; -1 for any other packet, which the flow dissector then
 * parses.  Only the two bytes of the port are needed: a full dissection for
 * every packet would cost the datapath more than all of its scheduling.
 */
static int ddl_skb_port(const struct sk_buff *skb, bool src)
{
	int off = skb_network_offset(skb);
	const __be16 *ports;
	__be16 buf[2];
	u8 proto;

	switch (skb->protocol) {
	case htons(ETH_P_IP): {
		const struct iphdr *iph;
		struct iphdr _iph;

		iph = skb_header_pointer(skb, off, sizeof(_iph), &_iph);
		if (!iph || iph->ihl < 5 || ip_is_fragment(iph))
			return -1;
		proto = iph->protocol;
		off += iph->ihl * 4;
		break;
	}
	case htons(ETH_P_IPV6): {
		const struct ipv6hdr *ip6h;
		struct ipv6hdr _ip6h;

		ip6h = skb_header_pointer(skb, off, sizeof(_ip6h), &_ip6h);
		if (!ip6h)
			return -1;
		proto = ip6h->nexthdr;
		off += sizeof(*ip6h);
		break;
	}
	default:
		return -1;
	}
	if (proto != IPPROTO_TCP && proto != IPPROTO_UDP)
		return -1;
	ports = skb_header_pointer(skb, off, sizeof(buf), buf);
	if (!ports)
		return -1;
	return ntohs(ports[src ? 0 : 1]);
}

/*
 * The port of @skb that ddl_skb_port() could not read, by the flow
 * dissector; 0 if it has none.  Out of line: its keys, which the kernel
 * may zero on the stack, stay out of the enqueue's frame.
 */
static noinline u32 ddl_skb_port_dissected(const struct sk_buff *skb,
					   bool src)
{
	struct flow_keys keys;

	if (!skb_flow_dissect_flow_keys(skb, &keys, 0))
		return 0;
	if (keys.basic.ip_proto != IPPROTO_TCP &&
	    keys.basic.ip_proto != IPPROTO_UDP)
		return 0;
	return ntohs(src ? keys.ports.src : keys.ports.dst);
}

/* The built-in key of @skb; 0 when it has none. */
static u32 ddl_skb_key(const struct sk_buff *skb, u32 key)
{
	__be16 buf, *h;
	int port;

	switch (key) {
	case TC_DDL_KEY_MARK:
		return skb->mark;
	case TC_DDL_KEY_DSCP:
		/* The DS field sits in the first two bytes of either header. */
		h = skb_header_pointer(skb, skb_network_offset(skb),
				       sizeof(buf), &buf);
		if (!h)
			return 0;
		switch (skb_protocol(skb, true)) {
		case htons(ETH_P_IP):
			return ipv4_get_dsfield((const struct iphdr *)h) >> 2;
		case htons(ETH_P_IPV6):
			return ipv6_get_dsfield((const struct ipv6hdr *)h) >> 2;
		}
		return 0;
	case TC_DDL_KEY_SPORT:
	case TC_DDL_KEY_DPORT:
		port = ddl_skb_port(skb, key == TC_DDL_KEY_SPORT);
		if (port >= 0)
			return port;
		return ddl_skb_port_dissected(skb, key == TC_DDL_KEY_SPORT);
	}
	return 0;
}

/*
 * The class the filters @fl choose for @skb: its index, DDL_NONE if
 * they choose none of ours (*@qerr untouched), or DDL_DROP if an action
 * consumed or dropped it (then *@qerr says how to report it).  Out of
 * line: a qdisc without filters does not pay for its frame.
 */
#define DDL_DROP	(DDL_NONE - 1)

static noinline u32 ddl_filter_class(struct sk_buff *skb, struct Qdisc *sch,
				     struct tcf_proto *fl, int *qerr)
{
	struct ddl_sched_data *q = qdisc_priv(sch);
	struct tcf_result res;
	int result;
	u32 idx;

	result = tcf_classify(skb, NULL, fl, &res, false);
	if (result < 0)
		return DDL_NONE;
#ifdef CONFIG_NET_CLS_ACT
	switch (result) {
	case TC_ACT_QUEUED:
	case TC_ACT_STOLEN:
	case TC_ACT_TRAP:
		*qerr = NET_XMIT_SUCCESS | __NET_XMIT_STOLEN;
		fallthrough;
	case TC_ACT_SHOT:
		return DDL_DROP;
	}
#endif
	idx = ddl_minor_to_idx(q, TC_H_MIN(res.classid));
	if (idx != DDL_NONE) {
		q->cls_filter++;
		ddl_claim(&q->s.keymap, idx);
	}
	return idx;
}

/*
 * Class index for @skb, or DDL_NONE if a filter action consumed or dropped
 * it (then *qerr says how to report it).
 */
static u32 ddl_classify(struct sk_buff *skb, struct Qdisc *sch, u64 now,
			int *qerr)
{
	struct ddl_sched_data *q = qdisc_priv(sch);
	struct tcf_proto *fl;
	u32 idx, key;

	*qerr = NET_XMIT_SUCCESS | __NET_XMIT_BYPASS;
	fl = rcu_dereference_bh(q->filter_list);
	if (fl) {
		idx = ddl_filter_class(skb, sch, fl, qerr);
		if (idx == DDL_DROP)
			return DDL_NONE;
		if (idx != DDL_NONE)
			return idx;
	}

	if (TC_H_MAJ(skb->priority) == sch->handle) {
		idx = ddl_minor_to_idx(q, TC_H_MIN(skb->priority));
		if (idx != DDL_NONE) {
			q->cls_priority++;
			ddl_claim(&q->s.keymap, idx);
			return idx;
		}
	}

	/* Tested here: a qdisc with nothing bound makes neither call. */
	if (q->cg_bound) {
		idx = ddl_cgroup_class(q, skb);
		if (idx != DDL_NONE) {	/* claimed when it was bound */
			q->cls_cgroup++;
			return idx;
		}
	}

	if (q->addr_bound) {
		idx = ddl_addr_class(q, skb);
		if (idx != DDL_NONE) {	/* likewise */
			q->cls_addr++;
			return idx;
		}
	}

	key = ddl_skb_key(skb, q->params.key);
	if (key) {
		u64 done = q->s.log.bursts_done;

		idx = ddl_key_class(&q->s, &q->params, key, now);
		if (idx != DDL_NONE) {
			/* A recycled class completes its old owner's burst. */
			ddl_trace_burst_end(sch, idx, done);
			q->cls_key++;
			return idx;
		}
	}

	q->cls_background++;
	return DDL_BG(&q->s);
}

/*
 * Standing-queue control for @skb of class @idx.  Return DDL_SIG_NONE, or
 * the signal for which the caller must drop it; a CE mark is applied here.
 * Only the background is controlled: job packets that wait for their turn
 * are scheduled, not a standing queue.  A packet that finds the background
 * empty did not build the queue (an ACK, ARP, a new flow) and is left
 * alone.  As in fq_codel, an ECN-capable packet is always marked, never
 * dropped: a sender that ignores CE is bounded by the limit only.
 */
static enum ddl_signal ddl_signal_skb(struct Qdisc *sch, struct sk_buff *skb,
				      u32 idx, u64 now)
{
	struct ddl_sched_data *q = qdisc_priv(sch);
	unsigned int len = qdisc_pkt_len(skb);
	enum ddl_signal sig;

	ddl_window(&q->s.pred, &q->params, now);
	if (idx != DDL_BG(&q->s) || !q->classes[idx].q.qlen)
		return DDL_SIG_NONE;

	sig = ddl_aqm(&q->s.pace, &q->params, q->classes[idx].qstats.backlog,
		      len, ddl_lead_open(&q->s.pred), now);
	if (sig == DDL_SIG_NONE)
		return DDL_SIG_NONE;

	if (q->params.ecn && INET_ECN_set_ce(skb)) {
		q->classes[idx].ce_marks++;
		if (sig == DDL_SIG_LEAD)
			q->lead_marks++;
		else
			q->aqm_marks++;
		return DDL_SIG_NONE;
	}
	if (sig == DDL_SIG_LEAD)
		q->lead_drops++;
	else
		q->aqm_drops++;
	return sig;
}

/*
 * Memory (skb truesize) is charged at enqueue and given back as the packet
 * leaves, by the amount charged: writing the DSCP may reallocate the head.
 */
static void ddl_mem_charge(struct ddl_sched_data *q, struct ddl_class *cl,
			   struct sk_buff *skb)
{
	u32 truesize = skb->truesize;

	ddl_skb_cb(skb)->truesize = truesize;
	cl->mem += truesize;
	q->mem_used += truesize;
}

static void ddl_mem_release(struct ddl_sched_data *q, struct ddl_class *cl,
			    struct sk_buff *skb)
{
	u32 truesize = ddl_skb_cb(skb)->truesize;

	cl->mem -= truesize;
	q->mem_used -= truesize;
}

/*
 * Take the head packet of class @idx out as a drop of reason @why.  The
 * caller frees it, counts it in the qdisc's drops and, for a packet its
 * parents counted, tells them (qdisc_tree_reduce_backlog()).
 */
static struct sk_buff *ddl_drop_head(struct Qdisc *sch, u32 idx, u64 now,
				     enum ddl_drop_why why)
{
	struct ddl_sched_data *q = qdisc_priv(sch);
	struct ddl_class *cl = &q->classes[idx];
	struct sk_buff *skb = __qdisc_dequeue_head(&cl->q);
	unsigned int len = qdisc_pkt_len(skb);

	cl->qstats.backlog -= len;
	cl->qstats.drops++;
	ddl_mem_release(q, cl, skb);
	sch->q.qlen--;
	qdisc_qstats_backlog_dec(sch, skb);
	ddl_dropped(&q->s, idx, len, now);
	if (!cl->q.qlen)
		ddl_deactivate(&q->s, idx, now);
	else
		ddl_head_queued(&q->s, idx, ddl_skb_cb(cl->q.head)->enqueued);
	trace_ddl_drop(sch, ddl_idx_to_minor(q, idx), len, why);
	return skb;
}

/* The class that holds the most memory: the background or a backlogged job. */
static u32 ddl_mem_fattest(struct ddl_sched_data *q)
{
	u32 best = DDL_BG(&q->s), idx;
	u32 most = q->classes[best].mem;

	for (idx = ddl_bm_first(&q->s, 0); idx != DDL_NONE;
	     idx = ddl_bm_first(&q->s, idx + 1)) {
		if (q->classes[idx].mem > most) {
			most = q->classes[idx].mem;
			best = idx;
		}
	}
	return best;
}

/*
 * Bounds on the work of one arrival over memory_limit: the classes searched
 * for the one holding the most, and the packets dropped.  Memory stays under
 * the limit plus one packet when they run out; the next arrivals go on.
 */
#define DDL_MEM_SEARCHES	4
#define DDL_MEM_DROPS		64

/*
 * @skb, just queued, took the queue over memory_limit: drop head packets
 * of the class holding the most memory, until the queue is back under the
 * limit.  Head drops tell a TCP sender soonest.  If that class's head is
 * @skb itself, @skb is dropped (NET_XMIT_DROP).  Enqueue first, drop
 * after: the qdisc never empties under a parent that counted it, and the
 * parent is told only of the older packets that go.
 */
static int ddl_mem_shed(struct Qdisc *sch, struct sk_buff *skb, u64 now,
			struct sk_buff **to_free)
{
	struct ddl_sched_data *q = qdisc_priv(sch);
	u32 limit = q->params.memory_limit;
	unsigned int pkts = 0, bytes = 0;
	u32 searches = 0, victim = DDL_NONE;
	int ret = NET_XMIT_SUCCESS;

	while (q->mem_used > limit && pkts < DDL_MEM_DROPS) {
		struct ddl_class *cl;
		struct sk_buff *old;

		if (victim == DDL_NONE || !q->classes[victim].q.qlen) {
			if (searches++ == DDL_MEM_SEARCHES)
				break;
			victim = ddl_mem_fattest(q);
		}
		cl = &q->classes[victim];
		old = ddl_drop_head(sch, victim, now, DDL_DROP_OVERMEMORY);
		cl->drop_overmemory++;
		q->drop_overmemory++;
		if (old == skb) {
			ret = qdisc_drop(skb, sch, to_free);
			break;
		}
		pkts++;
		bytes += qdisc_pkt_len(old);
		qdisc_drop(old, sch, to_free);
	}
	if (pkts)
		qdisc_tree_reduce_backlog(sch, pkts, bytes);
	q->mem_peak = max(q->mem_peak, q->mem_used);
	return ret;
}

static int ddl_enqueue(struct sk_buff *skb, struct Qdisc *sch,
		       struct sk_buff **to_free)
{
	struct ddl_sched_data *q = qdisc_priv(sch);
	unsigned int len = qdisc_pkt_len(skb);
	u64 now = ktime_get_ns();
	enum ddl_signal sig;
	struct ddl_class *cl;
	bool traced;
	u64 done;
	int ret;
	u32 idx;

	idx = ddl_classify(skb, sch, now, &ret);
	if (unlikely(idx == DDL_NONE)) {
		if (ret & __NET_XMIT_BYPASS) {
			q->drop_filter++;
			qdisc_qstats_drop(sch);
			trace_ddl_drop(sch, 0, len, DDL_DROP_FILTER);
		}
		__qdisc_drop(skb, to_free);
		return ret;
	}

	cl = &q->classes[idx];
	if (unlikely(!ddl_admit(&q->params, sch->q.qlen))) {
		q->drop_overlimit++;
		cl->qstats.drops++;
		trace_ddl_drop(sch, ddl_idx_to_minor(q, idx), len,
			       DDL_DROP_OVERLIMIT);
		return qdisc_drop(skb, sch, to_free);
	}

	if (q->params.target_bytes) {
		sig = ddl_signal_skb(sch, skb, idx, now);
		if (sig != DDL_SIG_NONE) {
			cl->qstats.drops++;
			trace_ddl_drop(sch, ddl_idx_to_minor(q, idx), len,
				       sig == DDL_SIG_LEAD ? DDL_DROP_LEAD :
							     DDL_DROP_TARGET);
			qdisc_drop(skb, sch, to_free);
			/* Congestion, as RED says it: the sender backs off. */
			return NET_XMIT_CN;
		}
	}

	if (q->clock_shared)
		q->s.cl.clock_off = ddl_clock_off();
	ddl_skb_cb(skb)->enqueued = now;
	ddl_mem_charge(q, cl, skb);
	__qdisc_enqueue_tail(skb, &cl->q);
	cl->qstats.backlog += len;
	/* The bursts the log had completed, for the tracepoint alone. */
	traced = trace_ddl_burst_end_enabled();
	done = traced ? q->s.log.bursts_done : 0;
	if (ddl_arrived(&q->s, &q->params, idx, len, now)) {
		/* What other classes held when the burst began. */
		u64 seen = sch->qstats.backlog + len - cl->qstats.backlog;

		cl->burst_backlog = seen;
		cl->burst_backlog_max = max(cl->burst_backlog_max, seen);
		cl->burst_backlog_sum += seen;
		if (traced)
			ddl_trace_burst_end(sch, idx, done);
		trace_ddl_burst_start(sch, idx + 1, seen);
	}

	sch->qstats.backlog += len;
	sch->q.qlen++;
	if (unlikely(q->mem_used > q->params.memory_limit))
		return ddl_mem_shed(sch, skb, now, to_free);
	if (q->mem_used > q->mem_peak)		/* no store for most packets */
		q->mem_peak = q->mem_used;
	return NET_XMIT_SUCCESS;
}

/*
 * Write the DSCP of rank @rank into @skb, an IPv4 or IPv6 packet; the ECN
 * bits stay, the IPv4 checksum follows.  A packet whose header cannot be
 * made writable leaves as it is, counted in dscp_fails.
 */
static void ddl_set_dscp(struct ddl_sched_data *q, struct ddl_class *cl,
			 struct sk_buff *skb, u32 rank)
{
	u8 ds = q->params.dscp[min(rank, q->params.ndscp - 1)] << 2;
	int nhoff = skb_network_offset(skb);

	switch (skb_protocol(skb, true)) {
	case htons(ETH_P_IP):
		if (!pskb_may_pull(skb, nhoff + sizeof(struct iphdr)) ||
		    skb_try_make_writable(skb, nhoff + sizeof(struct iphdr)))
			break;
		ipv4_change_dsfield(ip_hdr(skb), INET_ECN_MASK, ds);
		goto marked;
	case htons(ETH_P_IPV6):
		if (!pskb_may_pull(skb, nhoff + sizeof(struct ipv6hdr)) ||
		    skb_try_make_writable(skb, nhoff + sizeof(struct ipv6hdr)))
			break;
		ipv6_change_dsfield(ipv6_hdr(skb), INET_ECN_MASK, ds);
		goto marked;
	default:
		return;		/* not IP: nothing to write */
	}
	q->dscp_fails++;
	return;
marked:
	q->dscp_marks++;
	cl->dscp_marks++;
}

/*
 * Whether the shaper holds the queue back at @now; if it does, the
 * watchdog is armed for the next departure time.  For a rate only.
 */
static bool ddl_paced(struct Qdisc *sch, u64 now)
{
	struct ddl_sched_data *q = qdisc_priv(sch);
	u64 throttles = q->s.pace.throttles;

	if (!ddl_pace_hold(&q->s.pace, &q->params, now))
		return false;
	qdisc_qstats_overlimit(sch);
	if (q->s.pace.throttles != throttles)
		trace_ddl_throttle(sch, q->s.pace.next - now);
	/* Late by up to half the burst: the burst credit absorbs it. */
	qdisc_watchdog_schedule_range_ns(&q->watchdog, q->s.pace.next,
					 min_t(u64, q->params.burst_ns / 2,
					       DDL_SLACK_MAX_NS));
	return true;
}

static struct sk_buff *ddl_dequeue(struct Qdisc *sch)
{
	struct ddl_sched_data *q = qdisc_priv(sch);
	enum ddl_reason reason;
	struct ddl_class *cl;
	struct sk_buff *skb;
	unsigned int len, segs;
	bool traced;
	u64 now, turns;
	u32 idx;

	if (!sch->q.qlen)
		return NULL;

	now = ktime_get_ns();
	if (q->params.rate && ddl_paced(sch, now))
		return NULL;

	/* The turns the core had recorded, for the tracepoint alone. */
	traced = trace_ddl_turn_enabled();
	turns = traced ? q->s.log.turns : 0;
	idx = ddl_pick(&q->s, &q->params, now, &reason);
	if (traced)
		ddl_trace_turn(sch, turns);
	if (idx == DDL_NONE)
		return NULL;
	/* Only a job's data waits for the device's turn, not its ACKs. */
	if (q->share && (reason == DDL_R_GREEN || reason == DDL_R_YELLOW) &&
	    READ_ONCE(q->share->nmembers) > 1 && q->s.cls[idx].burst.data_qlen &&
	    ddl_share_holds(sch, &idx, &reason, now))
		return NULL;

	cl = &q->classes[idx];
	skb = __qdisc_dequeue_head(&cl->q);
	if (unlikely(!skb))
		return NULL;

	len = qdisc_pkt_len(skb);
	segs = skb_is_gso(skb) ? skb_shinfo(skb)->gso_segs : 1;
	cl->qstats.backlog -= len;
	ddl_mem_release(q, cl, skb);
	/* The rank while the job is still queued: its packet leaves now. */
	if (q->params.ndscp && idx != DDL_BG(&q->s))
		ddl_set_dscp(q, cl, skb,
			     ddl_mark(&q->s, &q->params, idx, now));
	/* bstats_update() each, the length and segments read once. */
	_bstats_update(&cl->bstats, len, segs);
	ddl_served(&q->s, &q->params, idx, reason, len, !cl->q.qlen, now);
	if (cl->q.qlen)
		ddl_head_queued(&q->s, idx,
				ddl_skb_cb(cl->q.head)->enqueued);
	/* Its last data sent: ACKs left behind hold no turn. */
	if (q->share && !q->s.cls[idx].burst.data_qlen)
		ddl_share_emptied(sch, idx);

	sch->q.qlen--;
	sch->qstats.backlog -= len;
	_bstats_update(&sch->bstats, len, segs);
	if (q->params.target_bytes && idx == DDL_BG(&q->s))
		ddl_aqm_drained(&q->s.pace, &q->params, cl->qstats.backlog);
	return skb;
}

/* Empty every class; the caller fixes sch->q and sch->qstats. */
static void ddl_purge(struct Qdisc *sch)
{
	struct ddl_sched_data *q = qdisc_priv(sch);
	u64 now = ktime_get_ns();
	u32 i;

	if (!q->classes)
		return;
	for (i = 0; i <= q->s.jobs; i++) {
		struct ddl_class *cl = &q->classes[i];

		if (!cl->q.qlen)
			continue;
		rtnl_kfree_skbs(cl->q.head, cl->q.tail);
		cl->q.head = NULL;
		cl->q.tail = NULL;
		cl->q.qlen = 0;
		cl->qstats.backlog = 0;
		cl->mem = 0;
		ddl_deactivate(&q->s, i, now);
	}
	q->mem_used = 0;
}

static void ddl_reset(struct Qdisc *sch)
{
	struct ddl_sched_data *q = qdisc_priv(sch);

	qdisc_watchdog_cancel(&q->watchdog);
	ddl_quiesce(&q->s, ktime_get_ns());
	ddl_purge(sch);
	sch->q.qlen = 0;
	sch->qstats.backlog = 0;
}

/*
 * Drop packets until the qdisc holds no more than the limit: from the heads
 * of the classes, the background first, then jobs from the highest minor
 * down; a requeued packet last.  Then until it holds no more than
 * memory_limit: from the head of the class that holds the most.  Bounded
 * by the classes plus the packets queued.
 */
static void ddl_shrink(struct Qdisc *sch, u64 now)
{
	struct ddl_sched_data *q = qdisc_priv(sch);
	unsigned int pkts = 0, bytes = 0;
	u32 excess, i, victim = DDL_NONE;
	struct sk_buff *skb;

	excess = ddl_excess(&q->params, sch->q.qlen);
	for (i = DDL_BG(&q->s) + 1; excess && i-- > 0;) {
		while (excess && q->classes[i].q.qlen) {
			skb = ddl_drop_head(sch, i, now, DDL_DROP_CHANGE);
			bytes += qdisc_pkt_len(skb);
			rtnl_qdisc_drop(skb, sch);
			pkts++;
			excess--;
		}
	}
	while (excess) {
		skb = __skb_dequeue(&sch->gso_skb);
		if (WARN_ON_ONCE(!skb))
			break;
		sch->q.qlen--;
		qdisc_qstats_backlog_dec(sch, skb);
		bytes += qdisc_pkt_len(skb);
		trace_ddl_drop(sch, 0, qdisc_pkt_len(skb), DDL_DROP_CHANGE);
		rtnl_qdisc_drop(skb, sch);
		pkts++;
		excess--;
	}
	/* Under a lower memory_limit: from the class holding the most. */
	while (q->mem_used > q->params.memory_limit) {
		if (victim == DDL_NONE || !q->classes[victim].q.qlen) {
			victim = ddl_mem_fattest(q);
			if (WARN_ON_ONCE(!q->classes[victim].q.qlen))
				break;
		}
		skb = ddl_drop_head(sch, victim, now, DDL_DROP_CHANGE);
		bytes += qdisc_pkt_len(skb);
		rtnl_qdisc_drop(skb, sch);
		pkts++;
	}
	if (pkts) {
		q->drop_change += pkts;
		qdisc_tree_reduce_backlog(sch, pkts, bytes);
	}
}

/*
 * The options' side in netlink, made from ddl_opts[] (ddl_params.h) at
 * load by ddl_opts_init(): the policy gives each attribute its type, and
 * ddl_check_ranges() checks the values, so that a bad one is refused with
 * its option and range named, where a policy range would answer "integer
 * out of range" alone.  Each option's message is made once, there: 6.1's
 * extack has no buffer to format one into.
 */
#define DDL_MSG_LEN	80

static struct nla_policy ddl_policy[TCA_DDL_MAX + 1] __ro_after_init;
static char ddl_opt_msgs[ARRAY_SIZE(ddl_opts)][DDL_MSG_LEN] __ro_after_init;

/* Types only: ddl_change_class() checks the values. */
static const struct nla_policy ddl_class_policy[TCA_DDL_CLASS_MAX + 1] = {
	[TCA_DDL_CLASS_WEIGHT]	= { .type = NLA_U32 },
	[TCA_DDL_CLASS_SIZE]	= { .type = NLA_U64 },
	[TCA_DDL_CLASS_PAD]	= { .type = NLA_REJECT },
	[TCA_DDL_CLASS_CGROUP]	= { .type = NLA_U64 },
	[TCA_DDL_CLASS_ADDRS]	= { .type = NLA_BINARY,
				    .len = TC_DDL_ADDRS_MAX *
					   sizeof(struct in6_addr) },
};

/* The largest value an option's type holds. */
static u64 ddl_opt_top(const struct ddl_opt *o)
{
	return o->size >= sizeof(u64) ? U64_MAX : BIT_ULL(8 * o->size) - 1;
}

/* Whether @v is a whole number, not 0, of @d. */
static bool ddl_whole(u64 v, u32 d)
{
	u32 rem;

	div_u64_rem(v, d, &rem);
	return v && !rem;
}

/* @v, a value of @unit, as tc writes it: "100us", "128Kb", "1kbit". */
static void ddl_fmt(char *buf, size_t len, u8 unit, u64 v)
{
	static const char * const sizes[] = { "b", "Kb", "Mb", "Gb", "Tb" };
	static const char * const rates[] = { "bit", "kbit", "Mbit", "Gbit",
					      "Tbit" };
	unsigned int i = 0;

	switch (unit) {
	case DDL_UNIT_MS:
		v *= USEC_PER_MSEC;
		fallthrough;
	case DDL_UNIT_US:
		if (ddl_whole(v, USEC_PER_SEC))
			scnprintf(buf, len, "%llus", div_u64(v, USEC_PER_SEC));
		else if (ddl_whole(v, USEC_PER_MSEC))
			scnprintf(buf, len, "%llums",
				  div_u64(v, USEC_PER_MSEC));
		else
			scnprintf(buf, len, "%lluus", v);
		return;
	case DDL_UNIT_BYTES:
		for (; ddl_whole(v, SZ_1K) && i < ARRAY_SIZE(sizes) - 1; i++)
			v = div_u64(v, SZ_1K);
		scnprintf(buf, len, "%llu%s", v, sizes[i]);
		return;
	case DDL_UNIT_RATE:
		v = v > U64_MAX / 8 ? U64_MAX : v * 8;
		for (; ddl_whole(v, 1000) && i < ARRAY_SIZE(rates) - 1; i++)
			v = div_u64(v, 1000);
		scnprintf(buf, len, "%llu%s", v, rates[i]);
		return;
	case DDL_UNIT_NS:
		scnprintf(buf, len, "%lluns", v);
		return;
	case DDL_UNIT_PERCENT:
		scnprintf(buf, len, "%llu%%", v);
		return;
	}
	scnprintf(buf, len, "%llu", v);
}

/*
 * The message that refuses a value of @o: its name and range, in its
 * unit, and what it takes besides ("limit must be between 1 and 1048576
 * packets", "slice must be auto or between 100us and 10s").
 */
static void ddl_opt_msg(const struct ddl_opt *o, char *buf, size_t len)
{
	char lo[24], hi[24], range[56], elem[16] = "";
	const char *also = "";

	if (o->unit == DDL_UNIT_NAME) {
		scnprintf(buf, len, "Unknown %s", o->name);
		return;
	}
	if (o->unit == DDL_UNIT_BOOL) {
		scnprintf(buf, len, "%s must be %s0 or 1", o->name,
			  o->flags & DDL_OPT_AUTO ? "auto, " : "");
		return;
	}
	if (o->flags & DDL_OPT_AUTO)
		also = "auto or ";
	else if (o->flags & DDL_OPT_OFF)
		also = "off or ";
	ddl_fmt(lo, sizeof(lo), o->unit, o->min);
	ddl_fmt(hi, sizeof(hi), o->unit, o->max);
	if (!o->min)
		scnprintf(range, sizeof(range), "at most %s", hi);
	else if (o->max == ddl_opt_top(o))
		scnprintf(range, sizeof(range), "at least %s", lo);
	else
		scnprintf(range, sizeof(range), "between %s and %s", lo, hi);

	if (o->type != DDL_OPT_ARRAY) {
		scnprintf(buf, len, "%s must be %s%s%s", o->name, also, range,
			  o->unit == DDL_UNIT_PACKETS ? " packets" : "");
		return;
	}
	if (o->size > 1)
		scnprintf(elem, sizeof(elem), " of %u bytes", o->size);
	scnprintf(buf, len, "%s takes at most %u %s%s%s, each %s", o->name,
		  o->count_max, o->flags & DDL_OPT_RISING ? "increasing " : "",
		  o->unit == DDL_UNIT_DSCP ? "code points" : "sizes", elem,
		  range);
}

/* The netlink policy and the options' messages, from ddl_opts[]. */
static void __init ddl_opts_init(void)
{
	static const u8 types[] = {
		[DDL_OPT_U32]	= NLA_U32,
		[DDL_OPT_U64]	= NLA_U64,
		[DDL_OPT_ARRAY]	= NLA_BINARY,
	};
	unsigned int i;

	ddl_policy[TCA_DDL_PAD].type = NLA_REJECT;
	for (i = 0; i < ARRAY_SIZE(ddl_opts); i++) {
		ddl_policy[ddl_opts[i].attr].type = types[ddl_opts[i].type];
		ddl_opt_msg(&ddl_opts[i], ddl_opt_msgs[i], DDL_MSG_LEN);
	}
}

/* Whether @v is a value of @o: in its range, or one it takes besides. */
static bool ddl_opt_takes(const struct ddl_opt *o, u64 v)
{
	if (v >= o->min && v <= o->max)
		return true;
	return ((o->flags & DDL_OPT_AUTO) && v == TC_DDL_AUTO) ||
	       ((o->flags & DDL_OPT_OFF) && !v) ||
	       ((o->flags & DDL_OPT_NONE) && v == ddl_opt_top(o));
}

/* Whether @attr holds a value of @o; an array, values that fit it. */
static bool ddl_opt_valid(const struct ddl_opt *o, const struct nlattr *attr)
{
	const u8 *d = nla_data(attr);
	int i, n = nla_len(attr);
	u64 v, prev = 0;

	switch (o->type) {
	case DDL_OPT_U32:
		return ddl_opt_takes(o, nla_get_u32(attr));
	case DDL_OPT_U64:
		return ddl_opt_takes(o, nla_get_u64(attr));
	}
	if (n % o->size || n > o->count_max * o->size)
		return false;
	for (i = 0; i < n; i += o->size) {
		if (o->size == sizeof(u64))
			memcpy(&v, d + i, sizeof(v));
		else
			v = d[i];
		if (!ddl_opt_takes(o, v) ||
		    (i && (o->flags & DDL_OPT_RISING) && v <= prev))
			return false;
		prev = v;
	}
	return true;
}

/* @attr's value into @p: a value that turns @o off (DDL_OPT_NONE) as 0. */
static void ddl_opt_apply(struct ddl_params *p, const struct ddl_opt *o,
			  const struct nlattr *attr)
{
	u64 v;

	switch (o->type) {
	case DDL_OPT_U32:
		v = nla_get_u32(attr);
		break;
	case DDL_OPT_U64:
		v = nla_get_u64(attr);
		break;
	default:
		v = nla_memcpy((u8 *)p + o->off, attr,
			       o->count_max * o->size) / o->size;
		break;
	}
	if ((o->flags & DDL_OPT_NONE) && v == ddl_opt_top(o))
		v = 0;
	ddl_opt_set(p, o, v);
}

/* @o as the dump gives it, read locklessly from @p. */
static int ddl_opt_dump(struct sk_buff *skb, const struct ddl_params *p,
			const struct ddl_opt *o)
{
	const u8 *f = (const u8 *)p + o->off;
	u64 v;

	switch (o->type) {
	case DDL_OPT_U32:
		return nla_put_u32(skb, o->attr, READ_ONCE(*(const u32 *)f));
	case DDL_OPT_U64:
		v = READ_ONCE(*(const u64 *)f);
		if ((o->flags & DDL_OPT_NONE) && !v)
			v = ddl_opt_top(o);
		return nla_put_u64_64bit(skb, o->attr, v, TCA_DDL_PAD);
	}
	v = READ_ONCE(*(const u32 *)((const u8 *)p + o->count_off));
	return nla_put(skb, o->attr, v * o->size, f);
}

/* @o of @src into @dst, which the dump reads locklessly. */
static void ddl_opt_commit(struct ddl_params *dst, const struct ddl_params *src,
			   const struct ddl_opt *o)
{
	const u8 *s = (const u8 *)src + o->off;
	u8 *d = (u8 *)dst + o->off;

	switch (o->type) {
	case DDL_OPT_U32:
		WRITE_ONCE(*(u32 *)d, *(const u32 *)s);
		return;
	case DDL_OPT_U64:
		WRITE_ONCE(*(u64 *)d, *(const u64 *)s);
		return;
	}
	WRITE_ONCE(*(u32 *)((u8 *)dst + o->count_off),
		   *(const u32 *)((const u8 *)src + o->count_off));
	memcpy(d, s, o->count_max * o->size);
}

/* Whether @attr is given and holds a u32 outside [@min, @max]. */
static bool ddl_outside(const struct nlattr *attr, u32 min, u32 max)
{
	u32 v;

	if (!attr)
		return false;
	v = nla_get_u32(attr);
	return v < min || v > max;
}

/*
 * The range of every qdisc option, before anything else: the one place
 * they are checked (tc leaves them to the kernel), from ddl_opts[].
 */
static int ddl_check_ranges(struct nlattr **tb, struct netlink_ext_ack *extack)
{
	const struct nlattr *attr = tb[TCA_DDL_RATE];
	unsigned int i;

	if (attr && !nla_get_u64(attr)) {
		NL_SET_ERR_MSG_ATTR(extack, attr,
				    "rate must be positive; 'rate unlimited' turns shaping off");
		return -EINVAL;
	}
	for (i = 0; i < ARRAY_SIZE(ddl_opts); i++) {
		attr = tb[ddl_opts[i].attr];
		if (attr && !ddl_opt_valid(&ddl_opts[i], attr)) {
			ddl_err_attr(extack, attr, ddl_opt_msgs[i]);
			return -ERANGE;
		}
	}
	return 0;
}

/* @tb[@type], or NULL without a request (the module parameters). */
static struct nlattr *ddl_tb(struct nlattr **tb, int type)
{
	return tb ? tb[type] : NULL;
}

/**
 * ddl_params_check() - the rules between options
 * @p: a configuration, each option in its range, derived
 *	(ddl_params_derive())
 * @old: the configuration in force when @p would change it; NULL for a
 *	new instance, and for the module parameters' defaults
 * @tb: the request's attributes; NULL for the module parameters
 * @mtu: bytes of the device's largest packet, to check a target against
 *	the limit; 0: no device (the module parameters)
 * @extack: where a refusal says why, or NULL
 *
 * The one place of these rules: a request (ddl_parse_opt()) and a module
 * parameter (ddl_debugfs.c) are checked alike.
 *
 * Context: process context.
 * Return: 0, or -EINVAL with @extack's message.
 */
int ddl_params_check(const struct ddl_params *p, const struct ddl_params *old,
		     struct nlattr **tb, u32 mtu,
		     struct netlink_ext_ack *extack)
{
	bool target_auto = p->target_us == TC_DDL_AUTO;

	if (p->shuffle_us && !p->ndscp) {
		NL_SET_ERR_MSG_MOD(extack,
				   "shuffle deals the code points of dscp: give dscp, or shuffle off");
		return -EINVAL;
	}
	if (p->shuffle_us && p->shuffle_us < p->epoch_us) {
		NL_SET_ERR_MSG_MOD(extack,
				   "shuffle must be at least one epoch");
		return -EINVAL;
	}
	if (p->ntiers && !p->shuffle_us) {
		NL_SET_ERR_MSG_MOD(extack,
				   "tiers split the code points a shuffle deals: give shuffle, or tiers off");
		return -EINVAL;
	}
	if (p->ntiers && p->ndscp < p->ntiers + 1) {
		NL_SET_ERR_MSG_MOD(extack,
				   "tiers need a code point each: give more dscp, or fewer tiers");
		return -EINVAL;
	}
	if (p->ndscp && !p->shuffle_us && !ddl_mode(p)->cluster) {
		NL_SET_ERR_MSG_MOD(extack,
				   "dscp writes the rank in the cluster order: it needs mode cluster, or a shuffle");
		return -EINVAL;
	}
	if (old && p->jobs != old->jobs) {
		NL_SET_ERR_MSG_ATTR(extack, ddl_tb(tb, TCA_DDL_JOBS),
				    "The number of jobs is fixed when the qdisc is created");
		return -EINVAL;
	}

	/* An automatic slice or yield follows the jobs: nothing to compare. */
	if (p->slice_us != TC_DDL_AUTO) {
		if (p->yield_us && p->yield_us != TC_DDL_AUTO &&
		    p->yield_us >= p->slice_us) {
			NL_SET_ERR_MSG_MOD(extack,
					   "yield must be shorter than the slice");
			return -EINVAL;
		}
		if (p->maxwait_us < p->slice_us) {
			NL_SET_ERR_MSG_MOD(extack,
					   "maxwait must be at least one slice");
			return -EINVAL;
		}
	}

	/* Shaping, the target and prediction. */
	if (ddl_tb(tb, TCA_DDL_TARGET) && ddl_tb(tb, TCA_DDL_TARGET_TIME)) {
		NL_SET_ERR_MSG_MOD(extack,
				   "Give the target in bytes or in time, not both");
		return -EINVAL;
	}
	/* A burst belongs to its rate: 'rate unlimited' clears it. */
	if (p->burst && !p->rate) {
		NL_SET_ERR_MSG_ATTR(extack, ddl_tb(tb, TCA_DDL_BURST),
				    "burst needs a rate");
		return -EINVAL;
	}
	/*
	 * An automatic target follows the rate: none without one, and one
	 * above the limit never acts.  An automatic lead follows the target.
	 */
	if (p->target_us && !target_auto && !p->rate) {
		NL_SET_ERR_MSG_MOD(extack, "A target in time needs a rate");
		return -EINVAL;
	}
	/* Checked when one of its terms is set: the MTU may have changed. */
	if (mtu && !target_auto &&
	    (!old || ddl_tb(tb, TCA_DDL_LIMIT) || ddl_tb(tb, TCA_DDL_RATE) ||
	     ddl_tb(tb, TCA_DDL_TARGET) || ddl_tb(tb, TCA_DDL_TARGET_TIME)) &&
	    p->target_bytes > (u64)p->limit * mtu) {
		NL_SET_ERR_MSG_MOD(extack,
				   "The target is larger than the queue limit (limit x MTU bytes)");
		return -EINVAL;
	}
	if (!target_auto && (p->target || p->target_us) && !p->target_bytes) {
		NL_SET_ERR_MSG_MOD(extack,
				   "The target is less than one byte at this rate");
		return -EINVAL;
	}
	if (p->lead_us == TC_DDL_AUTO)
		return 0;
	if (p->lead_us && !p->target_bytes) {
		NL_SET_ERR_MSG_MOD(extack,
				   "lead needs a target: the lead window drains the queue to it");
		return -EINVAL;
	}
	if ((u64)p->lead_us * 2 >= p->maxperiod_us) {
		NL_SET_ERR_MSG_MOD(extack,
				   "lead must be shorter than half of maxperiod: no period it could predict");
		return -EINVAL;
	}
	return 0;
}

/*
 * Parse @opt on top of @p and check the result; touches nothing but @p.
 * @old: the configuration in force (a change), or NULL (a new instance,
 * whose jobs may be set).  @mtu: bytes of the largest packet, to check a
 * target against the limit.
 */
static int ddl_parse_opt(struct ddl_params *p, struct nlattr *opt,
			 const struct ddl_params *old, u32 mtu,
			 struct netlink_ext_ack *extack)
{
	struct nlattr *tb[TCA_DDL_MAX + 1];
	unsigned int i;
	int err;

	err = nla_parse_nested(tb, TCA_DDL_MAX, opt, ddl_policy, extack);
	if (err < 0)
		return err;
	err = ddl_check_ranges(tb, extack);
	if (err)
		return err;

	/* A burst belongs to its rate: no rate, no burst, unless given. */
	if (tb[TCA_DDL_RATE] &&
	    nla_get_u64(tb[TCA_DDL_RATE]) == TC_DDL_RATE_NONE)
		p->burst = 0;
	for (i = 0; i < ARRAY_SIZE(ddl_opts); i++)
		if (tb[ddl_opts[i].attr])
			ddl_opt_apply(p, &ddl_opts[i], tb[ddl_opts[i].attr]);
	/* The target is in bytes or in time: the one given clears the other. */
	if (tb[TCA_DDL_TARGET])
		p->target_us = 0;
	if (tb[TCA_DDL_TARGET_TIME])
		p->target = 0;
	ddl_params_derive(p);
	return ddl_params_check(p, old, tb, mtu, extack);
}

static void ddl_commit_params(struct ddl_params *dst,
			      const struct ddl_params *src)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(ddl_opts); i++)
		ddl_opt_commit(dst, src, &ddl_opts[i]);
	dst->burst_ns = src->burst_ns;
	dst->target_bytes = src->target_bytes;
	dst->lead_ns = src->lead_ns;
}

/*
 * Whether @q with @p takes turns with the ddl qdiscs of its parent: the
 * turn compares cluster keys, so only in mode cluster.  Decided here, at
 * init and change, not per packet.
 */
static bool ddl_shared(const struct ddl_sched_data *q,
		       const struct ddl_params *p)
{
	if (!ddl_mode(p)->cluster)
		return false;
	if (p->share == TC_DDL_AUTO)
		return q->per_queue && !p->rate;
	return p->share;
}

static int ddl_change(struct Qdisc *sch, struct nlattr *opt,
		      struct netlink_ext_ack *extack)
{
	struct ddl_sched_data *q = qdisc_priv(sch);
	struct ddl_params p = q->params, old;
	struct ddl_share *join = NULL, *left = NULL;
	u64 now;
	int err;

	err = ddl_parse_opt(&p, opt, &q->params, psched_mtu(qdisc_dev(sch)),
			    extack);
	if (err)
		return err;
	if (!q->share && ddl_shared(q, &p)) {
		join = ddl_share_get(sch);
		if (!join) {
			NL_SET_ERR_MSG_MOD(extack,
					   "No memory for the device's turn");
			return -ENOMEM;
		}
	}

	sch_tree_lock(sch);
	if (join)
		ddl_share_attach(q, join);
	else if (q->share && !ddl_shared(q, &p))
		left = ddl_share_detach(q);
	now = ktime_get_ns();
	q->s.cl.clock_off = ddl_clock_off();
	old = q->params;
	ddl_commit_params(&q->params, &p);
	q->clock_shared = ddl_shared_clock(&q->params);
	ddl_reconfigure(&q->s, &old, &p, now);
	ddl_shrink(sch, now);
	if (!sch->q.qlen)
		qdisc_watchdog_cancel(&q->watchdog);
	else if (old.rate != p.rate || old.burst_ns != p.burst_ns || left)
		/* A held queue may go now: wake the watchdog at once. */
		qdisc_watchdog_schedule_ns(&q->watchdog, now);
	sch_tree_unlock(sch);
	if (left)
		ddl_share_put(left);
	return 0;
}

/*
 * Whether @sch is the qdisc of one transmit queue of a multi-queue device:
 * a child of mq or mqprio, added under the root (TCQ_F_MQROOT) or made by
 * it as a default before the root is grafted (no handle, the parent not
 * the root yet, and the child's queue the one its minor names).  A qdisc
 * added deeper in a tree has a handle and a parent that is not the root.  A job's flows
 * hash to several queues there, and only the cluster order is the same on
 * every queue: it is made of the shared clock and each job's facts.
 *
 * Context: process context, RTNL held.
 */
static bool ddl_per_queue(const struct Qdisc *sch)
{
	struct net_device *dev = qdisc_dev(sch);
	struct Qdisc *root = rtnl_dereference(dev->qdisc);
	u32 minor = TC_H_MIN(sch->parent);

	if (dev->num_tx_queues < 2 || sch->parent == TC_H_ROOT ||
	    !minor || minor > dev->num_tx_queues)
		return false;
	if (root && TC_H_MAJ(root->handle) == TC_H_MAJ(sch->parent))
		return root->flags & TCQ_F_MQROOT;
	return !sch->handle &&
	       sch->dev_queue == netdev_get_tx_queue(dev, minor - 1);
}

static int ddl_init(struct Qdisc *sch, struct nlattr *opt,
		    struct netlink_ext_ack *extack)
{
	struct ddl_sched_data *q = qdisc_priv(sch);
	struct ddl_params p;
	int err;
	u32 i;

	qdisc_watchdog_init(&q->watchdog, sch);
	ddl_params_defaults(&p);
	q->per_queue = ddl_per_queue(sch);
	if (q->per_queue)
		p.mode = TC_DDL_MODE_CLUSTER;
	if (opt) {
		err = ddl_parse_opt(&p, opt, NULL, psched_mtu(qdisc_dev(sch)),
				    extack);
		if (err)
			return err;
	}

	err = tcf_block_get(&q->block, &q->filter_list, sch, extack);
	if (err)
		return err;

	err = ddl_sched_init(&q->s, p.jobs);
	if (err)
		return err;

	q->classes = ddl_calloc(p.jobs + 1, sizeof(*q->classes));
	q->binds = ddl_calloc(p.jobs, sizeof(*q->binds));
	if (!q->classes || !q->binds)
		return -ENOMEM;
	for (i = 0; i <= p.jobs; i++)
		gnet_stats_basic_sync_init(&q->classes[i].bstats);

	q->params = p;
	q->clock_shared = ddl_shared_clock(&p);
	q->s.cl.clock_off = ddl_clock_off();
	/* Sets q->sch, which the share's wake-ups and ddl_destroy() read. */
	ddl_debugfs_add(sch);

	if (ddl_shared(q, &p)) {
		struct ddl_share *sh = ddl_share_get(sch);

		if (!sh) {
			NL_SET_ERR_MSG_MOD(extack,
					   "No memory for the device's turn");
			return -ENOMEM;
		}
		ddl_share_attach(q, sh);
	}
	return 0;
}

static void ddl_destroy(struct Qdisc *sch)
{
	struct ddl_sched_data *q = qdisc_priv(sch);

	/* Waits for its readers: nothing below is in use by them then. */
	ddl_debugfs_del(sch);
	if (q->share)
		ddl_share_put(ddl_share_detach(q));
	qdisc_watchdog_cancel(&q->watchdog);
	/* Filters unbind from our classes here: before the classes go. */
	tcf_block_put(q->block);
	ddl_purge(sch);
	kvfree(q->classes);
	q->classes = NULL;
	ddl_addr_destroy(q);
	kvfree(q->binds);
	q->binds = NULL;
	ddl_sched_destroy(&q->s);
}

static int ddl_dump(struct Qdisc *sch, struct sk_buff *skb)
{
	struct ddl_sched_data *q = qdisc_priv(sch);
	const struct ddl_opt *o;
	struct nlattr *opts;
	unsigned int i;

	opts = nla_nest_start_noflag(skb, TCA_OPTIONS);
	if (!opts)
		return -EMSGSIZE;

	for (i = 0; i < ARRAY_SIZE(ddl_opts); i++) {
		o = &ddl_opts[i];
		/* The target as it was given, below: in time or in bytes. */
		if (o->attr == TCA_DDL_TARGET || o->attr == TCA_DDL_TARGET_TIME)
			continue;
		if (ddl_opt_dump(skb, &q->params, o))
			goto nla_put_failure;
	}
	if (READ_ONCE(q->params.target_us)) {
		if (nla_put_u32(skb, TCA_DDL_TARGET_TIME,
				READ_ONCE(q->params.target_us)))
			goto nla_put_failure;
	} else if (nla_put_u32(skb, TCA_DDL_TARGET,
			       READ_ONCE(q->params.target))) {
		goto nla_put_failure;
	}

	return nla_nest_end(skb, opts);

nla_put_failure:
	nla_nest_cancel(skb, opts);
	return -EMSGSIZE;
}

static int ddl_dump_stats(struct Qdisc *sch, struct gnet_dump *d)
{
	struct ddl_sched_data *q = qdisc_priv(sch);
	struct tc_ddl_xstats st = { .type = TCA_DDL_XSTATS_QDISC };
	struct tc_ddl_qd_stats *qs = &st.qdisc;
	u64 now;

	sch_tree_lock(sch);
	qs->drop_overlimit = q->drop_overlimit;
	qs->drop_overmemory = q->drop_overmemory;
	qs->memory_used = q->mem_used;
	qs->memory_peak = q->mem_peak;
	qs->drop_change = q->drop_change;
	qs->drop_filter = q->drop_filter;
	qs->rotations = q->s.rotations;
	qs->yields = q->s.yields;
	qs->guard_runs = q->s.guard_runs;
	qs->bgshare_runs = q->s.bgshare_runs;
	qs->ack_runs = q->s.ack_runs;
	qs->cls_filter = q->cls_filter;
	qs->cls_priority = q->cls_priority;
	qs->cls_cgroup = q->cls_cgroup;
	qs->cgroups_bound = q->cg_bound;
	qs->cls_addr = q->cls_addr;
	qs->addrs_bound = q->addr_bound;
	qs->share_holds = q->share_holds;
	qs->share_claims = q->share_claims;
	qs->share_wakes = q->share_wakes;
	if (q->share) {
		u32 job = READ_ONCE(q->share->gate.job);

		qs->share_queues = READ_ONCE(q->share->nmembers);
		if (job < q->params.jobs)
			qs->share_job = ddl_idx_to_minor(q, job);
	}
	qs->cls_key = q->cls_key;
	qs->cls_background = q->cls_background;
	qs->key_overflow = q->s.keymap.overflow;
	qs->key_recycled = q->s.keymap.recycled;
	qs->green = q->s.green == DDL_NONE ? 0 : q->s.green + 1;
	qs->keys_mapped = q->s.keymap.mapped;
	now = ktime_get_ns();
	/* Bring the lead window up to date: it moves only on arrivals. */
	ddl_window(&q->s.pred, &q->params, now);
	qs->throttled_ns = q->s.pace.throttled_ns;
	if (q->s.pace.throttled_since)
		qs->throttled_ns += now - q->s.pace.throttled_since;
	qs->throttles = q->s.pace.throttles;
	qs->paced_pkts = q->s.pace.paced_pkts;
	qs->paced_bytes = q->s.pace.paced_bytes;
	qs->aqm_marks = q->aqm_marks;
	qs->aqm_drops = q->aqm_drops;
	qs->bursts = q->s.burst.count;
	qs->leads = q->s.pred.leads;
	qs->lead_ns = ddl_lead_ns(&q->s.pred, now);
	qs->lead_marks = q->lead_marks;
	qs->lead_drops = q->lead_drops;
	qs->pred_hits = q->s.pred.hits;
	qs->pred_misses = q->s.pred.misses;
	qs->lead_job = ddl_lead_job(&q->s) == DDL_NONE ? 0 :
		       ddl_lead_job(&q->s) + 1;
	qs->target = q->params.target_bytes;
	if (q->s.green != DDL_NONE && ddl_mode(&q->params)->turns)
		qs->turn_ns = ddl_turn_ns(&q->s, &q->params, q->s.green);
	qs->turns_forced = q->s.turns_forced;
	qs->vtime = q->s.fair.vtime;
	qs->tag_exts = q->s.fair.tag_exts;
	qs->fair_jobs = q->s.fair.gps_jobs;
	qs->claimed = bitmap_weight(q->s.keymap.claimed_bm, q->s.jobs);
	qs->epoch = q->s.cl.epoch;
	qs->cl_bursts = q->s.cl.bursts;
	qs->cl_exts = q->s.cl.exts;
	qs->dscp_marks = q->dscp_marks;
	qs->dscp_fails = q->dscp_fails;
	/* Outside mode cluster the order is empty: no first. */
	qs->cl_first = ddl_idx_to_minor(q, ddl_cluster_first(&q->s));
	qs->cl_jobs = q->s.cl.jobs;
	qs->tai_off_ns = ddl_tai_off();
	if (q->params.shuffle_us)
		qs->deal = ddl_deal_of(&q->params, now + ddl_clock_off());
	qs->edge_bursts = q->s.cl.edge_bursts;
	sch_tree_unlock(sch);

	return gnet_stats_copy_app(d, &st, sizeof(st));
}

/* Classes: arg is the class index plus one, 0 meaning none. */

static struct Qdisc *ddl_leaf(struct Qdisc *sch, unsigned long arg)
{
	return NULL;
}

static unsigned long ddl_find(struct Qdisc *sch, u32 classid)
{
	struct ddl_sched_data *q = qdisc_priv(sch);
	u32 idx = ddl_minor_to_idx(q, TC_H_MIN(classid));

	return idx == DDL_NONE ? 0 : idx + 1;
}

#define DDL_FIXED_CLASSES \
	"ddl classes are fixed: job classes 1..jobs and the background class ffff"

static int ddl_change_class(struct Qdisc *sch, u32 classid, u32 parentid,
			    struct nlattr **tca, unsigned long *arg,
			    struct netlink_ext_ack *extack)
{
	struct ddl_sched_data *q = qdisc_priv(sch);
	struct nlattr *tb[TCA_DDL_CLASS_MAX + 1];
	struct nlattr *opt = tca[TCA_OPTIONS];
	struct ddl_addrset *set = NULL;
	u32 idx;
	int err;

	if (!*arg) {
		NL_SET_ERR_MSG_MOD(extack, DDL_FIXED_CLASSES);
		return -EOPNOTSUPP;
	}
	idx = *arg - 1;
	if (!opt) {
		NL_SET_ERR_MSG_MOD(extack, "Missing ddl class options");
		return -EINVAL;
	}
	err = nla_parse_nested(tb, TCA_DDL_CLASS_MAX, opt, ddl_class_policy,
			       extack);
	if (err < 0)
		return err;

	if (ddl_outside(tb[TCA_DDL_CLASS_WEIGHT], DDL_WEIGHT_MIN,
			DDL_WEIGHT_MAX)) {
		NL_SET_ERR_MSG_ATTR(extack, tb[TCA_DDL_CLASS_WEIGHT],
				    "weight must be between 1 and 256");
		return -ERANGE;
	}
	if (tb[TCA_DDL_CLASS_SIZE] &&
	    nla_get_u64(tb[TCA_DDL_CLASS_SIZE]) > DDL_SIZE_MAX) {
		NL_SET_ERR_MSG_ATTR(extack, tb[TCA_DDL_CLASS_SIZE],
				    "size must be at most 1Tb");
		return -ERANGE;
	}
	if (tb[TCA_DDL_CLASS_WEIGHT] && idx == DDL_BG(&q->s)) {
		NL_SET_ERR_MSG_ATTR(extack, tb[TCA_DDL_CLASS_WEIGHT],
				    "The background class is never green and has no weight");
		return -EINVAL;
	}
	if (tb[TCA_DDL_CLASS_SIZE] && idx == DDL_BG(&q->s)) {
		NL_SET_ERR_MSG_ATTR(extack, tb[TCA_DDL_CLASS_SIZE],
				    "The background class is no job and has no size");
		return -EINVAL;
	}
	if (tb[TCA_DDL_CLASS_CGROUP]) {
		if (idx == DDL_BG(&q->s)) {
			NL_SET_ERR_MSG_ATTR(extack, tb[TCA_DDL_CLASS_CGROUP],
					    "The background class takes what no job class takes, and has no cgroup");
			return -EINVAL;
		}
		err = ddl_cgroup_check(q, idx,
				       nla_get_u64(tb[TCA_DDL_CLASS_CGROUP]),
				       extack);
		if (err)
			return err;
	}
	if (tb[TCA_DDL_CLASS_ADDRS]) {
		if (idx == DDL_BG(&q->s)) {
			NL_SET_ERR_MSG_ATTR(extack, tb[TCA_DDL_CLASS_ADDRS],
					    "The background class takes what no job class takes, and has no address");
			return -EINVAL;
		}
		err = ddl_addr_prepare(q, idx, tb[TCA_DDL_CLASS_ADDRS], &set,
				       extack);
		if (err)
			return err;
	}
	sch_tree_lock(sch);
	if (tb[TCA_DDL_CLASS_WEIGHT])
		ddl_set_weight(&q->s, &q->params, idx,
			       nla_get_u32(tb[TCA_DDL_CLASS_WEIGHT]));
	if (tb[TCA_DDL_CLASS_SIZE])
		ddl_cluster_size(&q->s.cls[idx].cl,
				 nla_get_u64(tb[TCA_DDL_CLASS_SIZE]));
	if (tb[TCA_DDL_CLASS_CGROUP]) {
		u64 id = nla_get_u64(tb[TCA_DDL_CLASS_CGROUP]);

		ddl_cgroup_bind(q, idx, id);
		/* The key never takes a class a launcher bound. */
		if (id)
			ddl_claim(&q->s.keymap, idx);
	}
	if (tb[TCA_DDL_CLASS_ADDRS]) {
		if (set)
			ddl_claim(&q->s.keymap, idx);
		ddl_addr_bind(q, idx, &set);
	}
	sch_tree_unlock(sch);
	ddl_addr_free(set);	/* the class's old set */
	return 0;
}

/* Without this the tc core refuses a class delete with no message. */
static int ddl_delete_class(struct Qdisc *sch, unsigned long arg,
			    struct netlink_ext_ack *extack)
{
	NL_SET_ERR_MSG_MOD(extack, DDL_FIXED_CLASSES);
	return -EOPNOTSUPP;
}

static struct tcf_block *ddl_tcf_block(struct Qdisc *sch, unsigned long arg,
				       struct netlink_ext_ack *extack)
{
	struct ddl_sched_data *q = qdisc_priv(sch);

	if (arg) {
		NL_SET_ERR_MSG_MOD(extack,
				   "Attach filters to the ddl qdisc, not to its classes");
		return NULL;
	}
	return q->block;
}

static unsigned long ddl_bind_tcf(struct Qdisc *sch, unsigned long parent,
				  u32 classid)
{
	struct ddl_sched_data *q = qdisc_priv(sch);
	unsigned long arg = ddl_find(sch, classid);

	/* Called with and without the tree lock: ddl_bind() copes. */
	if (arg)
		ddl_bind(&q->s.keymap, arg - 1);
	return arg;
}

static void ddl_unbind_tcf(struct Qdisc *sch, unsigned long arg)
{
	struct ddl_sched_data *q = qdisc_priv(sch);

	ddl_unbind(&q->s.keymap, arg - 1);
}

static int ddl_dump_class(struct Qdisc *sch, unsigned long arg,
			  struct sk_buff *skb, struct tcmsg *tcm)
{
	struct ddl_sched_data *q = qdisc_priv(sch);
	u32 idx = arg - 1;
	struct nlattr *opts;

	tcm->tcm_parent = TC_H_ROOT;
	tcm->tcm_handle = TC_H_MAKE(sch->handle, ddl_idx_to_minor(q, idx));
	tcm->tcm_info = 0;

	opts = nla_nest_start_noflag(skb, TCA_OPTIONS);
	if (!opts)
		return -EMSGSIZE;
	if (idx != DDL_BG(&q->s) &&
	    (nla_put_u32(skb, TCA_DDL_CLASS_WEIGHT,
			 READ_ONCE(q->s.cls[idx].weight)) ||
	     nla_put_u64_64bit(skb, TCA_DDL_CLASS_SIZE,
			       READ_ONCE(q->s.cls[idx].cl.size),
			       TCA_DDL_CLASS_PAD) ||
	     nla_put_u64_64bit(skb, TCA_DDL_CLASS_CGROUP,
			       READ_ONCE(q->binds[idx].id),
			       TCA_DDL_CLASS_PAD) ||
	     ddl_addr_dump(q, idx, skb))) {
		nla_nest_cancel(skb, opts);
		return -EMSGSIZE;
	}
	return nla_nest_end(skb, opts);
}

static int ddl_dump_class_stats(struct Qdisc *sch, unsigned long arg,
				struct gnet_dump *d)
{
	struct ddl_sched_data *q = qdisc_priv(sch);
	struct tc_ddl_xstats st = { .type = TCA_DDL_XSTATS_CLASS };
	struct tc_ddl_cl_stats *cs = &st.class;
	const struct ddl_job_log *l;
	struct ddl_class *cl;
	struct ddl_cls *c;
	u32 idx = arg - 1;
	u64 now, done;
	u32 qlen;

	cl = &q->classes[idx];
	c = &q->s.cls[idx];

	sch_tree_lock(sch);
	now = ktime_get_ns();
	qlen = cl->q.qlen;
	cs->green_ns = ddl_green_ns(&q->s, idx, now);
	cs->bytes_green = c->bytes_green;
	cs->bytes_yellow = c->bytes_yellow;
	cs->greens = c->greens;
	cs->yields = c->yields;
	cs->guard_runs = c->guard_runs;
	cs->ack_runs = c->ack_runs;
	cs->keyed = c->keymap.keyed;
	cs->key = c->keymap.keyed ? c->keymap.key : 0;
	cs->bursts = c->burst.count;
	cs->period_ns = ddl_pred_period(&c->pred);
	cs->burst_bytes = c->pred.burst_size;
	cs->pred_hits = c->pred.hits;
	cs->pred_misses = c->pred.misses;
	cs->burst_backlog = cl->burst_backlog;
	cs->burst_backlog_max = cl->burst_backlog_max;
	cs->burst_backlog_sum = cl->burst_backlog_sum;
	cs->ce_marks = cl->ce_marks;
	cs->drop_overmemory = cl->drop_overmemory;
	cs->memory_used = cl->mem;
	cs->predicted = c->pred.predicted;
	if (idx != DDL_BG(&q->s)) {
		done = q->s.log.bursts_done;
		ddl_settle_burst(&q->s, &q->params, idx, now);
		ddl_trace_burst_end(sch, idx, done);
		l = &q->s.log.jlog[idx];
		cs->bursts_done = l->done;
		cs->burst_max_us = l->max_us;
		cs->burst_sum_us = l->sum_us;
		cs->burst_p50_us = ddl_hist_quantile(l->hist, l->max_us, 500);
		cs->burst_p99_us = ddl_hist_quantile(l->hist, l->max_us, 990);
		memcpy(cs->burst_hist, l->hist, sizeof(cs->burst_hist));
		cs->vstart = c->fair.vstart;
		cs->vfinish = c->fair.vfinish;
		cs->seg_bytes = c->fair.seg_bytes;
		cs->tag_exts = c->fair.tag_exts;
		cs->size = c->cl.size;
		cs->cl_key = c->cl.key;
		cs->cl_allow = c->cl.allow;
		cs->cl_rot = c->cl.rot;
		if (c->backlogged)
			cs->rank = ddl_cluster_rank(&q->s.cl, &c->cl,
						    TC_DDL_DSCP_MAX, now);
	}
	cs->dscp_marks = cl->dscp_marks;
	if (idx != DDL_BG(&q->s) && q->params.ndscp)
		cs->place = min(q->s.cls[idx].cl.mark, q->params.ndscp - 1);
	if (idx != DDL_BG(&q->s) && q->params.ntiers)
		cs->tier = min(q->s.cls[idx].cl.tier, q->params.ntiers) + 1;
	sch_tree_unlock(sch);

	if (gnet_stats_copy_basic(d, NULL, &cl->bstats, true) < 0 ||
	    gnet_stats_copy_queue(d, NULL, &cl->qstats, qlen) < 0)
		return -1;
	return gnet_stats_copy_app(d, &st, sizeof(st));
}

static void ddl_walk(struct Qdisc *sch, struct qdisc_walker *arg)
{
	struct ddl_sched_data *q = qdisc_priv(sch);
	u32 i;

	if (arg->stop)
		return;
	for (i = 0; i <= q->s.jobs; i++)
		if (!tc_qdisc_stats_dump(sch, i + 1, arg))
			break;
}

static const struct Qdisc_class_ops ddl_class_ops = {
	.leaf		= ddl_leaf,
	.find		= ddl_find,
	.change		= ddl_change_class,
	.delete		= ddl_delete_class,
	.walk		= ddl_walk,
	.tcf_block	= ddl_tcf_block,
	.bind_tcf	= ddl_bind_tcf,
	.unbind_tcf	= ddl_unbind_tcf,
	.dump		= ddl_dump_class,
	.dump_stats	= ddl_dump_class_stats,
};

static struct Qdisc_ops ddl_qdisc_ops __read_mostly = {
	.cl_ops		= &ddl_class_ops,
	.id		= "ddl",
	.priv_size	= sizeof(struct ddl_sched_data),
	.enqueue	= ddl_enqueue,
	.dequeue	= ddl_dequeue,
	.peek		= qdisc_peek_dequeued,
	.init		= ddl_init,
	.reset		= ddl_reset,
	.destroy	= ddl_destroy,
	.change		= ddl_change,
	.dump		= ddl_dump,
	.dump_stats	= ddl_dump_stats,
	.owner		= THIS_MODULE,
};
MODULE_ALIAS_NET_SCH("ddl");

static int __init ddl_module_init(void)
{
	int err;

	ddl_opts_init();
	err = ddl_debugfs_init();
	if (err)
		return err;
	err = register_qdisc(&ddl_qdisc_ops);
	if (err)
		ddl_debugfs_exit();
	return err;
}

static void __exit ddl_module_exit(void)
{
	unregister_qdisc(&ddl_qdisc_ops);
	ddl_debugfs_exit();
}

module_init(ddl_module_init);
module_exit(ddl_module_exit);
MODULE_AUTHOR("The sch_ddl developers");
MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("Time-slice scheduler for deep-learning clusters");
