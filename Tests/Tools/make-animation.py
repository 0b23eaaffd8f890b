#!/usr/bin/env python3
"""An animated GIF for the screen's pixel tests: 4 frames of 240x160, each
its own smooth picture (so that a wrong frame measures far worse), 500 ms
each, looping forever (with --once, no loop count: it plays once); and each
frame as a PNG beside it (OUT.frameN.png).
usage: make-animation.py OUT.gif [--once]"""
import sys
import numpy as np
from PIL import Image

out = sys.argv[1]
y, x = np.mgrid[0:160, 0:240]
frames = []
for n in range(4):
    angle = n * np.pi / 2
    r = 128 + 120 * np.sin(x / 37.0 + angle)
    g = 128 + 120 * np.cos(y / 23.0 + 2 * angle)
    b = 128 + 120 * np.sin((x + y) / 53.0 + 3 * angle)
    frame = Image.fromarray(np.dstack([r, g, b]).clip(0, 255).astype(np.uint8))
    # The GIF's own palette of each frame is what it shows: the reference.
    frame = frame.quantize(256, dither=Image.Dither.NONE).convert("RGB")
    frame.save(f"{out}.frame{n}.png")
    frames.append(frame)
# PIL writes the loop count (NETSCAPE2.0) only when it is given.
looping = {} if "--once" in sys.argv[2:] else {"loop": 0}
frames[0].save(out, save_all=True, append_images=frames[1:], duration=500, optimize=False, **looping)
