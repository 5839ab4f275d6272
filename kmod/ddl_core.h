/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ddl_core.h - the sch_ddl scheduling core, in six units: ddl_sched.c
 * (configuration, rotation and who sends next), ddl_fair.c (the fair
 * order: the burst that per-job fair sharing would finish first),
 * ddl_keymap.c (the built-in classification key), ddl_pace.c (shaper and
 * standing-queue target), ddl_predict.c (burst periods and lead windows)
 * and ddl_log.c (the record of green changes and completed bursts, and
 * the burst histogram).
 *
 * Pure decision logic: no sk_buff, no Qdisc, no clock reads.  Times are
 * nanoseconds passed in by the caller; all arithmetic is integer.  The glue
 * (sch_ddl_main.c) owns the packets and calls in here under the qdisc lock.
 *
 * Classes are indexed 0 .. jobs - 1 (job classes, tc minors 1 .. jobs) and
 * DDL_BG(s) == jobs (the background class).
 */
#ifndef _DDL_CORE_H
#define _DDL_CORE_H

#include <linux/bitops.h>
#include <linux/list.h>
#include <linux/rbtree.h>
#include <linux/sizes.h>
#include <linux/types.h>

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
 * epoch at a time; a job with no declared size is given DDL_CL_NOMINAL
 * epochs of bytes at the rate (DDL_FAIR_STEP_MAX without a rate).
 */
#define DDL_EPOCH_DEFAULT	20000U
#define DDL_EPOCH_MIN		100U
#define DDL_EPOCH_MAX		10000000U
#define DDL_SIZE_MAX		BIT_ULL(40)
#define DDL_CL_SPAN_MAX		(1000ULL * 1000000000ULL)
#define DDL_CL_NOMINAL		8U

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

/* A job empty this long starts a new burst when it sends again (no yield). */
#define DDL_BURST_GAP_US	1000U

/* Burst intervals seen before a period is trusted. */
#define DDL_PRED_SAMPLES	3U

/* A job's learned burst size: the largest of its last this many iterations. */
#define DDL_SIZE_SAMPLES	3U

/* EWMA gain of the predictor: 1 / 2^DDL_EWMA_SHIFT. */
#define DDL_EWMA_SHIFT		2

/* Bytes a yellow job may send per DRR round, times its weight. */
#define DDL_QUANTUM		1514

#define DDL_NONE		U32_MAX

/* Green changes kept per instance, and completed bursts kept per job. */
#define DDL_TURN_LOG		64U
#define DDL_BURST_LOG		4U

#define DDL_HIST_BUCKETS	TC_DDL_HIST_BUCKETS

/*
 * Mode fair: virtual time is bytes per unit weight times DDL_VSCALE; a burst
 * of unknown size is tagged DDL_FAIR_QUANTUM bytes, a tag grows by at most
 * DDL_FAIR_STEP_MAX at a time, a learned size counts up to DDL_FAIR_SIZE_MAX.
 */
#define DDL_VSCALE		DDL_WEIGHT_MAX
#define DDL_FAIR_QUANTUM	SZ_64K
#define DDL_FAIR_STEP_MAX	SZ_4M
#define DDL_FAIR_SIZE_MAX	SZ_1G

/*
 * A burst may exceed its learned size by 1/DDL_FAIR_SLACK of it before its
 * tag grows: learned sizes are averages, and a step of an eighth for a few
 * bytes over would put the burst's tail behind another job's whole burst.
 */
#define DDL_FAIR_SLACK		16U

/* A job's queue empty shorter than this is a pause within its burst. */
#define DDL_FAIR_PAUSE_US	10000U

/* Packets shorter than this (pure ACKs) do not start a burst. */
#define DDL_BURST_PKT_MIN	128U

/*
 * The ACK lane: a job that holds packets but no data (a parameter server's
 * ACKs of the gradients it receives) is served ahead of the order, for at
 * most 1/DDL_ACK_SHARE of the bytes sent; the credit for it holds at most
 * DDL_ACK_CREDIT_MAX bytes' worth of ACKs.
 */
