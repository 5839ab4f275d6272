#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Stress with churn, in rounds until DDL_STRESS_SECS (default 60) have
# passed; make stress SECS=N runs it longer.  Readers loop over debugfs,
# tc -s -j and the tracepoints all along.  Each round:
#  1. pktgen through ddl while every option and class weight changes
#     live, the limit and mode cluster's DSCP marks included: every packet is sent or counted as a
#     drop (pktgen's attempts = sent + dropped = the device's packets),
#     the qdisc's qlen and backlog equal the sums over its classes, and
#     return to 0;
#  2. pktgen while the root is replaced by other qdiscs and by ddl again,
#     and ddl is grafted under prio and htb;
#  3. a device deleted with packets queued (shaped to 1kbit);
#  4. a netns deleted with packets queued in its veth (shaped to 1mbit,
#     then to 1kbit): the instance stays until they have drained, then
#     goes, as tbf's does;
#  5. the module unloads (its reference count back to 0) and loads again.
# Splats and leaks are the debug kernel's to report.
. "$(dirname "$0")/../lib.sh"

secs=${DDL_STRESS_SECS:-60}
TR=/sys/kernel/tracing
DBG=/sys/kernel/debug/sch_ddl
T=$(mktemp -d)
deadline=$(( EPOCHSECONDS + secs ))
rounds=0
pkts=0
passes=0
problems=0
bad() { echo "# round $rounds: $*"; problems=$(( problems + 1 )); }

dummy_dev d0
dummy_dev d1
refcnt() { cat /sys/module/sch_ddl/refcnt 2>/dev/null || echo gone; }

