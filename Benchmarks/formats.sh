#!/usr/bin/env bash
# Speed and memory of `urlcache render` on GIF and WebP stills, whole process:
#   a 12-megapixel WebP at 160x48: goal at most 1.1x libwebp decoding it
#   alone (WebPDecodeRGBA) and at most 0.5x chafa
#   a 12-megapixel GIF: goal at most 1.1x giflib reading its lines, at most 0.5x chafa
#   a 12-megapixel AVIF, beside chafa (no goal named)
#   the same photo as an LZW TIFF and as HEIC, beside chafa (which reads them
#   through its loaders), and as JPEG XL beside djxl decoding it to a PPM
#   (chafa 1.12 reads no JPEG XL); no goal named
# Medians of runs taken in turns (race.py); prints the table with the command lines.
source "$(dirname "$0")/common.sh"
for p in webp libwebp-dev libgif-dev libavif-bin libheif-examples libjxl-tools; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" \
    || { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "$p" >&2; }
done
[ -f "$out/photo12.png" ] || $python "$root/Benchmarks/make-images.py" "$out" --big
[ -f "$out/photo12.webp" ] || cwebp -quiet -q 85 "$out/photo12.png" -o "$out/photo12.webp"
[ -f "$out/photo12.gif" ] || $python -c "from PIL import Image; Image.open('$out/photo12.png').convert('RGB').quantize(256).save('$out/photo12.gif')"
[ -f "$out/photo12.avif" ] || avifenc -s 8 "$out/photo12.png" "$out/photo12.avif" >/dev/null
[ -f "$out/photo12.tif" ] || $python -c "from PIL import Image; Image.open('$out/photo12.png').convert('RGB').save('$out/photo12.tif', compression='tiff_lzw')"
[ -f "$out/photo12.heic" ] || heif-enc -q 80 "$out/photo12.png" -o "$out/photo12.heic" >/dev/null
[ -f "$out/photo12.jxl" ] || cjxl -d 1 "$out/photo12.png" "$out/photo12.jxl" >/dev/null 2>&1
gcc -O2 -o "$out/format-decode" "$root/Benchmarks/format-decode.c" -lgif -lwebp
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
  "chafa chafa --size 160x48 $out/photo12.tif"
ratio tiff/chafa "${medians[0]}" "${medians[1]}"
race "${RUNS:-7}" heic-12MP \
  "urlcache $urlcache render $out/photo12.heic --size 160x48 --colors truecolor" \
  "chafa chafa --size 160x48 $out/photo12.heic"
ratio heic/chafa "${medians[0]}" "${medians[1]}"
race "${RUNS:-7}" jxl-12MP \
  "urlcache $urlcache render $out/photo12.jxl --size 160x48 --colors truecolor" \
  "djxl djxl $out/photo12.jxl $out/photo12-djxl.ppm"
ratio jxl/djxl "${medians[0]}" "${medians[1]}"
record_results
