# Shared by the benchmark scripts: packages, the release build, the images.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
out="$root/Benchmarks/out"
mkdir -p "$out"
need=(chafa python3-numpy python3-pil time gcc libpng-dev)
missing=()
for p in "${need[@]}"; do dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p"); done
if [ ${#missing[@]} -gt 0 ]; then
  if [ "$(id -u)" -eq 0 ]; then apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" >&2
  else echo "the benchmarks need: ${missing[*]} (sudo apt-get install ${missing[*]})" >&2; exit 1; fi
fi
"$root/Scripts/install-deps"
swift build -c release --static-swift-stdlib --product urlcache --package-path "$root" >&2   # as Scripts/run builds it
urlcache="$root/.build/release/urlcache"
python=/usr/bin/python3            # Debian's, with numpy and PIL
artq="$root/Benchmarks/artq.py"     # the block-art quality measure, for the scripts that measure it
# What a script prints is its part of Benchmarks/RESULTS.md: stdout is kept
# as it goes, and `record_results`, the last line of every script, writes it
# there with the date and the machine (Benchmarks/results.py). A run cut
# short writes nothing.
printed="$out/.printed-$(basename "$0")"   # in Benchmarks/out: a run cut short leaves nothing in /tmp
exec {terminal_out}>&1
exec > >(tee "$printed")
tee_pid=$!
record_results() {
  exec >&"$terminal_out"    # tee reads its end of file and finishes
  wait "$tee_pid" 2>/dev/null || true
  $python "$root/Benchmarks/results.py" "$root/Benchmarks/RESULTS.md" "$(basename "$0")" "$printed"
  rm -f "$printed"
}
# Peak RSS (KiB) of one command line.
rss() { /usr/bin/time -f %M bash -c "$1 >/dev/null" 2>&1 | tail -1; }
# race ROUNDS KIND "PROGRAM COMMAND..." ...: the commands take turns (race.py),
# then a row each (the script's own `row`) with its median and peak RSS; the
# medians are left in `medians` for ratios.
race() {
  local rounds=$1 kind=$2; shift 2
  local programs=() commands=()
  for c in "$@"; do programs+=("${c%% *}"); commands+=("${c#* }"); done
  mapfile -t medians < <($python "$root/Benchmarks/race.py" "$rounds" "${commands[@]}")
  for i in "${!commands[@]}"; do row "$kind" "${programs[$i]}" "${medians[$i]}" "$(rss "${commands[$i]}")" "${commands[$i]}"; done
}
# serve FILE...: the files over HTTP on a free port of 127.0.0.1, from a
# fresh $work that goes at exit with the server ($port, $server).
serve() {
  work=$(mktemp -d)
  trap 'kill $server 2>/dev/null || true; rm -rf "$work"' EXIT
  mkdir "$work/www" && cp "$@" "$work/www/"
  port=$($python -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
  (cd "$work/www" && exec $python -m http.server "$port" --bind 127.0.0.1 >/dev/null 2>&1) & server=$!
  sleep 1
}
# cache_served NAME: $work/list.plist of the one served file, fetched into $work/cache.
cache_served() {
  cat > "$work/list.plist" <<PLIST
<?xml version="1.0" encoding="UTF-8"?>
<plist version="1.0"><array><string>http://127.0.0.1:$port/$1</string></array></plist>
PLIST
  NO_PROXY=127.0.0.1 "$urlcache" fetch --config "$work/list.plist" --cache-dir "$work/cache" >/dev/null
}
