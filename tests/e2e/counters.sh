#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# e2e: fast
# Exact packet and byte counters: pktgen into a dummy device, UDP and TCP
# between two namespaces over veth.
. "$(dirname "$0")/../lib.sh"

if [ "$DDL_DEBUG_KERNEL" = 1 ]; then n=400; else n=20000; fi

# pktgen: every packet goes through ddl and out of the dummy device.
dummy_dev d0
run "add ddl on dummy" tc qdisc add dev d0 root handle 1: ddl
run "pktgen $n packets" pktgen d0 "$n" 100
expect_eq "pktgen: packets sent" "$(qstat d0 1: packets)" "$n"
# In queue_xmit mode the skb is exactly pkt_size bytes long.
expect_eq "pktgen: bytes sent" "$(qstat d0 1: bytes)" $(( n * 100 ))
expect_eq "pktgen: nothing dropped" "$(qstat d0 1: drops)" 0
expect_eq "pktgen: backlog empty" "$(qstat d0 1: backlog)" 0
expect_eq "pktgen: qlen empty" "$(qstat d0 1: qlen)" 0
expect_eq "pktgen: dummy tx matches" \
	"$(cat /sys/class/net/d0/statistics/tx_packets)" "$n"

# key sport over IPv6: ddl_skb_port() reads the port from the IPv6 header
# (RFC 5180's benchmarking prefix, 2001:2::/48).  Three source ports in
# turn, 10 packets each: three jobs keyed by them, nothing in background.
dummy_dev d6
run "add ddl key sport on dummy" tc qdisc add dev d6 root handle 6: ddl \
	jobs 4 key sport
run "pktgen 30 IPv6 packets from ports 5001-5003" pktgen d6 30 100 \
	"dst6 2001:2::2" "src6 2001:2::1" "udp_src_min 5001" "udp_src_max 5004"
s6=$(cstats d6)
expect_eq "ipv6: keys of 6:1-6:3 are the three ports" \
	"$(for k in 1 2 3; do cfield "$s6" "6:$k" key; done | sort | xargs)" \
	"5001 5002 5003"
expect_eq "ipv6: 10 packets in each keyed job, none in 6:4" \
	"$(for k in 1 2 3 4; do cfield "$s6" "6:$k" packets; done | xargs)" \
	"10 10 10 0"
expect_eq "ipv6: none in background" "$(cfield "$s6" 6:ffff packets)" 0
expect_eq "ipv6: keys mapped" "$(qstat d6 6: keys_mapped)" 3

# UDP over veth: the receiver must see every datagram, the qdisc must count
# exactly what the device sent.
netns_pair
run "add ddl on veth" tc -n ddl-a qdisc add dev a0 root handle 1: ddl limit 1000
u=$(( n / 4 ))
# The sender starts once the receiver is bound (a loaded machine can take
# seconds to start python).
rdy=$(mktemp -u)
out=$(DDL_SINK_READY=$rdy nsenter --net=/run/netns/ddl-b python3 -S "$TESTS_DIR/traffic.py" \
	udp-recv 198.18.0.2 5001 "$u" 1000 30 &
      wait_for 60 test -e "$rdy"
      nsenter --net=/run/netns/ddl-a python3 -S "$TESTS_DIR/traffic.py" udp-send 198.18.0.2 \
	5001 "$u" 1000 >/dev/null
      wait)
expect_eq "udp: receiver got every datagram" "$out" "received $u"
expect_eq "udp: ddl packets" "$(qstat -n ddl-a a0 1: packets)" "$u"
# 1000 payload + 8 UDP + 20 IP + 14 Ethernet
expect_eq "udp: ddl bytes" "$(qstat -n ddl-a a0 1: bytes)" $(( u * 1042 ))
expect_eq "udp: device tx packets match" \
	"$(ip netns exec ddl-a cat /sys/class/net/a0/statistics/tx_packets)" "$u"

# TCP with segmentation offloads off: every skb is one packet on the wire,
# so qdisc and device agree to the packet and the byte.
tcp_transfer() {	# HANDLE SIZE PORT
	tc -n ddl-a qdisc replace dev a0 root handle "$1" ddl
	txp0=$(ip netns exec ddl-a cat /sys/class/net/a0/statistics/tx_packets)
	txb0=$(ip netns exec ddl-a cat /sys/class/net/a0/statistics/tx_bytes)
	rm -f "$rdy"
	out=$(DDL_SINK_READY=$rdy nsenter --net=/run/netns/ddl-b python3 -S \
		"$TESTS_DIR/traffic.py" tcp-recv 198.18.0.2 "$3" "$2" 0 60 &
	      wait_for 60 test -e "$rdy"
	      nsenter --net=/run/netns/ddl-a python3 -S "$TESTS_DIR/traffic.py" tcp-send \
		198.18.0.2 "$3" "$2" >/dev/null
	      wait)
	txp=$(( $(ip netns exec ddl-a cat /sys/class/net/a0/statistics/tx_packets) - txp0 ))
	txb=$(( $(ip netns exec ddl-a cat /sys/class/net/a0/statistics/tx_bytes) - txb0 ))
}

size=$(( n * 500 ))
nsenter --net=/run/netns/ddl-a ethtool -K a0 tso off gso off >/dev/null
tcp_transfer 2: "$size" 5002
expect_eq "tcp: receiver got every byte" "$out" "received $size"
expect_eq "tcp: ddl packets = device tx packets" \
	"$(qstat -n ddl-a a0 2: packets)" "$txp"
expect_eq "tcp: ddl bytes = device tx bytes" "$(qstat -n ddl-a a0 2: bytes)" "$txb"
expect_ge "tcp: ddl bytes cover the payload" "$(qstat -n ddl-a a0 2: bytes)" "$size"
expect_eq "tcp: nothing dropped" "$(qstat -n ddl-a a0 2: drops)" 0

# With GSO, the qdisc counts segments and their headers (qdisc_pkt_len),
# the device counts skbs: the qdisc must count at least as much.
nsenter --net=/run/netns/ddl-a ethtool -K a0 tso on gso on >/dev/null
tcp_transfer 3: "$size" 5003
expect_eq "gso: receiver got every byte" "$out" "received $size"
expect_ge "gso: ddl packets >= device skbs" "$(qstat -n ddl-a a0 3: packets)" "$txp"
expect_ge "gso: ddl bytes >= device bytes" "$(qstat -n ddl-a a0 3: bytes)" "$txb"
expect_ge "gso: ddl packets >= MSS segments" "$(qstat -n ddl-a a0 3: packets)" \
	$(( size / 1448 ))
expect_eq "gso: nothing dropped" "$(qstat -n ddl-a a0 3: drops)" 0

done_testing
