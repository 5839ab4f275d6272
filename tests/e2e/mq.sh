#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# ddl on every transmit queue of a multi-queue device, under mq: a veth of
# four queues in ddl-a.  A ddl on one queue takes mode cluster unless told
# otherwise, whether mq made it (default_qdisc) or it was added under mq;
# a root ddl keeps mode fair.  sch-ddl-job binds a job on every queue's
# ddl or on none.  Three jobs, each sending a burst on all four queues
# every 500 ms, the shards of a job of different sizes on each queue:
# mode fair on a queue would serve its smallest shard first, a different
# job on each queue.  In mode cluster every pair of queues serves the jobs
# in the same order, by their declared sizes, in at least 99 % of the
# bursts that contend.
. "$(dirname "$0")/../lib.sh"

A=(nsenter --net=/run/netns/ddl-a)
JOB=("${A[@]}" "$TESTS_DIR/../sbin/sch-ddl-job")
DBG=/sys/kernel/debug/sch_ddl
CG=/sys/fs/cgroup/ddlmq
ROUNDS=8
netns_pair 4
mountpoint -q /sys/kernel/debug || mount -t debugfs none /sys/kernel/debug
mountpoint -q /sys/fs/cgroup || mount -t cgroup2 cgroup2 /sys/fs/cgroup

# mq's own children, with ddl as the default qdisc: they have no handle.
def=$(sysctl -n net.core.default_qdisc)
sysctl -qw net.core.default_qdisc=ddl
run "mq root, ddl on each queue as the default qdisc" "${A[@]}" tc qdisc \
	replace dev a0 root handle 1: mq
sysctl -qw net.core.default_qdisc="$def"
s=$("${A[@]}" tc qdisc show dev a0)
expect_eq "four ddl, one per queue, mode cluster" \
	"$(grep -c '^qdisc ddl 0: parent 1:[1-4] .* mode cluster' <<<"$s")" 4

# Added under mq, each with a handle (10 + queue): mode cluster by
# default, mode fair when asked.
for q in 1 2 3 4; do
	echo "qdisc replace dev a0 parent 1:$q handle 1$q: ddl jobs 4 key none rate 4mbit maxwait 2s"
done >"$DDL_OUT/mq.batch"
run "ddl on each queue with a handle" "${A[@]}" tc -batch "$DDL_OUT/mq.batch"
s=$(snap -n ddl-a a0)
for q in 1 2 3 4; do
	expect_eq "queue $q: 1$q: in mode cluster" \
		"$(sfield "$s" "1$q:" options.mode)" cluster
done
run "mode fair when asked" "${A[@]}" tc qdisc change dev a0 parent 1:4 \
	handle 14: ddl mode fair
expect_eq "... and dumped" "$(qstat -n ddl-a a0 14: options.mode)" fair
run "mode cluster again" "${A[@]}" tc qdisc change dev a0 parent 1:4 \
	handle 14: ddl mode cluster

# All or none: queue 3's class 2 holds cgroup "other"; binding job 4
# (class 1) to "other" too is refused there, and undone on queues 1 and 2.
mkdir -p "$CG/j1" "$CG/j2" "$CG/j3" "$CG/other"
run "queue 3: class 2 bound to other" "${A[@]}" tc class change dev a0 \
	classid 13:2 ddl cgroup "$CG/other"
out=$("${JOB[@]}" bind 4 --cgroup "$CG/other" --size 1000 2>&1)
expect_eq "job 4: refused" "$?" 1
expect_match "... with the kernel's reason" "$out" "bound to another class"
for q in 1 2 3 4; do
	expect_eq "... queue $q's class 1 as it was" \
		"$("${A[@]}" tc class show dev a0 classid 1$q:1)" \
		"class ddl 1$q:1 root weight 1 "
done
run "queue 3: class 2 unbound" "${A[@]}" tc class change dev a0 \
	classid 13:2 ddl cgroup none

# Jobs 1, 2 and 3 (classes 2, 3 and 4 of 4) in cgroups of their own,
# declared 45, 60 and 90 kB: their whole bursts, over the four queues.
sizes=(0 45000 60000 90000)
for j in 1 2 3; do
	run "bind job $j" "${JOB[@]}" bind $j --cgroup "$CG/j$j" \
		--size ${sizes[j]}
done
for q in 1 2 3 4; do
	expect_match "queue $q: job 3's class bound" \
		"$("${A[@]}" tc class show dev a0 classid 1$q:4)" \
		"size 90000 cgroup [0-9]+"
done

# Each job's flow q leaves by queue q: sport 5000 + 10 j + q, set by an
# egress filter (skbedit queue_mapping).  Shards in datagrams of 1000
# bytes, per queue:     q1  q2  q3  q4
#               job 1   20   5  10   5
#               job 2    5  20   5  10
#               job 3   10  10  20  20
shard=(x "20 5 10 5" "5 20 5 10" "10 10 20 20")
{
	echo "qdisc add dev a0 clsact"
	for j in 1 2 3; do
		for q in 1 2 3 4; do
			echo "filter add dev a0 egress protocol ip prio 1 u32 match ip sport $(( 5000 + 10 * j + q )) 0xffff action skbedit queue_mapping $(( q - 1 ))"
		done
	done
} >"$DDL_OUT/mq.filters"
run "each flow to its queue" "${A[@]}" tc -batch "$DDL_OUT/mq.filters"

