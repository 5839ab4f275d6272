// SPDX-License-Identifier: GPL-2.0
/*
 * tc_abi.c	Which tc loaded the plugin, and the helpers whose interface
 *		differs between iproute2 releases.
 *
 * tc's internal API is no stable interface: a plugin calls functions of
 * the tc binary that loaded it, with the prototypes of the release it was
 * built for.  iproute2 6.18 changed sprint_size() from a __u32 to a __u64
 * argument, so a plugin built for 6.1 passes a register whose upper half
 * 6.18 reads; the plugin therefore formats sizes itself
 * (ddl_sprint_size()).  Everything else it calls is the same from 6.1 up
 * to the newest release it was tested with (DDL_TC_NEWEST, from
 * tc-plugin/Makefile), so one q_ddl.so serves all of them.
 *
 * A release outside that range may have changed more, and a wrong
 * prototype prints garbage or crashes without a word.  So, when tc loads
 * the plugin, a constructor reads tc's version from the executable (the
 * string "tc -V" prints) and checks it against the range; where the version
 * is unknown or cannot be read, it says so on stderr, and every callback
 * refuses (parse: an error, print: nothing) instead of calling into tc.
 * SCH_DDL_TC_ANY=1 (any value but empty or 0) in the environment loads
 * it anyway, with a warning.
 */

#define _GNU_SOURCE		/* memmem(), RTLD_DEFAULT */
#include <dlfcn.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "tc_abi.h"

/* The range of iproute2 releases the plugin knows (tc-plugin/Makefile). */
#ifndef DDL_TC_MIN
#define DDL_TC_MIN	"6.1.0"
#endif
#ifndef DDL_TC_NEWEST
#define DDL_TC_NEWEST	"7.2.0"
#endif

char *ddl_sprint_size(__u64 sz, char *buf)
{
	const __u64 kilo = 1024, mega = kilo * kilo;
	__u64 n;

	/*
	 * iproute2 6.1's rule, in integers: MB when within 1 KiB of a whole
	 * number of MiB, KB when within 16 bytes of a whole number of KiB,
	 * the number as "%g" prints it.  rint() rounds half to even, but a
	 * half never lies within those margins.
	 */
	if (sz > 0xffffffffULL) {
		snprintf(buf, SPRINT_BSIZE, "%llub", (unsigned long long)sz);
		return buf;
	}
	n = (sz + mega / 2) / mega;
	if (sz >= mega && (n * mega > sz ? n * mega - sz : sz - n * mega) < 1024) {
		snprintf(buf, SPRINT_BSIZE - 1, "%gMb", (double)n);
		return buf;
	}
	n = (sz + kilo / 2) / kilo;
	if (sz >= kilo && (n * kilo > sz ? n * kilo - sz : sz - n * kilo) < 16) {
		snprintf(buf, SPRINT_BSIZE - 1, "%gKb", (double)n);
		return buf;
	}
	snprintf(buf, SPRINT_BSIZE - 1, "%ub", (unsigned int)sz);
	return buf;
}

/* "6.1.0", "v6.1.0-12-gabcdef": major << 8 | minor; -1 if not a version. */
static int ddl_parse_version(const char *s, const char *end)
{
	unsigned int v[3] = {}, i;

	if (s < end && *s == 'v')
		s++;
	for (i = 0; i < 3; i++) {
		if (s == end || *s < '0' || *s > '9')
			return -1;
		while (s < end && *s >= '0' && *s <= '9' && v[i] < 1000)
			v[i] = v[i] * 10 + (*s++ - '0');
		if (i < 2 && (s == end || *s++ != '.'))
			return -1;
	}
	/* Nothing after it, or git describe's "-N-gHASH". */
	if (s != end && *s != '-')
		return -1;
	if (v[0] > 255 || v[1] > 255)
		return -1;
	return v[0] << 8 | v[1];
}

/*
 * tc's version, from its executable: "tc -V" prints "tc utility,
 * iproute2-%s" with a version string of its own (include/version.h), a
 * NUL-terminated "MAJOR.MINOR.PATCH" in .rodata.  iproute2 has been at
 * 4.x and later since 2015; the other such strings a tc may hold (libbpf's
 * 1.x) are older.  Exactly one distinct candidate, or none is taken.
 * Returns the version, -1 with @why set.
 */
