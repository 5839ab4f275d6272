// SPDX-License-Identifier: GPL-2.0
/*
 * ddl_qbench - per-packet cost of root qdiscs, timed side by side in the
 * kernel.  A test-only module (never installed), for bench/bench-datapath
 * --inkernel and bench/bench-insns.
 *
 * Given devices whose root qdiscs were set up with tc (devs=d0,d1,...), it
 * builds batch UDP/IPv4 skbs per device (source port 1000 + i % flows, an L4
 * hash per flow, lengths from sizes= in turn; skb->priority handle:1+i%K for
 * a device whose classes= entry K is not 0, else i % 8) and, in every round,
 * for each device in turn (the order rotates by one every round), with BH
 * disabled and the root lock held, enqueues the whole batch through the
 * qdisc's ->enqueue() and dequeues it through ->dequeue(), timing each half
 * with ktime_get_ns().  The module holds one reference more on every skb, so
 * a qdisc that frees one (a drop) only drops that reference: such skbs, and
 * those handed back on the to_free list, are counted and reused, never
 * freed.  RTNL is held for the whole run, so no qdisc changes under it.
 *
 * Every round also times batch calls of ktime_get_ns() alone: the clock
 * that most qdiscs read per packet, dear under emulation (QEMU TCG).
 *
 * With spread=1, packet i of round r is packet r * batch + i of the run:
 * its flow, class and length follow from that number as they would from i,
 * so that more flows or classes than a batch holds all take turns.  When
 * the batch is a multiple of K (or 8) and of flows times the number of
 * sizes, the packets are those of spread=0, but that every skb has room
 * for the longest size.  With run=R as well, the packets come in runs of
 * R of one flow and class, the lengths in turn within each: the flow and
 * class of packet n are those of packet n / R, so that a job's queue holds
 * a burst of R packets, then is idle until its next turn.  With irqoff=1
 * the measured calls run with interrupts off too, so that no interrupt's
 * work falls between the marks.
 *
 * The marks: on x86, each batch of enqueues and each batch of dequeues of
 * a timed round (not the warm-up's) lies between two no-operation
 * instructions with a tag in their displacement, which bench/tcg-insns.c
 * (a QEMU plugin) looks for in the code QEMU translates: it counts the
 * guest's instructions between them, those of every kernel function the
 * qdisc calls included.
 *
 * The run happens at load time; the results are in debugfs:
 *   ddl_qbench/summary  one line per device: ns per packet (median, quartiles,
 *                       extremes of the rounds) and the drops; then the
 *                       clock's median ns per call
 *   ddl_qbench/raw      every round: device, enqueue ns, dequeue ns
 * The guest devices should be down, so that nothing else sends through them.
 */

#include <linux/debugfs.h>
#include <linux/etherdevice.h>
#include <linux/ip.h>
#include <linux/jhash.h>
#include <linux/module.h>
#include <linux/netdevice.h>
#include <linux/rtnetlink.h>
#include <linux/seq_file.h>
#include <linux/skbuff.h>
#include <linux/slab.h>
#include <linux/sort.h>
#include <linux/udp.h>
#include <net/ip.h>
#include <net/sch_generic.h>

#define QB_MAX_DEVS	16
#define QB_MAX_SIZES	4

static char *devs = "";
module_param(devs, charp, 0444);
MODULE_PARM_DESC(devs, "comma-separated devices whose root qdiscs to time");
static char *classes = "";
module_param(classes, charp, 0444);
MODULE_PARM_DESC(classes, "per device: K > 0 sets skb->priority to handle:1+i%K");
static char *sizes = "64,1500";
module_param(sizes, charp, 0444);
MODULE_PARM_DESC(sizes, "IP packet lengths, used in turn (28 to 9000)");
static unsigned int batch = 64;
module_param(batch, uint, 0444);
MODULE_PARM_DESC(batch, "packets enqueued, then dequeued, per round (1-4096)");
static unsigned int rounds = 2000;
module_param(rounds, uint, 0444);
MODULE_PARM_DESC(rounds, "timed rounds per device (1-100000)");
static unsigned int warmup = 50;
module_param(warmup, uint, 0444);
MODULE_PARM_DESC(warmup, "untimed rounds first");
static bool clock = true;
module_param(clock, bool, 0444);
MODULE_PARM_DESC(clock, "also time the clock alone every round");
static unsigned int flows = 16;
module_param(flows, uint, 0444);
MODULE_PARM_DESC(flows, "distinct source ports and hashes (1-65000)");
static bool spread;
module_param(spread, bool, 0444);
MODULE_PARM_DESC(spread, "flows, classes and lengths follow the packet's number in the run, not in the batch");
static unsigned int run = 1;
module_param(run, uint, 0444);
MODULE_PARM_DESC(run, "with spread: packets in runs of this many of one flow and class (1-4096)");
static bool irqoff;
module_param(irqoff, bool, 0444);
MODULE_PARM_DESC(irqoff, "interrupts off during the measured calls too");

