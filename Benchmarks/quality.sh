#!/usr/bin/env bash
# Block-art quality, measured by Benchmarks/artq.py (PSNR against the
# source, light averaged linearly; 'coarse' = 2x4 per cell is the headline).
# Prints, per image: ours, chafa and the oracle (the best truecolour art any
# per-cell renderer could print with that glyph set), in truecolour and 256;
# in 256 also the best coarse figure any renderer can reach with halves in
# the palette's 240 fixed colours (palette-ceiling.py).
# usage: Benchmarks/quality.sh [IMAGE...]   (default: the generated photo, detail
# and graphics, and the built-in list's first image or, offline, its stand-in)
source "$(dirname "$0")/common.sh"
images=("$@")
if [ ${#images[@]} -eq 0 ]; then
  [ -f "$out/earth.jpg" ] || $python "$root/Benchmarks/make-images.py" "$out"
  images=("$out/photo.png" "$out/detail.png" "$out/graphics.png")
  # The image urlcache shows most: the built-in list's first entry, through
  # the cache (so no download while the copy is fresh); offline, its stand-in.
  set +e
  fetched=$("$urlcache" fetch --entry 1 2>"$out/fetch.err"); status=$?
  set -e
  if [ $status -eq 0 ] || [ $status -eq 3 ]; then
    cp "$(sed -n 3p <<<"$fetched")" "$out/default-entry-1"
    images+=("$out/default-entry-1")
  else
    echo "the built-in list's first image could not be fetched ($(head -1 "$out/fetch.err")): measuring its stand-in earth.jpg" >&2
    images+=("$out/earth.jpg")
  fi
fi
cols=160; rows=48
measure() { $python "$artq" "$1" "$2" --json | $python -c 'import json,sys; d=json.load(sys.stdin); print("%6.2f %6.2f" % (d["psnr_coarse"], d["psnr_cell"]))'; }
printf '%-14s %-34s %-48s %13s\n' image renderer "command" "coarse  cell"
for img in "${images[@]}"; do
  name=$(basename "$img")
  # The size the image fills at 1:2 cells: art and oracle then cover the same area.
  read -r w h < <($python -c "from PIL import Image; i=Image.open('$img'); print(*i.size)")
  fit=$($python -c "
w,h,c,r=$w,$h,$cols,$rows
if w/h > c*0.5/r: print(c, max(1,round(c*0.5*h/w)))
else: print(max(1,round(r*w/h/0.5)), r)")
  set -- $fit; fc=$1; fr=$2
  for pair in "halves half halves" "quadrants quad quad" "sextants sextant sextant"; do
    set -- $pair
    "$urlcache" render "$img" --size ${fc}x${fr} --colors truecolor --symbols $1 > "$out/ours.ans"
    printf '%-14s %-34s %-48s %s\n' "$name" "urlcache truecolor $1" "urlcache render --colors truecolor --symbols $1" "$(measure "$img" "$out/ours.ans")"
    $python "$artq" "$img" $fc $fr --oracle=$3 > "$out/oracle.ans"
    printf '%-14s %-34s %-48s %s\n' "$name" "oracle $3" "artq.py --oracle=$3" "$(measure "$img" "$out/oracle.ans")"
  done
  chafa --size ${fc}x${fr} --colors full --symbols half "$img" > "$out/chafa.ans"
  printf '%-14s %-34s %-48s %s\n' "$name" "chafa truecolor half" "chafa --colors full --symbols half" "$(measure "$img" "$out/chafa.ans")"
  for d in none ordered diffusion; do
    "$urlcache" render "$img" --size ${fc}x${fr} --colors 256 --dither $d > "$out/ours.ans"
    printf '%-14s %-34s %-48s %s\n' "$name" "urlcache 256 halves dither=$d" "urlcache render --colors 256 --dither $d" "$(measure "$img" "$out/ours.ans")"
  done
  chafa --size ${fc}x${fr} --colors 256 --symbols half "$img" > "$out/chafa.ans"
  printf '%-14s %-34s %-48s %s\n' "$name" "chafa 256 half" "chafa --colors 256 --symbols half" "$(measure "$img" "$out/chafa.ans")"
  printf '%-14s %-34s %-48s %6s\n' "$name" "ceiling 256 halves (coarse)" "palette-ceiling.py" "$($python "$root/Benchmarks/palette-ceiling.py" "$img" $fc $fr)"
done
record_results
