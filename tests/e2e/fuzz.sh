#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The netlink fuzzer (tests/fuzz/nlfuzz.py), a fixed seed: valid, boundary
# and malformed ddl options through create, change, replace, delete and
# the class calls, in six places (root, under prio, htb, tbf, mq, the root
# of a multi-queue device).  The model and the kernel must agree on every
# answer, every accepted configuration must read back as sent, and every
# refusal must leave the configuration as it was.  make fuzz runs it for
# longer with other seeds.
. "$(dirname "$0")/../lib.sh"

python3 -S "$TESTS_DIR/fuzz/nlfuzz.py" --seed "${DDL_FUZZ_SEED:-1}" \
	--count "${DDL_FUZZ_COUNT:-300}" || _failed=1
done_testing
