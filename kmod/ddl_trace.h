/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ddl_trace.h - tracepoints of sch_ddl: green changes, bursts and their
 * completion, the shaper holding the queue, drops with their reason.
 *
 * Every event names its qdisc by device and handle.  Classes are given as
 * tc minors (0: none).  Times are CLOCK_MONOTONIC nanoseconds.
 */
#undef TRACE_SYSTEM
#define TRACE_SYSTEM sch_ddl

#if !defined(_DDL_TRACE_H) || defined(TRACE_HEADER_MULTI_READ)
#define _DDL_TRACE_H

#include <linux/netdevice.h>
#include <linux/string.h>
#include <linux/tracepoint.h>
#include <net/sch_generic.h>

#include "ddl_glue.h"

TRACE_DEFINE_ENUM(DDL_TURN_START);
TRACE_DEFINE_ENUM(DDL_TURN_SLICE);
TRACE_DEFINE_ENUM(DDL_TURN_YIELD);
TRACE_DEFINE_ENUM(DDL_TURN_STATIC);
TRACE_DEFINE_ENUM(DDL_TURN_FAIR);
TRACE_DEFINE_ENUM(DDL_TURN_CLUSTER);

TRACE_DEFINE_ENUM(DDL_DROP_OVERLIMIT);
TRACE_DEFINE_ENUM(DDL_DROP_FILTER);
TRACE_DEFINE_ENUM(DDL_DROP_TARGET);
TRACE_DEFINE_ENUM(DDL_DROP_LEAD);
TRACE_DEFINE_ENUM(DDL_DROP_CHANGE);
TRACE_DEFINE_ENUM(DDL_DROP_OVERMEMORY);

TRACE_EVENT(ddl_turn,
	    TP_PROTO(const struct Qdisc *sch, u32 from, u32 to, u32 why),
	    TP_ARGS(sch, from, to, why),
	    TP_STRUCT__entry(__array(char, dev, IFNAMSIZ)
			     __field(u32, handle)
			     __field(u32, from)
			     __field(u32, to)
			     __field(u32, why)),
	    TP_fast_assign(strscpy(__entry->dev, qdisc_dev(sch)->name, IFNAMSIZ);
			   __entry->handle = sch->handle;
			   __entry->from = from;
			   __entry->to = to;
			   __entry->why = why;),
	    TP_printk("dev=%s handle=%x: from=%x to=%x why=%s",
		      __entry->dev, __entry->handle >> 16, __entry->from,
		      __entry->to,
		      __print_symbolic(__entry->why,
				       { DDL_TURN_START, "start" },
				       { DDL_TURN_SLICE, "slice" },
				       { DDL_TURN_YIELD, "yield" },
				       { DDL_TURN_STATIC, "static" },
				       { DDL_TURN_FAIR, "fair" },
				       { DDL_TURN_CLUSTER, "cluster" }))
);

TRACE_EVENT(ddl_burst_start,
	    TP_PROTO(const struct Qdisc *sch, u32 minor, u64 backlog),
	    TP_ARGS(sch, minor, backlog),
	    TP_STRUCT__entry(__array(char, dev, IFNAMSIZ)
			     __field(u32, handle)
			     __field(u32, minor)
			     __field(u64, backlog)),
	    TP_fast_assign(strscpy(__entry->dev, qdisc_dev(sch)->name, IFNAMSIZ);
			   __entry->handle = sch->handle;
			   __entry->minor = minor;
			   __entry->backlog = backlog;),
	    TP_printk("dev=%s handle=%x: job=%x backlog=%llu",
		      __entry->dev, __entry->handle >> 16, __entry->minor,
		      __entry->backlog)
);

TRACE_EVENT(ddl_burst_end,
	    TP_PROTO(const struct Qdisc *sch, u32 minor,
		     const struct ddl_burst_rec *r),
	    TP_ARGS(sch, minor, r),
	    TP_STRUCT__entry(__array(char, dev, IFNAMSIZ)
			     __field(u32, handle)
			     __field(u32, minor)
			     __field(u64, start)
			     __field(u64, duration)
			     __field(u64, bytes)),
	    TP_fast_assign(strscpy(__entry->dev, qdisc_dev(sch)->name, IFNAMSIZ);
			   __entry->handle = sch->handle;
			   __entry->minor = minor;
			   __entry->start = r->start;
			   __entry->duration = r->end - r->start;
			   __entry->bytes = r->bytes;),
	    TP_printk("dev=%s handle=%x: job=%x start=%llu duration_ns=%llu bytes=%llu",
		      __entry->dev, __entry->handle >> 16, __entry->minor,
		      __entry->start, __entry->duration, __entry->bytes)
);

TRACE_EVENT(ddl_throttle,
	    TP_PROTO(const struct Qdisc *sch, u64 wait_ns),
	    TP_ARGS(sch, wait_ns),
	    TP_STRUCT__entry(__array(char, dev, IFNAMSIZ)
			     __field(u32, handle)
			     __field(u32, qlen)
			     __field(u32, backlog)
			     __field(u64, wait_ns)),
	    TP_fast_assign(strscpy(__entry->dev, qdisc_dev(sch)->name, IFNAMSIZ);
			   __entry->handle = sch->handle;
			   __entry->qlen = sch->q.qlen;
			   __entry->backlog = sch->qstats.backlog;
			   __entry->wait_ns = wait_ns;),
	    TP_printk("dev=%s handle=%x: qlen=%u backlog=%u wait_ns=%llu",
		      __entry->dev, __entry->handle >> 16, __entry->qlen,
		      __entry->backlog, __entry->wait_ns)
);

TRACE_EVENT(ddl_drop,
	    TP_PROTO(const struct Qdisc *sch, u32 minor, u32 len, u32 why),
	    TP_ARGS(sch, minor, len, why),
	    TP_STRUCT__entry(__array(char, dev, IFNAMSIZ)
			     __field(u32, handle)
			     __field(u32, minor)
			     __field(u32, len)
			     __field(u32, why)),
	    TP_fast_assign(strscpy(__entry->dev, qdisc_dev(sch)->name, IFNAMSIZ);
			   __entry->handle = sch->handle;
			   __entry->minor = minor;
			   __entry->len = len;
			   __entry->why = why;),
	    TP_printk("dev=%s handle=%x: class=%x len=%u why=%s",
		      __entry->dev, __entry->handle >> 16, __entry->minor,
		      __entry->len,
		      __print_symbolic(__entry->why,
				       { DDL_DROP_OVERLIMIT, "overlimit" },
				       { DDL_DROP_FILTER, "filter" },
				       { DDL_DROP_TARGET, "target" },
				       { DDL_DROP_LEAD, "lead" },
				       { DDL_DROP_CHANGE, "change" },
				       { DDL_DROP_OVERMEMORY, "overmemory" }))
);

#endif /* _DDL_TRACE_H */

#undef TRACE_INCLUDE_PATH
#define TRACE_INCLUDE_PATH .
#undef TRACE_INCLUDE_FILE
#define TRACE_INCLUDE_FILE ddl_trace
#include <trace/define_trace.h>
