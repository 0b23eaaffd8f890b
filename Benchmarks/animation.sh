#!/usr/bin/env bash
# An animation in the screen against chafa playing it: 6 s of a 120-frame
# 1280x720 GIF at 40 ms a frame (a moving scene: every frame differs
# everywhere), in a tmux window of 160x50, urlcache's screen (block art,
# truecolour) beside `chafa --duration 6` at the same size. Each runs under
# /usr/bin/time in the window; medians of ROUNDS (default 3) rounds taken in
# turns: CPU seconds (user + system) and peak RSS.
# Goals (#16): CPU at most 0.5x chafa's, peak RSS at most 100 MiB.
# Then the same 6 s in real terminals under Xvfb (Tests/Tools/termshot.py,
# TERMINALS, default "kitty xterm-sixel"): urlcache's screen (stopped by
# SIGTERM at 6 s), `urlcache render --duration 6` and `chafa --duration 6`
# (stopped at 20 s if it runs on): CPU, peak RSS and wall seconds. Frames
# on time: the screen's log says, when an animation stops, how many frames
# it drew and how late each was against when it was due.
source "$(dirname "$0")/common.sh"
[ -f "$out/anim120.gif" ] || $python - "$out/anim120.gif" <<'PY'
import sys, numpy as np
from PIL import Image
y, x = np.mgrid[0:720, 0:1280].astype(np.float32)
frames = []
for n in range(120):
    t = n / 120 * 2 * np.pi
    r = 128 + 110 * np.sin(x / 90 + t) * np.cos(y / 130 - t)
    g = 128 + 110 * np.sin((x + y) / 160 + 2 * t)
    b = 128 + 110 * np.cos(np.hypot(x - 640 - 300 * np.cos(t), y - 360 - 200 * np.sin(t)) / 40)
    frames.append(Image.fromarray(np.dstack([r, g, b]).clip(0, 255).astype(np.uint8)).quantize(256))
frames[0].save(sys.argv[1], save_all=True, append_images=frames[1:], duration=40, loop=0)
PY
# timing LABEL: the last round's frame timing from the screen's log.
timing() { { grep -h "animation timing" "$work/log" | tail -1 | sed "s/^.*animation timing: /$1, last round: /"; } || true; }
serve "$out/anim120.gif"
cache_served anim120.gif
tmux -L bench kill-server 2>/dev/null || true
# set -e holds inside the trap too: with no tmux server left, kill-server's
# failure ended the trap there (exit 1, and $work left behind).
trap 'set +e; tmux -L bench kill-server 2>/dev/null; kill $server 2>/dev/null; rm -rf "$work"' EXIT
# run NAME COMMAND...: the command in a fresh 160x50 tmux window for 6 s
# (urlcache is then sent q), its "user system peak-KiB" appended to $work/NAME.
run() {
  local name=$1; shift
  tmux -L bench kill-server 2>/dev/null || true
  tmux -L bench new-session -d -x 160 -y 50 "TERM=tmux-256color COLORTERM=truecolor /usr/bin/time -a -o $work/$name -f '%U %S %M' $*"
  sleep 6
  tmux -L bench send-keys q 2>/dev/null || true
  for _ in $(seq 50); do tmux -L bench has-session 2>/dev/null || break; sleep 0.1; done
}
for round in $(seq "${ROUNDS:-3}"); do
  rm -f "$work/log"
  run urlcache "$urlcache" --config "$work/list.plist" --cache-dir "$work/cache" --offline --format symbols --log-file "$work/log"
  run chafa chafa --duration 6 --size 160x48 "$work/www/anim120.gif"
done
$python - "$work/urlcache" "$work/chafa" <<'PY'
import sys, statistics
def rows(path):
    return [tuple(map(float, l.split())) for l in open(path) if len(l.split()) == 3]
u, c = rows(sys.argv[1]), rows(sys.argv[2])
cpu = lambda r: statistics.median(a + b for a, b, _ in r)
rss = lambda r: statistics.median(m for _, _, m in r) / 1024
print(f"{'program':<10} {'CPU s':>8} {'peak MiB':>9}")
print(f"{'urlcache':<10} {cpu(u):8.2f} {rss(u):9.1f}")
print(f"{'chafa':<10} {cpu(c):8.2f} {rss(c):9.1f}")
print(f"urlcache / chafa CPU: {cpu(u) / cpu(c):.2f}x (goal at most 0.5x); peak RSS goal at most 100 MiB")
PY
timing "urlcache in tmux"
# In a real terminal: one program's 6 s, its "user system peak-KiB wall" appended to $work/TERMINAL-NAME.
shoot() {
  local terminal=$1 name=$2; shift 2
  printf '#!/bin/sh\n/usr/bin/time -a -o %s -f "%%U %%S %%M %%e" %s 2>/dev/null\nsleep 2\n' "$work/$terminal-$name" "$*" > "$work/run.sh"
  chmod +x "$work/run.sh"
  HOME="$work" WAIT=24 $python "$root/Tests/Tools/termshot.py" shot "$terminal" "$work/shot.png" "$work/run.sh" >/dev/null 2>&1 || true
}
for terminal in ${TERMINALS-kitty xterm-sixel}; do
  rm -f "$work/log"
  for round in $(seq "${ROUNDS:-3}"); do
    shoot "$terminal" screen timeout --foreground -s TERM 6 "$urlcache" --config "$work/list.plist" --cache-dir "$work/cache" --offline --log-file "$work/log"
    shoot "$terminal" render "$urlcache" render --duration 6 "$work/www/anim120.gif"
    shoot "$terminal" chafa timeout --foreground -s INT 20 chafa --duration 6 "$work/www/anim120.gif"
  done
  $python - "$terminal" "$work/$terminal-screen" "$work/$terminal-render" "$work/$terminal-chafa" <<'PY'
import sys, statistics
print(f"\n{sys.argv[1]}: {'program':<16} {'CPU s':>7} {'peak MiB':>9} {'wall s':>7}")
for name, path in zip(["urlcache screen", "urlcache render", "chafa"], sys.argv[2:]):
    try:
        rows = [tuple(map(float, l.split())) for l in open(path) if len(l.split()) == 4]
    except OSError:
        rows = []
    pad = " " * (len(sys.argv[1]) + 2)
    if not rows:
        print(f"{pad}{name:<16} (did not run)")
        continue
    m = lambda f: statistics.median(f(r) for r in rows)
    print(f"{pad}{name:<16} {m(lambda r: r[0] + r[1]):7.2f} {m(lambda r: r[2]) / 1024:9.1f} {m(lambda r: r[3]):7.2f}")
PY
  timing "urlcache's screen in $terminal"
done
record_results
