#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# e2e: timing
# Bounded starvation and the background share, under a tbf on veth.
#  - static order, one saturating top job: the starvation guard serves the
#    lower job and the background at least every maxwait (+ margin for the
#    emulator's timing); guard_runs counts it.
#  - bgshare 20 with two saturating jobs: the background gets ~20 %;
#    bgshare 0 (guard out of reach): it gets next to nothing.
. "$(dirname "$0")/../lib.sh"

T=$(mktemp -d)
A=(ip netns exec ddl-a)
B=(ip netns exec ddl-b)
PORTS=9001,9002,9100
# Deep socket buffers keep each sender's queue from running dry while the
# sender waits for a CPU.  The debug kernel checks the counters only: the
# gaps and shares the receiver saw are compared on the fast kernel.
if ! timing; then
	rate=1mbit secs=12
	export DDL_SNDBUF=262144
else
	rate=4mbit secs=7
	export DDL_SNDBUF=1048576
fi
# While all senders run: from 1 s after both jobs' first packets arrived,
# for secs - 4 s (each sender runs secs s; they start within ~1 s).
win="auto:9001,9002:$(( (secs - 4) * 1000 ))"
netns_pair

# scenario DDL-ARGS...: jobs 1 and 2 (sports 5001, 5002) and background
# traffic (sport 6000, put in 10:ffff by a u32 filter) all saturate.
# Leaves the snapshots $Q (qdisc) and $C (classes).
scenario() {
	"${A[@]}" tc qdisc del dev a0 root 2>/dev/null
	"${A[@]}" tc qdisc add dev a0 root handle 1: tbf rate $rate burst 4000 \
		limit 4000000
	run "ddl $*" "${A[@]}" tc qdisc add dev a0 parent 1:1 handle 10: ddl "$@"
	run "background filter" "${A[@]}" tc filter add dev a0 parent 10: \
		protocol ip prio 1 u32 match ip sport 6000 0xffff flowid 10:ffff
	start_sink "$T/sink.json" $PORTS $(( secs + 90 )) || return 1
	sink=$SINK
	"${A[@]}" python3 -S "$TESTS_DIR/traffic.py" udp-flood 198.18.0.2 9001 5001 \
		"$secs" 1000 >/dev/null &
	sleep 0.3
	"${A[@]}" python3 -S "$TESTS_DIR/traffic.py" udp-flood 198.18.0.2 9002 5002 \
		"$secs" 1000 >/dev/null &
	"${A[@]}" python3 -S "$TESTS_DIR/traffic.py" udp-flood 198.18.0.2 9100 6000 \
		"$secs" 1000 >/dev/null &
	sleep $(( secs - 1 ))
	Q=$(snap -n ddl-a a0)
	C=$(cstats -n ddl-a a0)
	wait $sink
}
qf() { sfield "$Q" 10: "$1"; }
cf() { cfield "$C" "$1" "$2"; }
# check: a timing check of what the receiver saw (fast kernel only)
check() {
	timing || return 0
	python3 -S "$TESTS_DIR/rotation_check.py" "$@" || _failed=1
}

# The bound: maxwait + (jobs + 1) packet times; 1 ms per 1000 B at 8 Mbit/s.
# The receiver adds scheduling noise of the emulator: 400 ms of margin.
scenario mode static jobs 2 slice 100ms yield 0 maxwait 300ms bgshare 0
expect_ge "guard_runs counted" "$(qf guard_runs)" 8
expect_ge "10:2 served by the guard" "$(cf 10:2 guard_runs)" 4
expect_ge "10:ffff served by the guard" "$(cf 10:ffff guard_runs)" 4
expect_eq "static: no rotations" "$(qf rotations)" 0
check sink-gap "$T/sink.json" 9002 700
check sink-gap "$T/sink.json" 9100 700
check sink-share-of "$T/sink.json" 9001 $PORTS 0.75 1.0 $win

scenario jobs 2 slice 200ms yield 0 maxwait 30s bgshare 20
expect_ge "bgshare_runs counted" "$(qf bgshare_runs)" 10
check sink-share-of "$T/sink.json" 9100 $PORTS 0.15 0.30 $win

scenario jobs 2 slice 200ms yield 0 maxwait 30s bgshare 0
expect_eq "bgshare 0: no bgshare runs" "$(qf bgshare_runs)" 0
check sink-share-of "$T/sink.json" 9100 $PORTS 0.0 0.01 $win

rm -rf "$T"
done_testing
