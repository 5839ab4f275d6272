#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Job classes bound to the addresses of a job's pods (class parameter
# addr): pods in network namespaces of their own send through a veth into
# the host (ddl-a), which forwards their packets to its NIC a0, where ddl
# is the root.  Two pod networks, as clusters have them:
#   - routed (Calico's and Cilium's native routing): a veth per pod, a host
#     route to the pod's /32, no NAT;
#   - a bridge with source NAT (podman's CNI network): the pods' packets
#     leave a0 with the host's address.
# Each pod's packets are in its job's class, before and after the host
# tracks connections; the NAT really rewrote them (ddl-b counts them by the
# host's address); refusals keep the old binding; binding and unbinding
# under traffic loses no packet.
. "$(dirname "$0")/../lib.sh"

A=(nsenter --net=/run/netns/ddl-a)
netns_pair
"${A[@]}" sysctl -qw net.ipv4.ip_forward=1
ip -n ddl-b route add 198.18.1.0/24 via 198.18.0.1

# A pod: namespace ddl-podN with eth0, its host side vpN in ddl-a, static
# neighbours both ways (no ARP crosses the qdisc), a default route.  The
# MAC addresses are fixed (02:dd:0N:00:00:01 the host's side, :02 the
# pod's) and each namespace's part is one ip batch: few processes.
pod() {	# N ADDR/LEN GATEWAY [GATEWAY'S MAC]
	local n=$1 p=ddl-pod$1 hmac=02:dd:0$1:00:00:01
	POD_MAC=02:dd:0$1:00:00:02
	ip -b - <<-EOF
	netns add $p
	link add vp$n address $hmac netns ddl-a type veth peer name eth0 address $POD_MAC netns $p
	EOF
	ip -n "$p" -b - <<-EOF
	addr add $2 dev eth0
	link set lo up
	link set eth0 up
	route add $3 dev eth0 scope link
	route add default via $3
	neigh replace $3 dev eth0 lladdr ${4:-$hmac} nud permanent
	EOF
}
# routed_pod N ADDR: a pod at ADDR/32, the host routing ADDR to vpN
routed_pod() {
	pod "$1" "$2/32" 198.18.1.254
	ip -n ddl-a -b - <<-EOF
	link set vp$1 up
	route add $2/32 dev vp$1
	neigh replace $2 dev vp$1 lladdr $POD_MAC nud permanent
	EOF
}
# bridged_pod N ADDR: a pod at ADDR/24 behind bridge br0 (198.18.2.1),
# whose MAC is fixed: the pod's gateway is the bridge, not the port
bridged_pod() {
	pod "$1" "$2/24" 198.18.2.1 02:00:00:00:02:01
	ip -n ddl-a -b - <<-EOF
	link set vp$1 up
	link set vp$1 master br0
	neigh replace $2 dev br0 lladdr $POD_MAC nud permanent
	EOF
}
# burst POD SPORT N: N datagrams of 200 bytes from pod POD to ddl-b
burst() {
	"$DDLEMU" burst -N "ddl-pod$1" -a 198.18.0.2 -p 9999 -S "$2" -n "$3" \
		-l 200 -s 0 >/dev/null
}
cpkts() { cfield "$(cstats -n ddl-a a0)" "10:$1" packets; }
qf() { qstat -n ddl-a a0 10: "$1"; }
caddr() { tc -n ddl-a class show dev a0 classid "10:$1" | \
	sed -n 's/.* addr \([^ ]*\).*/\1/p'; }

routed_pod 1 198.18.1.2
routed_pod 2 198.18.1.6
run "ddl root, 8 jobs, no key" tc -n ddl-a qdisc add dev a0 root \
	handle 10: ddl jobs 8 key none

# Routed, no connection tracked: the header's source address.
run "bind 10:3 to pods 1 and 2" tc -n ddl-a class change dev a0 \
	classid 10:3 ddl addr 198.18.1.2,198.18.1.6
expect_eq "class shows both addresses" "$(caddr 3)" "198.18.1.2,198.18.1.6"
expect_eq "addrs_bound" "$(qf addrs_bound)" 2
burst 1 7001 11
expect_eq "pod 1's packets in 10:3" "$(cpkts 3)" 11
burst 2 7002 7
expect_eq "pod 2's packets in 10:3 too" "$(cpkts 3)" 18
expect_eq "cls_addr counts them" "$(qf cls_addr)" 18
expect_eq "none in the background" "$(cpkts ffff)" 0

# A bridge with source NAT.  ddl-b has no route to 198.18.2.0/24 and
# counts what arrives from the host's own address.
ip -n ddl-a -b - <<'EOF'
link add br0 address 02:00:00:00:02:01 type bridge
addr add 198.18.2.1/24 dev br0
link set br0 up
EOF
bridged_pod 3 198.18.2.2
bridged_pod 4 198.18.2.3
run "source NAT for the bridge (nftables masquerade)" "${A[@]}" nft -f - <<'EOF'
table ip ddlnat {
	chain post {
		type nat hook postrouting priority srcnat;
		ip saddr 198.18.2.0/24 oifname "a0" masquerade
	}
}
EOF
run "ddl-b counts datagrams from the host's address" nsenter --net=/run/netns/ddl-b \
	nft -f - <<'EOF'