# One shared clock: the bursts start 10 ms into an epoch of 20 ms (the
# default) every 500 ms from $go, so that a queue's first packet may come
# a few ms late on a slow guest and still fall in the epoch of the
# others'.  $go leaves time to start the twelve senders.
clocks=$(python3 -S -c 'import time
print(time.clock_gettime_ns(time.CLOCK_TAI),
      time.clock_gettime_ns(time.CLOCK_MONOTONIC))')
read -r tai mono <<<"$clocks"
go=$(( mono + 12000000000 ))
base=$(( tai + 12000000000 - 10000000 ))
for q in 1 2 3 4; do
	echo "qdisc change dev a0 parent 1:$q handle 1$q: ddl base $base"
done >"$DDL_OUT/mq.base"
run "epoch 0 from $base on every queue" "${A[@]}" tc -batch \
	"$DDL_OUT/mq.base"
incg() {
	local cg=$1
	shift
	"${A[@]}" sh -c 'echo $$ >"$0/cgroup.procs" && exec "$@"' "$cg" "$@"
}
pids=()
for j in 1 2 3; do
	read -r -a n <<<"${shard[j]}"
	for q in 1 2 3 4; do
		incg "$CG/j$j" "$DDLEMU" burst -a 198.18.0.2 -p 9 \
			-S $(( 5000 + 10 * j + q )) -n "${n[q - 1]}" -l 1000 \
			-P 500 -E "$go" -s $(( ROUNDS / 2 )) >/dev/null &
		pids+=($!)
	done
done
wait "${pids[@]}"
qlen_zero() { [ "$(qstat -n ddl-a a0 "$1" qlen)" = 0 ]; }
for q in 1 2 3 4; do
	wait_for 30 qlen_zero "1$q:" || fail "queue $q drains"
done
sleep 1.2	# longer than the burst gap: the last bursts are complete
c=$(cstats -n ddl-a a0)		# settles the bursts
for j in 1 2 3; do
	read -r -a n <<<"${shard[j]}"
	for q in 1 2 3 4; do
		expect_eq "job $j: every packet in its class on queue $q" \
			"$(cfield "$c" "1$q:$(( j + 1 ))" packets)" \
			$(( n[q - 1] * ROUNDS ))
	done
done

# Each queue's bursts (debugfs: job start_ns end_ns ...), round by round:
# the jobs in the order their bursts ended.  Two queues agree on two jobs
# in a round when both sent both and ended them in the same order.
for q in 1 2 3 4; do
	f=$(ls -d "$DBG"/a0-1$q:-ns*)
	awk -v q=$q -v go="$go" 'NR > 1 {
		r = int(($2 - go + 250000000) / 500000000)
		if ($2 < go) next
		print q, r, $1, $3 }' "$f/bursts"
done >"$DDL_OUT/mq.bursts"
read -r agree pairs <<<"$(awk '
	{ end[$1, $2, $3] = $4; rounds[$2] = 1 }
	END {
		for (r in rounds)
			for (a = 1; a <= 4; a++)
				for (b = a + 1; b <= 4; b++)
					for (j = 2; j <= 4; j++)
						for (k = j + 1; k <= 4; k++) {
							if (!((a, r, j) in end) || !((a, r, k) in end) ||
							    !((b, r, j) in end) || !((b, r, k) in end))
								continue
							n++
							if ((end[a, r, j] < end[a, r, k]) ==
							    (end[b, r, j] < end[b, r, k]))
								same++
						}
		print same + 0, n + 0
	}' "$DDL_OUT/mq.bursts")"
echo "# queues agree on $agree of $pairs pairs of contending bursts"
expect_ge "pairs of bursts compared (of 144)" "$pairs" 120
expect_ge "every pair of queues in the same order, >= 99 %" \
	$(( agree * 100 )) $(( pairs * 99 ))

for j in 1 2 3; do
	run "unbind job $j" "${JOB[@]}" unbind $j
done
for q in 1 2 3 4; do
	expect_eq "queue $q: job 3's class unbound" \
		"$("${A[@]}" tc class show dev a0 classid 1$q:4)" \
		"class ddl 1$q:4 root weight 1 "
done

# A root ddl on the same device orders its one queue by mode fair.
"${A[@]}" tc qdisc del dev a0 root
run "root ddl" "${A[@]}" tc qdisc add dev a0 root handle 2: ddl
expect_eq "... in mode fair" "$(qstat -n ddl-a a0 2: options.mode)" fair
"${A[@]}" tc qdisc del dev a0 root
"${A[@]}" tc qdisc del dev a0 clsact
rmdir "$CG/j1" "$CG/j2" "$CG/j3" "$CG/other" "$CG"
done_testing
