#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# e2e: timing
# The ACK lane: a job class that holds only pure ACKs sends them ahead of
# the order.  A parameter server (namespace ddl-a) shaped to 8 Mbit/s in
# mode static sends job 1's 8 MB to a worker (8 s at the rate); meanwhile
# the worker uploads job 2's 1 MB to it.  Job 2's class on the PS holds
# nothing but the ACKs (and the SYN-ACK) of that upload, and mode static
# would keep them behind job 1 to its end (maxwait 10s keeps the guard
# out): the upload completes long before job 1's transfer only if the lane
# sends them.
. "$(dirname "$0")/../lib.sh"

T=$(mktemp -d)
netns_pair	# the PS: ddl-a (198.18.0.1, a0); the worker: ddl-b (198.18.0.2)

run "ddl mode static, 8mbit, maxwait 10s" tc -n ddl-a qdisc add dev a0 \
	root handle 1: ddl jobs 2 mode static rate 8mbit maxwait 10s
# Job 1: to the worker's port 7001; job 2: from the PS's port 6002.
tc -n ddl-a filter add dev a0 parent 1: protocol ip u32 \
	match ip dport 7001 0xffff classid 1:1
tc -n ddl-a filter add dev a0 parent 1: protocol ip u32 \
	match ip sport 6002 0xffff classid 1:2

now_ms() { echo $(( $(date +%s%N) / 1000000 )); }

for r in a b; do rm -f "$T/$r.ready"; done
DDL_SINK_READY=$T/a.ready ip netns exec ddl-b python3 -S \
	"$TESTS_DIR/traffic.py" tcp-recv 198.18.0.2 7001 8000000 0 60 \
	>"$T/a.out" &
ra=$!
DDL_SINK_READY=$T/b.ready ip netns exec ddl-a python3 -S \
	"$TESTS_DIR/traffic.py" tcp-recv 198.18.0.1 6002 1000000 0 60 \
	>"$T/b.out" &
rb=$!
wait_for 60 test -e "$T/a.ready" -a -e "$T/b.ready" || fail "receivers ready"

t0=$(now_ms)
(ip netns exec ddl-a python3 -S "$TESTS_DIR/traffic.py" tcp-send \
	198.18.0.2 7001 8000000 >/dev/null; now_ms >"$T/a.end") &
sa=$!
sleep 1
tb=$(now_ms)
(ip netns exec ddl-b python3 -S "$TESTS_DIR/traffic.py" tcp-send \
	198.18.0.1 6002 1000000 >/dev/null; now_ms >"$T/b.end") &
sb=$!
wait $sa $sb $ra $rb
a_end=$(( $(cat "$T/a.end") - t0 ))
b_end=$(( $(cat "$T/b.end") - t0 ))
echo "# job 1 ended at $a_end ms, job 2's upload (begun at $(( tb - t0 )) ms) at $b_end ms"

expect_eq "job 1: every byte" "$(cat "$T/a.out")" "received 8000000"
expect_eq "job 2: every byte" "$(cat "$T/b.out")" "received 1000000"
expect_ge "job 1 took the 8 s of its bytes at the rate: $a_end ms" \
	"$a_end" 7500
expect_ge "job 2's upload ended 2 s before job 1: $b_end ms, $a_end ms" \
	$(( a_end - b_end )) 2000

qs=$(snap -n ddl-a a0)
cs=$(cstats -n ddl-a a0)
expect_ge "job 2's ACKs went in the lane: $(cfield "$cs" 1:2 ack_runs)" \
	"$(cfield "$cs" 1:2 ack_runs)" 10
expect_eq "the lane sent every packet of job 2" \
	"$(cfield "$cs" 1:2 ack_runs)" "$(cfield "$cs" 1:2 packets)"
expect_eq "no guard runs" "$(sfield "$qs" 1: guard_runs)" 0
expect_eq "the qdisc counts every lane packet" "$(sfield "$qs" 1: ack_runs)" \
	"$(( $(cfield "$cs" 1:1 ack_runs) + $(cfield "$cs" 1:2 ack_runs) ))"
# The lane's share: at most 1/16 of the other bytes, plus its credit.
expect_ge "within the lane's share" \
	$(( ($(cfield "$cs" 1:1 bytes) + 1048576) / 16 )) \
	"$(cfield "$cs" 1:2 bytes)"

done_testing
