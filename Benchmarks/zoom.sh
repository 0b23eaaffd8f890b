#!/usr/bin/env bash
# Zoom and pan, key to sharp view: the screen in a pseudo-terminal of 160x50
# cells of 8x17 pixels (an image area of 160x44 cells, 1280x748 pixels),
# whose output zoom-pty.py reads as fast as it comes and drops, so that the
# decode, the render and the encoding are measured and no terminal's
# drawing is; on a 12-megapixel photo (4000x3000) and a 5424x5424 JPEG
# (GOES' full disk at its source size), in block art and with kitty and
# sixel pixels. Each step is one key: + l j h k + l j - h k +, all zoomed.
# The screen's log says, for every sharp view, how long after the key it was
# drawn and how long its decode took (0 for a pan cut from the pixels a
# decode had at hand, with its margin). Medians of all the steps of ROUNDS
# runs (default 3), and apart for the zoom steps (+ -) and the pans (h j k l);
# "decode" and its share are of the steps that decoded.
# Goal: median key to sharp view <= 100 ms. IMAGES and FORMATS pick a part.
source "$(dirname "$0")/common.sh"
[ -f "$out/photo12.jpg" ] || $python "$root/Benchmarks/make-images.py" "$out" --big
[ -f "$out/disk5424.jpg" ] || $python - "$out" <<'PY'
import sys, numpy as np
from PIL import Image
out = sys.argv[1]
rng = np.random.default_rng(5424)
base = Image.open(f"{out}/earth.jpg").convert("RGB").resize((5424, 5424), Image.LANCZOS)
a = np.asarray(base).astype(np.int16) + rng.integers(-12, 13, (5424, 5424, 1), dtype=np.int16)
Image.fromarray(np.clip(a, 0, 255).astype(np.uint8)).save(f"{out}/disk5424.jpg", quality=90)
PY
serve "$out/photo12.jpg" "$out/disk5424.jpg"
keys="+ljhk+lj-hk+"
printf '%-14s %-8s %7s %9s %9s %7s %9s %9s\n' image format steps "key→sharp" decode "share" zooms pans
for image in ${IMAGES:-photo12.jpg disk5424.jpg}; do
  cache_served "$image"
  for format in ${FORMATS:-symbols kitty sixel}; do
    : > "$work/all"
    for round in $(seq "${ROUNDS:-3}"); do
      log="$work/log-$image-$format-$round"
      $python "$root/Benchmarks/zoom-pty.py" "$log" 160x50 8x17 "$keys" -- env TERM=xterm-256color COLORTERM=truecolor \
        "$urlcache" --config "$work/list.plist" --cache-dir "$work/cache" --format "$format" --log-file "$log"
      grep "view shown" "$log" | sed -E 's/.*shown ([0-9.]+) ms after the key \(decode ([0-9.]+) ms\).*/\1 \2/' >> "$work/all"
    done
    $python - "$work/all" "$image" "$format" "$keys" <<'PY'
import sys, statistics
rows = [tuple(map(float, l.split())) for l in open(sys.argv[1]) if l.strip()]
if not rows: print(f"{sys.argv[2]:<14} {sys.argv[3]:<8} no views shown"); sys.exit()
total = statistics.median(r[0] for r in rows)
# The decode's share of the steps that decoded (a pan cut from pixels at hand has none).
decoded = [r for r in rows if r[1] > 0]
decode = statistics.median(r[1] for r in decoded) if decoded else 0.0
within = statistics.median(r[0] for r in decoded) if decoded else 0.0
# One view a key, in the keys' order, round after round.
keys = sys.argv[4] * (len(rows) // len(sys.argv[4]))
zooms = [r[0] for r, k in zip(rows, keys) if k in "+-"]; pans = [r[0] for r, k in zip(rows, keys) if k not in "+-"]
part = lambda v: f"{statistics.median(v):7.1f}ms" if v and len(keys) == len(rows) else "      n/a"
share = 100 * decode / within if within else 0
print(f"{sys.argv[2]:<14} {sys.argv[3]:<8} {len(rows):7d} {total:7.1f}ms {decode:7.1f}ms {share:6.0f}% {part(zooms)} {part(pans)}")
PY
  done
done
echo "goal: median key to sharp view at most 100 ms"
record_results
