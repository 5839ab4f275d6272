#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# e2e: fast
# Every scheduling option: its default, a good change, a bad value refused
# by the kernel with a message naming the option, which tc prints (tc
# itself refuses only what it cannot parse), the same through raw netlink,
# and the old configuration kept after every refusal.  Class weight and
# size likewise.
. "$(dirname "$0")/../lib.sh"

dummy_dev d0
run "add with defaults" tc qdisc add dev d0 root handle 1: ddl
opt() { qstat d0 1: "options.$1"; }
# opts NAME...: several options from one dump
opts() { qfields d0 1: "${@/#/options.}"; }
raw() { python3 -S "$TESTS_DIR/nlraw.py" d0 opts "$@" 2>&1; }
read -r v_jobs v_mode v_slice v_yield v_maxwait v_bgshare v_key v_keyttl \
	<<<"$(opts jobs mode slice yield maxwait bgshare key keyttl)"
expect_eq "default jobs" "$v_jobs" 16
expect_eq "default mode" "$v_mode" fair
expect_eq "default slice" "$v_slice" auto
expect_eq "default yield" "$v_yield" auto
expect_eq "default maxwait (us)" "$v_maxwait" 100000
expect_eq "default bgshare" "$v_bgshare" 3
expect_eq "default key" "$v_key" sport
expect_eq "default keyttl (ms)" "$v_keyttl" 1000
# With slice auto a yield is not compared with the slice, nor maxwait.
run "yield 40ms with slice auto" tc qdisc change dev d0 root handle 1: ddl \
	yield 40ms maxwait 1ms
expect_eq "yield 40ms, slice still auto" "$(opts slice yield)" "auto 40000"
expect_fail "explicit slice above maxwait refused" \
	'maxwait must be at least one slice' \
	tc qdisc change dev d0 root handle 1: ddl slice 2ms yield auto
expect_eq "config kept" "$(opts slice yield maxwait)" "auto 40000 1000"
run "back to the defaults" tc qdisc change dev d0 root handle 1: ddl \
	slice auto yield auto maxwait 100ms
expect_eq "auto again" "$(opts slice yield)" "auto auto"
expect_match "tc prints slice auto yield auto" "$(tc qdisc show dev d0)" \
	'slice auto yield auto'
expect_match "turn and turns_forced in the statistics" \
	"$(tc -s qdisc show dev d0)" 'turn 0ns turns_forced 0'
expect_eq "turn_ns in JSON" "$(qstat d0 1: turn_ns)" 0
expect_eq "17 classes" "$(tc class show dev d0 | grep -c '^class ddl')" 17

run "change everything but jobs" tc qdisc change dev d0 root handle 1: ddl \
	limit 500 mode green slice 30ms yield 2ms maxwait 1s bgshare 10% \
	key dscp keyttl 5s
conf() { opts limit mode slice yield maxwait bgshare key keyttl jobs; }
want="500 green 30000 2000 1000000 10 dscp 5000 16"
expect_eq "changed" "$(conf)" "$want"

# tc refuses what it cannot parse.
for bad in "mode fast" "slice soon" "bgshare -1" "key ip" "limit lots"; do
	expect_fail "tc refuses '$bad'" "Illegal \"${bad%% *}\"" \
		tc qdisc change dev d0 root handle 1: ddl $bad
done
# The kernel checks every range and names the option: tc prints its
# message (extack).
while IFS='|' read -r bad msg; do
	expect_fail "kernel refuses '$bad' (tc)" "^Error: $msg" \
		tc qdisc change dev d0 root handle 1: ddl $bad
