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
#include <linux/kernel.h>
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
#define DDL_DSCP_VALUE_MAX	63U	/* a DSCP's six bits */
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
 * @share: take turns with the other ddl qdiscs of the parent (ddl_gate.c);
 *	TC_DDL_AUTO: on a transmit queue of a multi-queue device without a
 *	rate
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
	u32	share;

	u64	burst_ns;
	u64	target_bytes;
	u64	lead_ns;
};

/**
 * enum ddl_opt_type - how an option's netlink attribute holds it
 * @DDL_OPT_U32: a u32, in a u32 field of struct ddl_params
 * @DDL_OPT_U64: a u64, in a u64 field
 * @DDL_OPT_ARRAY: binary: an array of elements, in an array field and
 *	the u32 that counts them
 */
enum ddl_opt_type {
	DDL_OPT_U32,
	DDL_OPT_U64,
	DDL_OPT_ARRAY,
};

/**
 * enum ddl_unit - what an option's values are, and how a message reads them
 * @DDL_UNIT_COUNT: a number: "between 1 and 4096"
 * @DDL_UNIT_PACKETS: packets: "between 1 and 1048576 packets"
 * @DDL_UNIT_BYTES: bytes, in tc's sizes: "128Kb" (KiB)
 * @DDL_UNIT_US: microseconds, in tc's times: "100us", "10ms", "10s"
 * @DDL_UNIT_MS: milliseconds, likewise
 * @DDL_UNIT_NS: nanoseconds
 * @DDL_UNIT_PERCENT: percent: "50%"
 * @DDL_UNIT_RATE: bytes per second, in tc's rates: "1kbit"
 * @DDL_UNIT_NAME: a value of an enum tc names: "Unknown mode"
 * @DDL_UNIT_BOOL: 0 or 1
 * @DDL_UNIT_DSCP: DSCP code points
 */
enum ddl_unit {
	DDL_UNIT_COUNT,
	DDL_UNIT_PACKETS,
	DDL_UNIT_BYTES,
	DDL_UNIT_US,
	DDL_UNIT_MS,
	DDL_UNIT_NS,
	DDL_UNIT_PERCENT,
	DDL_UNIT_RATE,
	DDL_UNIT_NAME,
	DDL_UNIT_BOOL,
	DDL_UNIT_DSCP,
};

/* Values an option takes besides its range (&ddl_opt.flags) */
#define DDL_OPT_AUTO	BIT(0)	/* TC_DDL_AUTO: automatic */
#define DDL_OPT_OFF	BIT(1)	/* 0, below the range: off */
#define DDL_OPT_NONE	BIT(2)	/* all ones (TC_DDL_RATE_NONE): off, kept as 0 */
#define DDL_OPT_RISING	BIT(3)	/* an array: its elements increase */

/**
 * struct ddl_opt - one qdisc option, a row of ddl_opts[]
 * @name: its name in tc and in the messages
 * @attr: its netlink attribute, TCA_DDL_*
 * @type: enum ddl_opt_type
 * @unit: enum ddl_unit
 * @flags: DDL_OPT_*: what it takes besides @min .. @max
 * @size: bytes of its value: the field's, or an array's element's
 * @off: offset of its field in struct ddl_params
 * @count_off: an array: offset of the u32 that counts its elements
 * @count_max: an array: how many elements it holds
 * @min: smallest value (of an element)
 * @max: largest value (of an element)
 * @def: default; an array's: its count (0: empty)
 */
struct ddl_opt {
	const char	*name;
	u16		attr;
	u8		type;
	u8		unit;
	u8		flags;
	u8		size;
	u16		off;
	u16		count_off;
	u16		count_max;
	u64		min;
	u64		max;
	u64		def;
};

/*
 * A u32 or u64 field of struct ddl_params; an array field, its element's
 * type, and the u32 that counts its elements.  tests/doc_check.py checks
 * each against the struct.
 */
#define DDL_U32(f)							\
	.type = DDL_OPT_U32, .size = sizeof(u32),			\
	.off = offsetof(struct ddl_params, f)
#define DDL_U64(f)							\
	.type = DDL_OPT_U64, .size = sizeof(u64),			\
	.off = offsetof(struct ddl_params, f)
#define DDL_ARRAY(f, t, n, max)						\
	.type = DDL_OPT_ARRAY, .size = sizeof(t),			\
	.off = offsetof(struct ddl_params, f),				\
	.count_off = offsetof(struct ddl_params, n), .count_max = (max)

