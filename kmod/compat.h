/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Compatibility with older kernels, decided by probing for features (macros
 * and helpers), never by version numbers.  Debian 6.1 lacks some helpers
 * that 6.12 has.
 */
#ifndef _NET_SCHED_DDL_COMPAT_H
#define _NET_SCHED_DDL_COMPAT_H

#include <linux/debugfs.h>
#include <linux/kernel.h>
#include <linux/module.h>
#include <linux/netlink.h>
#include <net/pkt_sched.h>

/* 6.1 autoloads "sch_<kind>", which is our module name already. */
#ifndef MODULE_ALIAS_NET_SCH
#define MODULE_ALIAS_NET_SCH(id)	MODULE_ALIAS("net-sch-" id)
#endif

/* abs_diff(), which the KUnit suites use: 6.1 has none, 6.12 has it. */
#ifndef abs_diff
#define abs_diff(a, b) ({			\
	typeof(a) __a = (a);			\
	typeof(b) __b = (b);			\
	(void)(&__a == &__b);			\
	__a > __b ? (__a - __b) : (__b - __a);	\
})
#endif

/*
 * Refuse @attr with @msg, a message made at run time that outlives the
 * request (as a literal does).  6.1's extack has no buffer to format a
 * message into, nor NL_SET_ERR_MSG_ATTR_FMT(): there it points at @msg
 * as NL_SET_ERR_MSG_ATTR() points at its literal.
 */
static inline void ddl_err_attr(struct netlink_ext_ack *extack,
				const struct nlattr *attr, const char *msg)
{
#ifdef NL_SET_ERR_MSG_ATTR_FMT
	NL_SET_ERR_MSG_ATTR_FMT(extack, attr, "%s", msg);
#else
	do_trace_netlink_extack(msg);
	if (extack) {
		extack->_msg = msg;
		extack->bad_attr = attr;
		extack->policy = NULL;
	}
#endif
}

/*
 * Rename a debugfs directory within its parent; returns the renamed
 * directory or an error pointer.  6.14 renames in place with
 * debugfs_change_name() (DDL_HAVE_DEBUGFS_CHANGE_NAME: kmod/Kbuild finds it
 * in the kernel's headers) and has no debugfs_rename() any more.
 */
static inline struct dentry *ddl_debugfs_rename(struct dentry *dir,
						struct dentry *d,
						const char *name)
{
#ifdef DDL_HAVE_DEBUGFS_CHANGE_NAME
	int err = debugfs_change_name(d, "%s", name);

	return err ? ERR_PTR(err) : d;
#else
	return debugfs_rename(dir, d, dir, name);
#endif
}

/*
 * KUnit, for the test modules (they include <kunit/test.h> first).  6.1's
 * KUnit has neither case attributes nor parameter descriptions taken from
 * a struct member: run a slow case like any other, and name a parameter
 * through a generated description function.
 */
#ifdef KUNIT_ARRAY_PARAM
#ifndef KUNIT_CASE_SLOW
#define KUNIT_CASE_SLOW(test_name)	KUNIT_CASE(test_name)
#endif

/* A parameterised case that runs for seconds. */
#ifdef KUNIT_CASE_PARAM_ATTR
#define KUNIT_CASE_PARAM_SLOW(test_name, gen_params)			\
	KUNIT_CASE_PARAM_ATTR(test_name, gen_params,			\
			      { .speed = KUNIT_SPEED_SLOW })
#else
#define KUNIT_CASE_PARAM_SLOW(test_name, gen_params)			\
	KUNIT_CASE_PARAM(test_name, gen_params)
#endif

#ifndef KUNIT_ARRAY_PARAM_DESC
/* @member must be a const char *, as in every case table of ours. */
#define KUNIT_ARRAY_PARAM_DESC(id, array, member)				\
	static void id##_desc(typeof((array)[0]) * param, char *desc)		\
	{									\
		const char * const *field = (const void *)param +		\
					    offsetof(typeof(*param), member);	\
										\
		strscpy(desc, *field, KUNIT_PARAM_DESC_SIZE);			\
	}									\
	KUNIT_ARRAY_PARAM(id, array, id##_desc)
#endif
#endif /* KUNIT_ARRAY_PARAM */

#endif /* _NET_SCHED_DDL_COMPAT_H */
