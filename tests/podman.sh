# SPDX-License-Identifier: GPL-2.0
# podman in the test guest, sourced by tests/e2e/containers.sh and
# bench/ddl-bench.  The guest's root is read-only and shared, so:
#
#   podman_env DIR   podman with everything it writes under DIR (CNI
#                    backend, crun, cgroupfs, vfs storage), each
#                    container's root the guest's own (a bind mount of /
#                    with a /run of its own: crun cannot pivot_root to the
#                    root it runs in), the CNI plugin of this tree chained
#                    as "sch-ddl", and the array PODMAN to run it with.
#                    Call it in a mount namespace of its own: it mounts a
#                    tmpfs on /var/lib (podman's CNI cache) and /dev/shm
#                    (its locks).
#   podman_net NAME TYPE NET [portmap]
#                    a network NAME of the CNI plugin TYPE (ptp: a veth
#                    per container and host routes; bridge: one bridge
#                    NAME0 with source NAT, podman's default) on NET.0/24,
#                    gateway NET.1, chained with sch-ddl; with portmap,
#                    the portmap plugin too (podman run -p: DNAT of the
#                    host's port to the container's)
#
# What the plugin and sch-ddl-job need reaches them through podman's
# environment: this tree's sch-ddl-job (SCH_DDL_JOB), the plugin's state
# (SCH_DDL_CNI_STATE, DIR/cni) and CNI_ARGS.

podman_env() {
	local c=$1 top
	top=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
	mount -t tmpfs -o mode=0755 varlib /var/lib
	mkdir -p /dev/shm
	mountpoint -q /dev/shm || mount -t tmpfs -o mode=1777 shm /dev/shm
	mkdir -p "$c/net.d" "$c/bin" "$c/root" "$c/run" "$c/ipam" "$c/tmp" \
		"$c/rootfs"
	mount --bind / "$c/rootfs"
	mount -t tmpfs -o mode=0755 ctrrun "$c/rootfs/run"
	ln -sf "$top/sbin/sch-ddl-cni" "$c/bin/sch-ddl"
	cat >"$c/containers.conf" <<-EOF
	[network]
	network_backend = "cni"
	cni_plugin_dirs = ["$c/bin", "/usr/lib/cni"]
	network_config_dir = "$c/net.d"
	[engine]
	cgroup_manager = "cgroupfs"
	events_logger = "none"
	runtime = "crun"
	tmp_dir = "$c/tmp"
	EOF
	export CONTAINERS_CONF=$c/containers.conf
	export SCH_DDL_JOB=$top/sbin/sch-ddl-job
	export SCH_DDL_CNI_STATE=$c/cni
	PODMAN_DIR=$c
	PODMAN=(podman --root "$c/root" --runroot "$c/run" --storage-driver vfs)
}

podman_net() {
	local name=$1 type=$2 net=$3 pm=
	[ "${4:-}" = portmap ] &&
		pm='{ "type": "portmap", "capabilities": { "portMappings": true } },'
	cat >"$PODMAN_DIR/net.d/$name.conflist" <<-EOF
	{ "cniVersion": "0.4.0", "name": "$name",
	  "plugins": [
	    { "type": "$type", "bridge": "${name}0", "isGateway": true,
	      "ipMasq": $([ "$type" = bridge ] && echo true || echo false),
	      "ipam": { "type": "host-local", "dataDir": "$PODMAN_DIR/ipam",
	                "ranges": [[{ "subnet": "$net.0/24",
	                              "gateway": "$net.1" }]],
	                "routes": [{ "dst": "0.0.0.0/0" }] } },
	    $pm
	    { "type": "sch-ddl" } ] }
	EOF
}
