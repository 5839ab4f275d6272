// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit: a seeded random walk through the sch_ddl scheduling core
 * (ddl_core.h), driven the way the glue (sch_ddl_main.c) drives it, with
 * the core's invariants checked after every step.
 *
 * The simulated qdisc holds real FIFOs (packet lengths and enqueue times)
 * and calls the core in the glue's order: on enqueue classification
 * (ddl_claim() for a filter, ddl_key_class() for the built-in key), the
 * limit, the target (ddl_window(), ddl_aqm()), then ddl_arrived(); on
 * dequeue ddl_pace_hold(), ddl_pick(), ddl_served(), ddl_head_queued() if
 * packets are left, ddl_aqm_drained(); on change ddl_reconfigure() then the shrink of
 * ddl_shrink(); on a class change ddl_set_weight(); filters bind and
 * unbind; the statistics dumps (ddl_window(), ddl_settle_burst(), ...);
 * reset (ddl_quiesce() and the purge); and, since the number of jobs is
 * fixed for the life of an instance, a replace: destroy and a new
 * instance with another number of jobs.  The clock moves in small steps
 * and now and then jumps by milliseconds or seconds.  A few jobs burst
 * periodically, so that the predictor learns periods and opens lead
 * windows.
 *
 * Each seed is a KUnit parameter: a failure names its seed and step, and
 * the same seed replays the same walk.
 */

#include <kunit/test.h>

#include "compat.h"
#include <linux/prandom.h>
#include <linux/rbtree_augmented.h>

#include "ddl_kunit_core.h"

/*
 * Steps per seed: four seeds make a million on the fast kernel.  Under
 * KASAN (the debug kernel, which also has lockdep and friends) every
 * memory access is checked and a step costs many times more: a tenth of
 * the steps keeps that run short.
 */
#define DDL_Z_STEPS		(IS_ENABLED(CONFIG_KASAN) ? 25000U : 250000U)

#define DDL_Z_NIL		U32_MAX
#define DDL_Z_POOL		512U	/* packets: the largest limit we set */
#define DDL_Z_MTU		1514U	/* bytes, for the target's check */
#define DDL_Z_PERIODIC		4U	/* periodic jobs per instance, at most */
#define DDL_Z_BURST_PKTS	48U	/* packets per periodic burst, at most */
#define DDL_Z_BOUND_MAX		3U	/* filters bound to one class, at most */
#define DDL_Z_T0		1000000000ULL	/* ns: a clock well past boot */

/* Numbers of jobs an instance is created with: both bitmap levels. */
static const u32 ddl_z_jobs[] = { 1, 2, 3, 4, 5, 8, 8, 16, 16, 63, 64, 65, 130 };
#define DDL_Z_JOBS_MAX		130U

/* A queued packet; free ones are chained through @next. */
struct ddl_zpkt {
	u64	enq;
	u32	len;
	u32	next;
};

/* The FIFO of one class, and what the checks remember about it. */
struct ddl_zq {
	u32	head;
	u32	tail;
	u32	qlen;
	u32	data;	/* packets of DDL_BURST_PKT_MIN bytes or more */
	u64	bytes;
	u32	bound;	/* filters bound to it (ddl_bind() not undone) */
	u64	ref;	/* last activation, service or change of maxwait */
	u32	late;	/* picks since its guard deadline passed */
};

/* One job that bursts every @period. */
struct ddl_zper {
	u32	job;
	u32	pkts;
	u64	period;
	u64	next;
};

/*
 * The walk's qdisc.  Not ddl_sim, which counts packets per class for
 * tests that script each step and assert as they go: this one keeps every
 * packet (its length and enqueue time, for the guard's bound and
 * ddl_head_queued()) in one pool under the limit, drops and marks as the
 * target says, holds as the shaper says, replaces its instance with one of
 * another number of jobs, and records the first violation of a step
 * rather than asserting, so that a failure names its seed and step.
 */
struct ddl_zsim {
	struct kunit		*test;
	struct rnd_state	rnd;
	u32			seed;
	u64			step;
	struct ddl_sched	s;
	struct ddl_params	p;
	bool			live;
	u64			now;
	struct ddl_zq		*q;	/* DDL_Z_JOBS_MAX + 1 */
	struct ddl_zpkt		*pool;	/* DDL_Z_POOL */
	u32			free;
	u32			qlen;	/* packets queued, all classes */
	u64			sent;	/* bytes sent by this instance */
	u32			enq_pct; /* share of steps that enqueue */
	u32			nper;
	struct ddl_zper		per[DDL_Z_PERIODIC];
	const char		*err;	/* a check inside a step failed */
	char			msg[192];
	/* What the walk did, for the log: picks, holds, and sums over the
	 * instances of the core's counters.
	 */
	u64			picks;
	u64			holds;
	u64			instances;
	u64			guard_runs;
	u64			rotations;
	u64			yields;
	u64			bursts;
	u64			leads;
	u64			key_recycled;
	u64			tag_exts;
};

static __printf(2, 3) const char *ddl_z_fail(struct ddl_zsim *z,
					     const char *fmt, ...)
{
	va_list args;

	va_start(args, fmt);
	vsnprintf(z->msg, sizeof(z->msg), fmt, args);
	va_end(args);
	return z->msg;
}

/* Record the first failure found inside a step. */
static __printf(2, 3) void ddl_z_err(struct ddl_zsim *z, const char *fmt, ...)
{
	va_list args;

	if (z->err)
		return;
	va_start(args, fmt);
	vsnprintf(z->msg, sizeof(z->msg), fmt, args);
	va_end(args);
	z->err = z->msg;
}

/* Uniform in 0 .. @n - 1; @n > 0. */
static u32 ddl_z_rnd(struct ddl_zsim *z, u32 n)
{
	return ((u64)prandom_u32_state(&z->rnd) * n) >> 32;
}

/* True with probability 1 / @n. */
static bool ddl_z_one_in(struct ddl_zsim *z, u32 n)
{
	return !ddl_z_rnd(z, n);
}

/* Configuration */

/* A rate from 1 kbit/s to 1 Tbit/s, most of them 1 Mbit/s .. 100 Gbit/s. */
static u64 ddl_z_rate(struct ddl_zsim *z)
{
	u64 rate;

	if (ddl_z_one_in(z, 16))
		return DDL_RATE_MIN + ddl_z_rnd(z, 125000);
	if (ddl_z_one_in(z, 16))
		return DDL_RATE_MAX - ddl_z_rnd(z, 1000);
	rate = 125000ULL << ddl_z_rnd(z, 17);	/* 1 Mbit/s .. 65 Gbit/s */
	return rate + ddl_z_rnd(z, (u32)min_t(u64, rate, U32_MAX));
}

/*
 * A random configuration that ddl_parse_opt() accepts, for an instance
 * of @jobs jobs; the limit at most DDL_Z_POOL.
 */
