#!/usr/bin/env python3
"""Makes a HEIC as phones write it: the picture cut into 512x512 tiles
(the last row and column padded), each coded on its own (heif-enc), joined
by a 'grid' item that crops to the picture's size. libheif 1.15's heif-enc
writes no grids, so the boxes are written here (ISO/IEC 23008-12: infe 2,
iloc 1, iref 0, ipma 0; item 1 the grid, 2.. the tiles, each with its own
hvcC and an ispe).
  make-heif-grid.py PICTURE.png OUT.heic"""
import os, struct, subprocess, sys, tempfile
from PIL import Image

TILE = 512


def box(kind, body): return struct.pack('>I', 8 + len(body)) + kind + body
def full(kind, version, body): return box(kind, bytes([version, 0, 0, 0]) + body)


def find(data, kind):
    at = data.find(kind)
    size = struct.unpack('>I', data[at - 4:at])[0]
    return data[at - 4:at - 4 + size]


picture = Image.open(sys.argv[1]).convert('RGB')
width, height = picture.size
columns, rows = -(-width // TILE), -(-height // TILE)
padded = Image.new('RGB', (columns * TILE, rows * TILE))
padded.paste(picture)
tiles = []
with tempfile.TemporaryDirectory() as tmp:
    for r in range(rows):
        for c in range(columns):
            png, heic = os.path.join(tmp, 't.png'), os.path.join(tmp, 't.heic')
            padded.crop((c * TILE, r * TILE, (c + 1) * TILE, (r + 1) * TILE)).save(png)
            subprocess.run(['heif-enc', '-q', '80', '-o', heic, png], check=True, capture_output=True)
            coded = open(heic, 'rb').read()
            tiles.append((find(coded, b'hvcC'), find(coded, b'mdat')[8:]))
count = len(tiles)
ids = list(range(2, count + 2))
grid = bytes([0, 0, rows - 1, columns - 1]) + struct.pack('>HH', width, height)
infe = full(b'infe', 2, struct.pack('>HH', 1, 0) + b'grid' + b'\0')
infe += b''.join(full(b'infe', 2, struct.pack('>HH', i, 0) + b'hvc1' + b'\0') for i in ids)
iinf = full(b'iinf', 0, struct.pack('>H', count + 1) + infe)
iref = full(b'iref', 0, box(b'dimg', struct.pack('>HH', 1, count) + b''.join(struct.pack('>H', i) for i in ids)))
# Properties: 1 the grid's ispe, then each tile's hvcC, and one shared tile ispe.
properties = [full(b'ispe', 0, struct.pack('>II', width, height))] + [hvcc for hvcc, _ in tiles]
properties.append(full(b'ispe', 0, struct.pack('>II', TILE, TILE)))
tile_ispe = len(properties)
ipma = struct.pack('>I', count + 1) + struct.pack('>HB', 1, 1) + bytes([1])
ipma += b''.join(struct.pack('>HB', i, 2) + bytes([0x80 | (k + 2), tile_ispe]) for k, i in enumerate(ids))
iprp = box(b'iprp', box(b'ipco', b''.join(properties)) + full(b'ipma', 0, ipma))


def meta(start):
    entries = struct.pack('>HHHHII', 1, 0, 0, 1, start, len(grid))
    at = start + len(grid)
    for i, (_, data) in zip(ids, tiles):
        entries += struct.pack('>HHHHII', i, 0, 0, 1, at, len(data))
        at += len(data)
    iloc = full(b'iloc', 1, bytes([0x44, 0x00]) + struct.pack('>H', count + 1) + entries)
    hdlr = full(b'hdlr', 0, b'\0' * 4 + b'pict' + b'\0' * 13)
    return full(b'meta', 0, hdlr + full(b'pitm', 0, struct.pack('>H', 1)) + iloc + iinf + iref + iprp)


head = box(b'ftyp', b'heic' + b'\0' * 4 + b'mif1heic')
start = len(head) + len(meta(0)) + 8
open(sys.argv[2], 'wb').write(head + meta(start) + box(b'mdat', grid + b''.join(data for _, data in tiles)))
