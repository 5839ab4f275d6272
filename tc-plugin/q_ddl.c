// SPDX-License-Identifier: GPL-2.0
/*
 * q_ddl.c	tc plugin for the sch_ddl qdisc.
 *
 * Loaded by tc from its plugin directory (or $TC_LIB_DIR) as q_ddl.so; the
 * helpers it calls (get_u32, print_uint, ...) are resolved from the tc
 * binary.  tc_api.h declares them as iproute2 6.1 up to the newest release
 * tested (tc-plugin/Makefile) do; built with IPROUTE2_SRC, the plugin uses
 * that iproute2's own headers instead.  tc_abi.c checks at load time that
 * tc is one of those, and replaces what differs between them (sizes).
 */

#define _GNU_SOURCE		/* name_to_handle_at() */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <sys/vfs.h>

#include "tc_abi.h"

#include "../include/uapi/linux/sch_ddl.h"

/* Ranges (also enforced by the kernel). */
#define DDL_JOBS_MAX		4096
#define DDL_SLICE_MIN		100U		/* us */
#define DDL_SLICE_MAX		10000000U	/* us */
#define DDL_YIELD_MAX		10000000U	/* us */
#define DDL_MAXWAIT_MIN		1000U		/* us */
#define DDL_MAXWAIT_MAX		60000000U	/* us */
#define DDL_BGSHARE_MAX		50
#define DDL_KEYTTL_MAX		3600000000U	/* us; sent in ms */
#define DDL_WEIGHT_MAX		256
#define DDL_RATE_MIN		125ULL		/* bytes/s: 1 kbit/s */
#define DDL_RATE_MAX		125000000000ULL	/* bytes/s: 1 Tbit/s */
#define DDL_BURST_MAX		67108864U	/* bytes: 64 MiB */
#define DDL_TARGET_MAX		1073741824U	/* bytes: 1 GiB */
#define DDL_TARGET_TIME_MAX	10000000U	/* us */
#define DDL_INTERVAL_MIN	100U		/* us */
#define DDL_INTERVAL_MAX	10000000U	/* us */
#define DDL_LEAD_MAX		10000000U	/* us */
#define DDL_MAXPERIOD_MIN	1000U		/* us */
#define DDL_MAXPERIOD_MAX	60000000U	/* us */
#define DDL_EPOCH_MIN		100U		/* us */
#define DDL_EPOCH_MAX		10000000U	/* us */
#define DDL_SHUFFLE_MIN		10000U		/* us */
#define DDL_SHUFFLE_MAX		3600000000U	/* us */
#define DDL_SIZE_MAX		(1ULL << 40)	/* bytes */

/* The largest time get_time() must hold, in its units, fits its u32. */
_Static_assert((unsigned long long)DDL_MAXPERIOD_MAX * TIME_UNITS_PER_SEC /
	       1000000 <= UINT32_MAX, "get_time() range");
_Static_assert((unsigned long long)DDL_KEYTTL_MAX * TIME_UNITS_PER_SEC /
	       1000000 <= UINT32_MAX, "get_time() range");

static const char * const ddl_modes[] = {
	[TC_DDL_MODE_ROTATE]	= "rotate",
	[TC_DDL_MODE_GREEN]	= "green",
	[TC_DDL_MODE_STATIC]	= "static",
	[TC_DDL_MODE_FAIR]	= "fair",
	[TC_DDL_MODE_CLUSTER]	= "cluster",
};

static const char * const ddl_keys[] = {
	[TC_DDL_KEY_NONE]	= "none",
	[TC_DDL_KEY_SPORT]	= "sport",
	[TC_DDL_KEY_DPORT]	= "dport",
	[TC_DDL_KEY_MARK]	= "mark",
	[TC_DDL_KEY_DSCP]	= "dscp",
};

static void explain(void)
{
	fprintf(stderr,
		"Usage: ... ddl [ limit PACKETS ] [ memory_limit BYTES ] [ jobs N ]\n"
		"               [ mode fair|rotate|green|static ] [ slice TIME|auto ]\n"
		"               [ yield TIME|auto ] [ maxwait TIME ] [ bgshare PERCENT ]\n"
		"               [ key none|sport|dport|mark|dscp ] [ keyttl TIME ]\n"
		"               [ rate RATE|unlimited ] [ burst BYTES|auto ]\n"
		"               [ target BYTES|TIME|off|auto ] [ interval TIME ]\n"
		"               [ ecn | noecn ] [ lead TIME|auto ] [ maxperiod TIME ]\n"
		"               [ epoch TIME ] [ base NSEC ] [ dscp DSCP[,DSCP...]|off ]\n"
		"               [ shuffle TIME|off ]\n"
		"\n"
		"  limit    maximum packets queued in the qdisc, 1..1048576 (default 10000)\n"
		"  memory_limit bytes of memory (skb truesize) the queue may hold,\n"
		"           128Kb..4Gb (default 32Mb)\n"
		"  jobs     number of job classes, 1..4096, fixed at creation (default 16)\n"
		"  mode     fair: send the burst that per-job fair sharing would finish\n"
		"           first; cluster: one order on every host, by the epoch a burst\n"
		"           began in and its job's declared size; rotate, green: green\n"
		"           rotates by slices (rotate: with the whole order); static:\n"
		"           fixed order by minor (default fair)\n"
		"  slice    modes rotate, green: green time of a job of weight 1,\n"
		"           100us..10s; auto: 4 of the green job's learned burst periods,\n"
		"           handed on between bursts (default auto)\n"
		"  yield    modes rotate, green: an idle green job hands on after,\n"
		"           0..10s, 0: never; auto: its learned burst period; an explicit\n"
		"           one is also the gap between bursts (default auto)\n"
		"  maxwait  starvation guard: a head waiting this long goes, 1ms..60s,\n"
		"           at least slice (default 100ms)\n"
		"  bgshare  minimum share of the background class, 0..50%% (default 3%%)\n"
		"  key      built-in classification key (default sport)\n"
		"  keyttl   idle time before a key class is reused, 0..3600s (default 1s)\n"
		"  rate     shaping rate, 1kbit..1Tbit (default unlimited)\n"
		"  burst    bytes sent at once after idling, up to 64Mb\n"
		"           (default auto: 4ms at the rate, at least 3028)\n"
		"  target   standing-queue target of the background class in bytes\n"
		"           (up to 1Gb) or in time at the rate (up to 10s, needs a rate)\n"
		"           (default auto: 2ms at the rate, at least 3028; off without\n"
		"           a rate)\n"
		"  interval above target this long: mark or drop, 100us..10s\n"
		"           (default 10ms)\n"
		"  ecn      mark ECN-capable packets instead of dropping (default ecn)\n"
		"  lead     drain the background this long before a predicted burst,\n"
		"           0..10s, 0: no prediction; needs a target (default auto:\n"
		"           20ms, at most maxperiod / 4, with a target; else 0)\n"
		"  maxperiod longest burst period learned, 1ms..60s,\n"
		"           more than 2 x lead (default 10s)\n"
		"  epoch    mode cluster: epoch of the shared clock (CLOCK_TAI),\n"
		"           100us..10s (default 20ms)\n"
		"  base     mode cluster: where epoch 0 begins, ns of CLOCK_TAI\n"
		"           (default 0)\n"
		"  dscp     DSCP (0..63) of a job's packets by its place, first to\n"
		"           last, the last for later places; up to 8; the place is its\n"
		"           rank in the order (mode cluster) or, with shuffle, dealt\n"
		"           (default off)\n"
		"  shuffle  deal the places of dscp anew this often, on CLOCK_TAI from\n"
		"           base, from each job's class alone: the same on every host,\n"
		"           whatever jobs it holds; 10ms..3600s, off (default off)\n");
}

