#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# e2e: fast
# tc qdisc add / change / replace / del of ddl on a dummy device.
. "$(dirname "$0")/../lib.sh"

dummy_dev d0

run "add with defaults" tc qdisc add dev d0 root handle 1: ddl
expect_eq "kind is ddl" "$(qstat d0 1: kind)" ddl
expect_eq "default limit" "$(qstat d0 1: options.limit)" 10000
expect_match "text output shows limit" "$(tc qdisc show dev d0)" \
	'qdisc ddl 1: root refcnt [0-9]+ limit 10000p'
expect_match "tc -s shows xstats" "$(tc -s qdisc show dev d0)" \
	'drop_overlimit 0 drop_change 0'
expect_eq "JSON xstats drop_overlimit" "$(qstat d0 1: drop_overlimit)" 0
expect_eq "JSON xstats drop_change" "$(qstat d0 1: drop_change)" 0

expect_fail "second add on the same parent refused" 'File exists|Exclusivity' \
	tc qdisc add dev d0 root handle 1: ddl

run "change limit" tc qdisc change dev d0 root ddl limit 123
expect_eq "changed limit" "$(qstat d0 1: options.limit)" 123

run "change without options keeps limit" tc qdisc change dev d0 root ddl
expect_eq "limit after empty change" "$(qstat d0 1: options.limit)" 123

run "replace with new limit" tc qdisc replace dev d0 root handle 1: ddl limit 77
expect_eq "replaced limit" "$(qstat d0 1: options.limit)" 77

run "replace by another qdisc" tc qdisc replace dev d0 root handle 2: pfifo
expect_eq "pfifo is root" "$(qstat d0 root kind)" pfifo
run "replace back to ddl" tc qdisc replace dev d0 root handle 3: ddl limit 5
expect_eq "ddl is root again" "$(qstat d0 3: options.limit)" 5

run "delete" tc qdisc del dev d0 root
expect_eq "ddl gone after delete" "$(qstat d0 3: kind)" missing

run "add with limit" tc qdisc add dev d0 root ddl limit 1
expect_eq "limit 1 accepted" "$(qstat d0 root options.limit)" 1
run "max limit accepted" tc qdisc change dev d0 root ddl limit 1048576
expect_eq "limit max" "$(qstat d0 root options.limit)" 1048576
run "delete again" tc qdisc del dev d0 root

# Parent/child placements.
run "ddl under tbf" tc qdisc add dev d0 root handle 1: tbf rate 10mbit \
	burst 10k latency 50ms
run "add child ddl" tc qdisc add dev d0 parent 1:1 handle 10: ddl limit 50
expect_eq "child ddl under tbf" "$(qstat d0 10: parent)" 1:1
run "change child ddl" tc qdisc change dev d0 parent 1:1 handle 10: ddl limit 60
expect_eq "child limit changed" "$(qstat d0 10: options.limit)" 60
run "delete tbf with ddl child" tc qdisc del dev d0 root

run "htb root" tc qdisc add dev d0 root handle 1: htb default 10
run "htb class" tc class add dev d0 parent 1: classid 1:10 htb rate 10mbit
run "ddl as htb leaf" tc qdisc add dev d0 parent 1:10 handle 20: ddl limit 30
expect_eq "ddl leaf of htb" "$(qstat d0 20: parent)" 1:10
expect_eq "htb leaf: 20 frames accepted" "$(flood d0 20 500)" \
	"accepted 20 dropped 0"
wait_for 20 qlen_is d0 20: 0
expect_eq "htb leaf: ddl sent them all" "$(qstat d0 20: packets)" 20
expect_eq "htb leaf: ddl bytes" "$(qstat d0 20: bytes)" 10000
# iproute2 6.1 prints htb classes as text even with -j.
expect_eq "htb: class 1:10 sent them" \
	"$(tc -s class show dev d0 classid 1:10 | awk '/Sent/ { print $4 }')" 20
run "delete htb" tc qdisc del dev d0 root

# The same on veth inside a network namespace.
netns_pair
run "add on veth in a namespace" tc -n ddl-a qdisc add dev a0 root handle 1: ddl limit 64
expect_eq "veth: limit" "$(qstat -n ddl-a a0 1: options.limit)" 64
run "change on veth" tc -n ddl-a qdisc change dev a0 root ddl limit 65
expect_eq "veth: changed limit" "$(qstat -n ddl-a a0 1: options.limit)" 65
run "replace on veth" tc -n ddl-a qdisc replace dev a0 root handle 1: ddl limit 66
expect_eq "veth: replaced limit" "$(qstat -n ddl-a a0 1: options.limit)" 66
expect_eq "veth: ping through ddl" \
	"$(nsenter --net=/run/netns/ddl-a ping -c 3 -i 0.2 -q 198.18.0.2 | grep -o '3 received')" \
	"3 received"
expect_eq "veth: ddl sent the pings" "$(qstat -n ddl-a a0 1: packets)" 3
run "delete on veth" tc -n ddl-a qdisc del dev a0 root
expect_eq "veth: ddl gone" "$(qstat -n ddl-a a0 1: kind)" missing

done_testing
