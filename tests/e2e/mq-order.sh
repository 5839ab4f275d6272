#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# e2e: timing
# Mode cluster under mq: the queues of a device serve the jobs' bursts in
# one order.  A veth of four queues in ddl-a, a ddl on each (sch-ddl-apply);
# three jobs, each sending a burst on all four queues every 3.6 s, the
# shards of a job of different sizes on each queue: mode fair on a queue
# would serve its smallest shard first, a different job on each queue.  In
# mode cluster every pair of queues serves the jobs in the same order, by
# their declared sizes, in at least 99 % of the bursts that contend.  The
# order is asserted on the fast kernel, the guest to itself; the debug
# kernel (make check-debug) checks the classes' counts only.
. "$(dirname "$0")/../lib.sh"

A=(nsenter --net=/run/netns/ddl-a)
CG=/sys/fs/cgroup/ddlmqo
ROUNDS=5	# bursts per job and queue, one every PERIOD ns
PERIOD=3600000000
# The first round's lead: the time the sender takes to start.
if timing; then lead=2000000000; else lead=6000000000; fi
netns_pair 4
mountpoint -q /sys/fs/cgroup || mount -t cgroup2 cgroup2 /sys/fs/cgroup

echo "qdisc root handle 1: mq ddl jobs 4 key none rate 250kbit maxwait 5s yield 300ms epoch 200ms" \
	>"$DDL_OUT/mq.conf"
run "sch-ddl-apply: mq, a ddl on each queue" "${A[@]}" \
	"$TESTS_DIR/../sbin/sch-ddl-apply" -f "$DDL_OUT/mq.conf" a0

# Jobs 1, 2 and 3 (classes 2, 3 and 4 of 4) in cgroups of their own,
# declared 80, 100 and 150 kB: their whole bursts, over the four queues
# (73, 73 and 104 kB on the wire).
sizes=(0 80000 100000 150000)
mkdir -p "$CG/j1" "$CG/j2" "$CG/j3"
for j in 1 2 3; do
	for q in 1 2 3 4; do
		echo "class change dev a0 classid $(( q + 1 )):$(( j + 1 ))" \
			"ddl cgroup $CG/j$j size ${sizes[j]}"
	done
done >"$DDL_OUT/mq.jobs"
run "jobs 1, 2 and 3 on every queue" "${A[@]}" tc -batch "$DDL_OUT/mq.jobs"

# Each job's flow q leaves by queue q: sport 5000 + 10 j + q, set by an
# egress filter (skbedit queue_mapping).  Shards in datagrams of 1000
# bytes, per queue:     q1  q2  q3  q4
#               job 1   30  10  20  10
#               job 2   10  30  10  20
#               job 3   20  20  30  30
shard=(x "30 10 20 10" "10 30 10 20" "20 20 30 30")
{
	echo "qdisc add dev a0 clsact"
	for j in 1 2 3; do
		for q in 1 2 3 4; do
			echo "filter add dev a0 egress protocol ip prio 1 u32 match ip sport $(( 5000 + 10 * j + q )) 0xffff action skbedit queue_mapping $(( q - 1 ))"
		done
	done
} >"$DDL_OUT/mq.filters"
run "each flow to its queue" "${A[@]}" tc -batch "$DDL_OUT/mq.filters"

# One sender for the twelve flows, each job's sockets made in its cgroup;
# every round it sends one datagram of each flow in turn, so that every
# shard's first packet arrives within a few ms of the others' (separate
# senders would take turns on the guest's one CPU for 100 ms and more).
# A queue sends a datagram in 32 ms (250 kbit/s), a job's shard in 320 ms
# or more: longer than the sender takes for the whole round (about 300
# ms, with stalls, on a busy debug guest), so the shards contend whole
# and the order decides which ends first, not when each arrived.  A
# round takes at most 60 x 32 ms on a queue; the rounds start 10 ms into
# an epoch of 200 ms, the same on every queue.  A job's queue that runs dry
# for the gap (yield, 300 ms) ends its burst: the gap is longer than the
# debug guest's stalls, which would otherwise cut a shard in two bursts of
# two epochs, and the period leaves it room after the longest round (1.9
# s, and the sender's lag).
clocks=$(python3 -S -c 'import time
print(time.clock_gettime_ns(time.CLOCK_TAI),
      time.clock_gettime_ns(time.CLOCK_MONOTONIC))')
read -r tai mono <<<"$clocks"
go=$(( mono + lead ))
base=$(( tai + lead - 10000000 ))
for q in 1 2 3 4; do
	echo "qdisc change dev a0 parent 1:$q handle $(( q + 1 )): ddl base $base"
done >"$DDL_OUT/mq.base"
run "epoch 0 from $base on every queue" "${A[@]}" tc -batch \
	"$DDL_OUT/mq.base"
flows=()
for j in 1 2 3; do
	read -r -a n <<<"${shard[j]}"
	for q in 1 2 3 4; do
		flows+=("$CG/j$j:$(( 5000 + 10 * j + q )):${n[q - 1]}")
	done
done
TR=/sys/kernel/tracing
mountpoint -q $TR || mount -t tracefs nodev $TR
echo 0 >$TR/tracing_on
echo >$TR/trace
echo 1 >$TR/events/sch_ddl/ddl_burst_end/enable
echo 1 >$TR/tracing_on
"${A[@]}" python3 -S -c '
import os, socket, sys, time
go, rounds, period = int(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3])
flows = []
for spec in sys.argv[4:]:
	cg, sport, n = spec.rsplit(":", 2)
	with open(cg + "/cgroup.procs", "w") as f:
		f.write(str(os.getpid()))
	s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
	s.bind(("", int(sport)))
	flows.append((s, int(n)))
