#!/usr/bin/env bash
# fetch --all against one-by-one fetch --entry N: five entries on a server
# that takes 1.5 s to answer each (the scripted server's /headers route
# with delay=1.5), an empty cache each run, medians of runs taken in turns
# (race.py). Goal: five entries in about one answer's time (six in flight),
# against five answers' time one by one.
source "$(dirname "$0")/common.sh"
work=$(mktemp -d)
trap 'kill $server 2>/dev/null || true; rm -rf "$work"' EXIT
mkdir "$work/www" && cp "$root/Tests/Fixtures/images/earth.jpg" "$work/www/"
python3 "$root/Tests/Servers/scripted_server.py" "$work/www" "$work/requests.log" > "$work/port" & server=$!
for _ in $(seq 50); do [ -s "$work/port" ] && break; sleep 0.1; done
port=$(awk '{print $2}' "$work/port")
{
  echo '<?xml version="1.0" encoding="UTF-8"?><plist version="1.0"><array>'
  for n in 1 2 3 4 5; do echo "<string>http://127.0.0.1:$port/headers/earth.jpg?delay=1.5&amp;n=$n</string>"; done
  echo '</array></plist>'
} > "$work/list.plist"
export NO_PROXY=127.0.0.1
all="rm -rf $work/a; $urlcache fetch --all --config $work/list.plist --cache-dir $work/a >/dev/null"
each="rm -rf $work/b; for n in 1 2 3 4 5; do $urlcache fetch --entry \$n --config $work/list.plist --cache-dir $work/b >/dev/null; done"
mapfile -t medians < <($python "$root/Benchmarks/race.py" "${RUNS:-5}" "$all" "$each")
printf '%-34s %9s\n' "five entries, 1.5 s an answer" "median s"
printf '%-34s %9s\n' "urlcache fetch --all" "${medians[0]}"
printf '%-34s %9s\n' "urlcache fetch --entry N, 1 to 5" "${medians[1]}"
$python -c "print('%-34s %9.2fx   (goal: about one answer, 1.5 s)' % ('ratio', ${medians[0]} / ${medians[1]}))"
record_results
