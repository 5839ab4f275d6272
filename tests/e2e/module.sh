#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The module cannot go while a ddl qdisc uses it, unloads cleanly after,
# and tc loads it again through its alias; its parameters at load time.
. "$(dirname "$0")/../lib.sh"

loaded() { grep -q '^sch_ddl ' /proc/modules; }

ko=$DDL_KMOD/sch_ddl.ko
expect_match "alias net-sch-ddl" "$(modinfo -F alias "$ko")" '^net-sch-ddl$'
expect_eq "license" "$(modinfo -F license "$ko")" GPL
dummy_dev d0
netns_pair
run "add on dummy" tc qdisc add dev d0 root ddl
run "add on veth in a namespace" tc -n ddl-a qdisc add dev a0 root ddl
expect_fail "unload refused while in use" 'in use|Resource temporarily' \
	rmmod sch_ddl
expect_eq "module still loaded" "$(loaded && echo yes)" yes
run "delete on dummy" tc qdisc del dev d0 root
expect_fail "unload refused while one qdisc remains" 'in use' rmmod sch_ddl
run "delete namespace" ip netns del ddl-a
wait_for 10 sh -c '! nsenter --net=/run/netns/ddl-b ip link show b0 >/dev/null 2>&1'
run "unload after delete" wait_for 10 rmmod sch_ddl
expect_eq "module gone" "$(loaded && echo yes || echo no)" no
run "tc add autoloads sch_ddl" tc qdisc add dev d0 root ddl limit 9
expect_eq "module back" "$(loaded && echo yes || echo no)" yes
expect_eq "autoloaded qdisc works" "$(qstat d0 root options.limit)" 9
run "delete" tc qdisc del dev d0 root
run "unload again" rmmod sch_ddl

# Parameters at load time: checked, and the defaults of new instances.
expect_fail "insmod jobs=0 refused" 'Invalid|out of range|Numerical' \
	insmod "$ko" jobs=0
expect_eq "not loaded" "$(loaded && echo yes || echo no)" no
run "insmod jobs=4 debugfs=N" insmod "$ko" jobs=4 debugfs=N
run "add with the defaults" tc qdisc add dev d0 root handle 1: ddl
expect_eq "jobs from the parameter" "$(qstat d0 1: options.jobs)" 4
expect_eq "debugfs=N: no directory" \
	"$(test -e /sys/kernel/debug/sch_ddl || echo none)" none
run "delete" tc qdisc del dev d0 root
run "unload" rmmod sch_ddl

done_testing
