#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# A Slurm cluster (Debian 12's slurm-wlm 22.05 and munge) inside the test VM:
# one slurmctld in the root network namespace and N slurmd, each in a
# network namespace of its own that plays one host.  tests/e2e/slurm.sh
# runs it on the fast kernel (cgroup v2, mounted by guest-init).
#
#   tests/slurm/cluster.sh up N [PROLOG [EPILOG]]
#   tests/slurm/cluster.sh down
#
# "up" prints nothing but errors and leaves $SLURM_RUN/env, which a test
# sources to use srun, sbatch, squeue and scontrol:
#
#   . /run/ddl-slurm/env; srun -N2 -n2 hostname
#
# Environment:
#   SLURM_RUN            where everything writable lives (default
#                        /run/ddl-slurm; the host's root is read-only here)
#   DDL_SLURM_PROLOG_FLAGS   slurm.conf PrologFlags (default Alloc,Contain)
#   DDL_SLURM_PLUGSTACK  a plugstack.conf line or lines (SPANK plugins)
#   DDL_SLURM_CPUS       CPUs of each node (default 2): jobs at once
#
# Network: node i is the namespace ddlnode<i> (the node name is node<i>, its
# hostname too, in a UTS namespace of its own) with eth0 198.18.10.<10+i>/32;
# its peer ddlh<i> in the root namespace holds 198.18.10.1/32, slurmctld's
# address.  The root namespace routes between the nodes (no bridge in the
# test kernel).  Jobs run in their node's namespaces: slurmstepd is forked
# by slurmd and keeps them.
#
# cgroup v2: Debian builds Slurm with --enable-multiple-slurmd, so the
# cgroup/v2 plugin names each node's tree after the node:
#   /sys/fs/cgroup/system.slice/node<i>_slurmstepd.scope/job_<id>/step_<s>/...
# and the slurmd share one cgroup2 mount without cgroup namespaces.  There
# is no systemd (nor dbus) in the guest: cgroup.conf says IgnoreSystemd=yes
# and the plugin creates the scope directories itself.

set -euo pipefail

SLURM_RUN=${SLURM_RUN:-/run/ddl-slurm}
CGROOT=/sys/fs/cgroup
NET=198.18.10
CTLD_ADDR=$NET.1

die() { echo "cluster.sh: $*" >&2; exit 1; }

node_addr() { echo "$NET.$((10 + $1))"; }

# cgroup2 on /sys/fs/cgroup (guest-init mounts it).  slurmd creates
# system.slice/<node>_slurmstepd.scope with a plain mkdir(), so the slice
# must exist, and the controllers the plugin enables below it must be
# enabled in the root and in the slice (top-down constraint).
setup_cgroup() {
	mountpoint -q "$CGROOT" || mount -t cgroup2 none "$CGROOT" ||
		die "cannot mount cgroup2 (a kernel without CONFIG_CGROUPS?)"
	mkdir -p "$CGROOT/system.slice"
	local c
	for c in $(cat "$CGROOT/cgroup.controllers"); do
		echo "+$c" >"$CGROOT/cgroup.subtree_control"
		echo "+$c" >"$CGROOT/system.slice/cgroup.subtree_control"
	done
}

setup_net() {
	local n=$1 i
	echo 1 >/proc/sys/net/ipv4/ip_forward
	for i in $(seq 1 "$n"); do
		ip netns add "ddlnode$i"
		ip link add "ddlh$i" type veth peer name eth0 netns "ddlnode$i"
		ip addr add "$CTLD_ADDR/32" dev "ddlh$i"
		ip link set "ddlh$i" up
		ip route add "$(node_addr "$i")/32" dev "ddlh$i" src "$CTLD_ADDR"
		ip -n "ddlnode$i" link set lo up
		ip -n "ddlnode$i" addr add "$(node_addr "$i")/32" dev eth0
		ip -n "ddlnode$i" link set eth0 up
		ip -n "ddlnode$i" route add "$CTLD_ADDR/32" dev eth0
		ip -n "ddlnode$i" route add default via "$CTLD_ADDR" dev eth0 \
			src "$(node_addr "$i")"
	done
}

# munged insists on owning its socket directory and key; as root with
# --force it accepts the tmpfs.  The socket is a path, so every network
# namespace reaches it.
start_munge() {
	local m=$SLURM_RUN/munge
	mkdir -p -m 0755 "$m"
	dd if=/dev/urandom of="$m/munge.key" bs=1024 count=1 status=none
	chmod 0400 "$m/munge.key"
	munged --force --key-file="$m/munge.key" --socket="$m/munge.socket" \
		--pid-file="$m/munged.pid" --log-file="$m/munged.log" \
		--seed-file="$m/munged.seed" ||
		die "munged failed: $(tail -3 "$m/munged.log" 2>/dev/null)"
}