/*
 * The qdisc's options, one row each (the target two: in bytes or in time),
 * in the order of tc's usage.  From this table come the defaults
 * (ddl_params_init()), the netlink policy, the check of each value and
 * the message that gives its range, and the dump (sch_ddl_main.c), and the
 * module parameters' checks (ddl_debugfs.c).  The rules between options
 * are ddl_params_check()'s.  CONTRIBUTING.md: "Adding an option".
 */
static const struct ddl_opt ddl_opts[] __maybe_unused = {
	{ .name = "limit", .attr = TCA_DDL_LIMIT, DDL_U32(limit),
	  .unit = DDL_UNIT_PACKETS,
	  .min = DDL_LIMIT_MIN, .max = DDL_LIMIT_MAX, .def = DDL_LIMIT_DEFAULT },
	{ .name = "memory_limit", .attr = TCA_DDL_MEMORY_LIMIT,
	  DDL_U32(memory_limit), .unit = DDL_UNIT_BYTES,
	  .min = DDL_MEMLIMIT_MIN, .max = U32_MAX,
	  .def = DDL_MEMLIMIT_DEFAULT },
	{ .name = "jobs", .attr = TCA_DDL_JOBS, DDL_U32(jobs),
	  .unit = DDL_UNIT_COUNT,
	  .min = DDL_JOBS_MIN, .max = DDL_JOBS_MAX, .def = DDL_JOBS_DEFAULT },
	{ .name = "mode", .attr = TCA_DDL_MODE, DDL_U32(mode),
	  .unit = DDL_UNIT_NAME,
	  .min = 0, .max = TC_DDL_MODE_MAX, .def = TC_DDL_MODE_FAIR },
	{ .name = "slice", .attr = TCA_DDL_SLICE, DDL_U32(slice_us),
	  .unit = DDL_UNIT_US, .flags = DDL_OPT_AUTO,
	  .min = DDL_SLICE_MIN, .max = DDL_SLICE_MAX, .def = DDL_SLICE_DEFAULT },
	{ .name = "yield", .attr = TCA_DDL_YIELD, DDL_U32(yield_us),
	  .unit = DDL_UNIT_US, .flags = DDL_OPT_AUTO,
	  .min = 0, .max = DDL_YIELD_MAX, .def = DDL_YIELD_DEFAULT },
	{ .name = "maxwait", .attr = TCA_DDL_MAXWAIT, DDL_U32(maxwait_us),
	  .unit = DDL_UNIT_US,
	  .min = DDL_MAXWAIT_MIN, .max = DDL_MAXWAIT_MAX,
	  .def = DDL_MAXWAIT_DEFAULT },
	{ .name = "bgshare", .attr = TCA_DDL_BGSHARE, DDL_U32(bgshare),
	  .unit = DDL_UNIT_PERCENT,
	  .min = 0, .max = DDL_BGSHARE_MAX, .def = DDL_BGSHARE_DEFAULT },
	{ .name = "key", .attr = TCA_DDL_KEY, DDL_U32(key),
	  .unit = DDL_UNIT_NAME,
	  .min = 0, .max = TC_DDL_KEY_MAX, .def = TC_DDL_KEY_SPORT },
	{ .name = "keyttl", .attr = TCA_DDL_KEYTTL, DDL_U32(keyttl_ms),
	  .unit = DDL_UNIT_MS,
	  .min = 0, .max = DDL_KEYTTL_MAX, .def = DDL_KEYTTL_DEFAULT },
	{ .name = "rate", .attr = TCA_DDL_RATE, DDL_U64(rate),
	  .unit = DDL_UNIT_RATE, .flags = DDL_OPT_NONE,
	  .min = DDL_RATE_MIN, .max = DDL_RATE_MAX, .def = 0 },
	{ .name = "burst", .attr = TCA_DDL_BURST, DDL_U32(burst),
	  .unit = DDL_UNIT_BYTES,
	  .min = 0, .max = DDL_BURST_MAX, .def = 0 },
	{ .name = "target", .attr = TCA_DDL_TARGET, DDL_U32(target),
	  .unit = DDL_UNIT_BYTES,
	  .min = 0, .max = DDL_TARGET_MAX, .def = 0 },
	{ .name = "target", .attr = TCA_DDL_TARGET_TIME, DDL_U32(target_us),
	  .unit = DDL_UNIT_US, .flags = DDL_OPT_AUTO,
	  .min = 0, .max = DDL_TARGET_TIME_MAX, .def = TC_DDL_AUTO },
	{ .name = "interval", .attr = TCA_DDL_INTERVAL, DDL_U32(interval_us),
	  .unit = DDL_UNIT_US,
	  .min = DDL_INTERVAL_MIN, .max = DDL_INTERVAL_MAX,
	  .def = DDL_INTERVAL_DEFAULT },
	{ .name = "ecn", .attr = TCA_DDL_ECN, DDL_U32(ecn),
	  .unit = DDL_UNIT_BOOL,
	  .min = 0, .max = 1, .def = 1 },
	{ .name = "lead", .attr = TCA_DDL_LEAD, DDL_U32(lead_us),
	  .unit = DDL_UNIT_US, .flags = DDL_OPT_AUTO,
	  .min = 0, .max = DDL_LEAD_MAX, .def = TC_DDL_AUTO },
	{ .name = "maxperiod", .attr = TCA_DDL_MAXPERIOD, DDL_U32(maxperiod_us),
	  .unit = DDL_UNIT_US,
	  .min = DDL_MAXPERIOD_MIN, .max = DDL_MAXPERIOD_MAX,
	  .def = DDL_MAXPERIOD_DEFAULT },
	{ .name = "epoch", .attr = TCA_DDL_EPOCH, DDL_U32(epoch_us),
	  .unit = DDL_UNIT_US,
	  .min = DDL_EPOCH_MIN, .max = DDL_EPOCH_MAX, .def = DDL_EPOCH_DEFAULT },
	{ .name = "base", .attr = TCA_DDL_BASE, DDL_U64(base_ns),
	  .unit = DDL_UNIT_NS,
	  .min = 0, .max = U64_MAX, .def = 0 },
	{ .name = "dscp", .attr = TCA_DDL_DSCP,
	  DDL_ARRAY(dscp, u8, ndscp, TC_DDL_DSCP_MAX),
	  .unit = DDL_UNIT_DSCP,
	  .min = 0, .max = DDL_DSCP_VALUE_MAX, .def = 0 },
	{ .name = "shuffle", .attr = TCA_DDL_SHUFFLE, DDL_U32(shuffle_us),
	  .unit = DDL_UNIT_US, .flags = DDL_OPT_OFF,
	  .min = DDL_SHUFFLE_MIN, .max = DDL_SHUFFLE_MAX, .def = 0 },
	{ .name = "tiers", .attr = TCA_DDL_TIERS,
	  DDL_ARRAY(tiers, u64, ntiers, TC_DDL_TIERS_MAX),
	  .unit = DDL_UNIT_BYTES, .flags = DDL_OPT_RISING,
	  .min = 1, .max = DDL_SIZE_MAX, .def = 0 },
	{ .name = "share", .attr = TCA_DDL_SHARE, DDL_U32(share),
	  .unit = DDL_UNIT_BOOL, .flags = DDL_OPT_AUTO,
	  .min = 0, .max = 1, .def = TC_DDL_AUTO },
};