static void ddl_z_params(struct ddl_zsim *z, struct ddl_params *p, u32 jobs)
{
	u32 lo, cap;

	ddl_params_init(p);
	p->jobs = jobs;
	p->limit = ddl_z_one_in(z, 8) ? 1 + ddl_z_rnd(z, 8) :
					1 + ddl_z_rnd(z, DDL_Z_POOL);
	p->mode = ddl_z_rnd(z, TC_DDL_MODE_MAX + 1);

	if (ddl_z_rnd(z, 2))
		p->slice_us = TC_DDL_AUTO;
	else if (ddl_z_one_in(z, 16))
		p->slice_us = DDL_SLICE_MIN +
			      ddl_z_rnd(z, DDL_SLICE_MAX - DDL_SLICE_MIN + 1);
	else
		p->slice_us = DDL_SLICE_MIN + ddl_z_rnd(z, 20000);

	switch (ddl_z_rnd(z, 3)) {
	case 0:
		p->yield_us = TC_DDL_AUTO;
		break;
	case 1:
		p->yield_us = 0;
		break;
	default:
		/* Below an explicit slice. */
		p->yield_us = ddl_z_rnd(z, p->slice_us == TC_DDL_AUTO ?
					   5000 : p->slice_us);
		break;
	}

	/* At least an explicit slice; mostly short, so that the guard runs. */
	lo = p->slice_us == TC_DDL_AUTO ? DDL_MAXWAIT_MIN :
					  max(p->slice_us, DDL_MAXWAIT_MIN);
	if (ddl_z_one_in(z, 16))
		p->maxwait_us = lo + ddl_z_rnd(z, DDL_MAXWAIT_MAX - lo + 1);
	else
		p->maxwait_us = min(lo + ddl_z_rnd(z, 200000), DDL_MAXWAIT_MAX);

	p->bgshare = ddl_z_rnd(z, DDL_BGSHARE_MAX + 1);
	p->key = ddl_z_rnd(z, TC_DDL_KEY_MAX + 1);
	p->keyttl_ms = ddl_z_rnd(z, 4) ? ddl_z_rnd(z, 100) :
					 ddl_z_rnd(z, DDL_KEYTTL_MAX + 1);
	p->rate = ddl_z_rnd(z, 2) ? ddl_z_rate(z) : 0;
	p->burst = p->rate && ddl_z_rnd(z, 2) ?
		   ddl_z_rnd(z, DDL_BURST_MAX + 1) : 0;
	p->interval_us = DDL_INTERVAL_MIN +
			 ddl_z_rnd(z, ddl_z_rnd(z, 2) ? 20000 :
					 DDL_INTERVAL_MAX - DDL_INTERVAL_MIN + 1);
	p->ecn = ddl_z_rnd(z, 2);
	p->maxperiod_us = ddl_z_rnd(z, 2) ? DDL_MAXPERIOD_DEFAULT :
			  DDL_MAXPERIOD_MIN +
			  ddl_z_rnd(z, DDL_MAXPERIOD_MAX - DDL_MAXPERIOD_MIN + 1);

	/*
	 * The default target (auto), none, or one given in bytes or in time,
	 * at most limit x MTU, at least 1.
	 */
	switch (ddl_z_rnd(z, 4)) {
	case 1:
		p->target = 1 + ddl_z_rnd(z, p->limit * DDL_Z_MTU);
		p->target_us = 0;
		break;
	case 2:
		p->target_us = p->rate ? 1 + ddl_z_rnd(z, DDL_TARGET_TIME_MAX) :
					 0;
		break;
	case 3:
		p->target_us = 0;
		break;
	}
	ddl_params_derive(p);
	if (p->target_us && p->target_us != TC_DDL_AUTO &&
	    (!p->target_bytes || p->target_bytes > (u64)p->limit * DDL_Z_MTU)) {
		p->target_us = 0;
		ddl_params_derive(p);
	}

	/* A lead needs a target and must be below half of maxperiod. */
	if (p->target_bytes && ddl_z_rnd(z, 2)) {
		cap = min(DDL_LEAD_MAX, (p->maxperiod_us - 1) / 2);
		/* Mostly short enough for the periodic jobs to be predicted. */
		p->lead_us = ddl_z_rnd(z, 4) ? 1 + ddl_z_rnd(z, min(cap, 2000U)) :
					       1 + ddl_z_rnd(z, cap);
		ddl_params_derive(p);
	}
}

/* The simulated FIFOs */

static bool ddl_z_data(u32 idx, const struct ddl_sched *s, u32 len)
{
	return idx != DDL_BG(s) && len >= DDL_BURST_PKT_MIN;
}

/* The guard's clock of class @idx restarts: activation, service, change. */
static void ddl_z_fresh(struct ddl_zsim *z, u32 idx)
{
	z->q[idx].ref = z->now;
	z->q[idx].late = 0;
}

static void ddl_z_push(struct ddl_zsim *z, u32 idx, u32 len)
{
	struct ddl_zq *q = &z->q[idx];
	u32 n = z->free;

	z->free = z->pool[n].next;
	z->pool[n].enq = z->now;
	z->pool[n].len = len;
	z->pool[n].next = DDL_Z_NIL;
	if (q->qlen)
		z->pool[q->tail].next = n;
	else
		q->head = n;
	q->tail = n;
	q->qlen++;
	q->bytes += len;
	if (ddl_z_data(idx, &z->s, len))
		q->data++;
	z->qlen++;
}

/* Take the head packet of class @idx off its FIFO; returns its length. */
static u32 ddl_z_pop(struct ddl_zsim *z, u32 idx)
{
	struct ddl_zq *q = &z->q[idx];
	u32 n = q->head, len = z->pool[n].len;

	q->head = z->pool[n].next;
	z->pool[n].next = z->free;
	z->free = n;
	q->qlen--;
	q->bytes -= len;
	if (ddl_z_data(idx, &z->s, len))
		q->data--;
	z->qlen--;
	return len;
}

static u64 ddl_z_head_enq(const struct ddl_zsim *z, u32 idx)
{
	return z->pool[z->q[idx].head].enq;
}

/* The glue's operations */

/* ddl_classify(): a filter, skb->priority, the built-in key, background. */
static u32 ddl_z_classify(struct ddl_zsim *z)
{
	struct ddl_sched *s = &z->s;
	u32 jobs = s->jobs, r = ddl_z_rnd(z, 100), idx, key;

	if (r < 30) {
		/*
		 * A filter or skb->priority: the lower half of the job
		 * classes (claimed for good) or the background.  The key
		 * keeps the upper half.
		 */
		idx = ddl_z_rnd(z, jobs / 2 + 1);
		if (idx == jobs / 2)
			return DDL_BG(s);
		ddl_claim(&s->keymap, idx);
		return idx;
	}
	if (r < 85 && z->p.key != TC_DDL_KEY_NONE) {
		key = 1 + ddl_z_rnd(z, 2 * jobs + 2);
		idx = ddl_key_class(s, &z->p, key, z->now);
		if (idx == DDL_NONE)
			return DDL_BG(s);
		if (idx >= jobs || !s->cls[idx].keymap.keyed || s->cls[idx].keymap.key != key ||
		    s->cls[idx].keymap.bound || test_bit(idx, s->keymap.claimed_bm))
			ddl_z_err(z, "key %u got class %u (keyed %d key %u bound %u claimed %d)",
				  key, idx, idx < jobs && s->cls[idx].keymap.keyed,
				  idx < jobs ? s->cls[idx].keymap.key : 0,
				  idx < jobs ? s->cls[idx].keymap.bound : 0,
				  idx < jobs && test_bit(idx, s->keymap.claimed_bm));
		return idx < jobs ? idx : DDL_BG(s);
	}
	return DDL_BG(s);
}