write_conf() {
	local n=$1 prolog=$2 epilog=$3 i etc=$SLURM_RUN/etc
	mkdir -p "$etc" "$SLURM_RUN/ctld" "$SLURM_RUN/log" "$SLURM_RUN/spool"

	cat >"$etc/slurm.conf" <<-CONF
	ClusterName=ddl
	SlurmctldHost=$(hostname)($CTLD_ADDR)
	SlurmUser=root
	SlurmdUser=root
	AuthType=auth/munge
	CredType=cred/munge
	AuthInfo=socket=$SLURM_RUN/munge/munge.socket
	StateSaveLocation=$SLURM_RUN/ctld
	SlurmdSpoolDir=$SLURM_RUN/spool/%n
	SlurmctldPidFile=$SLURM_RUN/slurmctld.pid
	SlurmdPidFile=$SLURM_RUN/slurmd-%n.pid
	SlurmctldLogFile=$SLURM_RUN/log/slurmctld.log
	SlurmdLogFile=$SLURM_RUN/log/slurmd-%n.log
	SlurmctldDebug=info
	SlurmdDebug=debug
	DebugFlags=Cgroup
	PlugStackConfig=$etc/plugstack.conf
	# One job per core; all nodes share the VM's CPUs.
	SelectType=select/cons_tres
	SelectTypeParameters=CR_Core
	ProctrackType=proctrack/cgroup
	TaskPlugin=task/cgroup
	# jobacct_gather/cgroup puts each task in step_<s>/user/task_<n>;
	# without it (and without ConstrainRAMSpace or ConstrainDevices)
	# cgroup/v2 leaves all of a step's tasks in step_<s>/user/task_special.
	JobAcctGatherType=jobacct_gather/cgroup
	AccountingStorageType=accounting_storage/none
	MpiDefault=none
	SwitchType=switch/none
	ReturnToService=2
	# The hardware every slurmd sees is the VM's; trust slurm.conf.
	SlurmdParameters=config_overrides
	SchedulerParameters=sched_interval=1
	MessageTimeout=30
	KillWait=5
	${prolog:+Prolog=$prolog}
	${epilog:+Epilog=$epilog}
	PrologFlags=${DDL_SLURM_PROLOG_FLAGS:-Alloc,Contain}
	CONF
	for i in $(seq 1 "$n"); do
		echo "NodeName=node$i NodeAddr=$(node_addr "$i") CPUs=${DDL_SLURM_CPUS:-2} State=UNKNOWN" \
			>>"$etc/slurm.conf"
	done
	echo "PartitionName=ddl Nodes=ALL Default=YES MaxTime=INFINITE State=UP" \
		>>"$etc/slurm.conf"

	# No systemd, no dbus: the plugin makes the scope directories itself
	# and enables the controllers on them (CgroupAutomount).
	# ConstrainCores=no: every node would pin its jobs to its "own" first
	# core, the same CPU 0 of the VM for all nodes; and in 22.05 the cpuset
	# code moves each task back into task_special after jobacct_gather put
	# it in task_<n>.
	cat >"$etc/cgroup.conf" <<-CONF
	CgroupPlugin=cgroup/v2
	IgnoreSystemd=yes
	CgroupAutomount=yes
	ConstrainCores=no
	ConstrainRAMSpace=no
	ConstrainDevices=no
	CONF
	printf '%s\n' "${DDL_SLURM_PLUGSTACK:-}" >"$etc/plugstack.conf"

	: >"$SLURM_RUN/hosts"
	for i in $(seq 1 "$n"); do
		echo "node$i $(node_addr "$i")" >>"$SLURM_RUN/hosts"
	done
	cat >"$SLURM_RUN/env" <<-ENV
	export SLURM_CONF=$etc/slurm.conf
	export SLURM_RUN=$SLURM_RUN
	export DDL_SLURM_NODES=$n
	${DDL_OUT:+export DDL_OUT=$DDL_OUT}
	ENV
}

