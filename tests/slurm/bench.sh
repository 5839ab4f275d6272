#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The slurm benchmark, in the test VM (scripts/ddl-bench slurm starts it):
# real PyTorch jobs submitted through Slurm, under per-job fair sharing
# (drr) and under ddl bound by the package's prolog and epilog, in one
# boot.  Three nodes (tests/slurm/cluster.sh), each one's eth0 at 100
# Mbit/s the bottleneck; JOBS ring jobs (gloo all_reduce of UPDATE bytes,
# COMPUTE ms, ITERS iterations), each with one rank on every node, all
# submitted at once with srun.
#
#   drr  tbf + one DRR class per job on every node: each job's ranks run
#        as a uid of their own (setpriv, 2001 + job) and a flow filter on
#        sk-uid classifies, as ddl-bench's torch presets do
#   ddl  ddl jobs 16 mode cluster rate 100mbit on every node, nothing
#        else: the prolog binds each job's cgroup and its declared size
#        (--comment=ddl-size=...), the epilog unbinds it
#
# Writes $DDL_OUT/slurm/POLICY/rep-K/{JOB-RANK.json,classes-N.txt,...} and
# $DDL_OUT/slurm/report.md: per policy the medians over the repetitions
# of the average and p99 job completion time, and each job against drr;
# per node under ddl, the bytes of each job's class and of the background.
#
# Settings (NAME=VALUE arguments): jobs=3 update=1000000 compute=300
# iters=12 reps=1.

set -uo pipefail

here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
jobs=3 update=1000000 compute=300 iters=12 reps=1
for a in "$@"; do
	case "${a%%=*}" in
	jobs|update|compute|iters|reps) eval "${a%%=*}=\${a#*=}" ;;
	*) echo "slurm bench: unknown setting $a" >&2; exit 2 ;;
	esac
done
out=${DDL_OUT:?run in the test VM}/slurm
export SLURM_RUN=/run/ddl-slurm DDL_SLURM_CPUS=$(( jobs + 1 ))
bin=/run/bin
mkdir -p "$out" "$bin" "$SLURM_RUN"
ln -sf "$top/scripts/sch-ddl-job" "$bin/sch-ddl-job"
printf '#!/bin/sh\necho "$*" >>%s/syslog\n' "$SLURM_RUN" >"$bin/logger"
chmod +x "$bin/logger"
for p in prolog epilog; do
	printf '#!/bin/sh\nPATH=%s TC_LIB_DIR=%s exec %s "$@"\n' \
		"$bin:/usr/sbin:/usr/bin:/sbin:/bin" "$TC_LIB_DIR" \
		"$top/slurm/slurm-$p" >"$SLURM_RUN/$p"
	chmod +x "$SLURM_RUN/$p"
done

"$here/cluster.sh" up 3 "$SLURM_RUN/prolog" "$SLURM_RUN/epilog" || exit 1
# shellcheck source=/dev/null
. "$SLURM_RUN/env"
ns() { local i=$1; shift; nsenter --net="/run/netns/ddlnode$i" "$@"; }

# The whole burst of a ring job over all its hosts: each of W ranks sends
# 2 (W - 1) / W of the tensor.
size=$(( 2 * 3 * update - 2 * update ))

setup() {	# POLICY
	local i j
	for i in 1 2 3; do
		ns "$i" tc qdisc del dev eth0 root 2>/dev/null
		case "$1" in
		drr)
			ns "$i" tc qdisc add dev eth0 root handle 1: tbf \
				rate 100mbit burst 64kb latency 1s &&
			ns "$i" tc qdisc add dev eth0 parent 1:1 handle 10: drr &&
			for j in $(seq "$jobs") 10; do
				ns "$i" tc class add dev eth0 parent 10: \
					classid "10:$j" drr || return 1
			done &&
			ns "$i" tc filter add dev eth0 parent 10: protocol ip \
				prio 1 handle 1 flow map key sk-uid addend -2001 \
				divisor 16 baseclass 10:1 &&
			ns "$i" tc filter add dev eth0 parent 10: protocol all \
				prio 2 u32 match u32 0 0 flowid 10:10 || return 1 ;;
		ddl)
			ns "$i" tc qdisc add dev eth0 root handle 1: ddl \
				jobs 16 key none mode cluster rate 100mbit ||
				return 1 ;;
		esac
	done
}

