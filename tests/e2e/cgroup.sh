#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Job classes bound to cgroups (class parameter cgroup) and sch-ddl-job:
# a process's packets go to the class bound to its cgroup, a child
# cgroup's too, and stop when it is unbound; a filter still comes first;
# bad bindings are refused with the old one intact; bind and unbind under
# traffic lose no packet.  ddl is the root of veth a0 in ddl-a.
# sch-ddl-job's bind, list and unbind are tested in run.sh, on the fast
# kernel: the same class changes as here, from a program that costs
# seconds to start on the debug kernel.
. "$(dirname "$0")/../lib.sh"

# nsenter, not ip netns exec: that mounts a sysfs of the namespace over
# /sys, which hides /sys/fs/cgroup.
A=(nsenter --net=/run/netns/ddl-a)
CG=/sys/fs/cgroup/ddltest
netns_pair

cpkts() { cfield "$(cstats -n ddl-a a0)" "10:$1" packets; }
ccg() { "${A[@]}" tc class show dev a0 classid "10:$1" | \
	sed -n 's/.* cgroup \([0-9]*\).*/\1/p'; }
qf() { qstat -n ddl-a a0 10: "$1"; }

mountpoint -q /sys/fs/cgroup || mount -t cgroup2 cgroup2 /sys/fs/cgroup
mkdir -p "$CG/jobA/step0" "$CG/jobB" "$CG/jobC"
ida=$(stat -c %i "$CG/jobA")

run "ddl root, 8 jobs, no key" "${A[@]}" tc qdisc add dev a0 root \
	handle 10: ddl jobs 8 key none
run "bind 10:3 to jobA by path" "${A[@]}" tc class change dev a0 \
	classid 10:3 ddl cgroup "$CG/jobA"
expect_eq "class shows the cgroup's id" "$(ccg 3)" "$ida"
expect_eq "cgroups_bound" "$(qf cgroups_bound)" 1

cg_burst "$CG/jobA" 7001 11
expect_eq "jobA's packets in 10:3" "$(cpkts 3)" 11
cg_burst "$CG/jobA/step0" 7002 7
expect_eq "a child cgroup's packets in 10:3 too" "$(cpkts 3)" 18
expect_eq "cls_cgroup counts them" "$(qf cls_cgroup)" 18
bg=$(cpkts ffff)
cg_burst "$CG/jobB" 7003 5
expect_eq "jobB (unbound) not in 10:3" "$(cpkts 3)" 18
expect_eq "jobB in the background" "$(( $(cpkts ffff) - bg ))" 5

# A filter comes before the cgroup.
run "u32 sport 7010 -> 10:5" "${A[@]}" tc filter add dev a0 parent 10: \
	protocol ip prio 1 u32 match ip sport 7010 0xffff flowid 10:5
cg_burst "$CG/jobA" 7010 4
expect_eq "filter before cgroup" "$(cpkts 5)" 4
expect_eq "... not in 10:3" "$(cpkts 3)" 18

# Refusals leave everything as it was.
run "weight 3 on 10:4" "${A[@]}" tc class change dev a0 classid 10:4 ddl \
	weight 3
expect_fail "one cgroup, two classes" "bound to another class" \
	"${A[@]}" tc class change dev a0 classid 10:4 ddl weight 5 \
	cgroup "$CG/jobA"
expect_eq "... 10:4 keeps weight 3 (all or nothing)" \
	"$(cfield "$(cstats -n ddl-a a0)" 10:4 options.weight)" 3
expect_eq "... 10:4 has no cgroup" "$(ccg 4)" ""
expect_eq "... 10:3 still bound" "$(ccg 3)" "$ida"
expect_fail "an id that is no cgroup" "No cgroup" \
	"${A[@]}" tc class change dev a0 classid 10:4 ddl cgroup 987654321
expect_fail "a directory that is no cgroup" "is no cgroup" \
	"${A[@]}" tc class change dev a0 classid 10:4 ddl cgroup /tmp
expect_fail "the background class" "has no cgroup" \
	"${A[@]}" tc class change dev a0 classid 10:ffff ddl cgroup "$CG/jobB"
expect_eq "cgroups_bound still 1" "$(qf cgroups_bound)" 1

# Rebinding moves it; unbinding stops it.
run "bind 10:3 to jobC instead" "${A[@]}" tc class change dev a0 \
	classid 10:3 ddl cgroup "$CG/jobC"
run "now jobA to 10:4" "${A[@]}" tc class change dev a0 classid 10:4 ddl \
	cgroup "$CG/jobA"
cg_burst "$CG/jobA" 7004 6
expect_eq "jobA's packets follow it to 10:4" "$(cpkts 4)" 6
run "unbind 10:4" "${A[@]}" tc class change dev a0 classid 10:4 ddl \
	cgroup none
cg_burst "$CG/jobA" 7005 3
expect_eq "unbound: no more in 10:4" "$(cpkts 4)" 6
expect_eq "cgroups_bound 1 (jobC)" "$(qf cgroups_bound)" 1
run "unbind 10:3" "${A[@]}" tc class change dev a0 classid 10:3 ddl \
	cgroup none

# A removed cgroup's id stops matching and is refused anew.
mkdir "$CG/gone"
idg=$(stat -c %i "$CG/gone")
run "bind 10:6 to a cgroup about to go" "${A[@]}" tc class change dev a0 \
	classid 10:6 ddl cgroup "$CG/gone"
rmdir "$CG/gone"
expect_fail "its id is refused once it is gone" "No cgroup" \
	"${A[@]}" tc class change dev a0 classid 10:7 ddl cgroup "$idg"
run "unbind 10:6" "${A[@]}" tc class change dev a0 classid 10:6 ddl \
	cgroup none

# Bind and unbind under traffic: 3000 datagrams at 20 Mbit/s (1.2 s) from
# jobA while class 10:2 is unbound and bound again, ten times per tc
# -batch (bound between two), until the sender is done; every datagram
# sent reaches ddl-b, some by the cgroup, some as background.
count_under_binds
for _ in 1 2 3 4 5 6 7 8 9 10; do
	echo "class change dev a0 classid 10:2 ddl cgroup none"
	echo "class change dev a0 classid 10:2 ddl cgroup $CG/jobA"
done >"$DDL_OUT/cg.flips"
drops0=$(qf drops)
bg0=$(qf cls_background)
send_under_binds cg_in "$CG/jobA" >"$DDL_OUT/cg.send" &
tx=$!
flips=0
while kill -0 "$tx" 2>/dev/null && [ $flips -lt 1000 ]; do
	"${A[@]}" tc -batch "$DDL_OUT/cg.flips" || break
	flips=$((flips + 10))
done
wait "$tx"
run "unbind 10:2" "${A[@]}" tc class change dev a0 classid 10:2 ddl \
	cgroup none
read -r _ sent _ dropped <"$DDL_OUT/cg.send"
expect_ge "bound and unbound under traffic" "$flips" 20
expect_eq "the sender sent $UNDER_BINDS, none refused" "$sent $dropped" \
	"$UNDER_BINDS 0"
expect_eq "all $UNDER_BINDS reached ddl-b" "$(b0_drained $UNDER_BINDS)" \
	$UNDER_BINDS
expect_eq "no drop in the qdisc" "$(qf drops)" "$drops0"
expect_ge "some went by the cgroup" "$(cpkts 2)" 1
expect_ge "some went as background" "$(qf cls_background)" $((bg0 + 1))

"${A[@]}" tc qdisc del dev a0 root
rmdir "$CG/jobA/step0" "$CG/jobA" "$CG/jobB" "$CG/jobC" "$CG" 2>/dev/null
done_testing
