#!/usr/bin/env python3
"""Times commands in turns: one run of each, then again, ROUNDS times, and
prints each command's median wall time in seconds, one per line. Taking
turns means a busy neighbour on a shared machine slows every command alike,
so their ratio holds where separate batches of runs (hyperfine's way) drift
by 20% or more.
usage: race.py [--tty OUTFILE] ROUNDS COMMAND [COMMAND...]   (each command a shell line)
With --tty the commands write to this process's terminal (to time a program
drawing on a real screen, in tmux) and the medians go to OUTFILE.
With --pty COLSxROWS:WxH each command writes to a new pty of that size in
cells and pixels (TIOCGWINSZ), drained as a terminal would read it: how
pixel output is timed, since chafa and urlcache size their pictures from it."""
import fcntl
import os
import struct
import termios
import threading
import shlex
import statistics
import subprocess
import sys
import time

args = sys.argv[1:]
tty_out = None
pty_size = None
if args[0] == "--tty":
    tty_out, args = args[1], args[2:]
if args[0] == "--pty":
    cells, pixels = args[1].split(":")
    pty_size = [int(v) for v in cells.split("x")] + [int(v) for v in pixels.split("x")]
    args = args[2:]

def open_pty():
    master, slave = os.openpty()
    cols, rows, w, h = pty_size
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", rows, cols, w, h))
    def drain():
        try:
            while os.read(master, 1 << 16):
                pass
        except OSError:
            pass
    t = threading.Thread(target=drain, daemon=True)
    t.start()
    return master, slave, t
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
        if pty_size:
            master, slave, drainer = open_pty()
            subprocess.run(shlex.split(command) if plain else command, shell=not plain, stdout=slave, stderr=subprocess.DEVNULL,
                           stdin=subprocess.DEVNULL, check=False)
            os.close(slave)
            drainer.join(timeout=5)
            os.close(master)
        else:
            subprocess.run(shlex.split(command) if plain else command, shell=not plain, stdout=sink, stderr=sink, check=False)
        if not warm_up:
            times[k].append(time.perf_counter() - start)
lines = "".join("%.4f\n" % statistics.median(t) for t in times)
if tty_out:
    with open(tty_out, "w") as f:
        f.write(lines)
else:
    sys.stdout.write(lines)