/*
 * The marks around the measured calls: "nopl TAG(%rax)" (0f 1f 80 and the
 * tag, 32 bits), which reads no memory.  The tags: the enqueues start, the
 * dequeues start, either ends.  The memory clobber keeps the compiler from
 * moving the calls across a mark.
 */
#define QB_MARK_ENQ	0x71628e01
#define QB_MARK_DEQ	0x71628e02
#define QB_MARK_END	0x71628e00

static __always_inline void qb_mark(u32 tag)
{
#ifdef CONFIG_X86
	asm volatile(".byte 0x0f, 0x1f, 0x80\n\t.long %c0" : : "i" (tag) : "memory");
#else
	barrier();
#endif
}

struct qb_dev {
	struct net_device *dev;
	netdevice_tracker tracker;
	struct Qdisc *q;
	u32 classes;
	struct sk_buff **skbs;
	u32 *enq_ns;
	u32 *deq_ns;
	u64 enq_drops;		/* on to_free, or refused */
	u64 freed;		/* freed by the qdisc (our reference kept it) */
	u64 stuck;		/* still queued after the dequeues */
	u64 foreign;		/* dequeued skbs that were not ours */
};

static struct qb_dev qb_devs[QB_MAX_DEVS];
static u32 *qb_clock_ns;	/* per round: batch reads of the clock */
static unsigned int qb_ndevs;
static unsigned int qb_sizes[QB_MAX_SIZES];
static unsigned int qb_nsizes;
static struct dentry *qb_dir;

/*
 * Make @skb packet @n of the run on @d: its flow (source port, hash), its
 * class or band (priority) and its length.  The skb has room for the
 * longest of sizes=.
 */
static void qb_stamp(struct qb_dev *d, struct sk_buff *skb, u64 n)
{
	u64 m = div_u64(n, run);
	unsigned int flow = do_div(m, flows);
	/* A run of a flow holds every length, in turn. */
	unsigned int len = qb_sizes[run > 1 ? do_div(n, qb_nsizes) :
				    do_div(m, qb_nsizes)];
	unsigned int tot = skb_network_offset(skb) + len;
	struct udphdr *uh = udp_hdr(skb);
	struct iphdr *iph = ip_hdr(skb);

	if (skb->len > tot)
		skb_trim(skb, tot);
	else if (skb->len < tot)
		skb_put_zero(skb, tot - skb->len);
	iph->tot_len = htons(len);
	ip_send_check(iph);
	uh->source = htons(1000 + flow);
	uh->len = htons(len - sizeof(*iph));
	skb_set_hash(skb, jhash_1word(flow, 0x9e3779b9), PKT_HASH_TYPE_L4);
}

/* Packet @n's priority on @d: a class of ours, or a band. */
static u32 qb_priority(const struct qb_dev *d, u64 n)
{
	n = div_u64(n, run);
	if (d->classes)
		return TC_H_MAKE(d->q->handle, 1 + do_div(n, d->classes));
	return do_div(n, 8);
}

static struct sk_buff *qb_build(struct qb_dev *d, unsigned int i)
{
	unsigned int room = qb_sizes[(i / flows) % qb_nsizes], k;
	struct sk_buff *skb;
	struct udphdr *uh;
	struct ethhdr *eth;
	struct iphdr *iph;

	if (spread)
		for (k = 0; k < qb_nsizes; k++)
			room = max(room, qb_sizes[k]);
	skb = alloc_skb(LL_RESERVED_SPACE(d->dev) + ETH_HLEN + room,
			GFP_KERNEL);
	if (!skb)
		return NULL;
	skb_reserve(skb, LL_RESERVED_SPACE(d->dev));
	skb_put_zero(skb, ETH_HLEN + sizeof(*iph) + sizeof(*uh));
	skb_reset_mac_header(skb);
	skb_set_network_header(skb, ETH_HLEN);
	skb_set_transport_header(skb, ETH_HLEN + sizeof(*iph));