# run DIR: the jobs at once; each rank's record in DIR/JOB-RANK.json
run() {
	local d=$1 j pids=() n
	mkdir -p "$d"
	chmod 1777 "$d"
	for j in $(seq 0 $(( jobs - 1 ))); do
		srun -N3 -n3 -w node1,node2,node3 -J "job$j" \
			--comment="ddl-size=$size" sh -c '
			d=$0 j=$1; shift
			r=$SLURM_PROCID rd=
			[ "$r" = 0 ] && rd="--ready $d/ready-$j"
			exec setpriv --reuid $((2001 + j)) --regid $((2001 + j)) \
				--clear-groups env HOME="$d" python3 "$@" \
				--rank "$r" $rd >"$d/$j-$r.json" 2>"$d/$j-$r.err"' \
			"$d" "$j" "$top/scripts/ddl-torchjob" ring --job "$j" \
			--workers 3 --addr 198.18.10.11 --port $(( 7000 + j )) \
			--ifname eth0 --update "$update" --compute "$compute" \
			--iters "$iters" --go "$d/go" --timeout 1500 \
			>"$d/srun-$j.log" 2>&1 &
		pids+=($!)
	done
	for n in $(seq 1200); do
		[ "$(ls "$d" | grep -c '^ready-')" -ge "$jobs" ] && break
		# a job that failed before it was ready: no launch to wait for
		[ "$(jobs -rp | wc -l)" -ge "$jobs" ] || break
		sleep 1
	done
	python3 -c 'import time; print(time.monotonic_ns() + 5 * 10**8)' \
		>"$d/go.tmp"
	mv "$d/go.tmp" "$d/go"
	# While the jobs run: what is bound on each node.
	sleep 3
	for n in 1 2 3; do
		ns "$n" sch-ddl-job list >"$d/bound-$n.txt" 2>&1
	done
	wait "${pids[@]}"
	for n in 1 2 3; do
		ns "$n" tc -s class show dev eth0 >"$d/classes-$n.txt"
		ns "$n" tc -s qdisc show dev eth0 >"$d/qdisc-$n.txt"
	done
}

for rep in $(seq "$reps"); do
	for pol in drr ddl; do
		setup "$pol" || { echo "setup $pol failed" >&2; exit 1; }
		run "$out/$pol/rep-$rep"
	done
done
cp "$SLURM_RUN/syslog" "$out/syslog.txt" 2>/dev/null
"$here/cluster.sh" down

python3 - "$out" "$jobs" <<'EOF'
import glob, json, os, re, statistics, sys
out, jobs = sys.argv[1], int(sys.argv[2])


def jcts(d):
    """Per job: the latest end over its ranks less the launch, ms."""
    res = {}
    for j in range(jobs):
        recs = [json.loads(open(f).read().strip().splitlines()[-1])
                for f in glob.glob("%s/%d-*.json" % (d, j))
                if os.path.getsize(f)]
        if len(recs) != 3:
            return None
        res[j] = (max(r["end"] for r in recs) - recs[0]["launch"]) / 1e6
    return res


def p99(d):
    its = []
    for f in glob.glob(d + "/*-*.json"):
        if os.path.getsize(f):
            r = json.loads(open(f).read().strip().splitlines()[-1])
            its += [(i["end"] - i["start"]) / 1e6 for i in r["iters"]]
    its.sort()
    return its[min(len(its) - 1, int(0.99 * len(its)))] if its else 0


def bytes_of(txt):
    """{class: bytes} of tc -s class show text."""
    res, cur = {}, None
    for line in open(txt):
        w = line.split()
        if w[:1] == ["class"]:
            cur = w[2]
        elif w[:1] == ["Sent"] and cur:
            res[cur] = int(w[1])
    return res


rows = []
runs = {p: sorted(glob.glob("%s/%s/rep-*" % (out, p))) for p in ("drr", "ddl")}
res = {p: [jcts(d) for d in runs[p]] for p in runs}
ok = all(r for p in res for r in res[p])
lines = ["# slurm: PyTorch ring jobs through Slurm, drr against ddl", ""]
if not ok:
    lines.append("some job did not finish: see the rep directories")
else:
    lines += ["| policy | avg JCT (ms) | p99 iteration (ms) | per job / drr |",
              "|---|---|---|---|"]
    med = {}
    for p in ("drr", "ddl"):
        med[p] = {j: statistics.median(r[j] for r in res[p])
                  for j in range(jobs)}
    for p in ("drr", "ddl"):
        avg = statistics.mean(med[p].values())
        pp = statistics.median(p99(d) for d in runs[p])
        per = " ".join("%.3f" % (med[p][j] / med["drr"][j])
                       for j in range(jobs))
        lines.append("| %s | %.0f | %.0f | %s |" % (p, avg, pp, per))
    r = statistics.mean(med["ddl"].values()) / \
        statistics.mean(med["drr"].values())
    worst = max(med["ddl"][j] / med["drr"][j] for j in range(jobs))
    lines += ["", "ddl avg JCT / drr: %.3f; worst job / drr: %.3f" %
              (r, worst), ""]
    lines += ["Under ddl, bytes per class on each node (last repetition):",
              ""]
    for n in (1, 2, 3):
        b = bytes_of("%s/classes-%d.txt" % (runs["ddl"][-1], n))
        jb = {k: v for k, v in b.items() if k != "1:ffff" and v}
        lines.append("- node%d: jobs %s; background %d" %
                     (n, ", ".join("%s %d" % kv for kv in sorted(jb.items())),
                      b.get("1:ffff", 0)))
open(out + "/report.md", "w").write("\n".join(lines) + "\n")
print("\n".join(lines))
EOF
