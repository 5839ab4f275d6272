#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# e2e: launchers
# Jobs started by torchrun get their class on every host from
# `sch-ddl-job run` alone: three hosts (namespaces ddlt1..3, routed by the
# root namespace, each one's eth0 with ddl in mode cluster and nothing
# configured per job), two PyTorch jobs (gloo over TCP, a ring all_reduce
# of 1 MB, 6 times), each started on every host by
#   sch-ddl-job run JOB --size ... -- python3 -m torch.distributed.run ...
# While they run, each job's class holds its size and its cgroup on every
# host; each job's bytes are in its class, none in the other's, and the
# background holds under 1 % of them; when they end, every class is
# unbound and every cgroup `run` made is gone.  (Not on the debug kernel:
# importing torch in 12 processes under KASAN takes minutes.)
. "$(dirname "$0")/../lib.sh"

here=$(cd "$TESTS_DIR/.." && pwd)
NET=198.18.20
mountpoint -q /sys/fs/cgroup || mount -t cgroup2 cgroup2 /sys/fs/cgroup
if ! python3 -c 'import torch.distributed' 2>/dev/null; then
	fail "python3-torch is installed (scripts/install-deps)"
	done_testing
fi

sysctl -qw net.ipv4.ip_forward=1
for i in 1 2 3; do
	ip netns add "ddlt$i"
	ip link add "ddlth$i" type veth peer name eth0 netns "ddlt$i"
	ip addr add "$NET.1/32" dev "ddlth$i"
	ip link set "ddlth$i" up
	ip route add "$NET.1$i/32" dev "ddlth$i" src "$NET.1"
	ip -n "ddlt$i" link set lo up
	ip -n "ddlt$i" addr add "$NET.1$i/32" dev eth0
	ip -n "ddlt$i" link set eth0 up
	ip -n "ddlt$i" route add "$NET.1/32" dev eth0
	ip -n "ddlt$i" route add default via "$NET.1" dev eth0 src "$NET.1$i"
done
ns() { local i=$1; shift; nsenter --net="/run/netns/ddlt$i" "$@"; }
for i in 1 2 3; do
	run "host $i: ddl, 8 jobs, mode cluster, 100 Mbit/s" ns "$i" tc qdisc \
		add dev eth0 root handle 1: ddl jobs 8 key none mode cluster \
		rate 100mbit
done

# Debian 12's torch (1.13) on its python 3.11: torchrun's default
# --redirects and --tee of 0 fail (a Flag of 0 is no member to iterate
# there), 1 works.
cat >"$DDL_OUT/allreduce.py" <<'EOF'
import os, sys, time
import torch
import torch.distributed as dist
dist.init_process_group("gloo")
t = torch.ones(262144)			# 1 MB of float32
for _ in range(6):
	dist.all_reduce(t)
	time.sleep(0.2)
# the classes while the job still runs: rank 0 of each job records them
if dist.get_rank() == 0:
	open(sys.argv[1], "w").write("ok %g\n" % t[0].item())
dist.barrier()
dist.destroy_process_group()
EOF

# job JOB PORT: JOB on all three hosts, rank i on host i, through torchrun
job() {
	local j=$1 port=$2 i
	for i in 1 2 3; do
		# Each host its own cgroup tree and state, as real hosts have.
		ns "$i" env GLOO_SOCKET_IFNAME=eth0 OMP_NUM_THREADS=1 \
			SCH_DDL_CGROUP_ROOT="/sys/fs/cgroup/ddlt$i" \
			SCH_DDL_JOB_STATE="/run/ddlt$i/jobs" \
			"$here/sbin/sch-ddl-job" run "$j" --size 4m -- \
			python3 -m torch.distributed.run --nnodes 3 \
			--nproc_per_node 1 --node_rank $(( i - 1 )) \
			--redirects 1 --tee 1 --log_dir "$DDL_OUT/log$j-$i" \
			--master_addr "$NET.11" --master_port "$port" \
			"$DDL_OUT/allreduce.py" "$DDL_OUT/job$j-$i.done" \
			>"$DDL_OUT/job$j-$i.log" 2>&1 &
	done
}
job 41 29541
job 42 29542
# While they run: each host binds each job's class (1 + job mod 8).
for i in 1 2 3; do
	wait_for 120 sh -c "nsenter --net=/run/netns/ddlt$i tc class show \
		dev eth0 | grep -c 'size 4194304 cgroup' | grep -qx 2"
	expect_match "host $i: job 41 bound to 1:2, with its size" \
		"$(ns "$i" tc class show dev eth0 classid 1:2)" \
		"size 4194304 cgroup [0-9]+"
	expect_match "host $i: job 42 bound to 1:3, with its size" \
		"$(ns "$i" tc class show dev eth0 classid 1:3)" \
		"size 4194304 cgroup [0-9]+"
done
wait
# Each all_reduce sums the 3 ranks' ones in place: 3^6 after six.
for j in 41 42; do
	expect_eq "job $j's six all_reduces summed its 3 ranks" \
		"$(cat "$DDL_OUT/job$j-1.done" 2>/dev/null)" "ok 729"
done

# A rank sends 2 (3 - 1) / 3 of 1 MB per all_reduce: 6 x 1.33 MB.
for i in 1 2 3; do
	cls=$(ns "$i" tc -s class show dev eth0 | awk -f "$TESTS_DIR/tcclass.awk")
	b41=$(cfield "$cls" 1:2 bytes) b42=$(cfield "$cls" 1:3 bytes)
	bg=$(cfield "$cls" 1:ffff bytes)
	expect_ge "host $i: job 41's ring bytes in 1:2" "$b41" 8000000
	expect_ge "host $i: job 42's ring bytes in 1:3" "$b42" 8000000
	expect_ge "host $i: the background under 1 % of theirs" \
		$(( (b41 + b42) / 100 )) "$bg"
	other=0
	for m in 1 4 5 6 7 8; do
		other=$(( other + $(cfield "$cls" "1:$m" bytes) ))
	done
	expect_eq "host $i: no other class sent a byte" "$other" 0
	expect_eq "host $i: both classes unbound when the jobs ended" \
		"$(ns "$i" tc class show dev eth0 | grep -c cgroup)" 0
done
expect_eq "every cgroup run made is gone" \
	"$(ls -d /sys/fs/cgroup/ddlt*/job-* 2>/dev/null | wc -l)" 0
for i in 1 2 3; do
	ns "$i" tc qdisc del dev eth0 root
	rmdir "/sys/fs/cgroup/ddlt$i" 2>/dev/null
done
done_testing
