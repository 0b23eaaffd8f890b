#!/usr/bin/env python3
"""Writes an SVG wallpaper for the benchmarks: a gradient sky, CIRCLES
translucent circles of random colours (seeded, so the same every time) and
a row of slanted stripes along the bottom.
  make-svg.py OUT.svg WIDTH HEIGHT CIRCLES"""
import random, sys

out, width, height, circles = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])
rng = random.Random(44)
big = max(90, width // 32)
shapes = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" viewBox="0 0 {width} {height}">',
          '<defs><linearGradient id="sky" x2="0" y2="1"><stop offset="0" stop-color="#13315c"/>'
          '<stop offset="1" stop-color="#f4a261"/></linearGradient></defs>',
          f'<rect width="{width}" height="{height}" fill="url(#sky)"/>']
for _ in range(circles):
    shapes.append('<circle cx="%d" cy="%d" r="%d" fill="#%06x" fill-opacity="%.2f"/>' % (
        rng.randrange(width), rng.randrange(height), rng.randrange(4, big), rng.randrange(1 << 24), rng.uniform(0.3, 1)))
top, step = height * 5 // 6, max(40, width // 40)
for x in range(0, width, step):
    shapes.append(f'<rect x="{x}" y="{top}" width="{step // 2}" height="{height - top}" fill="#264653" '
                  f'transform="rotate(15 {x} {(top + height) // 2})"/>')
open(out, 'w').write('\n'.join(shapes + ['</svg>']))
