#!/usr/bin/env python3
"""Makes the colour-management fixtures: one photo (Tests/Fixtures/images/
photo.jpg at 96x64) written in sRGB, and the same colours written in Adobe
RGB (1998) and in ProPhoto RGB (ROMM), each with an ICC profile that says so.
The profiles are ICC v2 matrix/TRC profiles written here from the published
primaries (Adobe RGB (1998) Color Image Encoding, 2005; ISO 22028-2 for
ROMM), adapted to the PCS's D50 by Bradford, with a single-gamma curve.
  srgb.png           the reference (no profile: sRGB)
  adobe.jpg          Adobe RGB numbers, its profile in APP2 (quality 95)
  adobe-untagged.jpg the same numbers with no profile (shown as sRGB)
  adobe.tif, adobe.avif, adobe.webp  adobe.jpg's decoded numbers with its
                     profile, in a TIFF (tag 34675), a lossless AVIF (colr prof;
                     avifenc -l) and a lossless WebP (ICCP)
  prophoto.png       ProPhoto numbers, 16 bits, its profile in iCCP
  coded.png          the same numbers with no profile: cHRM (ROMM's primaries
                     and D50 white) and gAMA (1/1.8) say it
  linear.png         linear light in sRGB's primaries, 16 bits: gAMA 1.0
  adobe-animated.webp  adobe.jpg's decoded numbers and their mirror as a
                     lossless animation (img2webp), its profile set by
                     webpmux -set icc
  adobe-animated.png the same two frames as an APNG (Pillow), the profile
                     in iCCP
  grey.png, grey.jpg the photo's luminance with a grey profile (kTRC): a
                     16-bit PNG in linear light (gamma 1.0), and a JPEG at
                     gamma 1.8, as Photoshop's grey profiles say
  grey-srgb.png      the same luminance in sRGB's numbers, with no profile
  grey-icc-on-colour.jpg  the sRGB photo with a grey profile, which is not
                     applied (it would make the picture grey)
  p3.avif, p3.heic   Display P3 numbers (sRGB's curve) said by an nclx colr
                     box, 12/13: a lossless AVIF (avifenc -l --cicp 12/13/0)
                     and a HEIC (heif-enc -q 95; the box added by
                     ../formats/heifcolr.py, as heif-enc 1.15 writes none)
  adobe.icc, prophoto.icc   the profiles
Run: /usr/bin/python3 make-icc.py (Pillow, numpy)."""
import struct
import numpy as np
from PIL import Image

def s15(v): return struct.pack('>i', int(round(v * 65536)))
def xyz(v): return b'XYZ ' + b'\0' * 4 + b''.join(s15(c) for c in v)
def curve(g): return b'curv' + b'\0' * 4 + struct.pack('>I', 1) + struct.pack('>H', int(round(g * 256))) + b'\0\0'
def desc(text):
    t = text.encode() + b'\0'
    return b'desc' + b'\0' * 4 + struct.pack('>I', len(t)) + t + b'\0' * 8 + b'\0' * 3 + b'\0' * 67
def text(t): return b'text' + b'\0' * 4 + t.encode() + b'\0'

D50 = (0.9642, 1.0, 0.8249)

def adapted(primaries, white):
    """The RGB-to-XYZ(D50) matrix of the primaries (x, y) and white (x, y)."""
    xyz_ = lambda x, y: np.array([x / y, 1.0, (1 - x - y) / y])
    P = np.stack([xyz_(*p) for p in primaries], 1)
    W = xyz_(*white)
    M = P * np.linalg.solve(P, W)
    bradford = np.array([[0.8951, 0.2664, -0.1614], [-0.7502, 1.7135, 0.0367], [0.0389, -0.0685, 1.0296]])
    src, dst = bradford @ W, bradford @ np.array(D50)
    A = np.linalg.inv(bradford) @ np.diag(dst / src) @ bradford
    return A @ M

def profile(name, matrix, gamma):
    tags = [(b'desc', desc(name)), (b'wtpt', xyz(D50)), (b'rXYZ', xyz(matrix[:, 0])), (b'gXYZ', xyz(matrix[:, 1])),
            (b'bXYZ', xyz(matrix[:, 2])), (b'rTRC', curve(gamma)), (b'gTRC', curve(gamma)), (b'bTRC', curve(gamma)),
            (b'cprt', text('No copyright: a test fixture'))]
    return build(tags, b'RGB ')