static void cexplain(void)
{
	fprintf(stderr,
		"Usage: ... class ... ddl [ weight W ] [ size BYTES ]\n"
		"                         [ cgroup PATH | cgroup ID | cgroup none ]\n"
		"\n"
		"  weight   weight of a job class, 1..256 (default 1): its share of the\n"
		"           fair reference in mode fair, its slice multiplier in modes\n"
		"           rotate and green (and DRR quantum in mode green)\n"
		"  size     mode cluster: the job's whole burst per iteration over all\n"
		"           of its hosts, up to 1Tb; 0: not declared (default 0)\n"
		"  cgroup   the job's cgroup (v2), by its directory or its id: packets\n"
		"           of sockets in it or below it go to the class; none: no\n"
		"           cgroup (default none)\n");
}

#ifndef CGROUP2_SUPER_MAGIC
#define CGROUP2_SUPER_MAGIC	0x63677270
#endif

/*
 * The id of a cgroup (v2): the kernel's handle of its directory, as
 * name_to_handle_at() gives it, or where a kernel has no handles, its inode
 * number, which is the same on 64-bit hosts.  A number is taken as the id
 * itself, and "none" as 0.
 */
static int ddl_get_cgroup(__u64 *id, const char *arg)
{
	struct {
		struct file_handle fh;
		__u64 id;
	} h = { .fh.handle_bytes = sizeof(__u64) };
	struct statfs sfs;
	struct stat st;
	int mnt;

	if (strcmp(arg, "none") == 0) {
		*id = 0;
		return 0;
	}
	if (arg[0] != '/' && arg[0] != '.')
		return get_u64(id, arg, 0);
	if (statfs(arg, &sfs) || sfs.f_type != CGROUP2_SUPER_MAGIC ||
	    stat(arg, &st) || !S_ISDIR(st.st_mode)) {
		fprintf(stderr, "\"%s\" is no cgroup (v2) directory\n", arg);
		return -1;
	}
	if (!name_to_handle_at(AT_FDCWD, arg, &h.fh, &mnt, 0) &&
	    h.fh.handle_bytes == sizeof(__u64)) {
		memcpy(id, h.fh.f_handle, sizeof(*id));
		return 0;
	}
	if ((errno == ENOSYS || errno == EOPNOTSUPP) &&
	    sizeof(st.st_ino) >= sizeof(*id)) {
		*id = st.st_ino;
		return 0;
	}
	fprintf(stderr, "No id for cgroup \"%s\": %s\n", arg, strerror(errno));
	return -1;
}

/*
 * get_time() with a range check, in microseconds.  get_time() stores its
 * double result in a u32 (in TIME_UNITS_PER_SEC units), which wraps
 * silently, so the magnitude is checked on the double first, by the first
 * letter of the unit; get_time() then checks the unit itself.
 */
static int ddl_get_time(__u32 *us, const char *arg, __u32 lo, __u32 hi)
{
	unsigned int units;
	double t;
	char *p;

	t = strtod(arg, &p);
	if (*p == 's' || *p == 'S')
		t *= 1000000;
	else if (*p == 'm' || *p == 'M')
		t *= 1000;
	if (!(t >= 0 && t <= hi))
		return -1;
	if (get_time(&units, arg))
		return -1;
	*us = (unsigned long long)units * 1000000 / TIME_UNITS_PER_SEC;
	return *us < lo ? -1 : 0;
}

/* Whether @arg is a number followed by a time unit get_time() knows. */
static bool ddl_is_time(const char *arg)
{
	static const char * const units[] = {
		"s", "sec", "secs", "ms", "msec", "msecs",
		"us", "usec", "usecs",
	};
	size_t i;
	char *p;

	strtod(arg, &p);
	if (p == arg)
		return false;
	for (i = 0; i < ARRAY_SIZE(units); i++)
		if (strcasecmp(p, units[i]) == 0)
			return true;
	return false;
}

/*
 * get_rate64() (bytes per second) with a range check.  get_rate64()
 * converts its double to a u64 unchecked, so the magnitude is checked on
 * the double first, as in ddl_get_time(): by the first letter of the unit,
 * the largest unit with that letter (KiBps, ..., TiBps, Bps), in bytes.
 * 0 passes: the kernel refuses it with its own message.
 */
static int ddl_get_rate(__u64 *rate, const char *arg)
{
	double t, scale = 1;
	char *p;

	t = strtod(arg, &p);
	switch (*p) {
	case 'k': case 'K':
		scale = 1024;
		break;
	case 'm': case 'M':
		scale = 1024. * 1024;
		break;
	case 'g': case 'G':
		scale = 1024. * 1024 * 1024;
		break;
	case 't': case 'T':
		scale = 1024. * 1024 * 1024 * 1024;
		break;
	}
	if (!(t >= 0 && t * scale <= 1e19))
		return -1;
	if (get_rate64(rate, arg))
		return -1;
	return *rate && (*rate < DDL_RATE_MIN || *rate > DDL_RATE_MAX) ? -1 : 0;
}

/* get_size() with an upper bound; get_size() itself detects overflow. */
static int ddl_get_size(__u32 *size, const char *arg, __u32 hi)
{
	if (get_size(size, arg))
		return -1;
	return *size > hi ? -1 : 0;
}

/* An unsigned integer in [lo, hi], optionally followed by '%'. */
static int ddl_get_percent(__u32 *val, const char *arg, __u32 lo, __u32 hi)
{
	char buf[16];
	size_t len = strlen(arg);

	if (len == 0 || len >= sizeof(buf))
		return -1;
	memcpy(buf, arg, len + 1);
	if (buf[len - 1] == '%')
		buf[len - 1] = '\0';
	if (get_u32(val, buf, 10))
		return -1;
	return *val < lo || *val > hi ? -1 : 0;
}