# Names resolve from a hosts file of the cluster's own, bound over
# /etc/hosts (the host's, read-only here, names none of them): otherwise
# a lookup of a node's name, or of the guest's, goes to DNS, which the
# guest cannot reach, and a launch fails now and then with "Temporary
# failure in name resolution" (seen in bench/slurm-bench).
setup_hosts() {
	local n=$1 i f=$SLURM_RUN/etc/hosts
	mkdir -p "$SLURM_RUN/etc"
	{
		echo "127.0.0.1 localhost"
		echo "::1 localhost"
		echo "$CTLD_ADDR $(hostname)"
		for i in $(seq 1 "$n"); do
			echo "$(node_addr "$i") node$i"
		done
	} >"$f"
	mount --bind "$f" /etc/hosts || die "cannot bind $f over /etc/hosts"
	: >"$SLURM_RUN/hosts-bound"
}

unbind_hosts() {
	[ -e "$SLURM_RUN/hosts-bound" ] || return 0
	umount /etc/hosts 2>/dev/null || true
	rm -f "$SLURM_RUN/hosts-bound"
}

# slurmd enters its node's network namespace with nsenter, not with
# "ip netns exec", which remounts /sys and so hides the cgroup2 mount.
start_daemons() {
	local n=$1 i
	export SLURM_CONF=$SLURM_RUN/etc/slurm.conf
	slurmctld -D -c >"$SLURM_RUN/log/slurmctld.out" 2>&1 &
	for i in $(seq 1 "$n"); do
		nsenter --net="/run/netns/ddlnode$i" unshare --uts \
			sh -c "hostname node$i && exec slurmd -D -N node$i" \
			>"$SLURM_RUN/log/slurmd-node$i.out" 2>&1 &
	done
}

# Ready when every node is idle (registered, not down or drained).
wait_ready() {
	local n=$1 t
	for t in $(seq 1 600); do
		[ "$(sinfo -h -N -t idle -o %N 2>/dev/null | sort -u | wc -l)" = "$n" ] &&
			return 0
		sleep 0.1
	done
	sinfo -N -l >&2 || true
	tail -20 "$SLURM_RUN"/log/*.log >&2 || true
	die "$n nodes not idle after 60 s"
}

up() {
	local n=${1:?usage: cluster.sh up N [PROLOG [EPILOG]]} prolog=${2:-} epilog=${3:-}
	[ -e "$SLURM_RUN/env" ] && die "$SLURM_RUN/env exists: a cluster is up"
	mkdir -p "$SLURM_RUN"
	setup_cgroup
	setup_net "$n"
	setup_hosts "$n"
	start_munge
	write_conf "$n" "$prolog" "$epilog"
	start_daemons "$n"
	wait_ready "$n"
}

pid_of() { [ -s "$1" ] && cat "$1"; }

# Wait for the processes with the pids given to end, up to ~10 s, then kill.
reap() {
	local t p left
	for t in $(seq 1 100); do
		left=
		for p in "$@"; do kill -0 "$p" 2>/dev/null && left+=" $p"; done
		[ -z "$left" ] && return 0
		sleep 0.1
	done
	# shellcheck disable=SC2086
	kill -KILL $left 2>/dev/null || true
}

# Remove the leftovers of cgroup trees, deepest first.
rm_cgroups() {
	local d
	for d in "$CGROOT"/system.slice/node*_slurmstepd.scope; do
		[ -d "$d" ] || continue
		find "$d" -depth -type d -exec rmdir {} + 2>/dev/null || true
	done
}

down() {
	local pids=() f i p
	[ -e "$SLURM_RUN/env" ] || { unbind_hosts; return 0; }
	export SLURM_CONF=$SLURM_RUN/etc/slurm.conf
	scancel --quiet --user=root 2>/dev/null || true
	for f in "$SLURM_RUN"/slurmd-*.pid "$SLURM_RUN/slurmctld.pid"; do
		p=$(pid_of "$f") && pids+=("$p")
	done
	# Stops slurmctld and every slurmd.
	scontrol shutdown 2>/dev/null || kill "${pids[@]}" 2>/dev/null || true
	reap "${pids[@]}"
	if p=$(pid_of "$SLURM_RUN/munge/munged.pid"); then
		kill "$p" 2>/dev/null || true
		reap "$p"
	fi
	for i in $(seq 1 "$(sed -n 's/^export DDL_SLURM_NODES=//p' "$SLURM_RUN/env")"); do
		ip link del "ddlh$i" 2>/dev/null || true
		ip netns del "ddlnode$i" 2>/dev/null || true
	done
	rm_cgroups
	unbind_hosts
	rm -f "$SLURM_RUN/env"
}

case "${1:-}" in
up) shift; up "$@" ;;
down) down ;;
*) sed -n '4,30p' "$0" | sed 's/^# \{0,1\}//' >&2; exit 2 ;;
esac