done <<'EOF'
limit 0|limit must be between 1 and 1048576 packets
limit 1048577|limit must be between 1 and 1048576 packets
memory_limit 131071|memory_limit must be at least 128Kb
jobs 0|jobs must be between 1 and 4096
jobs 4097|jobs must be between 1 and 4096
slice 99us|slice must be auto or between 100us and 10s
slice 11s|slice must be auto or between 100us and 10s
yield 11s|yield must be auto or at most 10s
maxwait 999us|maxwait must be between 1ms and 60s
maxwait 61s|maxwait must be between 1ms and 60s
bgshare 51|bgshare must be at most 50%
keyttl 3601s|keyttl must be at most 3600s
rate 0|rate must be positive
rate 999bit|rate must be between 1kbit and 1Tbit
rate 1001gbit|rate must be between 1kbit and 1Tbit
burst 65mb|burst must be at most 64Mb
target 1025mb|target must be at most 1Gb
target 11s|target must be auto or at most 10s
interval 99us|interval must be between 100us and 10s
interval 11s|interval must be between 100us and 10s
lead 11s|lead must be auto or at most 10s
maxperiod 999us|maxperiod must be between 1ms and 60s
maxperiod 61s|maxperiod must be between 1ms and 60s
epoch 99us|epoch must be between 100us and 10s
epoch 11s|epoch must be between 100us and 10s
shuffle 9ms|shuffle must be off or between 10ms and 3600s
shuffle 3601s|shuffle must be off or between 10ms and 3600s
dscp 64|dscp takes at most 8 code points, each at most 63
dscp 1,2,3,4,5,6,7,8,9|dscp takes at most 8 code points, each at most 63
tiers 0|tiers takes at most 7 increasing sizes of 8 bytes, each between 1b and 1Tb
tiers 2kb,1kb|tiers takes at most 7 increasing sizes of 8 bytes, each between 1b and 1Tb
tiers 1kb,1kb|tiers takes at most 7 increasing sizes of 8 bytes, each between 1b and 1Tb
tiers 1025gb|tiers takes at most 7 increasing sizes of 8 bytes, each between 1b and 1Tb
tiers 1,2,3,4,5,6,7,8|tiers takes at most 7 increasing sizes of 8 bytes, each between 1b and 1Tb
EOF
# And every combination, against what is in force.
expect_fail "yield >= slice refused" 'yield must be shorter than the slice' \
	tc qdisc change dev d0 root handle 1: ddl yield 40ms
expect_fail "maxwait < slice refused" 'maxwait must be at least one slice' \
	tc qdisc change dev d0 root handle 1: ddl slice 2s
expect_fail "yield >= slice, both given, refused" \
	'yield must be shorter than the slice' \
	tc qdisc change dev d0 root handle 1: ddl slice 10ms yield 10ms
expect_fail "maxwait < slice, both given, refused" \
	'maxwait must be at least one slice' \
	tc qdisc change dev d0 root handle 1: ddl slice 20ms maxwait 10ms
expect_fail "lead of half maxperiod refused" \
	'lead must be shorter than half of maxperiod' \
	tc qdisc change dev d0 root handle 1: ddl rate 1gbit target 2ms \
	lead 1s maxperiod 2s
expect_fail "jobs cannot change" 'number of jobs is fixed' \
	tc qdisc change dev d0 root handle 1: ddl jobs 8
expect_eq "config kept after the refusals" "$(conf)" "$want"

# The kernel refuses on its own (raw netlink, no plugin): one python
# process sends the requests in turn, an answer per line.
mapfile -t ans < <(raw mode=5 / slice=99 / slice=10000001 / yield=10000001 / \
	maxwait=999 / bgshare=51 / key=5 / keyttl=3600001 / jobs=0 / \
	jobs=4097 / yield=30000 / maxwait=29999 / limit=7 slice=99)
expect_eq "kernel: 13 answers" "${#ans[@]}" 13
expect_match "kernel: mode 5" "${ans[0]}" 'error -34: Unknown mode$'
expect_match "kernel: slice 99" "${ans[1]}" \
	'error -34: slice must be auto or between 100us and 10s$'
expect_match "kernel: slice 10000001" "${ans[2]}" \
	'error -34: slice must be auto or between 100us and 10s$'
expect_match "kernel: yield 10000001" "${ans[3]}" \
	'error -34: yield must be auto or at most 10s$'
expect_match "kernel: maxwait 999" "${ans[4]}" \
	'error -34: maxwait must be between 1ms and 60s$'