/* ddl_enqueue(): a packet of @len bytes for class @idx. */
static void ddl_z_enqueue(struct ddl_zsim *z, u32 idx, u32 len)
{
	struct ddl_sched *s = &z->s;
	struct ddl_zq *q = &z->q[idx];
	enum ddl_signal sig;

	if (!ddl_admit(&z->p, z->qlen))
		return;
	if (z->p.target_bytes) {
		ddl_window(&s->pred, &z->p, z->now);
		if (idx == DDL_BG(s) && q->qlen) {
			sig = ddl_aqm(&s->pace, &z->p, q->bytes, len,
				      ddl_lead_open(&s->pred), z->now);
			/* An ECN-capable packet is marked, any other dropped. */
			if (sig != DDL_SIG_NONE &&
			    !(z->p.ecn && ddl_z_rnd(z, 2)))
				return;
		}
	}
	if (z->free == DDL_Z_NIL) {
		ddl_z_err(z, "pool empty: qlen %u, limit %u", z->qlen,
			  z->p.limit);
		return;
	}
	ddl_z_push(z, idx, len);
	if (q->qlen == 1)
		ddl_z_fresh(z, idx);
	ddl_arrived(s, &z->p, idx, len, z->now);
}

static u32 ddl_z_len(struct ddl_zsim *z)
{
	u32 r = ddl_z_rnd(z, 100);

	if (r < 20)		/* pure ACKs: no data */
		return 40 + ddl_z_rnd(z, DDL_BURST_PKT_MIN - 40);
	if (r < 97)
		return DDL_BURST_PKT_MIN +
		       ddl_z_rnd(z, DDL_Z_MTU - DDL_BURST_PKT_MIN + 1);
	return DDL_Z_MTU + 1 + ddl_z_rnd(z, 65536 - DDL_Z_MTU);	/* GSO */
}

/*
 * The starvation guard's bound, before a pick.  ddl_pick() looks at the
 * head of the waiters, a list ordered by wait_since (activation, service,
 * or the guard's last look: each sets it to now and moves the class to the
 * tail), once now - wait_since > look = maxwait / DDL_GUARD_SPLIT, and
 * serves it if its head (enqueued at h) is older than maxwait - look.
 *
 * Let ref be the class's last activation or service, or the last change of
 * maxwait, whichever is later, and D = max(h + maxwait, ref + look).  The
 * class's wait_since is then at most D - look: it is ref or earlier, or a
 * look after ref that did not serve it, at t - h <= maxwait - look.  So
 * every pick after D finds the head of the waiters (wait_since no later
 * than the class's) due for a look and takes it off the front: the class,
 * at most J places from the front (J + 1 classes), is at the front after
 * at most J such picks, and the next serves it, t - h > maxwait >
 * maxwait - look.  That is the documented bound, maxwait + (J + 1) packet
 * times, in picks: on a busy link the guard serves a head at most J + 1
 * picks after D.  We allow exactly that; picks held back by the shaper do
 * not count (they are not picks).
 */
static void ddl_z_guard_before(struct ddl_zsim *z)
{
	u64 maxwait = (u64)z->p.maxwait_us * NSEC_PER_USEC_U64;
	u64 look = maxwait / DDL_GUARD_SPLIT, d;
	u32 i;

	for (i = 0; i <= z->s.jobs; i++) {
		struct ddl_zq *q = &z->q[i];

		if (!q->qlen)
			continue;
		d = max(ddl_z_head_enq(z, i) + maxwait, q->ref + look);
		if (z->now > d)
			q->late++;
	}
}

/* After the pick of @idx: a class past J + 1 picks after D was missed. */
static void ddl_z_guard_after(struct ddl_zsim *z, u32 idx)
{
	u32 i, bound = z->s.jobs + 1;

	for (i = 0; i <= z->s.jobs; i++) {
		if (i == idx || !z->q[i].qlen || z->q[i].late < bound)
			continue;
		ddl_z_err(z, "guard: class %u (head queued %llu ns ago, maxwait %u us) not served %u picks after its deadline; picked %u",
			  i, z->now - ddl_z_head_enq(z, i), z->p.maxwait_us,
			  z->q[i].late, idx);
		return;
	}
}

/* What ddl_pick() said must fit what it chose. */
static void ddl_z_check_pick(struct ddl_zsim *z, u32 idx,
			     enum ddl_reason reason)
{
	struct ddl_sched *s = &z->s;
	u32 bg = DDL_BG(s);

	if (idx == DDL_NONE) {
		ddl_z_err(z, "ddl_pick() chose none with %u packets queued",
			  z->qlen);
		return;
	}
	if (idx > bg || !z->q[idx].qlen) {
		ddl_z_err(z, "ddl_pick() chose empty class %u (reason %d)",
			  idx, reason);
		return;
	}
	switch (reason) {
	case DDL_R_GUARD:
		break;
	case DDL_R_BGSHARE:
		if (idx != bg || s->bg_credit <= 0)
			ddl_z_err(z, "bgshare pick of %u, credit %lld", idx,
				  s->bg_credit);
		break;
	case DDL_R_ACK:
		if (idx == bg || z->q[idx].data || s->ack_credit <= 0)
			ddl_z_err(z, "ACK lane pick of %u: %u data packets, credit %lld",
				  idx, idx == bg ? 0 : z->q[idx].data,
				  s->ack_credit);
		break;
	case DDL_R_GREEN:
		if (idx != s->green)
			ddl_z_err(z, "green pick of %u, green is %u", idx,
				  s->green);
		else if (z->p.mode == TC_DDL_MODE_FAIR &&
			 idx != ddl_fair_first(s))
			ddl_z_err(z, "mode fair: green %u, first tag %u", idx,
				  ddl_fair_first(s));
		break;
	case DDL_R_YELLOW:
		if (idx == bg || idx == s->green ||
		    z->p.mode == TC_DDL_MODE_FAIR)
			ddl_z_err(z, "yellow pick of %u, green %u, mode %u",
				  idx, s->green, z->p.mode);
		break;
	case DDL_R_BACKGROUND:
		if (idx != bg || s->bm_top)
			ddl_z_err(z, "background pick of %u with jobs backlogged",
				  idx);
		break;
	default:
		ddl_z_err(z, "ddl_pick() gave reason %d", reason);
		break;
	}
}

/* ddl_dequeue() */
static void ddl_z_dequeue(struct ddl_zsim *z)
{
	struct ddl_sched *s = &z->s;
	enum ddl_reason reason;
	u32 idx, len;

	if (!z->qlen)
		return;
	if (ddl_pace_hold(&s->pace, &z->p, z->now)) {
		z->holds++;
		if (!z->p.rate || z->now >= s->pace.next || !s->pace.throttled_since)
			ddl_z_err(z, "shaper holds at %llu, next %llu, rate %llu",
				  z->now, s->pace.next, z->p.rate);
		return;
	}
	if (z->p.rate && z->now < s->pace.next) {
		ddl_z_err(z, "shaper lets go at %llu before %llu", z->now,
			  s->pace.next);
		return;
	}

	ddl_z_guard_before(z);
	idx = ddl_pick(s, &z->p, z->now, &reason);
	z->picks++;
	ddl_z_check_pick(z, idx, reason);
	if (z->err)
		return;
	ddl_z_guard_after(z, idx);

	len = ddl_z_pop(z, idx);
	ddl_served(s, &z->p, idx, reason, len, !z->q[idx].qlen, z->now);
	if (z->q[idx].qlen)
		ddl_head_queued(s, idx, ddl_z_head_enq(z, idx));
	ddl_z_fresh(z, idx);
	z->sent += len;
	if (z->p.target_bytes && idx == DDL_BG(s))
		ddl_aqm_drained(&s->pace, &z->p, z->q[idx].bytes);
}

