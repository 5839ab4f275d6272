/* SPDX-License-Identifier: GPL-2.0 WITH Linux-syscall-note */
/*
 * sch_ddl - burst scheduler for deep-learning clusters: netlink interface
 * shared by the kernel module and the tc plugin.
 *
 * Attributes are nested in TCA_OPTIONS (NLA_F_NESTED) and parsed strictly.
 * New attributes and new xstats fields are only ever appended.
 *
 * Classes: job classes are MAJ:1 .. MAJ:jobs, the background class is
 * MAJ:TC_DDL_BG_MINOR.
 */
#ifndef _UAPI_LINUX_SCH_DDL_H
#define _UAPI_LINUX_SCH_DDL_H

#include <linux/types.h>

#define TC_DDL_BG_MINOR		0xffff

/* Qdisc options */
enum {
	TCA_DDL_UNSPEC,
	TCA_DDL_PAD,
	TCA_DDL_LIMIT,		/* u32: queue limit, packets */
	TCA_DDL_JOBS,		/* u32: number of job classes, fixed at creation */
	TCA_DDL_MODE,		/* u32: enum tc_ddl_mode */
	TCA_DDL_SLICE,		/* u32: slice length, us; TC_DDL_AUTO: learned */
	TCA_DDL_YIELD,		/* u32: green idle this long yields, us; 0: never;
				 * TC_DDL_AUTO: learned
				 */
	TCA_DDL_MAXWAIT,	/* u32: starvation guard threshold, us */
	TCA_DDL_BGSHARE,	/* u32: background minimum share, percent */
	TCA_DDL_KEY,		/* u32: enum tc_ddl_key */
	TCA_DDL_KEYTTL,		/* u32: idle time before a key class is reused, ms */
	TCA_DDL_RATE,		/* u64: shaping rate, bytes/s; TC_DDL_RATE_NONE: off */
	TCA_DDL_BURST,		/* u32: bytes sent at once after idling; 0: auto */
	TCA_DDL_TARGET,		/* u32: standing-queue target, bytes; 0: off */
	TCA_DDL_TARGET_TIME,	/* u32: standing-queue target, us at the rate;
				 * TC_DDL_AUTO (default): 2 ms with a rate
				 */
	TCA_DDL_INTERVAL,	/* u32: above target this long: signal, us */
	TCA_DDL_ECN,		/* u32: 1: mark CE instead of dropping ECT packets */
	TCA_DDL_LEAD,		/* u32: drain this long before a predicted burst,
				 * us; 0: off; TC_DDL_AUTO (default): 20 ms
				 * with a target
				 */
	TCA_DDL_MAXPERIOD,	/* u32: longest burst period learned, us */
	TCA_DDL_EPOCH,		/* u32: epoch of the shared clock, us (keys of
				 * mode cluster, edge of a shuffle's deal)
				 */
	TCA_DDL_BASE,		/* u64: start of epoch 0 and deal 0, ns of
				 * CLOCK_TAI
				 */
	TCA_DDL_DSCP,		/* binary: DSCP (0..63) written into a job's
				 * packets by its place, one byte per place from
				 * the first; the last byte serves every later
				 * place; empty: off; at most TC_DDL_DSCP_MAX
				 */
	TCA_DDL_SHUFFLE,	/* u32: the place whose DSCP a job's packets
				 * carry is dealt anew every this long, us, on
				 * CLOCK_TAI from the base, from the job's
				 * class alone; 0 (default): the rank (mode
				 * cluster)
				 */
	TCA_DDL_MEMORY_LIMIT,	/* u32: bytes of memory (skb truesize) the
				 * queue may hold; over it, the class that
				 * holds the most loses its head packet
				 */
	TCA_DDL_TIERS,		/* binary: __u64 sizes, bytes, increasing: a
				 * job whose declared size (per unit of
				 * weight) reaches the i-th is dealt a place
				 * among the code points of tier i + 1 (with
				 * a shuffle); empty: one tier; at most
				 * TC_DDL_TIERS_MAX
				 */
	TCA_DDL_SHARE,		/* u32: 1: the ddl qdiscs of one parent on
				 * the device take turns, one job's burst at
				 * a time over all of them (mode cluster);
				 * 0: each queue alone; TC_DDL_AUTO
				 * (default): 1 for a transmit queue's ddl
				 * (under mq) without a rate
				 */
	__TCA_DDL_MAX
};

