/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ddl_params.h - what every unit of the sch_ddl core shares: the
 * configuration of one instance (its options' ranges and defaults, and
 * struct ddl_params, which every unit reads and none writes; ddl_sched.c
 * fills it in, the glue parses it from netlink), the constants of a burst
 * that several units use, and the allocation of per-class arrays.  It
 * includes no unit's header.
 */
#ifndef _DDL_PARAMS_H
#define _DDL_PARAMS_H

#include <linux/bits.h>
#include <linux/overflow.h>
#include <linux/sizes.h>
#include <linux/slab.h>
#include <linux/types.h>
#include <linux/vmalloc.h>

#include <uapi/linux/sch_ddl.h>

#define DDL_LIMIT_DEFAULT	10000U
#define DDL_LIMIT_MIN		1U
#define DDL_LIMIT_MAX		1048576U

/* Bytes of skb truesize the queue may hold: one 64 KiB GSO packet at least. */
#define DDL_MEMLIMIT_DEFAULT	(32U << 20)
#define DDL_MEMLIMIT_MIN	(128U << 10)

#define DDL_JOBS_DEFAULT	16U
#define DDL_JOBS_MIN		1U
#define DDL_JOBS_MAX		4096U	/* two bitmap levels of 64 */

#define DDL_SLICE_DEFAULT	TC_DDL_AUTO
#define DDL_SLICE_MIN		100U	/* us */
#define DDL_SLICE_MAX		10000000U

#define DDL_YIELD_DEFAULT	TC_DDL_AUTO	/* us; 0 disables yielding */
#define DDL_YIELD_MAX		DDL_SLICE_MAX

/*
 * Automatic turns (slice auto): a green job keeps green for this many of
 * its learned burst periods, then hands on at its first pause between
 * bursts, and at the latest after twice that.  A job with no learned period
 * hands on at its first pause, and after DDL_AUTO_CAP_US if it never pauses.
 */
#define DDL_AUTO_TURN_PERIODS	4U
#define DDL_AUTO_CAP_US		200000U

#define DDL_MAXWAIT_DEFAULT	100000U	/* us: half TCP's minimum RTO */

/*
 * The guard looks at each backlogged class every maxwait / DDL_GUARD_SPLIT
 * (and one packet per class) and serves it if its head would otherwise
 * wait longer than maxwait: a waiting job's TCP flows, up to
 * DDL_GUARD_SPLIT in a class, each get a packet out before their minimum
 * RTO, and a flood that never backs off takes no more than a packet per
 * look.
 */
#define DDL_GUARD_SPLIT		8U
#define DDL_MAXWAIT_MIN		1000U
#define DDL_MAXWAIT_MAX		60000000U

#define DDL_BGSHARE_DEFAULT	3U	/* percent */
#define DDL_BGSHARE_MAX		50U

#define DDL_KEYTTL_DEFAULT	1000U	/* ms */
#define DDL_KEYTTL_MAX		3600000U

#define DDL_WEIGHT_DEFAULT	1U
#define DDL_WEIGHT_MIN		1U
#define DDL_WEIGHT_MAX		256U

#define DDL_RATE_MIN		125ULL		/* bytes/s: 1 kbit/s */
#define DDL_RATE_MAX		125000000000ULL	/* bytes/s: 1 Tbit/s */

#define DDL_BURST_MAX		SZ_64M		/* bytes */
#define DDL_BURST_MIN_AUTO	3028U		/* bytes: two full frames */
#define DDL_BURST_AUTO_US	4000U		/* auto burst: 4 ms at the rate */

#define DDL_TARGET_MAX		SZ_1G		/* bytes */
#define DDL_TARGET_TIME_MAX	10000000U	/* us */

#define DDL_INTERVAL_DEFAULT	10000U		/* us */
#define DDL_INTERVAL_MIN	100U
#define DDL_INTERVAL_MAX	10000000U

#define DDL_LEAD_MAX		10000000U	/* us; 0 disables prediction */
/*
 * The defaults of target and lead (TC_DDL_AUTO): with a rate, a target of
 * DDL_TARGET_AUTO_US at the rate, at least DDL_TARGET_AUTO_MIN bytes, and
 * lead windows of DDL_LEAD_AUTO_US (at most a quarter of maxperiod); no
 * rate, no target and no lead windows.
 */
