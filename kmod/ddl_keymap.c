// SPDX-License-Identifier: GPL-2.0
/*
 * ddl_keymap.c - the sch_ddl key map: the built-in classification key
 * (port, mark or DSCP) to job class, and the classes tc filters are bound
 * to or that a filter or skb->priority chose for a packet, which the key
 * never takes.
 *
 * A known key is an expected O(1) hash lookup; a new key scans the free-
 * class bitmap (at most DDL_JOBS_MAX / BITS_PER_LONG words) or takes the
 * class idle longest.  No clock is read: @now comes from the caller.
 */

#include <linux/bitops.h>
#include <linux/bug.h>
#include <linux/hash.h>
#include <linux/log2.h>
#include <linux/minmax.h>
#include <linux/slab.h>

#include "ddl_core.h"

/**
 * ddl_keymap_init() - allocate the key hash
 * @s: scheduler, with its jobs set
 *
 * Context: process context; allocates with GFP_KERNEL.
 * Return: 0 or -ENOMEM.
 */
int ddl_keymap_init(struct ddl_sched *s)
{
	struct ddl_keymap *km = &s->keymap;
	u32 i, buckets;

	INIT_LIST_HEAD(&km->idle);
	/* hash_32() needs at least one bit. */
	buckets = max_t(u32, roundup_pow_of_two(s->jobs), 2);
	km->hash_bits = ilog2(buckets);
	km->hash = kvcalloc(buckets, sizeof(*km->hash), GFP_KERNEL);
	if (!km->hash)
		return -ENOMEM;
	for (i = 0; i <= s->jobs; i++) {
		INIT_HLIST_NODE(&s->cls[i].keymap.node);
		INIT_LIST_HEAD(&s->cls[i].keymap.idle_node);
	}
	return 0;
}

/**
 * ddl_keymap_destroy() - free what ddl_keymap_init() allocated
 * @s: scheduler
 *
 * Context: process context.
 */
void ddl_keymap_destroy(struct ddl_sched *s)
{
	kvfree(s->keymap.hash);
	s->keymap.hash = NULL;
}

static u32 ddl_key_bucket(const struct ddl_sched *s, u32 key)
{
	return hash_32(key, s->keymap.hash_bits);
}

/* A filter is bound to the class, or chose it for a packet. */
static bool ddl_is_bound(const struct ddl_sched *s, u32 idx)
{
	return test_bit(idx, s->keymap.bound_bm) ||
	       test_bit(idx, s->keymap.claimed_bm);
}

static void ddl_key_map(struct ddl_sched *s, struct ddl_cls *c, u32 key,
			u64 now)
{
	ddl_burst_reset(s, c, now);
	c->keymap.key = key;
	c->keymap.keyed = true;
	__set_bit(c - s->cls, s->keymap.keyed_bm);
	hlist_add_head(&c->keymap.node,
		       &s->keymap.hash[ddl_key_bucket(s, key)]);
	s->keymap.mapped++;
}

/* The key lets go of class @c; it keeps its packets. */
static void ddl_key_release(struct ddl_sched *s, struct ddl_cls *c)
{
	hlist_del_init(&c->keymap.node);
	list_del_init(&c->keymap.idle_node);
	c->keymap.keyed = false;
	__clear_bit(c - s->cls, s->keymap.keyed_bm);
	s->keymap.mapped--;
}

/*
 * Lowest job class that is neither keyed nor bound to a filter nor claimed,
 * or DDL_NONE.  At most DDL_JOBS_MAX / BITS_PER_LONG words, and only for a key
 * not seen before.
 */
static u32 ddl_free_find(const struct ddl_sched *s)
{
	const struct ddl_keymap *km = &s->keymap;
	u32 w, words = BITS_TO_LONGS(s->jobs);
	unsigned long word;

	for (w = 0; w < words; w++) {
		word = ~(km->keyed_bm[w] | READ_ONCE(km->bound_bm[w]) |
			 km->claimed_bm[w]);
		if (w == words - 1 && s->jobs % BITS_PER_LONG)
			word &= BIT(s->jobs % BITS_PER_LONG) - 1;
		if (word)
			return w * BITS_PER_LONG + __ffs(word);
	}
	return DDL_NONE;
}

