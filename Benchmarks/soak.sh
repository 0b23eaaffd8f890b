#!/usr/bin/env bash
# The screen left open: MINUTES (default 30) of re-checks every 2 s
# (--refresh-interval 2) against a server whose answers cycle through a new
# image, a 304, a 503 with Retry-After and a 206 (the scripted server's
# /cycle route), while `+ l 0 g Esc → ← r` is pressed every 5 s: zoom, pan,
# fit, the gallery and back, the next entry and back, a re-check.
#   Benchmarks/soak.sh [MINUTES] [TERMINAL...]     TERMINAL: tmux (160x50), kitty
# Each minute it prints the screen's resident memory (the lowest and the
# highest of the minute's samples, one a second: a download or a zoom in
# flight raises it for a moment, a leak raises the floor), open descriptors
# and threads, the images its cache keeps and any temporary files left.
# Goal: flat after the first minute (which fills the cache): the floor at
# most 5 % higher at the end than in minute 2.
source "$(dirname "$0")/common.sh"
minutes="${1:-30}"
shift || true
terminals=("${@:-tmux kitty}")
[ "${#terminals[@]}" -eq 1 ] && read -r -a terminals <<< "${terminals[0]}"
[ -f "$out/earth.jpg" ] || $python "$root/Benchmarks/make-images.py" "$out" >/dev/null
work=$(mktemp -d)
display=""
socket="soak-$$"   # a tmux server of this run's own: another run's exit leaves it alone
trap 'set +e; tmux -L "$socket" kill-server 2>/dev/null; kill $server $display 2>/dev/null; rm -rf "$work"' EXIT

# The server: two entries whose picture changes every fourth answer.
mkdir "$work/www"
cp "$out/earth.jpg" "$work/www/earth.jpg"
# The next picture is the same one mirrored: as large, so that which of the
# two is on screen at a sample does not move the memory.
$python -c 'import sys; from PIL import Image, ImageOps; ImageOps.mirror(Image.open(sys.argv[1])).save(sys.argv[2], "JPEG", quality=90)' \
  "$out/earth.jpg" "$work/www/earth.jpg.next"
cp "$root/Tests/Fixtures/images/sun.png" "$work/www/sun.png"
cp "$root/Tests/Fixtures/images/sun2.png" "$work/www/sun.png.next"
$python "$root/Tests/Servers/scripted_server.py" "$work/www" "$work/requests.log" > "$work/port" & server=$!
until grep -q PORT "$work/port" 2>/dev/null; do sleep 0.1; done
port=$(sed -n 's/PORT //p' "$work/port")
cat > "$work/list.plist" <<PLIST
<?xml version="1.0" encoding="UTF-8"?>
<plist version="1.0"><array>
<string>http://127.0.0.1:$port/cycle/earth.jpg</string>
<string>http://127.0.0.1:$port/cycle/sun.png</string>
</array></plist>
PLIST

# rss PID: resident KiB now.
rss() { awk '/^VmRSS/ {print $2}' "/proc/$1/status" 2>/dev/null || echo 0; }

# sample PID CACHE: descriptors, threads, kept images, temporaries.
sample() {
  local threads fds kept temporaries
  threads=$(awk '/^Threads/ {print $2}' "/proc/$1/status")
  fds=$(ls "/proc/$1/fd" | wc -l)
  kept=$(find "$2" -name '*.img' | wc -l)
  temporaries=$(find "$2" -name '*.tmp*' | wc -l)
  echo "$fds $threads $kept $temporaries"
}

# keys_for_a_minute TERMINAL PID: the key cycle every 5 s for a minute,
# the screen's RSS sampled each second; prints the lowest and highest, MiB.
keys_for_a_minute() {
  local end=$(($(date +%s) + 60)) low="" high=0 now
  while [ "$(date +%s)" -lt "$end" ] && kill -0 "$2" 2>/dev/null; do
    keys "$1" &
    for _ in 1 2 3 4 5; do
      now=$(rss "$2")
      [ -z "$low" ] || [ "$now" -lt "$low" ] && low=$now
      [ "$now" -gt "$high" ] && high=$now
      sleep 1
    done
    wait
  done
  awk -v l="${low:-0}" -v h="$high" 'BEGIN { printf "%.1f %.1f", l / 1024, h / 1024 }'
}