/**
 * ddl_opt_find() - the row of ddl_opts[] of an attribute
 * @attr: TCA_DDL_*
 *
 * Context: any; pure.
 * Return: the row, or NULL if no option sets @attr.
 */
static inline const struct ddl_opt *ddl_opt_find(u32 attr)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(ddl_opts); i++)
		if (ddl_opts[i].attr == attr)
			return &ddl_opts[i];
	return NULL;
}

/**
 * ddl_opt_get() - the value of an option in a configuration
 * @p: configuration
 * @o: the option
 *
 * Context: any; pure.
 * Return: its value; an array's count.
 */
static inline u64 ddl_opt_get(const struct ddl_params *p,
			      const struct ddl_opt *o)
{
	const u8 *base = (const u8 *)p;

	switch (o->type) {
	case DDL_OPT_U32:
		return *(const u32 *)(base + o->off);
	case DDL_OPT_U64:
		return *(const u64 *)(base + o->off);
	}
	return *(const u32 *)(base + o->count_off);
}

/**
 * ddl_opt_set() - set an option in a configuration
 * @p: configuration
 * @o: the option
 * @v: its value, in its range (unchecked); an array's count
 *
 * Context: any.
 */
static inline void ddl_opt_set(struct ddl_params *p, const struct ddl_opt *o,
			       u64 v)
{
	u8 *base = (u8 *)p;

	switch (o->type) {
	case DDL_OPT_U32:
		*(u32 *)(base + o->off) = v;
		return;
	case DDL_OPT_U64:
		*(u64 *)(base + o->off) = v;
		return;
	}
	*(u32 *)(base + o->count_off) = v;
}

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
