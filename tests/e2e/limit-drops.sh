#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The limit holds, drops are counted, and qlen/backlog never drift from the
# parent's: ddl under a slow tbf on a dummy device, flooded through AF_PACKET.
. "$(dirname "$0")/../lib.sh"

limit=20
dummy_dev d0
# 100 kbit/s: a 1000-byte packet every 80 ms; pktgen floods far faster.
run "tbf root" tc qdisc add dev d0 root handle 1: tbf rate 100kbit burst 3000 \
	limit 1000000
run "ddl child" tc qdisc add dev d0 parent 1:1 handle 10: ddl limit $limit
n=300
read -r _ acc _ dropped < <(flood d0 $n 1000)
expect_ge "sender saw drops" "$dropped" 1

# The queue drains at 12 packets/s: it is still there when we look.
qlen=$(qstat d0 10: qlen)
drops=$(qstat d0 10: drops)
expect_ge "queue built up" "$qlen" 1
expect_eq "queue never above the limit" "$(( qlen <= limit ))" 1
expect_ge "packets were dropped" "$drops" 1
expect_eq "drop_overlimit = drops" "$(qstat d0 10: drop_overlimit)" "$drops"
expect_eq "drops = what the sender saw dropped" "$drops" "$dropped"

# Let tbf drain the queue: everything accepted leaves, nothing drifts.
wait_for 60 test "$(qstat d0 10: qlen)" = 0
expect_eq "drained: qlen" "$(qstat d0 10: qlen)" 0
expect_eq "drained: backlog" "$(qstat d0 10: backlog)" 0
expect_eq "drained: parent qlen" "$(qstat d0 1: qlen)" 0
expect_eq "drained: parent backlog" "$(qstat d0 1: backlog)" 0
expect_eq "drained: sent + dropped = offered" \
	$(( $(qstat d0 10: packets) + $(qstat d0 10: drops) )) "$n"
expect_eq "drained: bytes = 1000 per packet" "$(qstat d0 10: bytes)" \
	$(( $(qstat d0 10: packets) * 1000 ))
expect_eq "device sent what ddl sent" \
	"$(cat /sys/class/net/d0/statistics/tx_packets)" "$(qstat d0 10: packets)"

# limit 1 keeps one packet at most.
run "limit 1" tc qdisc change dev d0 parent 1:1 handle 10: ddl limit 1
run "flood again" flood d0 50 1000
expect_eq "limit 1: at most one queued" "$(( $(qstat d0 10: qlen) <= 1 ))" 1

done_testing
