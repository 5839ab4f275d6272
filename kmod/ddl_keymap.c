// SPDX-License-Identifier: GPL-2.0
/*
 * ddl_keymap.c - the sch_ddl key map: the built-in classification key
 * (port, mark or DSCP) to job class, and the classes tc filters are bound
 * to or that a filter or skb->priority chose for a packet, which the key
 * never takes.
 *
 * A known key is an expected O(1) hash lookup; a new key scans the free-
 * class bitmap (at most DDL_JOBS_MAX / BITS_PER_LONG words) or takes the
 * class idle longest.  A class that a new key takes changes owner: the
 * caller forgets the old owner's bursts (ddl_owner_changed()).  No clock
 * is read: @now comes from the caller.
 */

#include <linux/bitops.h>
#include <linux/bug.h>
#include <linux/log2.h>
#include <linux/minmax.h>
#include <linux/slab.h>

#include "ddl_keymap.h"

/**
 * ddl_keymap_init() - allocate the key hash
 * @km: the key map, zeroed
 * @jobs: number of job classes
 *
 * Each class is then given its state, ddl_keymap_cls_init().
 *
 * Context: process context; allocates with GFP_KERNEL.
 * Return: 0 or -ENOMEM.
 */
int ddl_keymap_init(struct ddl_keymap *km, u32 jobs)
{
	u32 buckets;

	INIT_LIST_HEAD(&km->idle);
	km->jobs = jobs;
	/* hash_32() needs at least one bit. */
	buckets = max_t(u32, roundup_pow_of_two(jobs), 2);
	km->hash_bits = ilog2(buckets);
	km->hash = kvcalloc(buckets, sizeof(*km->hash), GFP_KERNEL);
	km->cls = ddl_calloc(jobs + 1, sizeof(*km->cls));
	if (!km->hash || !km->cls)
		return -ENOMEM;
	return 0;
}

/**
 * ddl_keymap_destroy() - free what ddl_keymap_init() allocated
 * @km: the key map
 *
 * Context: process context.
 */
void ddl_keymap_destroy(struct ddl_keymap *km)
{
	kvfree(km->hash);
	km->hash = NULL;
	kvfree(km->cls);
	km->cls = NULL;
}

static void ddl_key_map(struct ddl_keymap *km, struct ddl_keymap_cls *kc,
			u32 key)
{
	kc->key = key;
	kc->keyed = true;
	__set_bit(kc->idx, km->keyed_bm);
	hlist_add_head(&kc->node, &km->hash[ddl_key_bucket(km, key)]);
	km->mapped++;
}

/* The key lets go of class @kc; it keeps its packets. */
static void ddl_key_release(struct ddl_keymap *km, struct ddl_keymap_cls *kc)
{
	hlist_del_init(&kc->node);
	list_del_init(&kc->idle_node);
	kc->keyed = false;
	__clear_bit(kc->idx, km->keyed_bm);
	km->mapped--;
}

/*
 * Lowest job class that is neither keyed nor bound to a filter nor claimed,
 * or DDL_NONE.  At most DDL_JOBS_MAX / BITS_PER_LONG words, and only for a key
 * not seen before.
 */
static u32 ddl_free_find(const struct ddl_keymap *km)
{
	u32 w, words = BITS_TO_LONGS(km->jobs);
	unsigned long word;

	for (w = 0; w < words; w++) {
		word = ~(km->keyed_bm[w] | READ_ONCE(km->bound_bm[w]) |
			 km->claimed_bm[w]);
		if (w == words - 1 && km->jobs % BITS_PER_LONG)
			word &= BIT(km->jobs % BITS_PER_LONG) - 1;
		if (word)
			return w * BITS_PER_LONG + __ffs(word);
	}
	return DDL_NONE;
}

