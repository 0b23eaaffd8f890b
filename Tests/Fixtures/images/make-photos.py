#!/usr/bin/env python3
"""Makes photo.jpg (600x400) and tall.jpg (240x400) for the pixel tests:
smooth multi-scale noise coloured like a landscape, with a few discs, as
Benchmarks/make-images.py makes its photo (seeded, so the same every time).
No magenta anywhere: the screenshots find the picture by the terminal's
magenta background. usage: make-photos.py (writes beside itself)"""
import os
import numpy as np
from PIL import Image, ImageDraw

here = os.path.dirname(os.path.abspath(__file__))
rng = np.random.default_rng(20261123)

def photo(w, h):
    acc = np.zeros((h, w))
    for s in (8, 32, 100):
        small = rng.standard_normal((max(2, h // s), max(2, w // s)))
        acc += np.asarray(Image.fromarray(small.astype(np.float32), "F").resize((w, h), Image.BICUBIC)) * s ** 0.5
    acc = (acc - acc.min()) / (acc.max() - acc.min())
    y = np.linspace(0, 1, h)[:, None]
    rgb = np.stack([0.3 + 0.5 * acc * (1 - y), 0.35 + 0.5 * acc, 0.6 * (1 - y) + 0.3 * acc], -1)
    img = Image.fromarray((np.clip(rgb, 0, 1) * 255).astype(np.uint8))
    d = ImageDraw.Draw(img)
    for _ in range(6):
        x, yy, r = rng.integers(0, w), rng.integers(0, h), rng.integers(15, 60)
        d.ellipse([x - r, yy - r, x + r, yy + r], fill=tuple(int(v) for v in rng.integers(30, 230, 3) * [1, 1, 0.6]))
    return img

photo(600, 400).save(os.path.join(here, "photo.jpg"), quality=92)
photo(240, 400).save(os.path.join(here, "tall.jpg"), quality=92)
