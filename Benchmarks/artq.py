#!/usr/bin/env python3
"""artq -- urlcache's own measure of block-art quality.

This is the project's tool for the question "how close is this ANSI block art
to the picture it was made from?". The benchmarks (Benchmarks/quality.sh,
format-quality.sh, palette-ceiling.py) run it; it has no dependency beyond
numpy and PIL.

Usage
  artq.py IMAGE ART_FILE [--json]
      Measure ART_FILE (what a renderer printed) against IMAGE. Prints
        cols=.. rows=.. aspect_error=.. psnr_fine=.. psnr_coarse=.. psnr_cell=.. unknown_glyphs=..
      or, with --json, the same fields as one JSON object.
  artq.py IMAGE COLS ROWS --oracle=upper|halves|quad|sextant|block
      Print, as truecolour ANSI art, the best art any per-cell renderer can
      produce at COLS x ROWS with that glyph set (measure it with the first form).

What the art file may hold: text lines of glyphs, coloured by SGR sequences
(38/48;2;r;g;b truecolour, 38/48;5;n from the xterm 256-colour palette, the
16 basic colours 30-37/40-47/90-97/100-107, 39/49 defaults, 0 reset, 7/27
inverse). Other escape sequences (cursor, mode, OSC title, charset) are
dropped. A cell with no colour set is black. Cells with a glyph the tool does
not know are drawn half fg, half bg and listed in unknown_glyphs.

The method
  1. Raster. Every cell becomes 8 x 24 sub-pixels (a cell twice as tall as
     wide). A glyph is a coverage mask on that raster: 1 where it is ink
     (foreground), 0 where it is background; the sub-pixel's colour is
     mask*fg + (1-mask)*bg (in sRGB values, which matters only for the
     fractional masks of shades and unknown glyphs). Known glyphs: space and full block, the four
     halves, the lower and left eighth blocks (U+2581..U+2587, U+2589..U+258F),
     the upper and right one-eighth blocks, all ten quadrant glyphs, the
     three shades (coverage 1/4, 1/2, 3/4) and the sixty sextants
     U+1FB00..U+1FB3B. Every edge of these falls on the 8 x 24 grid.
  2. Reference. IMAGE is scaled to the same raster (cols*8 x rows*24) by
     exact area averaging in linear light: each source pixel is a square of
     constant colour, and each sub-pixel is the mean of the linear-light
     colour over the rectangle of the source it covers.
  3. Scales. Both are compared in sRGB (0..255) by PSNR = 10 log10(255^2/MSE)
     at three scales, the averaging always done in linear light first:
       fine    the 8 x 24 sub-pixels of each cell,
       coarse  2 x 4 areas per cell (4 x 6 sub-pixels each): what the eye
               resolves at an ordinary viewing distance; the headline figure,
       cell    one colour per cell.
     99.0 is the ceiling and means identical (anything finer is rounding
     noise in the arithmetic). aspect_error is how far the grid's shape
     (at 1:2 cells) is from the image's: 0 when it keeps the aspect ratio.
  4. Oracle. For each cell and each glyph of the set, the two colours that
     minimise the squared linear-light error are the means of the reference
     under the glyph and outside it; the glyph with the least error wins.
     The result is the best art, by squared linear-light error on the fine
     raster, that one glyph and two free colours per cell can give; scored in
     sRGB or at the coarse scale a renderer may land slightly above it.

Module use: palette-ceiling.py imports CW, CH, PAL, lin_resize, pool and
to_srgb from here.
"""
import json
import re
import sys

import numpy as np
from PIL import Image

# ---------------------------------------------------------------- geometry

CW, CH = 8, 24          # sub-pixels per cell, across and down


