#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# memory_limit: a flood of 64 KB UDP GSO packets.  The memory the queue
# holds, read independently from the senders' sockets (tx_queue in
# /proc/net/udp, their skbs' truesize not yet freed), stays under the limit
# plus one packet; only the job over its share loses packets; a lower limit
# sheds at once; a refused value leaves the old one; a parent's counts stay
# right; everything drains to 0 bytes.
. "$(dirname "$0")/../lib.sh"

secs=4
limit=1048576
# The largest truesize of one 46 x 1400-byte GSO packet, with room.
pkt=131072
dummy_dev d0
ip addr add 198.18.5.1/24 dev d0
sysctl -qw net.core.wmem_max=33554432

# most_wmem PORT...: MOST, raised to the sum of tx_queue (hex) of the UDP
# sockets bound to the given ports if that is more.  Built-ins only: it
# runs every 0.1 s while a flood runs.
most_wmem() {
	local sum=0 sl laddr txrx port p
	while read -r sl laddr _ _ txrx _; do
		[ "$sl" = sl ] && continue
		port=$(( 16#${laddr#*:} ))
		for p; do
			[ "$port" = "$p" ] && sum=$(( sum + 16#${txrx%:*} ))
		done
	done </proc/net/udp
	[ "$sum" -gt "$MOST" ] && MOST=$sum
}

# gso SPORT SNDBUF SECS: a GSO flood from SPORT in the background.
gso() {
	DDL_GSO=1400 DDL_SNDBUF=$2 python3 -S "$TESTS_DIR/traffic.py" \
		udp-flood 198.18.5.2 9 "$1" "$3" 64400 >/dev/null &
}

# 20 Mbit/s: a 64 KB packet leaves every 26 ms, the flood fills the queue.
run "ddl memory_limit 1Mb" tc qdisc add dev d0 root handle 1: ddl jobs 4 \
	rate 20mbit limit 100000 memory_limit 1Mb
expect_eq "memory_limit dumped in bytes" \
	"$(qstat d0 1: options.memory_limit)" $limit
expect_match "memory_limit printed" "$(tc qdisc show dev d0)" \
	"memory_limit 1Mb"

# Job A (sport 5001) floods with a 32 MB send buffer; job B (sport 5002)
# holds at most its 128 KB send buffer, far under its share.
# Sampled while job A's flood runs.
gso 5002 65536 $secs
gso 5001 16777216 $secs
flood_pid=$!
MOST=0
while kill -0 "$flood_pid" 2>/dev/null; do
	most_wmem 5001 5002
	sleep 0.1
done
s=$(snap d0)
c=$(cstats d0)
wait
expect_ge "the sockets held more than half the limit" "$MOST" $(( limit / 2 ))
expect_eq "the sockets never held more than limit + one packet" \
	"$(( MOST <= limit + pkt ))" 1
expect_ge "drop_overmemory counted" "$(sfield "$s" 1: drop_overmemory)" 1
expect_eq "no drop for the packet limit" "$(sfield "$s" 1: drop_overlimit)" 0
peak=$(sfield "$s" 1: memory_peak)
expect_eq "memory_peak within limit + one packet" \
	"$(( peak <= limit + pkt && peak > limit / 2 ))" 1
expect_eq "memory_used within the limit" \
	"$(( $(sfield "$s" 1: memory_used) <= limit ))" 1

# The classes by key: the sending port.
ca=missing cb=missing
while read -r cls key; do
	[ "$key" = 5001 ] && ca=$cls
	[ "$key" = 5002 ] && cb=$cls
done < <(tc -s class show dev d0 | awk '/^class ddl/ { c = $3 }
	/ key [0-9]+/ { for (i = 1; i < NF; i++)
		if ($i == "key") print c, $(i + 1) }')
expect_eq "both jobs have a class" "$([ "$ca" != missing ] &&
	[ "$cb" != missing ] && echo yes)" yes
expect_ge "job A lost packets for memory" \
	"$(cfield "$c" "$ca" drop_overmemory)" 1
expect_eq "job A's drops are all for memory" \
	"$(cfield "$c" "$ca" drops)" "$(cfield "$c" "$ca" drop_overmemory)"
expect_eq "job B, under its share, lost none" "$(cfield "$c" "$cb" drops)" 0
expect_ge "job B was served" "$(cfield "$c" "$cb" bytes)" 100000
expect_eq "qdisc drops = the classes' drops" "$(sfield "$s" 1: drops)" \
	$(( $(cfield "$c" "$ca" drops) + $(cfield "$c" "$cb" drops) ))

# memused_over DEV HANDLE BYTES: the qdisc holds more than BYTES of memory
memused_over() { [ "$(qstat "$1" "$2" memory_used)" -gt "$3" ]; }

# A lower limit, while the flood runs: the excess goes at once.
gso 5001 16777216 30
flood_pid=$!
wait_for 30 memused_over d0 1: 524288
d0c=$(qstat d0 1: drop_change)
run "memory_limit 256Kb under load" tc qdisc change dev d0 root ddl \
	memory_limit 256Kb
s=$(snap d0)
expect_eq "under the new limit at once" \
	"$(( $(sfield "$s" 1: memory_used) <= 262144 ))" 1
expect_ge "the excess counted in drop_change" \
	"$(( $(sfield "$s" 1: drop_change) - d0c ))" 1
expect_fail "memory_limit below 128Kb refused" \
	'memory_limit must be at least 128Kb' \
	tc qdisc change dev d0 root ddl memory_limit 1000
expect_eq "the refused change left the limit" \
	"$(qstat d0 1: options.memory_limit)" 262144
MOST=0
for _ in 1 2 3 4 5 6 7 8 9 10; do
	most_wmem 5001
	sleep 0.1
done
kill "$flood_pid"
wait
expect_eq "the socket held at most 256Kb + one packet" \
	"$(( MOST <= 262144 + pkt ))" 1

wait_for 60 qlen_is d0 1: 0
s=$(snap d0)
c=$(cstats d0)
expect_eq "drained: memory_used 0" "$(sfield "$s" 1: memory_used)" 0
expect_eq "drained: job A's memory 0" "$(cfield "$c" "$ca" memory_used)" 0
expect_eq "drained: backlog 0" "$(sfield "$s" 1: backlog)" 0

# Under a parent: what the parent counts follows the memory drops.
run "ddl deleted" tc qdisc del dev d0 root
run "tbf root" tc qdisc add dev d0 root handle 1: tbf rate 20mbit \
	burst 100k limit 100000000
run "ddl child" tc qdisc add dev d0 parent 1:1 handle 10: ddl jobs 4 \
	limit 100000 memory_limit 512Kb
gso 5001 16777216 30
p1=$!
gso 5003 16777216 30
p2=$!
wait_for 30 memused_over d0 10: 393216
sleep 1
# One dump reads the parent, then the child, while packets come and go: a
# packet may arrive or leave between the two.  A counting error would
# persist, so the first of five dumps in which they agree is taken.
for _ in 1 2 3 4 5; do
	s=$(snap d0)
	[ "$(sfield "$s" 1: qlen) $(sfield "$s" 1: backlog)" = \
	  "$(sfield "$s" 10: qlen) $(sfield "$s" 10: backlog)" ] && break
done
expect_ge "child: drop_overmemory" "$(sfield "$s" 10: drop_overmemory)" 1
expect_eq "parent qlen = child qlen" "$(sfield "$s" 1: qlen)" \
	"$(sfield "$s" 10: qlen)"
expect_eq "parent backlog = child backlog" "$(sfield "$s" 1: backlog)" \
	"$(sfield "$s" 10: backlog)"
kill "$p1" "$p2"
wait
wait_for 60 qlen_is d0 10: 0
s=$(snap d0)
expect_eq "drained: parent qlen 0" "$(sfield "$s" 1: qlen)" 0
expect_eq "drained: parent backlog 0" "$(sfield "$s" 1: backlog)" 0
expect_eq "drained: child memory_used 0" "$(sfield "$s" 10: memory_used)" 0

done_testing