static int ddl_get_name(__u32 *val, const char *arg,
			const char * const *names, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		if (names[i] && strcmp(arg, names[i]) == 0) {
			*val = i;
			return 0;
		}
	}
	return -1;
}

/*
 * Bytes as a u64: a number with an optional unit b, k or kb, m or mb, g or
 * gb, t or tb (powers of 1024, as tc's sizes), at most @hi.
 */
static int ddl_get_size64(__u64 *size, const char *arg, __u64 hi)
{
	static const char * const units[] = { "", "k", "m", "g", "t" };
	double v;
	size_t i;
	char *p;

	v = strtod(arg, &p);
	if (p == arg || !(v >= 0))
		return -1;
	for (i = 0; i < ARRAY_SIZE(units); i++) {
		size_t n = strlen(units[i]);

		if (strncasecmp(p, units[i], n))
			continue;
		if (strcasecmp(p + n, "") && strcasecmp(p + n, "b"))
			continue;
		for (; n && i; i--)
			v *= 1024;
		if (v > hi)
			return -1;
		*size = (__u64)v;
		return 0;
	}
	return -1;
}

/* "46,10,0": up to TC_DDL_DSCP_MAX code points 0..63; "off": none. */
static int ddl_get_dscp(__u8 *ds, __u32 *n, const char *arg)
{
	char buf[128], *tok, *save = NULL;
	__u32 v;

	*n = 0;
	if (strcmp(arg, "off") == 0)
		return 0;
	if (strlen(arg) >= sizeof(buf))
		return -1;
	strcpy(buf, arg);
	for (tok = strtok_r(buf, ",", &save); tok;
	     tok = strtok_r(NULL, ",", &save)) {
		if (*n == TC_DDL_DSCP_MAX || get_u32(&v, tok, 0) || v > 63)
			return -1;
		ds[(*n)++] = v;
	}
	return *n ? 0 : -1;
}

static int ddl_illegal(const char *what)
{
	fprintf(stderr, "Illegal \"%s\"\n", what);
	explain();
	return -1;
}