readers() {
	local f n=0
	while [ ! -e "$T/stop" ]; do
		# The shell's read, not cat: the same reads of each file,
		# without a process each (0.4 s apiece on the debug guest).
		for f in "$DBG"/*/*; do
			{ read -r -d '' _ <"$f"; } 2>/dev/null
		done
		# One dump a pass, the qdiscs' and the classes' in turn.
		if (( n++ % 2 )); then
			tc -s class show dev d0 >/dev/null 2>&1
		else
			tc -s -j qdisc show >/dev/null 2>&1
		fi
		[ -r "$TR/trace" ] && head -c 65536 "$TR/trace" >/dev/null 2>&1
		echo "$n" >"$T/passes"
		sleep 0.2
	done
}
start_readers() {
	rm -f "$T/stop" "$T/passes"
	[ -d "$TR/events/sch_ddl" ] && echo 1 >"$TR/events/sch_ddl/enable"
	# The debug guest has one CPU: at nice 0 the readers took half of
	# it, and the changes they race with went at half speed.  Niced,
	# they take what the changes leave (pktgen's runs, the waits).
	readers &
	READERS=$!
	renice -n 10 -p "$READERS" >/dev/null
}
# Readers hold the module (open debugfs files, enabled tracepoints):
# stop them before it unloads.
stop_readers() {
	local n=0
	touch "$T/stop"
	wait "$READERS"
	[ -e "$T/passes" ] && read -r n <"$T/passes"
	passes=$(( passes + n ))
	[ -d "$TR/events/sch_ddl" ] && echo 0 >"$TR/events/sch_ddl/enable"
	[ -w "$TR/trace" ] && echo >"$TR/trace"
}

# pg_attempts DEV: packets the last pktgen run on DEV offered (sent + errors)
pg_attempts() {
	local s
	s=$(cat "/proc/net/pktgen/$1")
	[[ $s =~ pkts-sofar:\ ([0-9]+)\ +errors:\ ([0-9]+) ]] || { echo 0; return; }
	echo $(( BASH_REMATCH[1] + BASH_REMATCH[2] ))
}
txpkts() { cat "/sys/class/net/$1/statistics/tx_packets"; }

# sums_match DEV: the qdisc's qlen and backlog equal the sums over its
# classes (debugfs, exact bytes), read while the qdisc's qlen held still.
sums_match() {
	local i s1 s2 q1 q2 b1 cq cb f=$DBG/$1-1:/classes
	for i in 1 2 3 4 5; do
		s1=$(snap "$1")
		read -r cq cb < <(awk 'NR > 1 { q += $4; b += $5 }
			END { print q + 0, b + 0 }' "$f")
		s2=$(snap "$1")
		q1=$(sfield "$s1" root qlen); q2=$(sfield "$s2" root qlen)
		b1=$(sfield "$s1" root backlog)
		[ "$q1" = "$q2" ] || continue
		[ "$cq" = "$q1" ] && [ "$cb" = "$b1" ] && return 0
		echo "# qdisc qlen $q1 backlog $b1, classes $cq packets $cb bytes"
		return 1
	done
	echo "# the queue never held still"
	return 1
}

# veth_ns NS X N: namespace NS with a veth pair X0 (198.18.9.N) and X1,
# and a static neighbour 198.18.9.N+1 behind X0, so its packets go out.
veth_ns() {
	ip netns add "$1"
	ip -n "$1" link add "${2}0" type veth peer name "${2}1"
	ip -n "$1" addr add "198.18.9.$3/24" dev "${2}0"
	ip -n "$1" link set "${2}0" up
	ip -n "$1" link set "${2}1" up
	ip -n "$1" neigh replace "198.18.9.$(( $3 + 1 ))" dev "${2}0" \
		lladdr "02:00:00:00:09:0$(( $3 + 1 ))" nud permanent
}

# The changes made live in round 1: each valid on its own.
CHANGES=("limit 300" "limit 50" "limit 10000" "mode green" "mode rotate"
	 "mode static" "mode fair" "slice 2ms maxwait 100ms" "slice auto"
	 "yield 500us" "yield auto" "yield 0" "maxwait 50ms" "bgshare 0"
	 "bgshare 30" "key dport" "key sport" "key mark" "key none"
	 "keyttl 10ms" "rate 20mbit" "rate 50mbit" "rate unlimited"
	 "rate 10mbit target 20000" "rate 10mbit target 20000 lead 5ms"
	 "lead 0" "noecn" "ecn" "interval 5ms" "maxperiod 2s"
	 "mode cluster epoch 10ms dscp 46,10"
	 "dscp 46,34,26,10 shuffle 1s tiers 100000"
	 "tiers off shuffle off dscp off")

round() {
	local n i pid a sent dropped ch w before

	# 1. Live changes under traffic.
	tc qdisc replace dev d0 root handle 1: ddl jobs 8 limit 2000
	before=$(txpkts d0)
	n=$(( DDL_DEBUG_KERNEL ? 2000 : 20000 ))
	pktgen d0 "$n" 1000 "udp_src_min 1000" "udp_src_max 1011" \
		>/dev/null 2>&1 &
	pid=$!
	i=0
	# pktgen waits for its last packet to leave: rates here stay
	# at 20 Mbit/s or more.
	while kill -0 "$pid" 2>/dev/null && [ "$i" -lt 30 ]; do
		ch=${CHANGES[RANDOM % ${#CHANGES[@]}]}
		# The first: mode cluster, whose packets get their DSCP
		# rewritten (tests/e2e/cluster.sh asserts how, on the fast
		# kernel).
		[ "$i" = 0 ] && ch="mode cluster epoch 10ms ${CHANGES[-2]}"
		# shellcheck disable=SC2086
		tc qdisc change dev d0 root ddl $ch 2>"$T/err" ||
			bad "change '$ch' refused: $(cat "$T/err")"
		w=$(( RANDOM % 256 + 1 ))
		tc class change dev d0 parent 1: classid 1:$(( RANDOM % 8 + 1 )) \
			ddl weight "$w" || bad "weight $w refused"
		i=$(( i + 1 ))
	done
	wait "$pid"
	a=$(pg_attempts d0)
	pkts=$(( pkts + a ))
	# Hold the queue (1000-byte packets, one per 8 s) to compare sums.
	tc qdisc change dev d0 root ddl rate 1kbit limit 2000
	run "round $rounds: a live queue: qlen, backlog = sums over classes" \
		sums_match d0
	tc qdisc change dev d0 root ddl rate unlimited
	wait_for 30 qlen_is d0 1: 0 || bad "queue did not drain"
	sent=$(qstat d0 1: packets)
	dropped=$(qstat d0 1: drops)
	expect_eq "round $rounds: $a packets: sent + dropped" \
		"$(( sent + dropped ))" "$a"
	expect_eq "round $rounds: the device sent what the qdisc sent" \
		"$(( $(txpkts d0) - before ))" "$sent"
	run "round $rounds: drained: qlen, backlog = sums over classes = 0" \
		sums_match d0
	expect_eq "round $rounds: backlog 0" "$(qstat d0 1: backlog)" 0

	# 2. Replace to and from other qdiscs under traffic.
	pktgen d0 "$(( n / 2 ))" 200 >/dev/null 2>&1 &
	pid=$!
	for ch in "root fq_codel" "root handle 1: ddl jobs 4" "root pfifo" \
		  "root handle 2: ddl jobs 64 rate 50mbit" \
		  "root handle 1: prio" "parent 1:1 handle 10: ddl jobs 2" \
		  "root handle 5: htb default 1" "root handle 3: ddl"; do
		# shellcheck disable=SC2086
		tc qdisc replace dev d0 $ch 2>"$T/err" ||
			bad "replace '$ch': $(cat "$T/err")"
		if [ "$ch" = "root handle 5: htb default 1" ]; then
			tc class add dev d0 parent 5: classid 5:1 htb rate 100mbit ||
				bad "htb class"
			tc qdisc add dev d0 parent 5:1 handle 20: ddl jobs 3 ||
				bad "ddl under htb"
		fi
	done
	wait "$pid"
	pkts=$(( pkts + $(pg_attempts d0) ))

	# 3. A device deleted with packets queued (raw frames: pktgen would
	# wait for its last packet to leave).
	tc qdisc replace dev d1 root handle 1: ddl rate 1kbit
	# (60 frames: the sender's socket buffer holds what stays queued.)
	flood d1 60 500 >/dev/null
	pkts=$(( pkts + 60 ))
	[ "$(qstat d1 1: qlen)" -gt 30 ] 2>/dev/null ||
		bad "d1: no queue before the delete ($(qstat d1 1: qlen))"
	ip link del d1
	dummy_dev d1

	# 4. A netns deleted with packets queued in its veth.
	veth_ns ddl-s s 1
	tc -n ddl-s qdisc add dev s0 root handle 1: ddl rate 1mbit
	nsenter --net=/run/netns/ddl-s python3 -S -c '
import socket
s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
for i in range(300):
	s.sendto(b"x" * 400, ("198.18.9.2", 9 + i % 8))'
	pkts=$(( pkts + 300 ))
	before=$(refcnt)
	ip netns del ddl-s
	# 300 x 428 bytes at 1 Mbit/s: about 1 s.
	wait_for 30 sh -c "[ \$(cat /sys/module/sch_ddl/refcnt) -lt $before ]" ||
		bad "netns deleted: the instance stayed (refcnt $(refcnt))"

	# 4b. The same at 1 kbit: the queued packets keep their socket, so
	# their namespace, alive; the instance drains at its rate, then goes
	# (sch_ddl.rst, "Lifetime, failures and permissions").  9 x 428
	# bytes (and the netns's own IPv6 packets), 3028 of them at once
	# (the automatic burst): 5 to 20 s.
	veth_ns ddl-t t 5
	tc -n ddl-t qdisc add dev t0 root handle 1: ddl rate 1kbit
	nsenter --net=/run/netns/ddl-t python3 -S -c '
import socket
s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
for i in range(9):
	s.sendto(b"x" * 400, ("198.18.9.6", 9))'
	pkts=$(( pkts + 9 ))
	t=$EPOCHSECONDS
	ip netns del ddl-t
	# An instance outside the initial netns: DEV-MAJ:-nsINODE.
	compgen -G "$DBG/t0-1:-ns*" >/dev/null ||
		bad "netns deleted at 1 kbit: the instance went at once"
	wait_for 60 sh -c "! ls -d '$DBG'/t0-1:-ns* >/dev/null 2>&1" ||
		bad "netns deleted at 1 kbit: the instance stayed 60 s"
	echo "# round $rounds: netns deleted with 9 packets queued at 1 kbit: instance gone after $(( EPOCHSECONDS - t )) s"

	# 5. Unload and load again.
	stop_readers
	tc qdisc del dev d0 root 2>/dev/null
	tc qdisc del dev d1 root 2>/dev/null
	wait_for 30 sh -c '[ "$(cat /sys/module/sch_ddl/refcnt)" = 0 ]' ||
		bad "module refcount $(refcnt) after every qdisc went"
	modprobe -r sch_ddl || bad "rmmod failed: $(refcnt)"
	modprobe sch_ddl || bad "modprobe failed"
	start_readers
}

start_readers
while [ "$rounds" = 0 ] || [ "$EPOCHSECONDS" -lt "$deadline" ]; do
	rounds=$(( rounds + 1 ))
	round
done
stop_readers
expect_eq "stress: $rounds rounds, $pkts packets offered: no problem" \
	"$problems" 0
expect_eq "module refcount 0 at the end" "$(refcnt)" 0
run "the readers read along ($passes passes)" test "$passes" -ge "$rounds"
echo "# stress: $rounds rounds in $secs s, $pkts packets"
rm -rf "$T"
done_testing