static int ddl_tc_version(char *name, size_t len, const char **why)
{
	static const char marker[] = "tc utility, iproute2-";
	const char *p, *end, *s;
	int ver = -1, v, fd;
	struct stat st;
	void *map;

	*why = "cannot read /proc/self/exe";
	fd = open("/proc/self/exe", O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	if (fstat(fd, &st) || st.st_size <= 0 ||
	    st.st_size > (off_t)256 << 20) {
		close(fd);
		return -1;
	}
	map = mmap(NULL, st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
	close(fd);
	if (map == MAP_FAILED)
		return -1;
	p = map;
	end = p + st.st_size;

	*why = "the program that loaded it is not iproute2's tc";
	if (!memmem(p, end - p, marker, sizeof(marker) - 1))
		goto out;
	*why = "no version string in tc";
	for (s = p + 1; s < end; s++) {
		const char *e;

		if (s[-1] != '\0' || !((*s >= '0' && *s <= '9') || *s == 'v'))
			continue;
		e = memchr(s, '\0', end - s);
		if (!e || e - s > 40)
			continue;
		v = ddl_parse_version(s, e);
		if (v < (4 << 8))
			continue;
		if (ver >= 0 && v != ver) {
			*why = "more than one version string in tc";
			ver = -1;
			goto out;
		}
		if (ver < 0)
			snprintf(name, len, "%.*s", (int)(e - s), s);
		ver = v;
		s = e;
	}
out:
	munmap(map, st.st_size);
	return ver;
}

static int ddl_refuse_parse(TC_QU_CONST struct qdisc_util *qu, int argc,
			    char **argv, struct nlmsghdr *n, const char *dev)
{
	fprintf(stderr, "ddl: q_ddl.so does not know this tc (above)\n");
	return -1;
}

static int ddl_refuse_print(TC_QU_CONST struct qdisc_util *qu, FILE *f,
			    struct rtattr *opt)
{
	return 0;
}

extern struct qdisc_util ddl_qdisc_util;

__attribute__((constructor)) static void ddl_tc_check(void)
{
	int ver, lo, hi, tc618;
	const char *why = NULL, *env;
	char name[48] = "";
	bool any;

	lo = ddl_parse_version(DDL_TC_MIN, DDL_TC_MIN + strlen(DDL_TC_MIN));
	hi = ddl_parse_version(DDL_TC_NEWEST,
			       DDL_TC_NEWEST + strlen(DDL_TC_NEWEST));
	ver = ddl_tc_version(name, sizeof(name), &why);
	/*
	 * Cross-check with what tc exports: get_size64() came with the
	 * 64-bit sprint_size(), in 6.18.
	 */
	tc618 = dlsym(RTLD_DEFAULT, "get_size64") != NULL;
	if (ver >= 0 && tc618 != (ver >= (6 << 8 | 18))) {
		why = "its version string disagrees with its symbols";
		ver = -1;
	}
	if (ver >= lo && ver <= hi)
		return;

	env = getenv("SCH_DDL_TC_ANY");
	any = env && *env && strcmp(env, "0");
	if (ver >= 0)
		fprintf(stderr,
			"q_ddl.so: built for tc of iproute2 %s up to %s, not %s;",
			DDL_TC_MIN, DDL_TC_NEWEST, name);
	else
		fprintf(stderr,
			"q_ddl.so: cannot tell which tc loaded it (%s);", why);
	if (any) {
		fprintf(stderr, " SCH_DDL_TC_ANY is set: loading anyway\n");
		return;
	}
	fprintf(stderr,
		" refusing ddl's options. Build it for this tc (make tc IPROUTE2_SRC=<its iproute2 sources>), or set SCH_DDL_TC_ANY=1 to try anyway.\n");
	ddl_qdisc_util.parse_qopt = ddl_refuse_parse;
	ddl_qdisc_util.parse_copt = ddl_refuse_parse;
	ddl_qdisc_util.print_qopt = ddl_refuse_print;
	ddl_qdisc_util.print_copt = ddl_refuse_print;
	ddl_qdisc_util.print_xstats = ddl_refuse_print;
}
