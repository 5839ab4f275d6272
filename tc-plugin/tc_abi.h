/* SPDX-License-Identifier: GPL-2.0 */
/*
 * tc_abi.h	What the plugin does instead of the parts of tc's internal
 *		API that differ between iproute2 releases (tc_abi.c).
 */
#ifndef __TC_ABI_H
#define __TC_ABI_H

#include <linux/types.h>

/* tc's internal API: its own headers, or this tree's declaration of it. */
#ifdef DDL_IPROUTE2_SRC
#include "utils.h"
#include "tc_util.h"
#else
#include "tc_api.h"
#endif

/* iproute2 6.9 made the callbacks' first argument const: the same ABI. */
#ifndef TC_QU_CONST
#define TC_QU_CONST
#endif

/*
 * Bytes as iproute2 6.1 to 6.17 print them ("30000b", "64Kb", "1024Mb"),
 * in a SPRINT_BUF.  tc's own sprint_size() takes a __u32 up to 6.17 and a
 * __u64 since 6.18 (which also prints "1Gb"): the plugin never calls it,
 * so one q_ddl.so prints the same with every tc.  Above 4 GiB: "NNNb".
 */
char *ddl_sprint_size(__u64 sz, char *buf);

#endif /* __TC_ABI_H */
