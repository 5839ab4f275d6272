#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# ddl on every transmit queue of a multi-queue device, under mq: a veth of
# four queues in ddl-a.  A ddl on one queue takes mode cluster unless told
# otherwise, whether mq made it (default_qdisc) or it was added under mq;
# a root ddl keeps mode fair.  sch-ddl-apply sets up every queue or none,
# sch-ddl-job binds a job on every queue's ddl or on none.  The order the
# queues serve jobs in: mq-order.sh.
. "$(dirname "$0")/../lib.sh"

A=(nsenter --net=/run/netns/ddl-a)
JOB=("${A[@]}" "$TESTS_DIR/../sbin/sch-ddl-job")
CG=/sys/fs/cgroup/ddlmq
netns_pair 4
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

# sch-ddl-apply's one line: mq at the root, on queue q a ddl of handle
# (1 + q):.  Mode cluster by default, mode fair when asked.
echo "qdisc root handle 1: mq ddl jobs 4 key none rate 250kbit" >"$DDL_OUT/mq.conf"
run "sch-ddl-apply: mq, a ddl on each queue" "${A[@]}" \
	"$TESTS_DIR/../sbin/sch-ddl-apply" -f "$DDL_OUT/mq.conf" a0
s=$(snap -n ddl-a a0)
for q in 1 2 3 4; do
	expect_eq "queue $q: $(( q + 1 )): in mode cluster, rate 250kbit" \
		"$(sfield "$s" "$(( q + 1 )):" options.mode) $(sfield "$s" \
		"$(( q + 1 )):" options.rate)" "cluster 31250"
done
run "mode fair when asked" "${A[@]}" tc qdisc change dev a0 parent 1:4 \
	handle 5: ddl mode fair
expect_eq "... and dumped" "$(qstat -n ddl-a a0 5: options.mode)" fair
run "mode cluster again" "${A[@]}" tc qdisc change dev a0 parent 1:4 \
	handle 5: ddl mode cluster

# A reload that fails at its second command (tc qdisc change on queue 2)
# puts back every queue's options as they were.
q0=$("${A[@]}" tc qdisc show dev a0)
sed 's/rate 250kbit/rate 300kbit/' "$DDL_OUT/mq.conf" >"$DDL_OUT/mq2.conf"
out=$(SCH_DDL_APPLY_FAULT=2 "${A[@]}" "$TESTS_DIR/../sbin/sch-ddl-apply" \
	-f "$DDL_OUT/mq2.conf" a0 2>&1)
expect_eq "reload, fault at command 2: refused" "$?" 1
expect_match "... rolled back" "$out" "rolled back"
expect_eq "... every queue as it was" "$("${A[@]}" tc qdisc show dev a0)" \
	"$q0"

# All or none: queue 3's class 2 (4:2) holds cgroup "other"; binding job 4
# (class 1) to "other" too is refused there, and undone on queues 1 and 2.
mkdir -p "$CG/j3" "$CG/other"
run "queue 3: class 2 bound to other" "${A[@]}" tc class change dev a0 \
	classid 4:2 ddl cgroup "$CG/other"
out=$("${JOB[@]}" bind 4 --cgroup "$CG/other" --size 1000 2>&1)
expect_eq "job 4: refused" "$?" 1
expect_match "... with the kernel's reason" "$out" "bound to another class"
for q in 1 2 3 4; do
	expect_eq "... queue $q's class 1 as it was" \
		"$("${A[@]}" tc class show dev a0 classid $(( q + 1 )):1)" \
		"class ddl $(( q + 1 )):1 root weight 1 "
done
run "queue 3: class 2 unbound" "${A[@]}" tc class change dev a0 \
	classid 4:2 ddl cgroup none

# sch-ddl-job binds a job on every queue: job 3 (class 4 of 4) in a cgroup
# of its own, declared 150 kB (mq-order.sh sends the jobs' traffic).
run "bind job 3" "${JOB[@]}" bind 3 --cgroup "$CG/j3" --size 150000
for q in 1 2 3 4; do
	expect_match "queue $q: job 3's class bound" \
		"$("${A[@]}" tc class show dev a0 classid $(( q + 1 )):4)" \
		"size 150000 cgroup [0-9]+"
done
run "unbind job 3" "${JOB[@]}" unbind 3
for q in 1 2 3 4; do
	expect_eq "queue $q: job 3's class unbound" \
		"$("${A[@]}" tc class show dev a0 classid $(( q + 1 )):4)" \
		"class ddl $(( q + 1 )):4 root weight 1 "
done

# sch-ddl@.service's stop removes mq with the queues' ddl.  ip netns
# exec: the unit looks for the device in /sys/class/net.
stop=$(sed -n 's/^ExecStop=//p' "$TESTS_DIR/../systemd/sch-ddl@.service")
run "the unit's ExecStop" eval "ip netns exec ddl-a ${stop//%I/a0}"
expect_eq "... no ddl left on a0" \
	"$("${A[@]}" tc qdisc show dev a0 | grep -c '^qdisc ddl')" 0

# A root ddl on the same device orders its one queue by mode fair, and so
# does one deeper in a tree (under prio under prio), whatever its queue.
run "root ddl" "${A[@]}" tc qdisc add dev a0 root handle 2: ddl
expect_eq "... in mode fair" "$(qstat -n ddl-a a0 2: options.mode)" fair
"${A[@]}" tc qdisc del dev a0 root
run "prio, prio, ddl" "${A[@]}" tc -batch - <<'EOF2'
qdisc add dev a0 root handle 1: prio
qdisc add dev a0 parent 1:1 handle 10: prio
qdisc add dev a0 parent 10:1 handle 20: ddl
EOF2
expect_eq "... in mode fair" "$(qstat -n ddl-a a0 20: options.mode)" fair
"${A[@]}" tc qdisc del dev a0 root
rmdir "$CG/j3" "$CG/other" "$CG"
done_testing
