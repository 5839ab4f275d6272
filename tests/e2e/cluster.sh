#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# e2e: fast
# Mode cluster: one order on every host.  Two hosts (namespaces ddlc-1 and
# ddlc-2, a dummy each) on one clock, the same configuration: job 1
# declares 40 kB, job 2 10 kB.  Each host queues both jobs' shards, the
# sizes swapped: host 1 holds 31 kB of job 1 and 6 kB of job 2, host 2
# 5 kB of job 1 and 8 kB of job 2 (each shard within its job's size).  Mode fair would send the smaller
# local shard first, job 2 on host 1 and job 1 on host 2; mode cluster
# sends job 2 first on both, with the same keys.  Then the DSCP of the
# rank, over IPv4 and IPv6 on a veth pair, the checksum kept; then bad
# values, refused with the reason and the old configuration intact.
. "$(dirname "$0")/../lib.sh"

DBG=/sys/kernel/debug/sch_ddl
T=$(mktemp -d)
mountpoint -q /sys/kernel/debug || mount -t debugfs none /sys/kernel/debug

# Held at 1 kbit/s, one packet at a time (burst 2000): both jobs stay
# queued on both hosts however slowly python runs.  maxwait 60s: the
# starvation guard would move the second job along, and this part tests
# the order alone.

for h in 1 2; do
	ip netns add ddlc-$h
	ip -n ddlc-$h link add dc$h type dummy
	ip -n ddlc-$h link set lo up
	ip -n ddlc-$h link set dc$h up
	ip -n ddlc-$h addr add 198.18.6.1/24 dev dc$h
	run "host $h: ddl mode cluster, held at 1kbit" tc -n ddlc-$h qdisc \
		add dev dc$h root handle 1: ddl jobs 2 mode cluster \
		rate 1kbit burst 2000 epoch 10s maxwait 60s
	for j in 1 2; do
		tc -n ddlc-$h filter add dev dc$h parent 1: protocol ip u32 \
			match ip sport $(( 5000 + j )) 0xffff classid 1:$j
	done
	run "host $h: job 1 declares 40000 bytes" tc -n ddlc-$h class change \
		dev dc$h parent 1: classid 1:1 ddl size 40000
	run "host $h: job 2 declares 10000 bytes" tc -n ddlc-$h class change \
		dev dc$h parent 1: classid 1:2 ddl size 10000
done

# Host 1: job 1 first and large; host 2: job 2 first and large.  One
# process per host: SPORT COUNT pairs in turn, 1000-byte datagrams.  Both
# start first (python starts slowly on the debug kernel), then send side
# by side once their go file appears.
burst() {	# HOST SPORT COUNT SPORT COUNT
	nsenter --net=/run/netns/ddlc-$1 python3 -S -c '
import os, socket, sys, time
go, a = sys.argv[1], sys.argv[2:]
socks = [socket.socket(socket.AF_INET, socket.SOCK_DGRAM) for _ in a[::2]]
for s, sport in zip(socks, a[::2]):
	s.bind(("", int(sport)))
open(go + ".ready", "w").close()
for _ in range(6000):
	if os.path.exists(go):
		break
	time.sleep(0.01)
for s, n in zip(socks, a[1::2]):
	for _ in range(int(n)):
		s.sendto(b"d" * 1000, ("198.18.6.2", 9))' "$T/go.$1" "${@:2}"
}
burst 1 5001 30 5002 6 &
b1=$!
burst 2 5002 8 5001 5 &
b2=$!
wait_for 60 test -e "$T/go.1.ready" -a -e "$T/go.2.ready" ||
	fail "senders ready"

# The shared clock: epoch 0 begins 100 ms before now and lasts 10 s, the
# longest epoch; the bursts, released now, all start in it on both hosts.
tai() { python3 -S -c 'import time; print(time.clock_gettime_ns(time.CLOCK_TAI))'; }
base=$(( $(tai) - 100000000 ))
for h in 1 2; do
	tc -n ddlc-$h qdisc change dev dc$h root ddl base $base
done
touch "$T/go.1" "$T/go.2"
wait $b1 $b2
echo "# the bursts ended $(( ($(tai) - base) / 1000000 )) ms into epoch 0"

