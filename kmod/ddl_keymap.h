/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ddl_keymap.h - the key map (ddl_keymap.c): the built-in classification
 * key to job class, and the classes tc filters are bound to.
 */
#ifndef _DDL_KEYMAP_H
#define _DDL_KEYMAP_H

#include <linux/bitops.h>
#include <linux/hash.h>
#include <linux/list.h>
#include <linux/types.h>

#include "ddl_params.h"

/**
 * struct ddl_keymap_cls - the key map's state of one job class
 * @node: in &ddl_keymap.hash while @keyed
 * @idle_node: on &ddl_keymap.idle while keyed with an empty queue
 * @idle_since: when a keyed class last became empty
 * @bound: number of tc filters bound to the class (changed under RTNL)
 * @key: key value, valid if @keyed
 * @idx: the class's index
 * @keyed: the built-in key owns this class
 */
struct ddl_keymap_cls {
	struct hlist_node	node;
	struct list_head	idle_node;
	u64			idle_since;
	u32			bound;
	u32			key;
	u32			idx;
	bool			keyed;
};

/**
 * struct ddl_keymap - the key map of one sch_ddl instance
 * @cls: each class's key map state, by index (ddl_keymap_cls_init())
 * @jobs: number of job classes; the background class is @jobs
 * @idle: keyed job classes with empty queues, longest idle first
 * @keyed_bm: job classes the key owns
 * @bound_bm: job classes tc filters point at (atomic bit operations)
 * @claimed_bm: job classes a filter or skb->priority chose for a packet
 * @hash: key value to class, 2^@hash_bits buckets (jobs rounded up to a
 *	power of two, at least 2)
 * @hash_bits: log2 of the number of buckets
 * @overflow: keys that found no free class
 * @recycled: idle key classes given a new key
 * @mapped: job classes holding a key
 */
struct ddl_keymap {
	struct ddl_keymap_cls	**cls;
	u32			jobs;
	struct list_head	idle;
	unsigned long		keyed_bm[BITS_TO_LONGS(DDL_JOBS_MAX)];
	unsigned long		bound_bm[BITS_TO_LONGS(DDL_JOBS_MAX)];
	unsigned long		claimed_bm[BITS_TO_LONGS(DDL_JOBS_MAX)];
	struct hlist_head	*hash;
	u32			hash_bits;
	u64			overflow;
	u64			recycled;
	u32			mapped;
};

int ddl_keymap_init(struct ddl_keymap *km, u32 jobs);
void ddl_keymap_destroy(struct ddl_keymap *km);
u32 ddl_keymap_class(struct ddl_keymap *km, const struct ddl_params *p,
		     u32 key, u64 now, bool *taken);
void ddl_bind(struct ddl_keymap *km, u32 idx);
void ddl_unbind(struct ddl_keymap *km, u32 idx);
void ddl_keymap_claim(struct ddl_keymap *km, u32 idx);
void ddl_keymap_release_all(struct ddl_keymap *km);

/**
 * ddl_keymap_cls_init() - a class the key does not own
 * @km: the key map, from ddl_keymap_init()
 * @kc: the class's key map state, zeroed
 * @idx: the class's index, 0 .. jobs
 *
 * Context: process context.
 */
static inline void ddl_keymap_cls_init(struct ddl_keymap *km,
				       struct ddl_keymap_cls *kc, u32 idx)
{
	INIT_HLIST_NODE(&kc->node);
	INIT_LIST_HEAD(&kc->idle_node);
	kc->idx = idx;
	km->cls[idx] = kc;
}

/**
 * ddl_key_busy() - a job class became backlogged
 * @kc: its key map state
 *
 * A keyed class that holds packets is not idle: its key stays.
 *
 * Context: under the qdisc lock.
 */
static inline void ddl_key_busy(struct ddl_keymap_cls *kc)
{
	if (kc->keyed)
		list_del_init(&kc->idle_node);
}

/**
 * ddl_key_idle() - a job class became empty
 * @km: the key map
 * @kc: the class's key map state
 * @now: current time, ns
 *
 * A keyed class joins the idle ones, which a new key may take after
 * keyttl.
 *
 * Context: under the qdisc lock.
 */
static inline void ddl_key_idle(struct ddl_keymap *km,
				struct ddl_keymap_cls *kc, u64 now)
{
	if (kc->keyed) {
		kc->idle_since = now;
		list_add_tail(&kc->idle_node, &km->idle);
	}
}

/**
 * ddl_claim() - a tc filter or skb->priority chose a job class for a packet
 * @km: the key map
 * @idx: class index
 *
 * Classifiers that compute the class (flow map, skb->priority) bind to no
 * class, so the key map learns of them here: from the first packet on, the
 * class is never handed to a key, and a key that owns it lets go at once
 * (ddl_keymap_claim()).  One job's packets then never share a class with
 * another's keyed traffic.  A claim lasts for the life of the instance.
 *
 * Context: under the qdisc lock.  Constant time.
 */
static inline void ddl_claim(struct ddl_keymap *km, u32 idx)
{
	if (idx != km->jobs && !test_bit(idx, km->claimed_bm))
		ddl_keymap_claim(km, idx);
}

/* The hash bucket of key value @key. */
static inline u32 ddl_key_bucket(const struct ddl_keymap *km, u32 key)
{
	return hash_32(key, km->hash_bits);
}

/* A filter is bound to job class @idx, or chose it for a packet. */
static inline bool ddl_is_bound(const struct ddl_keymap *km, u32 idx)
{
	return test_bit(idx, km->bound_bm) || test_bit(idx, km->claimed_bm);
}

/**
 * ddl_keymap_known() - the job class a known key value holds
 * @km: the key map
 * @key: key value, non-zero
 *
 * The hit of ddl_keymap_class(), which most packets are, without its call:
 * a key that holds a class no filter has taken since.
 *
 * Context: under the qdisc lock; pure.  Expected constant time.
 * Return: class index, or DDL_NONE: then ddl_keymap_class() decides.
 */
static inline u32 ddl_keymap_known(const struct ddl_keymap *km, u32 key)
{
	const struct ddl_keymap_cls *kc;

	hlist_for_each_entry(kc, &km->hash[ddl_key_bucket(km, key)], node)
		if (kc->key == key)
			return ddl_is_bound(km, kc->idx) ? DDL_NONE : kc->idx;
	return DDL_NONE;
}

#endif /* _DDL_KEYMAP_H */