#define DDL_ACK_SHARE		16
#define DDL_ACK_CREDIT_MAX	((s64)SZ_64K * DDL_ACK_SHARE)

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

	u64	burst_ns;
	u64	target_bytes;
	u64	lead_ns;
};

/**
 * enum ddl_signal - congestion signal for an arriving packet
 * @DDL_SIG_NONE: queue it
 * @DDL_SIG_TARGET: the standing queue stayed above target for an interval
 * @DDL_SIG_LEAD: a lead window is open and the queue is above target
 *
 * The caller marks an ECN-capable packet CE when ECN is on, else drops it.
 */
enum ddl_signal {
	DDL_SIG_NONE,
	DDL_SIG_TARGET,
	DDL_SIG_LEAD,
};

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
 * enum ddl_reason - why ddl_pick() chose a class
 * @DDL_R_GUARD: the starvation guard: its head waited longer than maxwait
 * @DDL_R_BGSHARE: the background class is owed its minimum share
 * @DDL_R_ACK: a job that holds no data, only packets shorter than
 *	DDL_BURST_PKT_MIN (pure ACKs)
 * @DDL_R_GREEN: the green job
 * @DDL_R_YELLOW: a job behind green, green having nothing to send
 * @DDL_R_BACKGROUND: the background class, no job having anything to send
 */
enum ddl_reason {
	DDL_R_GUARD,
	DDL_R_BGSHARE,
	DDL_R_ACK,
	DDL_R_GREEN,
	DDL_R_YELLOW,
	DDL_R_BACKGROUND,
};

/**
 * enum ddl_turn_why - why the green job changed
 * @DDL_TURN_START: no job was green
 * @DDL_TURN_SLICE: green's turn was over and another job was backlogged
 * @DDL_TURN_YIELD: green's queue stayed empty for its yield time
 * @DDL_TURN_STATIC: mode static: a job of a lower minor became backlogged
 * @DDL_TURN_FAIR: mode fair: another job's burst has the smallest finish tag
 * @DDL_TURN_CLUSTER: mode cluster: another job's burst has the smallest key
 */
enum ddl_turn_why {
	DDL_TURN_START,
	DDL_TURN_SLICE,
	DDL_TURN_YIELD,
	DDL_TURN_STATIC,
	DDL_TURN_FAIR,
	DDL_TURN_CLUSTER,
};

/**
 * struct ddl_turn_rec - one change of the green job
 * @time: when, ns
 * @from: job that was green, or DDL_NONE
 * @to: job made green
 * @why: enum ddl_turn_why
 */
struct ddl_turn_rec {
	u64	time;
	u32	from;
	u32	to;
	u32	why;
};

/**
 * struct ddl_burst_rec - one completed burst of a job
 * @start: when its first packet was queued, ns
 * @end: when its queue last became empty, ns
 * @bytes: bytes sent in it
 */
struct ddl_burst_rec {
	u64	start;
	u64	end;
	u64	bytes;
};

/**
 * struct ddl_job_log - completed bursts of one job
 * @hist: completion times, bucket ddl_hist_bucket() of microseconds
 * @max_us: longest completion time, us (saturating)
 * @sum_us: completion times summed, us
 * @done: bursts completed; the last min(@done, DDL_BURST_LOG) are in @ring
 * @ring: the last completed bursts, the newest at (@done - 1) % DDL_BURST_LOG
 */
struct ddl_job_log {
	u32			hist[DDL_HIST_BUCKETS];
	u32			max_us;
	u64			sum_us;
	u64			done;
	struct ddl_burst_rec	ring[DDL_BURST_LOG];
};

