#!/usr/bin/env python3
"""Turns a terminal capture (tmux capture-pane -e) into a PNG, for the README.
usage: ansi-to-png.py CAPTURE.ans OUT.png
Block glyphs are drawn as shapes in their colours; other characters with
DejaVu Sans Mono when it is installed (fonts-dejavu-core), else PIL's font."""
import re, sys
from PIL import Image, ImageDraw, ImageFont

CW, CH = 9, 18
PAL = []
base = [(0,0,0),(205,0,0),(0,205,0),(205,205,0),(0,0,238),(205,0,205),(0,205,205),(229,229,229),
        (127,127,127),(255,0,0),(0,255,0),(255,255,0),(92,92,255),(255,0,255),(0,255,255),(255,255,255)]
PAL += base
lv = [0, 95, 135, 175, 215, 255]
PAL += [(r, g, b) for r in lv for g in lv for b in lv]
PAL += [(8 + 10 * i,) * 3 for i in range(24)]
DEF_FG, DEF_BG = (220, 220, 220), (24, 24, 24)

def block_table():
    """Rectangles (fractions of the cell) each Block Element fills: built once."""
    q = {'tl': (0, 0, .5, .5), 'tr': (.5, 0, 1, .5), 'bl': (0, .5, .5, 1), 'br': (.5, .5, 1, 1)}
    table = {'\u2580': [(0, 0, 1, .5)], '\u2584': [(0, .5, 1, 1)], '\u258C': [(0, 0, .5, 1)], '\u2590': [(.5, 0, 1, 1)],
             '\u2588': [(0, 0, 1, 1)], '\u2598': [q['tl']], '\u259D': [q['tr']], '\u2596': [q['bl']], '\u2597': [q['br']],
             '\u259A': [q['tl'], q['br']], '\u259E': [q['tr'], q['bl']], '\u259B': [q['tl'], q['tr'], q['bl']],
             '\u259C': [q['tl'], q['tr'], q['br']], '\u2599': [q['tl'], q['bl'], q['br']], '\u259F': [q['tr'], q['bl'], q['br']]}
    # the eighths: lower i/8 (U+2581..2587), left (8-i)/8 (U+2589..258F), upper and right 1/8
    for i in range(1, 8):
        table[chr(0x2580 + i)] = [(0, 1 - i / 8, 1, 1)]
        table[chr(0x2588 + i)] = [(0, 0, (8 - i) / 8, 1)]
    table['\u2594'] = [(0, 0, 1, 1 / 8)]
    table['\u2595'] = [(7 / 8, 0, 1, 1)]
    return table

BLOCKS = block_table()

def glyph_boxes(ch):
    """Rectangles (fractions of the cell) a block glyph fills, or None."""
    table = BLOCKS
    if ch in table: return table[ch]
    code = ord(ch)
    if 0x1FB00 <= code <= 0x1FB3B:
        bits = code - 0x1FB00 + 1
        bits += 1 if bits >= 21 else 0
        bits += 1 if bits >= 42 else 0
        return [((k % 2) / 2, (k // 2) / 3, (k % 2 + 1) / 2, (k // 2 + 1) / 3) for k in range(6) if bits >> k & 1]
    return None

def main():
    text = open(sys.argv[1], encoding="utf-8", errors="replace").read().rstrip("\n").split("\n")
    rows, cols = len(text), 0
    cells = []
    sgr = re.compile(r"\x1b\[([0-9;:]*)m")
    for line in text:
        fg, bg, bold, rev, dim = None, None, False, False, False
        row, pos = [], 0
        while pos < len(line):
            m = sgr.match(line, pos)
            if m:
                ps = [int(p) if p else 0 for p in re.split("[;:]", m.group(1))] if m.group(1) else [0]
                i = 0
                while i < len(ps):
                    p = ps[i]
                    if p == 0: fg, bg, bold, rev, dim = None, None, False, False, False
                    elif p == 1: bold = True
                    elif p == 2: dim = True
                    elif p == 7: rev = True
                    elif p in (38, 48) and i + 1 < len(ps):
                        if ps[i + 1] == 2:
                            c = tuple(ps[i + 2:i + 5]) if len(ps) >= i + 5 else (0, 0, 0); i += 4
                        else:
                            c = PAL[ps[i + 2]]; i += 2
                        if p == 38: fg = c
                        else: bg = c
                    elif p == 39: fg = None
                    elif p == 49: bg = None
                    elif 30 <= p <= 37: fg = PAL[p - 30]
                    elif 40 <= p <= 47: bg = PAL[p - 40]
                    elif 90 <= p <= 97: fg = PAL[p - 82]
                    elif 100 <= p <= 107: bg = PAL[p - 92]
                    i += 1
                pos = m.end()
                continue
            f, b = fg or DEF_FG, bg or DEF_BG
            if rev: f, b = b, f
            if dim: f = tuple(int(v * 0.6 + b[j] * 0.4) for j, v in enumerate(f))
            row.append((line[pos], f, b, bold))
            pos += 1
        cells.append(row)
        cols = max(cols, len(row))
    img = Image.new("RGB", (cols * CW, rows * CH), DEF_BG)
    d = ImageDraw.Draw(img)
    try:
        font = ImageFont.truetype("/usr/share/fonts/truetype/dejavu/DejaVuSansMono.ttf", 15)
        bfont = ImageFont.truetype("/usr/share/fonts/truetype/dejavu/DejaVuSansMono-Bold.ttf", 15)
    except OSError:
        font = bfont = ImageFont.load_default()
    for y, row in enumerate(cells):
        for x, (ch, f, b, bold) in enumerate(row):
            x0, y0 = x * CW, y * CH
            d.rectangle((x0, y0, x0 + CW - 1, y0 + CH - 1), fill=b)
            boxes = glyph_boxes(ch)
            if boxes is not None:
                for (a, c, e, g) in boxes:
                    d.rectangle((x0 + round(a * CW), y0 + round(c * CH), x0 + round(e * CW) - 1, y0 + round(g * CH) - 1), fill=f)
            elif ch != " ":
                d.text((x0, y0 + 1), ch, fill=f, font=bfont if bold else font)
    img.save(sys.argv[2])

main()
