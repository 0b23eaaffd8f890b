#!/usr/bin/env bash
# Pixels against the peers (issue #11), printed side by side:
#  1. quality: a 600x400 photo at 60x20 cells, screenshotted in a real xterm
#     -ti vt340 (sixel), kitty and a plain xterm under Xvfb, PSNR (dB) of the
#     picture against the source area-averaged in linear light to the same box
#     (Tests/Tools/termshot.py);
#  2. speed and memory: render of the 12-megapixel JPEG into ~1200x800 pixels,
#     whole process, in a pty of 150x50 cells and 1200x850 pixels, medians of
#     7 runs taken in turns (race.py --pty), and peak RSS.
# usage: Benchmarks/pixels.sh
source "$(dirname "$0")/common.sh"
for p in xvfb xterm kitty imagemagick xdotool timg libsixel-bin; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || { apt-get install -y -qq "$p" >&2; }
done
[ -f "$out/detail.png" ] || $python "$root/Benchmarks/make-images.py" "$out" --big >&2
$python - "$out" <<'PY'
import sys
from PIL import Image
out = sys.argv[1]
Image.open(f"{out}/detail.png").resize((600, 400), Image.LANCZOS).save(f"{out}/detail600.png")
PY
shot="$python $root/Tests/Tools/termshot.py"
clean="env -u TMUX -u KITTY_WINDOW_ID -u TERM_PROGRAM -u COLORTERM -u NO_COLOR"
measure() {  # terminal image command...
  local term=$1 img=$2; shift 2
  WAIT=${WAIT:-4} $shot shot "$term" "$out/shot.png" $clean "$@" >/dev/null 2>&1
  $shot psnr "$out/shot.png" "$img" | cut -d' ' -f1
}
echo "## Quality: 600x400 photo at 60x20 cells (dB, higher is better)"
echo
echo "| terminal | command | $(basename "$root/Tests/Fixtures/images/photo.jpg") | detail600.png |"
echo "|---|---|---|---|"
row() {  # terminal label command-with-IMG
  local term=$1 label=$2 cmd=$3 a b
  a=$(measure "$term" "$root/Tests/Fixtures/images/photo.jpg" ${cmd//IMG/$root/Tests/Fixtures/images/photo.jpg})
  b=$(measure "$term" "$out/detail600.png" ${cmd//IMG/$out/detail600.png})
  echo "| $term | \`$label\` | $a | $b |"
}
row xterm-sixel "urlcache render --size 60x20" "$urlcache render --size 60x20 IMG"
row xterm-sixel "img2sixel -w 480" "img2sixel -w 480 IMG"
row xterm-sixel "chafa -f sixels --size 60x20" "chafa -f sixels --size 60x20 IMG"
WAIT=7 row kitty "urlcache render --size 60x20" "$urlcache render --size 60x20 IMG"
WAIT=7 row kitty "kitty +kitten icat --place 60x20@0x0" "kitty +kitten icat --place 60x20@0x0 IMG"
WAIT=7 row kitty "chafa -f kitty --size 60x20" "chafa -f kitty --size 60x20 IMG"
row xterm "urlcache render --size 60x20 (TERM=xterm, no flags)" "$urlcache render --size 60x20 IMG"
row xterm "timg -g60x20" "timg -g60x20 IMG"
row xterm "chafa --size 60x20" "chafa --size 60x20 IMG"
echo
j="$out/photo12.jpg"
echo "## Speed and memory: 12 MP JPEG into 150x47 cells of 8x17 pixels (pty 1200x850)"
echo
cmds=("$urlcache render --format sixel --size 150x47 $j" "chafa -f sixels --size 150x47 $j"
      "$urlcache render --format kitty --size 150x47 $j" "chafa -f kitty --size 150x47 $j")
mapfile -t times < <($python "$root/Benchmarks/race.py" --pty 150x50:1200x850 7 "${cmds[@]}")
echo "| command | wall (median of 7) | peak RSS |"
echo "|---|---|---|"
for i in "${!cmds[@]}"; do
  $python "$root/Benchmarks/race.py" --pty 150x50:1200x850 1 "/usr/bin/time -o $out/rss -f %M ${cmds[$i]}" >/dev/null
  echo "| \`${cmds[$i]//$root\//}\` | ${times[$i]} s | $(( $(cat "$out/rss") / 1024 )) MiB |"
done
record_results
