#!/usr/bin/env python3
"""Makes the benchmark images, deterministically (seeded), into a folder:
  photo.png     800x600: multi-scale noise coloured like a landscape, with hard
                edges and fine texture (a stand-in for a photograph)
  detail.png    800x600: 1/f ("pink") noise in light and colour, the spectrum of
                natural photographs, under flat shapes with texture: the oracle
                gives it ~23 dB at 160x48 halves, like the issue's photo
                (photo.png is smoother, ~35 dB)
  graphics.png  800x600: flat colours, thin lines, text-like strokes, gradients
  earth.jpg     1808x1808: a stand-in for the image urlcache shows most, the
                default list's first entry (GOES full disk: a cloudy globe on
                black); quality.sh measures the real one when it can fetch it
  photo12.jpg / photo12.png   4000x3000 (12 megapixels) for the speed table
  huge.png      10000x10000 for the memory table
  huge-interlaced.png  the same, Adam7-interlaced (PIL cannot write that: done here)
usage: make-images.py OUTDIR [--big]
"""
import os, sys
import numpy as np
from PIL import Image, ImageDraw, ImageFilter

out = sys.argv[1]
os.makedirs(out, exist_ok=True)
rng = np.random.default_rng(20261122)

def noise(w, h, scales=(4, 16, 64, 200)):
    acc = np.zeros((h, w))
    for s in scales:
        small = rng.standard_normal((max(2, h // s), max(2, w // s)))
        layer = np.asarray(Image.fromarray(small.astype(np.float32), "F").resize((w, h), Image.BICUBIC))
        acc += layer * (s ** 0.6)
    acc -= acc.min()
    return acc / acc.max()

def photo(w, h):
    n = noise(w, h)
    sky = np.linspace(0, 1, h)[:, None] * np.ones((1, w))
    r = np.clip(0.25 + 0.6 * n * sky + 0.2 * (1 - sky), 0, 1)
    g = np.clip(0.2 + 0.7 * n * (0.6 + 0.4 * sky), 0, 1)
    b = np.clip(0.6 * (1 - sky) + 0.3 * n, 0, 1)
    img = Image.fromarray((np.stack([r, g, b], -1) * 255).astype(np.uint8))
    d = ImageDraw.Draw(img)
    for i in range(12):
        x, y = rng.integers(0, w), rng.integers(h // 3, h)
        rad = rng.integers(w // 40, w // 8)
        col = tuple(int(v) for v in rng.integers(30, 250, 3))
        d.ellipse((x - rad, y - rad, x + rad, y + rad), fill=col)
    grain = rng.normal(0, 6, (h, w, 3))
    return Image.fromarray(np.clip(np.asarray(img) + grain, 0, 255).astype(np.uint8)).filter(ImageFilter.GaussianBlur(0.6))

def pink(w, h, beta):
    fy = np.fft.fftfreq(h)[:, None]
    fx = np.fft.rfftfreq(w)[None, :]
    f = np.sqrt(fx ** 2 + fy ** 2)
    f[0, 0] = 1
    spectrum = (rng.standard_normal(f.shape) + 1j * rng.standard_normal(f.shape)) / f ** beta
    spectrum[0, 0] = 0
    n = np.fft.irfft2(spectrum, s=(h, w))
    return (n - n.mean()) / n.std()

def detail(w, h):
    light, c1, c2 = pink(w, h, 1.0), pink(w, h, 1.2), pink(w, h, 1.2)
    lum = 0.45 + 0.26 * light
    rgb = np.stack([lum + 0.10 * c1, lum - 0.05 * c1 + 0.06 * c2, lum - 0.12 * c2], -1)
    img = Image.fromarray((np.clip(rgb, 0, 1) * 255).astype(np.uint8))
    d = ImageDraw.Draw(img)
    for i in range(25):
        x, y = rng.integers(0, w), rng.integers(0, h)
        rad = rng.integers(8, 90)
        col = tuple(int(v) for v in rng.integers(20, 240, 3))
        if i % 2:
            d.ellipse((x - rad, y - rad, x + rad, y + rad), fill=col)
        else:
            d.rectangle((x - rad, y - rad // 2, x + rad, y + rad // 2), fill=col)
    textured = np.asarray(img).astype(float) / 255 + 0.06 * pink(w, h, 0.8)[..., None]
    return Image.fromarray((np.clip(textured, 0, 1) * 255).astype(np.uint8))

def earth(size):
    y, x = np.mgrid[0:size, 0:size]
    r = np.hypot(x - size / 2, y - size / 2) / (size * 0.46)
    disk = r < 1
    land = pink(size, size, 1.3) > 0.4
    clouds = np.clip(pink(size, size, 1.1) * 0.6 + 0.1, 0, 1) ** 1.5
    ocean = np.array([0.05, 0.15, 0.35])
    ground = np.array([0.25, 0.35, 0.15])
    rgb = np.where(land[..., None], ground, ocean)
    rgb = rgb * (1 - clouds[..., None]) + clouds[..., None] * 0.95
    limb = np.sqrt(np.clip(1 - r ** 2, 0, 1))[..., None] ** 0.5
    rgb = np.where(disk[..., None], rgb * limb, 0)
    return Image.fromarray((np.clip(rgb, 0, 1) * 255).astype(np.uint8))

def save_interlaced_png(img, path):
    """An Adam7 PNG, RGB8, filter 0: each pass's sub-image, row by row."""
    import struct, zlib
    a = np.asarray(img.convert("RGB"))
    h, w = a.shape[:2]
    raw = bytearray()
    for x0, y0, dx, dy in [(0, 0, 8, 8), (4, 0, 8, 8), (0, 4, 4, 8), (2, 0, 4, 4), (0, 2, 2, 4), (1, 0, 2, 2), (0, 1, 1, 2)]:
        sub = a[y0::dy, x0::dx]
        if sub.shape[0] == 0 or sub.shape[1] == 0:
            continue
        rows = np.zeros((sub.shape[0], sub.shape[1] * 3 + 1), np.uint8)
        rows[:, 1:] = sub.reshape(sub.shape[0], -1)
        raw += rows.tobytes()
    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))
    with open(path, "wb") as f:
        f.write(b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", w, h, 8, 2, 0, 0, 1))
                + chunk(b"IDAT", zlib.compress(bytes(raw), 1)) + chunk(b"IEND", b""))

def graphics(w, h):
    img = Image.new("RGB", (w, h), (245, 245, 240))
    d = ImageDraw.Draw(img)
    for i in range(w):
        d.line((i, 0, i, h // 4), fill=(int(255 * i / w), 80, 255 - int(255 * i / w)))
    cols = [(220, 40, 40), (40, 160, 60), (30, 80, 200), (250, 200, 30), (20, 20, 20)]
    for i in range(20):
        x0, y0 = rng.integers(0, w - 100), rng.integers(h // 4, h - 60)
        d.rectangle((x0, y0, x0 + rng.integers(20, 200), y0 + rng.integers(10, 120)), fill=cols[i % 5])
    for i in range(0, w, 7):
        d.line((i, h - 80, i + 40, h), fill=(0, 0, 0), width=1)
    for y in range(h // 4 + 10, h // 2, 14):
        for x in range(20, w // 2, 9):
            if rng.random() < 0.7:
                d.rectangle((x, y, x + 5, y + 8), outline=(10, 10, 10))
    return img

photo(800, 600).save(os.path.join(out, "photo.png"))
graphics(800, 600).save(os.path.join(out, "graphics.png"))
detail(800, 600).save(os.path.join(out, "detail.png"))
earth(1808).save(os.path.join(out, "earth.jpg"), quality=85)
if "--big" in sys.argv:
    big = photo(4000, 3000)
    big.save(os.path.join(out, "photo12.jpg"), quality=90)
    big.save(os.path.join(out, "photo12.png"), compress_level=6)
    huge = photo(2500, 2500).resize((10000, 10000), Image.BILINEAR)
    huge.save(os.path.join(out, "huge.png"), compress_level=1)
    save_interlaced_png(huge, os.path.join(out, "huge-interlaced.png"))
