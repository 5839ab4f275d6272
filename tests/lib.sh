# SPDX-License-Identifier: GPL-2.0
#
# Helpers for the end-to-end tests.  Tests run inside the VM (scripts/vm-run,
# several per boot: scripts/guest-e2e) as root, print one "ok - ..." or
# "not ok - ..." line per assertion and exit non-zero if any assertion
# failed.  Test hosts use 198.18.0.0/15 only.  A script with a line
# "# e2e: timing" asserts timing (guarded by timing() below); make check
# runs it on the fast kernel with the machine to itself, not on the debug
# kernel (make check-debug runs every script there).  Every functional
# script runs on the debug kernel, but one with a line "# e2e: fast",
# which runs on the fast kernel instead (in a guest of one CPU); a line
# "# e2e: smp" runs it on the fast kernel with two CPUs: for races, or for
# a receiver that must keep up while the sender's CPU is busy.
#
# Python runs with -S (no site module): the tests use the standard library
# only, and without site python starts in half the time on the debug guest.

set -u

TESTS_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# The C traffic tool (bench/ddlemu.c), built by scripts/vm-run.
DDLEMU=$TESTS_DIR/../build/tools/ddlemu
# Packet counts scale with the kernel: the debug kernel moves ~4 kpps.
if [ -e /sys/kernel/debug/kmemleak ]; then
	DDL_DEBUG_KERNEL=1
else
	DDL_DEBUG_KERNEL=0
fi
# The compat kernel (Debian's 6.1, scripts/kconfig/ddl-compat.config) runs
# the functional assertions only: it shares the machine with other guests.
case "$(uname -r)" in
*-ddlcompat) DDL_COMPAT_KERNEL=1 ;;
*) DDL_COMPAT_KERNEL=0 ;;
esac
# timing: true on the fast kernel.  Timing-dependent assertions (rates,
# shares, gaps, the queue a burst meets) run there only, with the machine
# to themselves (scripts/check); the debug kernel runs the same traffic and
# checks counters, invariants and splats.
timing() { [ "$DDL_DEBUG_KERNEL" = 0 ] && [ "$DDL_COMPAT_KERNEL" = 0 ]; }
_failed=0

ok() { echo "ok - $*"; }
fail() { echo "not ok - $*"; _failed=1; }

# expect_eq DESCRIPTION GOT WANT
expect_eq() {
	if [ "$2" = "$3" ]; then ok "$1"; else fail "$1: got '$2', want '$3'"; fi
}

# expect_ge DESCRIPTION GOT MIN
expect_ge() {
	if [ "$2" -ge "$3" ] 2>/dev/null; then ok "$1"
	else fail "$1: got '$2', want >= '$3'"; fi
}

# matches TEXT REGEX: some line of TEXT matches the extended REGEX, as
# `printf %s TEXT | grep -qE REGEX` would find it, with builtins only.
matches() {
	local line text=$1
	[ -n "$text" ] || return 1
	text=${text%$'\n'}
	while IFS= read -r line; do
		[[ $line =~ $2 ]] && return 0
	done <<<"$text"
	return 1
}

# expect_match DESCRIPTION TEXT REGEX
expect_match() {
	if matches "$2" "$3"; then ok "$1"
	else fail "$1: '$2' does not match /$3/"; fi
}

# expect_fail DESCRIPTION REGEX CMD... : CMD must fail and print REGEX
expect_fail() {
	local desc=$1 re=$2 out rc
	shift 2
	out=$("$@" 2>&1)
	rc=$?
	if [ "$rc" = 0 ]; then
		fail "$desc: command succeeded: $*"
	elif ! matches "$out" "$re"; then
		fail "$desc: message '$out' does not match /$re/"
	else
		ok "$desc"
	fi
}

# run DESCRIPTION CMD... : CMD must succeed
run() {
	local desc=$1 out
	shift
	if out=$("$@" 2>&1); then ok "$desc"
	else fail "$desc: $* -> $out"; fi
}

# Snapshots: one dump, then any number of fields read from it with bash
# builtins only.  On the debug guest every process costs: 0.2 s for a
# fork and exec, 0.2 s more for awk, 0.7 s for jq, 1.4 s for python.
#
# snap [-n NS] DEV: the qdiscs of DEV (tc -s -j) as tests/jflat.awk prints
# them, one line per field: "HANDLE<TAB>PATH<TAB>VALUE", PATH joining
# object keys with ".", an array of numbers one field of values separated
# by spaces, the root qdisc listed again under HANDLE "root".
snap() {
	local ns=()
	[ "$1" = -n ] && { ns=(-n "$2"); shift 2; }
	tc "${ns[@]}" -s -j qdisc show dev "$1" | awk -f "$TESTS_DIR/jflat.awk"
}

# qstat [-n NS] DEV HANDLE FIELD: a field of one qdisc from tc -s -j,
# e.g. qstat dummy0 1: options.limit; "missing" when there is none.
qstat() {
	local ns=()
	[ "$1" = -n ] && { ns=(-n "$2"); shift 2; }
	sfield "$(snap "${ns[@]}" "$1")" "$2" "$3"
}