	eth = eth_hdr(skb);
	eth_broadcast_addr(eth->h_dest);
	eth_zero_addr(eth->h_source);
	eth->h_proto = htons(ETH_P_IP);
	iph = ip_hdr(skb);
	iph->version = 4;
	iph->ihl = 5;
	iph->ttl = 64;
	iph->protocol = IPPROTO_UDP;
	iph->saddr = htonl(0xc6120001);		/* 198.18.0.1 */
	iph->daddr = htonl(0xc6120102);		/* 198.18.1.2 */
	uh = udp_hdr(skb);
	uh->dest = htons(9);
	qb_stamp(d, skb, i);

	skb->protocol = htons(ETH_P_IP);
	skb->dev = d->dev;
	skb->priority = qb_priority(d, i);
	/* The reference the qdiscs may drop; ours is freed at unload. */
	return skb_get(skb);
}

/*
 * Round @round of the run (warm-up included) on @d: enqueue the batch,
 * dequeue it; times into slot @r.  Not inlined into the init function,
 * whose code is freed after the load: the blocks between the marks that
 * are the harness's own then keep its symbol in /proc/kallsyms.
 */
static noinline void qb_round(struct qb_dev *d, unsigned int round, int r)
{
	struct sk_buff *to_free = NULL, *skb;
	struct Qdisc *q = d->q;
	unsigned int i, n = 0;
	u64 t0, t1, t2;

	for (i = 0; i < batch; i++) {
		skb = d->skbs[i];
		if (spread) {
			qb_stamp(d, skb, (u64)round * batch + i);
			skb->priority = qb_priority(d, (u64)round * batch + i);
		}
		skb->next = NULL;
		skb->prev = NULL;
		skb->dev = d->dev;
		skb->tstamp = 0;
		qdisc_skb_cb(skb)->pkt_len = skb->len;
	}

	local_bh_disable();
	if (irqoff)
		local_irq_disable();
	spin_lock(qdisc_lock(q));
	t0 = ktime_get_ns();
	/* The warm-up's rounds are not marked: the counts leave them out. */
	if (r >= 0)
		qb_mark(QB_MARK_ENQ);
	for (i = 0; i < batch; i++)
		q->enqueue(d->skbs[i], q, &to_free);
	if (r >= 0)
		qb_mark(QB_MARK_END);
	t1 = ktime_get_ns();
	if (r >= 0)
		qb_mark(QB_MARK_DEQ);
	/* Bounded: a qdisc returns at most what it holds. */
	for (i = 0; i < 2 * batch; i++) {
		skb = q->dequeue(q);
		if (!skb)
			break;
		n++;
	}
	if (r >= 0)
		qb_mark(QB_MARK_END);
	t2 = ktime_get_ns();
	if (qdisc_qlen_sum(q)) {
		d->stuck += qdisc_qlen_sum(q);
		qdisc_reset(q);
	}
	spin_unlock(qdisc_lock(q));
	if (irqoff)
		local_irq_enable();
	local_bh_enable();

	while (to_free) {
		skb = to_free;
		to_free = skb->next;
		skb->next = NULL;
		d->enq_drops++;
	}
	for (i = 0; i < batch; i++) {
		if (refcount_read(&d->skbs[i]->users) < 2) {
			d->freed++;
			skb_get(d->skbs[i]);
		}
	}
	if (n > batch)
		d->foreign += n - batch;
	if (r >= 0) {
		d->enq_ns[r] = min_t(u64, t1 - t0, U32_MAX);
		d->deq_ns[r] = min_t(u64, t2 - t1, U32_MAX);
	}
}

/* Round @r of the clock alone: batch reads of ktime_get_ns() */
static void qb_clock(int r)
{
	unsigned int i;
	u64 t0, t1;

	local_bh_disable();
	t0 = ktime_get_ns();
	for (i = 0; i < batch; i++)
		ktime_get_ns();
	t1 = ktime_get_ns();
	local_bh_enable();
	if (r >= 0)
		qb_clock_ns[r] = min_t(u64, t1 - t0, U32_MAX);
}

