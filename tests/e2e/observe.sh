#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Observability: module parameters (the defaults of a new instance), the
# debugfs directory of an instance (name, permissions, rename, namespace,
# content against tc -s), tracepoints during a rotation scenario, the burst
# histogram, the exporter, and reads racing qdisc and device deletes.
# e2e: smp
# (make check runs it on the fast kernel, whose second CPU its readers
# race on; make check-debug on the debug kernel too.)
. "$(dirname "$0")/../lib.sh"

P=/sys/module/sch_ddl/parameters
DBG=/sys/kernel/debug/sch_ddl
TR=/sys/kernel/tracing
T=$(mktemp -d)

# Module parameters
expect_eq "param jobs default" "$(cat $P/jobs)" 16
expect_eq "param slice default" "$(cat $P/slice)" auto
expect_eq "param yield default" "$(cat $P/yield)" auto
expect_eq "param key default" "$(cat $P/key)" sport
expect_eq "param maxwait default" "$(cat $P/maxwait)" 100000
expect_eq "param debugfs is read-only" "$(stat -c %a $P/debugfs)" 444
expect_eq "param jobs is root-writable" "$(stat -c %a $P/jobs)" 644
# bash, not dash: dash says "I/O error" for every failed write.
setp() { bash -c "echo $2 >$P/$1"; }
BAD='Invalid argument|out of range|Permission denied'

run "param jobs 8" setp jobs 8
run "param key dport" setp key dport
run "param slice 2000" setp slice 2000
expect_eq "param memory_limit default" "$(cat $P/memory_limit)" 33554432
run "param memory_limit 1048576" setp memory_limit 1048576
expect_fail "param memory_limit below 128Kb refused" "$BAD" \
	setp memory_limit 131071
expect_fail "param jobs 0 refused" "$BAD" setp jobs 0
expect_fail "param jobs 4097 refused" "$BAD" setp jobs 4097
expect_fail "param jobs abc refused" "$BAD" setp jobs abc
expect_fail "param slice 50 refused" "$BAD" setp slice 50
expect_fail "param yield >= slice refused" "$BAD" setp yield 2000
expect_fail "param maxwait < slice refused" "$BAD" setp maxwait 1000
expect_fail "param key ip refused" "$BAD" setp key ip
expect_fail "param debugfs cannot change" "$BAD" setp debugfs 0
expect_eq "params kept after refusals" \
	"$(cat $P/jobs $P/key $P/slice $P/yield $P/maxwait | xargs)" \
	"8 dport 2000 auto 100000"

dummy_dev d0
ip addr add 198.18.5.1/24 dev d0
run "add ddl with the module's defaults" tc qdisc add dev d0 root handle 1: ddl
expect_eq "new instance: jobs, key, slice from the parameters" \
	"$(qfields d0 1: options.jobs options.key options.slice)" "8 dport 2000"
expect_eq "new instance: memory_limit from its parameter" \
	"$(qstat d0 1: options.memory_limit)" 1048576
run "param memory_limit back to 32Mb" setp memory_limit 33554432
expect_eq "9 classes" "$(tc class show dev d0 | grep -c '^class ddl')" 9
run "params back to the defaults" sh -c "echo auto >$P/slice &&
	echo 16 >$P/jobs && echo sport >$P/key"
expect_eq "the existing instance keeps its configuration" \
	"$(qfields d0 1: options.jobs options.key options.slice)" "8 dport 2000"
expect_eq "new instance: memory_limit from its parameter" \
	"$(qstat d0 1: options.memory_limit)" 1048576
run "param memory_limit back to 32Mb" setp memory_limit 33554432
run "delete" tc qdisc del dev d0 root
run "add again" tc qdisc add dev d0 root handle 1: ddl
expect_eq "new instance: 16 jobs, key sport, slice auto" \
	"$(qfields d0 1: options.jobs options.key options.slice)" "16 sport auto"

# The debugfs directory
D=$DBG/d0-1:
expect_eq "debugfs directory d0-1:" "$(test -d "$D" && echo yes)" yes
expect_eq "debugfs files" "$(cd "$D" && ls | xargs)" \
	"bursts classes config histogram pace turns"
expect_eq "debugfs files 0400 root" \
	"$(stat -c '%a %U' "$D"/* | sort -u | xargs)" "400 root"
expect_eq "config: jobs, mode, slice, key" \
	"$(awk '$1 ~ /^(jobs|mode|slice_us|key)$/ {print $2}' "$D/config" | xargs)" \
	"16 fair auto sport"