/**
 * struct ddl_cls - scheduling state of one class
 * @wait_node: on &ddl_sched.waiters while backlogged, oldest @wait_since
 *	first
 * @rr_node: on &ddl_sched.rr while a backlogged job (DRR of yellow jobs)
 * @key_node: in the key hash while @keyed
 * @idle_node: on &ddl_sched.idle while keyed with an empty queue
 * @ack_node: on &ddl_sched.acks while a backlogged job with no data queued
 * @wait_since: last service or look of the guard, or when the class
 *	became backlogged
 * @head_since: when its head packet was queued, as the glue tells
 *	(ddl_head_queued()); else its last service or activation
 * @idle_since: when a keyed class last became empty
 * @deficit: DRR deficit in bytes
 * @bound: number of tc filters bound to the class (changed under RTNL)
 * @key: key value, valid if @keyed
 * @weight: slice multiplier
 * @samples: iteration intervals behind @period, saturating
 * @keyed: the built-in key owns this class
 * @backlogged: the class has packets (as told by the glue)
 * @predicted: @period is steady enough to predict the next burst
 * @in_burst: a burst began at @last_burst and is not complete yet
 * @green_ns: time spent green, up to the last change of green
 * @bytes_green: bytes sent while green
 * @bytes_yellow: bytes sent while not green
 * @greens: times made green
 * @yields: times it handed green on early
 * @guard_runs: packets sent for it by the starvation guard
 * @ack_runs: packets sent for it ahead of the order as it held no data
 * @periodic_node: in &ddl_sched.periodic, keyed by @iter_start + @period
 * @empty_since: when its queue last held no data packet: one of
 *	DDL_BURST_PKT_MIN bytes or more (pure ACKs are not data)
 * @data_qlen: data packets queued
 * @last_burst: when the current burst began
 * @cur_bytes: bytes sent since @last_burst
 * @iter_start: when the job's current iteration began: the start of its
 *	first burst after a quiet time (ddl_burst_start())
 * @iter_bytes: bytes of the earlier bursts of the current iteration
 * @pre_bytes: bytes of its iterations before it was first @gapped
 * @gap: EWMA of the quiet time before its iterations (its compute), ns
 * @gapped: it has been quiet for DDL_FAIR_PAUSE_US between two bursts
 * @period: EWMA of the time between iteration starts, ns
 * @mdev: EWMA of the deviation of iteration intervals from @period, ns
 * @burst_size: learned bytes per burst, the largest of @sizes; 0: none
 * @sizes: bytes of the job's last DDL_SIZE_SAMPLES iterations, capped at
 *	DDL_FAIR_SIZE_MAX
 * @nsizes: entries of @sizes in use
 * @size_pos: the entry of @sizes the next burst replaces
 * @bursts: bursts seen
 * @pred_hits: bursts that began inside their lead window
 * @pred_misses: lead windows of this job that missed its burst
 * @fair_node: in &ddl_sched.fair while a backlogged job, by @vfinish
 * @gps_node: in &ddl_sched.gps while its burst is in the fair reference
 * @vstart: virtual time its current burst started at in the reference
 * @vfinish: virtual time the reference finishes its current burst
 * @budget: bytes its current burst is tagged with
 * @seg_bytes: bytes queued in its current burst
 * @tag_exts: times a burst of it outgrew its tag
 * @cl_node: in &ddl_sched.cl while a backlogged job (mode cluster)
 * @rank_node: in &ddl_sched.ranked while its burst is in progress
 * @size: declared bytes of the job's whole burst over all its hosts, 0: none
 * @cl_key: key of its current burst, ns of the shared clock since the base
 * @cl_allow: bytes of the burst @cl_key covers
 * @cl_bytes: bytes queued since @cl_key was given
 * @cl_rot: the burst's place in its epoch's rotation, breaks ties of @cl_key
 * @cl_mark: the place its packets carry out (dscp): the last of the places
 *	it had since its burst (with a shuffle: its iteration) began
 * @cl_mark_burst: @last_burst (with a shuffle: @iter_start) when @cl_mark
 *	was set
 * @cl_mark_deal: the last deal @cl_mark covers (shuffle)
 *
 * The small fields share one 16-byte slot.
 */
struct ddl_cls {
	struct list_head	wait_node;
	struct list_head	rr_node;
	struct hlist_node	key_node;
	struct list_head	idle_node;
	struct list_head	ack_node;
	u64			wait_since;
	u64			head_since;
	u64			idle_since;
	s64			deficit;
	u32			bound;
	u32			key;
	u16			weight;
	u16			samples;
	bool			keyed;
	bool			backlogged;
	bool			predicted;
	bool			in_burst;

