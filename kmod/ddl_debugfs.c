// SPDX-License-Identifier: GPL-2.0
/*
 * ddl_debugfs.c - sch_ddl's module parameters (the defaults a new instance
 * takes) and its debugfs files (one directory per instance).
 *
 * /sys/kernel/debug/sch_ddl/DEV-MAJ: holds, for root only:
 *   config     the configuration in force and what it derived
 *   classes    one line per class: key, weight, queue, bytes, green time,
 *              learned period and burst size, prediction, burst quantiles
 *   turns      the last DDL_TURN_LOG changes of the green job
 *   bursts     the last DDL_BURST_LOG completed bursts of each job
 *   histogram  each job's burst completion times, log2 buckets of us
 *   pace       the shaper, the standing-queue target and the lead window
 *
 * A qdisc without a handle (the default child of mq) is DEV-parent-MAJ:MIN;
 * outside the initial network namespace the name ends in -nsINODE (the
 * inode of /proc/PID/ns/net).  A renamed device renames its directories.
 *
 * Every read takes the qdisc's root lock for one record at a time and
 * prints outside it; it changes nothing but completes quiet bursts
 * (ddl_settle_burst(), which touches only the job's burst and log).
 * debugfs_remove_recursive() in ddl_destroy() waits for the readers of
 * the files and fails the ones that come later, so no reader sees a freed
 * qdisc.
 */

#include <linux/debugfs.h>
#include <linux/moduleparam.h>
#include <linux/mutex.h>
#include <linux/netdevice.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <net/net_namespace.h>

#include <uapi/linux/sch_ddl.h>

#include "compat.h"
#include "ddl_core.h"
#include "ddl_glue.h"
#include "ddl_trace.h"

/*
 * Module parameters: the defaults of a new instance, each the default of
 * one option of ddl_opts[], in its range and unit there.  They make a
 * configuration together, checked as a request is (ddl_params_check()).
 */

static DEFINE_MUTEX(ddl_param_lock);

/* ddl_params_init()'s defaults with the module parameters' */
static struct ddl_params ddl_def;
static bool ddl_def_ready;

static const char * const ddl_key_names[] = {
	[TC_DDL_KEY_NONE]	= "none",
	[TC_DDL_KEY_SPORT]	= "sport",
	[TC_DDL_KEY_DPORT]	= "dport",
	[TC_DDL_KEY_MARK]	= "mark",
	[TC_DDL_KEY_DSCP]	= "dscp",
};

/*
 * The defaults, made when first needed: a parameter given at load is set
 * before the module's init runs.
 */
static struct ddl_params *ddl_defaults(void)
{
	lockdep_assert_held(&ddl_param_lock);
	if (!ddl_def_ready) {
		ddl_params_init(&ddl_def);
		ddl_def_ready = true;
	}
	return &ddl_def;
}

/**
 * struct ddl_mparam - a module parameter
 * @attr: the attribute of its option in ddl_opts[], TCA_DDL_*
 */
struct ddl_mparam {
	u32	attr;
};

static const struct ddl_opt *ddl_mparam_opt(const struct kernel_param *kp)
{
	const struct ddl_mparam *mp = kp->arg;

	return ddl_opt_find(mp->attr);
}

/* Set option @o of the defaults to @v if they stay a valid configuration. */
static int ddl_param_store(const struct ddl_opt *o, u64 v)
{
	struct ddl_params p;
	int err;

	mutex_lock(&ddl_param_lock);
	p = *ddl_defaults();
	ddl_opt_set(&p, o, v);
	ddl_params_derive(&p);
	err = ddl_params_check(&p, NULL, NULL, 0, NULL);
	if (!err)
		ddl_def = p;
	mutex_unlock(&ddl_param_lock);
	return err;
}

static u64 ddl_param_load(const struct ddl_opt *o)
{
	u64 v;

	mutex_lock(&ddl_param_lock);
	v = ddl_opt_get(ddl_defaults(), o);
	mutex_unlock(&ddl_param_lock);
	return v;
}

