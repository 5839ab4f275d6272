// SPDX-License-Identifier: GPL-2.0
/*
 * ddl_addr.c - job classes bound to addresses (class parameter addr)
 *
 * A job in a pod or a container sends from a network namespace of its own,
 * through a veth into the host, and the host forwards its packets to the
 * NIC.  On that way the kernel drops what would tell the job apart at the
 * NIC's qdisc:
 *   - the socket: IP receive in the host orphans the packet, so the
 *     cgroup binding (ddl_cgroup.c) never sees it;
 *   - skb->priority: the veth zeroes it, and IPv4 forwarding sets it from
 *     the TOS byte (net.ipv4.ip_forward_update_priority);
 *   - skb->mark, its timestamp and its conntrack entry: the veth scrubs
 *     them when the packet changes network namespace.
 * What the way keeps is the pod's source address, and where the host masks
 * the pod behind its own address (a bridge with source NAT), the conntrack
 * entry the host made for the flow, whose tuple in the packet's direction
 * still holds the address before NAT.  So a job class is bound to the
 * addresses of the job's pods on this host: a packet goes to the class
 * whose address is its source as conntrack first saw it (or as the header
 * has it, when the host tracks no connection).
 *
 * Addresses are kept as IPv6, IPv4 ones mapped (::ffff:a.b.c.d).  Each job
 * class has a set of at most TC_DDL_ADDRS_MAX, replaced whole by a change;
 * each address is bound to one class at most, and looked up in a hash at
 * enqueue, only while some address is bound.
 *
 * The sets change under RTNL and the qdisc tree lock, and are read under
 * RTNL (change, dump) or the qdisc lock (enqueue).
 */

#include <linux/hash.h>
#include <linux/ip.h>
#include <linux/ipv6.h>
#include <linux/slab.h>
#include <net/ipv6.h>
#if IS_ENABLED(CONFIG_NF_CONNTRACK)
#include <net/netfilter/nf_conntrack.h>
#endif

#include "ddl_glue.h"

/* An address of a job class: in the qdisc's hash while its set is bound. */
struct ddl_addrbind {
	struct hlist_node	node;
	struct in6_addr		addr;
	u32			idx;
};

/* The addresses bound to one job class, as its last change gave them. */
struct ddl_addrset {
	u32			n;
	struct ddl_addrbind	a[];
};

static struct hlist_head *ddl_addr_bucket(struct ddl_sched_data *q,
					  const struct in6_addr *a)
{
	return &q->addr_hash[hash_32(ipv6_addr_hash(a), DDL_ADDR_HASH_BITS)];
}

static const struct ddl_addrbind *ddl_addr_find(struct ddl_sched_data *q,
						const struct in6_addr *a)
{
	const struct ddl_addrbind *b;

	hlist_for_each_entry(b, ddl_addr_bucket(q, a), node)
		if (ipv6_addr_equal(&b->addr, a))
			return b;
	return NULL;
}

/**
 * ddl_addr_prepare() - check the addresses for job class @idx, and make
 *	their set
 * @q: the qdisc
 * @idx: job class index
 * @attr: TCA_DDL_CLASS_ADDRS: struct in6_addr each, none to unbind
 * @set: the new set, or NULL when @attr holds none
 * @extack: where a refusal is told
 *
 * Nothing changes here: the caller binds the set with ddl_addr_bind() once
 * every attribute has been checked, or frees it with ddl_addr_free().
 *
 * Context: process, under RTNL; may sleep.
 * Return: 0, -EINVAL (not a list of addresses, too many, one twice, one
 * unspecified or multicast), -EBUSY (one bound to another class) or
 * -ENOMEM.
 */
int ddl_addr_prepare(struct ddl_sched_data *q, u32 idx,
		     const struct nlattr *attr, struct ddl_addrset **set,
		     struct netlink_ext_ack *extack)
{
	const struct in6_addr *in = nla_data(attr);
	u32 n = nla_len(attr) / sizeof(*in);
	const struct ddl_addrbind *b;
	struct ddl_addrset *s;
	u32 i, j;

	*set = NULL;
	if (nla_len(attr) % sizeof(*in) || n > TC_DDL_ADDRS_MAX) {
		NL_SET_ERR_MSG_ATTR(extack, attr,
				    "addr takes at most 64 IPv4 or IPv6 addresses");
		return -EINVAL;
	}
	for (i = 0; i < n; i++) {
		if (ipv6_addr_any(&in[i]) || ipv6_addr_is_multicast(&in[i]) ||
		    (ipv6_addr_v4mapped(&in[i]) &&
		     (!in[i].s6_addr32[3] ||
		      ipv4_is_multicast(in[i].s6_addr32[3])))) {
			NL_SET_ERR_MSG_ATTR(extack, attr,
					    "An address of a job is a host's: not unspecified nor multicast");
			return -EINVAL;
		}
		for (j = 0; j < i; j++)
			if (ipv6_addr_equal(&in[i], &in[j])) {
				NL_SET_ERR_MSG_ATTR(extack, attr,
						    "An address is given twice");
				return -EINVAL;
			}
		b = ddl_addr_find(q, &in[i]);
		if (b && b->idx != idx) {
			NL_SET_ERR_MSG_ATTR(extack, attr,
					    "An address is bound to another class");
			return -EBUSY;
		}
	}
	if (!n)
		return 0;
	s = kzalloc(struct_size(s, a, n), GFP_KERNEL);
	if (!s)
		return -ENOMEM;
	s->n = n;
	for (i = 0; i < n; i++) {
		s->a[i].addr = in[i];
		s->a[i].idx = idx;
	}
	*set = s;
	return 0;
}