/* ddl_shrink(): drop from the heads, background first, to the limit. */
static void ddl_z_shrink(struct ddl_zsim *z)
{
	struct ddl_sched *s = &z->s;
	u32 excess, i, len;

	excess = ddl_excess(&z->p, z->qlen);
	for (i = DDL_BG(s) + 1; excess && i-- > 0;) {
		struct ddl_zq *q = &z->q[i];

		while (excess && q->qlen) {
			len = ddl_z_pop(z, i);
			ddl_dropped(s, i, len, z->now);
			excess--;
		}
		if (!q->qlen) {
			ddl_deactivate(s, i, z->now);
		} else {
			ddl_head_queued(s, i, ddl_z_head_enq(z, i));
			q->late = 0;
		}
	}
}

/* ddl_change(): a new configuration, the same jobs. */
static void ddl_z_change(struct ddl_zsim *z)
{
	struct ddl_params old = z->p, p;
	u32 i;

	ddl_z_params(z, &p, z->s.jobs);
	z->p = p;
	ddl_reconfigure(&z->s, &old, &z->p, z->now);
	if (old.maxwait_us != p.maxwait_us)
		for (i = 0; i <= z->s.jobs; i++)
			ddl_z_fresh(z, i);
	ddl_z_shrink(z);
}

/* ddl_purge(): every class emptied (reset, destroy). */
static void ddl_z_purge(struct ddl_zsim *z)
{
	u32 i;

	for (i = 0; i <= z->s.jobs; i++) {
		if (!z->q[i].qlen)
			continue;
		while (z->q[i].qlen)	/* bounded by DDL_Z_POOL */
			ddl_z_pop(z, i);
		ddl_deactivate(&z->s, i, z->now);
	}
}

/* The statistics dumps: qdisc, all jobs settled, one class. */
static void ddl_z_stats(struct ddl_zsim *z)
{
	struct ddl_sched *s = &z->s;
	const struct ddl_job_log *l;
	u32 i, idx;

	ddl_window(&s->pred, &z->p, z->now);
	if (ddl_lead_ns(&s->pred, z->now) < s->pred.lead_ns)
		ddl_z_err(z, "lead_ns went back");
	if (s->green != DDL_NONE && z->p.mode != TC_DDL_MODE_FAIR)
		ddl_turn_ns(s, &z->p, s->green);
	for (i = 0; i < s->jobs; i++)
		ddl_settle_burst(s, &z->p, i, z->now);

	idx = ddl_z_rnd(z, s->jobs + 1);
	if (ddl_green_ns(s, idx, z->now) < s->cls[idx].green_ns)
		ddl_z_err(z, "green_ns of %u went back", idx);
	if (idx == DDL_BG(s))
		return;
	ddl_settle_burst(s, &z->p, idx, z->now);
	l = &s->log.jlog[idx];
	if (ddl_hist_quantile(l->hist, l->max_us, 990) > l->max_us)
		ddl_z_err(z, "p99 of %u above its max", idx);
}

/* A filter binds to or unbinds from a class (the background included). */
static void ddl_z_bind(struct ddl_zsim *z)
{
	u32 idx = ddl_z_rnd(z, z->s.jobs + 1);
	struct ddl_zq *q = &z->q[idx];

	if (q->bound && (q->bound == DDL_Z_BOUND_MAX || ddl_z_rnd(z, 2))) {
		ddl_unbind(&z->s.keymap, idx);
		q->bound--;
	} else {
		ddl_bind(&z->s.keymap, idx);
		q->bound++;
	}
}

/* Jobs that burst periodically, from the filters' half of the classes. */
static void ddl_z_periodic_new(struct ddl_zsim *z)
{
	u32 i, half = z->s.jobs / 2;

	z->nper = half ? ddl_z_rnd(z, DDL_Z_PERIODIC + 1) : 0;
	for (i = 0; i < z->nper; i++) {
		struct ddl_zper *b = &z->per[i];

		b->job = ddl_z_rnd(z, half);
		b->pkts = 1 + ddl_z_rnd(z, DDL_Z_BURST_PKTS);
		b->period = (2 + ddl_z_rnd(z, 60)) * NSEC_PER_MSEC_U64;
		b->next = z->now + ddl_z_rnd(z, (u32)b->period);
	}
}

static void ddl_z_periodic(struct ddl_zsim *z)
{
	u32 i, k;

	for (i = 0; i < z->nper; i++) {
		struct ddl_zper *b = &z->per[i];

		if (z->now < b->next)
			continue;
		ddl_claim(&z->s.keymap, b->job);
		for (k = 0; k < b->pkts; k++)
			ddl_z_enqueue(z, b->job, DDL_Z_MTU);
		b->next += b->period;
		if (b->next <= z->now)	/* the clock jumped */
			b->next = z->now + b->period;
	}
}

/* ddl_init(): a new instance with a random number of jobs. */
static int ddl_z_create(struct ddl_zsim *z)
{
	u32 jobs = ddl_z_jobs[ddl_z_rnd(z, ARRAY_SIZE(ddl_z_jobs))];
	int err;

	memset(&z->s, 0, sizeof(z->s));
	ddl_z_params(z, &z->p, jobs);
	err = ddl_sched_init(&z->s, jobs);
	if (err)
		return err;
	z->live = true;
	z->sent = 0;
	z->instances++;
	ddl_z_periodic_new(z);
	return 0;
}

/* ddl_destroy(): filters unbind, the classes are purged, state freed. */
static void ddl_z_destroy(struct ddl_zsim *z)
{
	u32 i;

	if (!z->live)
		return;
	for (i = 0; i <= z->s.jobs; i++) {
		while (z->q[i].bound) {	/* at most DDL_Z_BOUND_MAX */
			ddl_unbind(&z->s.keymap, i);
			z->q[i].bound--;
		}
	}
	ddl_z_purge(z);
	z->guard_runs += z->s.guard_runs;
	z->rotations += z->s.rotations;
	z->yields += z->s.yields;
	z->bursts += z->s.burst.count;
	z->leads += z->s.pred.leads;
	z->key_recycled += z->s.keymap.recycled;
	z->tag_exts += z->s.fair.tag_exts;
	ddl_sched_destroy(&z->s);
	z->live = false;
}

/* Invariants: each returns a description of the first violation, or NULL */

