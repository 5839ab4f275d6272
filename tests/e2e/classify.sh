#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Classification order: tc filters (u32, fw, basic, flow), then
# skb->priority, then the built-in key (sport, dport, mark, dscp), else the
# background class; key exhaustion and reuse; filter actions.  ddl is the
# root of veth a0; packets are counted per class.
. "$(dirname "$0")/../lib.sh"

netns_pair

# burst SPORT N [TOS [MARK [PRIO]]]: N datagrams to 198.18.0.2:9999
burst() {
	local a=(-S "$1" -n "$2")
	[ "${3:-0}" != 0 ] && a+=(-T "$3")
	[ "${4:-0}" != 0 ] && a+=(-m "$4")
	[ "${5:-0}" != 0 ] && a+=(-o "$5")
	"$DDLEMU" burst -N ddl-a -a 198.18.0.2 -p 9999 -l 200 -s 0 "${a[@]}" \
		>/dev/null
}
# cpkts MINOR: packets sent by class 10:MINOR
cpkts() { cfield "$(cstats -n ddl-a a0)" "10:$1" packets; }
ckey() { cfield "$(cstats -n ddl-a a0)" "10:$1" key; }
qf() { qstat -n ddl-a a0 10: "$1"; }

run "ddl root, 8 jobs, key sport" tc -n ddl-a qdisc add dev a0 root \
	handle 10: ddl jobs 8 key sport keyttl 60s
expect_eq "9 classes listed" \
	"$(tc -n ddl-a class show dev a0 | grep -c '^class ddl 10:')" 9
expect_match "background class 10:ffff" "$(tc -n ddl-a class show dev a0)" \
	'class ddl 10:ffff'

# Filters first.
run "u32 on sport 7001 -> 10:5" tc -n ddl-a filter add dev a0 parent 10: \
	protocol ip prio 1 u32 match ip sport 7001 0xffff flowid 10:5
run "fw mark 7 -> 10:6" tc -n ddl-a filter add dev a0 parent 10: \
	protocol ip prio 2 handle 7 fw classid 10:6
run "basic dport 7003 -> 10:7" tc -n ddl-a filter add dev a0 parent 10: \
	protocol ip prio 3 basic match 'cmp(u16 at 2 layer transport eq 7003)' \
	classid 10:7
run "u32 sport 7200 drop" tc -n ddl-a filter add dev a0 parent 10: \
	protocol ip prio 4 u32 match ip sport 7200 0xffff action drop
expect_fail "filters on a class refused" "not to its classes" \
	tc -n ddl-a filter add dev a0 parent 10:1 protocol ip prio 9 u32 \
	match ip sport 7009 0xffff flowid 10:1

burst 7001 11
expect_eq "u32: 11 packets in 10:5" "$(cpkts 5)" 11
burst 7002 12 0 7
expect_eq "fw: 12 packets in 10:6" "$(cpkts 6)" 12
"$DDLEMU" burst -N ddl-a -a 198.18.0.2 -p 7003 -S 7103 -n 13 -l 200 -s 0 \
	>/dev/null
expect_eq "basic: 13 packets in 10:7" "$(cpkts 7)" 13
expect_eq "cls_filter counts them" "$(qf cls_filter)" 36
burst 7200 5
expect_eq "filter action drop: drop_filter" "$(qf drop_filter)" 5
expect_eq "filter action drop: qdisc drops" "$(qf drops)" 5
# A filter beats priority and key: mark 7 with a priority for 10:3.
burst 7002 3 0 7 0x100003
expect_eq "filter before priority" "$(cpkts 6)" 15

# skb->priority whose major is our handle
burst 7300 4 0 0 0x100003
expect_eq "priority 10:3: 4 packets" "$(cpkts 3)" 4
expect_eq "cls_priority" "$(qf cls_priority)" 4
burst 7301 2 0 0 0x200003
expect_eq "priority of another major is ignored" "$(cpkts 3)" 4

# The key: free classes are 1 2 4 8.  5 6 7 have filters bound, and 10:3
# got priority traffic: a class that a filter or skb->priority chose is
# never keyed, so one job's traffic never shares a class with keyed
# packets of another.  7301 above took 10:1.
expect_eq "first key took the lowest free class" "$(ckey 1)" 7301
for sp in 8002 8003 8004; do burst $sp 2; done
expect_eq "key 8002 -> 10:2" "$(ckey 2)" 8002
expect_eq "key 8003 -> 10:4 (10:3 claimed by priority)" "$(ckey 4)" 8003
expect_eq "key 8004 -> 10:8 (5-7 bound to filters)" "$(ckey 8)" 8004
expect_eq "10:3 holds no key" "$(ckey 3)" missing
expect_eq "claimed: 10:3 by priority, 10:5-7 by filters" "$(qf claimed)" 4
expect_eq "keys_mapped" "$(qf keys_mapped)" 4
bg0=$(cpkts ffff)
burst 8006 3
expect_eq "no free class: to the background" $(( $(cpkts ffff) - bg0 )) 3
expect_eq "key_overflow" "$(qf key_overflow)" 3
burst 8002 2
expect_eq "a known key keeps its class" "$(cpkts 2)" 4

# Reuse: with keyttl 0 the longest-idle keyed class takes the new key.
run "keyttl 0" tc -n ddl-a qdisc change dev a0 root handle 10: ddl keyttl 0
burst 8007 2
expect_eq "recycled: 10:1 now holds 8007" "$(ckey 1)" 8007
expect_eq "key_recycled" "$(qf key_recycled)" 1

# Other keys.  A new key releases all mappings.
run "key dport" tc -n ddl-a qdisc change dev a0 root handle 10: ddl key dport
expect_eq "mappings released" "$(qf keys_mapped)" 0
"$DDLEMU" burst -N ddl-a -a 198.18.0.2 -p 9123 -S 8100 -n 3 -l 200 -s 0 \
	>/dev/null
expect_eq "dport key 9123 -> 10:1" "$(ckey 1)" 9123
run "key mark" tc -n ddl-a qdisc change dev a0 root handle 10: ddl key mark
burst 8101 3 0 77
expect_eq "mark key 77 -> 10:1" "$(ckey 1)" 77
run "key dscp" tc -n ddl-a qdisc change dev a0 root handle 10: ddl key dscp
burst 8102 3 0x28
expect_eq "dscp key 10 -> 10:1" "$(ckey 1)" 10
bg0=$(cpkts ffff)
burst 8103 3
expect_eq "dscp 0: background" $(( $(cpkts ffff) - bg0 )) 3
run "key none" tc -n ddl-a qdisc change dev a0 root handle 10: ddl key none
bg0=$(cpkts ffff)
burst 8104 4
expect_eq "key none: background" $(( $(cpkts ffff) - bg0 )) 4
expect_ge "cls_background counted" "$(qf cls_background)" 10

# flow: map the destination port onto classes
run "delete filters" tc -n ddl-a filter del dev a0 parent 10:
run "flow: dport & 3 from 10:1" tc -n ddl-a filter add dev a0 parent 10: \
	protocol ip prio 1 handle 1 flow map key proto-dst and 3 baseclass 10:1
c3=$(cpkts 3)
# 9994 & 3 = 2: class 10:(1 + 2)
"$DDLEMU" burst -N ddl-a -a 198.18.0.2 -p 9994 -S 8200 -n 6 -l 200 -s 0 \
	>/dev/null
expect_eq "flow: 6 packets in 10:3" $(( $(cpkts 3) - c3 )) 6

s=$(qstat -n ddl-a a0 10: qlen)
expect_eq "queue empty at the end" "$s" 0
done_testing
