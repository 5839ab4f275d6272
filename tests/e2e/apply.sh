#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# e2e: fast
# sch-ddl-apply, all or nothing, on a live veth under job traffic: a file
# applied, then a reload that fails at each of its commands in turn
# (SCH_DDL_APPLY_FAULT): every time the previous configuration is in force
# again, exactly as the kernel dumped it (options, classes, filters), and
# no job packet is lost.  Then the reload for real, a file the kernel
# refuses (its line named, the device untouched), and a first apply that
# fails after the qdisc was replaced: the device's default qdisc is back.
. "$(dirname "$0")/../lib.sh"

T=$(mktemp -d)
A=(nsenter --net=/run/netns/ddl-a)
apply=$TESTS_DIR/../sbin/sch-ddl-apply
netns_pair

cat >"$T/one.conf" <<'EOF'
# the first configuration
qdisc root handle 1: ddl jobs 4 limit 5000 rate 40mbit dscp 46,34,26,10 shuffle 1s tiers 1mb
class 1:1 ddl weight 2
class 1:2 ddl weight 3
filter parent 1: protocol ip u32 match ip sport 5001 0xffff classid 1:1
filter parent 1: protocol ip u32 match ip sport 5002 0xffff classid 1:2
EOF
cat >"$T/two.conf" <<'EOF'
qdisc root handle 1: ddl jobs 4 limit 6000 memory_limit 8Mb rate 40mbit dscp 46,34,26,10 shuffle 1s tiers 2mb,8mb
class 1:1 ddl weight 5
class 1:2 ddl weight 1 size 1000000
filter parent 1: protocol ip u32 match ip sport 5001 0xffff classid 1:2
filter parent 1: protocol ip u32 match ip sport 5002 0xffff classid 1:1
filter parent 1: protocol ip u32 match ip sport 5003 0xffff classid 1:3
EOF

# state: everything the kernel holds of the configuration
state() {
	tc -n ddl-a -j qdisc show dev a0 root |
		sed 's/"refcnt":[0-9]*,//'
	tc -n ddl-a class show dev a0
	tc -n ddl-a filter show dev a0 parent 1:
}

run "apply the first file" "${A[@]}" "$apply" -f "$T/one.conf" a0
expect_eq "limit applied" "$(qstat -n ddl-a a0 1: options.limit)" 5000
c=$(cstats -n ddl-a a0)
expect_eq "class 1:2 weight" "$(cfield "$c" 1:2 options.weight)" 3
expect_eq "two filters" "$(tc -n ddl-a filter show dev a0 parent 1: |
	grep -c "flowid 1:")" 2
one=$(state)

# Two jobs, bursts that queue at 40 Mbit/s, while the reloads fail.  Each
# job's packets are counted as they reach b0, by a u32 filter on its
# ingress: a python receiver on a loaded two-CPU guest falls behind and
# overflows its socket, which is no loss of ours.
tc -n ddl-b qdisc add dev b0 clsact
for j in 1 2; do
	tc -n ddl-b filter add dev b0 ingress pref $j protocol ip u32 \
		match ip dport 900$j 0xffff action ok
done
start_sink "$T/sink.json" 9001,9002 120 || fail "sink"
for j in 1 2; do
	"${A[@]}" python3 -S "$TESTS_DIR/traffic.py" udp-flood 198.18.0.2 \
		900$j 500$j 25 1000 40 20 >"$T/sent.$j" &
done
sleep 2

# plan: qdisc change, 2 class changes, 3 filters added: 6 commands.
for k in 1 2 3 4 5 6; do
	out=$(SCH_DDL_APPLY_FAULT=$k "${A[@]}" "$apply" -f "$T/two.conf" a0 2>&1)
	rc=$?
	expect_eq "fault at command $k: refused" "$rc" 1
	expect_match "fault at command $k: rolled back" "$out" \
		"two.conf:[0-9]+: .*rolled back: the previous configuration"
	expect_eq "fault at command $k: the old configuration, exactly" \
		"$(state)" "$one"
	sleep 0.5
done

run "apply the second file" "${A[@]}" "$apply" -f "$T/two.conf" a0
expect_eq "limit changed" "$(qstat -n ddl-a a0 1: options.limit)" 6000
expect_eq "tiers changed" "$(qstat -n ddl-a a0 1: options.tiers)" \
	"2097152 8388608"
expect_eq "memory_limit changed" \
	"$(qstat -n ddl-a a0 1: options.memory_limit)" 8388608
c=$(cstats -n ddl-a a0)
expect_eq "class 1:1 weight" "$(cfield "$c" 1:1 options.weight)" 5
expect_eq "class 1:2 size" "$(cfield "$c" 1:2 size)" 1000000
f=$(tc -n ddl-a filter show dev a0 parent 1:)
expect_eq "three filters, the new set only" "$(grep -c "flowid 1:" <<<"$f")" 3
expect_eq "at 2001..2003" "$(grep -o 'pref [0-9]*' <<<"$f" | sort -u |
	tr '\n' ' ')" "pref 2001 pref 2002 pref 2003 "

wait
s=$(snap -n ddl-a a0)
expect_eq "no packet dropped" "$(sfield "$s" 1: drops)" 0
for j in 1 2; do
	read -r _ sent <"$T/sent.$j"
	got=$(tc -n ddl-b -s filter show dev b0 ingress pref $j |
		awk '/Sent/ { print $4; exit }')
	expect_eq "job $j: every packet arrived" "$got" "$sent"
done

# A file the kernel refuses: its line, and the device as it was.
two=$(state)
printf 'qdisc root handle 1: ddl jobs 4\nclass 1:9 ddl weight 2\n' >"$T/bad.conf"
expect_fail "a refused class line is named" "bad.conf:2: " \
	"${A[@]}" "$apply" -f "$T/bad.conf" a0
expect_eq "refused: the device untouched" "$(state)" "$two"

# A first apply that fails after the qdisc was replaced.
tc -n ddl-a qdisc del dev a0 root
def=$(state)
out=$(SCH_DDL_APPLY_FAULT=2 "${A[@]}" "$apply" -f "$T/one.conf" a0 2>&1)
expect_match "replace then fault: rolled back" "$out" "rolled back"
expect_eq "replace then fault: the default qdisc again" "$(state)" "$def"


rm -rf "$T"
done_testing
