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
#include <arpa/inet.h>
#include <sys/stat.h>
#include <sys/vfs.h>

#include "tc_abi.h"

#include "../include/uapi/linux/sch_ddl.h"

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

/* The syntax only: tc-ddl(8) gives the ranges, which the kernel checks. */
static void explain(void)
{
	fprintf(stderr,
		"Usage: ... ddl [ limit PACKETS ] [ memory_limit BYTES ] [ jobs N ]\n"
		"               [ mode fair|cluster|rotate|green|static ]\n"
		"               [ slice TIME|auto ] [ yield TIME|auto ] [ maxwait TIME ]\n"
		"               [ bgshare PERCENT ] [ key none|sport|dport|mark|dscp ]\n"
		"               [ keyttl TIME ] [ rate RATE|unlimited ] [ burst BYTES|auto ]\n"
		"               [ target BYTES|TIME|off|auto ] [ interval TIME ]\n"
		"               [ ecn | noecn ] [ lead TIME|auto ] [ maxperiod TIME ]\n"
		"               [ epoch TIME ] [ base NSEC ] [ dscp DSCP[,DSCP...]|off ]\n"
		"               [ shuffle TIME|off ] [ tiers BYTES[,BYTES...]|off ]\n"
		"               [ share auto|on|off ]\n");
}