static int qb_parse(void)
{
	char *s, *buf, *tok;
	unsigned int v;
	int err = 0;

	buf = kstrdup(sizes, GFP_KERNEL);
	if (!buf)
		return -ENOMEM;
	for (s = buf; (tok = strsep(&s, ",")) && qb_nsizes < QB_MAX_SIZES;) {
		if (kstrtouint(tok, 10, &v) || v < 28 || v > 9000) {
			err = -EINVAL;
			break;
		}
		qb_sizes[qb_nsizes++] = v;
	}
	kfree(buf);
	if (err || !qb_nsizes)
		return -EINVAL;

	buf = kstrdup(devs, GFP_KERNEL);
	if (!buf)
		return -ENOMEM;
	for (s = buf; (tok = strsep(&s, ",")) && *tok;) {
		struct qb_dev *d;

		if (qb_ndevs == QB_MAX_DEVS) {
			err = -E2BIG;
			break;
		}
		d = &qb_devs[qb_ndevs];
		d->dev = netdev_get_by_name(&init_net, tok, &d->tracker,
					    GFP_KERNEL);
		if (!d->dev) {
			pr_err("ddl_qbench: no device %s\n", tok);
			err = -ENODEV;
			break;
		}
		qb_ndevs++;
	}
	kfree(buf);
	if (err)
		return err;
	if (!qb_ndevs)
		return -EINVAL;

	buf = kstrdup(classes, GFP_KERNEL);
	if (!buf)
		return -ENOMEM;
	v = 0;
	for (s = buf; (tok = strsep(&s, ",")) && *tok && v < qb_ndevs;
	     v++) {
		if (kstrtou32(tok, 10, &qb_devs[v].classes)) {
			err = -EINVAL;
			break;
		}
	}
	kfree(buf);
	return err;
}

static int qb_prepare(struct qb_dev *d)
{
	unsigned int i;

	d->q = rtnl_dereference(d->dev->qdisc);
	if (!d->q || !d->q->enqueue || (d->q->flags & TCQ_F_BUILTIN)) {
		pr_err("ddl_qbench: %s has no root qdisc to time\n",
		       d->dev->name);
		return -EINVAL;
	}
	d->skbs = kcalloc(batch, sizeof(*d->skbs), GFP_KERNEL);
	d->enq_ns = kvcalloc(rounds, sizeof(u32), GFP_KERNEL);
	d->deq_ns = kvcalloc(rounds, sizeof(u32), GFP_KERNEL);
	if (!d->skbs || !d->enq_ns || !d->deq_ns)
		return -ENOMEM;
	for (i = 0; i < batch; i++) {
		d->skbs[i] = qb_build(d, i);
		if (!d->skbs[i])
			return -ENOMEM;
	}
	return 0;
}

static void qb_free(void)
{
	unsigned int i, k;

	for (k = 0; k < qb_ndevs; k++) {
		struct qb_dev *d = &qb_devs[k];

		for (i = 0; d->skbs && i < batch; i++) {
			if (!d->skbs[i])
				continue;
			while (refcount_read(&d->skbs[i]->users) > 1)
				kfree_skb(d->skbs[i]);
			kfree_skb(d->skbs[i]);
		}
		kfree(d->skbs);
		kvfree(d->enq_ns);
		kvfree(d->deq_ns);
		netdev_put(d->dev, &d->tracker);
	}
	kvfree(qb_clock_ns);
}

static int qb_cmp_u32(const void *a, const void *b)
{
	u32 x = *(const u32 *)a, y = *(const u32 *)b;

	return x < y ? -1 : x > y;
}

/* ns per packet, in tenths, of quantile @num/@den of @sorted */
static u32 qb_q(const u32 *sorted, unsigned int num, unsigned int den)
{
	return div_u64((u64)sorted[(u64)(rounds - 1) * num / den] * 10, batch);
}

