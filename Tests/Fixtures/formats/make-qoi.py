# A QOI encoder after the specification (qoiformat.org/qoi-specification.pdf),
# for urlcache's test fixtures.
import struct, sys
from PIL import Image

def encode(im, channels):
    w, h = im.size
    px = list(im.convert("RGBA").getdata())
    out = bytearray(b"qoif" + struct.pack(">IIBB", w, h, channels, 0))
    index = [(0, 0, 0, 0)] * 64
    prev = (0, 0, 0, 255)
    run = 0
    for i, p in enumerate(px):
        if channels == 3:
            p = (p[0], p[1], p[2], 255)
        if p == prev:
            run += 1
            if run == 62 or i == len(px) - 1:
                out.append(0xC0 | (run - 1)); run = 0
            continue
        if run:
            out.append(0xC0 | (run - 1)); run = 0
        h_ = (p[0] * 3 + p[1] * 5 + p[2] * 7 + p[3] * 11) % 64
        if index[h_] == p:
            out.append(h_)
        else:
            index[h_] = p
            if p[3] == prev[3]:
                dr = (p[0] - prev[0] + 128) % 256 - 128
                dg = (p[1] - prev[1] + 128) % 256 - 128
                db = (p[2] - prev[2] + 128) % 256 - 128
                if -2 <= dr <= 1 and -2 <= dg <= 1 and -2 <= db <= 1:
                    out.append(0x40 | (dr + 2) << 4 | (dg + 2) << 2 | (db + 2))
                elif -32 <= dg <= 31 and -8 <= dr - dg <= 7 and -8 <= db - dg <= 7:
                    out += bytes([0x80 | (dg + 32), (dr - dg + 8) << 4 | (db - dg + 8)])
                else:
                    out += bytes([0xFE, p[0], p[1], p[2]])
            else:
                out += bytes([0xFF, p[0], p[1], p[2], p[3]])
        prev = p
    out += b"\x00" * 7 + b"\x01"
    return bytes(out)

src = Image.open(sys.argv[1]).convert("RGBA")
open(sys.argv[2], "wb").write(encode(src, int(sys.argv[3])))