static int ddl_parse_opt(TC_QU_CONST struct qdisc_util *qu, int argc,
			 char **argv, struct nlmsghdr *n, const char *dev)
{
	bool set[TCA_DDL_MAX + 1] = {};
	__u32 val[TCA_DDL_MAX + 1] = {};
	__u8 dscp[TC_DDL_DSCP_MAX];
	__u64 rate = 0, base = 0;
	struct rtattr *tail;
	__u32 ndscp = 0;
	int type;

	while (argc > 0) {
		if (strcmp(*argv, "limit") == 0) {
			type = TCA_DDL_LIMIT;
			NEXT_ARG();
			/* The upper bound is left to the kernel. */
			if (get_u32(&val[type], *argv, 0) || val[type] == 0)
				return ddl_illegal("limit");
		} else if (strcmp(*argv, "memory_limit") == 0) {
			type = TCA_DDL_MEMORY_LIMIT;
			NEXT_ARG();
			/* The lower bound is left to the kernel. */
			if (get_size(&val[type], *argv))
				return ddl_illegal("memory_limit");
		} else if (strcmp(*argv, "jobs") == 0) {
			type = TCA_DDL_JOBS;
			NEXT_ARG();
			if (get_u32(&val[type], *argv, 0) || val[type] == 0 ||
			    val[type] > DDL_JOBS_MAX)
				return ddl_illegal("jobs");
		} else if (strcmp(*argv, "mode") == 0) {
			type = TCA_DDL_MODE;
			NEXT_ARG();
			if (ddl_get_name(&val[type], *argv, ddl_modes,
					 ARRAY_SIZE(ddl_modes)))
				return ddl_illegal("mode");
		} else if (strcmp(*argv, "slice") == 0) {
			type = TCA_DDL_SLICE;
			NEXT_ARG();
			if (strcmp(*argv, "auto") == 0)
				val[type] = TC_DDL_AUTO;
			else if (ddl_get_time(&val[type], *argv, DDL_SLICE_MIN,
					      DDL_SLICE_MAX))
				return ddl_illegal("slice");
		} else if (strcmp(*argv, "yield") == 0) {
			type = TCA_DDL_YIELD;
			NEXT_ARG();
			if (strcmp(*argv, "auto") == 0)
				val[type] = TC_DDL_AUTO;
			else if (ddl_get_time(&val[type], *argv, 0,
					      DDL_YIELD_MAX))
				return ddl_illegal("yield");
		} else if (strcmp(*argv, "maxwait") == 0) {
			type = TCA_DDL_MAXWAIT;
			NEXT_ARG();
			if (ddl_get_time(&val[type], *argv, DDL_MAXWAIT_MIN,
					 DDL_MAXWAIT_MAX))
				return ddl_illegal("maxwait");
		} else if (strcmp(*argv, "bgshare") == 0) {
			type = TCA_DDL_BGSHARE;
			NEXT_ARG();
			if (ddl_get_percent(&val[type], *argv, 0,
					    DDL_BGSHARE_MAX))
				return ddl_illegal("bgshare");
		} else if (strcmp(*argv, "key") == 0) {
			type = TCA_DDL_KEY;
			NEXT_ARG();
			if (ddl_get_name(&val[type], *argv, ddl_keys,
					 ARRAY_SIZE(ddl_keys)))
				return ddl_illegal("key");
		} else if (strcmp(*argv, "keyttl") == 0) {
			type = TCA_DDL_KEYTTL;
			NEXT_ARG();
			if (ddl_get_time(&val[type], *argv, 0, DDL_KEYTTL_MAX))
				return ddl_illegal("keyttl");
			val[type] /= 1000;	/* the kernel wants ms */
		} else if (strcmp(*argv, "rate") == 0) {
			type = TCA_DDL_RATE;
			NEXT_ARG();
			if (strcmp(*argv, "unlimited") == 0)
				rate = TC_DDL_RATE_NONE;
			else if (ddl_get_rate(&rate, *argv))
				return ddl_illegal("rate");
		} else if (strcmp(*argv, "burst") == 0) {
			type = TCA_DDL_BURST;
			NEXT_ARG();
			if (strcmp(*argv, "auto") == 0)
				val[type] = 0;
			else if (ddl_get_size(&val[type], *argv, DDL_BURST_MAX))
				return ddl_illegal("burst");
		} else if (strcmp(*argv, "target") == 0) {
			/* Bytes or time: the kernel clears the other one. */
			NEXT_ARG();
			if (strcmp(*argv, "off") == 0) {
				type = TCA_DDL_TARGET;
				val[type] = 0;
			} else if (strcmp(*argv, "auto") == 0) {
				type = TCA_DDL_TARGET_TIME;
				val[type] = TC_DDL_AUTO;
			} else if (ddl_is_time(*argv)) {
				type = TCA_DDL_TARGET_TIME;
				if (ddl_get_time(&val[type], *argv, 0,
						 DDL_TARGET_TIME_MAX))
					return ddl_illegal("target");
			} else {
				type = TCA_DDL_TARGET;
				if (ddl_get_size(&val[type], *argv,
						 DDL_TARGET_MAX))
					return ddl_illegal("target");
			}
			set[TCA_DDL_TARGET] = false;
			set[TCA_DDL_TARGET_TIME] = false;
		} else if (strcmp(*argv, "interval") == 0) {
			type = TCA_DDL_INTERVAL;
			NEXT_ARG();
			if (ddl_get_time(&val[type], *argv, DDL_INTERVAL_MIN,
					 DDL_INTERVAL_MAX))
				return ddl_illegal("interval");
		} else if (strcmp(*argv, "ecn") == 0) {
			type = TCA_DDL_ECN;
			val[type] = 1;
		} else if (strcmp(*argv, "noecn") == 0) {
			type = TCA_DDL_ECN;
			val[type] = 0;
		} else if (strcmp(*argv, "lead") == 0) {
			type = TCA_DDL_LEAD;
			NEXT_ARG();
			if (strcmp(*argv, "auto") == 0)
				val[type] = TC_DDL_AUTO;
			else if (ddl_get_time(&val[type], *argv, 0,
					      DDL_LEAD_MAX))
				return ddl_illegal("lead");
		} else if (strcmp(*argv, "maxperiod") == 0) {
			type = TCA_DDL_MAXPERIOD;
			NEXT_ARG();
			if (ddl_get_time(&val[type], *argv, DDL_MAXPERIOD_MIN,
					 DDL_MAXPERIOD_MAX))
				return ddl_illegal("maxperiod");
		} else if (strcmp(*argv, "epoch") == 0) {
			type = TCA_DDL_EPOCH;
			NEXT_ARG();
			if (ddl_get_time(&val[type], *argv, DDL_EPOCH_MIN,
					 DDL_EPOCH_MAX))
				return ddl_illegal("epoch");
		} else if (strcmp(*argv, "base") == 0) {
			type = TCA_DDL_BASE;
			NEXT_ARG();
			if (get_u64(&base, *argv, 10))
				return ddl_illegal("base");
		} else if (strcmp(*argv, "dscp") == 0) {
			type = TCA_DDL_DSCP;
			NEXT_ARG();
			if (ddl_get_dscp(dscp, &ndscp, *argv))
				return ddl_illegal("dscp");
		} else if (strcmp(*argv, "shuffle") == 0) {
			type = TCA_DDL_SHUFFLE;
			NEXT_ARG();
			if (strcmp(*argv, "off") == 0)
				val[type] = 0;
			else if (ddl_get_time(&val[type], *argv,
					      DDL_SHUFFLE_MIN, DDL_SHUFFLE_MAX))
				return ddl_illegal("shuffle");
		} else if (strcmp(*argv, "help") == 0) {
			explain();
			return -1;
		} else {
			fprintf(stderr, "What is \"%s\"?\n", *argv);
			explain();
			return -1;
		}
		set[type] = true;
		argc--;
		argv++;
	}

	/*
	 * Relations between values given together; against the current
	 * or default value of the other one, the kernel checks them.
	 */
	if (set[TCA_DDL_YIELD] && set[TCA_DDL_SLICE] &&
	    val[TCA_DDL_YIELD] != TC_DDL_AUTO &&
	    val[TCA_DDL_SLICE] != TC_DDL_AUTO &&
	    val[TCA_DDL_YIELD] >= val[TCA_DDL_SLICE]) {
		fprintf(stderr, "Illegal \"yield\": must be less than \"slice\"\n");
		return -1;
	}
	if (set[TCA_DDL_MAXWAIT] && set[TCA_DDL_SLICE] &&
	    val[TCA_DDL_SLICE] != TC_DDL_AUTO &&
	    val[TCA_DDL_MAXWAIT] < val[TCA_DDL_SLICE]) {
		fprintf(stderr, "Illegal \"maxwait\": must be at least \"slice\"\n");
		return -1;
	}
	if (set[TCA_DDL_LEAD] && set[TCA_DDL_MAXPERIOD] &&
	    val[TCA_DDL_LEAD] != TC_DDL_AUTO &&
	    2ULL * val[TCA_DDL_LEAD] >= val[TCA_DDL_MAXPERIOD]) {
		fprintf(stderr, "Illegal \"lead\": must be shorter than half of \"maxperiod\"\n");
		return -1;
	}

	tail = addattr_nest(n, 1024, TCA_OPTIONS | NLA_F_NESTED);
	for (type = TCA_DDL_LIMIT; type <= TCA_DDL_MAX; type++) {
		if (!set[type])
			continue;
		if (type == TCA_DDL_RATE)
			addattr64(n, 1024, type, rate);	/* NLA_U64 */
		else if (type == TCA_DDL_BASE)
			addattr64(n, 1024, type, base);
		else if (type == TCA_DDL_DSCP)
			addattr_l(n, 1024, type, dscp, ndscp);
		else
			addattr32(n, 1024, type, val[type]);
	}
	addattr_nest_end(n, tail);
	return 0;
}

/* Whether attribute @type is present and holds a u32. */
static bool ddl_attr_u32(struct rtattr *tb[], int type, __u32 *val)
{
	if (!tb[type] || RTA_PAYLOAD(tb[type]) < sizeof(__u32))
		return false;
	*val = rta_getattr_u32(tb[type]);
	return true;
}

/* Microseconds as text, "20ms", by sprint_time() (TIME_UNITS_PER_SEC). */
static char *ddl_sprint_us(__u32 us, char *buf)
{
	/* tc prints 3600 s as "3.6e+03s": whole seconds as such. */
	if (us >= 1000000 && !(us % 1000000)) {
		snprintf(buf, SPRINT_BSIZE, "%us", us / 1000000);
		return buf;
	}
	return sprint_time((unsigned long long)us * TIME_UNITS_PER_SEC /
			   1000000, buf);
}

/* JSON: the number in microseconds; text: "name 20ms". */
static void ddl_print_us(const char *name, __u32 us)
{
	char fmt[32];

	SPRINT_BUF(b1);

	snprintf(fmt, sizeof(fmt), "%s %%s ", name);
	if (us == TC_DDL_AUTO) {
		print_string(PRINT_ANY, name, fmt, "auto");
		return;
	}
	print_uint(PRINT_JSON, name, NULL, us);
	print_string(PRINT_FP, NULL, fmt, ddl_sprint_us(us, b1));
}

/* Whether attribute @type is present and holds a u64. */
static bool ddl_attr_u64(struct rtattr *tb[], int type, __u64 *val)
{
	if (!tb[type] || RTA_PAYLOAD(tb[type]) < sizeof(__u64))
		return false;
	*val = rta_getattr_u64(tb[type]);
	return true;
}

