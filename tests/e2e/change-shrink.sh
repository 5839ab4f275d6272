#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# tc qdisc change that lowers the limit below the backlog drops the oldest
# packets, counts them and tells the parents; a refused change drops nothing.
. "$(dirname "$0")/../lib.sh"

dummy_dev d0
# 1 kbit/s: one 1000-byte packet every 8 s, so the queue stays put.
run "tbf root" tc qdisc add dev d0 root handle 1: tbf rate 1kbit burst 3000 \
	limit 1000000
run "ddl child" tc qdisc add dev d0 parent 1:1 handle 10: ddl limit 1000
expect_eq "100 frames accepted" "$(flood d0 100 1000)" "accepted 100 dropped 0"

q0=$(qstat d0 10: qlen)
d0=$(qstat d0 10: drops)
expect_ge "backlog formed" "$q0" 50

expect_fail "refused change" 'limit must be between 1 and 1048576' \
	tc qdisc change dev d0 parent 1:1 handle 10: ddl limit 2000000
expect_eq "refused change dropped nothing" "$(qstat d0 10: drops)" "$d0"
expect_eq "refused change kept the limit" "$(qstat d0 10: options.limit)" 1000
expect_ge "refused change kept the queue" "$(qstat d0 10: qlen)" $(( q0 - 2 ))

run "raise limit" tc qdisc change dev d0 parent 1:1 handle 10: ddl limit 2000
expect_eq "raising dropped nothing" "$(qstat d0 10: drop_change)" 0

# Packets keep leaving (slowly) while we work: read qlen and sent from one
# snapshot before and one after, and check that they add up exactly.
s=$(snap d0)
q1=$(sfield "$s" 10: qlen)
sent1=$(sfield "$s" 10: packets)
run "shrink limit to 10" tc qdisc change dev d0 parent 1:1 handle 10: ddl limit 10
s=$(snap d0)
q2=$(sfield "$s" 10: qlen)
dc=$(sfield "$s" 10: drop_change)
left=$(( $(sfield "$s" 10: packets) - sent1 ))
expect_eq "queue cut to the new limit" "$(( q2 <= 10 && q2 >= 10 - left ))" 1
expect_eq "queued + sent + drop_change = queued before" $(( q2 + left + dc )) "$q1"
expect_ge "drop_change counts the excess" "$dc" $(( q1 - 10 - left ))
expect_eq "qdisc drops include drop_change" "$(sfield "$s" 10: drops)" \
	$(( d0 + dc ))
expect_eq "backlog matches qlen" "$(sfield "$s" 10: backlog)" $(( q2 * 1000 ))
expect_eq "parent qlen follows" "$(sfield "$s" 1: qlen)" "$q2"
expect_eq "parent backlog follows" "$(sfield "$s" 1: backlog)" $(( q2 * 1000 ))
expect_eq "parent counts the drops" "$(sfield "$s" 1: drops)" \
	"$(sfield "$s" 10: drops)"

run "replace root drops the queue cleanly" tc qdisc replace dev d0 root pfifo
expect_eq "ddl gone" "$(qstat d0 10: kind)" missing

done_testing