q1=$(snap -n ddlc-1 dc1)
q2=$(snap -n ddlc-2 dc2)
c1=$(cstats -n ddlc-1 dc1)
c2=$(cstats -n ddlc-2 dc2)
expect_eq "mode cluster dumped" "$(sfield "$q1" 1: options.mode)" cluster
expect_eq "epoch and base dumped" \
	"$(sfield "$q1" 1: options.epoch) $(sfield "$q1" 1: options.base)" \
	"10000000 $base"
expect_eq "sizes dumped" "$(tc -n ddlc-1 class show dev dc1 classid 1:1)" \
	"class ddl 1:1 root weight 1 size 40000 "
expect_eq "host 1: job 2 first, though its shard is the smaller" \
	"$(sfield "$q1" 1: cl_first)" 2
expect_eq "host 2: job 2 first, though its shard is the larger" \
	"$(sfield "$q2" 1: cl_first)" 2
expect_eq "both jobs in the order on each host" \
	"$(sfield "$q1" 1: cl_jobs) $(sfield "$q2" 1: cl_jobs)" "2 2"
expect_eq "the hosts key job 1's burst alike" "$(cfield "$c1" 1:1 cl_key)" \
	"$(cfield "$c2" 1:1 cl_key)"
expect_eq "the hosts key job 2's burst alike" "$(cfield "$c1" 1:2 cl_key)" \
	"$(cfield "$c2" 1:2 cl_key)"
expect_eq "job 1 ranks second on both" \
	"$(cfield "$c1" 1:1 rank) $(cfield "$c2" 1:1 rank)" "1 1"
# span = size x W / (w x rate): 10000 x 2 / 125 B/s = 160 s, in epoch 0.
expect_eq "job 2's key: epoch 0 plus 160 s of its share" \
	"$(cfield "$c1" 1:2 cl_key)" 160000000000
# A burst per job and host; python stalling more than the 10 ms of a
# pause between two datagrams (the debug kernel) starts another, in the
# same epoch and so with the same key (checked above): 2 to 4 per host.
for h in 1 2; do
	n=$(sfield "$([ $h = 1 ] && echo "$q1" || echo "$q2")" 1: cl_bursts)
	expect_ge "host $h: a cluster burst per job (2 to 4): $n" \
		$(( n >= 2 && n <= 4 )) 1
done
expect_eq "epoch 0" "$(sfield "$q1" 1: epoch)" 0
expect_eq "no shard outgrew its declared size: no key moved" \
	"$(sfield "$q1" 1: cl_exts) $(sfield "$q2" 1: cl_exts)" "0 0"

# Let both drain; job 2's burst completes first on both hosts.
for h in 1 2; do
	tc -n ddlc-$h qdisc change dev dc$h root ddl rate 2mbit
done
qlen_is_ns() { [ "$(qstat -n "$1" "$2" 1: qlen)" = "$3" ]; }
for h in 1 2; do
	wait_for 60 qlen_is_ns ddlc-$h dc$h 0 || fail "host $h drains"
done
sleep 1.2	# quiet longer than the burst gap: the bursts are complete
for h in 1 2; do
	cstats -n ddlc-$h dc$h >/dev/null	# settles the bursts
	f=$(ls -d $DBG/dc$h-1:-ns*)
	e1=$(awk '$1 == 1 {e = $3} END {print e}' "$f/bursts")
	e2=$(awk '$1 == 2 {e = $3} END {print e}' "$f/bursts")
	if [ -n "$e1" ] && [ -n "$e2" ] && [ "$e2" -lt "$e1" ]; then
		ok "host $h: job 2's burst completed first"
	else
		fail "host $h: job 2's burst completed first (ends $e2, $e1)"
	fi
	expect_ge "host $h: turns logged as cluster" \
		"$(grep -cE ' (cluster|start)$' "$f/turns")" 2
done