static void ddl_print_name(const char *name, __u32 v,
			   const char * const *names, size_t n)
{
	char fmt[32];

	if (v < n && names[v]) {
		snprintf(fmt, sizeof(fmt), "%s %%s ", name);
		print_string(PRINT_ANY, name, fmt, names[v]);
	} else {
		snprintf(fmt, sizeof(fmt), "%s %%u ", name);
		print_uint(PRINT_ANY, name, fmt, v);
	}
}

/* JSON "dscp": [46, 10]; text "dscp 46,10" or "dscp off". */
static void ddl_print_dscp(struct rtattr *attr)
{
	const __u8 *ds = RTA_DATA(attr);
	int i, n = RTA_PAYLOAD(attr);

	if (n > TC_DDL_DSCP_MAX)
		n = TC_DDL_DSCP_MAX;
	open_json_array(PRINT_JSON, "dscp");
	for (i = 0; i < n; i++)
		print_uint(PRINT_JSON, NULL, NULL, ds[i]);
	close_json_array(PRINT_JSON, NULL);
	print_string(PRINT_FP, NULL, "%s", "dscp ");
	for (i = 0; i < n; i++)
		print_uint(PRINT_FP, NULL, i ? ",%u" : "%u", ds[i]);
	print_string(PRINT_FP, NULL, "%s ", n ? "" : "off");
}

static int ddl_print_opt(TC_QU_CONST struct qdisc_util *qu, FILE *f,
			 struct rtattr *opt)
{
	struct rtattr *tb[TCA_DDL_MAX + 1];
	__u64 rate;
	__u32 v, t;

	SPRINT_BUF(b1);

	if (!opt)
		return 0;

	parse_rtattr_nested(tb, TCA_DDL_MAX, opt);

	if (ddl_attr_u32(tb, TCA_DDL_LIMIT, &v))
		print_uint(PRINT_ANY, "limit", "limit %up ", v);
	if (ddl_attr_u32(tb, TCA_DDL_MEMORY_LIMIT, &v)) {
		print_uint(PRINT_JSON, "memory_limit", NULL, v);
		print_string(PRINT_FP, NULL, "memory_limit %s ",
			     ddl_sprint_size(v, b1));
	}
	if (ddl_attr_u32(tb, TCA_DDL_JOBS, &v))
		print_uint(PRINT_ANY, "jobs", "jobs %u ", v);
	if (ddl_attr_u32(tb, TCA_DDL_MODE, &v))
		ddl_print_name("mode", v, ddl_modes, ARRAY_SIZE(ddl_modes));
	if (ddl_attr_u32(tb, TCA_DDL_SLICE, &v))
		ddl_print_us("slice", v);
	if (ddl_attr_u32(tb, TCA_DDL_YIELD, &v))
		ddl_print_us("yield", v);
	if (ddl_attr_u32(tb, TCA_DDL_MAXWAIT, &v))
		ddl_print_us("maxwait", v);
	if (ddl_attr_u32(tb, TCA_DDL_BGSHARE, &v))
		print_uint(PRINT_ANY, "bgshare", "bgshare %u%% ", v);
	if (ddl_attr_u32(tb, TCA_DDL_KEY, &v))
		ddl_print_name("key", v, ddl_keys, ARRAY_SIZE(ddl_keys));
	if (ddl_attr_u32(tb, TCA_DDL_KEYTTL, &v)) {
		/* Milliseconds, unlike the other times. */
		print_uint(PRINT_JSON, "keyttl", NULL, v);
		print_string(PRINT_FP, NULL, "keyttl %s ",
			     sprint_time64((__s64)v * 1000000, b1));
	}

	/*
	 * Shaping: without a rate (unlimited, or a module without shaping)
	 * neither the rate nor the burst is printed.  JSON: bytes/s, bytes.
	 */
	if (ddl_attr_u64(tb, TCA_DDL_RATE, &rate) &&
	    rate != TC_DDL_RATE_NONE && rate != 0) {
		tc_print_rate(PRINT_ANY, "rate", "rate %s ", rate);
		if (ddl_attr_u32(tb, TCA_DDL_BURST, &v)) {
			print_uint(PRINT_JSON, "burst", NULL, v);
			print_string(PRINT_FP, NULL, "burst %s ",
				     v ? ddl_sprint_size(v, b1) : "auto");
		}
	}

	/*
	 * Target: the kernel dumps it as it was given, in time or in bytes.
	 * Text "target 200us", "target 30000b", "target off" or "target
	 * auto"; JSON the attribute dumped, target_time in us ("auto") or
	 * target in bytes.  The target in force is in the statistics.
	 */
	if (ddl_attr_u32(tb, TCA_DDL_TARGET_TIME, &t) && t == TC_DDL_AUTO) {
		print_string(PRINT_ANY, "target_time", "target %s ", "auto");
	} else if (ddl_attr_u32(tb, TCA_DDL_TARGET_TIME, &t) && t) {
		print_uint(PRINT_JSON, "target_time", NULL, t);
		print_string(PRINT_FP, NULL, "target %s ", ddl_sprint_us(t, b1));
	} else if (ddl_attr_u32(tb, TCA_DDL_TARGET, &v)) {
		print_uint(PRINT_JSON, "target", NULL, v);
		print_string(PRINT_FP, NULL, "target %s ",
			     v ? ddl_sprint_size(v, b1) : "off");
	} else if (tb[TCA_DDL_TARGET_TIME]) {
		print_uint(PRINT_JSON, "target_time", NULL, 0);
		print_string(PRINT_FP, NULL, "target %s ", "off");
	}
	if (ddl_attr_u32(tb, TCA_DDL_INTERVAL, &v))
		ddl_print_us("interval", v);
	if (ddl_attr_u32(tb, TCA_DDL_ECN, &v)) {
		print_bool(PRINT_JSON, "ecn", NULL, v);
		print_string(PRINT_FP, NULL, "%s ", v ? "ecn" : "noecn");
	}
	if (ddl_attr_u32(tb, TCA_DDL_LEAD, &v))
		ddl_print_us("lead", v);
	if (ddl_attr_u32(tb, TCA_DDL_MAXPERIOD, &v))
		ddl_print_us("maxperiod", v);
	if (ddl_attr_u32(tb, TCA_DDL_EPOCH, &v))
		ddl_print_us("epoch", v);
	if (ddl_attr_u64(tb, TCA_DDL_BASE, &rate))
		print_u64(PRINT_ANY, "base", "base %llu ", rate);
	if (tb[TCA_DDL_DSCP])
		ddl_print_dscp(tb[TCA_DDL_DSCP]);
	if (ddl_attr_u32(tb, TCA_DDL_SHUFFLE, &v)) {
		if (v) {
			ddl_print_us("shuffle", v);
		} else {
			print_uint(PRINT_JSON, "shuffle", NULL, 0);
			print_string(PRINT_FP, NULL, "shuffle %s ", "off");
		}
	}
	return 0;
}

