#!/usr/bin/env python3
"""Times commands in turns: one run of each, then again, ROUNDS times, and
prints each command's median wall time in seconds, one per line. Taking
turns means a busy neighbour on a shared machine slows every command alike,
so their ratio holds where separate batches of runs (hyperfine's way) drift
by 20% or more.
usage: race.py ROUNDS COMMAND [COMMAND...]   (each command a shell line)"""
import statistics
import subprocess
import sys
import time

rounds, commands = int(sys.argv[1]), sys.argv[2:]
times = [[] for _ in commands]
for warm_up in [True] + [False] * rounds:
    for k, command in enumerate(commands):
        start = time.perf_counter()
        subprocess.run(command, shell=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False)
        if not warm_up:
            times[k].append(time.perf_counter() - start)
for t in times:
    print("%.3f" % statistics.median(t))
