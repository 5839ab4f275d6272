#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# e2e: fast
# sch-ddl-job on real cgroups.  run: the command runs in the job's own
# cgroup (/sys/fs/cgroup/sch-ddl/job-JOB), bound to its class with its
# size and weight, its packets in that class; its status comes back, and
# the class and the cgroup are gone after it, also when the wrapper got
# SIGTERM.  After a SIGKILL of the wrapper, gc leaves the cgroup while the
# command lives and removes it and the binding once it is gone.  bind
# binds a cgroup, refuses a collision, lists and unbinds (the kernel's
# side of cgroup binding: cgroup.sh, on the debug kernel).  A bind under
# ip netns exec (a fresh /sys) says to use nsenter.  ddl is the root
# of veth a0 in ddl-a.
. "$(dirname "$0")/../lib.sh"

A=(nsenter --net=/run/netns/ddl-a)
JOB=("${A[@]}" "$TESTS_DIR/../sbin/sch-ddl-job")
ROOT=/sys/fs/cgroup/sch-ddl
netns_pair
mountpoint -q /sys/fs/cgroup || mount -t cgroup2 cgroup2 /sys/fs/cgroup

cpkts() { cfield "$(cstats -n ddl-a a0)" "10:$1" packets; }
cline() { tc -n ddl-a class show dev a0 classid "10:$1"; }
qf() { qstat -n ddl-a a0 10: "$1"; }
populated() { grep -q 'populated 1' "$1/cgroup.events"; }
bound() { matches "$(cline "$1")" "cgroup"; }

run "ddl root, 8 jobs, no key" tc -n ddl-a qdisc add dev a0 root \
	handle 10: ddl jobs 8 key none

# Job 42 of 8 classes: 10:3.  The command looks at its class and cgroup,
# sends 9 datagrams and exits 7.
# shellcheck disable=SC2016
out=$("${JOB[@]}" run 42 --size 3g --weight 2 -- sh -c '
	tc class show dev a0 classid 10:3 >"$1/run-class.txt"
	stat -c %i "$2/job-42" >"$1/run-cg.txt"
	cat /proc/self/cgroup >"$1/run-self.txt"
	python3 -S "$3/traffic.py" udp-burst 198.18.0.2 9999 7001 9 200 \
		>/dev/null
	exit 7' sh "$DDL_OUT" "$ROOT" "$TESTS_DIR" 2>&1)
expect_eq "run: the command's status" "$?" 7
expect_eq "run: in the job's cgroup" "$(cat "$DDL_OUT/run-self.txt")" \
	"0::/sch-ddl/job-42"
expect_match "run: 10:3 held weight 2, 3g (3221225472 bytes), its cgroup" \
	"$(cat "$DDL_OUT/run-class.txt")" \
	"weight 2 size 3221225472 cgroup $(cat "$DDL_OUT/run-cg.txt")"
expect_eq "run: its 9 packets in 10:3" "$(cpkts 3)" 9
expect_eq "run: 10:3 unbound after" "$(matches "$(cline 3)" \
	"size|cgroup" && echo bound)" ""
expect_eq "run: nothing bound" "$(qf cgroups_bound)" 0
expect_eq "run: the cgroup removed" "$([ -e "$ROOT/job-42" ] && echo left)" ""
expect_match "run: said what it did" "$out" "bound job 42 to class 10:3"
# A command's output (ddl-bench's records, say) is its own: run speaks on
# stderr.
expect_eq "run: standard output is the command's alone" \
	"$("${JOB[@]}" run 44 -- echo hello 2>/dev/null)" hello

# SIGTERM to the wrapper reaches the command; run cleans up.  (The
# command stops its sleep: a process left in the cgroup keeps the job
# bound, for gc.)
# shellcheck disable=SC2016
"${JOB[@]}" run 43 -- sh -c 'sleep 30 & s=$!
	trap "kill \$s; exit 9" TERM; wait' &
w=$!
wait_for 20 test -e "$ROOT/job-43/cgroup.procs"
wait_for 20 bound 4
expect_match "run 43 bound to 10:4" "$(cline 4)" "cgroup [0-9]+"
sleep 0.5
kill -TERM "$w"
wait "$w"
expect_eq "run, SIGTERM: the command's status" "$?" 9
expect_eq "... 10:4 unbound" "$(matches "$(cline 4)" "size|cgroup" &&
	echo bound)" ""
expect_eq "... the cgroup removed" "$([ -e "$ROOT/job-43" ] && echo left)" ""

# SIGKILL of the wrapper: the command lives on; gc waits for it.
"${JOB[@]}" run 44 --size 1m -- sleep 60 &
w=$!
wait_for 20 populated "$ROOT/job-44"
wait_for 20 bound 5
kill -KILL "$w"
wait "$w" 2>/dev/null
run "gc while the command lives" "${JOB[@]}" gc
expect_match "... 10:5 still bound" "$(cline 5)" "size 1048576 cgroup"
expect_eq "... the cgroup still there" "$([ -d "$ROOT/job-44" ] &&
	echo yes)" yes
