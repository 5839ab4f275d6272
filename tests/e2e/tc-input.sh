#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# e2e: fast
# Bad input is refused with a message, and the old configuration stays.
. "$(dirname "$0")/../lib.sh"

dummy_dev d0
run "add" tc qdisc add dev d0 root handle 1: ddl limit 100

expect_match "help prints usage" "$(tc qdisc add dev d0 root ddl help 2>&1)" \
	'^Usage: \.\.\. ddl \[ limit PACKETS \]'
expect_fail "limit 0 refused by tc" 'Illegal "limit"' \
	tc qdisc change dev d0 root ddl limit 0
expect_fail "non-numeric limit refused" 'Illegal "limit"' \
	tc qdisc change dev d0 root ddl limit lots
expect_fail "missing limit value refused" 'Command line is not complete' \
	tc qdisc change dev d0 root ddl limit
expect_fail "unknown option refused" 'What is "bogus"\?' \
	tc qdisc change dev d0 root ddl bogus 1
expect_fail "limit above maximum refused by the kernel" \
	'^Error: limit must be between 1 and 1048576 packets\.$' \
	tc qdisc change dev d0 root ddl limit 1048577
expect_eq "old limit kept after refused changes" \
	"$(qstat d0 1: options.limit)" 100
expect_fail "replace with bad limit refused" 'limit must be between' \
	tc qdisc replace dev d0 root handle 1: ddl limit 4000000000
expect_eq "old limit kept after refused replace" \
	"$(qstat d0 1: options.limit)" 100
dummy_dev d1
expect_fail "add with bad limit refused" 'limit must be between' \
	tc qdisc add dev d1 root handle 2: ddl limit 2000000
expect_eq "failed add leaves the default qdisc" "$(qstat d1 2: kind)" missing
run "delete" tc qdisc del dev d0 root
expect_fail "add with bad limit creates nothing" 'limit must be between' \
	tc qdisc add dev d0 root handle 5: ddl limit 2000000
expect_eq "no ddl after failed add" "$(qstat d0 5: kind)" missing

# The kernel refuses what tc refuses, too: send raw netlink.
out=$(python3 -S "$TESTS_DIR/nlraw.py" d0 limit 0 2>&1)
expect_match "kernel refuses limit 0 (raw netlink)" "$out" \
	'error -34: limit must be between 1 and 1048576 packets$'
out=$(python3 -S "$TESTS_DIR/nlraw.py" d0 unknown 0 2>&1)
expect_match "kernel refuses an unknown attribute (raw netlink)" "$out" \
	'error -(22|95)'
out=$(python3 -S "$TESTS_DIR/nlraw.py" d0 notnested 0 2>&1)
expect_match "kernel refuses options not marked nested (raw netlink)" "$out" \
	'error -22'
out=$(python3 -S "$TESTS_DIR/nlraw.py" d0 limit 7 2>&1)
expect_match "raw netlink add works" "$out" 'ack 0'
expect_eq "raw netlink limit" "$(qstat d0 root options.limit)" 7

done_testing
