#!/usr/bin/env bash
# Launch to first frame of the screen, from a fresh cached 1808x1808 JPEG
# (the stand-in for GOES' full disk), in a tmux window of 160x50, against
# chafa printing the same file at 160x48 in the same window: whole process,
# medians of runs taken in turns (race.py --tty). Goal: urlcache at most
# 0.5x chafa. The screen's hidden --exit-after-first-frame quits as soon as
# the first image is drawn, so its time is launch to first frame (plus endwin).
source "$(dirname "$0")/common.sh"
[ -f "$out/earth.jpg" ] || $python "$root/Benchmarks/make-images.py" "$out"
work=$(mktemp -d)
trap 'tmux -L urlcache-ff kill-server 2>/dev/null || true; kill $server 2>/dev/null || true; rm -rf "$work"' EXIT
# Cache the image through a local server, then keep it fresh.
mkdir "$work/www" && cp "$out/earth.jpg" "$work/www/"
(cd "$work/www" && exec python3 -m http.server 8798 --bind 127.0.0.1 >/dev/null 2>&1) & server=$!
sleep 1
cat > "$work/list.plist" <<PLIST
<?xml version="1.0" encoding="UTF-8"?>
<plist version="1.0"><array><string>http://127.0.0.1:8798/earth.jpg</string></array></plist>
PLIST
NO_PROXY=127.0.0.1 "$urlcache" fetch --config "$work/list.plist" --cache-dir "$work/cache" >/dev/null
ours="$urlcache --config $work/list.plist --cache-dir $work/cache --exit-after-first-frame"
theirs="chafa --size 160x48 $out/earth.jpg"
tmux -L urlcache-ff -f /dev/null new-session -d -x 160 -y 50 \
  "env TERM=tmux-256color COLORTERM=truecolor NO_COLOR= $python $root/Benchmarks/race.py --tty $work/medians ${RUNS:-15} '$ours' '$theirs'; tmux -L urlcache-ff wait-for -S done"
tmux -L urlcache-ff wait-for done
mapfile -t medians < "$work/medians"
printf '%-26s %9s   %s\n' "launch to first frame" "median s" command
printf '%-26s %9s   %s\n' "urlcache (screen)" "${medians[0]}" "$ours"
printf '%-26s %9s   %s\n' "chafa" "${medians[1]}" "$theirs"
$python -c "print('%-26s %9.3fx   (goal: at most 0.50x)' % ('ratio', ${medians[0]} / ${medians[1]}))"
record_results