#define DDL_TARGET_AUTO_US	2000U
#define DDL_TARGET_AUTO_MIN	DDL_BURST_MIN_AUTO	/* two full frames */
#define DDL_LEAD_AUTO_US	20000U

#define DDL_MAXPERIOD_DEFAULT	10000000U	/* us */
#define DDL_MAXPERIOD_MIN	1000U
#define DDL_MAXPERIOD_MAX	60000000U

/*
 * Mode cluster: epochs of the shared clock, us; a declared size of at most
 * DDL_SIZE_MAX bytes; a key moves at most DDL_CL_SPAN_MAX ns past its
 * epoch at a time, and a burst that outgrows it moves it on by at most
 * DDL_CL_MOVE_MAX ns (146 years: keys stay within 2^63 of each other,
 * as comparing them modulo 2^64 needs); a job with no declared size is
 * given DDL_CL_NOMINAL epochs of bytes at the rate (DDL_FAIR_STEP_MAX
 * without a rate).  A burst's first allowance is its declared size and
 * 1/2^DDL_CL_SLACK_SHIFT more: sizes are declared as payload, and a host
 * counts the bytes it sends, headers included.
 */
#define DDL_EPOCH_DEFAULT	20000U
#define DDL_EPOCH_MIN		100U
#define DDL_EPOCH_MAX		10000000U
#define DDL_SIZE_MAX		BIT_ULL(40)
#define DDL_CL_SPAN_MAX		(1000ULL * 1000000000ULL)
#define DDL_CL_MOVE_MAX		BIT_ULL(62)
#define DDL_CL_NOMINAL		8U
#define DDL_CL_SLACK_SHIFT	3

/*
 * The fabric's code points (shuffle): a deal lasts 10 ms to an hour, us.
 * A burst that begins within 1/DDL_EDGE_DIV of an epoch of the edge of
 * its epoch or deal is counted: a host whose clock is off by that much
 * keys or marks it as of the neighbouring one.  A burst that spans more
 * than DDL_DEAL_SPAN deals is marked with the last place.
 */
#define DDL_SHUFFLE_MIN		10000U
#define DDL_SHUFFLE_MAX		3600000000U
#define DDL_EDGE_DIV		16U
#define DDL_DEAL_SPAN		16U

/*
 * Bursts, as the units see them alike: a job's queue empty shorter than
 * DDL_FAIR_PAUSE_US is a pause within its burst (the predictor, the
 * orders); a burst of unknown size counts as DDL_FAIR_QUANTUM bytes, a tag
 * or an allowance grows by at most DDL_FAIR_STEP_MAX at a time, and a
 * learned size counts up to DDL_FAIR_SIZE_MAX.
 */
#define DDL_FAIR_PAUSE_US	10000U
#define DDL_FAIR_QUANTUM	SZ_64K
#define DDL_FAIR_STEP_MAX	SZ_4M
#define DDL_FAIR_SIZE_MAX	SZ_1G

#define DDL_NONE		U32_MAX

#define NSEC_PER_USEC_U64	1000ULL
#define NSEC_PER_MSEC_U64	1000000ULL
#define NSEC_PER_SEC_U64	1000000000ULL
#define USEC_PER_SEC_U64	1000000ULL

#define DDL_FAIR_PAUSE_NS	((u64)DDL_FAIR_PAUSE_US * NSEC_PER_USEC_U64)