def grey_profile(name, gamma):
    return build([(b'desc', desc(name)), (b'wtpt', xyz(D50)), (b'kTRC', curve(gamma)),
                  (b'cprt', text('No copyright: a test fixture'))], b'GRAY')

def build(tags, space):
    table, body, offset = b'', b'', 128 + 4 + 12 * len(tags)
    for sig, data in tags:
        while len(data) % 4: data += b'\0'
        table += sig + struct.pack('>II', offset + len(body), len(data))
        body += data
    size = offset + len(body)
    header = struct.pack('>I', size) + b'none' + bytes([2, 0x10, 0, 0]) + b'mntr' + space + b'XYZ '
    header += b'\0' * 12 + b'acsp' + b'\0' * 4 + b'\0' * 4 + b'\0' * 8 + b'\0' * 8 + b'\0' * 4
    header += s15(D50[0]) + s15(D50[1]) + s15(D50[2]) + b'none'
    header += b'\0' * (128 - len(header))
    return header + struct.pack('>I', len(tags)) + table + body

SRGB = adapted([(0.64, 0.33), (0.30, 0.60), (0.15, 0.06)], (0.3127, 0.3290))
ADOBE = adapted([(0.64, 0.33), (0.21, 0.71), (0.15, 0.06)], (0.3127, 0.3290))
ROMM = adapted([(0.7347, 0.2653), (0.1596, 0.8404), (0.0366, 0.0001)], (0.3457, 0.3585))

photo = Image.open('../images/photo.jpg').convert('RGB').resize((96, 64), Image.LANCZOS)
photo.save('srgb.png')
s = np.asarray(photo, np.float64) / 255
lin = np.where(s <= 0.04045, s / 12.92, ((s + 0.055) / 1.055) ** 2.4)
XYZ = lin @ SRGB.T

def encode(matrix, gamma, bits):
    rgb = np.clip(XYZ @ np.linalg.inv(matrix).T, 0, 1) ** (1 / gamma)
    top = (1 << bits) - 1
    return np.round(rgb * top).astype(np.uint16 if bits == 16 else np.uint8)

adobe_icc = profile('Adobe RGB (1998) compatible', ADOBE, 563 / 256)
romm_icc = profile('ProPhoto RGB (ROMM) compatible', ROMM, 1.8)
open('adobe.icc', 'wb').write(adobe_icc)
open('prophoto.icc', 'wb').write(romm_icc)
adobe = Image.fromarray(encode(ADOBE, 563 / 256, 8), 'RGB')
adobe.save('adobe.jpg', quality=95, icc_profile=adobe_icc)
adobe.save('adobe-untagged.jpg', quality=95)
# 16-bit RGB PNG: Pillow writes it from raw big-endian samples.
wide = encode(ROMM, 1.8, 16)
import zlib
def png16(path, pixels, icc=None, chunks=b''):
    h, w, _ = pixels.shape
    def chunk(t, d): return struct.pack('>I', len(d)) + t + d + struct.pack('>I', zlib.crc32(t + d))
    rows = b''.join(b'\0' + pixels[y].astype('>u2').tobytes() for y in range(h))
    data = b'\x89PNG\r\n\x1a\n' + chunk(b'IHDR', struct.pack('>IIBBBBB', w, h, 16, 2, 0, 0, 0))
    if icc:
        data += chunk(b'iCCP', b'ProPhoto\0\0' + zlib.compress(icc))
    for kind, body in chunks:
        data += chunk(kind, body)
    data += chunk(b'IDAT', zlib.compress(rows, 9)) + chunk(b'IEND', b'')
    open(path, 'wb').write(data)
png16('prophoto.png', wide, romm_icc)
# The JPEG's decoded numbers, with the profile, as TIFF and lossless AVIF.
import os, subprocess, tempfile
decoded = Image.open('adobe.jpg')
decoded.save('adobe.tif', icc_profile=adobe_icc)
decoded.save('adobe.webp', lossless=True, icc_profile=adobe_icc)
with tempfile.TemporaryDirectory() as tmp:
    decoded.save(os.path.join(tmp, 'adobe.png'), icc_profile=adobe_icc)
    subprocess.run(['avifenc', '-l', os.path.join(tmp, 'adobe.png'), 'adobe.avif'], check=True, capture_output=True)