#define TCA_DDL_MAX	(__TCA_DDL_MAX - 1)

/*
 * TCA_DDL_SLICE and TCA_DDL_YIELD value (the default): the green job's turn
 * and the pause after which it yields follow its learned burst period.
 * TCA_DDL_TARGET_TIME and TCA_DDL_LEAD value (the default): the target
 * follows the rate, the lead the target.
 */
#define TC_DDL_AUTO		(~(__u32)0)

/* TCA_DDL_RATE value that turns shaping off. */
#define TC_DDL_RATE_NONE	(~(__u64)0)

/* Code points of TCA_DDL_DSCP: one per rank, at most. */
#define TC_DDL_DSCP_MAX		8

/* Sizes of TCA_DDL_TIERS: every tier takes one code point at least. */
#define TC_DDL_TIERS_MAX	(TC_DDL_DSCP_MAX - 1)

/* How the green job and the order behind it change over time. */
enum tc_ddl_mode {
	TC_DDL_MODE_ROTATE,	/* rotate the whole order, green first */
	TC_DDL_MODE_GREEN,	/* rotate green; the others share fairly (DRR) */
	TC_DDL_MODE_STATIC,	/* fixed order by minor, no rotation */
	TC_DDL_MODE_FAIR,	/* the burst that per-job fair sharing would
				 * finish first (the default)
				 */
	TC_DDL_MODE_CLUSTER,	/* one order on every host of a cluster: by
				 * the epoch a burst began in on CLOCK_TAI and
				 * its job's declared size
				 */
	__TC_DDL_MODE_MAX
};

#define TC_DDL_MODE_MAX	(__TC_DDL_MODE_MAX - 1)

/* Built-in classification key for packets no filter or priority placed. */
enum tc_ddl_key {
	TC_DDL_KEY_NONE,	/* no key: such packets go to the background */
	TC_DDL_KEY_SPORT,	/* TCP/UDP source port */
	TC_DDL_KEY_DPORT,	/* TCP/UDP destination port */
	TC_DDL_KEY_MARK,	/* skb->mark (fwmark) */
	TC_DDL_KEY_DSCP,	/* DSCP of IPv4/IPv6 */
	__TC_DDL_KEY_MAX
};

#define TC_DDL_KEY_MAX	(__TC_DDL_KEY_MAX - 1)

/* Class options (tc class change ... ddl ...) */
enum {
	TCA_DDL_CLASS_UNSPEC,
	TCA_DDL_CLASS_WEIGHT,	/* u32: the job's weight: its share in mode
				 * fair, its factor in the cluster key, the
				 * multiplier of its slice and quantum in the
				 * rotation modes
				 */
	TCA_DDL_CLASS_SIZE,	/* u64: the job's whole burst, bytes over all
				 * its hosts (keys of mode cluster); 0: not
				 * declared
				 */
	TCA_DDL_CLASS_PAD,
	TCA_DDL_CLASS_CGROUP,	/* u64: id of the cgroup (v2) whose sockets,
				 * and those of its descendants, are the
				 * job's packets; 0: none
				 */
	TCA_DDL_CLASS_ADDRS,	/* binary: struct in6_addr each (IPv4 as
				 * ::ffff:a.b.c.d): the addresses of the job's
				 * pods on this host, whose packets, by their
				 * source before NAT, are the job's; empty:
				 * none; at most TC_DDL_ADDRS_MAX.  A change
				 * replaces the whole set.
				 */
	__TCA_DDL_CLASS_MAX
};

#define TCA_DDL_CLASS_MAX	(__TCA_DDL_CLASS_MAX - 1)

/* Addresses of TCA_DDL_CLASS_ADDRS, per job class. */
#define TC_DDL_ADDRS_MAX	64

/* Buckets of the per-class burst completion histogram (log2 of us). */
#define TC_DDL_HIST_BUCKETS	24