	u64			green_ns;
	u64			bytes_green;
	u64			bytes_yellow;
	u64			greens;
	u64			yields;
	u64			guard_runs;
	u64			ack_runs;

	struct rb_node		periodic_node;
	u64			empty_since;
	u32			data_qlen;
	u64			last_burst;
	u64			cur_bytes;
	u64			iter_start;
	u64			iter_bytes;
	u64			pre_bytes;
	u64			gap;
	u64			period;
	u64			mdev;
	u64			burst_size;
	u32			sizes[DDL_SIZE_SAMPLES];
	u8			nsizes;
	u8			size_pos;
	bool			gapped;
	u64			bursts;
	u64			pred_hits;
	u64			pred_misses;

	struct rb_node		fair_node;
	struct rb_node		gps_node;
	u64			vstart;
	u64			vfinish;
	u64			budget;
	u64			seg_bytes;
	u64			tag_exts;

	struct rb_node		cl_node;
	struct rb_node		rank_node;
	u64			size;
	u64			cl_key;
	u64			cl_allow;
	u64			cl_bytes;
	u32			cl_rot;
	u32			cl_mark;
	u64			cl_mark_burst;
	u64			cl_mark_deal;
};

/**
 * struct ddl_sched - scheduling state of one sch_ddl instance
 * @jobs: number of job classes
 * @cls: @jobs job classes and the background class, DDL_BG()
 * @bm: backlogged jobs, one bit each
 * @bm_top: bit w set when @bm[w] is non-zero
 * @waiters: backlogged classes, least recently served first
 * @rr: backlogged jobs in DRR order
 * @idle: keyed job classes with empty queues, longest idle first
 * @acks: backlogged jobs with no data queued, in the order they got so
 * @keyed_bm: job classes the key owns
 * @bound_bm: job classes tc filters point at (atomic bit operations)
 * @claimed_bm: job classes a filter or skb->priority chose for a packet
 * @keyhash: key value to class, 2^@keyhash_bits buckets (jobs rounded up to a
 *	power of two, at least 2)
 * @keyhash_bits: log2 of the number of buckets
 * @green: index of the green job, or DDL_NONE
 * @green_since: when @green became green
 * @slice_start: when @green's current slice began
 * @slice_end: when @green's slice ends
 * @green_empty_since: when @green's queue became empty, 0 while backlogged
 * @bg_credit: background share credit, bytes times percent
 * @ack_credit: credit of the ACK lane, bytes times DDL_ACK_SHARE
 * @rotations: slice ends that moved green to another job
 * @turns_forced: turns ended while green still had packets queued
 * @yields: green handed on early
 * @guard_runs: packets sent by the starvation guard
 * @bgshare_runs: packets sent for the background share
 * @ack_runs: job packets sent in the ACK lane
 * @key_overflow: keys that found no free class
 * @key_recycled: idle key classes given a new key
 * @keys_mapped: job classes holding a key
 * @pace_next: earliest departure time of the next packet, ns
 * @pace_rem: remainder of the last departure-time division, ns * rate
 * @throttled_since: when the shaper began holding the queue back; 0: not
 * @throttled_ns: time the shaper held a backlog back
 * @throttles: times the shaper began holding the queue back
 * @paced_pkts: packets the shaper held back
 * @paced_bytes: bytes of @paced_pkts
 * @above: the unprotected backlog was above target at the last arrival
 * @above_since: when it went above target
 * @next_signal: no target signal before this time
 * @periodic: predicted jobs by their next burst, earliest first; a job
 *	whose next burst passed waits off the tree for its next burst
 * @periodic_last: the last node of @periodic, NULL while it is empty
 * @lead_job: job whose lead window is armed, or DDL_NONE
 * @lead_open: when the armed lead window opens
 * @lead_close: when it closes if the burst does not come
 * @lead_active: the armed window is open
 * @bursts: bursts seen, all jobs
 * @leads: lead windows opened
 * @lead_ns: time spent in lead windows, closed ones
 * @pred_hits: bursts that began inside their lead window
 * @pred_misses: lead windows that missed their burst
 * @fair: backlogged jobs by finish tag (mode fair serves the first)
 * @gps: jobs whose burst is in progress in the fair reference, by finish tag
 * @vtime: virtual time of the fair reference
 * @vrem: remainder of the last advance of @vtime
 * @gps_weight: sum of the weights of the jobs in @gps
 * @gps_jobs: number of jobs in @gps
 * @tag_exts: bursts' tags extended, all jobs
 * @cl: backlogged jobs by cluster key (mode cluster serves the first)
 * @ranked: jobs whose burst is in progress, by cluster key: backlogged,
 *	or empty for less than DDL_FAIR_PAUSE_US (pruned when seen)
 * @cl_on: the cluster order is kept (mode cluster)
 * @cl_jobs: number of jobs in @cl
 * @clock_off: the shared clock (CLOCK_TAI) less the caller's clock, ns, as
 *	the glue last read it
 * @epoch: epoch of the shared clock at the last burst start
 * @cl_bursts: bursts given a cluster key
 * @cl_exts: cluster keys moved on because a burst outgrew them
 * @edge_bursts: bursts keyed or marked within 1/DDL_EDGE_DIV of an epoch
 *	of the edge of their epoch or deal
 * @deal: the deal of the fabric's code points the last mark fell in
 * @deal_start: where @deal began on the shared clock
 * @deal_len: the length of a deal @deal was computed with, ns; 0: none
 *	(a change of the configuration computes it again)
 * @jlog: completed bursts, one log per job
 * @bursts_done: bursts completed, all jobs
 * @turns: green changes recorded; the last min(@turns, DDL_TURN_LOG) are in
 *	@turn_log, the newest at (@turns - 1) % DDL_TURN_LOG
 * @turn_log: the last green changes
 */
