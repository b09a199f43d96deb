#!/usr/bin/env python3
"""What is left of a Kalah(6,6) proof, task by task, priced by analogy.

Reads the proof's open tasks (the JSON of `mancala prove ... --status
--every-move --json`, on stdin or from --status FILE) and prices each by
the nearest measurement there is:

- its twin: the same position in another ledger (by default the default
  rules' finished Kalah(6,6) ledger, docs/kalah-6-6/ledger.jsonl), whose
  cost is that of the whole subtree of the twin's lines (the position's own
  lines and, where it was split, its children's, each position once);
- else the median subtree cost of the other ledger's positions with the
  same seeds in play (their range printed beside it: a weak basis).

It also prints what the ledger under way has spent on each position it
split, so that a twin's cost can be set against what the same position
costs under the other rules. The two rule sets differ only in captures
from an empty opposite pit, so a twin is a measurement of a tree of the
same shape, not of the same tree: the estimate is an order of magnitude,
and its sum the remaining cost if every open task's question is answered
at its first asking (a refuted guess asks again).

Usage:
  mancala prove kalah:6:6:capture-needs-opposite --ledger docs/kalah-6-6/capture-needs-opposite.jsonl \\
      --guess 4 --status --every-move --json > status.json
  python3 benches/kalah66/remaining.py docs/kalah-6-6/capture-needs-opposite.jsonl \\
      [--status status.json] [--twin docs/kalah-6-6/ledger.jsonl] [--json]

Pure Python (the rules are dist/ledger_audit.py's). Prints Markdown.
"""

import json
import os
import statistics
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "dist"))
from ledger_audit import Inconsistent, moves_of, parse_position, read_ledger  # noqa: E402


def load(path):
    """(header, {position: [entries]}, {position: split entry})."""
    header, entries = read_ledger(path)
    m = header["pits"]
    lines, splits = {}, {}
    for _, e in entries:
        pos = parse_position(e["position"], m)
        lines.setdefault(pos, []).append(e)
        if e["kind"] == "split":
            splits[pos] = e
    return header, lines, splits


def subtree(pos, m, rules, lines, splits):
    """(lines, nodes, seconds) of every line in the subtree of `pos`: its
    own and, where it was split, its children's, each position once."""
    seen, stack = set(), [pos]
    count = nodes = seconds = 0
    while stack:
        p = stack.pop()
        if p in seen:
            continue
        seen.add(p)
        for e in lines.get(p, []):
            count += 1
            nodes += e["nodes"]
            seconds += e["seconds"]
        if p in splits:
            for _, child, _, final in moves_of(p, m, rules):
                if final is None:
                    stack.append(child)
    return count, nodes, seconds


def in_play(pos, m):
    return sum(pos[:m]) + sum(pos[m + 1:2 * m + 1])


def main(argv):
    args = argv[1:]
    if not args or args[0].startswith("-"):
        print(__doc__.split("Usage:")[1].strip(), file=sys.stderr)
        return 2
    path = args.pop(0)
    status_path, twin_path, as_json = None, None, False
    while args:
        a = args.pop(0)
        if a == "--status" and args:
            status_path = args.pop(0)
        elif a == "--twin" and args:
            twin_path = args.pop(0)
        elif a == "--json":
            as_json = True
        else:
            print(f"unknown argument {a!r}", file=sys.stderr)
            return 2
    if twin_path is None:
        twin_path = os.path.join(os.path.dirname(os.path.abspath(path)), "ledger.jsonl")
    status = json.load(open(status_path) if status_path else sys.stdin)

    header, lines, splits = load(path)
    m, rules = header["pits"], header["rules"]
    theader, tlines, tsplits = load(twin_path)
    trules = theader["rules"]

    # The other ledger's subtree cost of every position it holds, by seeds in play.
    by_seeds = {}
    for p in tlines:
        by_seeds.setdefault(in_play(p, m), []).append(subtree(p, m, trules, tlines, tsplits))

    rows = []
    for task in status["open_tasks"]:
        pos = parse_position(task["position"], m)
        s = in_play(pos, m)
        if pos in tlines:
            c, n, sec = subtree(pos, m, trules, tlines, tsplits)
            basis = f"twin: {c} lines under {trules}"
        elif s in by_seeds:
            costs = by_seeds[s]
            n = statistics.median(x[1] for x in costs)
            sec = statistics.median(x[2] for x in costs)
            lo = min(x[1] for x in costs)
            hi = max(x[1] for x in costs)
            basis = (f"no twin; median of {len(costs)} {trules} positions of {s} seeds in play "
                     f"({lo:.1e} to {hi:.1e} nodes)")
        else:
            n = sec = None
            basis = "no measurement"
        rows.append({"position": task["position"], "at_least": task["at_least"],
                     "seeds_in_play": s, "basis": basis, "nodes": n, "seconds": sec})

    spent = []
    for p, e in splits.items():
        c, n, sec = subtree(p, m, rules, lines, splits)
        twin = subtree(p, m, trules, tlines, tsplits) if p in tlines else None
        spent.append({"position": " ".join(map(str, p)), "seeds_in_play": in_play(p, m),
                      "lines": c, "nodes": n, "seconds": sec,
                      "twin_nodes": twin[1] if twin else None,
                      "twin_seconds": twin[2] if twin else None})
    spent.sort(key=lambda r: -r["seeds_in_play"])

    priced = [r for r in rows if r["nodes"] is not None]
    total_nodes = sum(r["nodes"] for r in priced)
    total_seconds = sum(r["seconds"] for r in priced)
    if as_json:
        print(json.dumps({"open_tasks": rows, "splits": spent,
                          "priced": len(priced), "nodes": total_nodes,
                          "seconds": total_seconds}, indent=1))
        return 0
    print(f"Open tasks of {path} ({rules}), priced by {twin_path} ({trules}):\n")
    print("| task | at least | seeds in play | basis | nodes | seconds |")
    print("|---|---:|---:|---|---:|---:|")
    for r in rows:
        n = "-" if r["nodes"] is None else f"{r['nodes']:.2e}"
        sec = "-" if r["seconds"] is None else f"{r['seconds']:,.0f}"
        print(f"| {r['position']} | {r['at_least']:+d} | {r['seeds_in_play']} | {r['basis']} | {n} | {sec} |")
    print(f"\nThe frontier, {len(priced)} of {len(rows)} tasks priced: {total_nodes:.2e} nodes, "
          f"{total_seconds:,.0f} s of 2 threads ({total_seconds / 3600:.1f} h) if each is "
          "answered at its first asking and needs no split; the questions these answers "
          "raise next are not in it.\n")
    print("Spent so far on each split position (its subtree), and its twin's cost:\n")
    print("| position | seeds in play | lines | nodes | seconds | twin nodes | twin seconds |")
    print("|---|---:|---:|---:|---:|---:|---:|")
    for r in spent:
        tn = "-" if r["twin_nodes"] is None else f"{r['twin_nodes']:.2e}"
        ts = "-" if r["twin_seconds"] is None else f"{r['twin_seconds']:,.0f}"
        print(f"| {r['position']} | {r['seeds_in_play']} | {r['lines']} | {r['nodes']:.2e} | "
              f"{r['seconds']:,.0f} | {tn} | {ts} |")
    return 0


if __name__ == "__main__":
    try:
        sys.exit(main(sys.argv))
    except (Inconsistent, OSError, ValueError, KeyError) as e:
        print(f"remaining.py: {e}", file=sys.stderr)
        sys.exit(1)
