#!/usr/bin/env bash
# Makes the JPEG XL fixtures with libjxl's own tools (libjxl-tools, Debian 12):
#   still.jxl          photo.jpg at 96x64, lossy (XYB, cjxl -d 1)
#   still.jxl.ref.png  libjxl's own decode of it (djxl)
#   animated.jxl       animated.gif, lossless (cjxl -d 0; cjxl takes no GIF
#                      whose cleared frames are cropped, so not animated-cropped.gif)
#   animated.jxl.frameN.ref.png   libjxl's own canvases of it (djxl to APNG;
#                      its GIF import composes some frames unlike browsers)
set -euo pipefail
cd "$(dirname "$0")"
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
/usr/bin/python3 -c "
from PIL import Image
Image.open('../images/photo.jpg').convert('RGB').resize((96, 64), Image.LANCZOS).save('$tmp/still.png')"
cjxl -d 1 "$tmp/still.png" still.jxl >/dev/null 2>&1
djxl still.jxl "$tmp/ref.png" >/dev/null 2>&1
/usr/bin/python3 -c "from PIL import Image; Image.open('$tmp/ref.png').convert('RGB').save('still.jxl.ref.png')"
cjxl -d 0 animated.gif animated.jxl >/dev/null 2>&1
djxl animated.jxl "$tmp/anim.apng" >/dev/null 2>&1
/usr/bin/python3 -c "
from PIL import Image
im = Image.open('$tmp/anim.apng')
for i in range(im.n_frames):
    im.seek(i)
    im.convert('RGBA').save(f'animated.jxl.frame{i}.ref.png')"