static int ddl_parse_copt(TC_QU_CONST struct qdisc_util *qu, int argc,
			  char **argv, struct nlmsghdr *n, const char *dev)
{
	bool set_weight = false, set_size = false, set_cgroup = false;
	__u64 size = 0, cgroup = 0;
	struct rtattr *tail;
	__u32 weight = 0;

	while (argc > 0) {
		if (strcmp(*argv, "weight") == 0) {
			NEXT_ARG();
			if (get_u32(&weight, *argv, 0) || weight == 0 ||
			    weight > DDL_WEIGHT_MAX) {
				fprintf(stderr, "Illegal \"weight\"\n");
				cexplain();
				return -1;
			}
			set_weight = true;
		} else if (strcmp(*argv, "size") == 0) {
			NEXT_ARG();
			if (ddl_get_size64(&size, *argv, DDL_SIZE_MAX)) {
				fprintf(stderr, "Illegal \"size\"\n");
				cexplain();
				return -1;
			}
			set_size = true;
		} else if (strcmp(*argv, "cgroup") == 0) {
			NEXT_ARG();
			if (ddl_get_cgroup(&cgroup, *argv)) {
				fprintf(stderr, "Illegal \"cgroup\"\n");
				cexplain();
				return -1;
			}
			set_cgroup = true;
		} else if (strcmp(*argv, "help") == 0) {
			cexplain();
			return -1;
		} else {
			fprintf(stderr, "What is \"%s\"?\n", *argv);
			cexplain();
			return -1;
		}
		argc--;
		argv++;
	}

	tail = addattr_nest(n, 1024, TCA_OPTIONS | NLA_F_NESTED);
	if (set_weight)
		addattr32(n, 1024, TCA_DDL_CLASS_WEIGHT, weight);
	if (set_size)
		addattr64(n, 1024, TCA_DDL_CLASS_SIZE, size);
	if (set_cgroup)
		addattr64(n, 1024, TCA_DDL_CLASS_CGROUP, cgroup);
	addattr_nest_end(n, tail);
	return 0;
}

static int ddl_print_copt(TC_QU_CONST struct qdisc_util *qu, FILE *f,
			  struct rtattr *opt)
{
	struct rtattr *tb[TCA_DDL_CLASS_MAX + 1];
	__u64 size, cgroup;
	__u32 v;

	if (!opt)
		return 0;

	parse_rtattr_nested(tb, TCA_DDL_CLASS_MAX, opt);

	if (ddl_attr_u32(tb, TCA_DDL_CLASS_WEIGHT, &v))
		print_uint(PRINT_ANY, "weight", "weight %u ", v);
	/* Bytes, a plain integer in text too: tc's sizes are 32 bits. */
	if (ddl_attr_u64(tb, TCA_DDL_CLASS_SIZE, &size) && size)
		print_u64(PRINT_ANY, "size", "size %llu ", size);
	if (ddl_attr_u64(tb, TCA_DDL_CLASS_CGROUP, &cgroup) && cgroup)
		print_u64(PRINT_ANY, "cgroup", "cgroup %llu ", cgroup);
	return 0;
}

/* Whether the kernel's xstats (of @len bytes) hold @field. */
#define DDL_HAS(len, field) \
	((len) >= offsetof(struct tc_ddl_xstats, field) + \
		  sizeof(((struct tc_ddl_xstats *)0)->field))

/*
 * Whether the kernel's xstats hold the qdisc fields added with mode fair
 * (vtime .. claimed).  The union is as long as its longer member, the class
 * counters, so an older module's qdisc xstats (280 bytes) already cover
 * them with zero padding: DDL_HAS() cannot tell.  They came with the class
 * fields vstart .. tag_exts, which made the structure longer: tell them by
 * its length.
 */
#define DDL_HAS_FAIR(len) DDL_HAS(len, class.tag_exts)
_Static_assert(offsetof(struct tc_ddl_xstats, qdisc.claimed) +
	       sizeof(__u32) <=
	       offsetof(struct tc_ddl_xstats, class.tag_exts) +
	       sizeof(__u64), "DDL_HAS_FAIR covers the qdisc fields");

/* Likewise the qdisc fields of mode cluster (epoch .. cl_jobs). */
#define DDL_HAS_CLUSTER(len) DDL_HAS(len, class.rank)
_Static_assert(offsetof(struct tc_ddl_xstats, qdisc.cl_jobs) +
	       sizeof(__u32) <=
	       offsetof(struct tc_ddl_xstats, class.rank) +
	       sizeof(__u32), "DDL_HAS_CLUSTER covers the qdisc fields");

/* And the ACK lane's counter, which came with the class's. */
#define DDL_HAS_ACK(len) DDL_HAS(len, class.ack_runs)
_Static_assert(offsetof(struct tc_ddl_xstats, qdisc.ack_runs) <=
	       offsetof(struct tc_ddl_xstats, class.ack_runs),
	       "DDL_HAS_ACK covers the qdisc field");

/* And the shared clock's fields, which came with the class's place. */
#define DDL_HAS_CLOCK(len) DDL_HAS(len, class.place)
_Static_assert(offsetof(struct tc_ddl_xstats, qdisc.edge_bursts) +
	       sizeof(__u64) <=
	       offsetof(struct tc_ddl_xstats, class.place) + sizeof(__u32),
	       "DDL_HAS_CLOCK covers the qdisc fields");

/*
 * The fields of cgroup classes made the qdisc counters the longer member:
 * the last of them tells them all.
 */
#define DDL_HAS_CGROUP(len) DDL_HAS(len, qdisc.cgroups_bound)

/*
 * The memory counters: the qdisc's last field tells the class's too, which
 * an older module's longer qdisc counters would cover with zero padding.
 */
#define DDL_HAS_MEMORY(len) DDL_HAS(len, qdisc.memory_peak)
_Static_assert(offsetof(struct tc_ddl_xstats, class.memory_used) <=
	       offsetof(struct tc_ddl_xstats, qdisc.memory_peak),
	       "DDL_HAS_MEMORY covers the class fields");

/*
 * Text layout of the counters: lines start with two spaces, counters on a
 * line are separated by one; a line whose counters are all missing (older
 * kernel) is left out.  tc ends the last line itself.
 */
struct ddl_out {
	bool any;	/* something printed */
	bool open;	/* the current line has a counter */
};

static const char *ddl_sep(struct ddl_out *o)
{
	if (o->open)
		return " ";
	if (o->any)
		print_nl();
	o->any = true;
	o->open = true;
	return "  ";
}

static void ddl_line(struct ddl_out *o)
{
	o->open = false;
}

