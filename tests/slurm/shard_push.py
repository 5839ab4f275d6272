#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""A parameter server sharded over the first N-1 tasks of one srun step:
each shard connects to the last task (the worker, on its node's address)
and sends MB megabytes (argv[1], default 8), as a sharded PS pushes its
part of the update.  The worker prints what it received."""
import os
import socket
import subprocess
import sys
import time

PORT = 5002
rank = int(os.environ["SLURM_PROCID"])
ntasks = int(os.environ["SLURM_NTASKS"])
mb = int(sys.argv[1]) if len(sys.argv) > 1 else 8
hosts = dict(line.split() for line in
             open(os.environ["SLURM_RUN"] + "/hosts"))
nodes = subprocess.run(["scontrol", "show", "hostnames",
                        os.environ["SLURM_STEP_NODELIST"]],
                       capture_output=True, text=True, check=True).stdout.split()
worker = hosts[nodes[-1]]

if rank == ntasks - 1:
    ls = socket.create_server((worker, PORT), backlog=ntasks)
    got = 0
    for _ in range(ntasks - 1):
        c, _ = ls.accept()
        while True:
            b = c.recv(1 << 16)
            if not b:
                break
            got += len(b)
    print(f"worker received {got} bytes from {ntasks - 1} shards", flush=True)
else:
    for _ in range(200):
        try:
            s = socket.create_connection((worker, PORT))
            break
        except OSError:
            time.sleep(0.05)
    buf = b"p" * (1 << 20)
    for _ in range(mb):
        s.sendall(buf)
    s.close()
    print(f"shard {rank} sent {mb} MB", flush=True)
