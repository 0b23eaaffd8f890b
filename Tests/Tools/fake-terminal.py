#!/usr/bin/env python3
"""A scripted terminal for misbehaviour: runs a command on a pty of its own
(100x30 cells, 800x480 pixels) and answers urlcache's query burst as told,
then types KEYS. Prints everything the command wrote, as bytes, to stdout.

  fake-terminal.py MODE KEYS -- CMD...
MODE: silent (never answers), half (a DA1 cut short), lie (a kitty OK for
another image id, absurd registers and sizes, DA1 of letters), late (answers
after 600 ms, past the deadline), sixel (answers each burst as xterm -ti
vt340 does, with cells of 10x20 pixels: only what that burst asked), urxvt (answers
DA2 and DA1 as rxvt-unicode does), kitty (a local kitty: DA1, and kitty's reads of
shared memory, t=s: the object is read and unlinked, its query answered OK when
the object was there; each read is noted on stderr as "shm NAME BYTES"), or one
of PROFILES: terminals Debian does not package (Ghostty, WezTerm, VS Code,
Windows Terminal, Zellij, Contour, iTerm2, Warp, and foot newer than
Debian's), answering as their sources say.
KEYS: comma-separated, typed one by one, 0.5 s apart (RESIZE: the window
becomes 120x40 cells, 960x640 pixels), from 0.5 s after the command's first
picture (a kitty upload or a sixel), and at least 1.5 s after it started: a
screen still loading ignores most keys, and a busy machine may take longer
than any fixed time to get there (with no picture in 30 s, they go anyway;
'-' for none); after them the command has 5 s to end."""
import base64, fcntl, os, re, signal, struct, sys, termios, time
from ptyread import read_ready

mode, keys, cmd = sys.argv[1], sys.argv[2], sys.argv[4:]
pid, fd = os.forkpty()
if pid == 0:
    os.execvp(cmd[0], cmd)