static void cexplain(void)
{
	fprintf(stderr,
		"Usage: ... class ... ddl [ weight W ] [ size BYTES ]\n"
		"                         [ cgroup PATH|ID|none ]\n"
		"                         [ addr ADDR[,ADDR...]|none ]\n");
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
 * A time as tc's get_time() reads it (a bare number is in us), in units of
 * @us_per_unit us.  Any value an attribute holds passes but TC_DDL_AUTO:
 * the ranges are the kernel's.  get_time() itself would wrap a large one.
 */
static int ddl_get_time(__u32 *val, const char *arg, unsigned int us_per_unit)
{
	static const struct {
		const char	*name;
		double		us;
	} units[] = {
		{ "s", 1000000 }, { "sec", 1000000 }, { "secs", 1000000 },
		{ "ms", 1000 }, { "msec", 1000 }, { "msecs", 1000 },
		{ "us", 1 }, { "usec", 1 }, { "usecs", 1 }, { "", 1 },
	};
	double t;
	size_t i;
	char *p;

	t = strtod(arg, &p);
	if (p == arg)
		return -1;
	for (i = 0; i < ARRAY_SIZE(units); i++) {
		if (strcasecmp(p, units[i].name))
			continue;
		t = t * units[i].us / us_per_unit;
		if (!(t >= 0 && t < UINT32_MAX))
			return -1;
		*val = t;
		return 0;
	}
	return -1;
}

/*
 * get_rate64() (bytes per second), which converts its double to a u64
 * unchecked: the magnitude is checked on the double first, by the first
 * letter of the unit, the largest unit with that letter (KiBps, ...,
 * TiBps, Bps), in bytes.  Any rate a u64 holds passes but
 * TC_DDL_RATE_NONE.
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
	return get_rate64(rate, arg);
}

/* An unsigned integer, optionally followed by '%'. */
static int ddl_get_percent(__u32 *val, const char *arg)
{
	char buf[16];
	size_t len = strlen(arg);

	if (len == 0 || len >= sizeof(buf))
		return -1;
	memcpy(buf, arg, len + 1);
	if (buf[len - 1] == '%')
		buf[len - 1] = '\0';
	return get_u32(val, buf, 10);
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
 * gb, t or tb (powers of 1024, as tc's sizes).
 */
static int ddl_get_size64(__u64 *size, const char *arg)
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
		if (v >= (double)UINT64_MAX)
			return -1;
		*size = (__u64)v;
		return 0;
	}
	return -1;
}

/* The qdisc options of one request, as they are sent. */
struct ddl_qopt {
	bool	set[TCA_DDL_MAX + 1];
	__u64	val[TCA_DDL_MAX + 1];
	__u8	dscp[64];	/* one per code point: the kernel takes fewer */
	__u32	ndscp;
	__u64	tiers[64];	/* likewise */
	__u32	ntiers;
};

/* "46,10,0": code points, each one byte; "off": none. */
static int ddl_get_dscp(struct ddl_qopt *o, const char *arg)
{
	unsigned long v;
	char *end;

	o->ndscp = 0;
	if (strcmp(arg, "off") == 0)
		return 0;
	for (;;) {
		if (*arg < '0' || *arg > '9' || o->ndscp == sizeof(o->dscp))
			return -1;
		v = strtoul(arg, &end, 0);
		if (v > UINT8_MAX)
			return -1;
		o->dscp[o->ndscp++] = v;
		if (*end == '\0')
			return 0;
		if (*end != ',')
			return -1;
		arg = end + 1;
	}
}

/* "1m,8m": sizes, each a u64 of bytes; "off": none. */
static int ddl_get_tiers(struct ddl_qopt *o, const char *arg)
{
	char buf[32];
	size_t n;

	o->ntiers = 0;
	if (strcmp(arg, "off") == 0)
		return 0;
	for (;;) {
		n = strcspn(arg, ",");
		if (!n || n >= sizeof(buf) || o->ntiers == ARRAY_SIZE(o->tiers))
			return -1;
		memcpy(buf, arg, n);
		buf[n] = '\0';
		if (ddl_get_size64(&o->tiers[o->ntiers++], buf))
			return -1;
		if (arg[n] == '\0')
			return 0;
		arg += n + 1;
	}
}

/* What an option's argument is, and what it sends. */
enum ddl_arg {
	DDL_ARG_ON,		/* no argument: 1 */
	DDL_ARG_OFF,		/* no argument: 0 */
	DDL_ARG_U32,
	DDL_ARG_U64,
	DDL_ARG_SIZE,		/* bytes, in tc's units */
	DDL_ARG_SIZE_AUTO,	/* bytes, or auto: 0 */
	DDL_ARG_US,		/* a time, sent in us */
	DDL_ARG_US_AUTO,	/* a time, or auto: TC_DDL_AUTO */
	DDL_ARG_US_OFF,		/* a time, or off: 0 */
	DDL_ARG_MS,		/* a time, sent in ms */
	DDL_ARG_PERCENT,
	DDL_ARG_RATE,		/* a rate, or unlimited: TC_DDL_RATE_NONE */
	DDL_ARG_MODE,
	DDL_ARG_KEY,
	DDL_ARG_TARGET,		/* bytes or a time, off or auto */
	DDL_ARG_DSCP,
	DDL_ARG_TIERS,
	DDL_ARG_SHARE,		/* on, off or auto: TC_DDL_AUTO */
};

/* The qdisc options, in the order of the usage. */
static const struct ddl_opt {
	const char	*name;
	int		type;
	enum ddl_arg	arg;
} ddl_opts[] = {
	{ "limit",	  TCA_DDL_LIMIT,	DDL_ARG_U32 },
	{ "memory_limit", TCA_DDL_MEMORY_LIMIT,	DDL_ARG_SIZE },
	{ "jobs",	  TCA_DDL_JOBS,		DDL_ARG_U32 },
	{ "mode",	  TCA_DDL_MODE,		DDL_ARG_MODE },
	{ "slice",	  TCA_DDL_SLICE,	DDL_ARG_US_AUTO },
	{ "yield",	  TCA_DDL_YIELD,	DDL_ARG_US_AUTO },
	{ "maxwait",	  TCA_DDL_MAXWAIT,	DDL_ARG_US },
	{ "bgshare",	  TCA_DDL_BGSHARE,	DDL_ARG_PERCENT },
	{ "key",	  TCA_DDL_KEY,		DDL_ARG_KEY },
	{ "keyttl",	  TCA_DDL_KEYTTL,	DDL_ARG_MS },
	{ "rate",	  TCA_DDL_RATE,		DDL_ARG_RATE },
	{ "burst",	  TCA_DDL_BURST,	DDL_ARG_SIZE_AUTO },
	{ "target",	  TCA_DDL_TARGET,	DDL_ARG_TARGET },
	{ "interval",	  TCA_DDL_INTERVAL,	DDL_ARG_US },
	{ "ecn",	  TCA_DDL_ECN,		DDL_ARG_ON },
	{ "noecn",	  TCA_DDL_ECN,		DDL_ARG_OFF },
	{ "lead",	  TCA_DDL_LEAD,		DDL_ARG_US_AUTO },
	{ "maxperiod",	  TCA_DDL_MAXPERIOD,	DDL_ARG_US },
	{ "epoch",	  TCA_DDL_EPOCH,	DDL_ARG_US },
	{ "base",	  TCA_DDL_BASE,		DDL_ARG_U64 },
	{ "dscp",	  TCA_DDL_DSCP,		DDL_ARG_DSCP },
	{ "shuffle",	  TCA_DDL_SHUFFLE,	DDL_ARG_US_OFF },
	{ "tiers",	  TCA_DDL_TIERS,	DDL_ARG_TIERS },
	{ "share",	  TCA_DDL_SHARE,	DDL_ARG_SHARE },
};

static const struct ddl_opt *ddl_find_opt(const char *name)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(ddl_opts); i++)
		if (strcmp(name, ddl_opts[i].name) == 0)
			return &ddl_opts[i];
	return NULL;
}

