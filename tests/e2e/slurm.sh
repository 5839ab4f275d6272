#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# e2e: fast
# A Slurm job gets its class, size and order on every node with no tc line
# written for it: a real slurmctld and three slurmd (tests/slurm/cluster.sh,
# one network namespace per node, cgroup/v2) run the package's prolog and
# epilog (slurm/), which call sch-ddl-job.  Each node's eth0 runs ddl in
# mode cluster and nothing else is configured: no filter, no key.  Two
# 2-node jobs send through node3 at once; each job's bytes are in its
# class on every node it runs on, none in another class or the
# background, and each class held the job's size and cgroup while it ran.
# Then a job whose parameter server is sharded over node2 and node3: each
# shard's node holds it in its class, with its size.
# The epilogs leave every class unbound.  (Not on the debug kernel: a
# dozen Slurm daemons and steps under KASAN take minutes to start.)
. "$(dirname "$0")/../lib.sh"

here=$(cd "$(dirname "$0")/.." && pwd)
export SLURM_RUN=/run/ddl-slurm
bin=/run/bin
mkdir -p "$bin" "$SLURM_RUN"
ln -sf "$here/../sbin/sch-ddl-job" "$bin/sch-ddl-job"
# The guest has no syslog: what the prolog and epilog log goes to a file.
printf '#!/bin/sh\necho "$*" >>%s/syslog\n' "$SLURM_RUN" >"$bin/logger"
chmod +x "$bin/logger"
# slurmd runs the prolog with a PATH of its own: the wrappers put this
# tree's sch-ddl-job (and the logger) first, as the package puts it in
# /usr/sbin, and tc's plugin directory on this tree's q_ddl.so.  They give
# sch-ddl-job 60 s, not the hooks' 20: under the emulator, beside make
# check's other guest, one unbind took more than 20 s (the hooks' bound
# itself is tested by tests/hooks/badinput_check.py).
for p in prolog epilog; do
	printf '#!/bin/sh\nPATH=%s TC_LIB_DIR=%s SCH_DDL_SLURM_TIMEOUT=60 exec %s "$@"\n' \
		"$bin:/usr/sbin:/usr/bin:/sbin:/bin" "$TC_LIB_DIR" \
		"$here/../slurm/slurm-$p" >"$SLURM_RUN/$p"
	chmod +x "$SLURM_RUN/$p"
done

ns() { local i=$1; shift; nsenter --net="/run/netns/ddlnode$i" "$@"; }
cls() { ns "$1" tc -s class show dev eth0 | awk -f "$TESTS_DIR/tcclass.awk"; }
# bytes NODE MINOR: bytes sent by class 1:MINOR of NODE's eth0
bytes() { cfield "$(cls "$1")" "1:$2" bytes; }
classline() { ns "$1" tc class show dev eth0 classid "1:$2"; }