# qfields [-n NS] DEV HANDLE FIELD...: several fields of one qdisc from one
# dump, separated by spaces, e.g. qfields d0 1: options.slice options.yield
qfields() {
	local ns=() s h f out=()
	[ "$1" = -n ] && { ns=(-n "$2"); shift 2; }
	s=$(snap "${ns[@]}" "$1")
	h=$2
	shift 2
	for f; do
		out+=("$(sfield "$s" "$h" "$f")")
	done
	echo "${out[*]}"
}

# cstats [-n NS] DEV: the classes of DEV in snap's form, HANDLE being the
# class (tests/tcclass.awk: tc 6.1 prints classes as text only).
cstats() {
	local ns=()
	[ "$1" = -n ] && { ns=(-n "$2"); shift 2; }
	tc "${ns[@]}" -s class show dev "$1" | awk -f "$TESTS_DIR/tcclass.awk"
}

# sfield SNAP HANDLE PATH: one field of a snapshot (snap, cstats), e.g.
# sfield "$s" 1: options.limit; "missing" when there is none.  Builtins
# only: no process per field.
sfield() {
	if [[ $'\n'$1 =~ $'\n'"$2"$'\t'"$3"$'\t'([^$'\n']*) ]]; then
		printf '%s\n' "${BASH_REMATCH[1]}"
	else
		echo missing
	fi
}
cfield() { sfield "$@"; }

# netns_pair [QUEUES]: two hosts, namespace ddl-a (198.18.0.1, veth a0)
# and ddl-b (198.18.0.2, veth b0), with static neighbours so that no ARP
# or ND packet ever crosses the qdisc under test; each veth with QUEUES
# transmit and receive queues (default 1).
netns_pair() {
	local nq="numtxqueues ${1:-1} numrxqueues ${1:-1}"
	# Receive-side buffers large enough that tests lose nothing there.
	sysctl -qw net.core.rmem_max=33554432 net.core.wmem_max=33554432 \
		net.core.netdev_max_backlog=100000
	# Few processes: each costs 0.2 to 0.6 s on the debug guest.
	ip -b - <<-EOF
	netns add ddl-a
	netns add ddl-b
	link add a0 address 02:dd:00:00:00:01 netns ddl-a $nq type veth peer name b0 address 02:dd:00:00:00:02 netns ddl-b $nq
	EOF
	# In each namespace: IPv6 off, the address, the peer's neighbour
	# entry, and the receive packet steering.  The qdisc sends in order,
	# but veth hands each packet to the backlog of the CPU that sent it;
	# all go to CPU 0 so that the receiver sees the order the qdisc chose.
	# ip netns exec: its own sysfs shows the namespace's devices.
	local end
	for end in "a0 198.18.0.1 198.18.0.2 02:dd:00:00:00:02" \
		   "b0 198.18.0.2 198.18.0.1 02:dd:00:00:00:01"; do
		# shellcheck disable=SC2086 # four words
		set -- $end
		ip netns exec "ddl-${1:0:1}" sh -c '
			echo 1 >/proc/sys/net/ipv6/conf/all/disable_ipv6 &&
			echo 1 >/sys/class/net/$0/queues/rx-0/rps_cpus &&
			printf "%s\n" "addr add $1/24 dev $0" "link set lo up" \
				"link set $0 up" \
				"neigh replace $2 dev $0 lladdr $3 nud permanent" |
			ip -b -' "$@"
	done
}

# cg_in CGROUP CMD...: CMD in CGROUP, in namespace ddl-a
cg_in() {
	local cg=$1
	shift
	nsenter --net=/run/netns/ddl-a sh -c \
		'echo $$ >"$0/cgroup.procs" && exec "$@"' "$cg" "$@"
}
# cg_burst CGROUP SPORT N: N datagrams of 200 bytes to 198.18.0.2:9999
# from a process in CGROUP, in ddl-a
cg_burst() {
	cg_in "$1" "$DDLEMU" burst -a 198.18.0.2 -p 9999 -S "$2" -n "$3" \
		-l 200 -s 0 >/dev/null
}

# A dummy device with IPv6 off, so nothing but our own traffic reaches it.
dummy_dev() {
	sysctl -qw net.ipv6.conf.all.disable_ipv6=1
	sysctl -qw net.ipv6.conf.default.disable_ipv6=1
	ip link add "$1" type dummy
	ip link set "$1" up
}