/**
 * ddl_key_class() - the job class of a built-in key value
 * @s: scheduler
 * @p: configuration (for keyttl)
 * @key: key value, non-zero
 * @now: current time, ns
 *
 * A known key keeps its class.  A new key takes the lowest free class (not
 * keyed, no filter bound, not claimed); if none is free, the keyed class
 * that has been empty longest, if that is at least keyttl; otherwise none.
 *
 * Context: under the qdisc lock.  Expected constant time: the hash has at
 * least as many buckets as there are job classes.
 * Return: class index, or DDL_NONE (the caller uses the background class).
 */
u32 ddl_key_class(struct ddl_sched *s, const struct ddl_params *p, u32 key,
		  u64 now)
{
	struct hlist_head *head = &s->keymap.hash[ddl_key_bucket(s, key)];
	struct ddl_cls *c;
	u32 idx;

	hlist_for_each_entry(c, head, keymap.node) {
		if (c->keymap.key != key)
			continue;
		if (!ddl_is_bound(s, c - s->cls))
			return c - s->cls;
		/* A filter took the class since: the key moves. */
		ddl_key_release(s, c);
		break;
	}

	idx = ddl_free_find(s);
	if (idx != DDL_NONE) {
		c = &s->cls[idx];
		ddl_key_map(s, c, key, now);
		if (!c->backlogged) {
			c->keymap.idle_since = now;
			list_add_tail(&c->keymap.idle_node, &s->keymap.idle);
		}
		return idx;
	}

	/* Bounded: every turn but the last releases a class. */
	while (!list_empty(&s->keymap.idle)) {
		c = list_first_entry(&s->keymap.idle, struct ddl_cls,
				     keymap.idle_node);
		if (ddl_is_bound(s, c - s->cls)) {
			ddl_key_release(s, c);
			continue;
		}
		if (now - c->keymap.idle_since <
		    (u64)p->keyttl_ms * NSEC_PER_MSEC_U64)
			break;
		ddl_key_release(s, c);
		ddl_key_map(s, c, key, now);
		c->keymap.idle_since = now;
		list_add_tail(&c->keymap.idle_node, &s->keymap.idle);
		s->keymap.recycled++;
		return c - s->cls;
	}

	s->keymap.overflow++;
	return DDL_NONE;
}

/**
 * ddl_bind() - a tc filter now points at a class
 * @s: scheduler
 * @idx: class index
 *
 * A job class with filters is never handed to a new key; a key that owns it
 * lets go at its next packet (ddl_key_class()) and takes another class.
 *
 * Context: under RTNL, with or without the qdisc lock (tcf_bind_filter()
 * holds it, tcf_unbind_filter() does not): only an atomic bit is shared
 * with the datapath.
 */
void ddl_bind(struct ddl_sched *s, u32 idx)
{
	if (idx != DDL_BG(s) && s->cls[idx].keymap.bound++ == 0)
		set_bit(idx, s->keymap.bound_bm);
}

/**
 * ddl_unbind() - a tc filter no longer points at a class
 * @s: scheduler
 * @idx: class index
 *
 * Context: as ddl_bind().
 */
void ddl_unbind(struct ddl_sched *s, u32 idx)
{
	struct ddl_cls *c = &s->cls[idx];

	if (idx == DDL_BG(s) || WARN_ON_ONCE(!c->keymap.bound))
		return;
	if (--c->keymap.bound == 0)
		clear_bit(idx, s->keymap.bound_bm);
}

/**
 * ddl_claim() - a tc filter or skb->priority chose a job class for a packet
 * @s: scheduler
 * @idx: class index
 *
 * Classifiers that compute the class (flow map, skb->priority) bind to no
 * class, so the key map learns of them here: from the first packet on, the
 * class is never handed to a key, and a key that owns it lets go at once.
 * One job's packets then never share a class with another's keyed
 * traffic.  A claim lasts for the life of the instance.
 *
 * Context: under the qdisc lock.  Constant time.
 */
void ddl_claim(struct ddl_sched *s, u32 idx)
{
	struct ddl_cls *c = &s->cls[idx];

	if (idx == DDL_BG(s) || test_bit(idx, s->keymap.claimed_bm))
		return;
	__set_bit(idx, s->keymap.claimed_bm);
	if (c->keymap.keyed)
		ddl_key_release(s, c);
}

/**
 * ddl_keymap_release_all() - the key changed: every key lets go
 * @s: scheduler
 *
 * The classes keep their packets and serve them in order.
 *
 * Context: under the qdisc lock.  O(jobs).
 */
void ddl_keymap_release_all(struct ddl_sched *s)
{
	u32 i;

	for (i = 0; i < s->jobs; i++)
		if (s->cls[i].keymap.keyed)
			ddl_key_release(s, &s->cls[i]);
}
