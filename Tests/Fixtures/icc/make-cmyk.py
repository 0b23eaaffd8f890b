#!/usr/bin/env python3
"""Makes the CMYK fixtures: the photo (Tests/Fixtures/images/photo.jpg at
96x64) as CMYK ink in a JPEG, with and without a CMYK profile, and what the
profile says it looks like.
The profile is an ICC v2 output profile written here: an A2B0 lut16 from
CMYK to Lab (9 points an ink) of a made-up press whose inks are not the
ideal ones: cyan lets some red through and takes some green, magenta takes
some blue, and black is a dark grey. So the picture through the profile is
far from the same numbers read by the plain inversion (255 - ink).
  press-cmyk.icc           the profile
  press-cmyk.jpg           the photo's CMYK (Pillow's, an Adobe JPEG: inverted
                     as Photoshop writes it) with the profile in APP2
  press-cmyk-untagged.jpg  the same numbers with no profile
  press-cmyk.tif           press-cmyk.jpg's decoded ink (0 = none, as TIFF says CMYK)
                     with the profile (tag 34675), in LZW strips
  press-cmyk-tiled.tif     the same in 64x48 tiles (tiffcp), those at the
                     right and bottom edges part outside the picture
  press-cmyk-big.tif       the ink enlarged (nearest) to 320x300, in 256x256 tiles:
                     a first band of 81,920 pixels (converted on two threads)
                     and a short second one; press-cmyk-big.png is it through
                     the profile, as press-cmyk.png is
  press-cmyk.png           press-cmyk.jpg's decoded ink through the profile to sRGB
                     (lcms2, through Pillow's ImageCms): the reference
Run: /usr/bin/python3 make-cmyk.py (Pillow, numpy; tiffcp from libtiff-tools)."""
import io, os, struct, subprocess
import numpy as np
from PIL import Image, ImageCms

D50 = np.array([0.9642, 1.0, 0.8249])
GRID = 9
# Each ink's transmission of linear red, green and blue at full coverage.
INKS = np.array([[0.18, 0.78, 0.93], [0.92, 0.22, 0.62], [0.96, 0.88, 0.12], [0.10, 0.10, 0.12]])

def srgb_to_xyz_d50():
    # sRGB's primaries to XYZ, adapted from D65 to D50 (Bradford), as in make-icc.py.
    xyz = lambda x, y: np.array([x / y, 1.0, (1 - x - y) / y])
    P = np.stack([xyz(0.64, 0.33), xyz(0.30, 0.60), xyz(0.15, 0.06)], 1)
    W = xyz(0.3127, 0.3290)
    M = P * np.linalg.solve(P, W)
    B = np.array([[0.8951, 0.2664, -0.1614], [-0.7502, 1.7135, 0.0367], [0.0389, -0.0685, 1.0296]])
    return np.linalg.inv(B) @ np.diag((B @ D50) / (B @ W)) @ B @ M

def lab(xyz):
    t = xyz / D50
    f = np.where(t > (6 / 29) ** 3, np.cbrt(t), t / (3 * (6 / 29) ** 2) + 4 / 29)
    return np.stack([116 * f[..., 1] - 16, 500 * (f[..., 0] - f[..., 1]), 200 * (f[..., 1] - f[..., 2])], -1)

def press(cmyk):
    """Linear RGB of ink coverages (0-1), each ink filtering the light."""
    light = np.ones(cmyk.shape[:-1] + (3,))
    for i in range(4):
        light = light * (1 - cmyk[..., i:i + 1] * (1 - INKS[i]))
    return light

def profile():
    axis = np.linspace(0, 1, GRID)
    c, m, y, k = np.meshgrid(axis, axis, axis, axis, indexing='ij')  # first input varies slowest
    L = lab(press(np.stack([c, m, y, k], -1)) @ srgb_to_xyz_d50().T).reshape(-1, 3)
    # ICC v2 16-bit Lab: L 0-100 as 0-0xFF00, a and b -128-127.996 as 0-0xFFFF.
    enc = np.stack([L[:, 0] * 0xFF00 / 100, (L[:, 1] + 128) * 256, (L[:, 2] + 128) * 256], -1)
    table = np.clip(np.round(enc), 0, 0xFFFF).astype('>u2').tobytes()
    identity = b''.join(struct.pack('>i', 65536 if i % 4 == 0 else 0) for i in range(9))
    ramp = lambda n: b''.join(struct.pack('>H', round(v * 65535 / (n - 1))) for v in range(n)) * 1
    a2b0 = (b'mft2' + b'\0' * 4 + bytes([4, 3, GRID, 0]) + identity + struct.pack('>HH', 2, 2)
            + ramp(2) * 4 + table + ramp(2) * 3)
    def desc(text):
        t = text.encode() + b'\0'
        return b'desc' + b'\0' * 4 + struct.pack('>I', len(t)) + t + b'\0' * 8 + b'\0' * 3 + b'\0' * 67
    s15 = lambda v: struct.pack('>i', int(round(v * 65536)))
    tags = [(b'desc', desc('A made-up press, CMYK')), (b'wtpt', b'XYZ ' + b'\0' * 4 + b''.join(s15(v) for v in D50)),
            (b'A2B0', a2b0), (b'cprt', b'text' + b'\0' * 4 + b'No copyright: a test fixture\0')]
    table_, body, offset = b'', b'', 128 + 4 + 12 * len(tags)
    for sig, data in tags:
        while len(data) % 4: data += b'\0'
        table_ += sig + struct.pack('>II', offset + len(body), len(data))
        body += data
    header = struct.pack('>I', offset + len(body)) + b'none' + bytes([2, 0x10, 0, 0]) + b'prtr' + b'CMYK' + b'Lab '
    header += b'\0' * 12 + b'acsp' + b'\0' * 28 + b'\0' * 4 + b''.join(s15(v) for v in D50) + b'none'
    header += b'\0' * (128 - len(header))
    return header + struct.pack('>I', len(tags)) + table_ + body

icc = profile()
open('press-cmyk.icc', 'wb').write(icc)
photo = Image.open('../images/photo.jpg').convert('RGB').resize((96, 64), Image.LANCZOS)
ink = photo.convert('CMYK')  # Pillow's: 255 - each channel, no black
ink.save('press-cmyk.jpg', quality=95, icc_profile=icc)
ink.save('press-cmyk-untagged.jpg', quality=95)
decoded = Image.open('press-cmyk.jpg')
decoded.load()
decoded.save('press-cmyk.tif', compression='tiff_lzw', icc_profile=icc)
subprocess.run(['tiffcp', '-c', 'lzw', '-t', '-w', '64', '-l', '48', 'press-cmyk.tif', 'press-cmyk-tiled.tif'], check=True)
reference = ImageCms.profileToProfile(decoded, ImageCms.ImageCmsProfile(io.BytesIO(icc)),
                                      ImageCms.createProfile('sRGB'), outputMode='RGB')
reference.save('press-cmyk.png')
big = decoded.resize((320, 300), Image.NEAREST)
big.save('press-cmyk-big-strips.tif', compression='tiff_lzw', icc_profile=icc)
subprocess.run(['tiffcp', '-c', 'zip', '-t', '-w', '256', '-l', '256', 'press-cmyk-big-strips.tif', 'press-cmyk-big.tif'],
               check=True)
os.remove('press-cmyk-big-strips.tif')
ImageCms.profileToProfile(big, ImageCms.ImageCmsProfile(io.BytesIO(icc)), ImageCms.createProfile('sRGB'),
                          outputMode='RGB').save('press-cmyk-big.png')