with open("/sys/fs/cgroup/cgroup.procs", "w") as f:
	f.write(str(os.getpid()))
data = b"d" * 1000
# The first round that starts 100 ms from now or later: the debug guest
# can take longer than the lead to get here.
now = time.clock_gettime_ns(time.CLOCK_MONOTONIC)
first = max(0, -(-(now + 100000000 - go) // period))
for r in range(first, first + rounds):
	t = (go + r * period) / 1e9 - time.clock_gettime(time.CLOCK_MONOTONIC)
	if t > 0:
		time.sleep(t)
	for i in range(max(n for _, n in flows)):
		for s, n in flows:
			if i < n:
				s.sendto(data, ("198.18.0.2", 9))' "$go" "$ROUNDS" "$PERIOD" "${flows[@]}"
qlen_zero() { [ "$(qstat -n ddl-a a0 "$1" qlen)" = 0 ]; }
for q in 1 2 3 4; do
	wait_for 30 qlen_zero "$(( q + 1 )):" || fail "queue $q drains"
done
sleep 1.2	# longer than the burst gap: the last bursts are complete
c=$(cstats -n ddl-a a0)		# settles the bursts
for j in 1 2 3; do
	read -r -a n <<<"${shard[j]}"
	for q in 1 2 3 4; do
		expect_eq "job $j: every packet in its class on queue $q" \
			"$(cfield "$c" "$(( q + 1 )):$(( j + 1 ))" packets)" \
			$(( n[q - 1] * ROUNDS ))
	done
done

# Each queue's bursts (the tracepoint ddl_burst_end), round by round:
# when each job's shard ended.  Two queues agree on two jobs in a round
# when both sent both and ended them in the same order.
echo 0 >$TR/tracing_on
echo 0 >$TR/events/sch_ddl/ddl_burst_end/enable
awk -v go="$go" -v period="$PERIOD" '/ddl_burst_end: dev=a0 / {
	for (i = 1; i <= NF; i++) {
		split($i, kv, "=")
		f[kv[1]] = kv[2]
	}
	sub(":", "", f["handle"])
	if (f["start"] < go)
		next
	printf "%d %d %s %.0f\n", f["handle"] - 1,
	       int((f["start"] - go + period / 2) / period), f["job"],
	       f["start"] + f["duration_ns"]
}' $TR/trace >"$DDL_OUT/mq.bursts"
cp $TR/trace "$DDL_OUT/mq.trace"
read -r agree pairs <<<"$(awk '
	function both(q, r) { return (q, r, j) in end && (q, r, k) in end }
	{ end[$1, $2, $3] = $4; rounds[$2] = 1 }
	END {
		for (r in rounds)
		for (a = 1; a <= 4; a++)
		for (b = a + 1; b <= 4; b++)
		for (j = 2; j <= 4; j++)
		for (k = j + 1; k <= 4; k++) {
			if (!both(a, r) || !both(b, r))
				continue
			n++
			if ((end[a, r, j] < end[a, r, k]) == \
			    (end[b, r, j] < end[b, r, k]))
				same++
		}
		print same + 0, n + 0
	}' "$DDL_OUT/mq.bursts")"
echo "# queues agree on $agree of $pairs pairs of contending bursts"
if timing; then
	expect_ge "pairs of bursts compared (of 90)" "$pairs" 75
	expect_ge "every pair of queues in the same order, >= 99 %" \
		$(( pairs ? agree * 100 / pairs : 0 )) 99
fi

"${A[@]}" tc qdisc del dev a0 root
"${A[@]}" tc qdisc del dev a0 clsact
rmdir "$CG/j1" "$CG/j2" "$CG/j3" "$CG"
done_testing