def _xterm_palette():
    """The xterm 256-colour palette as a list of (r, g, b)."""
    basic = [(0, 0, 0), (205, 0, 0), (0, 205, 0), (205, 205, 0),
             (0, 0, 238), (205, 0, 205), (0, 205, 205), (229, 229, 229),
             (127, 127, 127), (255, 0, 0), (0, 255, 0), (255, 255, 0),
             (92, 92, 255), (255, 0, 255), (0, 255, 255), (255, 255, 255)]
    steps = (0, 95, 135, 175, 215, 255)
    cube = [(steps[i // 36], steps[i // 6 % 6], steps[i % 6]) for i in range(216)]
    grays = [(8 + 10 * k,) * 3 for k in range(24)]
    return basic + cube + grays


PAL = _xterm_palette()


def _box(left, top, right, bottom):
    """A mask inked over the rectangle given in sub-pixel units."""
    m = np.zeros((CH, CW))
    m[top:bottom, left:right] = 1.0
    return m


def _glyph_masks():
    """Coverage masks (CH x CW, values in 0..1) of every glyph the tool knows."""
    e = CH // 8                 # one eighth of the height, in sub-pixels
    g = {' ': _box(0, 0, 0, 0), '\u2588': _box(0, 0, CW, CH)}
    g['\u2580'] = _box(0, 0, CW, CH // 2)               # upper half
    g['\u2590'] = _box(CW // 2, 0, CW, CH)              # right half
    g['\u2594'] = _box(0, 0, CW, e)                     # upper one eighth
    g['\u2595'] = _box(CW - 1, 0, CW, CH)               # right one eighth
    for k in range(1, 8):
        g[chr(0x2580 + k)] = _box(0, CH - k * e, CW, CH)     # lower k/8 (k=4: lower half)
        g[chr(0x2590 - k)] = _box(0, 0, k, CH)               # left k/8 (k=4: left half)
    tl, tr = _box(0, 0, CW // 2, CH // 2), _box(CW // 2, 0, CW, CH // 2)
    bl, br = _box(0, CH // 2, CW // 2, CH), _box(CW // 2, CH // 2, CW, CH)
    quads = {'\u2596': [bl], '\u2597': [br], '\u2598': [tl], '\u259d': [tr],
             '\u2599': [tl, bl, br], '\u259a': [tl, br], '\u259b': [tl, tr, bl],
             '\u259c': [tl, tr, br], '\u259e': [tr, bl], '\u259f': [tr, bl, br]}
    for ch, parts in quads.items():
        g[ch] = np.clip(sum(parts), 0, 1)
    g['\u2591'] = np.full((CH, CW), 0.25)               # light shade
    g['\u2592'] = np.full((CH, CW), 0.50)               # medium shade
    g['\u2593'] = np.full((CH, CW), 0.75)               # dark shade
    # Sextants: a 2 x 3 grid, piece n (0..5) in reading order is bit n of the
    # pattern; Unicode lists the patterns 1..62 in order, leaving out the two
    # that are half blocks (left column 0b010101, right column 0b101010).
    pieces = [_box(c * CW // 2, r * CH // 3, (c + 1) * CW // 2, (r + 1) * CH // 3)
              for r in range(3) for c in range(2)]
    patterns = [p for p in range(1, 63) if p not in (0b010101, 0b101010)]
    for offset, p in enumerate(patterns):
        g[chr(0x1FB00 + offset)] = sum(pieces[n] for n in range(6) if p >> n & 1)
    return g


MASKS = _glyph_masks()

# The glyph sets the oracle may choose from.
SETS = {
    'upper': '\u2580',
    'halves': '\u2580\u258c',
    'quad': '\u2580\u258c\u2596\u2597\u2598\u259d\u259a',
    'sextant': '\u2580\u258c' + ''.join(map(chr, range(0x1FB00, 0x1FB3C))),
    'block': '\u2580\u258c\u2596\u2597\u2598\u259d\u259a'
             + ''.join(map(chr, range(0x2581, 0x2588)))
             + ''.join(map(chr, range(0x2589, 0x2590))),
}

# ---------------------------------------------------------------- colour

def to_lin(srgb):
    """sRGB values 0..255 to linear light 0..1."""
    c = np.asarray(srgb, dtype=float) / 255.0
    return np.where(c <= 0.04045, c / 12.92, ((c + 0.055) / 1.055) ** 2.4)


def to_srgb(lin):
    """Linear light (clipped to 0..1) to sRGB values 0..255 (floats)."""
    x = np.clip(lin, 0.0, 1.0)
    return 255.0 * np.where(x <= 0.0031308, 12.92 * x, 1.055 * x ** (1 / 2.4) - 0.055)


_LIN_OF_BYTE = to_lin(np.arange(256)).astype(np.float32)


def _area_weights(n_in, n_out):
    """Index and weight tables (n_out x K) such that output o is
    sum_k weight[o, k] * input[index[o, k]]: the mean over the interval
    [o, o+1) * n_in/n_out of a signal constant on each unit input interval."""
    step = n_in / n_out
    start = np.arange(n_out) * n_in / n_out
    stop = np.arange(1, n_out + 1) * n_in / n_out
    first = np.floor(start).astype(np.int64)
    k = int(np.ceil(step)) + 2
    index = first[:, None] + np.arange(k)[None, :]
    overlap = (np.minimum(stop[:, None], index + 1.0)
               - np.maximum(start[:, None], index.astype(float)))
    weight = np.clip(overlap, 0.0, None) / step
    weight[index >= n_in] = 0.0
    return np.minimum(index, n_in - 1), weight


def _area_scale(a, n_out, axis):
    index, weight = _area_weights(a.shape[axis], n_out)
    shape = [1] * a.ndim
    shape[axis] = n_out
    out = np.zeros(a.shape[:axis] + (n_out,) + a.shape[axis + 1:])
    for k in range(index.shape[1]):
        w = weight[:, k]
        if w.any():
            out += np.take(a, index[:, k], axis=axis) * w.reshape(shape)
    return out


def lin_resize(img, w, h):
    """IMAGE (PIL) scaled to w x h by exact area averaging in linear light;
    a float array (h, w, 3) of linear values."""
    lin = _LIN_OF_BYTE[np.asarray(img.convert('RGB'))]
    return _area_scale(_area_scale(lin, w, 1), h, 0)


def pool(a, fy, fx):
    """Means over fy x fx blocks of an (H, W, C) array."""
    h, w, c = a.shape
    return a.reshape(h // fy, fy, w // fx, fx, c).mean(axis=(1, 3))


def psnr(a, b):
    """PSNR in dB of two arrays of 0..255 values, at most 99.0: above that
    the difference is floating-point noise (an RMS error under 0.003 of a
    level), and 99.0 stands for "identical"."""
    mse = float(np.mean((np.asarray(a) - np.asarray(b)) ** 2))
    return 99.0 if mse == 0 else min(99.0, 10.0 * np.log10(255.0 ** 2 / mse))

# ---------------------------------------------------------------- the art file

_SGR = re.compile('\x1b\\[([0-9;:]*)m')
_NOT_COLOUR = re.compile('\x1b(?:\\[[0-9;?]*[A-Za-ln-z]|\\][^\x07]*\x07|[()][0-9AB])')


class _Pen:
    """The SGR state: foreground, background (None: default) and inverse."""

    def __init__(self):
        self.fg = self.bg = None
        self.inverse = False

    def apply(self, codes):
        nums = [int(t) if t else 0 for t in re.split('[;:]', codes)] if codes else [0]
        i = 0
        while i < len(nums):
            n = nums[i]
            if n in (38, 48) and i + 1 < len(nums):
                if nums[i + 1] == 2:
                    colour, used = tuple(nums[i + 2:i + 5]), 4
                else:
                    colour, used = PAL[nums[i + 2]], 2
                if n == 38:
                    self.fg = colour
                else:
                    self.bg = colour
                i += used
            elif n == 0:
                self.__init__()
            elif n in (7, 27):
                self.inverse = n == 7
            elif n == 39:
                self.fg = None
            elif n == 49:
                self.bg = None
            elif 30 <= n <= 37 or 90 <= n <= 97:
                self.fg = PAL[n - 30 if n < 90 else n - 82]
            elif 40 <= n <= 47 or 100 <= n <= 107:
                self.bg = PAL[n - 40 if n < 100 else n - 92]
            i += 1

    def colours(self):
        return (self.bg, self.fg) if self.inverse else (self.fg, self.bg)


def read_art(text):
    """The art as rows of (glyph, fg, bg) cells; fg/bg None for the default.
    Lines without a cell are left out."""
    pen, grid = _Pen(), []
    for line in text.split('\n'):
        line = _NOT_COLOUR.sub('', line)
        row, at = [], 0
        while at < len(line):
            sgr = _SGR.match(line, at)
            if sgr:
                pen.apply(sgr.group(1))
                at = sgr.end()
                continue
            ch = line[at]
            at += 1
            if ch != '\r':
                row.append((ch,) + pen.colours())
        if row:
            grid.append(row)
    return grid


def draw(grid):
    """The art's raster in sRGB values, (rows*CH, cols*CW, 3), and the glyphs
    it did not know. Short rows are padded with black."""
    rows, cols = len(grid), max(map(len, grid))
    glyphs = [' ', None]                  # index 1: an unknown glyph
    stack = [MASKS[' '], np.full((CH, CW), 0.5)]
    where = {' ': 0}
    which = np.zeros((rows, cols), dtype=np.int64)
    fg = np.zeros((rows, cols, 3))
    bg = np.zeros((rows, cols, 3))
    unknown = set()
    for y, row in enumerate(grid):
        for x, (ch, f, b) in enumerate(row):
            if ch not in where:
                if ch in MASKS:
                    where[ch] = len(stack)
                    stack.append(MASKS[ch])
                    glyphs.append(ch)
                else:
                    where[ch] = 1
            if where[ch] == 1:
                unknown.add(ch)
            which[y, x] = where[ch]
            fg[y, x] = f if f else (0, 0, 0)
            bg[y, x] = b if b else (0, 0, 0)
    m = np.stack(stack)[which][..., None]                 # rows, cols, CH, CW, 1
    art = m * fg[:, :, None, None, :] + (1 - m) * bg[:, :, None, None, :]
    return art.transpose(0, 2, 1, 3, 4).reshape(rows * CH, cols * CW, 3), unknown


def measure(img, grid):
    """The figures for art `grid` against PIL image `img`, as a dict."""
    rows, cols = len(grid), max(map(len, grid))
    art, unknown = draw(grid)
    art = to_lin(art)
    ref = lin_resize(img, cols * CW, rows * CH)

    def db(fy, fx):
        a, b = (art, ref) if fy == 1 else (pool(art, fy, fx), pool(ref, fy, fx))
        return float(np.round(psnr(to_srgb(a), to_srgb(b)), 3))

    width, height = img.size
    return {'cols': cols, 'rows': rows,
            'aspect_error': round(cols / (2 * rows) / (width / height) - 1, 4),
            'psnr_fine': db(1, 1),
            'psnr_coarse': db(CH // 4, CW // 2),
            'psnr_cell': db(CH, CW),
            'unknown_glyphs': ''.join(sorted(unknown))}

# ---------------------------------------------------------------- the oracle

def oracle(img, cols, rows, symset):
    """The best truecolour art at cols x rows with the glyphs of SETS[symset],
    as text. Per cell, a glyph's error with its best two colours (the means on
    each side of its mask) is the cell's sum of squares less S1^2/n1 + S0^2/n0
    (S the sums on each side, n their sizes), so the glyph with the largest
    S1^2/n1 + S0^2/n0 wins. A glyph equal to or the inverse of an earlier one
    adds nothing and is skipped; the earlier wins ties."""
    if symset not in SETS:
        raise SystemExit('artq: unknown glyph set %r (one of %s)' % (symset, ', '.join(SETS)))
    ref = lin_resize(img, cols * CW, rows * CH)
    px = ref.reshape(rows, CH, cols, CW, 3).transpose(0, 2, 4, 1, 3).reshape(rows * cols * 3, CH * CW)
    chosen, seen = [], set()
    for ch in SETS[symset]:
        m = MASKS[ch].reshape(-1) > 0.5
        key, inv = m.tobytes(), (~m).tobytes()
        if m.all() or not m.any() or key in seen or inv in seen:
            continue
        seen.add(key)
        chosen.append((ch, m))
    inked = np.array([m for _, m in chosen], dtype=float)        # G x P
    n1 = inked.sum(axis=1)
    n0 = CH * CW - n1
    s1 = px @ inked.T                                             # (cells*3) x G
    s0 = px.sum(axis=1, keepdims=True) - s1
    gain = (s1 * s1 / n1 + s0 * s0 / n0).reshape(rows * cols, 3, -1).sum(axis=1)
    best = gain.argmax(axis=1)
    pick = np.arange(rows * cols)
    fg = (s1 / n1).reshape(rows * cols, 3, -1)[pick, :, best]
    bg = (s0 / n0).reshape(rows * cols, 3, -1)[pick, :, best]
    fg = np.rint(to_srgb(fg)).astype(int).reshape(rows, cols, 3)
    bg = np.rint(to_srgb(bg)).astype(int).reshape(rows, cols, 3)
    best = best.reshape(rows, cols)
    lines = []
    for y in range(rows):
        cells = ['\x1b[38;2;%d;%d;%d;48;2;%d;%d;%dm%s' % (*fg[y, x], *bg[y, x], chosen[best[y, x]][0])
                 for x in range(cols)]
        lines.append(''.join(cells) + '\x1b[0m\n')
    return ''.join(lines)

# ---------------------------------------------------------------- command line

def main(argv):
    words = [a for a in argv if not a.startswith('--')]
    flags = [a for a in argv if a.startswith('--')]
    sets = [f.split('=', 1)[1] for f in flags if f.startswith('--oracle=')]
    if sets:
        if len(words) < 3:
            raise SystemExit('usage: artq.py IMAGE COLS ROWS --oracle=' + '|'.join(SETS))
        image = Image.open(words[0]).convert('RGB')
        sys.stdout.write(oracle(image, int(words[1]), int(words[2]), sets[0]))
        return 0
    if len(words) < 2:
        raise SystemExit('usage: artq.py IMAGE ART_FILE [--json]')
    image = Image.open(words[0]).convert('RGB')
    with open(words[1], encoding='utf-8', errors='replace') as f:   # universal newlines, as written
        grid = read_art(f.read())
    if not grid:
        print('no cells')
        return 1
    result = measure(image, grid)
    if '--json' in flags:
        print(json.dumps(result))
    else:
        print(' '.join('%s=%s' % kv for kv in result.items()))
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