struct ddl_sched {
	u32			jobs;
	struct ddl_cls		*cls;
	u64			bm[DDL_JOBS_MAX / 64];
	u64			bm_top;
	struct list_head	waiters;
	struct list_head	rr;
	struct list_head	idle;
	struct list_head	acks;
	unsigned long		keyed_bm[BITS_TO_LONGS(DDL_JOBS_MAX)];
	unsigned long		bound_bm[BITS_TO_LONGS(DDL_JOBS_MAX)];
	unsigned long		claimed_bm[BITS_TO_LONGS(DDL_JOBS_MAX)];
	struct hlist_head	*keyhash;
	u32			keyhash_bits;

	u32			green;
	u64			green_since;
	u64			slice_start;
	u64			slice_end;
	u64			green_empty_since;
	s64			bg_credit;
	s64			ack_credit;

	u64			rotations;
	u64			turns_forced;
	u64			yields;
	u64			guard_runs;
	u64			bgshare_runs;
	u64			ack_runs;
	u64			key_overflow;
	u64			key_recycled;
	u32			keys_mapped;

	u64			pace_next;
	u64			pace_rem;
	u64			throttled_since;
	u64			throttled_ns;
	u64			throttles;
	u64			paced_pkts;
	u64			paced_bytes;

	bool			above;
	u64			above_since;
	u64			next_signal;

	struct rb_root_cached	periodic;
	struct rb_node		*periodic_last;
	u32			lead_job;
	u64			lead_open;
	u64			lead_close;
	bool			lead_active;
	u64			bursts;
	u64			leads;
	u64			lead_ns;
	u64			pred_hits;
	u64			pred_misses;

	struct rb_root_cached	fair;
	struct rb_root_cached	gps;
	u64			vtime;
	u32			vrem;
	u32			gps_weight;
	u32			gps_jobs;
	u64			tag_exts;

	struct rb_root_cached	cl;
	struct rb_root_cached	ranked;
	bool			cl_on;
	u32			cl_jobs;
	u64			clock_off;
	u64			epoch;
	u64			cl_bursts;
	u64			cl_exts;
	u64			edge_bursts;
	u64			deal;
	u64			deal_start;
	u64			deal_len;

	struct ddl_job_log	*jlog;
	u64			bursts_done;
	u64			turns;
	struct ddl_turn_rec	turn_log[DDL_TURN_LOG];
};