/**
 * ddl_addr_bind() - bind job class @idx to the addresses of @set
 * @q: the qdisc
 * @idx: job class index
 * @set: the set ddl_addr_prepare() made, NULL to unbind; on return, the
 *	set the class had, for the caller to free once the lock is dropped
 *
 * Packets already queued stay where they are.
 *
 * Context: under the qdisc tree lock.
 */
void ddl_addr_bind(struct ddl_sched_data *q, u32 idx, struct ddl_addrset **set)
{
	struct ddl_addrset *old = q->binds[idx].addrs;
	struct ddl_addrset *s = *set;
	u32 i;

	for (i = 0; old && i < old->n; i++)
		hlist_del(&old->a[i].node);
	q->addr_bound -= old ? old->n : 0;
	for (i = 0; s && i < s->n; i++)
		hlist_add_head(&s->a[i].node, ddl_addr_bucket(q, &s->a[i].addr));
	q->addr_bound += s ? s->n : 0;
	q->binds[idx].addrs = s;
	*set = old;
}

/**
 * ddl_addr_free() - free a set that is not bound
 * @set: the set, or NULL
 */
void ddl_addr_free(struct ddl_addrset *set)
{
	kfree(set);
}

/**
 * ddl_addr_destroy() - free every set of the qdisc
 * @q: the qdisc, going away: nothing reads its hash any more
 */
void ddl_addr_destroy(struct ddl_sched_data *q)
{
	u32 i;

	for (i = 0; q->binds && i < q->s.jobs; i++) {
		kfree(q->binds[i].addrs);
		q->binds[i].addrs = NULL;
	}
	q->addr_bound = 0;
}

/**
 * ddl_addr_count() - how many addresses job class @idx is bound to
 * @q: the qdisc
 * @idx: job class index
 */
u32 ddl_addr_count(const struct ddl_sched_data *q, u32 idx)
{
	const struct ddl_addrset *s = q->binds[idx].addrs;

	return s ? s->n : 0;
}

/**
 * ddl_addr_dump() - put the addresses of job class @idx, if it has any
 * @q: the qdisc
 * @idx: job class index
 * @skb: the dump
 *
 * Context: under RTNL.
 * Return: 0, or -EMSGSIZE.
 */
int ddl_addr_dump(const struct ddl_sched_data *q, u32 idx,
		  struct sk_buff *skb)
{
	const struct ddl_addrset *s = q->binds[idx].addrs;
	struct nlattr *attr;
	u32 i;

	if (!s)
		return 0;
	attr = nla_reserve(skb, TCA_DDL_CLASS_ADDRS,
			   s->n * sizeof(struct in6_addr));
	if (!attr)
		return -EMSGSIZE;
	for (i = 0; i < s->n; i++)
		memcpy((struct in6_addr *)nla_data(attr) + i, &s->a[i].addr,
		       sizeof(struct in6_addr));
	return 0;
}

/*
 * The source address of @skb as conntrack first saw it, in the packet's
 * direction: before source NAT for a packet of the original direction,
 * before the reverse of destination NAT for a reply.  False for a packet
 * the host does not track.
 */
static bool ddl_ct_saddr(const struct sk_buff *skb, struct in6_addr *a)
{
#if IS_ENABLED(CONFIG_NF_CONNTRACK)
	const struct nf_conntrack_tuple *t;
	enum ip_conntrack_info ctinfo;
	const struct nf_conn *ct;

	ct = nf_ct_get(skb, &ctinfo);
	if (!ct || nf_ct_is_template(ct))
		return false;
	t = &ct->tuplehash[CTINFO2DIR(ctinfo)].tuple;
	switch (t->src.l3num) {
	case NFPROTO_IPV4:
		ipv6_addr_set_v4mapped(t->src.u3.ip, a);
		return true;
	case NFPROTO_IPV6:
		*a = t->src.u3.in6;
		return true;
	}
#endif
	return false;
}

/*
 * The source address of @skb before any NAT: its conntrack entry's, or
 * else its header's.  False for a packet that is neither IPv4 nor IPv6.
 */
static bool ddl_skb_saddr(const struct sk_buff *skb, struct in6_addr *a)
{
	int off = skb_network_offset(skb);

	if (ddl_ct_saddr(skb, a))
		return true;
	switch (skb_protocol(skb, true)) {
	case htons(ETH_P_IP): {
		const __be32 *saddr;
		__be32 _saddr;

		saddr = skb_header_pointer(skb,
					   off + offsetof(struct iphdr, saddr),
					   sizeof(_saddr), &_saddr);
		if (!saddr)
			return false;
		ipv6_addr_set_v4mapped(*saddr, a);
		return true;
	}
	case htons(ETH_P_IPV6): {
		const struct in6_addr *saddr;

		saddr = skb_header_pointer(skb,
					   off + offsetof(struct ipv6hdr, saddr),
					   sizeof(*a), a);
		if (!saddr)
			return false;
		*a = *saddr;
		return true;
	}
	}
	return false;
}

/**
 * ddl_addr_class() - the job class bound to the source address of @skb
 * @q: the qdisc
 * @skb: packet
 *
 * Context: enqueue, under the qdisc lock, with an address bound
 * (@q->addr_bound: the caller tests it, as for ddl_cgroup_class()).  One
 * hash lookup.
 * Return: the class index, or DDL_NONE.
 */
u32 ddl_addr_class(struct ddl_sched_data *q, const struct sk_buff *skb)
{
	const struct ddl_addrbind *b;
	struct in6_addr a;

	if (!ddl_skb_saddr(skb, &a))
		return DDL_NONE;
	b = ddl_addr_find(q, &a);
	return b ? b->idx : DDL_NONE;
}
