#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Systematic fault injection (tests/fuzz/failnth.py): every slab and page
# allocation on the paths of init (1 and 4096 jobs, debugfs on), the
# change of every option, a class change and delete fails in turn.  Each
# must end in a clean error with the state as before, or in success; the
# debug kernel's kmemleak and KASAN see the rest.
. "$(dirname "$0")/../lib.sh"

if [ ! -e /proc/self/fail-nth ]; then
	echo "skip - fault injection: this kernel has no CONFIG_FAULT_INJECTION (the debug kernel has)"
	done_testing
fi
modprobe sch_ddl
# Allocation failures print warnings with a stack trace: keep them off
# the serial console (a slow one under TCG), in the log only.
level=$(awk '{ print $1 }' /proc/sys/kernel/printk)
dmesg -n 4
python3 -S "$TESTS_DIR/fuzz/failnth.py" || _failed=1
dmesg -n "$level"
done_testing