/* The backlogged bitmap is exactly the non-empty job FIFOs. */
static const char *ddl_z_check_bitmap(struct ddl_zsim *z)
{
	const struct ddl_sched *s = &z->s;
	u32 i, w, words = DIV_ROUND_UP(s->jobs, 64), from, want;
	u64 top = 0;

	for (i = 0; i <= s->jobs; i++) {
		bool full = z->q[i].qlen;

		if (s->cls[i].backlogged != full)
			return ddl_z_fail(z, "class %u: backlogged %d, %u queued",
					  i, s->cls[i].backlogged, z->q[i].qlen);
		if (i < s->jobs && !!(s->bm[i / 64] & BIT_ULL(i % 64)) != full)
			return ddl_z_fail(z, "job %u: bitmap bit %d, %u queued",
					  i, !full, z->q[i].qlen);
	}
	for (w = 0; w < ARRAY_SIZE(s->bm); w++) {
		if (w >= words && s->bm[w])
			return ddl_z_fail(z, "bitmap word %u set past %u jobs",
					  w, s->jobs);
		if (w == words - 1 && s->jobs % 64 &&
		    s->bm[w] & ~(BIT_ULL(s->jobs % 64) - 1))
			return ddl_z_fail(z, "bitmap bits set past %u jobs",
					  s->jobs);
		if (s->bm[w])
			top |= BIT_ULL(w);
	}
	if (s->bm_top != top)
		return ddl_z_fail(z, "bm_top %llx, words non-zero %llx",
				  s->bm_top, top);

	/* ddl_bm_next() from a random place against a plain search. */
	from = ddl_z_rnd(z, s->jobs + 1);
	want = DDL_NONE;
	for (i = 0; i < s->jobs && want == DDL_NONE; i++)
		if (z->q[(from + i) % s->jobs].qlen)
			want = (from + i) % s->jobs;
	if (ddl_bm_next(s, from) != want)
		return ddl_z_fail(z, "ddl_bm_next(%u) = %u, want %u", from,
				  ddl_bm_next(s, from), want);
	return NULL;
}

/* A list's links agree both ways, for at most @max entries. */
static const char *ddl_z_list(struct ddl_zsim *z, const char *name,
			      const struct list_head *head, u32 max, u32 *n)
{
	const struct list_head *pos = head;

	for (*n = 0; *n <= max; (*n)++) {
		if (pos->next->prev != pos)
			return ddl_z_fail(z, "%s: broken link after entry %u",
					  name, *n);
		pos = pos->next;
		if (pos == head)
			return NULL;
	}
	return ddl_z_fail(z, "%s: more than %u entries", name, max);
}

/* A class pointer from a list or tree must be one of ours. */
static bool ddl_z_ours(const struct ddl_sched *s, const struct ddl_cls *c,
		       bool bg)
{
	return c >= s->cls && c < s->cls + s->jobs + bg;
}

/*
 * The waiters are the backlogged classes by wait_since; the DRR ring the
 * backlogged jobs; the idle list the keyed empty jobs by idle_since.
 */
static const char *ddl_z_check_lists(struct ddl_zsim *z)
{
	const struct ddl_sched *s = &z->s;
	const struct ddl_cls *c, *prev = NULL;
	u32 i, n, full = 0, jobs_full = 0, idle = 0;
	const char *err;

	for (i = 0; i <= s->jobs; i++) {
		c = &s->cls[i];
		if (!z->q[i].qlen) {
			if (!list_empty(&c->wait_node) ||
			    !list_empty(&c->rr_node))
				return ddl_z_fail(z, "empty class %u on waiters or rr",
						  i);
		} else {
			full++;
			if (i < s->jobs)
				jobs_full++;
			if (c->head_since != ddl_z_head_enq(z, i))
				return ddl_z_fail(z, "class %u: head_since %llu, head queued %llu",
						  i, c->head_since,
						  ddl_z_head_enq(z, i));
		}
		if (i < s->jobs && c->keymap.keyed && !c->backlogged)
			idle++;
		if ((i == s->jobs || !c->keymap.keyed || c->backlogged) &&
		    !list_empty(&c->keymap.idle_node))
			return ddl_z_fail(z, "class %u on the idle list", i);
	}

	err = ddl_z_list(z, "waiters", &s->waiters, s->jobs + 1, &n);
	if (err)
		return err;
	if (n != full)
		return ddl_z_fail(z, "%u waiters, %u classes backlogged", n,
				  full);
	list_for_each_entry(c, &s->waiters, wait_node) {
		if (!ddl_z_ours(s, c, true) || !c->backlogged)
			return ddl_z_fail(z, "waiter %ld not backlogged",
					  (long)(c - s->cls));
		if (c->wait_since > z->now ||
		    (prev && c->wait_since < prev->wait_since))
			return ddl_z_fail(z, "waiters out of order at %ld: %llu after %llu",
					  (long)(c - s->cls), c->wait_since,
					  prev ? prev->wait_since : 0);
		prev = c;
	}

	err = ddl_z_list(z, "rr", &s->rr, s->jobs, &n);
	if (err)
		return err;
	if (n != jobs_full)
		return ddl_z_fail(z, "%u on rr, %u jobs backlogged", n,
				  jobs_full);
	list_for_each_entry(c, &s->rr, rr_node)
		if (!ddl_z_ours(s, c, false) || !c->backlogged)
			return ddl_z_fail(z, "rr entry %ld not a backlogged job",
					  (long)(c - s->cls));

	err = ddl_z_list(z, "idle", &s->keymap.idle, s->jobs, &n);
	if (err)
		return err;
	if (n != idle)
		return ddl_z_fail(z, "%u on idle, %u keyed empty jobs", n, idle);
	prev = NULL;
	list_for_each_entry(c, &s->keymap.idle, keymap.idle_node) {
		if (!ddl_z_ours(s, c, false))
			return ddl_z_fail(z, "idle entry not a job");
		if (prev && c->keymap.idle_since < prev->keymap.idle_since)
			return ddl_z_fail(z, "idle list out of order at %ld",
					  (long)(c - s->cls));
		prev = c;
	}
	return NULL;
}

/*
 * The shape of a red-black tree: parent links, a black root, no red node
 * with a red child, the same number of black nodes on every path; and the
 * cached leftmost.  Its size in *@n, at most @max.
 */
static const char *ddl_z_rb(struct ddl_zsim *z, const char *name,
			    const struct rb_root_cached *root, u32 max, u32 *n)
{
	const struct rb_node *node, *up, *kid[2];
	u32 k, depth, black, height = 0;

	*n = 0;
	node = root->rb_root.rb_node;
	if (node && (rb_parent(node) || !rb_is_black(node)))
		return ddl_z_fail(z, "%s: root has a parent or is red", name);
	if (root->rb_leftmost != rb_first(&root->rb_root))
		return ddl_z_fail(z, "%s: cached leftmost is not the first",
				  name);
	for (node = rb_first(&root->rb_root); node; node = rb_next(node)) {
		if (++*n > max)
			return ddl_z_fail(z, "%s: more than %u nodes", name, max);
		kid[0] = node->rb_left;
		kid[1] = node->rb_right;
		for (k = 0; k < 2; k++) {
			if (!kid[k])
				continue;
			if (rb_parent(kid[k]) != node)
				return ddl_z_fail(z, "%s: bad parent link", name);
			if (rb_is_red(node) && rb_is_red(kid[k]))
				return ddl_z_fail(z, "%s: red node with a red child",
						  name);
		}
		if (kid[0] && kid[1])
			continue;
		/* A node with a leaf below: count the blacks to the root. */
		black = 0;
		up = node;
		for (depth = 0; up && depth < 2 * 64; depth++) {
			black += rb_is_black(up);
			up = rb_parent(up);
		}
		if (up)
			return ddl_z_fail(z, "%s: too deep", name);
		if (height && black != height)
			return ddl_z_fail(z, "%s: black heights %u and %u",
					  name, height, black);
		height = black;
	}
	return NULL;
}