# shellcheck disable=SC2046
kill -KILL $(cat "$ROOT/job-44/cgroup.procs")
wait_for 20 sh -c "! grep -q 'populated 1' $ROOT/job-44/cgroup.events"
run "gc once the command is gone" "${JOB[@]}" gc
expect_eq "... 10:5 unbound" "$(matches "$(cline 5)" "size|cgroup" &&
	echo bound)" ""
expect_eq "... the cgroup removed" "$([ -e "$ROOT/job-44" ] && echo left)" ""
expect_eq "... nothing bound" "$(qf cgroups_bound)" 0

# sch-ddl-job bind, list and unbind on cgroups of our own (CG); run 42
# above left 9 packets in 10:3.
CG=/sys/fs/cgroup/ddltest
mkdir -p "$CG/jobB" "$CG/jobC"
ccg() { tc -n ddl-a class show dev a0 classid "10:$1" | \
	sed -n 's/.* cgroup \([0-9]*\).*/\1/p'; }

# sch-ddl-job: job 42 of 8 classes is class 1 + 42 mod 8 = 3.
run "sch-ddl-job bind 42" "${JOB[@]}" bind 42 --cgroup "$CG/jobB" \
	--size 3000000 --weight 2
s=$(tc -n ddl-a class show dev a0 classid 10:3)
expect_match "10:3 weight 2 size 3000000 and jobB's cgroup" "$s" \
	"weight 2 size 3000000 cgroup $(stat -c %i "$CG/jobB")"
cg_burst "$CG/jobB" 7020 9
expect_eq "job 42's packets in 10:3" "$(( $(cpkts 3) - 9 ))" 9
run "bind again: nothing changes" "${JOB[@]}" bind 42 --cgroup "$CG/jobB" \
	--size 3000000 --weight 2
expect_eq "class for job 50 is 3 as well" "$("${JOB[@]}" class 50 --jobs 8)" 3
s=$("${JOB[@]}" bind 50 --cgroup "$CG/jobC" 2>&1)
expect_eq "a collision is refused with status 3" "$?" 3
expect_match "... saying which job holds it" "$s" \
	"collides with job 42 on class 10:3"
expect_match "... and 10:3 kept job 42's facts" \
	"$(tc -n ddl-a class show dev a0 classid 10:3)" "weight 2 size 3000000"
l=$("${JOB[@]}" list)
expect_match "list shows job 42 with its bytes" "$l" \
	"42 +a0 +10:3 +2 +3000000 +[0-9]+ +0 +$CG/jobB"
s=$("${JOB[@]}" bind 43 --cgroup "$CG/jobB" 2>&1)
expect_eq "jobB's cgroup for a second job: refused" "$?" 1
expect_match "... with the kernel's reason" "$s" "bound to another class"
expect_eq "... 10:4 untouched" "$(ccg 4)" ""
run "sch-ddl-job unbind 42" "${JOB[@]}" unbind 42
s=$(tc -n ddl-a class show dev a0 classid 10:3)
expect_match "10:3 back to weight 1" "$s" "weight 1"
expect_eq "... with no size and no cgroup" "$(matches "$s" "size|cgroup" &&
	echo yes)" ""
run "unbind 42 again: nothing to do" "${JOB[@]}" unbind 42
run "job 50 may take 10:3 now" "${JOB[@]}" bind 50 --cgroup "$CG/jobC"
# A job whose cgroup went without an unbind does not hold its class.
rmdir "$CG/jobC"
run "job 58 (class 3) takes over from job 50, gone" "${JOB[@]}" bind 58 \
	--cgroup "$CG/jobB"
# --wait: the cgroup appears after the bind began.
(sleep 0.5; mkdir "$CG/late") &
run "bind --wait for a cgroup made later" "${JOB[@]}" bind 45 \
	--cgroup "$CG/late" --wait 10
expect_eq "job 45 in 10:6 with the late cgroup's id" "$(ccg 6)" \
	"$(stat -c %i "$CG/late")"
run "unbind 58" "${JOB[@]}" unbind 58
run "unbind 45" "${JOB[@]}" unbind 45
expect_eq "nothing bound" "$(qf cgroups_bound)" 0
rmdir "$CG/late" "$CG/jobB" "$CG"

# ip netns exec mounts a fresh /sys: bind says what to do.
mkdir -p "$ROOT/job-45"
s=$(ip netns exec ddl-a "$TESTS_DIR/../sbin/sch-ddl-job" bind 45 \
	--cgroup "$ROOT/job-45" 2>&1)
expect_eq "bind under ip netns exec: refused" "$?" 1
expect_match "... saying to use nsenter --net=" "$s" \
	"no cgroup directory .*nsenter --net="
rmdir "$ROOT/job-45" "$ROOT"
done_testing