expect_match "kernel: bgshare 51" "${ans[5]}" \
	'error -34: bgshare must be at most 50%$'
expect_match "kernel: key 5" "${ans[6]}" 'error -34: Unknown key$'
expect_match "kernel: keyttl 3600001" "${ans[7]}" \
	'error -34: keyttl must be at most 3600s$'
expect_match "kernel: jobs 0" "${ans[8]}" \
	'error -34: jobs must be between 1 and 4096$'
expect_match "kernel: jobs 4097" "${ans[9]}" \
	'error -34: jobs must be between 1 and 4096$'
expect_match "kernel: yield = slice" "${ans[10]}" \
	'error -22: .*yield must be shorter than the slice'
expect_match "kernel: maxwait < slice" "${ans[11]}" \
	'error -22: .*maxwait must be at least one slice'
expect_match "kernel: one bad attribute spoils the message" \
	"${ans[12]}" 'error -34'
expect_eq "config kept after kernel refusals" "$(conf)" "$want"
expect_match "raw change works" "$(raw limit=7 slice=40000)" 'ack 0'
expect_eq "raw change applied" "$(opts limit slice)" "7 40000"
expect_match "yield 0 disables yielding" "$(raw yield=0)" 'ack 0'
expect_match "tc prints yield 0" "$(tc qdisc show dev d0)" 'yield 0'
expect_match "kernel: slice auto" "$(raw slice=4294967295)" 'ack 0'
expect_eq "raw slice auto applied" "$(opt slice)" auto

# Class weight.
cw() { cfield "$(cstats d0)" "1:$1" options.weight; }
expect_eq "default weight" "$(cw 3)" 1
run "weight 4" tc class change dev d0 parent 1: classid 1:3 ddl weight 4
expect_eq "weight changed" "$(cw 3)" 4
expect_fail "tc refuses weight x" 'Illegal "weight"' \
	tc class change dev d0 parent 1: classid 1:3 ddl weight x
expect_fail "kernel refuses weight 0 (tc)" \
	'^Error: weight must be between 1 and 256' \
	tc class change dev d0 parent 1: classid 1:3 ddl weight 0
expect_fail "kernel refuses weight 257 (tc)" \
	'^Error: weight must be between 1 and 256' \
	tc class change dev d0 parent 1: classid 1:3 ddl weight 257
expect_fail "kernel refuses size 2tb (tc)" \
	'^Error: size must be at most 1Tb' \
	tc class change dev d0 parent 1: classid 1:3 ddl size 2tb
expect_match "kernel refuses weight 0" \
	"$(python3 -S "$TESTS_DIR/nlraw.py" d0 class 1:3 weight=0 2>&1)" \
	'error -34: weight must be between 1 and 256$'
expect_match "kernel refuses weight 257" \
	"$(python3 -S "$TESTS_DIR/nlraw.py" d0 class 1:3 weight=257 2>&1)" \
	'error -34: weight must be between 1 and 256$'
expect_fail "background has no weight" 'background class is never green' \
	tc class change dev d0 parent 1: classid 1:ffff ddl weight 2
expect_fail "no new classes" 'classes are fixed' \
	tc class add dev d0 parent 1: classid 1:99 ddl weight 2
# The tc core refuses without a word where a qdisc has no class delete.
expect_fail "class delete refused with the reason" 'classes are fixed' \
	tc class del dev d0 parent 1: classid 1:3
expect_eq "weight kept" "$(cw 3)" 4

# jobs at the edges
dummy_dev d1
run "jobs 1" tc qdisc add dev d1 root handle 2: ddl jobs 1
expect_eq "jobs 1: two classes" "$(tc class show dev d1 | grep -c '^class ddl')" 2
run "replace with jobs 4096" tc qdisc replace dev d1 root handle 3: ddl jobs 4096
expect_eq "4097 classes" "$(tc class show dev d1 | grep -c '^class ddl')" 4097
run "delete" tc qdisc del dev d1 root

done_testing