/* The job whose place in fair set @k (0: order, 1: gps) is @l. */
static const struct ddl_cls *ddl_z_set_job(const union ddl_fair_link *l,
					   int k)
{
	return k ? container_of(l, struct ddl_cls, fair.gps_node) :
		   container_of(l, struct ddl_cls, fair.node);
}

/*
 * A fair set (0: the order, 1: the reference's jobs): its tree's shape,
 * each of its tree and its FIFO in the order of the tags, each job marked
 * where it is, and the head the first of the two, the FIFO's of equals.
 * Its size in *@n, the sum of its jobs' weights in *@weight; in the
 * reference every tag is beyond V.
 */
static const char *ddl_z_fair_set(struct ddl_zsim *z, const char *name,
				  const struct ddl_fair_set *set, int k,
				  u32 *n, u32 *weight)
{
	const struct ddl_sched *s = &z->s;
	const struct ddl_cls *c, *prev, *first[2] = { NULL, NULL };
	const union ddl_fair_link *l;
	const struct list_head *e;
	struct rb_node *node;
	const char *err;
	u32 m = 0, sum = 0;

	err = ddl_z_rb(z, name, &set->tree, s->jobs, n);
	if (err)
		return err;
	if (set->tree_last != rb_last(&set->tree.rb_root))
		return ddl_z_fail(z, "%s: tree_last is not the last node", name);
	prev = NULL;
	for (node = rb_first(&set->tree.rb_root); node; node = rb_next(node)) {
		c = ddl_z_set_job(container_of(node, union ddl_fair_link, rb),
				  k);
		if (!ddl_z_ours(s, c, false))
			return ddl_z_fail(z, "%s: not a job", name);
		if (c->fair.in_fifo[k])
			return ddl_z_fail(z, "%s: job %ld in the tree, marked in the FIFO",
					  name, (long)(c - s->cls));
		if (prev && ddl_v_before(c->fair.vfinish, prev->fair.vfinish))
			return ddl_z_fail(z, "%s: %ld (%llu) after %ld (%llu)",
					  name, (long)(c - s->cls),
					  c->fair.vfinish,
					  (long)(prev - s->cls),
					  prev->fair.vfinish);
		if (k && !ddl_v_before(s->fair.vtime, c->fair.vfinish))
			return ddl_z_fail(z, "gps: job %ld finished (%llu) at vtime %llu",
					  (long)(c - s->cls), c->fair.vfinish,
					  s->fair.vtime);
		first[1] = first[1] ?: c;
		sum += c->weight;
		prev = c;
	}
	prev = NULL;
	/* Bounded: a list longer than the jobs fails. */
	for (e = set->fifo.next; e != &set->fifo; e = e->next) {
		if (++m > s->jobs)
			return ddl_z_fail(z, "%s: FIFO longer than the jobs", name);
		l = container_of(e, union ddl_fair_link, fifo);
		c = ddl_z_set_job(l, k);
		if (!ddl_z_ours(s, c, false))
			return ddl_z_fail(z, "%s: FIFO entry not a job", name);
		if (!c->fair.in_fifo[k] || RB_EMPTY_NODE(&l->rb))
			return ddl_z_fail(z, "%s: job %ld in the FIFO, not marked",
					  name, (long)(c - s->cls));
		if (prev && ddl_v_before(c->fair.vfinish, prev->fair.vfinish))
			return ddl_z_fail(z, "%s: FIFO out of order at %ld",
					  name, (long)(c - s->cls));
		if (k && !ddl_v_before(s->fair.vtime, c->fair.vfinish))
			return ddl_z_fail(z, "gps: job %ld finished (%llu) at vtime %llu",
					  (long)(c - s->cls), c->fair.vfinish,
					  s->fair.vtime);
		first[0] = first[0] ?: c;
		sum += c->weight;
		prev = c;
	}
	*n += m;
	if (*n > s->jobs)
		return ddl_z_fail(z, "%s: %u jobs", name, *n);
	if (first[0] && first[1] &&
	    ddl_v_before(first[1]->fair.vfinish, first[0]->fair.vfinish))
		first[0] = first[1];
	c = first[0] ?: first[1];
	if ((c ? &c->fair : NULL) != set->head)
		return ddl_z_fail(z, "%s: head is not the first job", name);
	if (weight)
		*weight = sum;
	return NULL;
}

/* The fair order, the fair reference and the predicted jobs. */
static const char *ddl_z_check_trees(struct ddl_zsim *z)
{
	const struct ddl_sched *s = &z->s;
	const struct ddl_cls *c, *prev;
	struct rb_node *node;
	u32 i, n, jobs_full = 0, weight = 0, periodic = 0;
	const struct ddl_pred_cls *pc;
	const char *err;

	for (i = 0; i < s->jobs; i++) {
		if (RB_EMPTY_NODE(&s->cls[i].fair.node.rb) == !!z->q[i].qlen)
			return ddl_z_fail(z, "job %u: in fair %d, %u queued", i,
					  !RB_EMPTY_NODE(&s->cls[i].fair.node.rb),
					  z->q[i].qlen);
		jobs_full += !!z->q[i].qlen;
		if (s->cls[i].pred.periodic && !s->cls[i].pred.predicted)
			return ddl_z_fail(z, "job %u periodic, not predicted",
					  i);
		if (!s->pred.fifo_only &&
		    RB_EMPTY_NODE(&s->cls[i].pred.node) == s->cls[i].pred.periodic)
			return ddl_z_fail(z, "job %u: periodic %d, in the tree %d",
					  i, s->cls[i].pred.periodic,
					  !RB_EMPTY_NODE(&s->cls[i].pred.node));
		periodic += s->cls[i].pred.periodic;
	}

	err = ddl_z_fair_set(z, "fair", &s->fair.order, 0, &n, NULL);
	if (err)
		return err;
	if (n != jobs_full)
		return ddl_z_fail(z, "%u in fair, %u jobs backlogged", n,
				  jobs_full);

	err = ddl_z_fair_set(z, "gps", &s->fair.gps, 1, &n, &weight);
	if (err)
		return err;
	if (n != s->fair.gps_jobs)
		return ddl_z_fail(z, "%u in gps, gps_jobs %u", n, s->fair.gps_jobs);
	if (n && !jobs_full)
		return ddl_z_fail(z, "%u in gps with no job backlogged", n);
	if (weight != s->fair.gps_weight)
		return ddl_z_fail(z, "gps_weight %u, weights sum to %u",
				  s->fair.gps_weight, weight);

	err = ddl_z_rb(z, "periodic", &s->pred.periodic, s->jobs, &n);
	if (err)
		return err;
	if (s->pred.periodic_last != rb_last(&s->pred.periodic.rb_root))
		return ddl_z_fail(z, "periodic_last is not the last node");
	if (s->pred.fifo_only) {
		if (n)
			return ddl_z_fail(z, "%u in the tree, kept on the list", n);
		/* Bounded: a list longer than the jobs fails. */
		list_for_each_entry(pc, &s->pred.fifo, fifo) {
			if (!pc->periodic)
				return ddl_z_fail(z, "fifo: job not periodic");
			if (++n > s->jobs)
				return ddl_z_fail(z, "fifo: more than the jobs");
		}
	} else if (!list_empty(&s->pred.fifo)) {
		return ddl_z_fail(z, "fifo: jobs on it, the tree kept");
	}
	if (n != periodic)
		return ddl_z_fail(z, "%u waiting, %u jobs periodic", n, periodic);
	prev = NULL;
	for (node = rb_first(&s->pred.periodic.rb_root); node;
	     node = rb_next(node)) {
		c = rb_entry(node, struct ddl_cls, pred.node);
		if (!ddl_z_ours(s, c, false))
			return ddl_z_fail(z, "periodic: not a job");
		if (prev && ddl_next_burst(&c->pred) < ddl_next_burst(&prev->pred))
			return ddl_z_fail(z, "periodic: out of order at %ld",
					  (long)(c - s->cls));
		prev = c;
	}
	return NULL;
}

