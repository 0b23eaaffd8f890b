#!/usr/bin/env python3
"""The terminal outside tmux, scripted: runs CMD (a tmux client) on a pty of
its own (100x30 cells of 10x20 pixels, TERM=xterm-kitty) and answers as
kitty 0.35 does, a terminal newer than Debian's: XTVERSION, DA1, DA2, the
cell and window size in pixels, and kitty's graphics query. Everything CMD
writes is appended to LOG, so a test can see what reached the terminal.
Ends when CMD does, or after 300 s.

  outer-terminal.py LOG -- CMD...
"""
import fcntl, os, re, signal, struct, sys, termios, time
from ptyread import read_ready

log_path, cmd = sys.argv[1], sys.argv[3:]
pid, fd = os.forkpty()
if pid == 0:
    os.environ["TERM"] = "xterm-kitty"
    os.execvp(cmd[0], cmd)
fcntl.ioctl(fd, termios.TIOCSWINSZ, struct.pack("HHHH", 30, 100, 1000, 600))
os.kill(pid, signal.SIGWINCH)

def graphics_reply(match):
    image = re.search(rb"i=(\d+)", match.group(1))
    return b"\x1b_Gi=" + (image.group(1) if image else b"0") + b";OK\x1b\\"

# kitty 0.35's answers, by the query that asks for each.
answers = [
    (re.compile(rb"\x1b\[>0?q"), lambda m: b"\x1bP>|kitty(0.35.2)\x1b\\"),
    (re.compile(rb"\x1b\[>0?c"), lambda m: b"\x1b[>1;4000;35c"),
    (re.compile(rb"\x1b\[0?c"), lambda m: b"\x1b[?62;c"),
    (re.compile(rb"\x1b_G([^;\x1b]*a=q[^;\x1b]*);[^\x1b]*\x1b\\"), graphics_reply),
    (re.compile(rb"\x1b\[16t"), lambda m: b"\x1b[6;20;10t"),
    (re.compile(rb"\x1b\[14t"), lambda m: b"\x1b[4;600;1000t"),
]
log = open(log_path, "ab", buffering=0)
pending = b""
deadline = time.time() + 300
while time.time() < deadline:
    data = read_ready(fd, 0.2)
    if data is None:
        break
    if data:
        log.write(data)
        # A query may be split between reads: keep an unanswered tail.
        pending = (pending + data)[-65536:]
        for query, answer in answers:
            for match in query.finditer(pending):
                os.write(fd, answer(match))
            pending = query.sub(b"", pending)
    if os.waitpid(pid, os.WNOHANG)[0] == pid:
        break
else:
    os.kill(pid, signal.SIGTERM)