/* Index of the background class. */
#define DDL_BG(s)		((s)->jobs)

/* ddl_sched.c: the configuration, and who sends next */

void ddl_params_init(struct ddl_params *p);
void ddl_params_derive(struct ddl_params *p);
u32 ddl_excess(const struct ddl_params *p, u32 qlen);

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

void *ddl_calloc(size_t n, size_t size);
int ddl_sched_init(struct ddl_sched *s, u32 jobs);
void ddl_sched_destroy(struct ddl_sched *s);
void ddl_activate(struct ddl_sched *s, u32 idx, u64 now);
void ddl_deactivate(struct ddl_sched *s, u32 idx, u64 now);
u32 ddl_pick(struct ddl_sched *s, const struct ddl_params *p, u64 now,
	     enum ddl_reason *reason);
void ddl_served(struct ddl_sched *s, const struct ddl_params *p, u32 idx,
		enum ddl_reason reason, u32 len, u64 now);
void ddl_dropped(struct ddl_sched *s, u32 idx, u32 len, u64 now);
void ddl_head_queued(struct ddl_sched *s, u32 idx, u64 since);
void ddl_set_weight(struct ddl_sched *s, const struct ddl_params *p, u32 idx,
		    u32 weight);
void ddl_reconfigure(struct ddl_sched *s, const struct ddl_params *old,
		     const struct ddl_params *p, u64 now);
u64 ddl_green_ns(const struct ddl_sched *s, u32 idx, u64 now);
u64 ddl_turn_ns(const struct ddl_sched *s, const struct ddl_params *p,
		u32 idx);
u64 ddl_yield_ns(const struct ddl_sched *s, const struct ddl_params *p,
		 u32 idx);
u32 ddl_bm_next(const struct ddl_sched *s, u32 from);
u32 ddl_bm_first(const struct ddl_sched *s, u32 from);

/* ddl_keymap.c: the built-in key and the classes filters are bound to */

u32 ddl_key_class(struct ddl_sched *s, const struct ddl_params *p, u32 key,
		  u64 now);
void ddl_bind(struct ddl_sched *s, u32 idx);
void ddl_unbind(struct ddl_sched *s, u32 idx);
void ddl_claim(struct ddl_sched *s, u32 idx);

/* ddl_pace.c: the shaper and the standing-queue target */

u64 ddl_edt_next(u64 t_next, u64 *rem, u64 now, u32 len, u64 rate,
		 u64 burst_ns);
bool ddl_pace_hold(struct ddl_sched *s, const struct ddl_params *p, u64 now);
void ddl_pace_release(struct ddl_sched *s, u64 now);
void ddl_quiesce(struct ddl_sched *s, u64 now);
enum ddl_signal ddl_aqm(struct ddl_sched *s, const struct ddl_params *p,
			u64 other, u32 len, u64 now);
void ddl_aqm_drained(struct ddl_sched *s, const struct ddl_params *p,
		     u64 other);

/* ddl_predict.c: burst periods and lead windows */

u64 ddl_ewma(u64 avg, u64 sample);
u32 ddl_size_learned(const u32 *sizes, u32 n);
bool ddl_burst_paused(const struct ddl_cls *c, u64 now);
bool ddl_burst_start(struct ddl_sched *s, const struct ddl_params *p, u32 idx,
		     u64 now);
bool ddl_arrived(struct ddl_sched *s, const struct ddl_params *p, u32 idx,
		 u32 len, u64 now);
void ddl_window(struct ddl_sched *s, const struct ddl_params *p, u64 now);
u32 ddl_lead_job(const struct ddl_sched *s);
u64 ddl_lead_ns(const struct ddl_sched *s, u64 now);

/* ddl_fair.c: the burst that per-job fair sharing would finish first */

void ddl_fair_burst(struct ddl_sched *s, u32 idx, u64 now);
void ddl_fair_resume(struct ddl_sched *s, u32 idx);
void ddl_fair_enqueued(struct ddl_sched *s, u32 idx, u32 len);
void ddl_fair_served(struct ddl_sched *s, u32 len);
u32 ddl_fair_first(const struct ddl_sched *s);
void ddl_fair_weight(struct ddl_sched *s, u32 idx, u32 weight);