# The coded descriptions: PNG's cHRM and gAMA, and nclx.
def fixed(*values): return b''.join(struct.pack('>I', int(round(v * 100000))) for v in values)
png16('coded.png', wide, chunks=[(b'gAMA', fixed(1 / 1.8)),
                                 (b'cHRM', fixed(0.3457, 0.3585, 0.7347, 0.2653, 0.1596, 0.8404, 0.0366, 0.0001))])
png16('linear.png', np.round(np.clip(lin, 0, 1) * 65535).astype(np.uint16), chunks=[(b'gAMA', fixed(1.0))])
P3 = adapted([(0.680, 0.320), (0.265, 0.690), (0.150, 0.060)], (0.3127, 0.3290))
p3_lin = np.clip(XYZ @ np.linalg.inv(P3).T, 0, 1)
p3 = np.where(p3_lin <= 0.0031308, p3_lin * 12.92, 1.055 * p3_lin ** (1 / 2.4) - 0.055)
import sys
sys.path.insert(0, '../formats')
import heifcolr
with tempfile.TemporaryDirectory() as tmp:
    Image.fromarray(np.round(p3 * 255).astype(np.uint8)).save(os.path.join(tmp, 'p3.png'))
    subprocess.run(['avifenc', '-l', '--cicp', '12/13/0', os.path.join(tmp, 'p3.png'), 'p3.avif'],
                   check=True, capture_output=True)
    subprocess.run(['heif-enc', '-q', '95', '-o', os.path.join(tmp, 'p3.heic'), os.path.join(tmp, 'p3.png')],
                   check=True, capture_output=True)
    with open(os.path.join(tmp, 'p3.heic'), 'rb') as coded:
        open('p3.heic', 'wb').write(heifcolr.add_nclx(coded.read(), 12, 13, 6))
# Grey with a grey profile: the luminance of the photo in linear light.
luma = lin @ np.array([0.2126, 0.7152, 0.0722])
grey_srgb = np.where(luma <= 0.0031308, luma * 12.92, 1.055 * luma ** (1 / 2.4) - 0.055)
Image.fromarray(np.round(grey_srgb * 255).astype(np.uint8), 'L').save('grey-srgb.png')
def grey16(path, values, icc):
    h, w = values.shape
    def chunk(t, d): return struct.pack('>I', len(d)) + t + d + struct.pack('>I', zlib.crc32(t + d))
    px = np.round(np.clip(values, 0, 1) * 65535).astype('>u2')
    rows = b''.join(b'\0' + px[y].tobytes() for y in range(h))
    open(path, 'wb').write(b'\x89PNG\r\n\x1a\n' + chunk(b'IHDR', struct.pack('>IIBBBBB', w, h, 16, 0, 0, 0, 0))
                           + chunk(b'iCCP', b'Grey\0\0' + zlib.compress(icc)) + chunk(b'IDAT', zlib.compress(rows, 9))
                           + chunk(b'IEND', b''))
grey16('grey.png', luma, grey_profile('Grey, linear', 1.0))
Image.fromarray(np.round(luma ** (1 / 1.8) * 255).astype(np.uint8), 'L').save(
    'grey.jpg', quality=95, icc_profile=grey_profile('Grey, gamma 1.8', 1.8))
photo.save('grey-icc-on-colour.jpg', quality=95, icc_profile=grey_profile('Grey, gamma 1.8', 1.8))
# An animation whose frames are in Adobe RGB, its profile in ICCP.
from PIL import ImageOps
with tempfile.TemporaryDirectory() as tmp:
    one, two, bare = (os.path.join(tmp, n) for n in ('1.png', '2.png', 'bare.webp'))
    decoded.save(one)
    ImageOps.mirror(decoded).save(two)
    icc = os.path.join(tmp, 'adobe.icc')
    open(icc, 'wb').write(adobe_icc)
    subprocess.run(['img2webp', '-lossless', '-d', '100', one, two, '-o', bare], check=True, capture_output=True)
    subprocess.run(['webpmux', '-set', 'icc', icc, bare, '-o', 'adobe-animated.webp'], check=True, capture_output=True)
decoded.convert('RGB').save('adobe-animated.png', save_all=True, append_images=[ImageOps.mirror(decoded.convert('RGB'))],
                            duration=100, loop=0, icc_profile=adobe_icc)
