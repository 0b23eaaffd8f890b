#!/usr/bin/env python3
"""Times commands in turns: one run of each, then again, ROUNDS times, and
prints each command's median wall time in seconds, one per line. Taking
turns means a busy neighbour on a shared machine slows every command alike,
so their ratio holds where separate batches of runs (hyperfine's way) drift
by 20% or more.
usage: race.py [--tty OUTFILE] ROUNDS COMMAND [COMMAND...]   (each command a shell line)
With --tty the commands write to this process's terminal (to time a program
drawing on a real screen, in tmux) and the medians go to OUTFILE."""
import shlex
import statistics
import subprocess
import sys
import time

args = sys.argv[1:]
tty_out = None
if args[0] == "--tty":
    tty_out, args = args[1], args[2:]
rounds, commands = int(args[0]), args[1:]
sink = None if tty_out else subprocess.DEVNULL
times = [[] for _ in commands]
for warm_up in [True] + [False] * rounds:
    for k, command in enumerate(commands):
        start = time.perf_counter()
        # A plain command line runs without a shell between: the shell's own
        # start-up would be timed too, the same for every command, and would
        # pull every ratio towards 1.
        plain = not any(c in command for c in "|&;<>()$`\\\"'*?[]#~=%")
        subprocess.run(shlex.split(command) if plain else command, shell=not plain, stdout=sink, stderr=sink, check=False)
        if not warm_up:
            times[k].append(time.perf_counter() - start)
lines = "".join("%.3f\n" % statistics.median(t) for t in times)
if tty_out:
    with open(tty_out, "w") as f:
        f.write(lines)
else:
    sys.stdout.write(lines)
