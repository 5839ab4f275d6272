#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# e2e: fast
# Bad input is refused with a message, tc's for what it cannot parse, the
# kernel's for a value out of range; the old configuration stays.  The
# usage and the options tc takes and shows agree.
. "$(dirname "$0")/../lib.sh"

dummy_dev d0
run "add" tc qdisc add dev d0 root handle 1: ddl limit 100

expect_match "help prints usage" "$(tc qdisc add dev d0 root ddl help 2>&1)" \
	'^Usage: \.\.\. ddl \[ limit PACKETS \]'
expect_fail "limit 0 refused by the kernel" \
	'^Error: limit must be between 1 and 1048576 packets\.$' \
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

# The usage names every option tc takes, and every option tc shows.
usage=$(tc qdisc add dev d0 root ddl help 2>&1)
words=$(grep -oE '(\[|\|) [a-z_]+' <<<"$usage" | awk '{print $2}')
expect_match "the usage names mode cluster" "$usage" 'mode [a-z|]*cluster'
dummy_dev d2
run "a ddl to try each option on" tc qdisc add dev d2 root handle 1: ddl \
	rate 1gbit
bad=
for w in $words; do
	out=$(tc qdisc change dev d2 root ddl "$w" 2>&1)
	matches "$out" 'What is|Usage' && bad+=" $w"
done
expect_eq "tc takes every option of the usage" "$bad" ""
bad=
for k in $(tc -j qdisc show dev d2 | python3 -S -c '
import json, sys
print(*json.load(sys.stdin)[0]["options"])'); do
	[ "$k" = target_time ] && k=target
	grep -qx "$k" <<<"$words" || bad+=" $k"
done
expect_eq "the usage names every option tc shows" "$bad" ""

done_testing
