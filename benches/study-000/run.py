#!/usr/bin/env python3
"""Re-run the five-game study's tables 5.1 to 5.75 and write the comparison.

Reads published.tsv (one row per table and game, the figures as printed),
plays every row with the `mancala` binary at the study's settings, and
writes markdown: the published figure, the measured one, its 95% interval
and a verdict per row. Raw JSON reports go to target/study-000/.

Called by benches/study-000.sh; see docs/study-000.md for the settings.
"""
import argparse
import json
import math
import os
import re
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))
from reports import cached_run, two_sample_p, wilson  # noqa: E402
GAMES = {
    "awari": "awari:6:4",
    "oware": "oware:6:4",
    "vai-lung-thlan": "vai-lung-thlan:6:5",
    "ohvalhu": "ohvalhu:8:8",
    "kalah": "kalah:6:4",
}
GAME_NAMES = {
    "awari": "Awari",
    "oware": "Oware",
    "vai-lung-thlan": "Vai Lung Thlan",
    "ohvalhu": "Ohvalhu",
    "kalah": "Kalah",
}


def spec(name):
    """The project's agent for one of the study's names."""
    m = re.fullmatch(r"(random|greedy|BMM|ABMM|HMM|MCTS)(\d*)", name)
    if not m:
        sys.exit(f"unknown agent {name} in published.tsv")
    kind, n = m.groups()
    if kind == "random":
        return "random"
    if kind == "greedy":
        return "rovaris-greedy"
    if kind == "BMM":
        # Plain minimax plays move for move as alpha-beta (the same values,
        # the same tie rule; tests/rovaris.rs checks it in all five games);
        # depth 8 runs as alpha-beta unless PLAIN_MINIMAX is set.
        if n == "8" and not os.environ.get("PLAIN_MINIMAX"):
            return "alphabeta:8"
        return f"minimax:{n}"
    if kind == "ABMM":
        return f"alphabeta:{n}"
    if kind == "HMM":
        return f"rovaris-heuristic:{n}"
    return f"rovaris-uct:{n}"


def deterministic(name):
    return re.match(r"(greedy|BMM|ABMM)", name) is not None


HMM_V_HMM_OPENING = 10


def opening(a, b):
    """The study's random opening: the first 10 moves of each side random
    when a deterministic agent (greedy, BMM, ABMM) meets a deterministic
    agent or HMM; never against random or MCTS. The text leaves HMM v HMM
    open; its tables fit 10 (--hmm-v-hmm-opening, docs/study-000.md)."""
    def fixed(x):
        return deterministic(x) or x.startswith("HMM")
    if fixed(a) and fixed(b):
        if deterministic(a) or deterministic(b):
            return 10
        return HMM_V_HMM_OPENING
    return 0


def num(s):
    return float(s) if s.strip() else None


def load(path):
    rows = []
    with open(path) as f:
        header = f.readline().rstrip("\n").split("\t")
        for line in f:
            cells = line.rstrip("\n").split("\t")
            rows.append(dict(zip(header, cells)))
    return rows


def command(args, row, games):
    """The match command of a row (without the binary)."""
    a, b = row["a"], row["b"]
    cmd = ["match", spec(a), spec(b), "--game", GAMES[row["game"]], "--games", str(games),
           "--seed", str(args.seed), "--random-opening", str(opening(a, b)), "--json"]
    if row["game"] in ("awari", "oware"):
        cmd += ["--repetition", "own-side"]
    return cmd


def run_match(args, row, games):
    """The report of a row's match: reused from the raw directory when a
    report of the same command is there (a stopped run resumes), else
    played."""
    out = os.path.join(args.raw, f"{row['table']}-{row['game']}{row['key']}.json")
    return cached_run(args.bin, command(args, row, games), out, args.fresh, args.threads)


def measure(row, rep):
    """The measured figures in the published columns, as percentages and
    counts: (compared count, games, compared published %, cells)."""
    n = rep["games"]
    s, no = rep["a_as_south"], rep["a_as_north"]
    half = n / 2
    pct = lambda x, d: 100 * x / d
    if row["a"] == row["b"]:
        # Same agent both sides: South's wins, North's wins, draws.
        south = s["wins"] + no["losses"]
        north = s["losses"] + no["wins"]
        ties = s["draws"] + no["draws"]
        return {
            "x": south, "n": n, "published": num(row["a_wins"]),
            "cells": f"S {pct(south, n):.1f} / N {pct(north, n):.1f} / ties {pct(ties, n):.1f}",
            "pub_cells": f"S {row['a_wins']} / N {row['b_wins']} / ties {row['ties']}",
        }
    a_wins = s["wins"] + no["wins"]
    b_wins = s["losses"] + no["losses"]
    cells = (f"{pct(a_wins, n):.1f} (S {pct(s['wins'], half):.0f}, N {pct(no['wins'], half):.0f})"
             f" v {pct(b_wins, n):.1f}")
    pub_b = row["b_wins"] or "-"
    pub_cells = f"{row['a_wins']} (S {row['a_south']}, N {row['a_north']}) v {pub_b}"
    if row["table"] == "5.67":
        # Printed "Wins" is the South column (the text: every win as South);
        # compare the wins as South over the games as South.
        return {"x": s["wins"], "n": int(half), "published": num(row["a_south"]),
                "cells": cells, "pub_cells": pub_cells}
    return {"x": a_wins, "n": n, "published": num(row["a_wins"]),
            "cells": cells, "pub_cells": pub_cells}