table ip ddlcount {
	chain in {
		type filter hook input priority filter;
		ip saddr 198.18.0.1 udp dport 9999 counter
		ip saddr 198.18.2.0/24 counter
	}
}
EOF
natted() {	# how many datagrams arrived from the host's address / a pod's
	nsenter --net=/run/netns/ddl-b nft list table ip ddlcount |
		awk -v w="$1" '/counter/ { n++; if (n == w) print $(NF - 2) }'
}
run "bind 10:4 to pod 3" tc -n ddl-a class change dev a0 classid 10:4 \
	ddl addr 198.18.2.2
burst 3 7003 9
expect_eq "pod 3's packets, masqueraded, in 10:4" "$(cpkts 4)" 9
expect_eq "... they left with the host's address" "$(natted 1)" 9
expect_eq "... none with the pod's" "$(natted 2)" 0
burst 4 7004 5
expect_eq "pod 4 (unbound) in the background" "$(cpkts ffff)" 5
expect_eq "... and not in 10:4" "$(cpkts 4)" 9
burst 1 7005 4
expect_eq "routed pod 1, its flow tracked now, still in 10:3" \
	"$(cpkts 3)" 22

# Refusals leave everything as it was.
run "weight 3 on 10:5" tc -n ddl-a class change dev a0 classid 10:5 ddl \
	weight 3
expect_fail "one address, two classes" "bound to another class" \
	tc -n ddl-a class change dev a0 classid 10:5 ddl weight 5 \
	addr 198.18.2.3,198.18.2.2
expect_eq "... 10:5 keeps weight 3 (all or nothing)" \
	"$(cfield "$(cstats -n ddl-a a0)" 10:5 options.weight)" 3
expect_eq "... and no address" "$(caddr 5)" ""
expect_eq "... 10:4 keeps pod 3" "$(caddr 4)" 198.18.2.2
expect_fail "an address twice" "given twice" \
	tc -n ddl-a class change dev a0 classid 10:5 ddl \
	addr 198.18.2.3,198.18.2.3
expect_fail "the unspecified address" "not unspecified" \
	tc -n ddl-a class change dev a0 classid 10:5 ddl addr 0.0.0.0
expect_fail "the background class" "has no address" \
	tc -n ddl-a class change dev a0 classid 10:ffff ddl addr 198.18.2.3
many=$(seq -s, -f '198.18.3.%g' 1 65)
expect_fail "65 addresses" "Illegal" \
	tc -n ddl-a class change dev a0 classid 10:5 ddl addr "$many"
expect_eq "addrs_bound still 3" "$(qf addrs_bound)" 3
run "64 addresses" tc -n ddl-a class change dev a0 classid 10:5 ddl \
	addr "$(seq -s, -f '198.18.3.%g' 1 64)"
expect_eq "... all bound" "$(qf addrs_bound)" 67
run "IPv6 and IPv4 on 10:5 instead" tc -n ddl-a class change dev a0 \
	classid 10:5 ddl addr 2001:db8::5,198.18.3.1
expect_eq "... shown as given" "$(caddr 5)" "2001:db8::5,198.18.3.1"
run "unbind 10:5" tc -n ddl-a class change dev a0 classid 10:5 ddl \
	addr none
expect_eq "... no address shown" "$(caddr 5)" ""

# A change replaces the set: pod 1 leaves the job.
run "10:3 keeps pod 2 only" tc -n ddl-a class change dev a0 classid 10:3 \
	ddl addr 198.18.1.6
bg=$(cpkts ffff)
burst 1 7006 3
expect_eq "pod 1 in the background now" "$(( $(cpkts ffff) - bg ))" 3
expect_eq "addrs_bound 2" "$(qf addrs_bound)" 2

# Bind and unbind under traffic: 3000 datagrams at 20 Mbit/s from pod 3
# (masqueraded) while 10:4 is unbound and bound again, ten times per tc
# -batch (bound between two), until the sender is done; every datagram
# sent reaches ddl-b, some by the address, some as background.
count_under_binds
for _ in 1 2 3 4 5 6 7 8 9 10; do
	echo "class change dev a0 classid 10:4 ddl addr none"
	echo "class change dev a0 classid 10:4 ddl addr 198.18.2.2"
done >"$DDL_OUT/pods.flips"
drops0=$(qf drops)
bg0=$(qf cls_background)
in0=$(cpkts 4)
send_under_binds nsenter --net=/run/netns/ddl-pod3 >"$DDL_OUT/pods.send" &
tx=$!
flips=0
while kill -0 "$tx" 2>/dev/null && [ $flips -lt 1000 ]; do
	tc -n ddl-a -batch "$DDL_OUT/pods.flips" || break
	flips=$((flips + 10))
done
wait "$tx"
read -r _ sent _ dropped <"$DDL_OUT/pods.send"
expect_ge "bound and unbound under traffic" "$flips" 10
expect_eq "the pod sent $UNDER_BINDS, none refused" "$sent $dropped" \
	"$UNDER_BINDS 0"
expect_eq "all $UNDER_BINDS reached ddl-b" "$(b0_drained $UNDER_BINDS)" \
	$UNDER_BINDS
expect_eq "no drop in the qdisc" "$(qf drops)" "$drops0"
expect_ge "some went by the address" "$(cpkts 4)" $((in0 + 1))
expect_ge "some went as background" "$(qf cls_background)" $((bg0 + 1))

tc -n ddl-a qdisc del dev a0 root
"${A[@]}" nft delete table ip ddlnat
for n in 1 2 3 4; do ip netns del "ddl-pod$n"; done
done_testing