static int qb_summary_show(struct seq_file *m, void *v)
{
	u32 *tot;
	unsigned int k, r;

	tot = kvcalloc(rounds, sizeof(u32), GFP_KERNEL);
	if (!tot)
		return -ENOMEM;
	seq_printf(m, "# batch %u rounds %u warmup %u flows %u; ns/pkt x10: enq+deq median p25 p75 min max, enq median, deq median\n",
		   batch, rounds, warmup, flows);
	for (k = 0; k < qb_ndevs; k++) {
		struct qb_dev *d = &qb_devs[k];
		u32 med, p25, p75, lo, hi, em, dm;

		for (r = 0; r < rounds; r++)
			tot[r] = d->enq_ns[r] + d->deq_ns[r];
		sort(tot, rounds, sizeof(u32), qb_cmp_u32, NULL);
		med = qb_q(tot, 1, 2);
		p25 = qb_q(tot, 1, 4);
		p75 = qb_q(tot, 3, 4);
		lo = qb_q(tot, 0, 1);
		hi = qb_q(tot, 1, 1);
		memcpy(tot, d->enq_ns, rounds * sizeof(u32));
		sort(tot, rounds, sizeof(u32), qb_cmp_u32, NULL);
		em = qb_q(tot, 1, 2);
		memcpy(tot, d->deq_ns, rounds * sizeof(u32));
		sort(tot, rounds, sizeof(u32), qb_cmp_u32, NULL);
		dm = qb_q(tot, 1, 2);
		seq_printf(m, "%s %s %x: %u %u %u %u %u %u %u enq_drops %llu freed %llu stuck %llu foreign %llu\n",
			   d->dev->name, d->q->ops->id, d->q->handle >> 16,
			   med, p25, p75, lo, hi, em, dm, d->enq_drops,
			   d->freed, d->stuck, d->foreign);
	}
	memcpy(tot, qb_clock_ns, rounds * sizeof(u32));
	sort(tot, rounds, sizeof(u32), qb_cmp_u32, NULL);
	seq_printf(m, "# clock ktime_get_ns: %u (ns/call x10, median)\n",
		   qb_q(tot, 1, 2));
	kvfree(tot);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(qb_summary);

static void *qb_raw_start(struct seq_file *m, loff_t *pos)
{
	return *pos < (loff_t)rounds * qb_ndevs ? pos : NULL;
}

static void *qb_raw_next(struct seq_file *m, void *v, loff_t *pos)
{
	++*pos;
	return qb_raw_start(m, pos);
}

static void qb_raw_stop(struct seq_file *m, void *v)
{
}

static int qb_raw_show(struct seq_file *m, void *v)
{
	loff_t i = *(loff_t *)v;
	unsigned int r = div_u64(i, qb_ndevs), k = i - (loff_t)r * qb_ndevs;

	seq_printf(m, "%u %s %u %u\n", r, qb_devs[k].dev->name,
		   qb_devs[k].enq_ns[r], qb_devs[k].deq_ns[r]);
	return 0;
}

static const struct seq_operations qb_raw_sops = {
	.start = qb_raw_start,
	.next = qb_raw_next,
	.stop = qb_raw_stop,
	.show = qb_raw_show,
};
DEFINE_SEQ_ATTRIBUTE(qb_raw);

static int __init ddl_qbench_init(void)
{
	unsigned int k, r;
	int err;

	if (!batch || batch > 4096 || !rounds || rounds > 100000 ||
	    !flows || flows > 65000 || !run || run > 4096)
		return -EINVAL;
	err = qb_parse();
	if (err)
		goto out;

	qb_clock_ns = kvcalloc(rounds, sizeof(u32), GFP_KERNEL);
	if (!qb_clock_ns) {
		err = -ENOMEM;
		goto out;
	}
	rtnl_lock();
	for (k = 0; k < qb_ndevs && !err; k++)
		err = qb_prepare(&qb_devs[k]);
	/* Interleaved: every round visits every device, from a new start. */
	for (r = 0; !err && r < warmup + rounds; r++) {
		for (k = 0; k < qb_ndevs; k++) {
			qb_round(&qb_devs[(k + r) % qb_ndevs], r,
				 (int)r - (int)warmup);
			cond_resched();
		}
		if (clock)
			qb_clock((int)r - (int)warmup);
	}
	rtnl_unlock();
	if (err)
		goto out;

	qb_dir = debugfs_create_dir("ddl_qbench", NULL);
	debugfs_create_file("summary", 0400, qb_dir, NULL, &qb_summary_fops);
	debugfs_create_file("raw", 0400, qb_dir, NULL, &qb_raw_fops);
	return 0;
out:
	qb_free();
	return err;
}

static void __exit ddl_qbench_exit(void)
{
	debugfs_remove_recursive(qb_dir);
	qb_free();
}

module_init(ddl_qbench_init);
module_exit(ddl_qbench_exit);
MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("Test only: per-packet cost of root qdiscs, side by side");
