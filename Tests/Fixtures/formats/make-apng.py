#!/usr/bin/env python3
"""Makes the APNG fixtures with Pillow's APNG writer (which works out each
frame's rectangle, disposal and blending from whole canvases), and the
canvases it was given as the reference frames:
  animated.apng              4 frames, 40x30 RGBA: blend over and source,
                             dispose none, previous, background; loops twice
  animated.apng.frameN.ref.png   the canvas after frame N
  default-image.apng         the IDAT image is not a frame (shown as the still)
  damaged.apng               animated.apng with frame 3's fdAT altered (its CRC fails)
Run: /usr/bin/python3 make-apng.py (Pillow >= 9)."""
from PIL import Image, ImageDraw

W, H = 40, 30

def frame(i):
    im = Image.new('RGBA', (W, H), (0, 0, 0, 0))
    d = ImageDraw.Draw(im)
    if i == 0:
        for x in range(W * 2 // 3):                               # the right third transparent
            d.line([(x, 0), (x, H)], fill=(x * 9, 80, 255 - x * 9, 255))
    elif i == 1:
        d.rectangle([15, 5, 35, 15], fill=(255, 255, 0, 128))   # half-transparent, over both
    elif i == 2:
        d.ellipse([15, 8, 35, 28], fill=(0, 200, 0, 255))       # disposed to previous
    else:
        d.rectangle([0, 20, 39, 29], fill=(200, 0, 200, 255))   # then background
    return im

frames = [frame(i) for i in range(4)]
# Each frame but the first drawn over what the ones before left (PIL
# crops each to its changed box when it writes).
canvas = frames[0].copy()
shown = [canvas]
for f in frames[1:]:
    c = shown[-1].copy()
    c.alpha_composite(f)
    shown.append(c)
shown[0].save('animated.apng', save_all=True, append_images=shown[1:], duration=[100, 150, 200, 250], loop=2,
              disposal=[0, 0, 2, 1], blend=[0, 1, 0, 0])
# The references are the canvases the writer was given: Pillow's reader
# (10.x) blends a half-transparent pixel over a transparent one to half
# its alpha, where the specification's OVER keeps it.
for i, c in enumerate(shown):
    c.save(f'animated.apng.frame{i}.ref.png')

still = Image.new('RGBA', (W, H), (255, 0, 0, 255))
still.save('default-image.apng', save_all=True, append_images=shown, default_image=True, duration=100, loop=0)

data = bytearray(open('animated.apng', 'rb').read())
seen = 0
at = 8
while at < len(data):
    length = int.from_bytes(data[at:at + 4], 'big')
    kind = bytes(data[at + 4:at + 8])
    if kind == b'fcTL':
        seen += 1
    if kind == b'fdAT' and seen == 4:       # frame 3's data (the 4th fcTL)
        data[at + 8 + 4 + length // 2] ^= 0x5A
        break
    at += 12 + length
open('damaged.apng', 'wb').write(bytes(data))
