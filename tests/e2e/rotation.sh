#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# e2e: timing
# Rotation under a shaped bottleneck: four UDP jobs (one source port each)
# saturate a tbf on veth at once; ddl is the tbf's child with the built-in
# key.  From per-class bytes sampled over time: in each slice the green job
# gets the link, green visits every job in turn; the receiver sees one job
# at a time.  tc qdisc/class change mid-run drops and reorders nothing.
# The same scenario under fq_codel shows fair sharing instead.
. "$(dirname "$0")/../lib.sh"

T=$(mktemp -d)
A=(ip netns exec ddl-a)
B=(ip netns exec ddl-b)
PORTS=9001,9002,9003,9004
# The debug kernel (KASAN, one CPU) is ~20x slower: a slower link and longer
# slices.  It checks counters and invariants only (no samples, no shares),
# so a few slices will do.  Deep socket buffers keep every job's queue from
# running dry while its sender waits for a CPU.
# The traffic suits the kernel's speed (the compat kernel runs the fast
# kernel's, without the timing assertions): at the debug kernel's rate a
# fast kernel's floods queue so much that heads can wait past maxwait.
if [ "$DDL_DEBUG_KERNEL" = 1 ]; then
	rate=400kbit slice=1500ms secs=20
	export DDL_SNDBUF=262144
else
	rate=4mbit slice=600ms secs=12 step=100
	export DDL_SNDBUF=1048576
fi
netns_pair

# scenario QDISC-ARGS...: run the four jobs for $secs seconds with the given
# child qdisc under the tbf; leaves $T/sink.json and $T/sent.N
scenario() {
	"${A[@]}" tc qdisc del dev a0 root 2>/dev/null
	"${A[@]}" tc qdisc add dev a0 root handle 1: tbf rate $rate burst 4000 \
		limit 4000000 || return 1
	"${A[@]}" tc qdisc add dev a0 parent 1:1 handle 10: "$@" || return 1
	start_sink "$T/sink.json" $PORTS $(( secs + 90 )) || return 1
	sink=$SINK
	for j in 1 2 3 4; do
		"${A[@]}" python3 -S "$TESTS_DIR/traffic.py" udp-flood 198.18.0.2 \
			900$j 500$j "$secs" 1000 >"$T/sent.$j" &
	done
}

# ddl, rotating the whole order; changed mid-run.  The samples give the
# bytes while a job is green; the debugfs turns log, every green change.
scenario ddl jobs 4 mode rotate slice $slice yield 0 maxwait 30s bgshare 0 ||
	fail "ddl under tbf"
if timing; then
	"${A[@]}" python3 -S "$TESTS_DIR/tcsample.py" a0 10: $(( secs / 2 )) \
		$step classes >"$T/samples1.json" &
	sampler=$!
fi
sleep $(( secs / 2 ))
run "qdisc change mid-run" "${A[@]}" tc qdisc change dev a0 parent 1:1 \
	handle 10: ddl mode green limit 5000
# The green changes until then (the check takes the rotation's).
mountpoint -q /sys/kernel/debug || mount -t debugfs none /sys/kernel/debug
inum=$("${A[@]}" stat -L -c %i /proc/self/ns/net)
cp "/sys/kernel/debug/sch_ddl/a0-10:-ns$inum/turns" "$T/turns" ||
	fail "debugfs turns file"
run "class change mid-run" "${A[@]}" tc class change dev a0 parent 10: \
	classid 10:2 ddl weight 2
timing && wait $sampler
wait $sink
if timing; then
	python3 -S "$TESTS_DIR/rotation_check.py" rotation "$T/samples1.json" 4 \
		0.85 "$T/turns" || _failed=1
fi

s=$(snap -n ddl-a a0)
expect_eq "nothing dropped" "$(sfield "$s" 10: drops)" 0
expect_eq "nothing left queued" "$(sfield "$s" 10: qlen)" 0
expect_ge "rotations counted" "$(sfield "$s" 10: rotations)" 4
expect_eq "no guard runs with maxwait 30s" "$(sfield "$s" 10: guard_runs)" 0
expect_eq "four keys mapped" "$(sfield "$s" 10: keys_mapped)" 4
expect_eq "mode changed" "$(sfield "$s" 10: options.mode)" green
expect_eq "limit changed" "$(sfield "$s" 10: options.limit)" 5000
c=$(cstats -n ddl-a a0)
expect_eq "weight changed" "$(sfield "$c" 10:2 options.weight)" 2
keys=""
for j in 1 2 3 4; do
	keys+="$(sfield "$c" 10:$j key) "
done
expect_eq "each job's port is its class key" \
	"$(echo $keys | tr ' ' '\n' | sort | tr '\n' ' ')" "5001 5002 5003 5004 "
# got[J]: the datagrams of job J that arrived (one python for all four)
declare -A got
while read -r j n; do
	got[$j]=$n
done < <(python3 -S -c "import json; p = json.load(open('$T/sink.json'))['ports']
for j in range(1, 5): print(j, p['900%d' % j]['packets'])")
for j in 1 2 3 4; do
	read -r _ sent <"$T/sent.$j"
	expect_eq "job $j: every datagram sent arrived" "${got[$j]:-none}" "$sent"
	[ "${got[$j]:-none}" = "$sent" ] || python3 -S -c "import json; d = json.load(open('$T/sink.json'))['ports']['900$j']; print('#', {k: d[k] for k in ('packets', 'next', 'reordered', 'first', 'last')})"
done
python3 -S "$TESTS_DIR/rotation_check.py" sink-order "$T/sink.json" $PORTS ||
	_failed=1
if timing; then
	python3 -S "$TESTS_DIR/rotation_check.py" sink-share "$T/sink.json" \
		$PORTS 0.8 1.0 || _failed=1
fi
echo "# a: $("${A[@]}" grep Udp: /proc/net/snmp | tail -1)"
echo "# b: $("${B[@]}" grep Udp: /proc/net/snmp | tail -1)"
echo "# b0: $("${B[@]}" ip -s link show b0 | sed -n 4p) a0: $("${A[@]}" ip -s link show a0 | sed -n 6p)"
echo "# tbf: $("${A[@]}" tc -s qdisc show dev a0 | grep -m1 Sent)"
echo "# softnet: $(cat /proc/net/softnet_stat | awk '{print $2}' | tr '\n' ' ')"

# fq_codel: the same four jobs share the link (a share: timing only; no
# ddl in the path)
timing || { rm -rf "$T"; done_testing; }
scenario fq_codel || fail "fq_codel under tbf"
wait $sink
python3 -S "$TESTS_DIR/rotation_check.py" sink-share "$T/sink.json" $PORTS \
	0.0 0.5 || _failed=1

rm -rf "$T"
done_testing
