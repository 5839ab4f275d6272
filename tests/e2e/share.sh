#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# share: the ddl qdiscs of a device's transmit queues take turns, one job's
# burst at a time over all of them.  A NIC of four queues that it serves
# in turn is emulated by htb at 400 kbit/s over one class per queue, a ddl
# on each (mode cluster, no rate, maxwait 4s: a turn nothing uses goes
# stale after maxwait / 8, 500 ms, and a packet takes 21 ms); three jobs
# send a burst of 40 datagrams each at once, each job on a queue of its
# own, as ring members' single flows land.  With share on, the bursts end
# one after another (the first within 60 % of the time the last takes),
# the link never idle between them, and the queue that sends a burst's
# last datagram wakes the waiting ones.  A job that holds only pure ACKs
# (packets under 128 B) never waits for the turn, nor takes it.  With
# share off the NIC's round robin is fair sharing and the bursts end
# together.  Then the option itself:
# auto is on for mq's children without a rate and off with one, and a
# value tc cannot send is refused with the old configuration intact.
# e2e: fast
. "$(dirname "$0")/../lib.sh"

DBG=/sys/kernel/debug/sch_ddl
L=1042	# 1000 B of UDP payload in an Ethernet frame
N=40	# datagrams per burst
mountpoint -q /sys/kernel/debug || mount -t debugfs none /sys/kernel/debug

dummy_dev d0
ip addr add 198.18.5.1/24 dev d0

# nic SHARE: htb over four queue classes 1:10 .. 1:13, job j (sport
# 500j) on queue j - 1, a ddl 1q: on each with the jobs' filters.
nic() {
	local q j
	tc qdisc del dev d0 root 2>/dev/null
	{
		echo "qdisc add dev d0 root handle 1: htb default 13"
		echo "class add dev d0 parent 1: classid 1:1 htb rate 400kbit ceil 400kbit"
		for q in 0 1 2 3; do
			echo "class add dev d0 parent 1:1 classid 1:1$q htb rate 100kbit ceil 400kbit quantum 1514"
			echo "qdisc add dev d0 parent 1:1$q handle 1$q: ddl jobs 4 key none mode cluster yield 50ms maxwait 4s share $1"
			for j in 1 2 3; do
				echo "filter add dev d0 parent 1$q: protocol ip prio 1 u32 match ip sport 500$j 0xffff flowid 1$q:$j"
			done
		done
		for j in 1 2 3; do
			echo "filter add dev d0 parent 1: protocol ip prio 1 u32 match ip sport 500$j 0xffff flowid 1:1$(( j - 1 ))"
		done
	} | tc -b -
}

# bursts: send the three bursts; print "first last" burst end, ns after
# the first start, from the bursts files (job start end duration bytes).
bursts() {
	local q
	python3 -S "$TESTS_DIR/traffic.py" udp-bursts 198.18.5.2 9 \
		5001:$N,5002:$N,5003:$N 1000 >/dev/null
	wait_for 60 qlen_is d0 1: 0 || fail "the queues drain"
	sleep 0.5
	for q in 0 1 2; do
		cat "$DBG/d0-1$q:/bursts"
	done | awk '$1 ~ /^[0-9]+$/ && $5 > 0 { n++
		if (!s || $2 < s) s = $2
		if (!a || $3 < a) a = $3
		if ($3 > z) z = $3 }
		END { printf "%d %.0f %.0f\n", n, a - s, z - s }'
}

run "share on: four queues of a NIC, a ddl on each" nic on
s=$(snap d0)
expect_eq "each ddl shares the turn with the other three" \
	"$(for q in 0 1 2 3; do sfield "$s" 1$q: share_queues; done | sort -u)" 4
expect_eq "... and dumps share on" "$(sfield "$s" 10: options.share)" on
read -r n first last <<<"$(bursts)"
echo "# share on: $n bursts, the first ended at $(( first / 1000000 )) ms, the last at $(( last / 1000000 )) ms"
expect_eq "three bursts, one per job" "$n" 3
expect_ge "the first ends within 60 % of the last's time" \
	"$(( last * 6 / 10 ))" "$first"
# 120 datagrams of 1042 B at 400 kbit/s: 2501 ms.  (htb tries a queue
# that waits again at each of its dequeues, so a missing wake-up shows in
# share_wakes here, not in time; a NIC's queue would wait 500 ms.)
expect_ge "the link never waits for a stale turn: the last ends by 2900 ms" \
	2900000000 "$last"
s=$(snap d0)
holds=0 claims=0 wakes=0
for q in 0 1 2; do
	holds=$(( holds + $(sfield "$s" 1$q: share_holds) ))
	claims=$(( claims + $(sfield "$s" 1$q: share_claims) ))
	wakes=$(( wakes + $(sfield "$s" 1$q: share_wakes) ))
