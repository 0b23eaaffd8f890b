#!/usr/bin/env bash
# Time to picture in real kitty (#21): render's pixels as base64 in the
# escape codes (t=d) against shared memory (t=s), taking turns, in one kitty
# window under Xvfb. "To picture" is from render's start to kitty's answer to
# a DA1 sent after the picture: kitty has read and decoded it by then.
#   Benchmarks/kitty-medium.sh [ROUNDS]   default 9
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"
rounds=${1:-9}
command -v kitty >/dev/null || { echo "kitty is not installed (Scripts/install-deps --tests)" >&2; exit 1; }
work="$out/kitty-medium"
rm -rf "$work"; mkdir -p "$work"
photo="$root/Tests/Fixtures/images/photo.jpg"
# Inside kitty: each medium in turn, ROUNDS times, at the window's size and at 60x20 cells.
cat > "$work/turns.sh" <<SCRIPT
for i in \$(seq $rounds); do
  for size in full 60x20; do
    for medium in direct sharedMemory; do
      sz=""; [ \$size = full ] || sz="--size \$size"
      printf '%s %s ' \$size \$medium >> "$work/times.txt"
      clear
      $urlcache render --timings --kitty-medium \$medium \$sz "$photo" 2>"$work/one.txt"
      sed -n 's/.* \([0-9.]*\) ms in all/\1/p' "$work/one.txt" >> "$work/times.txt"
    done
  done
done
echo done >> "$work/times.txt"
sleep 60
SCRIPT
HOME="$work" WAIT=$((rounds * 3 + 10)) $python "$root/Tests/Tools/termshot.py" shot kitty "$work/last.png" \
  env -u TMUX -u SSH_CONNECTION -u SSH_TTY bash "$work/turns.sh" >/dev/null 2>&1 || true
grep -q '^done' "$work/times.txt" || { echo "kitty did not finish (see $work/times.txt)" >&2; exit 1; }
echo "| picture | base64 (t=d) median ms | shared memory (t=s) median ms | ratio |"
echo "|---|---|---|---|"
# median SIZE MEDIUM: the median time of that size and medium.
median() { awk -v s="$1" -v m="$2" '$1==s && $2==m {print $3}' "$work/times.txt" | sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
for size in full 60x20; do
  d=$(median $size direct)
  m=$(median $size sharedMemory)
  label=$([ $size = full ] && echo "the whole window" || echo "60x20 cells")
  printf '| %s | %s | %s | %.2f |\n' "$label" "$d" "$m" "$(echo "$m / $d" | bc -l)"
done
echo
echo "rounds: $rounds, taken in turns; raw times in $work/times.txt"
record_results