# The DSCP of the rank.  A veth pair with IPv4 and IPv6 (benchmarking
# ranges); job 1 (sport 5001) declares less, so it is first: its packets
# leave as EF (46), job 2's as AF11 (10) while job 1's burst is in
# progress, EF after.  ECT(0) is kept; a bad IPv4 checksum would be
# dropped by the receiver, not counted.
ip netns add ddlc-s
ip netns add ddlc-r
ip link add s0 netns ddlc-s type veth peer name r0 netns ddlc-r
for ns in ddlc-s ddlc-r; do
	ip -n $ns link set lo up
done
ip -n ddlc-s addr add 198.18.7.1/24 dev s0
ip -n ddlc-r addr add 198.18.7.2/24 dev r0
ip -n ddlc-s addr add 2001:2::1/64 dev s0 nodad
ip -n ddlc-r addr add 2001:2::2/64 dev r0 nodad
ip -n ddlc-s link set s0 up
ip -n ddlc-r link set r0 up
mac=$(ip -n ddlc-r -br link show r0 | awk '{print $3}')
ip -n ddlc-s neigh replace 198.18.7.2 dev s0 nud permanent lladdr "$mac"
ip -n ddlc-s neigh replace 2001:2::2 dev s0 nud permanent lladdr "$mac"
mac=$(ip -n ddlc-s -br link show s0 | awk '{print $3}')
ip -n ddlc-r neigh replace 198.18.7.1 dev r0 nud permanent lladdr "$mac"
ip -n ddlc-r neigh replace 2001:2::1 dev r0 nud permanent lladdr "$mac"

# Held at 1 kbit/s until both jobs are queued (python is slow on the debug
# kernel), then 2 Mbit/s: job 2's head has waited past maxwait, so the
# starvation guard sends some of it while job 1's burst is queued.
run "ddl mode cluster with dscp 46,10" tc -n ddlc-s qdisc add dev s0 root \
	handle 1: ddl jobs 2 mode cluster rate 1kbit burst 2000 dscp 46,10
expect_eq "dscp dumped" "$(tc -n ddlc-s qdisc show dev s0 | grep -o 'dscp [0-9,]*')" \
	"dscp 46,10"
# port_filters N: job j's datagrams (source port 5000 + j) in class 1:j,
# over IPv4 and IPv6, for j = 1 .. N
port_filters() {
	local j
	for j in $(seq "$1"); do
		tc -n ddlc-s filter add dev s0 parent 1: protocol ip u32 \
			match ip sport $(( 5000 + j )) 0xffff classid 1:$j
		tc -n ddlc-s filter add dev s0 parent 1: protocol ipv6 u32 \
			match ip6 sport $(( 5000 + j )) 0xffff classid 1:$j
	done
}
# start_sink N: the receiver, until N datagrams, into $T/recv ($sink)
start_sink() {
	rm -f "$T/ready"
	DDL_SINK_READY=$T/ready nsenter --net=/run/netns/ddlc-r python3 -S \
		"$TESTS_DIR/dscp_check.py" recv 198.18.7.2 2001:2::2 9 "$1" 60 \
		>"$T/recv" &
	sink=$!
	wait_for 60 test -e "$T/ready" || fail "receiver ready"
}
port_filters 2
tc -n ddlc-s class change dev s0 parent 1: classid 1:1 ddl size 20000
tc -n ddlc-s class change dev s0 parent 1: classid 1:2 ddl size 2000000

N=12	# per job and family
start_sink $(( 4 * N ))
run "both jobs send over IPv4 and IPv6" nsenter --net=/run/netns/ddlc-s python3 -S \
	"$TESTS_DIR/dscp_check.py" send 198.18.7.2 2001:2::2 9 $N 1000 5001 5002
sleep 0.2
run "then 2mbit" tc -n ddlc-s qdisc change dev s0 root ddl jobs 2 \
	mode cluster rate 2mbit dscp 46,10
wait "$sink"
cat "$T/recv" | sed 's/^/# /'
count() {	# FAMILY SPORT TOS
	awk -v f="$1" -v s="$2" -v t="$3" \
		'$1 == f && $2 == s && $3 == t {n += $4} END {print n + 0}' "$T/recv"
}
EF=$(( 46 << 2 | 2 ))
AF11=$(( 10 << 2 | 2 ))
expect_eq "every datagram arrived: checksums valid" \
	"$(awk '$1 == "total" {print $2}' "$T/recv")" $(( 4 * N ))