/**
 * struct ddl_params - configuration of one sch_ddl instance
 * @limit: maximum packets queued in the qdisc
 * @memory_limit: maximum bytes of memory (skb truesize) queued in the qdisc
 * @jobs: number of job classes (fixed for the life of the instance)
 * @mode: enum tc_ddl_mode
 * @slice_us: in the rotation modes, length of a green slice for a job of weight 1; TC_DDL_AUTO:
 *	DDL_AUTO_TURN_PERIODS of the green job's learned period (ddl_turn_ns())
 * @yield_us: a green job whose queue stays empty this long yields; 0: never;
 *	TC_DDL_AUTO: its learned period (ddl_yield_ns())
 * @maxwait_us: a class whose head packet waited this long is served at once
 * @bgshare: minimum share of the background class while backlogged, percent
 * @key: enum tc_ddl_key, the built-in classification key
 * @keyttl_ms: an empty keyed class idle this long may take a new key
 * @rate: shaping rate, bytes per second; 0: no shaping
 * @burst: bytes that may leave back to back after an idle period; 0: auto
 * @target: standing-queue target, bytes; 0 with @target_us 0: no target
 * @target_us: standing-queue target as time at @rate (instead of @target);
 *	TC_DDL_AUTO: DDL_TARGET_AUTO_US if there is a rate
 * @interval_us: how long the queue may stay above target between signals
 * @ecn: mark ECN-capable packets CE instead of dropping them
 * @lead_us: drain this long before a predicted burst; 0: no prediction;
 *	TC_DDL_AUTO: DDL_LEAD_AUTO_US if there is a target
 * @maxperiod_us: burst intervals longer than this are not periodic
 * @epoch_us: mode cluster: length of an epoch of the shared clock
 * @base_ns: mode cluster: where epoch 0 begins on the shared clock
 * @ndscp: code points in @dscp; 0: DSCP left alone
 * @dscp: DSCP written into a job's packets by its place, the first for the
 *	first place, the last for every later one
 * @shuffle_us: the place is dealt anew every @shuffle_us from @base_ns on
 *	the shared clock, from the job's class alone (ddl_fabric_place());
 *	0: the place is the job's rank in the cluster order (mode cluster)
 * @ntiers: sizes in @tiers; 0: one tier
 * @tiers: with a shuffle, a job whose declared size per unit of weight
 *	reaches @tiers[i] (increasing) is dealt a place in tier i + 1 of the
 *	code points (ddl_fabric_tier())
 * @burst_ns: derived by ddl_params_derive(): @burst as time at @rate
 * @target_bytes: derived by ddl_params_derive(): the target in force, bytes
 * @lead_ns: derived by ddl_params_derive(): the lead in force, ns
 */
struct ddl_params {
	u32	limit;
	u32	memory_limit;
	u32	jobs;
	u32	mode;
	u32	slice_us;
	u32	yield_us;
	u32	maxwait_us;
	u32	bgshare;
	u32	key;
	u32	keyttl_ms;
	u64	rate;
	u32	burst;
	u32	target;
	u32	target_us;
	u32	interval_us;
	u32	ecn;
	u32	lead_us;
	u32	maxperiod_us;
	u32	epoch_us;
	u64	base_ns;
	u32	ndscp;
	u8	dscp[TC_DDL_DSCP_MAX];
	u32	shuffle_us;
	u32	ntiers;
	u64	tiers[TC_DDL_TIERS_MAX];

	u64	burst_ns;
	u64	target_bytes;
	u64	lead_ns;
};

void ddl_params_init(struct ddl_params *p);
void ddl_params_derive(struct ddl_params *p);
u32 ddl_excess(const struct ddl_params *p, u32 qlen);

/**
 * ddl_calloc() - allocate a zeroed array of per-class state
 * @n: number of elements
 * @size: size of one element
 *
 * Up to a page from kmalloc; past a page from vmalloc, which rounds up
 * to a page where kmalloc (and the kvcalloc() that tries it first) rounds
 * up to a power of two: the arrays of the 1025 classes of a 1024-job
 * instance would cost a quarter to a third more.  The price is 4 KiB
 * mappings where the direct map may use larger ones, as for any
 * kvcalloc() that falls back to vmalloc.
 *
 * Context: process context; allocates with GFP_KERNEL.
 * Return: the array, to be freed with kvfree(), or NULL.
 */
static inline void *ddl_calloc(size_t n, size_t size)
{
	size_t bytes = array_size(n, size);

	return bytes > PAGE_SIZE ? vzalloc(bytes) : kzalloc(bytes, GFP_KERNEL);
}

/**
 * ddl_admit() - whether a packet may join the queue
 * @p: configuration
 * @qlen: packets queued now
 *
 * Context: any; pure.
 * Return: true if one more packet fits under @p->limit.
 */
static inline bool ddl_admit(const struct ddl_params *p, u32 qlen)
{
	return qlen < p->limit;
}

#endif /* _DDL_PARAMS_H */