# FAKE_PIXELS=0x0: a terminal whose TIOCGWINSZ has no pixel size.
# FAKE_CELLS=0x0: one that has not laid itself out yet (no size at all).
pw, ph = (int(v) for v in os.environ.get("FAKE_PIXELS", "800x480").split("x"))
cw, ch = (int(v) for v in os.environ.get("FAKE_CELLS", "100x30").split("x"))
fcntl.ioctl(fd, termios.TIOCSWINSZ, struct.pack("HHHH", ch, cw, pw, ph))
os.kill(pid, signal.SIGWINCH)
replies = {
    "half": b"\x1b[?1;0;256S\x1b[?62;4",
    "lie": b"\x1b_Gi=7;OK\x1b\\\x1b[?1;0;99999999S\x1b[6;90000;8t\x1b[?6x;4c",
    "late": b"\x1b[?62;4;22c",
}
# xterm -ti vt340's answers, by the query that asks for each (in order).
xterm_vt340 = [
    (b"\x1b[>0q", b"\x1bP>|XTerm(379)\x1b\\"),
    (b"\x1b[>c", b"\x1b[>19;379;0c"),
    (b"\x1bP$qm\x1b\\", b"\x1bP1$r0;38:2::1:2:3m\x1b\\"),
    (b"\x1b[?1;1;0S", b"\x1b[?1;0;1024S"),
    (b"\x1b[16t", b"\x1b[6;20;10t"),
]
# rxvt-unicode's: DA2 and DA1 only (it prints an APC as text).
urxvt = [(b"\x1b[>c", b"\x1b[>85;95;0c")]
# Terminals Debian 12 does not package, answering as their sources say
# (read for issue 46; file and version named on each). Each is a table of
# (query, reply) and its DA1. Cells are 8x16 pixels (800x480 over 100x30)
# but for Windows Terminal, whose sizes are fixed at 10x20.
XTVERSION, DA2, CELL, AREA = b"\x1b[>0q", b"\x1b[>c", b"\x1b[16t", b"\x1b[14t"
KITTY, DECRQSS, RGB, COLORS = b"\x1b_Gi=31,", b"\x1bP$qm\x1b\\", b"\x1bP+q524742\x1b\\", b"\x1bP+q636F6C6F7273\x1b\\"
XTSMGRAPHICS = b"\x1b[?1;1;0S"
SIZES = [(CELL, b"\x1b[6;16;8t"), (AREA, b"\x1b[4;480;800t")]
KITTY_OK = (KITTY, b"\x1b_Gi=31;OK\x1b\\")
PROFILES = {
    # ghostty-org/ghostty 1.3.1: src/termio/stream_handler.zig (XTVERSION
    # "ghostty <version>", DA2 1;10;0, DA1 62;22;52: no sixel, by design),
    # src/terminal/Terminal.zig (DECRQSS in colons), src/terminfo/Source.zig
    # (XTGETTCAP RGB 8, colors 256), src/terminal/kitty/graphics_exec.zig
    # (kitty's query OK); XTSMGRAPHICS ignored.
    "ghostty": ([(XTVERSION, b"\x1bP>|ghostty 1.3.1\x1b\\"), (DA2, b"\x1b[>1;10;0c"), *SIZES, KITTY_OK,
                 (DECRQSS, b"\x1bP1$r0;38:2::1:2:3m\x1b\\"), (RGB, b"\x1bP1+r524742=38\x1b\\"),
                 (COLORS, b"\x1bP1+r636F6C6F7273=323536\x1b\\")], b"\x1b[?62;22;52c"),
    # wez/wezterm 20240203-110809-5046fc22: term/src/terminalstate/mod.rs
    # (XTVERSION "WezTerm <tag>", DA2 1;277;0, DA1 65;4;6;18;22 with sixel,
    # XTGETTCAP RGB 8/8/8, XTSMGRAPHICS 65536), performer.rs (DECRQSS SGR
    # not supported: 0$r), kitty.rs (kitty's query OK; termwiz apc.rs has
    # no Unicode placeholders).
    "wezterm": ([(XTVERSION, b"\x1bP>|WezTerm 20240203-110809-5046fc22\x1b\\"), (DA2, b"\x1b[>1;277;0c"),
                 *SIZES, KITTY_OK, (DECRQSS, b"\x1bP0$r\x1b\\"),
                 (RGB, b"\x1bP1+r524742=382F382F38\x1b\\"), (COLORS, b"\x1bP1+r636F6C6F7273=323536\x1b\\"),
                 (XTSMGRAPHICS, b"\x1b[?1;0;65536S")], b"\x1b[?65;4;6;18;22c"),
    # VS Code with terminal.integrated.enableImages on: xterm.js 6 and its
    # image addon (src/common/InputHandler.ts: XTVERSION "xterm.js(<v>)",
    # DA2 0;276;0, DECRQSS SGR always "0m", no XTGETTCAP; addon-image
    # ImageAddon.ts: DA1 62;4;9;22, XTSMGRAPHICS 4096, size reports;
    # kitty/KittyGraphicsHandler.ts: kitty's query OK, t=d only).
    "vscode": ([(XTVERSION, b"\x1bP>|xterm.js(6.1.0)\x1b\\"), (DA2, b"\x1b[>0;276;0c"), *SIZES, KITTY_OK,
                (DECRQSS, b"\x1bP1$r0m\x1b\\"), (XTSMGRAPHICS, b"\x1b[?1;0;4096S")], b"\x1b[?62;4;9;22c"),
    # VS Code with pictures off (the default) or an xterm.js before 2026:
    # no XTVERSION, DA1 1;2 (InputHandler.ts sendDeviceAttributesPrimary).
    "vscode-plain": ([(DA2, b"\x1b[>0;276;0c"), *SIZES], b"\x1b[?1;2c"),
    # Windows Terminal 1.22 over ssh (no WT_SESSION there): microsoft/terminal
    # src/terminal/adapter/adaptDispatch.cpp: no XTVERSION, DA2 0;10;1, DA1
    # 61;4;6;7;14;21;22;23;24;28;32;42 (4: sixel since 1.22), cells a fixed
    # 10x20, DECRQSS the real SGR; no kitty, no XTGETTCAP, no XTSMGRAPHICS.
    "windows-terminal": ([(DA2, b"\x1b[>0;10;1c"), (CELL, b"\x1b[6;20;10t"), (AREA, b"\x1b[4;600;1000t"),
                          (DECRQSS, b"\x1bP1$r0;38:2::1:2:3m\x1b\\")],
                         b"\x1b[?61;4;6;7;14;21;22;23;24;28;32;42c"),
    # zellij-org/zellij 0.45.0, zellij-server/src/panes/grid.rs: XTVERSION
    # Zellij(4500) and DA2 0;4500;1 its own; 14t and 16t asked of the
    # terminal outside; DA1 lists 4 only when that terminal has sixel, and
    # kitty's query is OK only when it has kitty graphics; XTGETTCAP 0+r;
    # no DECRQSS. This terminal outside has both (kitty).
    "zellij": ([(XTVERSION, b"\x1bP>|Zellij(4500)\x1b\\"), (DA2, b"\x1b[>0;4500;1c"), *SIZES, KITTY_OK,
                (RGB, b"\x1bP0+r\x1b\\"), (COLORS, b"\x1bP0+r\x1b\\"), (XTSMGRAPHICS, b"\x1b[?1;0;65536S")],
               b"\x1b[?62;4;52c"),
    # The same Zellij on a sixel terminal without kitty graphics (foot):
    # kitty_graphics/replies.rs ENOTSUPPORTED.
    "zellij-sixel": ([(XTVERSION, b"\x1bP>|Zellij(4500)\x1b\\"), (DA2, b"\x1b[>0;4500;1c"), *SIZES,
                      (KITTY, b"\x1b_Gi=31;ENOTSUPPORTED:kitty graphics not supported by host terminal\x1b\\"),
                      (XTSMGRAPHICS, b"\x1b[?1;0;65536S")], b"\x1b[?62;4;52c"),
    # Zellij 0.44: DA1 listed 4 whatever the terminal outside (grid.rs at
    # v0.44.3), and kitty's APC was dropped.
    "zellij-0.44": ([(XTVERSION, b"\x1bP>|Zellij(4403)\x1b\\"), (DA2, b"\x1b[>0;4403;1c"), *SIZES],
                    b"\x1b[?62;4;52c"),
    # contour-terminal/contour 0.7.0.8982, src/vtbackend/Screen.cpp:
    # XTVERSION "contour <version>", DA1 65;1;3;4;7;9;18;21;22;29;52;314,
    # DA2 65;700;0, XTSMGRAPHICS 4096, DECRQSS in semicolons, kitty OK (but
    # no o=z: KittyGraphics.cpp).
    "contour": ([(XTVERSION, b"\x1bP>|contour 0.7.0.8982\x1b\\"), (DA2, b"\x1b[>65;700;0c"), *SIZES,
                 KITTY_OK, (DECRQSS, b"\x1bP1$r0;38;2;1;2;3m\x1b\\"),
                 (RGB, b"\x1bP1+r524742=382F382F38\x1b\\"), (XTSMGRAPHICS, b"\x1b[?1;0;4096S")],
                b"\x1b[?65;1;3;4;7;9;18;21;22;29;52;314c"),
    # gnachman/iTerm2 v3.5.15: sources/VT100Output.m (XTVERSION "iTerm2
    # <version>", DA2 64;2500;0 from 3.5.6, DA1 64;1;2;4;6;17;18;21;22 with
    # sixel), VT100Terminal.m (DECRQSS 38:2:1:r:g:b, XTGETTCAP RGB 8 and
    # colors 256, XTSMGRAPHICS 256, CSI 14 t the window; no 16 t),
    # KittyImageController.swift (kitty's query "OK" without i=, 3.5.6 on).
    "iterm2": ([(XTVERSION, b"\x1bP>|iTerm2 3.5.15\x1b\\"), (DA2, b"\x1b[>64;2500;0c"), (AREA, b"\x1b[4;500;820t"),
                (KITTY, b"\x1b_GOK\x1b\\"), (DECRQSS, b"\x1bP1$r0;38:2:1:1:2:3m\x1b\\"),
                (RGB, b"\x1bP1+r524742=38\x1b\\"), (COLORS, b"\x1bP1+r636F6C6F7273=323536\x1b\\"),
                (XTSMGRAPHICS, b"\x1b[?1;0;256S")], b"\x1b[?64;1;2;4;6;17;18;21;22c"),
    # iTerm2 v3.5.5 and before: DA2 41;2500;0, and kitty's APC no answer
    # (VT100XtermParser.m made it the window's title).
    "iterm2-3.5.5": ([(XTVERSION, b"\x1bP>|iTerm2 3.5.5\x1b\\"), (DA2, b"\x1b[>41;2500;0c"),
                      (AREA, b"\x1b[4;500;820t"), (XTSMGRAPHICS, b"\x1b[?1;0;256S")],
                     b"\x1b[?64;1;2;4;6;17;18;21;22c"),
    # warpdotdev/warp 19548aec (2026-08): app/src/terminal/model/grid/
    # ansi_handler.rs (DA1 62, DA2 0;95;0, XTVERSION "Warp(<tag>)", CSI 14 t;
    # no 16 t, XTGETTCAP, XTSMGRAPHICS or DECRQSS answer), model/kitty.rs
    # (kitty's query i=31;OK; t=d, o=z, a=T; U=1 refused; no sixel).
    "warp": ([(XTVERSION, b"\x1bP>|Warp(v0.2026.08.19.08.15.stable_01)\x1b\\"), (DA2, b"\x1b[>0;95;0c"),
              (AREA, b"\x1b[4;480;800t"), KITTY_OK], b"\x1b[?62c"),
    # foot 1.16.2 (codeberg.org/dnkl/foot): csi.c (DA1 62;4;22, DA2
    # 1;011602;0, XTVERSION "foot(1.16.2)", XTSMGRAPHICS 1024 from sixel.c,
    # CSI 14 t and 16 t), dcs.c (DECRQSS 0;38:2::r:g:b, XTGETTCAP RGB 8,
    # colors 256); vt.c swallows kitty's APC unanswered.
    "foot": ([(XTVERSION, b"\x1bP>|foot(1.16.2)\x1b\\"), (DA2, b"\x1b[>1;011602;0c"), *SIZES,
              (DECRQSS, b"\x1bP1$r0;38:2::1:2:3m\x1b\\"), (RGB, b"\x1bP1+r524742=38\x1b\\"),
              (COLORS, b"\x1bP1+r636F6C6F7273=323536\x1b\\"), (XTSMGRAPHICS, b"\x1b[?1;0;1024S")],
             b"\x1b[?62;4;22c"),
}
def answer_burst(burst):
    if mode in PROFILES:
        table, da1 = PROFILES[mode]
    else:
        table, da1 = (xterm_vt340, b"\x1b[?63;1;2;4;6;9;15;22c") if mode == "sixel" else (urxvt, b"\x1b[?1;2c")
    return b"".join(reply for query, reply in table if query in burst) + da1
