/* SPDX-License-Identifier: GPL-2.0 */
/*
 * tc_api.h	The part of tc's internal API that q_ddl.c uses.
 *
 * A qdisc plugin is a shared object that tc dlopen()s; it fills in a
 * struct qdisc_util and calls helpers that the tc binary exports.  None of
 * this is a stable interface: it is declared here as iproute2 6.1 up to
 * the newest release tested (TC_TESTED in tc-plugin/Makefile, 7.2) define
 * it, so that the plugin builds from this tree alone, with no iproute2
 * sources and no network.  6.9 added a const to the callbacks' first
 * argument, which changes no call; 6.18 made sprint_size() take a __u64,
 * so it is not declared here: the plugin formats sizes itself (tc_abi.h).
 * At load time tc_abi.c refuses a tc outside that range, unless the plugin
 * was built with IPROUTE2_SRC, that version's sources (tc-plugin/Makefile).
 */
#ifndef __TC_API_H
#define __TC_API_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <linux/types.h>
#include <linux/netlink.h>
#include <linux/rtnetlink.h>

struct qdisc_util {
	struct qdisc_util *next;
	const char *id;
	int (*parse_qopt)(struct qdisc_util *qu, int argc, char **argv,
			  struct nlmsghdr *n, const char *dev);
	int (*print_qopt)(struct qdisc_util *qu, FILE *f, struct rtattr *opt);
	int (*print_xstats)(struct qdisc_util *qu, FILE *f,
			    struct rtattr *xstats);
	int (*parse_copt)(struct qdisc_util *qu, int argc, char **argv,
			  struct nlmsghdr *n, const char *dev);
	int (*print_copt)(struct qdisc_util *qu, FILE *f, struct rtattr *opt);
	int (*has_block)(struct qdisc_util *qu, struct rtattr *opt,
			 __u32 block_idx, bool *p_has);
};

/* Argument parsing (lib/utils.c). */
void incomplete_command(void) __attribute__((noreturn));
#define NEXT_ARG()						\
	do {							\
		argv++;						\
		if (--argc <= 0)				\
			incomplete_command();			\
	} while (0)

int get_u32(__u32 *val, const char *arg, int base);
int get_u64(__u64 *val, const char *arg, int base);
int get_rate64(__u64 *rate, const char *str);
int get_size(unsigned int *size, const char *str);

/* tc's time unit: sprint_time() works in microseconds. */
#define TIME_UNITS_PER_SEC	1000000

#define SPRINT_BSIZE		64
#define SPRINT_BUF(x)		char x[SPRINT_BSIZE]
char *sprint_time(__u32 time, char *buf);
char *sprint_time64(__s64 time, char *buf);

#ifndef ARRAY_SIZE
#define ARRAY_SIZE(x)		(sizeof(x) / sizeof((x)[0]))
#endif

/* Netlink attributes (lib/libnetlink.c). */
int addattr32(struct nlmsghdr *n, int maxlen, int type, __u32 data);
int addattr64(struct nlmsghdr *n, int maxlen, int type, __u64 data);
int addattr_l(struct nlmsghdr *n, int maxlen, int type, const void *data,
	      int alen);
struct rtattr *addattr_nest(struct nlmsghdr *n, int maxlen, int type);
int addattr_nest_end(struct nlmsghdr *n, struct rtattr *nest);
int parse_rtattr_flags(struct rtattr *tb[], int max, struct rtattr *rta,
		       int len, unsigned short flags);
#define parse_rtattr_nested(tb, max, rta)				\
	parse_rtattr_flags((tb), (max), RTA_DATA(rta), RTA_PAYLOAD(rta),	\
			   NLA_F_NESTED)

static inline __u32 rta_getattr_u32(const struct rtattr *rta)
{
	__u32 v;

	memcpy(&v, RTA_DATA(rta), sizeof(v));
	return v;
}

static inline __u64 rta_getattr_u64(const struct rtattr *rta)
{
	__u64 v;

	memcpy(&v, RTA_DATA(rta), sizeof(v));
	return v;
}

/* Output, plain or JSON (lib/json_print.c, lib/color.c). */
enum output_type {
	PRINT_FP = 1,
	PRINT_JSON = 2,
	PRINT_ANY = 4,
};

/* The last of lib/color.c's colours; the helpers below print uncoloured. */
enum color_attr {
	COLOR_IFNAME,
	COLOR_MAC,
	COLOR_INET,
	COLOR_INET6,
	COLOR_OPERSTATE_UP,
	COLOR_OPERSTATE_DOWN,
	COLOR_NONE
};

void open_json_array(enum output_type type, const char *delim);
void close_json_array(enum output_type type, const char *delim);
void print_nl(void);

int print_color_string(enum output_type t, enum color_attr color,
		       const char *key, const char *fmt, const char *value);
int print_color_uint(enum output_type t, enum color_attr color,
		     const char *key, const char *fmt, unsigned int value);
int print_color_u64(enum output_type t, enum color_attr color,
		    const char *key, const char *fmt, uint64_t value);
int print_color_lluint(enum output_type t, enum color_attr color,
		       const char *key, const char *fmt,
		       unsigned long long value);
int print_color_bool(enum output_type t, enum color_attr color,
		     const char *key, const char *fmt, bool value);

static inline int print_string(enum output_type t, const char *key,
			       const char *fmt, const char *value)
{
	return print_color_string(t, COLOR_NONE, key, fmt, value);
}

static inline int print_uint(enum output_type t, const char *key,
			     const char *fmt, unsigned int value)
{
	return print_color_uint(t, COLOR_NONE, key, fmt, value);
}

static inline int print_u64(enum output_type t, const char *key,
			    const char *fmt, uint64_t value)
{
	return print_color_u64(t, COLOR_NONE, key, fmt, value);
}

static inline int print_lluint(enum output_type t, const char *key,
			       const char *fmt, unsigned long long value)
{
	return print_color_lluint(t, COLOR_NONE, key, fmt, value);
}

static inline int print_bool(enum output_type t, const char *key,
			     const char *fmt, bool value)
{
	return print_color_bool(t, COLOR_NONE, key, fmt, value);
}

/* tc/tc_util.c: a rate in bytes per second, printed in bits. */
void tc_print_rate(enum output_type t, const char *key, const char *fmt,
		   unsigned long long rate);

#endif /* __TC_API_H */
