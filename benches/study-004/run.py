#!/usr/bin/env python3
"""Re-run the Kalah agents study's table 1 (cross table of first-player win
percentages) and table 2 (round robin of single heuristics) and write the
comparison as markdown (docs/study-004.md, from notes.md).

Called by benches/study-004.sh. Raw JSON reports go to target/study-004/;
a report of the same command there is reused, so a stopped run resumes.
"""
import argparse
import json
import math
import os
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))
from reports import cached_run, two_sample_p, wilson  # noqa: E402
from reports import holm as holm_rejects  # noqa: E402
GAME = "kalah:6:4:capture-needs-opposite"
OPENING = 2  # random single moves of each side, every game

# Table 1: row = first player, column = second player, first player's win %.
NAMES = ["Random", "Max Agent", "Minimax (Alpha Beta)", "Heuristic Minimax",
         "Monte Carlo Tree Search", "A3C Agent"]
SPECS = ["random", "max", "alphabeta:4", "heuristic10:4",
         "mcts:4000:playout=eps-greedy",
         "a3c:crates/engine/weights/a3c-kalah-6-4-capture-needs-opposite.bin"]
TABLE_1 = [
    [51.3, 4.1, 2.7, 0.5, 0.0, 4.0],
    [96.0, 55.3, 15.2, 12.5, 4.5, 26.4],
    [98.2, 85.8, 61.5, 35.2, None, 48.0],
    [99.5, 90.2, 68.5, 61.0, None, 53.5],
    [100.0, 87.4, 59.3, 44.7, 61.3, None],
    [97.6, 89.3, 71.4, 67.1, None, 79.0],
]
# Table 2: share of the round robin won by each single heuristic.
TABLE_2 = [56, 44, 0, 100, 33, 78, 89, 67, 22, 11]


def run(args, name, cmd):
    rep = cached_run(args.bin, cmd, os.path.join(args.raw, name + ".json"), args.fresh,
                     args.threads)
    if not rep.get("_reused"):
        print(f"{name}: {rep['_seconds']:.1f} s", file=sys.stderr)
    return rep


def match(args, a, b, games):
    cmd = ["match", SPECS[a], SPECS[b], "--game", GAME, "--games", str(games),
           "--seed", str(args.seed), "--random-opening", str(OPENING), "--json"]
    return run(args, f"t1-{a}-{b}", cmd)


def table_1(args, agents):
    """cells[i][j] = (first-player wins, games) with i first, j second."""
    cells = {}
    seconds = 0.0
    for i in agents:
        for j in agents:
            if j < i or (i, j) == (4, 5):
                # The study did not play MCTS against A3C either.
                continue
            mcts = 4 in (i, j)
            n = args.mcts_games if mcts else args.games
            # A v B alternates sides: the games with A as South fill (A, B),
            # those with A as North fill (B, A). A v A fills its diagonal cell.
            rep = match(args, i, j, n if i == j else 2 * n)
            seconds += rep.get("_seconds", 0)
            s, no = rep["a_as_south"], rep["a_as_north"]
            if i == j:
                cells[(i, i)] = (s["wins"] + no["losses"], rep["games"])
            else:
                half = rep["games"] // 2
                cells[(i, j)] = (s["wins"], half)
                cells[(j, i)] = (no["losses"], half)
    return cells, seconds