out = bytearray()
start = time.time()
answered = False
burst_start = 0
late_at = None
typed = 0
keys_from = None
picture = re.compile(rb"\x1b_Ga=T|\x1bP[0-9;]*q")
key_list = [] if keys == "-" else keys.split(",")
end_at = None
shm_reads = []
da1_start = 0
while True:
    now = time.time()
    if late_at and now >= late_at:
        os.write(fd, replies["late"]); late_at = None
    if keys_from is None and (picture.search(out) or now - start > 30):
        keys_from = max(start + 1.5, now + 0.5)
    if key_list and keys_from and typed < len(key_list) and now >= keys_from + 0.5 * typed:
        if key_list[typed] == "RESIZE":
            fcntl.ioctl(fd, termios.TIOCSWINSZ, struct.pack("HHHH", 40, 120, 960, 640))
            os.kill(pid, signal.SIGWINCH)
        else:
            os.write(fd, key_list[typed].encode())
        typed += 1
        if typed == len(key_list): end_at = now + 5
    if end_at is None and not key_list and now - start > 5:
        break
    if end_at and now > end_at:
        break
    data = read_ready(fd, 0.05)
    if data is None:
        break
    if data:
        out += data
        if mode == "kitty":
            while True:
                m = re.compile(rb"\x1b_G([^;\x1b]*t=s[^;\x1b]*);([A-Za-z0-9+/=]*)\x1b\\").search(out, burst_start)
                if not m:
                    break
                burst_start = m.end()
                name = base64.b64decode(m.group(2)).decode()
                try:
                    size = os.path.getsize("/dev/shm" + name)
                    os.unlink("/dev/shm" + name)
                    status = b"OK"
                except OSError:
                    size, status = -1, b"ENOENT:no such object"
                shm_reads.append(f"shm {name} {size}")
                if b"a=q" in m.group(1):
                    image = re.search(rb"i=(\d+)", m.group(1)).group(1)
                    os.write(fd, b"\x1b_Gi=" + image + b";" + status + b"\x1b\\")
            while (end := out.find(b"\x1b[c", da1_start)) >= 0:
                os.write(fd, b"\x1b[?62;c")
                da1_start = end + 3
        elif mode in ("sixel", "urxvt") or mode in PROFILES:
            # every burst ends with DA1
            while (end := out.find(b"\x1b[c", burst_start)) >= 0:
                os.write(fd, answer_burst(bytes(out[burst_start:end])))
                burst_start = end + 3
        elif not answered and b"\x1b[c" in out:
            answered = True
            if mode == "late":
                late_at = time.time() + 0.6
            elif mode in replies:
                os.write(fd, replies[mode])
try:
    os.kill(pid, signal.SIGTERM)
except ProcessLookupError:
    pass
_, status = os.waitpid(pid, 0)
sys.stdout.buffer.write(bytes(out))
sys.stderr.write("".join(line + "\n" for line in shm_reads))
sys.stderr.write(f"exit {os.waitstatus_to_exitcode(status)}\n")