done
expect_ge "queues waited for the turn" "$holds" 1
expect_ge "each job took the turn" "$claims" 3
expect_ge "each burst's last datagram woke the waiting queues" "$wakes" 2
expect_eq "every datagram sent, none dropped" \
	"$(sfield "$s" 1: packets) $(sfield "$s" 1: drops)" "$(( 3 * N )) 0"

# Job 2 sends 1500 datagrams of 20 B (62 B frames: pure ACKs to ddl)
# while job 1's burst of 160 datagrams has the turn.  The first thousand
# or so leave in the ACK lane, the rest, its credit spent, in the order;
# none waits for the turn or takes it, and they leave beside job 1's.
run "share on, job 1's burst and job 2's ACKs" nic on
DDL_SNDBUF=4000000 python3 -S "$TESTS_DIR/traffic.py" udp-bursts \
	198.18.5.2 9 5001:$(( 4 * N )),5002:1500:20 1000 >/dev/null
wait_for 10 qlen_is d0 11: 0 || fail "job 2's ACKs leave"
s=$(snap d0)
expect_eq "job 2's ACKs all sent while job 1's burst goes on, with the turn" \
	"$(sfield "$s" 11: packets) $(( $(sfield "$s" 10: qlen) > 0 )) $(sfield "$s" 10: share_job)" \
	"1500 1 1"
expect_ge "... some of them in the order, the ACK lane's credit spent" \
	1499 "$(sfield "$s" 11: ack_runs)"
wait_for 60 qlen_is d0 1: 0 || fail "the queues drain"
expect_eq "... job 2 never waited for the turn, nor took it" \
	"$(qstat d0 11: share_holds) $(qstat d0 11: share_claims)" "0 0"

run "share off: each queue alone" nic off
expect_eq "no ddl shares a turn" "$(qstat d0 10: share_queues)" 0
read -r n first last <<<"$(bursts)"
echo "# share off: $n bursts, the first ended at $(( first / 1000000 )) ms, the last at $(( last / 1000000 )) ms"
expect_eq "three bursts" "$n" 3
expect_ge "round robin: the first ends after 80 % of the last's time" \
	"$first" "$(( last * 8 / 10 ))"

# Turned on and off by a change, with the others left as they are.
run "share on for queue 0 alone" tc qdisc change dev d0 parent 1:10 \
	handle 10: ddl share on
expect_eq "... it is its share's one member" "$(qstat d0 10: share_queues)" 1
run "share on for queue 1" tc qdisc change dev d0 parent 1:11 \
	handle 11: ddl share on
expect_eq "... two members" \
	"$(qstat d0 10: share_queues) $(qstat d0 11: share_queues)" "2 2"
expect_fail "share 2: not a value tc sends" share tc qdisc change \
	dev d0 parent 1:11 handle 11: ddl share 2
expect_eq "... share as it was" "$(qstat d0 11: options.share)" on
run "share off for queue 0" tc qdisc change dev d0 parent 1:10 \
	handle 10: ddl share off
expect_eq "... queue 1 alone again" "$(qstat d0 11: share_queues)" 1
run "queue 1 in mode fair" tc qdisc change dev d0 parent 1:11 handle 11: \
	ddl mode fair
expect_eq "... leaves the turn: only mode cluster shares one" \
	"$(qstat d0 11: share_queues) $(qstat d0 11: options.share)" "0 on"
tc qdisc del dev d0 root
expect_eq "share 2 through netlink: refused with the range" \
	"$(python3 -S "$TESTS_DIR/nlraw.py" d0 opts share=2)" \
	"error -34: share must be auto, 0 or 1"
tc qdisc del dev d0 root 2>/dev/null

# auto: on for mq's children without a rate, off with one.
netns_pair 4
run "mq with a ddl on each queue, no rate" tc -n ddl-a qdisc replace \
	dev a0 root handle 1: mq
for q in 1 2 3 4; do
	run "queue $q: ddl $(( q + 1 )):" tc -n ddl-a qdisc add dev a0 \
		parent 1:$q handle $(( q + 1 )): ddl jobs 4
done
s=$(snap -n ddl-a a0)
expect_eq "share auto: the four share one turn" \
	"$(for q in 2 3 4 5; do sfield "$s" $q: share_queues; done | sort -u) $(sfield "$s" 2: options.share)" \
	"4 auto"
run "queue 1 with a rate" tc -n ddl-a qdisc change dev a0 parent 1:1 \
	handle 2: ddl rate 10mbit
expect_eq "... leaves the turn: auto is off with a rate" \
	"$(qstat -n ddl-a a0 2: share_queues) $(qstat -n ddl-a a0 3: share_queues)" \
	"0 3"
run "mq deleted: its ddl and their turn go" tc -n ddl-a qdisc del dev a0 root

done_testing