/* Qdisc-wide counters (tc -s qdisc show). */
struct tc_ddl_qd_stats {
	__u64	drop_overlimit;	/* dropped because the queue was full */
	__u64	drop_change;	/* dropped when a change lowered the limit */
	__u64	drop_filter;	/* dropped by a filter action */
	__u64	rotations;	/* slice ends that moved green to another job */
	__u64	yields;		/* green handed on early by an idle green job */
	__u64	guard_runs;	/* packets sent by the starvation guard */
	__u64	bgshare_runs;	/* packets sent for the background share */
	__u64	cls_filter;	/* packets classified by a tc filter */
	__u64	cls_priority;	/* ... by skb->priority */
	__u64	cls_key;	/* ... by the built-in key */
	__u64	cls_background;	/* ... to the background by default */
	__u64	key_overflow;	/* keyed packets sent to the background: no class free */
	__u64	key_recycled;	/* idle key classes given a new key */
	__u32	green;		/* minor of the green job, 0 if none */
	__u32	keys_mapped;	/* job classes holding a key */
	/* Shaping */
	__u64	throttled_ns;	/* time the shaper held a backlog back */
	__u64	throttles;	/* times the shaper began to hold the queue */
	__u64	paced_pkts;	/* head packets that waited for the shaper */
	__u64	paced_bytes;	/* ... and their bytes */
	/* Standing-queue control (outside lead windows) */
	__u64	aqm_marks;	/* packets marked CE: queue above target */
	__u64	aqm_drops;	/* packets dropped: queue above target */
	/* Burst prediction */
	__u64	bursts;		/* job bursts seen */
	__u64	leads;		/* lead windows opened before a predicted burst */
	__u64	lead_ns;	/* time spent in lead windows */
	__u64	lead_marks;	/* packets marked CE in a lead window */
	__u64	lead_drops;	/* packets dropped in a lead window */
	__u64	pred_hits;	/* bursts that began inside their lead window */
	__u64	pred_misses;	/* lead windows that closed without the burst */
	__u64	target;		/* standing-queue target in force, bytes */
	__u32	lead_job;	/* minor of the job whose lead window is open, 0 */
	__u32	pad;
	/* Rotation */
	__u64	turn_ns;	/* length of the green job's turn in force */
	__u64	turns_forced;	/* turns ended while green still had packets */
	/* Fair order (mode fair): the per-job fair-sharing reference */
	__u64	vtime;		/* its virtual time, bytes per unit weight x 256 */
	__u64	tag_exts;	/* burst tags extended: a burst outgrew its size */
	__u32	fair_jobs;	/* bursts in progress in the reference */
	__u32	claimed;	/* job classes a filter or skb->priority chose:
				 * the key never takes them
				 */
	/* Cluster order (mode cluster) and the DSCP of the rank */
	__u64	epoch;		/* epoch of the shared clock at the last burst */
	__u64	cl_bursts;	/* bursts given a cluster key */
	__u64	cl_exts;	/* cluster keys moved on: a burst outgrew its size */
	__u64	dscp_marks;	/* packets whose DSCP was written */
	__u64	dscp_fails;	/* ... not written: the header was not writable */
	__u32	cl_first;	/* minor of the job first in the order, 0 */
	__u32	cl_jobs;	/* jobs in the cluster order (backlogged) */
	__u64	ack_runs;	/* job packets sent ahead of the order: their
				 * job held no data, only pure ACKs
				 */
	/* The shared clock, as this host keeps it */
	__u64	tai_off_ns;	/* CLOCK_TAI less CLOCK_REALTIME: the kernel's
				 * TAI offset (0: never set; never negative)
				 */
	__u64	deal;		/* the fabric's deal now (shuffle), else 0 */
	__u64	edge_bursts;	/* bursts keyed or marked within 1/16 of an
				 * epoch of the edge of their epoch or deal
				 */
	/* Classes bound to cgroups */
	__u64	cls_cgroup;	/* packets classified by their socket's cgroup */
	__u32	cgroups_bound;	/* job classes bound to a cgroup */
	__u32	pad3;
	/* Memory (skb truesize) */
	__u64	drop_overmemory; /* dropped to stay under memory_limit */
	__u32	memory_used;	/* bytes of memory queued now */
	__u32	memory_peak;	/* ... the most since the qdisc was created */
	/* Classes bound to addresses */
	__u64	cls_addr;	/* packets classified by their source address */
	__u32	addrs_bound;	/* addresses bound to job classes */
	__u32	pad4;
	/* The device's turn (share) */
	__u64	share_holds;	/* dequeues that waited for another queue's job */
	__u64	share_claims;	/* turns this queue took for one of its jobs */
	__u64	share_wakes;	/* times another queue woke it for the turn */
	__u32	share_queues;	/* qdiscs that share the turn, itself included;
				 * 0: share off
				 */
	__u32	share_job;	/* minor of the job that has the turn, 0 */
};