static void ddl_print_cnt(struct ddl_out *o, const char *name, __u64 v)
{
	char fmt[64];

	snprintf(fmt, sizeof(fmt), "%s%s %%llu", ddl_sep(o), name);
	print_lluint(PRINT_ANY, name, fmt, v);
}

#define DDL_CNT(o, len, st, u, field) do {				\
	if (DDL_HAS(len, u.field))					\
		ddl_print_cnt(o, #field, (st).u.field);			\
} while (0)

/* A class minor: text hexadecimal as in class ids, or "none" for 0. */
static void ddl_print_minor(struct ddl_out *o, const char *name, __u32 minor)
{
	char buf[16], fmt[64];

	snprintf(buf, sizeof(buf), "%x", minor);
	snprintf(fmt, sizeof(fmt), "%s%s %%s", ddl_sep(o), name);
	print_uint(PRINT_JSON, name, NULL, minor);
	print_string(PRINT_FP, NULL, fmt, minor ? buf : "none");
}

/* Nanoseconds: JSON @name, the number; text @text, "1.5s". */
static void ddl_print_ns(struct ddl_out *o, const char *name,
			 const char *text, __u64 ns)
{
	char fmt[64];

	SPRINT_BUF(b1);

	snprintf(fmt, sizeof(fmt), "%s%s %%s", ddl_sep(o), text);
	print_lluint(PRINT_JSON, name, NULL, ns);
	print_string(PRINT_FP, NULL, fmt, sprint_time64(ns, b1));
}

/*
 * The histogram: JSON "burst_hist", all TC_DDL_HIST_BUCKETS counts; text
 * "burst_hist LOus:COUNT ..." for the non-empty buckets, LO the smallest
 * time of the bucket.
 */
static void ddl_print_hist(struct ddl_out *o, const __u32 *hist)
{
	unsigned long long lo;
	char buf[48];
	int b;

	open_json_array(PRINT_JSON, "burst_hist");
	for (b = 0; b < TC_DDL_HIST_BUCKETS; b++)
		print_uint(PRINT_JSON, NULL, NULL, hist[b]);
	close_json_array(PRINT_JSON, NULL);

	print_string(PRINT_FP, NULL, "%sburst_hist", ddl_sep(o));
	for (b = 0; b < TC_DDL_HIST_BUCKETS; b++) {
		if (!hist[b])
			continue;
		lo = b ? 1ULL << (b - 1) : 0;
		snprintf(buf, sizeof(buf), "%lluus:%u", lo, hist[b]);
		print_string(PRINT_FP, NULL, " %s", buf);
	}
}

static void ddl_print_qd_xstats(const struct tc_ddl_xstats *st, size_t len)
{
	struct ddl_out o = {};

	SPRINT_BUF(b1);

	if (DDL_HAS(len, qdisc.green))
		ddl_print_minor(&o, "green", st->qdisc.green);
	DDL_CNT(&o, len, *st, qdisc, rotations);
	DDL_CNT(&o, len, *st, qdisc, yields);
	if (DDL_HAS(len, qdisc.turn_ns))
		ddl_print_ns(&o, "turn_ns", "turn", st->qdisc.turn_ns);
	DDL_CNT(&o, len, *st, qdisc, turns_forced);
	DDL_CNT(&o, len, *st, qdisc, guard_runs);
	DDL_CNT(&o, len, *st, qdisc, bgshare_runs);
	if (DDL_HAS_ACK(len))
		DDL_CNT(&o, len, *st, qdisc, ack_runs);
	ddl_line(&o);
	/* Fair order: the reference's virtual time (bytes/weight x 256). */
	if (DDL_HAS_FAIR(len)) {
		DDL_CNT(&o, len, *st, qdisc, vtime);
		DDL_CNT(&o, len, *st, qdisc, fair_jobs);
		DDL_CNT(&o, len, *st, qdisc, tag_exts);
		ddl_line(&o);
	}
	if (DDL_HAS_CLUSTER(len)) {
		ddl_print_minor(&o, "cl_first", st->qdisc.cl_first);
		DDL_CNT(&o, len, *st, qdisc, cl_jobs);
		DDL_CNT(&o, len, *st, qdisc, epoch);
		DDL_CNT(&o, len, *st, qdisc, cl_bursts);
		DDL_CNT(&o, len, *st, qdisc, cl_exts);
		DDL_CNT(&o, len, *st, qdisc, dscp_marks);
		DDL_CNT(&o, len, *st, qdisc, dscp_fails);
		ddl_line(&o);
	}
	if (DDL_HAS_CLOCK(len)) {
		DDL_CNT(&o, len, *st, qdisc, tai_off_ns);
		DDL_CNT(&o, len, *st, qdisc, deal);
		DDL_CNT(&o, len, *st, qdisc, edge_bursts);
		ddl_line(&o);
	}
	DDL_CNT(&o, len, *st, qdisc, drop_overlimit);
	DDL_CNT(&o, len, *st, qdisc, drop_change);
	DDL_CNT(&o, len, *st, qdisc, drop_filter);
	if (DDL_HAS_MEMORY(len)) {
		DDL_CNT(&o, len, *st, qdisc, drop_overmemory);
		ddl_line(&o);
		DDL_CNT(&o, len, *st, qdisc, memory_used);
		DDL_CNT(&o, len, *st, qdisc, memory_peak);
	}
	ddl_line(&o);
	DDL_CNT(&o, len, *st, qdisc, cls_filter);
	DDL_CNT(&o, len, *st, qdisc, cls_priority);
	if (DDL_HAS_CGROUP(len))
		DDL_CNT(&o, len, *st, qdisc, cls_cgroup);
	DDL_CNT(&o, len, *st, qdisc, cls_key);
	DDL_CNT(&o, len, *st, qdisc, cls_background);
	if (DDL_HAS_CGROUP(len))
		DDL_CNT(&o, len, *st, qdisc, cgroups_bound);
	ddl_line(&o);
	if (DDL_HAS(len, qdisc.keys_mapped)) {
		print_string(PRINT_FP, NULL, "%s", ddl_sep(&o));
		print_uint(PRINT_ANY, "keys_mapped", "keys_mapped %u",
			   st->qdisc.keys_mapped);
	}
	if (DDL_HAS_FAIR(len))
		DDL_CNT(&o, len, *st, qdisc, claimed);
	DDL_CNT(&o, len, *st, qdisc, key_overflow);
	DDL_CNT(&o, len, *st, qdisc, key_recycled);
	ddl_line(&o);
	if (DDL_HAS(len, qdisc.throttled_ns))
		ddl_print_ns(&o, "throttled_ns", "throttled_time",
			     st->qdisc.throttled_ns);
	DDL_CNT(&o, len, *st, qdisc, throttles);
	DDL_CNT(&o, len, *st, qdisc, paced_pkts);
	DDL_CNT(&o, len, *st, qdisc, paced_bytes);
	ddl_line(&o);
	if (DDL_HAS(len, qdisc.target)) {
		/* Bytes, also when the target was given as time. */
		print_string(PRINT_FP, NULL, "%s", ddl_sep(&o));
		print_u64(PRINT_JSON, "target", NULL, st->qdisc.target);
		if (!st->qdisc.target)
			print_string(PRINT_FP, NULL, "target %s", "off");
		else if (st->qdisc.target <= UINT32_MAX)
			print_string(PRINT_FP, NULL, "target %s",
				     ddl_sprint_size(st->qdisc.target, b1));
		else
			print_u64(PRINT_FP, NULL, "target %llub",
				  st->qdisc.target);
	}
	DDL_CNT(&o, len, *st, qdisc, aqm_marks);
	DDL_CNT(&o, len, *st, qdisc, aqm_drops);
	ddl_line(&o);
	DDL_CNT(&o, len, *st, qdisc, bursts);
	DDL_CNT(&o, len, *st, qdisc, pred_hits);
	DDL_CNT(&o, len, *st, qdisc, pred_misses);
	ddl_line(&o);
	if (DDL_HAS(len, qdisc.lead_job))
		ddl_print_minor(&o, "lead_job", st->qdisc.lead_job);
	DDL_CNT(&o, len, *st, qdisc, leads);
	if (DDL_HAS(len, qdisc.lead_ns))
		ddl_print_ns(&o, "lead_ns", "lead_time", st->qdisc.lead_ns);
	DDL_CNT(&o, len, *st, qdisc, lead_marks);
	DDL_CNT(&o, len, *st, qdisc, lead_drops);
}