/* The key map: flags, bitmap, hash and count agree. */
static const char *ddl_z_check_keys(struct ddl_zsim *z)
{
	const struct ddl_sched *s = &z->s;
	u32 i, b, n = 0, keyed = 0, buckets = 1U << s->keymap.hash_bits;
	const struct ddl_cls *c;

	for (i = 0; i < s->jobs; i++) {
		c = &s->cls[i];
		if (test_bit(i, s->keymap.keyed_bm) != c->keymap.keyed)
			return ddl_z_fail(z, "job %u: keyed %d, bit %d", i,
					  c->keymap.keyed, test_bit(i, s->keymap.keyed_bm));
		if (test_bit(i, s->keymap.bound_bm) != !!c->keymap.bound ||
		    c->keymap.bound != z->q[i].bound)
			return ddl_z_fail(z, "job %u: bound %u, bit %d, filters %u",
					  i, c->keymap.bound, test_bit(i, s->keymap.bound_bm),
					  z->q[i].bound);
		if (c->keymap.keyed && test_bit(i, s->keymap.claimed_bm))
			return ddl_z_fail(z, "job %u keyed and claimed", i);
		keyed += c->keymap.keyed;
	}
	if (find_next_bit(s->keymap.keyed_bm, DDL_JOBS_MAX, s->jobs) < DDL_JOBS_MAX)
		return ddl_z_fail(z, "keyed bit past %u jobs", s->jobs);
	if (keyed != s->keymap.mapped)
		return ddl_z_fail(z, "%u keyed, keys_mapped %u", keyed,
				  s->keymap.mapped);
	for (b = 0; b < buckets; b++) {
		hlist_for_each_entry(c, &s->keymap.hash[b], keymap.node) {
			if (++n > keyed)
				return ddl_z_fail(z, "more keys hashed than keyed");
			if (!ddl_z_ours(s, c, false) || !c->keymap.keyed ||
			    ddl_key_bucket(&s->keymap, c->keymap.key) != b)
				return ddl_z_fail(z, "bucket %u: job %ld keyed %d key %u",
						  b, (long)(c - s->cls),
						  c->keymap.keyed, c->keymap.key);
		}
	}
	if (n != keyed)
		return ddl_z_fail(z, "%u keys hashed, %u keyed", n, keyed);
	return NULL;
}

/* Counters that must add up, and state that must agree with the rest. */
static const char *ddl_z_check_counters(struct ddl_zsim *z)
{
	const struct ddl_sched *s = &z->s;
	u64 bursts = 0, done = 0, guard = 0, yields = 0, greens = 0, acks = 0;
	u64 hits = 0, misses = 0, exts = 0, bytes = 0;
	const struct ddl_turn_rec *r;
	const struct ddl_job_log *l;
	const struct ddl_cls *c;
	u32 i, lead, qlen = 0;

	for (i = 0; i <= s->jobs; i++) {
		c = &s->cls[i];
		qlen += z->q[i].qlen;
		bytes += c->bytes_green + c->bytes_yellow;
		guard += c->guard_runs;
		greens += c->greens;
		if (c->wait_since > z->now)
			return ddl_z_fail(z, "class %u: wait_since in the future",
					  i);
		if (i == s->jobs) {
			if (c->burst.data_qlen || c->greens)
				return ddl_z_fail(z, "background: data_qlen %u, greens %llu",
						  c->burst.data_qlen, c->greens);
			break;
		}
		if (c->burst.data_qlen != z->q[i].data)
			return ddl_z_fail(z, "job %u: data_qlen %u, %u data packets queued",
					  i, c->burst.data_qlen, z->q[i].data);
		if (list_empty(&c->ack_node) != (!z->q[i].qlen || z->q[i].data))
			return ddl_z_fail(z, "job %u: %u packets, %u data, %s the ACK lane",
					  i, z->q[i].qlen, z->q[i].data,
					  list_empty(&c->ack_node) ? "not in" : "in");
		acks += c->ack_runs;
		l = &s->log.jlog[i];
		if (c->burst.count != l->done + c->burst.open)
			return ddl_z_fail(z, "job %u: %llu bursts, %llu done, in_burst %d",
					  i, c->burst.count, l->done, c->burst.open);
		if (ddl_hist_count(l->hist) != l->done)
			return ddl_z_fail(z, "job %u: histogram %llu, done %llu",
					  i, ddl_hist_count(l->hist), l->done);
		if (c->weight < DDL_WEIGHT_MIN || c->weight > DDL_WEIGHT_MAX)
			return ddl_z_fail(z, "job %u: weight %u", i, c->weight);
		bursts += c->burst.count;
		done += l->done;
		yields += c->yields;
		hits += c->pred.hits;
		misses += c->pred.misses;
		exts += c->fair.tag_exts;
	}
	if (qlen != z->qlen || qlen > z->p.limit)
		return ddl_z_fail(z, "qlen %u, classes hold %u, limit %u",
				  z->qlen, qlen, z->p.limit);
	if (bytes != z->sent)
		return ddl_z_fail(z, "bytes green + yellow %llu, sent %llu",
				  bytes, z->sent);
	if (bursts != s->burst.count || done != s->log.bursts_done)
		return ddl_z_fail(z, "bursts %llu/%llu, done %llu/%llu",
				  bursts, s->burst.count, done, s->log.bursts_done);
	if (acks != s->ack_runs || s->ack_credit > DDL_ACK_CREDIT_MAX ||
	    s->ack_credit < -DDL_ACK_CREDIT_MAX)
		return ddl_z_fail(z, "ack_runs %llu/%llu, credit %lld", acks,
				  s->ack_runs, s->ack_credit);
	if (guard != s->guard_runs || yields != s->yields ||
	    greens != s->log.turns)
		return ddl_z_fail(z, "guard %llu/%llu yields %llu/%llu greens %llu/turns %llu",
				  guard, s->guard_runs, yields, s->yields,
				  greens, s->log.turns);
	if (hits != s->pred.hits || misses != s->pred.misses ||
	    exts != s->fair.tag_exts)
		return ddl_z_fail(z, "hits %llu/%llu misses %llu/%llu tag_exts %llu/%llu",
				  hits, s->pred.hits, misses, s->pred.misses,
				  exts, s->fair.tag_exts);

	if (s->green == DDL_NONE ? s->log.turns : s->green >= s->jobs)
		return ddl_z_fail(z, "green %u after %llu turns", s->green,
				  s->log.turns);
	r = ddl_turn_last(&s->log, 0);
	if (r && (r->to != s->green || r->time > z->now ||
		  s->green_since > z->now || s->slice_start > z->now))
		return ddl_z_fail(z, "last turn to %u at %llu, green %u since %llu",
				  r->to, r->time, s->green, s->green_since);

	if (!z->q[s->jobs].qlen && s->bg_credit)
		return ddl_z_fail(z, "bg_credit %lld, background empty",
				  s->bg_credit);
	if (s->bg_credit > DDL_BG_CREDIT_MAX || s->bg_credit < -DDL_BG_CREDIT_MAX)
		return ddl_z_fail(z, "bg_credit %lld", s->bg_credit);

	if (s->pace.throttled_since && (!z->p.rate || s->pace.throttled_since > z->now))
		return ddl_z_fail(z, "throttled since %llu, rate %llu",
				  s->pace.throttled_since, z->p.rate);

	lead = ddl_pred_job(s, s->pred.lead);
	if (lead == DDL_NONE ? s->pred.lead_active :
	    (lead >= s->jobs || !z->p.lead_ns || !z->p.target_bytes))
		return ddl_z_fail(z, "lead job %u active %d, lead %llu ns",
				  lead, s->pred.lead_active, z->p.lead_ns);
	if (s->pred.lead_active && s->pred.lead_open > z->now)
		return ddl_z_fail(z, "lead window open before %llu",
				  s->pred.lead_open);
	return NULL;
}