/* ddl_cluster.c: one order on every host of a cluster */

u64 ddl_epoch_of(const struct ddl_params *p, u64 shared);
void ddl_cluster_burst(struct ddl_sched *s, const struct ddl_params *p,
		       u32 idx, u64 now);
void ddl_cluster_enqueued(struct ddl_sched *s, const struct ddl_params *p,
			  u32 idx, u32 len);
u32 ddl_cluster_first(const struct ddl_sched *s);
u32 ddl_cluster_rank(struct ddl_sched *s, u32 idx, u32 max, u64 now);
u64 ddl_deal_of(const struct ddl_params *p, u64 shared);
u32 ddl_fabric_place(const struct ddl_params *p, u32 idx, u64 deal);
u32 ddl_cluster_mark(struct ddl_sched *s, const struct ddl_params *p,
		     u32 idx, u64 now);
void ddl_cluster_size(struct ddl_sched *s, u32 idx, u64 size);
void ddl_cluster_mode(struct ddl_sched *s, const struct ddl_params *p,
		      u64 now);

/* ddl_log.c: green changes, completed bursts and their histogram */

u32 ddl_hist_bucket(u64 us);
u64 ddl_hist_lo(u32 bucket);
u64 ddl_hist_count(const u32 *hist);
u64 ddl_hist_quantile(const u32 *hist, u64 max_us, u32 permille);
void ddl_burst_settle(struct ddl_sched *s, const struct ddl_params *p,
		      u32 idx, u64 now);
const struct ddl_burst_rec *ddl_burst_last(const struct ddl_sched *s,
					   u32 idx, u32 back);
const struct ddl_turn_rec *ddl_turn_last(const struct ddl_sched *s, u32 back);

/* Internal to the core: shared by its units, not used by the glue. */

#define NSEC_PER_USEC_U64	1000ULL
#define NSEC_PER_MSEC_U64	1000000ULL
#define NSEC_PER_SEC_U64	1000000000ULL
#define USEC_PER_SEC_U64	1000000ULL

#define DDL_BURST_GAP_NS	((u64)DDL_BURST_GAP_US * NSEC_PER_USEC_U64)
#define DDL_AUTO_CAP_NS		((u64)DDL_AUTO_CAP_US * NSEC_PER_USEC_U64)
#define DDL_FAIR_PAUSE_NS	((u64)DDL_FAIR_PAUSE_US * NSEC_PER_USEC_U64)

/* Close the armed lead window (if any), adding its open time. */
void ddl_disarm(struct ddl_sched *s, u64 now);
/* A class changes owner: forget what was learned about its bursts. */
void ddl_predict_reset(struct ddl_sched *s, struct ddl_cls *c, u64 now);
/* The key lets go of class @c; it keeps its packets. */
void ddl_key_release(struct ddl_sched *s, struct ddl_cls *c);
/* The queue of a job must stay empty this long between two bursts, ns. */
u64 ddl_burst_gap(const struct ddl_params *p);
/* Record the open burst of job @idx as complete. */
void ddl_burst_end(struct ddl_sched *s, u32 idx);
/* Job class @c joins or leaves the backlogged jobs of the fair order. */
void ddl_fair_queue(struct ddl_sched *s, struct ddl_cls *c);
void ddl_fair_unqueue(struct ddl_sched *s, struct ddl_cls *c);
/* The class changes owner: its burst leaves the fair reference. */
void ddl_fair_reset(struct ddl_sched *s, struct ddl_cls *c);
/* Job class @c joins or leaves the backlogged jobs of the cluster order. */
void ddl_cluster_queue(struct ddl_sched *s, struct ddl_cls *c);
void ddl_cluster_unqueue(struct ddl_sched *s, struct ddl_cls *c);
/* Record a change of green from @s->green to @to. */
void ddl_turn_record(struct ddl_sched *s, u32 to, enum ddl_turn_why why,
		     u64 now);

#endif /* _DDL_CORE_H */