def table_2(args):
    """Matches won by each single heuristic (H_k alone) in a round robin of
    --rr-games games a pairing; a drawn match counts half."""
    won = [0.0] * 10
    seconds = 0.0
    # H10 alone with weight -1 under --h10-sign negative (the text's "negative
    # value associated with this heuristic"), +1 by default (Algorithm 4).
    one = lambda i: "-1" if i == 9 and args.h10_sign == "negative" else "1"
    spec = lambda k: "heuristic10:%d:w=%s" % (
        args.depth, ",".join(one(i) if i == k else "0" for i in range(10)))
    for a in range(10):
        for b in range(a + 1, 10):
            cmd = ["match", spec(a), spec(b), "--game", GAME, "--games", str(args.rr_games),
                   "--seed", str(args.seed), "--random-opening", str(OPENING), "--json"]
            rep = run(args, f"t2-{a}-{b}", cmd)
            seconds += rep.get("_seconds", 0)
            sa = rep["a_wins"] + rep["draws"] / 2
            sb = rep["b_wins"] + rep["draws"] / 2
            won[a] += 1 if sa > sb else 0.5 if sa == sb else 0
            won[b] += 1 if sb > sa else 0.5 if sa == sb else 0
    return won, seconds


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--bin", default="target/release/mancala")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--games", type=int, default=1000)
    ap.add_argument("--mcts-games", type=int, default=200)
    ap.add_argument("--rr-games", type=int, default=10, help="games a pairing in table 2")
    ap.add_argument("--depth", type=int, default=4, help="depth of the single heuristics")
    ap.add_argument("--h10-sign", choices=["positive", "negative"], default="positive",
                    help="H10's weight alone in table 2: +1 (Algorithm 4) or -1 (the text's sign)")
    ap.add_argument("--no-a3c", action="store_true", help="leave the A3C agent out")
    ap.add_argument("--threads", type=int, default=0)
    ap.add_argument("--raw", default="target/study-004")
    ap.add_argument("--fresh", action="store_true")
    ap.add_argument("--out", default="docs/study-004.md")
    ap.add_argument("--template", default=os.path.join(HERE, "notes.md"))
    ap.add_argument("--discussion", default=os.path.join(HERE, "discussion.md"),
                    help="the reading of the figures, pasted under the tables")
    args = ap.parse_args()
    os.makedirs(args.raw, exist_ok=True)
    agents = list(range(5 if args.no_a3c else 6))
    cells, s1 = table_1(args, agents)
    won, s2 = table_2(args)

    rows = []
    tests = []
    for i in agents:
        for j in agents:
            if (i, j) not in cells:
                continue
            x, n = cells[(i, j)]
            pub = TABLE_1[i][j]
            p = None
            if pub is not None:
                p = two_sample_p(x, n, round(pub * 10), 1000)
                tests.append(((i, j), p))
            rows.append((i, j, x, n, pub, p))
    holm = {cell for (cell, _), rejected in zip(tests, holm_rejects([p for _, p in tests])) if rejected}

    lines = ["| first \\ second | " + " | ".join(NAMES[j] for j in agents) + " |",
             "|---" * (len(agents) + 1) + "|"]
    for i in agents:
        out = []
        for j in agents:
            if (i, j) not in cells:
                out.append("N/A / not played")
                continue
            x, n = cells[(i, j)]
            pub = TABLE_1[i][j]
            lo, hi = wilson(x, n)
            mark = ""
            r = next(r for r in rows if r[0] == i and r[1] == j)
            if r[5] is not None and r[5] < 0.05:
                mark = " **≠**" if (i, j) in holm else " ≠"
            out.append(f"{'N/A' if pub is None else f'{pub:g}'} / {100 * x / n:.1f} "
                       f"[{100 * lo:.0f}-{100 * hi:.0f}]{mark}")
        lines.append(f"| {NAMES[i]} | " + " | ".join(out) + " |")
    t1 = "\n".join(lines)

    # Each share is compared as matches won of 9 (published: TABLE_2 is
    # k/9 rounded) by the two-proportion test, with Holm's correction.
    t2_p = [two_sample_p(round(TABLE_2[k] * 9 / 100), 9, won[k], 9) for k in range(10)]
    t2_holm = {k for k, rejected in enumerate(holm_rejects(t2_p)) if rejected}
    lines = ["| heuristic | published | measured (matches won of 9) | p | verdict |", "|---|---|---|---|---|"]
    for k in range(10):
        verdict = "agrees" if t2_p[k] >= 0.05 else ("**differs** (after Holm)" if k in t2_holm else "differs at 5%")
        lines.append(f"| H{k + 1} | {TABLE_2[k]}% | {100 * won[k] / 9:.0f}% ({won[k]:g}) | {t2_p[k]:.2g} | {verdict} |")
    t2 = "\n".join(lines)
    pub_rank = sorted(range(10), key=lambda k: -TABLE_2[k])
    our_rank = sorted(range(10), key=lambda k: -won[k])

    n_diff = sum(1 for _, p in tests if p < 0.05)
    summary = [
        f"Seed {args.seed}; {args.games} games a cell ({args.mcts_games} with MCTS), "
        f"{args.rr_games} games a pairing in table 2; {(s1 + s2) / 60:.1f} minutes of matches "
        f"on this machine (2 cores).",
        "",
        f"- table 1: {len(tests)} published cells compared; {len(tests) - n_diff} agree "
        f"(p >= 0.05), {n_diff - len(holm)} differ at 5% alone, {len(holm)} after Holm's "
        f"correction over the table.",
        f"- table 2: {sum(p >= 0.05 for p in t2_p)} of 10 shares agree (p >= 0.05), "
        f"{sum(p < 0.05 for p in t2_p) - len(t2_holm)} differ at 5% alone, {len(t2_holm)} after Holm's "
        f"correction; H10's weight {'+1 (Algorithm 4)' if args.h10_sign == 'positive' else '-1 (the text)'}; "
        f"published order {' > '.join('H%d' % (k + 1) for k in pub_rank)}; "
        f"measured {' > '.join('H%d' % (k + 1) for k in our_rank)}.",
    ]
    with open(args.template) as f:
        doc = f.read()
    discussion = ""
    if os.path.exists(args.discussion):
        with open(args.discussion) as f:
            discussion = f.read().strip()
    doc = (doc.replace("{{SUMMARY}}", "\n".join(summary)).replace("{{TABLE1}}", t1)
           .replace("{{TABLE2}}", t2).replace("{{DISCUSSION}}", discussion))
    with open(args.out, "w") as f:
        f.write(doc)
    print(f"wrote {args.out}: {len(tests)} cells, {n_diff} differ at 5% ({len(holm)} after Holm)",
          file=sys.stderr)


if __name__ == "__main__":
    main()