/* Per-class counters (tc -s class show). */
struct tc_ddl_cl_stats {
	__u64	green_ns;	/* time this class has been green */
	__u64	bytes_green;	/* bytes sent while green */
	__u64	bytes_yellow;	/* bytes sent while not green */
	__u64	greens;		/* times made green */
	__u64	yields;		/* times it yielded green */
	__u64	guard_runs;	/* packets sent for it by the starvation guard */
	__u32	key;		/* key value mapped to it (valid if keyed) */
	__u32	keyed;		/* 1 if the built-in key owns this class */
	/* Burst prediction */
	__u64	bursts;		/* bursts seen (backlogged after an idle gap) */
	__u64	period_ns;	/* learned time between burst starts, 0: none */
	__u64	burst_bytes;	/* learned bytes per burst */
	__u64	pred_hits;	/* bursts that began inside their lead window */
	__u64	pred_misses;	/* lead windows that closed without the burst */
	__u64	burst_backlog;	/* bytes queued in other classes at the last burst start */
	__u64	burst_backlog_max; /* ... the most at any burst start */
	__u64	burst_backlog_sum; /* ... summed over all bursts */
	__u64	ce_marks;	/* packets of this class marked CE */
	__u32	predicted;	/* 1 if the period is steady enough to predict */
	__u32	pad;
	/*
	 * Burst completion: from the burst's first packet queued to its last
	 * sent.  A burst is complete when its queue has stayed empty for the
	 * burst gap (or its job's next burst began).
	 */
	__u64	bursts_done;	/* completed bursts */
	__u64	burst_p50_us;	/* median completion time, estimated, us */
	__u64	burst_p99_us;	/* 99th percentile, estimated, us */
	__u64	burst_max_us;	/* longest completion time, us */
	__u64	burst_sum_us;	/* completion times summed, us */
	/* burst_hist[0]: under 1 us; [i]: 2^(i-1) .. 2^i - 1 us; the last
	 * bucket holds everything longer.
	 */
	__u32	burst_hist[TC_DDL_HIST_BUCKETS];
	/* Fair order: the current burst in the per-job reference */
	__u64	vstart;		/* virtual start tag (as the qdisc's vtime) */
	__u64	vfinish;	/* virtual finish tag: the lowest is served */
	__u64	seg_bytes;	/* bytes queued in the current burst */
	__u64	tag_exts;	/* times its burst outgrew its tag */
	/* Cluster order: the job's declared size and its current burst */
	__u64	size;		/* declared whole burst, bytes; 0: none */
	__u64	cl_key;		/* key of its burst: ns since the base, the
				 * lowest is served
				 */
	__u64	cl_allow;	/* bytes of the burst its key covers */
	__u64	dscp_marks;	/* packets of this class whose DSCP was written */
	__u32	cl_rot;		/* rotation rank: breaks ties of cl_key */
	__u32	rank;		/* its rank in the order now (0: first),
				 * at most TC_DDL_DSCP_MAX
				 */
	__u64	ack_runs;	/* packets sent for it ahead of the order: it
				 * held no data, only pure ACKs
				 */
	__u32	place;		/* the place its packets carry out (dscp): the
				 * index of their code point
				 */
	__u32	tier;		/* the tier of its declared size (tiers),
				 * from 1 for the smallest; 0: no tiers
				 */
	__u64	drop_overmemory; /* its packets dropped for memory_limit */
	__u32	memory_used;	/* bytes of memory its queue holds */
	__u32	pad3;
};

enum {
	TCA_DDL_XSTATS_QDISC,
	TCA_DDL_XSTATS_CLASS,
};

/* TCA_STATS_APP of the qdisc and of its classes. */
struct tc_ddl_xstats {
	__u32	type;		/* TCA_DDL_XSTATS_* */
	__u32	pad;
	union {
		struct tc_ddl_qd_stats	qdisc;
		struct tc_ddl_cl_stats	class;
	};
};

#endif /* _UAPI_LINUX_SCH_DDL_H */
