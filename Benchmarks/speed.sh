#!/usr/bin/env bash
# Speed and memory of `urlcache render` against its peers, whole process:
#   JPEG 12 MP (4000x3000) to 160x48: urlcache vs chafa (goal: at most 0.5x chafa)
#   PNG 12 MP and 100 MP (plain, interlaced, and flat: fast to inflate) to 160x48: urlcache vs libpng
#   reading every row in C (goal: at most 1.05x)
#   peak RSS for each (goal: under 40 MiB)
#   the renderer's own time per symbol set and colour mode (--timings)
# Medians of runs taken in turns (race.py); prints the table with the command lines.
source "$(dirname "$0")/common.sh"
for f in photo12.jpg photo12.png huge.png huge-interlaced.png photo.png; do
  [ -f "$out/$f" ] || { $python "$root/Benchmarks/make-images.py" "$out" --big; break; }
done
gcc -O2 -o "$out/png-read-rows" "$root/Benchmarks/png-read-rows.c" $(pkg-config --cflags --libs libpng)
row() { printf '%-21s %-16s %9s %10s   %s\n' "$1" "$2" "$3" "$4" "$5"; }
row case program "median s" "peak KiB" command
race "${RUNS:-11}" jpeg \
  "urlcache $urlcache render $out/photo12.jpg --size 160x48 --colors truecolor" \
  "chafa chafa --size 160x48 $out/photo12.jpg"
ratio() { $python -c "print('%-21s %-16s %9.2fx' % ('$1', 'ratio', $2 / $3))"; }
ratio jpeg-urlcache/chafa "${medians[0]}" "${medians[1]}"
race "${RUNS:-11}" png \
  "urlcache $urlcache render $out/photo12.png --size 160x48 --colors truecolor" \
  "libpng-rows $out/png-read-rows $out/photo12.png" \
  "chafa chafa --size 160x48 $out/photo12.png"
ratio png-urlcache/libpng "${medians[0]}" "${medians[1]}"
race 3 png-100MP \
  "urlcache $urlcache render $out/huge.png --size 160x48 --colors truecolor" \
  "libpng-rows $out/png-read-rows $out/huge.png"
ratio png-100MP-urlcache/libpng "${medians[0]}" "${medians[1]}"
race 3 png-100MP-interlaced \
  "urlcache $urlcache render $out/huge-interlaced.png --size 160x48 --colors truecolor" \
  "libpng-rows $out/png-read-rows $out/huge-interlaced.png"
ratio png-100MP-il-urlcache/libpng "${medians[0]}" "${medians[1]}"
# #16's case: 100 MP that inflate fast (large flat rectangles), where the box
# filter, not inflate, would set the pace. Goal: at most 1.05x libpng.
[ -f "$out/flat100.png" ] || $python - "$out/flat100.png" <<'PY'
import random, sys
from PIL import Image, ImageDraw
random.seed(7)
image = Image.new("RGB", (10000, 10000), (30, 60, 90))
draw = ImageDraw.Draw(image)
for _ in range(60):
    x, y, w, h = random.randrange(10000), random.randrange(10000), random.randrange(500, 4000), random.randrange(500, 4000)
    draw.rectangle((x, y, x + w, y + h), fill=(random.randrange(256), random.randrange(256), random.randrange(256)))
image.save(sys.argv[1], compress_level=6)
PY
race 5 png-100MP-flat \
  "urlcache $urlcache render $out/flat100.png --size 160x48 --colors truecolor" \
  "libpng-rows $out/png-read-rows $out/flat100.png"
ratio png-100MP-flat-urlcache/libpng "${medians[0]}" "${medians[1]}"
echo
echo "renderer alone (urlcache render --timings, 800x600 photo to 160x48):"
for s in halves quadrants sextants; do for m in truecolor 256; do
  printf '%-10s %-10s %s\n' "$s" "$m" "$("$urlcache" render "$out/photo.png" --size 160x48 --colors $m --symbols $s --timings 2>&1 >/dev/null)"
done; done
record_results
