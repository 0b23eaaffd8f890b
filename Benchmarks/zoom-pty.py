#!/usr/bin/env python3
"""Drives the screen in a pseudo-terminal of its own for Benchmarks/zoom.sh:
COLUMNSxROWS cells of CELLWxCELLH pixels (TIOCSWINSZ), its output read as
fast as it comes and thrown away (so that what is measured is urlcache's
work, not a terminal's), the keys typed one at a time, each after the log
says the previous one's sharp view was drawn.
With MEMORY set, it prints the screen's peak resident memory (VmHWM, KiB)
once the fitted picture is up and again after the last key: "fit N zoomed M".
usage: zoom-pty.py LOG COLUMNSxROWS CELLWxCELLH KEYS -- COMMAND..."""
import fcntl, os, pty, select, struct, sys, termios, time

log, size, cell, keys = sys.argv[1:5]
command = sys.argv[sys.argv.index('--') + 1:]
columns, rows = (int(v) for v in size.split('x'))
cw, ch = (int(v) for v in cell.split('x'))
pid, fd = pty.fork()
if pid == 0:
    os.execvp(command[0], command)
fcntl.ioctl(fd, termios.TIOCSWINSZ, struct.pack('HHHH', rows, columns, columns * cw, rows * ch))

def drain(seconds):
    end = time.time() + seconds
    while time.time() < end:
        r, _, _ = select.select([fd], [], [], max(0, min(0.01, end - time.time())))
        if r:
            try:
                os.read(fd, 1 << 20)
            except OSError:
                return

def shown():
    try:
        return sum(1 for line in open(log) if 'view shown' in line)
    except FileNotFoundError:
        return 0

def started():
    """The screen is up with its picture (a 100-megapixel WebP takes a second)."""
    try:
        return any('picture ready' in line for line in open(log))
    except FileNotFoundError:
        return False

def peak():
    for line in open(f'/proc/{pid}/status'):
        if line.startswith('VmHWM:'):
            return int(line.split()[1])
    return 0

deadline = time.time() + 60
while not started() and time.time() < deadline:
    drain(0.05)
drain(1.0)
fit = peak()
for key in keys:
    before = shown()
    os.write(fd, key.encode())
    limit = time.time() + 5
    while shown() <= before and time.time() < limit:
        drain(0.01)
    drain(0.05)
if os.environ.get('MEMORY'):
    print(f'fit {fit} zoomed {peak()} views {shown()}')
os.write(fd, b'q')
drain(0.5)
try:
    os.waitpid(pid, 0)
except ChildProcessError:
    pass
