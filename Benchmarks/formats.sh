#!/usr/bin/env bash
# Speed and memory of `urlcache render` on GIF and WebP stills, whole process:
#   a 12-megapixel WebP at 160x48: goal at most 1.1x libwebp decoding it
#   alone (WebPDecodeRGBA) and at most 0.5x chafa
#   a 12-megapixel GIF: goal at most 1.1x giflib reading its lines, at most 0.5x chafa
#   a 12-megapixel AVIF, beside chafa (no goal named)
#   the same photo as an LZW TIFF and as HEIC, one image and 48 tiles of
#   512 as phones write it (make-heif-grid.py) (#44: at most 1.1x the
#   library's own decode, libtiff's coded strips and libheif's RGBA, and at
#   most 0.5x chafa, which reads them through ImageMagick), and as JPEG XL
#   (at most 1.1x djxl decoding it to a PPM; chafa 1.12 reads no JPEG XL)
#   an SVG wallpaper (make-svg.py: 2000 translucent circles on 3840x2160):
#   goal under 50 ms, beside chafa and rsvg-convert at 1280x720
# Medians of runs taken in turns (race.py); prints the table with the command lines.
source "$(dirname "$0")/common.sh"
for p in webp libwebp-dev libgif-dev libavif-bin libheif-examples libjxl-tools libtiff-dev libheif-dev librsvg2-bin; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" \
    || { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "$p" >&2; }
done
[ -f "$out/photo12.png" ] || $python "$root/Benchmarks/make-images.py" "$out" --big
[ -f "$out/photo12.webp" ] || cwebp -quiet -q 85 "$out/photo12.png" -o "$out/photo12.webp"
[ -f "$out/photo12.gif" ] || $python -c "from PIL import Image; Image.open('$out/photo12.png').convert('RGB').quantize(256).save('$out/photo12.gif')"
[ -f "$out/photo12.avif" ] || avifenc -s 8 "$out/photo12.png" "$out/photo12.avif" >/dev/null
[ -f "$out/photo12.tif" ] || $python -c "from PIL import Image; Image.open('$out/photo12.png').convert('RGB').save('$out/photo12.tif', compression='tiff_lzw')"
[ -f "$out/photo12.heic" ] || heif-enc -q 80 "$out/photo12.png" -o "$out/photo12.heic" >/dev/null
[ -f "$out/photo12-grid.heic" ] || $python "$root/Benchmarks/make-heif-grid.py" "$out/photo12.png" "$out/photo12-grid.heic"
[ -f "$out/photo12.jxl" ] || cjxl -d 1 "$out/photo12.png" "$out/photo12.jxl" >/dev/null 2>&1
[ -f "$out/wall.svg" ] || $python "$root/Benchmarks/make-svg.py" "$out/wall.svg" 3840 2160 2000
gcc -O2 -o "$out/format-decode" "$root/Benchmarks/format-decode.c" -lgif -lwebp -ltiff -lheif
row() { printf '%-14s %-12s %9s %10s   %s\n' "$1" "$2" "$3" "$4" "$5"; }
ratio() { $python -c "print('%-14s %-12s %9.2fx' % ('$1', 'ratio', $2 / $3))"; }
row case program "median s" "peak KiB" command
race "${RUNS:-7}" webp-12MP \
  "urlcache $urlcache render $out/photo12.webp --size 160x48 --colors truecolor" \
  "libwebp $out/format-decode webp $out/photo12.webp" \
  "chafa chafa --size 160x48 $out/photo12.webp"
ratio webp/libwebp "${medians[0]}" "${medians[1]}"
ratio webp/chafa "${medians[0]}" "${medians[2]}"
race "${RUNS:-7}" gif-12MP \
  "urlcache $urlcache render $out/photo12.gif --size 160x48 --colors truecolor" \
  "giflib $out/format-decode gif $out/photo12.gif" \
  "chafa chafa --size 160x48 $out/photo12.gif"
ratio gif/giflib "${medians[0]}" "${medians[1]}"
ratio gif/chafa "${medians[0]}" "${medians[2]}"
race "${RUNS:-7}" avif-12MP \
  "urlcache $urlcache render $out/photo12.avif --size 160x48 --colors truecolor" \
  "chafa chafa --size 160x48 $out/photo12.avif"
ratio avif/chafa "${medians[0]}" "${medians[1]}"
race "${RUNS:-7}" tiff-12MP \
  "urlcache $urlcache render $out/photo12.tif --size 160x48 --colors truecolor" \
  "libtiff $out/format-decode tiff $out/photo12.tif" \
  "chafa chafa --size 160x48 $out/photo12.tif"
ratio tiff/libtiff "${medians[0]}" "${medians[1]}"
ratio tiff/chafa "${medians[0]}" "${medians[2]}"
race "${RUNS:-7}" heic-12MP \
  "urlcache $urlcache render $out/photo12.heic --size 160x48 --colors truecolor" \
  "libheif $out/format-decode heif $out/photo12.heic" \
  "chafa chafa --size 160x48 $out/photo12.heic"
ratio heic/libheif "${medians[0]}" "${medians[1]}"
ratio heic/chafa "${medians[0]}" "${medians[2]}"
race "${RUNS:-7}" heic-grid \
  "urlcache $urlcache render $out/photo12-grid.heic --size 160x48 --colors truecolor" \
  "libheif $out/format-decode heif $out/photo12-grid.heic" \
  "chafa chafa --size 160x48 $out/photo12-grid.heic"
ratio grid/libheif "${medians[0]}" "${medians[1]}"
ratio grid/chafa "${medians[0]}" "${medians[2]}"
race "${RUNS:-7}" jxl-12MP \
  "urlcache $urlcache render $out/photo12.jxl --size 160x48 --colors truecolor" \
  "djxl djxl $out/photo12.jxl $out/photo12-djxl.ppm"
ratio jxl/djxl "${medians[0]}" "${medians[1]}"
race "${RUNS:-7}" svg-wallpaper \
  "urlcache $urlcache render $out/wall.svg --size 160x48 --colors truecolor" \
  "rsvg-convert rsvg-convert -w 1280 -h 720 $out/wall.svg -o $out/wall-rsvg.png" \
  "chafa chafa --size 160x48 $out/wall.svg"
ratio svg/chafa "${medians[0]}" "${medians[2]}"
record_results