/**
 * ddl_keymap_class() - the job class of a built-in key value
 * @km: the key map
 * @p: configuration (for keyttl)
 * @key: key value, non-zero
 * @now: current time, ns
 * @taken: set to whether a new key took the class: it changed owner, and
 *	the caller forgets the old owner's bursts and, if the class is
 *	empty, makes it idle (ddl_key_idle())
 *
 * A known key keeps its class (ddl_keymap_known(), which callers try
 * first).  A new key takes the lowest free class (not keyed, no filter
 * bound, not claimed); if none is free, the keyed class that has been empty
 * longest, if that is at least keyttl; otherwise none.
 *
 * Context: under the qdisc lock.  Expected constant time: the hash has at
 * least as many buckets as there are job classes.
 * Return: class index, or DDL_NONE (the caller uses the background class).
 */
u32 ddl_keymap_class(struct ddl_keymap *km, const struct ddl_params *p,
		     u32 key, u64 now, bool *taken)
{
	struct hlist_head *head = &km->hash[ddl_key_bucket(km, key)];
	struct ddl_keymap_cls *kc;
	u32 idx;

	*taken = false;
	hlist_for_each_entry(kc, head, node) {
		if (kc->key != key)
			continue;
		if (!ddl_is_bound(km, kc->idx))
			return kc->idx;
		/* A filter took the class since: the key moves. */
		ddl_key_release(km, kc);
		break;
	}

	idx = ddl_free_find(km);
	if (idx != DDL_NONE) {
		ddl_key_map(km, km->cls[idx], key);
		*taken = true;
		return idx;
	}

	/* Bounded: every turn but the last releases a class. */
	while (!list_empty(&km->idle)) {
		kc = list_first_entry(&km->idle, struct ddl_keymap_cls,
				      idle_node);
		if (ddl_is_bound(km, kc->idx)) {
			ddl_key_release(km, kc);
			continue;
		}
		if (now - kc->idle_since <
		    (u64)p->keyttl_ms * NSEC_PER_MSEC_U64)
			break;
		ddl_key_release(km, kc);
		ddl_key_map(km, kc, key);
		km->recycled++;
		*taken = true;
		return kc->idx;
	}

	km->overflow++;
	return DDL_NONE;
}

/**
 * ddl_bind() - a tc filter now points at a class
 * @km: the key map
 * @idx: class index
 *
 * A job class with filters is never handed to a new key; a key that owns it
 * lets go at its next packet (ddl_keymap_class()) and takes another class.
 *
 * Context: under RTNL, with or without the qdisc lock (tcf_bind_filter()
 * holds it, tcf_unbind_filter() does not): only an atomic bit is shared
 * with the datapath.
 */
void ddl_bind(struct ddl_keymap *km, u32 idx)
{
	if (idx != km->jobs && km->cls[idx]->bound++ == 0)
		set_bit(idx, km->bound_bm);
}

/**
 * ddl_unbind() - a tc filter no longer points at a class
 * @km: the key map
 * @idx: class index
 *
 * Context: as ddl_bind().
 */
void ddl_unbind(struct ddl_keymap *km, u32 idx)
{
	struct ddl_keymap_cls *kc = km->cls[idx];

	if (idx == km->jobs || WARN_ON_ONCE(!kc->bound))
		return;
	if (--kc->bound == 0)
		clear_bit(idx, km->bound_bm);
}

/**
 * ddl_keymap_claim() - a job class is claimed for the first time
 * @km: the key map
 * @idx: job class index, not claimed yet
 *
 * Called by ddl_claim(): the class is never handed to a key from now on,
 * and a key that owns it lets go at once.
 *
 * Context: under the qdisc lock.  Constant time.
 */
void ddl_keymap_claim(struct ddl_keymap *km, u32 idx)
{
	__set_bit(idx, km->claimed_bm);
	if (km->cls[idx]->keyed)
		ddl_key_release(km, km->cls[idx]);
}

/**
 * ddl_keymap_release_all() - the key changed: every key lets go
 * @km: the key map
 *
 * The classes keep their packets and serve them in order.
 *
 * Context: under the qdisc lock.  O(jobs).
 */
void ddl_keymap_release_all(struct ddl_keymap *km)
{
	u32 i;

	for (i = 0; i < km->jobs; i++)
		if (km->cls[i]->keyed)
			ddl_key_release(km, km->cls[i]);
}
