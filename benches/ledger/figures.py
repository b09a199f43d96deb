#!/usr/bin/env python3
"""The figures of a quick reproduction (`benches/reproduce.sh DOC --quick`),
times left out, and their comparison with the committed ones. Stdlib only:

    python3 benches/ledger/figures.py compare COMMITTED RUN   # exit 1 at the first line that differs
    python3 benches/ledger/figures.py show FILE               # the figures as compared

The quick runs are seeded, so every figure repeats exactly on any machine;
what does not repeat is time. A line's times (a number with a unit of
time: s, ms, seconds, minutes, hours) become `<time>`; a line outside a
table that speaks of time has every number masked; in a table, the first
column whose heading names a time ("(s)", "time") and every column after
it are masked (the time tables and the time columns put them last).
Everything else is compared as it stands.
"""

import re
import sys

TIME = re.compile(r"\d+(?:\.\d+)?(?:e[+-]?\d+)?\s*(?:s|ms|seconds?|minutes?|min|hours?)\b(?![-\w])")
TIME_HEADING = re.compile(r"\(s\)|\btime\b", re.I)
NUMBER = re.compile(r"-?\d[\d,]*(?:\.\d+)?(?:e[+-]?\d+)?")


def cells(line):
    return [c.strip() for c in line.strip().strip("|").split("|")]


def normalize(text):
    out = []
    masked = None  # the columns of the current table that hold times
    for line in text.splitlines():
        if line.startswith("|"):
            cs = cells(line)
            if masked is None:
                first = next((i for i, c in enumerate(cs) if i > 0 and TIME_HEADING.search(c)), len(cs))
                masked = set(range(first, len(cs)))
            elif not set(line.replace("|", "").strip()) <= set("-: "):
                cs = ["<time>" if i in masked else c for i, c in enumerate(cs)]
            line = "| " + " | ".join(TIME.sub("<time>", c) for c in cs) + " |"
        else:
            masked = None
            if re.search(r"\btime\b", line, re.I):
                line = NUMBER.sub("#", TIME.sub("<time>", line))
            else:
                line = TIME.sub("<time>", line)
        out.append(line.rstrip())
    return out


def main(argv):
    if len(argv) == 3 and argv[1] == "show":
        print("\n".join(normalize(open(argv[2]).read())))
        return 0
    if len(argv) != 4 or argv[1] != "compare":
        print(__doc__, file=sys.stderr)
        return 2
    committed, run = (normalize(open(p).read()) for p in argv[2:4])
    for no, (a, b) in enumerate(zip(committed, run), 1):
        if a != b:
            print(f"figures: {argv[3]} differs from {argv[2]} at line {no}:\n"
                  f"  committed: {a}\n  this run:  {b}\n"
                  "a change that moves a quick figure on purpose is committed with "
                  "`benches/reproduce.sh DOC --quick --update-docs`", file=sys.stderr)
            return 1
    if len(committed) != len(run):
        no = min(len(committed), len(run)) + 1
        print(f"figures: {argv[3]} has {len(run)} lines, {argv[2]} {len(committed)}; the first one missing "
              f"is line {no}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
