#!/usr/bin/env bash
# Block-art quality on every format (#16): the art of `urlcache render` at
# 160x48 in halves, truecolour, against the best art halves allow
# (`artq.py --oracle=halves`), both measured by artq against the format's own
# decode of the file (frame 0 for an animation): dwebp for WebP, avifdec
# for AVIF, the GIF's palette as any GIF decoder reads it (PIL); what has
# alpha is laid over black (render's default --background) in linear light. Goal: within
# 0.15 dB of the oracle. The files are made from the generated photo at
# 1600x1200 with cwebp, img2webp, gifsicle and avifenc.
# Issue 44's formats (#44): TIFF (LZW), APNG, QOI, HEIC (heif-enc; its
# reference heif-convert), JPEG XL (cjxl -d 1; djxl), an SVG (rsvg-convert
# at 1600x1200), and the photo written in Adobe RGB (a JPEG) and in ProPhoto
# RGB (a PNG) with colord-data's profiles, whose reference is Pillow's
# decode carried back to sRGB by lcms2 (ImageCms).
#   Benchmarks/format-quality.sh
source "$(dirname "$0")/common.sh"
for p in webp libavif-bin gifsicle libheif-examples libjxl-tools librsvg2-bin colord-data; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" \
    || { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "$p" >&2; }
done
[ -f "$out/photo.png" ] || $python "$root/Benchmarks/make-images.py" "$out"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work"
# The sources: an opaque photo, the same with an alpha ramp and a hole, and
# a second frame (the photo mirrored) for the animations.
$python - <<PY
from PIL import Image, ImageDraw, ImageOps
photo = Image.open("$out/photo.png").convert("RGB").resize((1600, 1200), Image.LANCZOS)
photo.save("photo.png")
alpha = Image.linear_gradient("L").resize((1600, 1200)).rotate(90)
ImageDraw.Draw(alpha).ellipse((500, 350, 1100, 850), fill=0)
rgba = photo.copy(); rgba.putalpha(alpha); rgba.save("alpha.png")
ImageOps.mirror(photo).save("second.png")
gif = photo.quantize(256, dither=Image.FLOYDSTEINBERG)
gif.save("still.gif")
# A transparent index: the hole shows the background.
hole = gif.copy()
mask = Image.new("L", hole.size, 0); ImageDraw.Draw(mask).ellipse((500, 350, 1100, 850), fill=255)
hole.paste(255, mask=mask)
hole.save("transparent.gif", transparency=255)
frames = [photo.quantize(256), ImageOps.mirror(photo).quantize(256)]
frames[0].save("animated.gif", save_all=True, append_images=frames[1:], duration=100, loop=0)
PY
gifsicle --interlace still.gif -o interlaced.gif
cwebp -quiet -lossless photo.png -o lossless.webp
cwebp -quiet -q 80 photo.png -o lossy.webp
cwebp -quiet -q 80 -exact alpha.png -o alpha.webp
img2webp -lossy -q 80 -d 100 photo.png second.png -o animated.webp
avifenc -s 8 photo.png still.avif >/dev/null
avifenc -s 8 alpha.png alpha.avif >/dev/null
$python - <<'PY'
from PIL import Image, ImageCms
photo = Image.open("photo.png")
photo.save("still.tif", compression="tiff_lzw")
photo.save("animated.apng", save_all=True, append_images=[Image.open("second.png")], duration=100, loop=0)
for name in ("still.tif", "animated.apng", "still.qoi"):
    photo.save(name + ".png")
srgb = ImageCms.createProfile("sRGB")
for name, icc in (("adobe.jpg", "AdobeRGB1998.icc"), ("prophoto.png", "ProPhotoRGB.icc")):
    path = "/usr/share/color/icc/colord/" + icc
    wide = ImageCms.getOpenProfile(path)
    ImageCms.profileToProfile(photo, srgb, wide, outputMode="RGB").save(
        name, quality=95, icc_profile=open(path, "rb").read())
    ImageCms.profileToProfile(Image.open(name).convert("RGB"), wide, srgb, outputMode="RGB").save(name + ".png")
