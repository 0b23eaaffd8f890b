#!/usr/bin/env python3
"""The highest 'coarse' PSNR any renderer can reach with halves in the 240
fixed colours of the xterm 256 palette (the cube and the gray ramp), measured
the way artq.py measures.

With ▀ ▄ ▌ ▐ █ each of a cell's 2x4 coarse samples lies wholly on one side
of the glyph, so a side's error is the sum over its samples of
|palette colour - sample|^2 (sRGB), least for the palette colour nearest the
samples' mean. Trying every glyph with those nearest colours, cell by cell,
gives the best coarse figure possible: no choice of pairs, no dither and no
weighting can pass it. The 256-colour goal of issue #4 (coarse 0.5 dB over
chafa) is reachable only where chafa is more than 0.5 dB below this.

usage: palette-ceiling.py IMAGE COLS ROWS
"""
import os
import sys

import numpy as np
from PIL import Image

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import artq  # noqa: E402  (the measure itself: its resize, pooling and palette)


def ceiling(img, cols, rows):
    ref = artq.lin_resize(img, cols * artq.CW, rows * artq.CH)
    coarse = artq.to_srgb(artq.pool(ref, artq.CH // 4, artq.CW // 2))
    samples = coarse.reshape(rows, 4, cols, 2, 3).transpose(0, 2, 1, 3, 4).reshape(rows, cols, 8, 3)
    palette = np.array(artq.PAL[16:], float)

    def side_error(ks):
        side = samples[:, :, ks]
        mean = side.mean(axis=2)
        nearest = palette[((mean[..., None, :] - palette) ** 2).sum(-1).argmin(-1)]
        return ((side - nearest[:, :, None, :]) ** 2).sum(axis=(2, 3))

    upper, lower = [0, 1, 2, 3], [4, 5, 6, 7]
    left, right = [0, 2, 4, 6], [1, 3, 5, 7]
    best = np.minimum.reduce([
        side_error(list(range(8))),
        side_error(upper) + side_error(lower),
        side_error(left) + side_error(right),
    ])
    mse = best.sum() / (rows * cols * 8 * 3)
    return 10 * np.log10(255.0 ** 2 / mse)


if __name__ == "__main__":
    image = Image.open(sys.argv[1]).convert("RGB")
    print("%.2f" % ceiling(image, int(sys.argv[2]), int(sys.argv[3])))
