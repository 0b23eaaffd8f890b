#!/usr/bin/env python3
"""A 4000x3000 photo-like JPEG for the zoom tests, deterministically: noise at
every scale from 4 to 1000 pixels coloured like a landscape, and hard-edged
discs and lines, so that any region has detail of its own and a region moved
by a few pixels measures differently.
usage: make-zoom-photo.py OUT.jpg"""
import sys
import numpy as np
from PIL import Image, ImageDraw

rng = np.random.default_rng(20261124)
w, h = 4000, 3000
acc = np.zeros((h, w), np.float32)
for s in (4, 16, 64, 250, 1000):
    small = rng.standard_normal((h // s + 1, w // s + 1)).astype(np.float32)
    layer = np.asarray(Image.fromarray(small, "F").resize((w, h), Image.BICUBIC))
    acc += layer * (s ** 0.5)
acc = (acc - acc.min()) / (acc.max() - acc.min())
sky = np.linspace(0, 1, h, dtype=np.float32)[:, None]
rgb = np.stack([0.2 + 0.7 * acc * sky + 0.1, 0.15 + 0.75 * acc, 0.7 * (1 - sky) + 0.3 * acc], axis=2)
img = Image.fromarray((np.clip(rgb, 0, 1) * 255).astype(np.uint8), "RGB")
draw = ImageDraw.Draw(img)
for _ in range(300):
    x, y, r = rng.integers(0, w), rng.integers(0, h), rng.integers(8, 120)
    colour = tuple(int(v) for v in rng.integers(0, 256, 3))
    draw.ellipse((x - r, y - r, x + r, y + r), outline=colour, width=int(rng.integers(2, 10)))
for _ in range(200):
    x0, y0, x1, y1 = (int(v) for v in rng.integers(0, w, 4))
    draw.line((x0, y0 % h, x1, y1 % h), fill=tuple(int(v) for v in rng.integers(0, 256, 3)), width=3)
img.save(sys.argv[1], quality=92)