/* A number in the option's range, or "auto" where it takes that. */
static int ddl_mparam_set(const char *buf, const struct kernel_param *kp)
{
	const struct ddl_opt *o = ddl_mparam_opt(kp);
	u64 v;
	u32 v32;
	int err;

	if (WARN_ON_ONCE(!o))
		return -EINVAL;
	if ((o->flags & DDL_OPT_AUTO) && sysfs_streq(buf, "auto")) {
		v = TC_DDL_AUTO;
	} else {
		if (o->type == DDL_OPT_U64) {
			err = kstrtou64(buf, 0, &v);
		} else {
			err = kstrtou32(buf, 0, &v32);
			v = v32;
		}
		if (err)
			return err;
		if (v < o->min || v > o->max)
			return -ERANGE;
	}
	return ddl_param_store(o, v);
}

static int ddl_mparam_get(char *buf, const struct kernel_param *kp)
{
	const struct ddl_opt *o = ddl_mparam_opt(kp);
	u64 v;

	if (WARN_ON_ONCE(!o))
		return -EINVAL;
	v = ddl_param_load(o);
	if ((o->flags & DDL_OPT_AUTO) && v == TC_DDL_AUTO)
		return sysfs_emit(buf, "auto\n");
	return sysfs_emit(buf, "%llu\n", v);
}

static const struct kernel_param_ops ddl_mparam_ops = {
	.set	= ddl_mparam_set,
	.get	= ddl_mparam_get,
};

/* The key by name. */
static int ddl_key_set(const char *buf, const struct kernel_param *kp)
{
	int i = sysfs_match_string(ddl_key_names, buf);

	if (i < 0)
		return -EINVAL;
	return ddl_param_store(ddl_mparam_opt(kp), i);
}

static int ddl_key_get(char *buf, const struct kernel_param *kp)
{
	u64 v = ddl_param_load(ddl_mparam_opt(kp));

	return sysfs_emit(buf, "%s\n", v < ARRAY_SIZE(ddl_key_names) ?
			  ddl_key_names[v] : "?");
}

static const struct kernel_param_ops ddl_key_ops = {
	.set	= ddl_key_set,
	.get	= ddl_key_get,
};

/*
 * The default of option @name (its row's name), of attribute @type: its
 * range, unit and default are ddl_opts[]'s, and so its description.
 */