for f in 4 6; do
	expect_eq "IPv$f: job 1, first, leaves as EF with ECT(0)" \
		"$(count $f 5001 $EF)" $N
	expect_eq "IPv$f: job 2 leaves as EF or AF11 only" \
		$(( $(count $f 5002 $EF) + $(count $f 5002 $AF11) )) $N
done
expect_ge "job 2 left as AF11 while job 1's burst went on" \
	$(( $(count 4 5002 $AF11) + $(count 6 5002 $AF11) )) 1
qs=$(snap -n ddlc-s s0)
cs=$(cstats -n ddlc-s s0)
expect_eq "dscp_marks: every job packet" "$(sfield "$qs" 1: dscp_marks)" \
	$(( 4 * N ))
expect_eq "no dscp_fails" "$(sfield "$qs" 1: dscp_fails)" 0
expect_eq "per class" "$(cfield "$cs" 1:1 dscp_marks) $(cfield "$cs" 1:2 dscp_marks)" \
	"$(( 2 * N )) $(( 2 * N ))"

# Bad values: refused with the reason, nothing changed.
expect_fail "leaving mode cluster with a DSCP map" 'needs mode cluster' \
	tc -n ddlc-s qdisc change dev s0 root ddl mode fair
expect_fail "a DSCP map in mode fair" 'needs mode cluster' \
	tc -n ddlc-1 qdisc change dev dc1 root ddl mode fair dscp 0
expect_fail "a size for the background" 'no size' \
	tc -n ddlc-s class change dev s0 parent 1: classid 1:ffff ddl size 1
expect_fail "an epoch of 50us" 'epoch must be between 100us and 10s' \
	tc -n ddlc-s qdisc change dev s0 root ddl epoch 50us
expect_eq "the old configuration stays" \
	"$(tc -n ddlc-s qdisc show dev s0 | grep -oE 'mode [a-z]+|epoch [0-9a-z]+|dscp [0-9,]+' | tr '\n' ' ')" \
	"mode cluster epoch 20ms dscp 46,10 "
expect_eq "host 1 still in mode cluster" "$(qstat -n ddlc-1 dc1 1: options.mode)" cluster
# A raw request past tc: a code point of 64.
expect_match "a DSCP of 64 (raw netlink): refused" \
	"$(nsenter --net=/run/netns/ddlc-s python3 -S "$TESTS_DIR/nlraw.py" s0 dscp 10,64)" \
	'^error -34: dscp takes at most 8 code points, each at most 63$'
expect_match "nine code points (raw netlink): refused" \
	"$(nsenter --net=/run/netns/ddlc-s python3 -S "$TESTS_DIR/nlraw.py" s0 dscp 1,2,3,4,5,6,7,8,9)" \
	'^error -34: dscp takes at most 8 code points, each at most 63$'
expect_fail "nine code points (tc): refused by the kernel" \
	'dscp takes at most 8 code points' \
	tc -n ddlc-s qdisc change dev s0 root ddl dscp 1,2,3,4,5,6,7,8,9
expect_eq "the map stays" "$(tc -n ddlc-s qdisc show dev s0 | grep -o 'dscp [0-9,]*')" \
	"dscp 46,10"

# The fabric's code points (shuffle), in mode fair: each job's place comes
# from its class and the deal of the shared clock only.  Deals of an hour,
# the base half an hour ago: deal 0 throughout.  Four jobs, four code
# points; each job's datagrams must carry the code point of the place the
# documented rule gives it (dscp_check.py place), with ECT(0) kept and
# valid checksums, over IPv4 and IPv6.
base=$(( $(tai) - 1800000000000 ))
tc -n ddlc-s qdisc del dev s0 root
run "ddl dscp 46,34,26,10 shuffle 3600s (mode fair)" tc -n ddlc-s qdisc \
	add dev s0 root handle 1: ddl jobs 4 rate 2mbit \
	dscp 46,34,26,10 shuffle 3600s base $base