def main():
    global HMM_V_HMM_OPENING
    ap = argparse.ArgumentParser()
    ap.add_argument("--bin", default="target/release/mancala")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--tables", default="", help="space-separated table numbers (default all)")
    ap.add_argument("--games", type=int, default=0, help="games per match (default: the study's)")
    ap.add_argument("--threads", type=int, default=0)
    ap.add_argument("--hmm-v-hmm-opening", type=int, default=HMM_V_HMM_OPENING,
                    help="random moves a side in HMM v HMM (the text is silent; default 10)")
    ap.add_argument("--raw", default="target/study-000",
                    help="raw JSON reports; a report of the same command there is reused")
    ap.add_argument("--fresh", action="store_true", help="play every match again")
    ap.add_argument("--out", default="docs/study-000.md")
    ap.add_argument("--template", default=os.path.join(HERE, "notes.md"))
    args = ap.parse_args()
    HMM_V_HMM_OPENING = args.hmm_v_hmm_opening
    os.makedirs(args.raw, exist_ok=True)
    rows = load(os.path.join(HERE, "published.tsv"))
    # A table with several rows of one game (5.67) keeps one raw report a
    # row: the first agent goes into the file name.
    seen = {}
    for r in rows:
        seen[(r["table"], r["game"])] = seen.get((r["table"], r["game"]), 0) + 1
    for r in rows:
        r["key"] = f"-{r['a']}" if seen[(r["table"], r["game"])] > 1 else ""
    wanted = set(args.tables.split())
    rows = [r for r in rows if not wanted or r["table"] in wanted]
    results = []
    for i, row in enumerate(rows):
        games = args.games or int(row["games"] or 200)
        rep = run_match(args, row, games)
        m = measure(row, rep)
        pub_n = int(row["games"] or 200)
        pub_x = round(m["published"] * pub_n / 100) if m["published"] is not None else None
        if row["table"] == "5.67":
            pub_n //= 2
            pub_x = round(m["published"] * pub_n / 100)
        p = two_sample_p(m["x"], m["n"], pub_x, pub_n)
        results.append((row, rep, m, p))
        took = "reused" if rep.get("_reused") else f"{rep['_seconds']:.1f} s"
        print(f"[{i + 1}/{len(rows)}] {row['table']} {row['a']} v {row['b']} {row['game']}: "
              f"published {m['published']}, measured {100 * m['x'] / m['n']:.1f}, p {p:.3f} "
              f"({took})", file=sys.stderr)
    total = sum(rep["_seconds"] for _, rep, _, _ in results)
    # Holm's step-down correction over every row of this run.
    order = sorted(range(len(results)), key=lambda k: results[k][3])
    holm = [False] * len(results)
    for rank, k in enumerate(order):
        if results[k][3] < 0.05 / (len(results) - rank):
            holm[k] = True
        else:
            break
    lines = []
    current = None
    differ = []
    for k, (row, rep, m, p) in enumerate(results):
        if row["table"] != current:
            current = row["table"]
            lines.append("")
            lines.append(f"### Table {current}: {row['a']} v {row['b']}")
            lines.append("")
            a, b = spec(row["a"]), spec(row["b"])
            lines.append(f"`{a}` v `{b}`, {rep['games']} games, random opening "
                         f"{opening(row['a'], row['b'])} moves a side.")
            lines.append("")
            lines.append("| game | published | measured | compared: published / measured [95%] | p | verdict |")
            lines.append("|---|---|---|---|---|---|")
        lo, hi = wilson(m["x"], m["n"])
        verdict = "agrees" if p >= 0.05 else ("**differs**" if holm[k] else "differs (p < 0.05)")
        if p < 0.05:
            differ.append((row, m, p, holm[k]))
        lines.append(f"| {GAME_NAMES[row['game']]} | {m['pub_cells']} | {m['cells']} | "
                     f"{m['published']:g} / {100 * m['x'] / m['n']:.1f} [{100 * lo:.1f}, {100 * hi:.1f}] | "
                     f"{p:.3f} | {verdict} |")
    n_rows = len(results)
    n_diff = len(differ)
    n_holm = sum(1 for d in differ if d[3])
    summary = [
        f"{n_rows} rows in {len({r[0]['table'] for r in results})} tables, seed {args.seed}, "
        f"{total / 60:.1f} minutes of matches on this machine (2 cores).",
        "",
        f"- agree (p >= 0.05): {n_rows - n_diff}",
        f"- differ at p < 0.05 alone: {n_diff - n_holm} (about {0.05 * n_rows:.0f} expected by chance "
        f"if every row agreed)",
        f"- differ after Holm's correction over all {n_rows} rows: {n_holm}",
    ]
    if differ:
        summary += ["", "Rows that differ:", ""]
        for row, m, p, h in differ:
            summary.append(f"- table {row['table']} {row['a']} v {row['b']}, {GAME_NAMES[row['game']]}: "
                           f"published {m['published']:g}, measured {100 * m['x'] / m['n']:.1f} "
                           f"(p {p:.2g}{', Holm' if h else ''})")
    body = "\n".join(lines).strip()
    with open(args.template) as f:
        template = f.read()
    doc = template.replace("{{SUMMARY}}", "\n".join(summary)).replace("{{TABLES}}", body)
    with open(args.out, "w") as f:
        f.write(doc)
    print(f"wrote {args.out}: {n_rows} rows, {n_diff} differ at 5% ({n_holm} after Holm), "
          f"{total:.0f} s", file=sys.stderr)


if __name__ == "__main__":
    main()