#define DDL_MPARAM(name, type, ops)					\
	static struct ddl_mparam ddl_mp_##name = { .attr = (type) };	\
	module_param_cb(name, &(ops), &ddl_mp_##name, 0644)
#define DDL_MPARAM_DESC(name, type)					\
	"Default " #name " of a new qdisc: " #type " (sch_ddl.rst)"

DDL_MPARAM(limit, TCA_DDL_LIMIT, ddl_mparam_ops);
MODULE_PARM_DESC(limit, DDL_MPARAM_DESC(limit, TCA_DDL_LIMIT));
DDL_MPARAM(memory_limit, TCA_DDL_MEMORY_LIMIT, ddl_mparam_ops);
MODULE_PARM_DESC(memory_limit,
		 DDL_MPARAM_DESC(memory_limit, TCA_DDL_MEMORY_LIMIT));
DDL_MPARAM(jobs, TCA_DDL_JOBS, ddl_mparam_ops);
MODULE_PARM_DESC(jobs, DDL_MPARAM_DESC(jobs, TCA_DDL_JOBS));
DDL_MPARAM(slice, TCA_DDL_SLICE, ddl_mparam_ops);
MODULE_PARM_DESC(slice, DDL_MPARAM_DESC(slice, TCA_DDL_SLICE));
DDL_MPARAM(yield, TCA_DDL_YIELD, ddl_mparam_ops);
MODULE_PARM_DESC(yield, DDL_MPARAM_DESC(yield, TCA_DDL_YIELD));
DDL_MPARAM(maxwait, TCA_DDL_MAXWAIT, ddl_mparam_ops);
MODULE_PARM_DESC(maxwait, DDL_MPARAM_DESC(maxwait, TCA_DDL_MAXWAIT));
DDL_MPARAM(bgshare, TCA_DDL_BGSHARE, ddl_mparam_ops);
MODULE_PARM_DESC(bgshare, DDL_MPARAM_DESC(bgshare, TCA_DDL_BGSHARE));
DDL_MPARAM(key, TCA_DDL_KEY, ddl_key_ops);
MODULE_PARM_DESC(key, DDL_MPARAM_DESC(key, TCA_DDL_KEY));
DDL_MPARAM(keyttl, TCA_DDL_KEYTTL, ddl_mparam_ops);
MODULE_PARM_DESC(keyttl, DDL_MPARAM_DESC(keyttl, TCA_DDL_KEYTTL));

/* Read-only: instances made without a directory would never get one. */
static bool ddl_debugfs_on = true;
module_param_named(debugfs, ddl_debugfs_on, bool, 0444);
MODULE_PARM_DESC(debugfs, "Give every instance a debugfs directory (Y)");

/**
 * ddl_params_defaults() - the configuration of a new instance
 * @p: configuration to fill in
 *
 * ddl_params_init()'s, with the module parameters' defaults.
 *
 * Context: process context; takes ddl_param_lock.
 */
void ddl_params_defaults(struct ddl_params *p)
{
	mutex_lock(&ddl_param_lock);
	*p = *ddl_defaults();
	mutex_unlock(&ddl_param_lock);
}

/* debugfs */

static struct dentry *ddl_debugfs_root;
static LIST_HEAD(ddl_instances);
static DEFINE_MUTEX(ddl_instances_lock);

#define DDL_DIR_NAME_LEN	(IFNAMSIZ + 48)

static void ddl_dir_name(const struct Qdisc *sch, char *buf, size_t len)
{
	const struct net_device *dev = qdisc_dev(sch);
	const struct net *net = dev_net(dev);
	int n;

	if (TC_H_MAJ(sch->handle))
		n = scnprintf(buf, len, "%s-%x:", dev->name,
			      TC_H_MAJ(sch->handle) >> 16);
	else
		n = scnprintf(buf, len, "%s-parent-%x:%x", dev->name,
			      TC_H_MAJ(sch->parent) >> 16,
			      TC_H_MIN(sch->parent));
	if (!net_eq(net, &init_net))
		scnprintf(buf + n, len - n, "-ns%u", net->ns.inum);
}

static const char *ddl_turn_name(u32 why)
{
	switch (why) {
	case DDL_TURN_START:
		return "start";
	case DDL_TURN_SLICE:
		return "slice";
	case DDL_TURN_YIELD:
		return "yield";
	case DDL_TURN_STATIC:
		return "static";
	case DDL_TURN_FAIR:
		return "fair";
	case DDL_TURN_CLUSTER:
		return "cluster";
	}
	return "?";
}

/*
 * The lock that serialises @sch with its datapath: that of the root qdisc
 * of its queue, as sch_tree_lock() takes it, but without RTNL, which
 * ddl_destroy() holds while it waits for the readers.  A root is freed
 * only after an RCU grace period: it stays valid while it is held inside
 * rcu_read_lock().
 */
struct ddl_locked {
	spinlock_t	*lock;	/* the root qdisc's lock, held */
};

static void ddl_lock(struct Qdisc *sch, struct ddl_locked *l)
	__acquires(RCU) __acquires(l->lock)
{
	rcu_read_lock();
	l->lock = qdisc_lock(qdisc_root_sleeping(sch));
	spin_lock_bh(l->lock);
}

static void ddl_unlock(struct ddl_locked *l)
	__releases(l->lock) __releases(RCU)
{
	spin_unlock_bh(l->lock);
	rcu_read_unlock();
}

/* A time in us, or "auto". */
static void ddl_seq_us(struct seq_file *m, const char *name, u32 us)
{
	if (us == TC_DDL_AUTO)
		seq_printf(m, "%s auto\n", name);
	else
		seq_printf(m, "%s %u\n", name, us);
}

static int ddl_config_show(struct seq_file *m, void *v)
{
	struct Qdisc *sch = m->private;
	struct ddl_sched_data *q = qdisc_priv(sch);
	struct ddl_locked l;
	u64 now, turn = 0, yield = 0, gap;
	struct ddl_params p;
	u32 green;

	ddl_lock(sch, &l);
	now = ktime_get_ns();
	p = q->params;
	green = q->s.green;
	if (green != DDL_NONE) {
		turn = ddl_turn_ns(&q->s, &p, green);
		yield = ddl_yield_ns(&q->s, &p, green);
	}
	ddl_unlock(&l);
	gap = ddl_burst_gap(&p);

	seq_printf(m, "now_ns %llu\n", now);
	seq_printf(m, "limit %u\n", p.limit);
	seq_printf(m, "memory_limit %u\n", p.memory_limit);
	seq_printf(m, "jobs %u\n", p.jobs);
	seq_printf(m, "mode %s\n", ddl_mode(&p)->name);
	ddl_seq_us(m, "slice_us", p.slice_us);
	ddl_seq_us(m, "yield_us", p.yield_us);
	seq_printf(m, "maxwait_us %u\n", p.maxwait_us);
	seq_printf(m, "bgshare %u\n", p.bgshare);
	seq_printf(m, "key %s\n", p.key < ARRAY_SIZE(ddl_key_names) ?
		   ddl_key_names[p.key] : "?");
	seq_printf(m, "keyttl_ms %u\n", p.keyttl_ms);
	seq_printf(m, "rate %llu\n", p.rate);
	seq_printf(m, "burst %u\n", p.burst);
	seq_printf(m, "target %u\n", p.target);
	seq_printf(m, "target_us %u\n", p.target_us);
	seq_printf(m, "interval_us %u\n", p.interval_us);
	seq_printf(m, "ecn %u\n", p.ecn);
	seq_printf(m, "lead_us %u\n", p.lead_us);
	seq_printf(m, "maxperiod_us %u\n", p.maxperiod_us);
	/* Derived */
	seq_printf(m, "burst_ns %llu\n", p.burst_ns);
	seq_printf(m, "target_bytes %llu\n", p.target_bytes);
	seq_printf(m, "lead_ns %llu\n", p.lead_ns);
	seq_printf(m, "burst_gap_ns %llu\n", gap);
	seq_printf(m, "green %x\n", ddl_idx_to_minor(q, green));
	seq_printf(m, "green_turn_ns %llu\n", turn);
	seq_printf(m, "green_yield_ns %llu\n", yield);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(ddl_config);

/* Iterators over the classes: position 0 is the header, then one each. */
static void *ddl_cls_start(struct seq_file *m, loff_t *pos)
{
	struct Qdisc *sch = m->private;
	struct ddl_sched_data *q = qdisc_priv(sch);

	if (!*pos)
		return SEQ_START_TOKEN;
	if (*pos > q->s.jobs + 1)
		return NULL;
	return &q->s.cls[*pos - 1];
}

static void *ddl_cls_next(struct seq_file *m, void *v, loff_t *pos)
{
	++*pos;
	return ddl_cls_start(m, pos);
}

static void ddl_cls_stop(struct seq_file *m, void *v)
{
}

/* Job @idx's quiet burst is complete: record it before it is read. */
static void ddl_settle_one(struct Qdisc *sch, u32 idx, u64 now)
{
	struct ddl_sched_data *q = qdisc_priv(sch);
	u64 done = q->s.log.bursts_done;

	ddl_settle_burst(&q->s, &q->params, idx, now);
	if (q->s.log.bursts_done != done)
		trace_ddl_burst_end(sch, idx + 1,
				    ddl_burst_last(&q->s.log, idx, 0));
}

struct ddl_cls_row {
	u32	key;
	bool	keyed;
	u32	weight;
	u32	qlen;
	u32	backlog;
	u64	bytes_green;
	u64	bytes_yellow;
	u64	green_ns;
	u64	period;
	u64	burst_bytes;
	bool	predicted;
	u64	bursts;
	u64	done;
	u64	p50;
	u64	p99;
	u32	max_us;
	u32	mem;
	u64	drop_overmemory;
};

static int ddl_classes_show(struct seq_file *m, void *v)
{
	struct Qdisc *sch = m->private;
	struct ddl_sched_data *q = qdisc_priv(sch);
	struct ddl_locked l;
	const struct ddl_job_log *jl;
	const struct ddl_cls *c = v;
	struct ddl_cls_row r = {};
	u32 idx;
	u64 now;

	if (v == SEQ_START_TOKEN) {
		seq_puts(m, "class key weight qlen backlog bytes_green bytes_yellow green_ns period_ns burst_bytes predicted bursts bursts_done p50_us p99_us max_us memory drop_overmemory\n");
		return 0;
	}
	idx = c - q->s.cls;

	ddl_lock(sch, &l);
	now = ktime_get_ns();
	r.keyed = c->keymap.keyed;
	r.key = c->keymap.key;
	r.weight = c->weight;
	r.qlen = q->classes[idx].q.qlen;
	r.backlog = q->classes[idx].qstats.backlog;
	r.mem = q->classes[idx].mem;
	r.drop_overmemory = q->classes[idx].drop_overmemory;
	r.bytes_green = c->bytes_green;
	r.bytes_yellow = c->bytes_yellow;
	r.green_ns = ddl_green_ns(&q->s, idx, now);
	r.period = ddl_pred_period(&c->pred);
	r.burst_bytes = c->pred.burst_size;
	r.predicted = c->pred.predicted;
	r.bursts = c->burst.count;
	if (idx != DDL_BG(&q->s)) {
		ddl_settle_one(sch, idx, now);
		jl = &q->s.log.jlog[idx];
		r.done = jl->done;
		r.max_us = jl->max_us;
		r.p50 = ddl_hist_quantile(jl->hist, jl->max_us, 500);
		r.p99 = ddl_hist_quantile(jl->hist, jl->max_us, 990);
	}
	ddl_unlock(&l);

	seq_printf(m, "%x ", ddl_idx_to_minor(q, idx));
	if (r.keyed)
		seq_printf(m, "%u", r.key);
	else
		seq_putc(m, '-');
	seq_printf(m, " %u %u %u %llu %llu %llu %llu %llu %u %llu %llu %llu %llu %u %u %llu\n",
		   r.weight, r.qlen, r.backlog, r.bytes_green, r.bytes_yellow,
		   r.green_ns, r.period, r.burst_bytes, r.predicted, r.bursts,
		   r.done, r.p50, r.p99, r.max_us, r.mem, r.drop_overmemory);
	return 0;
}

static const struct seq_operations ddl_classes_sops = {
	.start	= ddl_cls_start,
	.next	= ddl_cls_next,
	.stop	= ddl_cls_stop,
	.show	= ddl_classes_show,
};
DEFINE_SEQ_ATTRIBUTE(ddl_classes);

/* Iterators over the jobs only: the background class has no bursts. */
static void *ddl_job_start(struct seq_file *m, loff_t *pos)
{
	struct Qdisc *sch = m->private;
	struct ddl_sched_data *q = qdisc_priv(sch);

	if (*pos > q->s.jobs)
		return NULL;
	return ddl_cls_start(m, pos);
}

static void *ddl_job_next(struct seq_file *m, void *v, loff_t *pos)
{
	++*pos;
	return ddl_job_start(m, pos);
}

/* A copy of job @v's log, its quiet burst completed first. */
static u32 ddl_job_snapshot(struct Qdisc *sch, void *v, struct ddl_job_log *jl)
{
	struct ddl_sched_data *q = qdisc_priv(sch);
	u32 idx = (const struct ddl_cls *)v - q->s.cls;
	struct ddl_locked l;

	ddl_lock(sch, &l);
	ddl_settle_one(sch, idx, ktime_get_ns());
	*jl = q->s.log.jlog[idx];
	ddl_unlock(&l);
	return idx;
}

static int ddl_bursts_show(struct seq_file *m, void *v)
{
	const struct ddl_burst_rec *r;
	struct ddl_job_log jl;
	u32 idx, n;

	if (v == SEQ_START_TOKEN) {
		seq_puts(m, "job start_ns end_ns duration_ns bytes\n");
		return 0;
	}
	idx = ddl_job_snapshot(m->private, v, &jl);

	/* Oldest first: the newest is at (done - 1) % DDL_BURST_LOG. */
	for (n = min_t(u64, jl.done, DDL_BURST_LOG); n > 0; n--) {
		r = &jl.ring[(jl.done - n) % DDL_BURST_LOG];
		seq_printf(m, "%x %llu %llu %llu %llu\n", idx + 1, r->start,
			   r->end, r->end - r->start, r->bytes);
	}
	return 0;
}

static const struct seq_operations ddl_bursts_sops = {
	.start	= ddl_job_start,
	.next	= ddl_job_next,
	.stop	= ddl_cls_stop,
	.show	= ddl_bursts_show,
};
DEFINE_SEQ_ATTRIBUTE(ddl_bursts);

static int ddl_histogram_show(struct seq_file *m, void *v)
{
	struct ddl_job_log jl;
	u32 idx, b;

	if (v == SEQ_START_TOKEN) {
		seq_puts(m, "# bucket 0: 0 us; bucket i: 2^(i-1) .. 2^i - 1 us; the last: longer\n");
		seq_puts(m, "job bursts_done p50_us p99_us max_us sum_us");
		for (b = 0; b < DDL_HIST_BUCKETS; b++)
			seq_printf(m, " b%u", b);
		seq_putc(m, '\n');
		return 0;
	}
	idx = ddl_job_snapshot(m->private, v, &jl);
	if (!jl.done)
		return 0;

	seq_printf(m, "%x %llu %llu %llu %u %llu", idx + 1, jl.done,
		   ddl_hist_quantile(jl.hist, jl.max_us, 500),
		   ddl_hist_quantile(jl.hist, jl.max_us, 990), jl.max_us,
		   jl.sum_us);
	for (b = 0; b < DDL_HIST_BUCKETS; b++)
		seq_printf(m, " %u", jl.hist[b]);
	seq_putc(m, '\n');
	return 0;
}

static const struct seq_operations ddl_histogram_sops = {
	.start	= ddl_job_start,
	.next	= ddl_job_next,
	.stop	= ddl_cls_stop,
	.show	= ddl_histogram_show,
};
DEFINE_SEQ_ATTRIBUTE(ddl_histogram);

static int ddl_turns_show(struct seq_file *m, void *v)
{
	struct Qdisc *sch = m->private;
	struct ddl_sched_data *q = qdisc_priv(sch);
	struct ddl_locked l;
	const struct ddl_turn_rec *r;
	struct ddl_turn_rec *rec;
	u64 now, turns;
	u32 n, i;

	rec = kmalloc_array(DDL_TURN_LOG, sizeof(*rec), GFP_KERNEL);
	if (!rec)
		return -ENOMEM;

	ddl_lock(sch, &l);
	now = ktime_get_ns();
	turns = q->s.log.turns;
	for (n = 0; n < DDL_TURN_LOG; n++) {
		r = ddl_turn_last(&q->s.log, n);
		if (!r)
			break;
		rec[n] = *r;
	}
	ddl_unlock(&l);

	seq_printf(m, "now_ns %llu\nturns %llu\n", now, turns);
	seq_puts(m, "time_ns from to why\n");
	for (i = n; i-- > 0;)
		seq_printf(m, "%llu %x %x %s\n", rec[i].time,
			   ddl_idx_to_minor(q, rec[i].from),
			   ddl_idx_to_minor(q, rec[i].to),
			   ddl_turn_name(rec[i].why));
	kfree(rec);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(ddl_turns);

static int ddl_pace_show(struct seq_file *m, void *v)
{
	struct Qdisc *sch = m->private;
	struct ddl_sched_data *q = qdisc_priv(sch);
	struct ddl_locked l;
	const struct ddl_sched *s = &q->s;
	u64 now, pace_next, throttled_since, throttled_ns, throttles;
	u64 paced_pkts, paced_bytes, above_since, next_signal, lead_ns;
	u64 rate, burst_ns, target, lead_open, lead_close, backlog;
	bool above, lead_active;
	u32 lead_job, qlen;

	ddl_lock(sch, &l);
	now = ktime_get_ns();
	rate = q->params.rate;
	burst_ns = q->params.burst_ns;
	target = q->params.target_bytes;
	qlen = sch->q.qlen;
	backlog = sch->qstats.backlog;
	pace_next = s->pace.next;
	throttled_since = s->pace.throttled_since;
	throttled_ns = s->pace.throttled_ns;
	throttles = s->pace.throttles;
	paced_pkts = s->pace.paced_pkts;
	paced_bytes = s->pace.paced_bytes;
	above = s->pace.above;
	above_since = s->pace.above_since;
	next_signal = s->pace.next_signal;
	lead_job = ddl_pred_job(s, s->pred.lead);
	lead_open = s->pred.lead_open;
	lead_close = s->pred.lead_close;
	lead_active = s->pred.lead_active;
	lead_ns = ddl_lead_ns(&s->pred, now);
	ddl_unlock(&l);

	seq_printf(m, "now_ns %llu\n", now);
	seq_printf(m, "qlen %u\nbacklog %llu\n", qlen, backlog);
	/* Shaper */
	seq_printf(m, "rate %llu\nburst_ns %llu\n", rate, burst_ns);
	seq_printf(m, "pace_next_ns %llu\n", pace_next);
	seq_printf(m, "throttled %u\n", !!throttled_since);
	seq_printf(m, "throttled_since_ns %llu\n", throttled_since);
	seq_printf(m, "throttled_total_ns %llu\n", throttled_ns);
	seq_printf(m, "throttles %llu\n", throttles);
	seq_printf(m, "paced_pkts %llu\npaced_bytes %llu\n", paced_pkts,
		   paced_bytes);
	/* Standing-queue target */
	seq_printf(m, "target_bytes %llu\n", target);
	seq_printf(m, "above %u\nabove_since_ns %llu\n", above, above_since);
	seq_printf(m, "next_signal_ns %llu\n", next_signal);
	/* Lead window */
	seq_printf(m, "lead_job %x\n", lead_job == DDL_NONE ? 0 : lead_job + 1);
	seq_printf(m, "lead_active %u\n", lead_active);
	seq_printf(m, "lead_open_ns %llu\nlead_close_ns %llu\n",
		   lead_job == DDL_NONE ? 0 : lead_open,
		   lead_job == DDL_NONE ? 0 : lead_close);
	seq_printf(m, "lead_total_ns %llu\n", lead_ns);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(ddl_pace);

/**
 * ddl_debugfs_add() - give an instance its debugfs directory
 * @sch: the qdisc, initialised
 *
 * Without debugfs, or if the name is taken, the instance has no directory.
 *
 * Context: process context, RTNL held.
 */
void ddl_debugfs_add(struct Qdisc *sch)
{
	struct ddl_sched_data *q = qdisc_priv(sch);
	char name[DDL_DIR_NAME_LEN];
	struct dentry *dir = NULL;

	q->sch = sch;
	if (READ_ONCE(ddl_debugfs_on) && !IS_ERR_OR_NULL(ddl_debugfs_root)) {
		ddl_dir_name(sch, name, sizeof(name));
		dir = debugfs_create_dir(name, ddl_debugfs_root);
		if (IS_ERR(dir)) {
			dir = NULL;
		} else {
			debugfs_create_file("config", 0400, dir, sch,
					    &ddl_config_fops);
			debugfs_create_file("classes", 0400, dir, sch,
					    &ddl_classes_fops);
			debugfs_create_file("turns", 0400, dir, sch,
					    &ddl_turns_fops);
			debugfs_create_file("bursts", 0400, dir, sch,
					    &ddl_bursts_fops);
			debugfs_create_file("histogram", 0400, dir, sch,
					    &ddl_histogram_fops);
			debugfs_create_file("pace", 0400, dir, sch,
					    &ddl_pace_fops);
		}
	}
	mutex_lock(&ddl_instances_lock);
	q->dir = dir;
	list_add(&q->node, &ddl_instances);
	mutex_unlock(&ddl_instances_lock);
}

/**
 * ddl_debugfs_del() - remove an instance's debugfs directory
 * @sch: the qdisc; ddl_debugfs_add() may not have run
 *
 * Waits for the readers of its files.
 *
 * Context: process context.
 */
void ddl_debugfs_del(struct Qdisc *sch)
{
	struct ddl_sched_data *q = qdisc_priv(sch);
	struct dentry *dir;

	if (!q->sch)
		return;
	mutex_lock(&ddl_instances_lock);
	list_del(&q->node);
	dir = q->dir;
	q->dir = NULL;
	mutex_unlock(&ddl_instances_lock);
	debugfs_remove_recursive(dir);
}

/* A renamed device renames the directories of its instances. */
static int ddl_netdev_event(struct notifier_block *nb, unsigned long event,
			    void *ptr)
{
	struct net_device *dev = netdev_notifier_info_to_dev(ptr);
	char name[DDL_DIR_NAME_LEN];
	struct ddl_sched_data *q;
	struct dentry *d;

	if (event != NETDEV_CHANGENAME)
		return NOTIFY_DONE;

	mutex_lock(&ddl_instances_lock);
	list_for_each_entry(q, &ddl_instances, node) {
		if (!q->dir || qdisc_dev(q->sch) != dev)
			continue;
		ddl_dir_name(q->sch, name, sizeof(name));
		d = ddl_debugfs_rename(ddl_debugfs_root, q->dir, name);
		if (!IS_ERR_OR_NULL(d))
			q->dir = d;
	}
	mutex_unlock(&ddl_instances_lock);
	return NOTIFY_DONE;
}

static struct notifier_block ddl_netdev_nb = {
	.notifier_call = ddl_netdev_event,
};

/**
 * ddl_debugfs_init() - module load: the debugfs root and the notifier
 *
 * Context: process context.
 * Return: 0 or a negative error.
 */
int ddl_debugfs_init(void)
{
	int err;

	if (ddl_debugfs_on)
		ddl_debugfs_root = debugfs_create_dir("sch_ddl", NULL);
	err = register_netdevice_notifier(&ddl_netdev_nb);
	if (err)
		debugfs_remove_recursive(ddl_debugfs_root);
	return err;
}

/**
 * ddl_debugfs_exit() - module unload, every instance gone
 *
 * Context: process context.
 */
void ddl_debugfs_exit(void)
{
	unregister_netdevice_notifier(&ddl_netdev_nb);
	debugfs_remove_recursive(ddl_debugfs_root);
}