PY
$python "$root/Benchmarks/make-svg.py" still.svg 1600 1200 400
$python "$root/Tests/Fixtures/formats/make-qoi.py" photo.png still.qoi 3
heif-enc -q 90 photo.png -o still.heic >/dev/null
heif-convert still.heic still.heic.png >/dev/null
cjxl -d 1 photo.png still.jxl >/dev/null 2>&1
djxl still.jxl still.jxl.png >/dev/null 2>&1
rsvg-convert -w 1600 -h 1200 still.svg -o still.svg.png
# The format's own decode, over black where there is alpha.
dwebp -quiet lossless.webp -o lossless.webp.png
dwebp -quiet lossy.webp -o lossy.webp.png
dwebp -quiet alpha.webp -o alpha.webp.png
webpmux -get frame 1 animated.webp -o frame1.webp >/dev/null   # dwebp reads no animation
dwebp -quiet frame1.webp -o animated.webp.png
avifdec still.avif still.avif.png >/dev/null
avifdec alpha.avif alpha.avif.png >/dev/null
# Laid over black in linear light, as urlcache lays every format (PNG's
# rule; a browser mixes in sRGB, which on an alpha ramp is another picture).
$python - <<'PY'
import numpy as np
from PIL import Image
for name in ["still.gif", "interlaced.gif", "transparent.gif", "animated.gif"]:
    Image.open(name).convert("RGBA").save(name + ".png")   # frame 0
def linear(s): return np.where(s <= 0.04045, s / 12.92, ((s + 0.055) / 1.055) ** 2.4)
def srgb(l): return np.where(l <= 0.0031308, l * 12.92, 1.055 * l ** (1 / 2.4) - 0.055)
for name in ["still.gif", "interlaced.gif", "transparent.gif", "animated.gif", "lossless.webp", "lossy.webp",
             "alpha.webp", "animated.webp", "still.avif", "alpha.avif"]:
    rgba = np.asarray(Image.open(name + ".png").convert("RGBA"), dtype=np.float64) / 255
    mixed = srgb(linear(rgba[..., :3]) * rgba[..., 3:4])
    Image.fromarray((mixed * 255 + 0.5).clip(0, 255).astype(np.uint8)).save(name + ".png")
PY
cols=160; rows=48
measure() { $python "$artq" "$1" "$2" --json | $python -c 'import json,sys; d=json.load(sys.stdin); print("%.2f %.2f" % (d["psnr_coarse"], d["psnr_cell"]))'; }
printf '| file | urlcache coarse | oracle coarse | difference | urlcache cell | oracle cell | within 0.15 dB? |\n|---|---|---|---|---|---|---|\n'
for name in still.gif interlaced.gif transparent.gif animated.gif lossless.webp lossy.webp alpha.webp animated.webp \
            still.avif alpha.avif still.tif animated.apng still.qoi still.heic still.jxl still.svg adobe.jpg prophoto.png; do
  ref="$name.png"
  read -r fc fr < <($python -c "
from PIL import Image
w, h = Image.open('$ref').size; c, r = $cols, $rows
print(c, max(1, round(c * 0.5 * h / w))) if w / h > c * 0.5 / r else print(max(1, round(r * w / h / 0.5)), r)")
  "$urlcache" render "$name" --size ${fc}x${fr} --colors truecolor --symbols halves --animate off > ours.ans
  $python "$artq" "$ref" "$fc" "$fr" --oracle=halves > oracle.ans
  read -r oc occ < <(measure "$ref" ours.ans)
  read -r rc rcc < <(measure "$ref" oracle.ans)
  $python -c "
d = $rc - $oc
print('| $name | $oc | $rc | %.2f | $occ | $rcc | %s |' % (d, 'yes' if d <= 0.15 else '**no**'))"
done
record_results