static const char *ddl_z_check(struct ddl_zsim *z)
{
	const char *err;

	if (z->err)
		return z->err;
	err = ddl_z_check_bitmap(z);
	if (!err)
		err = ddl_z_check_lists(z);
	if (!err)
		err = ddl_z_check_trees(z);
	if (!err)
		err = ddl_z_check_keys(z);
	if (!err)
		err = ddl_z_check_counters(z);
	return err;
}

/* The walk */

/* The clock: mostly a packet time or less, now and then ms, rarely s. */
static void ddl_z_tick(struct ddl_zsim *z)
{
	u32 r = ddl_z_rnd(z, 100000);

	if (r < 5)
		z->now += (1 + ddl_z_rnd(z, 5)) * NSEC_PER_SEC_U64 +
			  ddl_z_rnd(z, NSEC_PER_SEC);
	else if (r < 200)
		z->now += (u64)(1 + ddl_z_rnd(z, 50)) * NSEC_PER_MSEC_U64;
	else
		z->now += ddl_z_rnd(z, 15000);
}

/* One step; returns an error from ddl_sched_init(), else 0. */
static int ddl_z_step(struct ddl_zsim *z)
{
	u32 r, idx, w;

	ddl_z_tick(z);
	ddl_z_periodic(z);

	/* Arrivals outrun the link for a while, then the other way round. */
	if (ddl_z_one_in(z, 2000))
		z->enq_pct = 20 + ddl_z_rnd(z, 61);

	r = ddl_z_rnd(z, 10000);
	if (r < 8) {
		ddl_z_change(z);
	} else if (r < 60) {
		idx = ddl_z_rnd(z, z->s.jobs);
		w = DDL_WEIGHT_MIN + ddl_z_rnd(z, DDL_WEIGHT_MAX);
		ddl_set_weight(&z->s, &z->p, idx, w);
	} else if (r < 80) {
		ddl_z_bind(z);
	} else if (r < 120) {
		ddl_z_stats(z);
	} else if (r < 122) {
		/* ddl_reset() */
		ddl_quiesce(&z->s, z->now);
		ddl_z_purge(z);
	} else if (r < 123) {
		/* Replaced by an instance with another number of jobs. */
		ddl_z_destroy(z);
		return ddl_z_create(z);
	} else if (r % 100 < z->enq_pct) {
		idx = ddl_z_classify(z);
		ddl_z_enqueue(z, idx, ddl_z_len(z));
	} else {
		ddl_z_dequeue(z);
	}
	return 0;
}

static const u32 ddl_z_seeds[] = { 1, 0xdd1, 20240611, 0xc0ffee };

static void ddl_z_seed_desc(const u32 *seed, char *desc)
{
	snprintf(desc, KUNIT_PARAM_DESC_SIZE, "seed_%u", *seed);
}

KUNIT_ARRAY_PARAM(ddl_z_seed, ddl_z_seeds, ddl_z_seed_desc);

static int ddl_z_init(struct kunit *test)
{
	test->priv = NULL;
	return 0;
}

static void ddl_z_exit(struct kunit *test)
{
	struct ddl_zsim *z = test->priv;

	if (z)
		ddl_z_destroy(z);
}

/*
 * DDL_Z_STEPS random operations from one seed, every invariant checked
 * after each; the first violation ends the walk with its seed and step.
 */
static void ddl_fuzz_test(struct kunit *test)
{
	const u32 seed = *(const u32 *)test->param_value;
	struct ddl_zsim *z;
	const char *err;
	u32 i;

	z = kunit_kzalloc(test, sizeof(*z), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, z);
	z->q = kunit_kcalloc(test, DDL_Z_JOBS_MAX + 1, sizeof(*z->q),
			     GFP_KERNEL);
	z->pool = kunit_kcalloc(test, DDL_Z_POOL, sizeof(*z->pool),
				GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, z->q);
	KUNIT_ASSERT_NOT_NULL(test, z->pool);
	for (i = 0; i < DDL_Z_POOL; i++)
		z->pool[i].next = i + 1 < DDL_Z_POOL ? i + 1 : DDL_Z_NIL;
	z->test = test;
	z->seed = seed;
	z->now = DDL_Z_T0;
	z->enq_pct = 50;
	prandom_seed_state(&z->rnd, seed);
	test->priv = z;
	KUNIT_ASSERT_EQ(test, ddl_z_create(z), 0);

	for (z->step = 0; z->step < DDL_Z_STEPS; z->step++) {
		KUNIT_ASSERT_EQ_MSG(test, ddl_z_step(z), 0,
				    "seed %u step %llu: ddl_sched_init()",
				    seed, z->step);
		err = ddl_z_check(z);
		if (err) {
			KUNIT_FAIL(test, "seed %u step %llu: %s", seed,
				   z->step, err);
			return;
		}
	}
	ddl_z_destroy(z);
	kunit_info(test, "seed %u: %u steps, %llu instances, %llu picks, %llu holds",
		   seed, DDL_Z_STEPS, z->instances, z->picks, z->holds);
	kunit_info(test, "guard %llu rotations %llu yields %llu bursts %llu leads %llu recycled %llu exts %llu",
		   z->guard_runs, z->rotations, z->yields, z->bursts, z->leads,
		   z->key_recycled, z->tag_exts);
}

static struct kunit_case ddl_fuzz_test_cases[] = {
	KUNIT_CASE_PARAM_SLOW(ddl_fuzz_test, ddl_z_seed_gen_params),
	{}
};

static struct kunit_suite ddl_fuzz_test_suite = {
	.name = "sch_ddl_fuzz",
	.init = ddl_z_init,
	.exit = ddl_z_exit,
	.test_cases = ddl_fuzz_test_cases,
};

kunit_test_suite(ddl_fuzz_test_suite);

MODULE_DESCRIPTION("KUnit random-operation test of the sch_ddl scheduling core");
MODULE_LICENSE("GPL");