static void ddl_print_cl_xstats(const struct tc_ddl_xstats *st, size_t len)
{
	struct ddl_out o = {};

	if (DDL_HAS(len, class.green_ns))
		ddl_print_ns(&o, "green_ns", "green_time", st->class.green_ns);
	DDL_CNT(&o, len, *st, class, greens);
	DDL_CNT(&o, len, *st, class, yields);
	DDL_CNT(&o, len, *st, class, guard_runs);
	DDL_CNT(&o, len, *st, class, ack_runs);
	ddl_line(&o);
	DDL_CNT(&o, len, *st, class, bytes_green);
	DDL_CNT(&o, len, *st, class, bytes_yellow);
	if (DDL_HAS(len, class.keyed)) {
		print_bool(PRINT_JSON, "keyed", NULL, st->class.keyed);
		print_uint(PRINT_JSON, "key", NULL, st->class.key);
		if (st->class.keyed) {
			print_string(PRINT_FP, NULL, "%s", ddl_sep(&o));
			print_uint(PRINT_FP, NULL, "key %u", st->class.key);
		}
	}
	/*
	 * Burst prediction.  tc 6.1 prints classes as text only, which the
	 * tests read as "name integer" pairs: so the text uses the JSON names
	 * and plain integers here, the period in ns too.
	 */
	ddl_line(&o);
	DDL_CNT(&o, len, *st, class, bursts);
	if (DDL_HAS(len, class.predicted)) {
		print_string(PRINT_FP, NULL, "%s", ddl_sep(&o));
		print_uint(PRINT_ANY, "predicted", "predicted %u",
			   st->class.predicted);
	}
	DDL_CNT(&o, len, *st, class, period_ns);
	DDL_CNT(&o, len, *st, class, burst_bytes);
	ddl_line(&o);
	DDL_CNT(&o, len, *st, class, pred_hits);
	DDL_CNT(&o, len, *st, class, pred_misses);
	DDL_CNT(&o, len, *st, class, ce_marks);
	ddl_line(&o);
	if (DDL_HAS_MEMORY(len)) {
		DDL_CNT(&o, len, *st, class, memory_used);
		DDL_CNT(&o, len, *st, class, drop_overmemory);
		ddl_line(&o);
	}
	DDL_CNT(&o, len, *st, class, burst_backlog);
	DDL_CNT(&o, len, *st, class, burst_backlog_max);
	DDL_CNT(&o, len, *st, class, burst_backlog_sum);
	/* Fair order: the current burst's tags and bytes, plain integers. */
	ddl_line(&o);
	DDL_CNT(&o, len, *st, class, vstart);
	DDL_CNT(&o, len, *st, class, vfinish);
	DDL_CNT(&o, len, *st, class, seg_bytes);
	DDL_CNT(&o, len, *st, class, tag_exts);
	/* Cluster order: the declared size, the burst's key, plain integers. */
	ddl_line(&o);
	DDL_CNT(&o, len, *st, class, size);
	DDL_CNT(&o, len, *st, class, cl_key);
	DDL_CNT(&o, len, *st, class, cl_allow);
	DDL_CNT(&o, len, *st, class, cl_rot);
	DDL_CNT(&o, len, *st, class, rank);
	DDL_CNT(&o, len, *st, class, dscp_marks);
	if (DDL_HAS_CLOCK(len))
		DDL_CNT(&o, len, *st, class, place);
	/* Burst completion times: quantiles, then the non-empty buckets. */
	ddl_line(&o);
	DDL_CNT(&o, len, *st, class, bursts_done);
	DDL_CNT(&o, len, *st, class, burst_p50_us);
	DDL_CNT(&o, len, *st, class, burst_p99_us);
	DDL_CNT(&o, len, *st, class, burst_max_us);
	DDL_CNT(&o, len, *st, class, burst_sum_us);
	ddl_line(&o);
	if (DDL_HAS(len, class.burst_hist))
		ddl_print_hist(&o, st->class.burst_hist);
}

static int ddl_print_xstats(TC_QU_CONST struct qdisc_util *qu, FILE *f,
			    struct rtattr *xstats)
{
	struct tc_ddl_xstats st = {};
	size_t len;

	if (!xstats)
		return 0;

	/* Kernel and tc may differ in version: use what both know. */
	len = RTA_PAYLOAD(xstats);
	if (len > sizeof(st))
		len = sizeof(st);
	memcpy(&st, RTA_DATA(xstats), len);
	if (!DDL_HAS(len, type))
		return 0;

	switch (st.type) {
	case TCA_DDL_XSTATS_QDISC:
		ddl_print_qd_xstats(&st, len);
		break;
	case TCA_DDL_XSTATS_CLASS:
		ddl_print_cl_xstats(&st, len);
		break;
	}
	return 0;
}

struct qdisc_util ddl_qdisc_util = {
	.id		= "ddl",
	.parse_qopt	= ddl_parse_opt,
	.print_qopt	= ddl_print_opt,
	.print_xstats	= ddl_print_xstats,
	.parse_copt	= ddl_parse_copt,
	.print_copt	= ddl_print_copt,
};
