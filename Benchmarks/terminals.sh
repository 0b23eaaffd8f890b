#!/usr/bin/env bash
# The terminal gallery (#21): urlcache, chafa and timg with no flags, in each
# terminal installed here under Xvfb, one at a time; the PSNR of each
# screenshot's picture against the source (Tests/Tools/termshot.py), three
# pictures at 60x20 cells: two photos, and make-images.py's detail.png (1/f
# noise under flat shapes) at 600x400, as pixels.sh shows it. Screenshots
# go to a scratch folder (printed on stderr).
#   Benchmarks/terminals.sh [TERMINAL...]   default: every one installed
# TERMINAL: xterm xterm-sixel kitty konsole mlterm foot urxvt st
#           xfce4-terminal gnome-terminal lxterminal terminator sakura
#           mate-terminal tilix qterminal alacritty zutty tmux-xterm-sixel
#           tmux-kitty (foot runs inside weston). "stray" counts pixels
# beside the picture (text a terminal printed): it should be 0. Run as
# root, it installs the terminals it lacks (about 400 packages).
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"
packages=(xterm kitty konsole mlterm foot weston rxvt-unicode stterm xfce4-terminal gnome-terminal lxterminal terminator
          sakura mate-terminal tilix qterminal alacritty zutty tmux timg dbus-daemon xdotool imagemagick)
missing=()
for p in "${packages[@]}"; do dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p"); done
if [ ${#missing[@]} -gt 0 ] && [ "$(id -u)" -eq 0 ]; then
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" >&2
fi
Scripts_termshot="$root/Tests/Tools/termshot.py"
# Screenshots go to a scratch folder outside the repository (SHOTS names one).
shots="${SHOTS:-$(mktemp -d /tmp/urlcache-terminals.XXXXXX)}"
mkdir -p "$shots"
echo "screenshots: $shots" >&2
[ -f "$out/detail.png" ] || $python "$root/Benchmarks/make-images.py" "$out" --big >&2
[ -f "$out/detail600.png" ] || $python -c "from PIL import Image
Image.open('$out/detail.png').resize((600, 400), Image.LANCZOS).save('$out/detail600.png')"
photos=("$root/Tests/Fixtures/images/photo.jpg" "$root/Tests/Fixtures/images/tall.jpg" "$out/detail600.png")
all=(xterm xterm-sixel kitty konsole mlterm foot urxvt st xfce4-terminal gnome-terminal lxterminal terminator sakura
     mate-terminal tilix qterminal alacritty zutty tmux-xterm-sixel tmux-kitty)
terminals=("${@:-${all[@]}}")
clean="env -u TMUX -u KITTY_WINDOW_ID -u TERM_PROGRAM -u COLORTERM -u VTE_VERSION -u WT_SESSION -u KONSOLE_VERSION -u NO_COLOR"
declare -A program=([xterm-sixel]=xterm [tmux-xterm-sixel]=tmux [tmux-kitty]=tmux)
printf '| terminal | photo | urlcache dB | chafa dB | timg dB | best | stray (ours) |\n|---|---|---|---|---|---|---|\n'
for t in "${terminals[@]}"; do
  command -v "${program[$t]:-$t}" >/dev/null || { echo "| $t | not installed | | | | | |"; continue; }
  outer=$t; wrap=""; rows=""; bg=""
  case $t in
    tmux-*) outer=${t#tmux-}; wrap=tmux; rows="--rows 0:480";;
    st|qterminal|sakura) bg="--bg black";;
  esac
  for photo in "${photos[@]}"; do
    declare -A db=() stray=()
    for tool in urlcache chafa timg; do
      case $tool in
        urlcache) cmd="$urlcache render --size 60x20 $photo";;
        chafa) cmd="chafa --size 60x20 $photo";;
        timg) cmd="timg -g60x20 $photo";;
      esac
      if [ -n "$wrap" ]; then cmd="tmux -L bench$$ -f /dev/null new-session \"$cmd; sleep 30\""; fi
      name=$(basename "$photo"); shot="$shots/$t-$tool-${name%.*}.png"
      # The harness's own terminal variables are dropped before the terminal
      # starts, not inside it: what the terminal sets itself (qterminal,
      # kitty, VTE and alacritty set COLORTERM) is what a person's programs see.
      HOME="$shots" WAIT=8 $clean $python "$Scripts_termshot" shot "$outer" "$shot" $cmd >/dev/null 2>&1 || true
      [ -n "$wrap" ] && tmux -L bench$$ kill-server 2>/dev/null || true
      read -r d _ _ _ _ s < <($python "$Scripts_termshot" psnr "$shot" "$photo" $rows $bg 2>/dev/null || echo "0 0 0 0 0 0")
      db[$tool]=$d; stray[$tool]=$s
    done
    best=$(printf '%s %s\n' "${db[urlcache]}" urlcache "${db[chafa]}" chafa "${db[timg]}" timg | sort -rn | head -1 | cut -d' ' -f2)
    printf '| %s | %s | %s | %s | %s | %s | %s |\n' "$t" "$(basename "$photo")" "${db[urlcache]}" "${db[chafa]}" "${db[timg]}" "$best" "${stray[urlcache]}"
  done
done
record_results