expect_eq "shuffle dumped" \
	"$(tc -n ddlc-s qdisc show dev s0 | grep -oE '(dscp|shuffle) [0-9a-z,.+]+' | tr '\n' ' ')" \
	"dscp 46,34,26,10 shuffle 3600s "
# send_places WHAT JOB...: jobs 1-4 send N datagrams each over IPv4 and
# IPv6; each job's must all carry the DSCP of the place the rule gives
# JOB (dscp_check.py place: MINOR[/TIER/TIERS]) in deal 0, ECT(0) kept;
# the places in $places
cps=(46 34 26 10)
send_places() {
	local what=$1 j f tos
	shift
	start_sink $(( 8 * N ))
	run "$what: four jobs send over IPv4 and IPv6" nsenter --net=/run/netns/ddlc-s \
		python3 -S "$TESTS_DIR/dscp_check.py" send 198.18.7.2 \
		2001:2::2 9 $N 1000 5001 5002 5003 5004
	wait "$sink"
	sed 's/^/# /' "$T/recv"
	expect_eq "$what: every datagram arrived: checksums valid" \
		"$(awk '$1 == "total" {print $2}' "$T/recv")" $(( 8 * N ))
	mapfile -t places < <(python3 -S "$TESTS_DIR/dscp_check.py" place 4 0 "$@")
	echo "# $what: places of jobs 1-4 in deal 0: ${places[*]}"
	for j in 1 2 3 4; do
		tos=$(( ${cps[${places[$(( j - 1 ))]}]} << 2 | 2 ))
		for f in 4 6; do
			expect_eq "$what, IPv$f: job $j leaves with the DSCP of its place (${places[$(( j - 1 ))]}), ECT(0) kept" \
				"$(count $f $(( 5000 + j )) $tos)" $N
		done
	done
}
port_filters 4
send_places "one tier" 1 2 3 4
qs=$(snap -n ddlc-s s0)
cs=$(cstats -n ddlc-s s0)
expect_eq "deal 0" "$(sfield "$qs" 1: deal)" 0
expect_eq "each class's place as dealt" \
	"$(for j in 1 2 3 4; do cfield "$cs" 1:$j place; done | tr '\n' ' ')" \
	"$(echo "${places[*]} ")"
expect_eq "dscp_marks: every job packet" "$(sfield "$qs" 1: dscp_marks)" \
	$(( 8 * N ))
expect_eq "the TAI offset exported" "$(sfield "$qs" 1: tai_off_ns)" \
	"$(python3 -S -c 'import time
print(round((time.clock_gettime_ns(time.CLOCK_TAI) - time.time_ns()) / 1e9) * 10**9)')"

# Tiers: one size, 100 kB, splits the four code points into two tiers
# of two.  Jobs 1 and 3 (150 kB of weight 2: 75 kB per unit) are in the
# first, job 2 (1 MB) and job 4 (no size) in the second.  A new iteration
# of each job (after a quiet time longer than a pause) takes its tier's
# place: the rule's, with the tier.
run "tiers 100000" tc -n ddlc-s qdisc change dev s0 root ddl tiers 100000
expect_eq "tiers dumped" \
	"$(tc -n ddlc-s qdisc show dev s0 | grep -oE '(dscp|shuffle|tiers) [0-9a-z,.+]+' | tr '\n' ' ')" \
	"dscp 46,34,26,10 shuffle 3600s tiers 100000 "
expect_eq "tiers in JSON" \
	"$(tc -j -n ddlc-s qdisc show dev s0 | python3 -S -c 'import json, sys
print(json.load(sys.stdin)[0]["options"]["tiers"])')" "[100000]"
out=$(nsenter --net=/run/netns/ddlc-s "$TESTS_DIR/../sbin/sch-ddl-exporter" 2>&1)
expect_eq "exporter: where the second tier starts" \
	"$(grep -E '^sch_ddl_tier_start_bytes\{dev="s0",handle="1:",parent="root",tier="2"\} ' <<<"$out" | awk '{print $2}')" \
	100000
