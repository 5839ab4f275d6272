#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Mode fair, the default: the burst that per-job fair sharing would finish
# first is sent first, and its statistics.  UDP through a dummy device
# shaped to 200 kbit/s: job 1 (sport 5001) queues 80 datagrams of 1042 B
# on the wire (3.3 s at the rate), then job 2 (sport 5002) 5 (210 ms).
# Neither size is learned yet: job 1's tag grew with its 83 KB past job
# 2's, so job 2 is sent as soon as it arrives and
# completes first; under the rotation job 1 would keep the link to the end
# of its burst.  A burst gap of 50 ms (yield) keeps each job's packets one
# burst however slowly python runs on the debug kernel.
. "$(dirname "$0")/../lib.sh"

DBG=/sys/kernel/debug/sch_ddl
TR=/sys/kernel/tracing
T=$(mktemp -d)

dummy_dev d0
ip addr add 198.18.5.1/24 dev d0
L=1042	# 1000 B of UDP payload in an Ethernet frame
mountpoint -q /sys/kernel/debug || mount -t debugfs none /sys/kernel/debug
mountpoint -q $TR || mount -t tracefs nodev $TR
echo 0 >$TR/tracing_on
echo >$TR/trace
echo 1 >$TR/events/sch_ddl/ddl_turn/enable
echo 1 >$TR/tracing_on

run "ddl mode fair by default, rate 200kbit" tc qdisc add dev d0 \
	root handle 1: ddl jobs 4 rate 200kbit yield 50ms
expect_eq "mode fair is the default" "$(qstat d0 1: options.mode)" fair
# One process: job 2 must arrive while most of job 1 is queued, and a
# second python takes seconds to start on the debug kernel.
run "job 1: 80 datagrams, then job 2: 5" python3 -S "$TESTS_DIR/traffic.py" \
	udp-bursts 198.18.5.2 9 5001:80,5002:5 1000
wait_for 60 qlen_is d0 1: 0 || fail "the queue drains"
sleep 1	# both quiet for longer than the burst gap
qs=$(snap d0)
cs=$(cstats d0)
cp "$DBG/d0-1:/bursts" "$DBG/d0-1:/turns" "$T/"
echo 0 >$TR/tracing_on
cp $TR/trace "$T/trace"
echo 0 >$TR/events/sch_ddl/ddl_turn/enable

expect_eq "every packet sent" "$(sfield "$qs" 1: packets)" 85
expect_eq "nothing dropped" "$(sfield "$qs" 1: drops)" 0
expect_eq "job 1 owns 1:1, job 2 1:2" \
	"$(cfield "$cs" 1:1 key) $(cfield "$cs" 1:2 key)" "5001 5002"
expect_eq "seg_bytes: the bytes queued in each burst" \
	"$(cfield "$cs" 1:1 seg_bytes) $(cfield "$cs" 1:2 seg_bytes)" \
	"$(( 80 * L )) $(( 5 * L ))"
expect_eq "one burst each" "$(cfield "$cs" 1:1 bursts) $(cfield "$cs" 1:2 bursts)" \
	"1 1"
expect_ge "job 1's 83 KB outgrew its 64 KiB tag" \
	"$(cfield "$cs" 1:1 tag_exts)" 1
expect_eq "job 2's 5 KB fit its tag" "$(cfield "$cs" 1:2 tag_exts)" 0
expect_eq "the qdisc counts every extension" "$(sfield "$qs" 1: tag_exts)" \
	"$(( $(cfield "$cs" 1:1 tag_exts) + $(cfield "$cs" 1:2 tag_exts) ))"
v1=$(cfield "$cs" 1:1 vfinish)
v2=$(cfield "$cs" 1:2 vfinish)
if [ "$v2" -lt "$v1" ]; then
	ok "job 2's finish tag is below job 1's ($v2 < $v1)"
else
	fail "job 2's finish tag is below job 1's ($v2 < $v1)"
fi
expect_ge "virtual time moved: at least job 2's start" "$(sfield "$qs" 1: vtime)" \
	"$(cfield "$cs" 1:2 vstart)"
expect_ge "job 2 started after job 1 had sent" "$(cfield "$cs" 1:2 vstart)" 1

# The bursts file: job start end duration bytes.  Job 2 ends first.
read -r e1 b1 <<<"$(awk '$1 == 1 {print $3, $5}' "$T/bursts")"
read -r e2 b2 <<<"$(awk '$1 == 2 {print $3, $5}' "$T/bursts")"
expect_eq "bursts: one of each job, all their bytes" "$b1 $b2" "$(( 80 * L )) $(( 5 * L ))"
if [ -n "$e1" ] && [ -n "$e2" ] && [ "$e2" -lt "$e1" ]; then
	ok "job 2's burst completed before job 1's"
else
	fail "job 2's burst completed before job 1's (ends $e2, $e1)"
fi
expect_ge "turns file: green moved to job 2 and back (fair)" \
	"$(grep -cE ' fair$' "$T/turns")" 2
expect_ge "trace: ddl_turn why=fair" \
	"$(grep -cE 'ddl_turn: dev=d0 handle=1: from=[0-9a-f]+ to=[12] why=fair' \
		"$T/trace")" 2
expect_eq "no rotations in mode fair" "$(sfield "$qs" 1: rotations)" 0

done_testing
