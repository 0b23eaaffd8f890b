#!/usr/bin/env python3
"""Writes what a benchmark script printed into its part of RESULTS.md.

usage: results.py RESULTS.md SCRIPT.sh PRINTED

The part is what lies between `<!-- BEGIN SCRIPT.sh -->` and
`<!-- END SCRIPT.sh -->`; a script with no part yet gets one at the end.
It is headed by the date and the machine (cores, processor, system), and
the printed lines follow as a block, exactly as the script printed them.
"""
import datetime
import os
import platform
import sys


def machine():
    model = "unknown processor"
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as cpu:
            model = next(l.split(":", 1)[1].strip() for l in cpu if l.startswith("model name"))
    except (OSError, StopIteration):
        pass
    system = platform.system()
    try:
        with open("/etc/os-release", encoding="utf-8") as release:
            fields = dict(l.rstrip("\n").split("=", 1) for l in release if "=" in l)
            system = fields.get("PRETTY_NAME", system).strip('"')
    except OSError:
        pass
    return f"{os.cpu_count()} cores, {model}, {system}"


def main():
    results, script, printed = sys.argv[1:]
    with open(printed, encoding="utf-8", errors="replace") as f:
        body = f.read().rstrip("\n")
    begin, end = f"<!-- BEGIN {script} -->", f"<!-- END {script} -->"
    today = datetime.date.today().isoformat()
    part = f"{begin}\nMeasured {today} on {machine()}, by `Benchmarks/{script}`.\n\n```\n{body}\n```\n{end}"
    with open(results, encoding="utf-8") as f:
        text = f.read()
    if begin in text and end in text:
        head, rest = text.split(begin, 1)
        text = head + part + rest.split(end, 1)[1]
    else:
        text = text.rstrip("\n") + f"\n\n## {script}\n\n{part}\n"
    with open(results + ".tmp", "w", encoding="utf-8") as f:
        f.write(text)
    os.replace(results + ".tmp", results)
    print(f"wrote its part of {results}", file=sys.stderr)


if __name__ == "__main__":
    main()
