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
swift build -c release --static-swift-stdlib --package-path "$root" >&2   # as Scripts/run builds it
urlcache="$root/.build/release/urlcache"
python=/usr/bin/python3            # Debian's, with numpy and PIL
artq="$root/../shared/tools/artq.py"
[ -f "$artq" ] || { echo "artq.py not found at $artq (shared/ beside the project)" >&2; exit 1; }
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
