#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# e2e: launchers
# Jobs in podman containers get their class on the host's NIC from the CNI
# plugin alone (sbin/sch-ddl-cni, chained as "sch-ddl"): podman (CNI
# backend, crun, the guest's root file system as each container's) runs in
# host ddl-a, whose NIC a0 has ddl as its root and nothing configured per
# job.  Two networks, as podman and Kubernetes clusters have them: a routed
# one (the ptp plugin: a veth per container, host routes, no NAT) and a
# bridge with source NAT (the bridge plugin with ipMasq, podman's default).
# Each job's packets are in its class, with its size; two containers of one
# job share the class; ddl-b sees the bridge's packets with the host's
# address; a container's removal (DEL) leaves its job's other container
# bound and the last one unbinds the job; ADD and DEL under a job's traffic
# lose no packet.  (Not on the debug kernel: podman and crun under KASAN
# take tens of seconds a container.)
# podman writes its CNI cache to /var/lib/cni, read-only here: the test
# runs in a mount namespace of its own with a tmpfs there.
if [ -z "${DDL_CTR_NS:-}" ]; then
	DDL_CTR_NS=1 exec unshare -m --propagation private bash "$0" "$@"
fi
. "$(dirname "$0")/../lib.sh"
. "$TESTS_DIR/podman.sh"

C=/run/ddl-ctr
podman_env "$C"
podman_net ddlpt ptp 198.18.5
podman_net ddlbr bridge 198.18.4
mkdir -p /run/bin
printf '#!/bin/sh\necho "$*" >>%s/syslog\n' "$C" >/run/bin/logger
chmod +x /run/bin/logger
export PATH=/run/bin:$PATH

A=(nsenter --net=/run/netns/ddl-a)
P=("${A[@]}" "${PODMAN[@]}")
netns_pair
ip -n ddl-b route add 198.18.5.0/24 via 198.18.0.1
run "ddl root of a0, 8 jobs, no key" tc -n ddl-a qdisc add dev a0 root \
	handle 1: ddl jobs 8 key none

# start NAME NET JOB [SIZE]: a container that waits; its job in CNI_ARGS
start() {
	local args=
	[ -n "$3" ] && args="DDL_JOB=$3${4:+;DDL_SIZE=$4}"
	CNI_ARGS=$args "${P[@]}" run -d --name "$1" --network "$2" \
		--security-opt seccomp=unconfined --rootfs "$C/rootfs" \
		sleep 600 >/dev/null
}
stop() { "${P[@]}" rm -f -t 0 "$1" >/dev/null; }
addr() { "${P[@]}" inspect -f '{{range .NetworkSettings.Networks}}{{.IPAddress}}{{end}}' "$1"; }
# burst NAME SPORT N: N datagrams of 200 bytes from container NAME to ddl-b
burst() {
	"${P[@]}" exec "$1" python3 -S "$TESTS_DIR/traffic.py" udp-burst \
		198.18.0.2 9999 "$2" "$3" 200 >/dev/null
}
cpkts() { cfield "$(cstats -n ddl-a a0)" "1:$1" packets; }
cline() { tc -n ddl-a class show dev a0 classid "1:$1"; }
qf() { qstat -n ddl-a a0 1: "$1"; }

# Routed: job 11 (class 1 + 11 mod 8 = 4) declared 3g (tc's units).
run "podman run: job 11 on the routed network" start a ddlpt 11 3g
if [ "$("${P[@]}" inspect -f '{{.State.Running}}' a 2>/dev/null)" != true ]; then
	tail -5 "$C/syslog" 2>/dev/null
	done_testing
fi
ip_a=$(addr a)
expect_match "job 11 in class 1:4 with its size and the container's address" \
	"$(cline 4)" "size 3221225472 .*addr $ip_a\$|size 3221225472 .*addr $ip_a "
burst a 7001 11
expect_eq "its packets in 1:4" "$(cpkts 4)" 11
expect_eq "... by their address" "$(qf cls_addr)" 11
run "podman rm: job 11's only container" stop a
expect_eq "... unbound it (DEL)" "$(qf addrs_bound)" 0
expect_eq "... no address left on 1:4" "$(matches "$(cline 4)" addr &&
	echo yes)" ""

# A bridge with source NAT: job 12 (1:5) in two containers, job 13 (1:6),
# and a container of no job.
nsenter --net=/run/netns/ddl-b nft -f - <<'EOF'
table ip ddlcount {
	chain in {
		type filter hook input priority filter;
		ip saddr 198.18.0.1 udp dport 9999 counter
	}
}
EOF
natted() { nsenter --net=/run/netns/ddl-b nft list table ip ddlcount |
	awk '/counter/ { print $(NF - 2) }'; }
run "job 12, first container" start b1 ddlbr 12 1m
run "job 12, second container" start b2 ddlbr 12 1m
run "job 13" start c ddlbr 13
run "no job" start d ddlbr ""
expect_match "1:5 holds both of job 12's addresses" "$(cline 5)" \
	"addr ($(addr b1),$(addr b2)|$(addr b2),$(addr b1))"
n0=$(natted)
burst b1 7002 5
burst b2 7003 6
burst c 7004 7
burst d 7005 3
expect_eq "job 12's two containers in 1:5" "$(cpkts 5)" 11
expect_eq "job 13's in 1:6" "$(cpkts 6)" 7
expect_eq "the container of no job in the background" "$(cpkts ffff)" 3
expect_eq "ddl-b got all 21 with the host's address (NAT)" \
	"$(( $(natted) - n0 ))" 21
run "podman rm: one of job 12's containers" stop b1
expect_match "1:5 keeps the other's address" "$(cline 5)" "addr $(addr b2)"
burst b2 7006 4
expect_eq "... and its packets" "$(cpkts 5)" 15

# ADD and DEL of job 12's containers while b2 sends 3000 datagrams of 1000
# bytes at 20 Mbit/s to ddl-b: all arrive, none dropped in the qdisc.
recv_under_binds "$DDL_OUT/ctr.recv" 3000
drops0=$(qf drops)
in0=$(cpkts 5)
"${P[@]}" exec b2 python3 -S "$TESTS_DIR/traffic.py" udp-send 198.18.0.2 \
	9100 3000 1000 >"$DDL_OUT/ctr.send" &
tx=$!
churn=0
while kill -0 "$tx" 2>/dev/null && [ $churn -lt 2 ]; do
	start "e$churn" ddlbr 12 1m && stop "e$churn" || break
	churn=$((churn + 1))
done
wait "$tx"
wait "$RECV"
expect_ge "containers of job 12 came and went under its traffic" "$churn" 1
expect_eq "all 3000 datagrams arrived" "$(cat "$DDL_OUT/ctr.recv")" \
	"received 3000"
expect_eq "no drop in the qdisc" "$(qf drops)" "$drops0"
expect_ge "... all in job 12's class" "$(cpkts 5)" $((in0 + 3000))

for n in b2 c d; do stop "$n"; done
expect_eq "every container gone: nothing bound" "$(qf addrs_bound)" 0
expect_eq "... and no member left" "$(ls "$C/cni" | grep -c job-)" 0
expect_eq "every bind and unbind logged, no refusal" \
	"$(grep -c 'status' "$C/syslog")" 0
tc -n ddl-a qdisc del dev a0 root
done_testing
