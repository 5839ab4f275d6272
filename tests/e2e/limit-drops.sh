#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The limit holds, drops are counted, and qlen/backlog never drift from the
# parent's: ddl under a tbf on a dummy device, flooded through AF_PACKET.
. "$(dirname "$0")/../lib.sh"

limit=20
n=300
dummy_dev d0
# 1 kbit/s: after the initial burst, one 1000-byte packet leaves every 8 s,
# so a full queue stays full while we look at it.
run "tbf root" tc qdisc add dev d0 root handle 1: tbf rate 1kbit burst 3000 \
	limit 1000000
run "ddl child" tc qdisc add dev d0 parent 1:1 handle 10: ddl limit $limit
read -r _ acc _ dropped < <(flood d0 $n 1000)
expect_eq "sender: accepted + dropped = offered" $(( acc + dropped )) $n
expect_ge "sender saw drops" "$dropped" 1

s=$(snap d0)
qlen=$(sfield "$s" 10: qlen)
# The tbf's count: ddl counts a packet the tbf has peeked at (and holds in
# ddl's requeue slot, still in ddl's qlen) as sent already.
sent=$(sfield "$s" 1: packets)
drops=$(sfield "$s" 10: drops)
expect_eq "queue never above the limit" "$(( qlen <= limit ))" 1
expect_ge "queue full (at most one packet left since)" "$qlen" $(( limit - 1 ))
expect_eq "sent + queued = accepted" $(( sent + qlen )) "$acc"
expect_eq "drops = what the sender saw dropped" "$drops" "$dropped"
expect_eq "drop_overlimit = drops" "$(sfield "$s" 10: drop_overlimit)" "$drops"
expect_eq "drop_change untouched" "$(sfield "$s" 10: drop_change)" 0
expect_eq "backlog = qlen * 1000 bytes" "$(sfield "$s" 10: backlog)" \
	$(( qlen * 1000 ))
expect_eq "parent qlen = ddl qlen" "$(sfield "$s" 1: qlen)" "$qlen"
expect_eq "parent backlog = ddl backlog" "$(sfield "$s" 1: backlog)" \
	"$(sfield "$s" 10: backlog)"
expect_eq "parent drops = ddl drops" "$(sfield "$s" 1: drops)" "$drops"

# limit 1 keeps one packet at most, the excess counted as drop_change.
# The queue as the change meets it: on the debug kernel the reads above
# take longer than the 8 s in which the tbf lets one packet go.
q0=$(qstat d0 10: qlen)
run "limit 1" tc qdisc change dev d0 parent 1:1 handle 10: ddl limit 1
read -r _ acc2 _ dropped2 < <(flood d0 50 1000)
s=$(snap d0)
expect_eq "limit 1: at most one queued" "$(( $(sfield "$s" 10: qlen) <= 1 ))" 1
expect_eq "limit 1: sender drops counted" \
	$(( $(sfield "$s" 10: drop_overlimit) - drops )) "$dropped2"
expect_ge "limit 1: excess counted in drop_change" \
	"$(sfield "$s" 10: drop_change)" $(( q0 - 2 ))

# Speed the shaper up: everything accepted leaves, nothing drifts.
run "faster tbf" tc qdisc change dev d0 root handle 1: tbf rate 100mbit \
	burst 100k limit 1000000
wait_for 60 qlen_is d0 10: 0
s=$(snap d0)
expect_eq "drained: qlen" "$(sfield "$s" 10: qlen)" 0
expect_eq "drained: backlog" "$(sfield "$s" 10: backlog)" 0
expect_eq "drained: parent qlen" "$(sfield "$s" 1: qlen)" 0
expect_eq "drained: parent backlog" "$(sfield "$s" 1: backlog)" 0
expect_eq "drained: sent + dropped = offered" \
	$(( $(sfield "$s" 10: packets) + $(sfield "$s" 10: drops) )) $(( n + 50 ))
expect_eq "drained: bytes = 1000 per packet" "$(sfield "$s" 10: bytes)" \
	$(( $(sfield "$s" 10: packets) * 1000 ))
expect_eq "device sent what ddl sent" \
	"$(cat /sys/class/net/d0/statistics/tx_packets)" "$(sfield "$s" 10: packets)"

done_testing
