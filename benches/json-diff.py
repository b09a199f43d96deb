#!/usr/bin/env python3
"""Run the README's and the command line pages' commands with two binaries
and compare their outputs.

Usage: benches/json-diff.py OLD_BINARY NEW_BINARY [DOC.md ...]
(default: README.md docs/cli.md docs/games.md)

Every `mancala ...` (or `cargo run --release -- ...`) line of the documents'
shell blocks that is not marked `# long` or `# interactive` is run by
each binary in a scratch directory of its own (the same files in both:
the tables each builds, the assignment's sample input). Their exit codes
must be equal, and their standard outputs too: JSON compared as data, with
the figures that measure time left out (keys naming seconds, rates or
times), text compared line by line with the numbers followed by `s` or
`/s` masked. Prints one line per command and a summary; exits 1 on any
difference.

A refactor that keeps behaviour shows no difference here but where the
output is not the same from run to run of one binary: searches on two
threads (node counts), and commands bounded by time (`--time`, `grade`'s
solver budget). Run it with OLD_BINARY as both arguments to see which
those are on this machine.
"""
import json
import os
import re
import shlex
import subprocess
import sys
import tempfile

TIME_KEYS = re.compile(r"(seconds|_ms$|^ms$|per_second|rate|elapsed|nodes_per|wall|time)", re.I)
# Durations ("0.52 s", "12 ms") and rates ("3.70 M positions/s", "1789
# games/s", "(  0.91 M/s)").
TIME_TEXT = re.compile(r"\d+(\.\d+)?\s*(s|ms|µs|(([kMG] )?[A-Za-z]*|[kMG])/s)(?![A-Za-z])")


def commands(readme):
    out, in_shell = [], False
    for line in open(readme, encoding="utf-8"):
        t = line.strip()
        if t.startswith("```"):
            in_shell = (not in_shell) and t in ("```sh", "```bash")
            continue
        if not in_shell or "# long" in t or "# interactive" in t:
            continue
        cmd = t.split(" # ")[0].strip()
        for prefix in ("cargo run --release -- ", "mancala "):
            if cmd.startswith(prefix):
                out.append((t, shlex.split(cmd[len(prefix):])))
                break
    return out


def strip_times(value):
    if isinstance(value, dict):
        return {k: strip_times(v) for k, v in value.items() if not TIME_KEYS.search(k)}
    if isinstance(value, list):
        return [strip_times(v) for v in value]
    return value


def normalise(stdout):
    try:
        return ("json", strip_times(json.loads(stdout)))
    except ValueError:
        lines = []
        for line in stdout.splitlines():
            try:
                lines.append(("json", strip_times(json.loads(line))))
            except ValueError:
                lines.append(("text", TIME_TEXT.sub("<time>", line)))
        return ("lines", lines)


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    old, new = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
    docs = sys.argv[3:] or ["README.md", "docs/cli.md", "docs/games.md"]
    dirs = [tempfile.mkdtemp(prefix="json-diff-old-"), tempfile.mkdtemp(prefix="json-diff-new-")]
    for d in dirs:
        with open(os.path.join(d, "input.txt"), "w") as f:
            f.write("2\n1\n2\n3 3 3\n3 3 3\n0\n0\n")
    same = differ = 0
    for line, args in [c for doc in docs for c in commands(doc)]:
        runs = []
        for binary, d in zip((old, new), dirs):
            p = subprocess.run([binary] + args, cwd=d, capture_output=True, text=True, timeout=1800)
            runs.append((p.returncode, normalise(p.stdout)))
        if runs[0] == runs[1]:
            same += 1
            print(f"same     {line}")
        else:
            differ += 1
            print(f"DIFFERS  {line}")
            for (code, out), who in zip(runs, ("old", "new")):
                print(f"    {who}: exit {code}: {json.dumps(out)[:400]}")
    print(f"{same} commands the same, {differ} different")
    sys.exit(1 if differ else 0)


if __name__ == "__main__":
    main()
