#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Who may do what: without CAP_NET_ADMIN in the device's netns every change
# is refused and the configuration stays; an admin in a user namespace
# changes its own netns's qdiscs only; debugfs is root's and prints no
# kernel pointers; the memory an instance takes is bounded by its jobs.
. "$(dirname "$0")/../lib.sh"

dummy_dev d0
run "root adds ddl" tc qdisc add dev d0 root handle 1: ddl jobs 4 limit 100
want=$(tc qdisc show dev d0)
nobody() { setpriv --reuid=65534 --regid=65534 --clear-groups \
	--inh-caps=-all --bounding-set=-all "$@"; }
PERM='Operation not permitted'
expect_fail "no CAP_NET_ADMIN: change refused" "$PERM" \
	nobody tc qdisc change dev d0 root ddl limit 5
expect_fail "no CAP_NET_ADMIN: replace refused" "$PERM" \
	nobody tc qdisc replace dev d0 root handle 2: ddl
expect_fail "no CAP_NET_ADMIN: class change refused" "$PERM" \
	nobody tc class change dev d0 parent 1: classid 1:2 ddl weight 3
expect_fail "no CAP_NET_ADMIN: delete refused" "$PERM" \
	nobody tc qdisc del dev d0 root
expect_match "no CAP_NET_ADMIN: raw netlink change refused" \
	"$(nobody python3 -S "$TESTS_DIR/nlraw.py" d0 limit 7 2>&1)" '^error -1:'
expect_eq "no CAP_NET_ADMIN: reading is allowed" \
	"$(nobody tc qdisc show dev d0)" "$want"
expect_eq "the configuration is as before" "$(tc qdisc show dev d0)" "$want"
expect_eq "class weight as before" \
	"$(tc class show dev d0 classid 1:2 | grep -o 'weight [0-9]*')" "weight 1"

if unshare -U -r true 2>/dev/null; then
	# An unprivileged user makes a user namespace and is its root.
	expect_fail "userns admin: init netns's qdisc refused" "$PERM" \
		nobody unshare -U -r tc qdisc change dev d0 root ddl limit 5
	expect_eq "init netns's configuration kept" "$(tc qdisc show dev d0)" \
		"$want"
	out=$(nobody unshare -U -r -n sh -c '
		ip link add u0 type dummy && ip link set u0 up &&
		tc qdisc add dev u0 root handle 1: ddl jobs 2 limit 77 &&
		tc class change dev u0 parent 1: classid 1:1 ddl weight 9 &&
		tc qdisc change dev u0 root ddl limit 78 &&
		tc qdisc show dev u0 && tc class show dev u0 classid 1:1' 2>&1)
	expect_match "userns admin: its own netns's ddl: add, change" "$out" \
		'^qdisc ddl 1: root .*limit 78p memory_limit 32Mb jobs 2 '
	expect_match "userns admin: its own netns's class weight" "$out" \
		'weight 9'
else
	echo "skip - user namespaces: this kernel has no CONFIG_USER_NS (the debug kernel has)"
fi

# Debugfs: root-only files, no kernel pointers in what they print.
dir=/sys/kernel/debug/sch_ddl/d0-1:
expect_eq "debugfs files are 0400 root" \
	"$(stat -c '%a %U' "$dir"/* | sort -u | xargs)" "400 root"
expect_fail "debugfs unreadable without root" 'Permission denied' \
	nobody cat "$dir/config"
tc qdisc replace dev d0 root handle 1: ddl jobs 4 rate 10mbit target 2ms \
	lead 5ms
flood d0 50 300 >/dev/null
all=$(cat "$dir"/* 2>&1)
expect_eq "debugfs prints no kernel pointer" \
	"$(grep -ciE '(0x)?ffff[0-9a-f]{12}' <<<"$all")" 0
run "debugfs printed every file" test "$(wc -l <<<"$all")" -gt 20

# Memory: the largest instance (4096 jobs), measured as slab and vmalloc.
mem() { awk '/^(Slab|VmallocUsed):/ { s += $2 } END { print s }' /proc/meminfo; }
tc qdisc del dev d0 root
sync
m0=$(mem)
run "4096 jobs" tc qdisc add dev d0 root handle 1: ddl jobs 4096
m1=$(mem)
tc qdisc del dev d0 root
echo "# memory of a 4096-job instance: $(( m1 - m0 )) kB (slab + vmalloc)"
expect_ge "a 4096-job instance takes under 16 MB" $(( 16384 - (m1 - m0) )) 0

done_testing
