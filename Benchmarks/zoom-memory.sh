#!/usr/bin/env bash
# Zoom's extra memory on a 100-megapixel JPEG (10000x10000): the screen's
# peak resident memory once the fitted picture is up, and after twelve
# zoom and pan steps (+ l j h k + l j - h k +) with their sharp views, in
# block art, kitty and sixel, at 160x50 cells of 8x17 pixels. The
# difference is what zooming costs. Goal: under 64 MiB. IMAGE=photo100.webp
# measures the same picture as a WebP (libwebp crops a region, then scales it).
source "$(dirname "$0")/common.sh"
[ -f "$out/photo100.jpg" ] || $python - "$out" <<'PY'
import sys, numpy as np
from PIL import Image
out = sys.argv[1]
rng = np.random.default_rng(100)
# Smooth colour at every scale, plus fine noise: a photo's detail everywhere.
base = Image.fromarray(rng.integers(0, 256, (40, 40, 3), dtype=np.uint8)).resize((10000, 10000), Image.BICUBIC)
a = np.asarray(base).astype(np.int16) + rng.integers(-10, 11, (10000, 10000, 1), dtype=np.int16)
Image.fromarray(np.clip(a, 0, 255).astype(np.uint8)).save(f"{out}/photo100.jpg", quality=88)
PY
image=${IMAGE:-photo100.jpg}
[ -f "$out/$image" ] || $python -c 'import sys; from PIL import Image; Image.MAX_IMAGE_PIXELS = None
Image.open(sys.argv[1]).save(sys.argv[2], quality=88, method=0)' "$out/photo100.jpg" "$out/$image"
serve "$out/$image"
cache_served "$image"
printf '%-8s %12s %14s %12s %12s\n' format "fit peak" "zoomed peak" "zoom's extra" "sharp views"
for format in ${FORMATS:-symbols kitty sixel}; do
  line=$(MEMORY=1 $python "$root/Benchmarks/zoom-pty.py" "$work/log-$format" 160x50 8x17 "+ljhk+lj-hk+" -- \
    env TERM=xterm-256color COLORTERM=truecolor "$urlcache" --config "$work/list.plist" --cache-dir "$work/cache" \
    --format "$format" --log-file "$work/log-$format")
  read -r _ fit _ zoomed _ views <<< "$line"
  $python -c 'import sys; f, z = int(sys.argv[2]) / 1024, int(sys.argv[3]) / 1024
print(f"{sys.argv[1]:<8} {f:8.1f} MiB {z:10.1f} MiB {z - f:8.1f} MiB {sys.argv[4]:>12}")' "$format" "$fit" "$zoomed" "$views"
done
echo "goal: zoom's extra memory under 64 MiB on 100 megapixels"
record_results