tc -n ddlc-s class change dev s0 parent 1: classid 1:1 ddl size 50000
tc -n ddlc-s class change dev s0 parent 1: classid 1:2 ddl size 1000000
tc -n ddlc-s class change dev s0 parent 1: classid 1:3 ddl weight 2 size 150000
sleep 0.1
send_places "two tiers" 1/0/2 2/1/2 3/0/2 4/1/2
cs=$(cstats -n ddlc-s s0)
expect_eq "each class's tier, from 1" \
	"$(for j in 1 2 3 4; do cfield "$cs" 1:$j tier; done | tr '\n' ' ')" \
	"1 2 1 2 "
expect_eq "each class's place within its tier" \
	"$(for j in 1 2 3 4; do cfield "$cs" 1:$j place; done | tr '\n' ' ')" \
	"$(echo "${places[*]} ")"
expect_fail "tiers without a code point each" 'give more dscp, or fewer tiers' \
	tc -n ddlc-s qdisc change dev s0 root ddl dscp 46,10 tiers 1k,2k
expect_fail "tiers without a shuffle" 'give shuffle, or tiers off' \
	tc -n ddlc-s qdisc change dev s0 root ddl mode cluster shuffle off
expect_fail "tiers that do not increase" 'tiers takes at most 7 increasing sizes' \
	tc -n ddlc-s qdisc change dev s0 root ddl tiers 2k,1k
expect_match "eight tiers (raw netlink): refused" \
	"$(nsenter --net=/run/netns/ddlc-s python3 -S "$TESTS_DIR/nlraw.py" s0 tiers 1,2,3,4,5,6,7,8)" \
	'^error -34: tiers takes at most 7 increasing sizes of 8 bytes, each between 1b and 1Tb$'
expect_match "a size of 12 bytes (raw netlink): refused" \
	"$(nsenter --net=/run/netns/ddlc-s python3 -S "$TESTS_DIR/nlraw.py" s0 tiersraw 12)" \
	'^error -34: tiers takes at most 7 increasing sizes of 8 bytes, each between 1b and 1Tb$'
expect_eq "the tiers stay" \
	"$(tc -n ddlc-s qdisc show dev s0 | grep -oE '(mode|dscp|shuffle|tiers) [0-9a-z,.+]+' | tr '\n' ' ')" \
	"mode fair dscp 46,34,26,10 shuffle 3600s tiers 100000 "
run "tiers off" tc -n ddlc-s qdisc change dev s0 root ddl tiers off
expect_eq "tiers off dumped" \
	"$(tc -n ddlc-s qdisc show dev s0 | grep -oE 'tiers [0-9a-z,.+]+')" "tiers off"
cs=$(cstats -n ddlc-s s0)
expect_eq "no tiers: tier 0" "$(cfield "$cs" 1:1 tier)" 0

# Configurations that cannot work: refused, the old one stays.
expect_fail "a shuffle without code points" 'give dscp, or shuffle off' \
	tc -n ddlc-s qdisc change dev s0 root ddl dscp off
expect_fail "a shuffle shorter than an epoch" 'at least one epoch' \
	tc -n ddlc-s qdisc change dev s0 root ddl epoch 1s shuffle 500ms
expect_fail "a shuffle of 5ms" 'shuffle must be off or between 10ms and 3600s' \
	tc -n ddlc-s qdisc change dev s0 root ddl shuffle 5ms
expect_match "a shuffle of 5ms (raw netlink): refused" \
	"$(nsenter --net=/run/netns/ddlc-s python3 -S "$TESTS_DIR/nlraw.py" s0 opts shuffle=5000)" \
	'^error -34: shuffle must be off or between 10ms and 3600s$'
expect_fail "dscp in mode fair without a shuffle" 'or a shuffle' \
	tc -n ddlc-s qdisc change dev s0 root ddl shuffle off
expect_eq "the old configuration stays" \
	"$(tc -n ddlc-s qdisc show dev s0 | grep -oE '(mode|epoch|dscp|shuffle) [0-9a-z,.+]+' | tr '\n' ' ')" \
	"mode fair epoch 20ms dscp 46,34,26,10 shuffle 3600s "
run "dscp and shuffle off together" tc -n ddlc-s qdisc change dev s0 root \
	ddl dscp off shuffle off

done_testing