# keys TERMINAL: the cycle of keys, half a second apart.
keys() {
  local key
  for key in + l 0 g Escape Right Left r; do
    if [ "$1" = tmux ]; then
      tmux -L "$socket" send-keys -t soak "$key"
    else
      case "$key" in Escape) key=$'\e' ;; Right) key=$'\eOC' ;; Left) key=$'\eOD' ;; esac
      kitty @ --to "unix:$work/kitty.sock" send-text -- "$key" >/dev/null 2>&1 || true
    fi
    sleep 0.5
  done
}

start_screen() { # TERMINAL CACHE: starts the screen, prints its pid
  local command="$urlcache --config $work/list.plist --cache-dir $2 --refresh-interval 2"
  if [ "$1" = tmux ]; then
    tmux -L "$socket" -f /dev/null new-session -d -s soak -x 160 -y 50 \
      "env TERM=tmux-256color COLORTERM=truecolor NO_PROXY=127.0.0.1 $command"
  else
    DISPLAY=:87 LIBGL_ALWAYS_SOFTWARE=1 NO_PROXY=127.0.0.1 kitty --config NONE -o allow_remote_control=yes \
      --listen-on "unix:$work/kitty.sock" -o initial_window_width=1280 -o initial_window_height=800 \
      $command >/dev/null 2>&1 &
  fi
  local pid=""
  for _ in $(seq 100); do
    # The screen itself, not the terminal whose command line names it.
    pid=$(pgrep -n -f -- "^$urlcache --config .* --cache-dir $2 " || true)
    [ -n "$pid" ] && break
    sleep 0.1
  done
  echo "$pid"
}

stop_screen() { # TERMINAL
  if [ "$1" = tmux ]; then
    tmux -L "$socket" kill-server 2>/dev/null || true
  else
    pkill -f -- "--listen-on unix:$work/kitty.sock" 2>/dev/null || true
    kill "$display" 2>/dev/null || true
    wait "$display" 2>/dev/null || true
  fi
}

for terminal in "${terminals[@]}"; do
  cache="$work/cache-$terminal"
  # Started here, not in start_screen's subshell, so that $display is known to stop it.
  if [ "$terminal" = kitty ]; then
    Xvfb :87 -screen 0 1400x900x24 -nolisten tcp >/dev/null 2>&1 &
    display=$!
    sleep 1
  fi
  pid=$(start_screen "$terminal" "$cache")
  [ -n "$pid" ] || { echo "$terminal: the screen did not start" >&2; continue; }
  echo "$terminal, $minutes minutes: re-checks every 2 s, keys every 5 s"
  echo "| minute | RSS MiB, low–high | descriptors | threads | kept images | temporaries |"
  echo "|---|---|---|---|---|---|"
  first="" firsthigh="" last="" lasthigh=""
  for minute in $(seq 1 "$minutes"); do
    read -r low high <<< "$(keys_for_a_minute "$terminal" "$pid")"
    kill -0 "$pid" 2>/dev/null || { echo "| $minute | the screen ended | | | | |"; break; }
    read -r fds threads kept temporaries <<< "$(sample "$pid" "$cache")"
    echo "| $minute | $low–$high | $fds | $threads | $kept | $temporaries |"
    # The first minute fills the cache and the kept images: flat from the second on.
    [ "$minute" -eq 2 ] && { first=$low; firsthigh=$high; }
    last=$low
    lasthigh=$high
  done
  requests=$(wc -l < "$work/requests.log")
  stop_screen "$terminal"
  if [ -n "$first" ] && [ -n "$last" ]; then
    $python -c "print('from minute 2 to the last: the floor %+.1f %%, the peak %+.1f %%   (goal: at most 5 %%)' % (100 * ($last - $first) / $first, 100 * ($lasthigh - $firsthigh) / $firsthigh))"
  fi
  echo "requests the server answered so far: $requests"
  echo
done
record_results