/*
 * The target: bytes or a time, the other one not sent (the kernel clears
 * it); off: no target; auto: the default.  The attribute it sets, or -1.
 */
static int ddl_get_target(struct ddl_qopt *o, const char *arg)
{
	__u32 v;

	o->set[TCA_DDL_TARGET] = false;
	o->set[TCA_DDL_TARGET_TIME] = false;
	if (strcmp(arg, "off") == 0) {
		o->val[TCA_DDL_TARGET] = 0;
		return TCA_DDL_TARGET;
	}
	if (strcmp(arg, "auto") == 0) {
		o->val[TCA_DDL_TARGET_TIME] = TC_DDL_AUTO;
		return TCA_DDL_TARGET_TIME;
	}
	if (!get_size(&v, arg)) {
		o->val[TCA_DDL_TARGET] = v;
		return TCA_DDL_TARGET;
	}
	if (!ddl_get_time(&v, arg, 1)) {
		o->val[TCA_DDL_TARGET_TIME] = v;
		return TCA_DDL_TARGET_TIME;
	}
	return -1;
}

/*
 * Parse @arg, the argument of @opt (none for DDL_ARG_ON and DDL_ARG_OFF),
 * into @o: the attribute it sets, or -1.
 */
static int ddl_get_arg(struct ddl_qopt *o, const struct ddl_opt *opt,
		       const char *arg)
{
	__u64 *v64 = &o->val[opt->type];
	__u32 v = 0;
	int err = 0;

	switch (opt->arg) {
	case DDL_ARG_ON:
		v = 1;
		break;
	case DDL_ARG_OFF:
		break;
	case DDL_ARG_U32:
		err = get_u32(&v, arg, 0);
		break;
	case DDL_ARG_U64:
		return get_u64(v64, arg, 10) ? -1 : opt->type;
	case DDL_ARG_SIZE:
		err = get_size(&v, arg);
		break;
	case DDL_ARG_SIZE_AUTO:
		err = strcmp(arg, "auto") ? get_size(&v, arg) : 0;
		break;
	case DDL_ARG_US:
		err = ddl_get_time(&v, arg, 1);
		break;
	case DDL_ARG_US_AUTO:
		v = TC_DDL_AUTO;
		err = strcmp(arg, "auto") ? ddl_get_time(&v, arg, 1) : 0;
		break;
	case DDL_ARG_US_OFF:
		err = strcmp(arg, "off") ? ddl_get_time(&v, arg, 1) : 0;
		break;
	case DDL_ARG_MS:
		err = ddl_get_time(&v, arg, 1000);
		break;
	case DDL_ARG_PERCENT:
		err = ddl_get_percent(&v, arg);
		break;
	case DDL_ARG_RATE:
		*v64 = TC_DDL_RATE_NONE;
		if (strcmp(arg, "unlimited") && ddl_get_rate(v64, arg))
			return -1;
		return opt->type;
	case DDL_ARG_MODE:
		err = ddl_get_name(&v, arg, ddl_modes, ARRAY_SIZE(ddl_modes));
		break;
	case DDL_ARG_KEY:
		err = ddl_get_name(&v, arg, ddl_keys, ARRAY_SIZE(ddl_keys));
		break;
	case DDL_ARG_TARGET:
		return ddl_get_target(o, arg);
	case DDL_ARG_DSCP:
		return ddl_get_dscp(o, arg) ? -1 : opt->type;
	case DDL_ARG_TIERS:
		return ddl_get_tiers(o, arg) ? -1 : opt->type;
	case DDL_ARG_SHARE:
		if (strcmp(arg, "auto") == 0)
			v = TC_DDL_AUTO;
		else if (strcmp(arg, "on") == 0)
			v = 1;
		else if (strcmp(arg, "off") != 0)
			err = -1;
		break;
	}
	if (err)
		return -1;
	*v64 = v;
	return opt->type;
}