expect_eq "classes: a header and 17 classes" "$(wc -l <"$D/classes")" 18
if grep -qE '(^| )ffff[0-9a-f]{12}' "$D"/*; then
	fail "debugfs: no kernel pointers"
else
	ok "debugfs: no kernel pointers"
fi

run "rename d0 to d9" sh -c "ip link set d0 down && ip link set d0 name d9"
expect_eq "renamed: d9-1: there, d0-1: gone" \
	"$(test -d $DBG/d9-1: && echo yes) $(test -e $DBG/d0-1: || echo gone)" \
	"yes gone"
run "rename back" sh -c "ip link set d9 name d0 && ip link set d0 up"
expect_eq "d0-1: again" "$(test -f "$D/config" && echo yes)" yes
run "delete" tc qdisc del dev d0 root
expect_eq "directory gone with the qdisc" "$(test -e "$D" || echo gone)" gone

netns_pair
run "ddl in namespace ddl-a" tc -n ddl-a qdisc add dev a0 root handle 10: ddl
inum=$(ip netns exec ddl-a stat -L -c %i /proc/self/ns/net)
expect_eq "namespace: a0-10:-ns$inum" \
	"$(test -f "$DBG/a0-10:-ns$inum/config" && echo yes)" yes
ip netns delete ddl-a
expect_eq "netns deleted: directory gone" \
	"$(wait_for 20 sh -c "! test -e '$DBG/a0-10:-ns$inum'" && echo gone)" gone
ip netns delete ddl-b

# Rotation scenario: two jobs send 5 KB bursts every 200 ms for 3 s
# through a 1 Mbit/s shaper (40 ms per burst, 8 ms per packet: slower
# than python sends, even on the debug kernel): green changes, bursts
# complete, the shaper holds the queue.
mountpoint -q $TR || mount -t tracefs nodev $TR
echo 0 >$TR/tracing_on
echo >$TR/trace
echo 1 >$TR/events/sch_ddl/enable
echo 1 >$TR/tracing_on
run "ddl 4 jobs, rate 1mbit" tc qdisc add dev d0 root handle 1: ddl jobs 4 \
	mode rotate rate 1mbit
for sp in 7001 7002; do
	python3 -S "$TESTS_DIR/traffic.py" udp-flood 198.18.5.2 9 $sp 3 1000 5 200 \
		>/dev/null &
done
wait
sleep 1	# every job quiet for longer than the burst gap
qs=$(snap d0)
cs=$(cstats d0)
cp "$D/classes" "$D/histogram" "$D/bursts" "$D/turns" "$D/pace" "$T/"
echo 0 >$TR/tracing_on
cp $TR/trace "$T/trace"
echo 0 >$TR/events/sch_ddl/enable

bursts=$(sfield "$qs" 1: bursts)
expect_ge "bursts seen (2 jobs x 15, some may merge)" "$bursts" 10
tot_done=0
for j in 1 2; do
	row=$(awk -v j=$j '$1 == j' "$T/classes")
	read -r _ _ _ _ _ bg by _ _ _ _ b d p50 p99 mx _ <<<"$row"
	expect_eq "job $j: every burst completed (bursts_done = bursts)" \
		"$(cfield "$cs" 1:$j bursts_done)" "$(cfield "$cs" 1:$j bursts)"
	expect_eq "job $j: histogram counts every burst" \
		"$(( $(cfield "$cs" 1:$j burst_hist | tr ' ' +) ))" \
		"$(cfield "$cs" 1:$j bursts_done)"
	expect_eq "job $j: debugfs classes = tc -s (bytes, bursts, quantiles)" \
		"$bg $by $b $d $p50 $p99 $mx" \
		"$(for f in bytes_green bytes_yellow bursts bursts_done \
			burst_p50_us burst_p99_us burst_max_us; do
			cfield "$cs" 1:$j $f; done | xargs)"
	read -r -a cols <<<"$row"
	expect_eq "job $j: debugfs memory, drop_overmemory = tc -s" \
		"${cols[16]} ${cols[17]}" \
		"$(cfield "$cs" 1:$j memory_used) $(cfield "$cs" 1:$j drop_overmemory)"
	expect_eq "job $j: debugfs histogram = tc burst_hist" \
		"$(awk -v j=$j '$1 == j {for (i = 7; i <= NF; i++) printf "%s ", $i}' \
			"$T/histogram" | xargs)" \
		"$(cfield "$cs" 1:$j burst_hist)"
	expect_eq "job $j: sum_us = tc burst_sum_us" \
		"$(awk -v j=$j '$1 == j {print $6}' "$T/histogram")" \
		"$(cfield "$cs" 1:$j burst_sum_us)"
	# How long the bursts took depends on how fast python sent them: only
	# the order of the estimates is certain.
	if [ "$p50" -le "$p99" ] && [ "$p99" -le "$mx" ]; then
		ok "job $j: p50 <= p99 <= max ($p50 $p99 $mx us)"
	else
		fail "job $j: p50 <= p99 <= max ($p50 $p99 $mx us)"
	fi
	expect_eq "job $j: bursts file keeps the last 4" \
		"$(awk -v j=$j '$1 == j && $4 == $3 - $2 && $5 > 0' "$T/bursts" | wc -l)" \
		"$(( d < 4 ? d : 4 ))"
	tot_done=$(( tot_done + d ))
done
# The first green is the only start: green never goes back to none.
expect_eq "turns file: the first green, rotations and yields" \
	"$(awk '$1 == "turns" {print $2}' "$T/turns")" \
	"$(( $(sfield "$qs" 1: rotations) + $(sfield "$qs" 1: yields) + 1 ))"
expect_ge "turns file: green changed" "$(grep -cE ' (slice|yield)$' "$T/turns")" 1
expect_eq "pace: rate in bytes/s" "$(awk '$1 == "rate" {print $2}' "$T/pace")" \
	125000
expect_eq "pace: throttles = tc -s" \
	"$(awk '$1 == "throttles" {print $2}' "$T/pace")" \
	"$(sfield "$qs" 1: throttles)"

# Tracepoints, with their fields
tp() { grep -cE "$1: dev=d0 handle=1: $2" "$T/trace"; }
expect_eq "trace: a burst_start per burst" "$(tp ddl_burst_start 'job=[12] ')" \
	"$bursts"
expect_eq "trace: a burst_end per completed burst" \
	"$(tp ddl_burst_end 'job=[12] start=[0-9]+ duration_ns=[0-9]+ bytes=[1-9]')" \
	"$tot_done"
expect_eq "trace: a turn per green change" \
	"$(tp ddl_turn 'from=[0-9a-f]+ to=[12] why=(start|slice|yield)')" \
	"$(awk '$1 == "turns" {print $2}' "$T/turns")"

# Drops with their reason: a limit of 5 packets against a burst of 40.
echo >$TR/trace
echo 1 >$TR/events/sch_ddl/ddl_drop/enable
echo 1 >$TR/events/sch_ddl/ddl_throttle/enable
echo 1 >$TR/tracing_on
run "limit 5" tc qdisc change dev d0 root handle 1: ddl limit 5
python3 -S "$TESTS_DIR/traffic.py" udp-burst 198.18.5.2 9 7003 40 1000 >/dev/null
echo 0 >$TR/tracing_on
echo 0 >$TR/events/sch_ddl/ddl_drop/enable
echo 0 >$TR/events/sch_ddl/ddl_throttle/enable
cp $TR/trace "$T/trace"
ovl=$(qstat d0 1: drop_overlimit)
expect_ge "overlimit drops" "$ovl" 1
expect_eq "trace: a drop event per overlimit drop" \
	"$(tp ddl_drop 'class=[0-9a-f]+ len=1042 why=overlimit')" "$ovl"
# The queue was full, so the shaper held it.
expect_ge "trace: the shaper throttled" \
	"$(tp ddl_throttle 'qlen=[0-9]+ backlog=[0-9]+ wait_ns=[0-9]+')" 1

# The exporter: node_exporter textfile format from the same qdisc.
out=$("$TESTS_DIR/../sbin/sch-ddl-exporter" 2>&1)
rc=$?
expect_eq "exporter runs" "$rc" 0
printf '%s\n' "$out" >"$T/ddl.prom"
expect_match "exporter: format and names" \
	"$(python3 -S "$TESTS_DIR/prom_check.py" "$T/ddl.prom" 2>&1)" '^valid [0-9]+ samples$'
expect_eq "exporter: job 1 bursts completed = tc" \
	"$(grep -E '^sch_ddl_class_burst_duration_seconds_count\{dev="d0",handle="1:",parent="root",class="1:1"\} ' "$T/ddl.prom" | awk '{print $2}')" \
	"$(cfield "$(cstats d0)" 1:1 bursts_done)"
expect_eq "exporter: drops overlimit = tc" \
	"$(grep -E '^sch_ddl_drop_overlimit_total\{dev="d0",handle="1:",parent="root"\} ' "$T/ddl.prom" | awk '{print $2}')" \
	"$ovl"
run "exporter writes a file atomically" "$TESTS_DIR/../sbin/sch-ddl-exporter" \
	-o "$T/out.prom"
expect_eq "exporter file = stdout (same counters)" \
	"$(grep -c '^sch_ddl_' "$T/out.prom")" "$(grep -c '^sch_ddl_' "$T/ddl.prom")"
run "delete" tc qdisc del dev d0 root

# Reads racing deletes: readers loop over the files while the qdisc is
# changed, deleted and re-added, and while its device goes away.
if [ "$DDL_DEBUG_KERNEL" = 1 ]; then rounds=6; else rounds=24; fi
reader() {
	while :; do cat "$DBG"/*/* >/dev/null 2>&1; done
}
reader & r1=$!
reader & r2=$!
gone=0
for ((i = 0; i < rounds; i++)); do
	tc qdisc add dev d0 root handle 1: ddl jobs 64 rate 1gbit
	tc qdisc change dev d0 root handle 1: ddl limit 100
	tc qdisc del dev d0 root
	[ -e "$D" ] || gone=$(( gone + 1 ))
done
for ((i = 0; i < rounds / 3; i++)); do
	ip link add d5 type dummy
	tc qdisc add dev d5 root handle 2: ddl
	ip link del d5
	[ -e "$DBG/d5-2:" ] || gone=$(( gone + 1 ))
done
kill $r1 $r2
wait $r1 $r2 2>/dev/null
expect_eq "race: every directory went with its qdisc or device" "$gone" \
	$(( rounds + rounds / 3 ))
expect_eq "race: no directory left" "$(ls $DBG | wc -l)" 0

done_testing