# pktgen DEV COUNT [SIZE [CMD...]]: COUNT UDP packets through the qdisc of
# DEV (xmit_mode queue_xmit goes through dev_queue_xmit), each CMD one more
# pktgen device command (e.g. "dst6 2001:2::2"); waits until done.
pktgen() {
	local dev=$1 count=$2 size=${3:-60} pg=/proc/net/pktgen
	shift $(( $# < 3 ? $# : 3 ))
	modprobe pktgen || return 1
	echo rem_device_all >"$pg/kpktgend_0"
	echo "add_device $dev" >"$pg/kpktgend_0"
	{
		echo "count $count"
		echo "pkt_size $size"
		echo "delay 0"
		echo "burst 1"
		echo "xmit_mode queue_xmit"
		echo "dst 198.18.1.2"
		echo "dst_mac 02:00:00:00:00:02"
		echo "udp_dst_min 9"
		echo "udp_dst_max 9"
		[ $# = 0 ] || printf '%s\n' "$@"
	} | while read -r line; do echo "$line" >"$pg/$dev"; done
	echo start >"$pg/pgctrl"
}

# flood DEV COUNT SIZE: COUNT frames of SIZE bytes through the qdisc of DEV
# as fast as possible; prints "accepted A dropped D" as the sender saw it.
flood() {
	python3 -S "$TESTS_DIR/traffic.py" raw-send "$1" 0 "$2" "$3"
}

# qlen_is DEV HANDLE N: the qdisc holds N packets now (for wait_for, which
# must re-read the value on every try)
qlen_is() { [ "$(qstat "$1" "$2" qlen)" = "$3" ]; }

# start_sink FILE PORTS SECS: a udp-sink in ddl-b writing FILE, started in
# the background (its pid in $SINK); returns once its ports are bound
start_sink() {
	rm -f "$1.ready"
	DDL_SINK_READY=$1.ready nsenter --net=/run/netns/ddl-b python3 -S \
		"$TESTS_DIR/traffic.py" udp-sink 198.18.0.2 "$2" "$3" 100 >"$1" &
	SINK=$!
	wait_for 60 test -e "$1.ready"
}

# rate_under_binds: before binding and unbinding a job under its traffic,
# ddl-a's a0 at 20 Mbit/s with no standing-queue target (unbound, the
# job's packets are background traffic, which the target would drop when
# it queues)
rate_under_binds() {
	run "rate 20mbit, no target" tc -n ddl-a qdisc \
		change dev a0 root ddl jobs 8 key none rate 20mbit target off \
		lead 0
}

# recv_under_binds FILE N: rate_under_binds, and a receiver of N datagrams
# of 1000 bytes on 198.18.0.2:9100 in ddl-b (it gives up 30 s after the
# last), its count in FILE, started in the background (its pid in $RECV);
# returns once it listens
recv_under_binds() {
	rate_under_binds
	rm -f "$1.ready"
	DDL_SINK_READY=$1.ready nsenter --net=/run/netns/ddl-b python3 -S \
		"$TESTS_DIR/traffic.py" udp-recv 198.18.0.2 9100 "$2" 1000 30 \
		>"$1" &
	RECV=$!
	wait_for 30 test -e "$1.ready"
}

# count_under_binds: rate_under_binds, and the datagrams to
# 198.18.0.2:9100 counted where they reach ddl-b's b0 (a u32 filter on its
# ingress, read by b0_arrived) instead of by a receiver, which a slow guest
# leaves behind; then send_under_binds sends them.
count_under_binds() {
	rate_under_binds
	tc -n ddl-b qdisc add dev b0 clsact
	tc -n ddl-b filter add dev b0 ingress pref 9 \
		protocol ip u32 match ip dport 9100 0xffff action ok
}
b0_arrived() {
	tc -n ddl-b -s filter show dev b0 ingress \
		pref 9 | awk '/Sent/ { print $4; exit }'
}
# b0_drained N: once N have arrived, or after 30 s (a0 still sends what
# ddl holds when the sender is done), how many arrived
b0_drained() {
	wait_for 30 b0_has "$1"
	b0_arrived
}
b0_has() { [ "$(b0_arrived)" -ge "$1" ] 2>/dev/null; }
# send_under_binds [CMD...]: run by CMD (nsenter, cg_in), UNDER_BINDS
# datagrams of 1000 bytes to 198.18.0.2:9100 in bursts of 1000, one after
# another (1.2 s at 20 Mbit/s, longer if the guest is slower).  Prints
# "sent N dropped D", their sums.
UNDER_BINDS=3000
send_under_binds() {
	# The guest's sh runs the loop, not this shell.
	# shellcheck disable=SC2016
	"$@" sh -c 'i=0; while [ "$i" -lt "$1" ]; do
		"$0" burst -a 198.18.0.2 -p 9100 -n 1000 -l 1000 -s 0 || exit
		i=$((i + 1))
	done' "$DDLEMU" $(( UNDER_BINDS / 1000 )) |
		awk '{ s += $2; d += $4 } END { print "sent", s, "dropped", d }'
}

# wait_for SECONDS CMD...: poll until CMD succeeds
wait_for() {
	local deadline=$(( EPOCHSECONDS + $1 ))
	shift
	until "$@"; do
		[ "$EPOCHSECONDS" -ge "$deadline" ] && return 1
		sleep 0.2
	done
}

done_testing() {
	exit "$_failed"
}