static void ddl_put_opt(struct nlmsghdr *n, const struct ddl_qopt *o)
{
	struct rtattr *tail;
	int type;

	tail = addattr_nest(n, 1024, TCA_OPTIONS | NLA_F_NESTED);
	for (type = TCA_DDL_LIMIT; type <= TCA_DDL_MAX; type++) {
		if (!o->set[type])
			continue;
		if (type == TCA_DDL_RATE || type == TCA_DDL_BASE)
			addattr64(n, 1024, type, o->val[type]);
		else if (type == TCA_DDL_DSCP)
			addattr_l(n, 1024, type, o->dscp, o->ndscp);
		else if (type == TCA_DDL_TIERS)
			addattr_l(n, 1024, type, o->tiers,
				  o->ntiers * sizeof(o->tiers[0]));
		else
			addattr32(n, 1024, type, o->val[type]);
	}
	addattr_nest_end(n, tail);
}

/*
 * The syntax only: the kernel checks every value and every combination,
 * against the configuration in force, and says what is wrong (extack).
 */
static int ddl_parse_opt(TC_QU_CONST struct qdisc_util *qu, int argc,
			 char **argv, struct nlmsghdr *n, const char *dev)
{
	struct ddl_qopt o = {};
	const struct ddl_opt *opt;
	int type;

	for (; argc > 0; argc--, argv++) {
		opt = ddl_find_opt(*argv);
		if (!opt) {
			if (strcmp(*argv, "help") != 0)
				fprintf(stderr, "What is \"%s\"?\n", *argv);
			explain();
			return -1;
		}
		if (opt->arg != DDL_ARG_ON && opt->arg != DDL_ARG_OFF)
			NEXT_ARG();
		type = ddl_get_arg(&o, opt, *argv);
		if (type < 0) {
			fprintf(stderr, "Illegal \"%s\"\n", opt->name);
			explain();
			return -1;
		}
		o.set[type] = true;
	}
	ddl_put_opt(n, &o);
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

/* JSON "tiers": [1048576]; text "tiers 1048576" (bytes) or "tiers off". */
static void ddl_print_tiers(struct rtattr *attr)
{
	int i, n = RTA_PAYLOAD(attr) / sizeof(__u64);
	__u64 v;

	open_json_array(PRINT_JSON, "tiers");
	for (i = 0; i < n; i++) {
		memcpy(&v, (char *)RTA_DATA(attr) + i * sizeof(v), sizeof(v));
		print_u64(PRINT_JSON, NULL, NULL, v);
	}
	close_json_array(PRINT_JSON, NULL);
	print_string(PRINT_FP, NULL, "%s", "tiers ");
	for (i = 0; i < n; i++) {
		memcpy(&v, (char *)RTA_DATA(attr) + i * sizeof(v), sizeof(v));
		print_u64(PRINT_FP, NULL, i ? ",%llu" : "%llu", v);
	}
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
	if (tb[TCA_DDL_TIERS])
		ddl_print_tiers(tb[TCA_DDL_TIERS]);
	if (ddl_attr_u32(tb, TCA_DDL_SHARE, &v))
		print_string(PRINT_ANY, "share", "share %s ",
			     v == TC_DDL_AUTO ? "auto" : v ? "on" : "off");
	return 0;
}

/*
 * "198.18.0.5,2001:db8::5": IPv4 and IPv6 addresses, the IPv4 ones mapped
 * (::ffff:a.b.c.d), at most TC_DDL_ADDRS_MAX; "none": an empty list.
 */
static int ddl_get_addrs(struct in6_addr *addrs, int *n, const char *arg)
{
	char buf[INET6_ADDRSTRLEN];
	struct in_addr v4;
	size_t len;

	*n = 0;
	if (strcmp(arg, "none") == 0)
		return 0;
	for (;;) {
		len = strcspn(arg, ",");
		if (!len || len >= sizeof(buf) || *n == TC_DDL_ADDRS_MAX)
			return -1;
		memcpy(buf, arg, len);
		buf[len] = '\0';
		if (inet_pton(AF_INET, buf, &v4) == 1) {
			memset(&addrs[*n], 0, sizeof(addrs[*n]));
			addrs[*n].s6_addr[10] = 0xff;
			addrs[*n].s6_addr[11] = 0xff;
			memcpy(&addrs[*n].s6_addr[12], &v4, sizeof(v4));
		} else if (inet_pton(AF_INET6, buf, &addrs[*n]) != 1) {
			return -1;
		}
		(*n)++;
		if (!arg[len])
			return 0;
		arg += len + 1;
	}
}

/* The addresses of TCA_DDL_CLASS_ADDRS, IPv4 ones as such. */
static void ddl_print_addrs(const struct rtattr *attr)
{
	int i, n = RTA_PAYLOAD(attr) / sizeof(struct in6_addr);
	static const __u8 v4mapped[12] = { [10] = 0xff, [11] = 0xff };
	char buf[INET6_ADDRSTRLEN];
	struct in6_addr a;

	if (!n)
		return;
	open_json_array(PRINT_JSON, "addr");
	print_string(PRINT_FP, NULL, "addr ", NULL);
	for (i = 0; i < n; i++) {
		memcpy(&a, (const char *)RTA_DATA(attr) + i * sizeof(a),
		       sizeof(a));
		if (memcmp(a.s6_addr, v4mapped, sizeof(v4mapped)) == 0)
			inet_ntop(AF_INET, &a.s6_addr[12], buf, sizeof(buf));
		else
			inet_ntop(AF_INET6, &a, buf, sizeof(buf));
		print_string(PRINT_FP, NULL, "%s", i ? "," : "");
		print_string(PRINT_ANY, NULL, "%s", buf);
	}
	close_json_array(PRINT_JSON, NULL);
	print_string(PRINT_FP, NULL, " ", NULL);
}

static int ddl_parse_copt(TC_QU_CONST struct qdisc_util *qu, int argc,
			  char **argv, struct nlmsghdr *n, const char *dev)
{
	bool set_weight = false, set_size = false, set_cgroup = false;
	struct in6_addr addrs[TC_DDL_ADDRS_MAX];
	__u64 size = 0, cgroup = 0;
	struct rtattr *tail;
	__u32 weight = 0;
	int naddrs = -1;

	while (argc > 0) {
		if (strcmp(*argv, "weight") == 0) {
			NEXT_ARG();
			if (get_u32(&weight, *argv, 0)) {
				fprintf(stderr, "Illegal \"weight\"\n");
				cexplain();
				return -1;
			}
			set_weight = true;
		} else if (strcmp(*argv, "size") == 0) {
			NEXT_ARG();
			if (ddl_get_size64(&size, *argv)) {
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
		} else if (strcmp(*argv, "addr") == 0) {
			NEXT_ARG();
			if (ddl_get_addrs(addrs, &naddrs, *argv)) {
				fprintf(stderr, "Illegal \"addr\"\n");
				cexplain();
				return -1;
			}
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

	/* tc's class request holds 4096 bytes: 64 addresses take 1028. */
	tail = addattr_nest(n, 4096, TCA_OPTIONS | NLA_F_NESTED);
	if (set_weight)
		addattr32(n, 4096, TCA_DDL_CLASS_WEIGHT, weight);
	if (set_size)
		addattr64(n, 4096, TCA_DDL_CLASS_SIZE, size);
	if (set_cgroup)
		addattr64(n, 4096, TCA_DDL_CLASS_CGROUP, cgroup);
	if (naddrs >= 0 &&
	    addattr_l(n, 4096, TCA_DDL_CLASS_ADDRS, addrs,
		      naddrs * sizeof(addrs[0])))
		return -1;
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
	if (tb[TCA_DDL_CLASS_ADDRS])
		ddl_print_addrs(tb[TCA_DDL_CLASS_ADDRS]);
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

/* The counters of classes bound to addresses. */
#define DDL_HAS_ADDR(len) DDL_HAS(len, qdisc.addrs_bound)
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
	/* The device's turn, shared by the queues' ddl (share). */
	if (DDL_HAS(len, qdisc.share_job)) {
		DDL_CNT(&o, len, *st, qdisc, share_queues);
		ddl_print_minor(&o, "share_job", st->qdisc.share_job);
		DDL_CNT(&o, len, *st, qdisc, share_holds);
		DDL_CNT(&o, len, *st, qdisc, share_claims);
		DDL_CNT(&o, len, *st, qdisc, share_wakes);
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
	if (DDL_HAS_ADDR(len))
		DDL_CNT(&o, len, *st, qdisc, cls_addr);
	DDL_CNT(&o, len, *st, qdisc, cls_key);
	DDL_CNT(&o, len, *st, qdisc, cls_background);
	if (DDL_HAS_CGROUP(len))
		DDL_CNT(&o, len, *st, qdisc, cgroups_bound);
	if (DDL_HAS_ADDR(len))
		DDL_CNT(&o, len, *st, qdisc, addrs_bound);
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
	if (DDL_HAS_CLOCK(len)) {
		DDL_CNT(&o, len, *st, class, place);
		DDL_CNT(&o, len, *st, class, tier);
	}
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