if ! run "cluster up: slurmctld, 3 slurmd" "$here/slurm/cluster.sh" up 3 \
	"$SLURM_RUN/prolog" "$SLURM_RUN/epilog"; then
	tail -20 "$SLURM_RUN"/log/*.log
	done_testing
fi
# shellcheck source=/dev/null
. "$SLURM_RUN/env"
for i in 1 2 3; do
	run "node$i: ddl, 16 jobs, mode cluster, 100 Mbit/s" ns "$i" tc qdisc \
		add dev eth0 root handle 1: ddl jobs 16 key none mode cluster \
		rate 100mbit
done

# Each job: task 1 (on the second node, node3) sends MB megabytes to
# task 0; while it runs, the job records its id, and on each node its
# class as tc shows it and its cgroup's inode.
job() {	# NAME NODES MB COMMENT
	srun -N2 -n2 -w "$2" -J "$1" --comment="$4" sh -c '
		n=$SLURMD_NODENAME id=$SLURM_JOB_ID f=$SLURM_RUN/$SLURM_JOB_NAME
		echo "$id" >"$f.id"
		tc class show dev eth0 >"$f-class-$n.txt"
		stat -c %i "/sys/fs/cgroup/system.slice/${n}_slurmstepd.scope/job_$id" \
			>"$f-cg-$n.txt"
		exec python3 -S "$0" "$1"' "$here/slurm/push.py" "$3" \
		>"$SLURM_RUN/$1.out" 2>&1
}
job a node1,node3 24 ddl-size=24m &
a=$!
job b node2,node3 16 ddl-size=16m,ddl-weight=2 &
b=$!
wait "$a"
expect_eq "job a ran" "$?" 0
wait "$b"
expect_eq "job b ran" "$?" 0
expect_match "job a: 24 MB arrived" "$(cat "$SLURM_RUN/a.out")" \
	"received 25165824 bytes"
expect_match "job b: 16 MB arrived" "$(cat "$SLURM_RUN/b.out")" \
	"received 16777216 bytes"

# While they ran: on each of its nodes, the job's class (1 + id mod 16)
# held its size, its weight and its cgroup's id.
declare -A M
for want in "a node1 25165824 1" "a node3 25165824 1" \
	    "b node2 16777216 2" "b node3 16777216 2"; do
	read -r j n size w <<<"$want"
	id=$(cat "$SLURM_RUN/$j.id" 2>/dev/null)
	m=$(printf %x $(( 1 + ${id:-0} % 16 )))
	M[$j]=$m
	expect_match "job $j ($id) on $n: class 1:$m, weight $w, size, cgroup" \
		"$(cat "$SLURM_RUN/$j-class-$n.txt" 2>/dev/null)" \
		"class ddl 1:$m .*weight $w size $size cgroup $(cat \
		"$SLURM_RUN/$j-cg-$n.txt" 2>/dev/null)"
done
m_a=${M[a]} m_b=${M[b]}
expect_eq "two jobs, two classes" "$([ "$m_a" != "$m_b" ] && echo yes)" yes

# node3 sent both jobs' data: each in its own class, none elsewhere.
a3=$(bytes 3 "$m_a") b3=$(bytes 3 "$m_b") bg3=$(bytes 3 ffff)
expect_ge "node3: job a's 24 MB in 1:2" "$a3" 25165824
expect_ge "node3: job b's 16 MB in 1:3" "$b3" 16777216
expect_ge "... 1:2 holds no more than job a's (with headers, 6 %)" \
	$(( 25165824 * 106 / 100 )) "$a3"
expect_ge "... 1:3 holds no more than job b's (with headers, 6 %)" \
	$(( 16777216 * 106 / 100 )) "$b3"
expect_ge "node3: the background under 1 % of the jobs' bytes" \
	$(( (a3 + b3) / 100 )) "$bg3"
other=0
for m in 1 2 3 4 5 6 7 8 9 a b c d e f 10; do
	[ "$m" = "$m_a" ] || [ "$m" = "$m_b" ] ||
		other=$(( other + $(bytes 3 "$m") ))
done
expect_eq "node3: no other class sent a byte" "$other" 0
expect_ge "node3: cls_cgroup counted the jobs' packets" \
	"$(qstat -n ddlnode3 eth0 1: cls_cgroup)" $(( (a3 + b3) / 65536 ))

# A sharded parameter server: job c's shards on node2 and node3 push 8 MB
# each to its worker on node1; each shard's node holds the job in its
# class with the job's size.
c2=$(bytes 2 ffff)
srun -N3 -n3 -w node1,node2,node3 -J c --comment=ddl-size=16m sh -c '
	n=$SLURMD_NODENAME f=$SLURM_RUN/$SLURM_JOB_NAME
	echo "$SLURM_JOB_ID" >"$f.id"
	tc class show dev eth0 >"$f-class-$n.txt"
	exec python3 -S "$0" 8' "$here/slurm/push.py" \
	>"$SLURM_RUN/c.out" 2>&1
expect_match "job c: 16 MB from two shards" "$(cat "$SLURM_RUN/c.out")" \
	"received 16777216 bytes from 2 senders"
id=$(cat "$SLURM_RUN/c.id" 2>/dev/null)
m_c=$(printf %x $(( 1 + ${id:-0} % 16 )))
for i in 2 3; do
	expect_match "job c ($id) on node$i: class 1:$m_c with size 16777216 (16m)" \
		"$(cat "$SLURM_RUN/c-class-node$i.txt" 2>/dev/null)" \
		"class ddl 1:$m_c .*size 16777216 cgroup [0-9]+"
	expect_ge "node$i: the shard's 8 MB in 1:$m_c" "$(bytes "$i" "$m_c")" \
		8388608
done
expect_ge "node2: the background got under 1 % of the shard's bytes" \
	$(( c2 + 83886 )) "$(bytes 2 ffff)"

# The epilogs unbound every class on every node (they run once srun has
# returned).
unbound() { [ "$(qstat -n "ddlnode$1" eth0 1: cgroups_bound)" = 0 ]; }
for i in 1 2 3; do
	wait_for 70 unbound "$i"
	for m in "$m_a" "$m_b" "$m_c"; do
		expect_eq "node$i: 1:$m unbound after the job" \
			"$(matches "$(classline "$i" "$m")" "size|cgroup" &&
			   echo bound)" ""
	done
	expect_eq "node$i: nothing bound" \
		"$(qstat -n "ddlnode$i" eth0 1: cgroups_bound)" 0
done

cp "$SLURM_RUN/syslog" "$DDL_OUT/slurm-syslog.txt" 2>/dev/null
"$here/slurm/cluster.sh" down
done_testing
