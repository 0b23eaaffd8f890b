#!/usr/bin/env python3
"""Makes the HDR fixtures: the sRGB photo (photo.jpg at 96x64) as HDR,
its white at SDR's reference white (203 cd/m2, ITU-R BT.2408), in BT.2020
primaries, coded with PQ (pq.avif) and with HLG (hlg.avif), each with a
16x16 patch at the top left of 1000 cd/m2 white, lossless 12-bit AVIF
(avifenc -l -d 12 --cicp 9/16/0 and 9/18/0). The PQ picture also as a
10-bit HEIC (heif-enc -b 10, matrix 9; its nclx colr box 9/16/9 added by
heifcolr.py), and as JPEG XL, lossless (kept
in its PQ numbers) and lossy (XYB, which libjxl hands back as asked):
cjxl -x color_space=RGB_D65_202_Rel_PeQ.
  hdr.ref.png   the SDR original, with the patch white
Run: /usr/bin/python3 make-hdr.py (Pillow, numpy, avifenc)."""
import os, struct, subprocess, tempfile, zlib
import numpy as np
import heifcolr
from PIL import Image

photo = Image.open('../images/photo.jpg').convert('RGB').resize((96, 64), Image.LANCZOS)
s = np.asarray(photo, np.float64) / 255
lin = np.where(s <= 0.04045, s / 12.92, ((s + 0.055) / 1.055) ** 2.4)
ref = s.copy()
ref[:16, :16] = 1.0
Image.fromarray(np.round(ref * 255).astype(np.uint8)).save('hdr.ref.png')
to2020 = np.array([[0.6274, 0.3293, 0.0433], [0.0691, 0.9195, 0.0114], [0.0164, 0.0880, 0.8956]])
nits = (lin @ to2020.T) * 203
nits[:16, :16] = 1000

def pq(n):
    m1, m2, c1, c2, c3 = 0.1593017578125, 78.84375, 0.8359375, 18.8515625, 18.6875
    y = np.clip(n / 10000, 0, 1) ** m1
    return ((c1 + c2 * y) / (1 + c3 * y)) ** m2

def hlg(n):
    # Inverse of the decoder's: scene light from display light (1000 cd/m2,
    # system gamma 1.2), then the OETF.
    a, b, c = 0.17883277, 0.28466892, 0.55991073
    y = np.clip((n / 1000) @ np.array([0.2627, 0.6780, 0.0593]), 1e-9, None)
    scene = n / 1000 / y[..., None] ** (0.2 / 1.2)
    e = np.clip(scene, 0, 1)
    return np.where(e <= 1 / 12, np.sqrt(3 * e), a * np.log(np.clip(12 * e - b, 1e-9, None)) + c)

def png16(path, values):
    h, w, _ = values.shape
    px = np.round(np.clip(values, 0, 1) * 65535).astype('>u2')
    def chunk(t, d): return struct.pack('>I', len(d)) + t + d + struct.pack('>I', zlib.crc32(t + d))
    rows = b''.join(b'\0' + px[y].tobytes() for y in range(h))
    open(path, 'wb').write(b'\x89PNG\r\n\x1a\n' + chunk(b'IHDR', struct.pack('>IIBBBBB', w, h, 16, 2, 0, 0, 0))
                           + chunk(b'IDAT', zlib.compress(rows, 9)) + chunk(b'IEND', b''))

with tempfile.TemporaryDirectory() as tmp:
    for name, coded, transfer in (('pq.avif', pq(nits), 16), ('hlg.avif', hlg(nits), 18)):
        png16(os.path.join(tmp, 'in.png'), coded)
        subprocess.run(['avifenc', '-l', '-d', '12', '--cicp', f'9/{transfer}/0', os.path.join(tmp, 'in.png'), name],
                       check=True, capture_output=True)
    png16(os.path.join(tmp, 'in.png'), pq(nits))
    subprocess.run(['heif-enc', '-b', '10', '-q', '95', '--colour_primaries', '9', '--transfer_characteristic', '16',
                    '--matrix_coefficients', '9', '-o', os.path.join(tmp, 'pq.heic'), os.path.join(tmp, 'in.png')],
                   check=True, capture_output=True)
    with open(os.path.join(tmp, 'pq.heic'), 'rb') as coded:
        open('pq.heic', 'wb').write(heifcolr.add_nclx(coded.read(), 9, 16, 9))
    for name, distance in (('pq.jxl', '0'), ('pq-lossy.jxl', '0.5')):
        subprocess.run(['cjxl', os.path.join(tmp, 'in.png'), name, '-d', distance,
                        '-x', 'color_space=RGB_D65_202_Rel_PeQ'], check=True, capture_output=True)
