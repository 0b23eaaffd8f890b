#!/usr/bin/env python3
"""Makes the JPEG fixtures the decoder tests read (run once; the files are committed).
reference.png is the upright picture: four coloured quadrants on 48x32.
Each JPEG holds it in another encoding, or stored turned with an EXIF
Orientation tag that turns it back upright."""
from PIL import Image, ImageOps
import io

def reference():
    img = Image.new("RGB", (48, 32))
    px = img.load()
    for y in range(32):
        for x in range(48):
            px[x, y] = [(220, 30, 30), (30, 200, 40), (30, 60, 220), (240, 220, 40)][(y >= 16) * 2 + (x >= 24)]
    return img

ref = reference()
ref.save("reference.png")
ref.save("baseline.jpg", quality=95)
ref.save("progressive.jpg", quality=95, progressive=True)
ref.convert("L").save("gray.jpg", quality=95)
ref.convert("L").save("gray.png")
ref.convert("CMYK").save("cmyk.jpg", quality=95)   # PIL writes Adobe's inverted CMYK
# YCCK, which PIL cannot write: a small libjpeg program (make-ycck.c) gets
# CMYK in Adobe's inverted form (255 = no ink; PIL's CMYK mode is the plain
# form) and stores it as YCCK with the Adobe marker, as Photoshop does.
import subprocess, tempfile, os
with tempfile.TemporaryDirectory() as tmp:
    tool = os.path.join(tmp, "make-ycck")
    subprocess.run(["cc", "-O2", "-o", tool, "make-ycck.c", "-ljpeg"], check=True)
    cmyk = ref.convert("CMYK")
    header = b"%d %d\n" % cmyk.size
    with open("ycck.jpg", "wb") as out:
        inverted = bytes(255 - b for b in cmyk.tobytes())
        subprocess.run([tool], input=header + inverted, stdout=out, check=True)
inverse = {1: None, 2: Image.Transpose.FLIP_LEFT_RIGHT, 3: Image.Transpose.ROTATE_180,
           4: Image.Transpose.FLIP_TOP_BOTTOM, 5: Image.Transpose.TRANSPOSE, 6: Image.Transpose.ROTATE_90,
           7: Image.Transpose.TRANSVERSE, 8: Image.Transpose.ROTATE_270}
for o, method in inverse.items():
    stored = ref if method is None else ref.transpose(method)
    exif = Image.Exif()
    exif[0x0112] = o
    stored.save("orientation%d.jpg" % o, quality=95, exif=exif.tobytes())
    back = ImageOps.exif_transpose(Image.open("orientation%d.jpg" % o))
    assert back.size == ref.size, (o, back.size)
data = open("baseline.jpg", "rb").read()
sos = data.find(b"\xff\xda")
open("truncated.jpg", "wb").write(data[: sos + (len(data) - sos) // 2])  # cut inside the scan
open("corrupt.jpg", "wb").write(data[:20] + b"\xff\xd9" + data[22:200])
