"""The Awale MCTS study: every published figure that `benches/study-001.sh`
measures, with the measured points ratio, its Wilson 95% interval, the
two-sided two-proportion test of published against measured (both samples
counted) and a verdict; Holm's correction over every figure compared.
Stdlib only:

    python3 benches/study-001/verdicts.py FILE      # the markdown study-001.sh printed
    python3 benches/study-001/verdicts.py docs/study-001.md

The published figures are the study's own (its result files; its figures
are images lost from the text), as `study-001.sh` prints them. Their game
counts are those its code schedules: 50 games a point of the tuning grids
(25 rounds of both sides), 10 a point of the MCTS budget curve (5 rounds),
100 a pair in the tournament (both orders of 25 rounds of both sides);
88 for heavy against light play-outs, as published. The study recorded up
to these counts; fewer would widen its side of the test.
"""

import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from reports import holm, two_sample_p, wilson  # noqa: E402

# Section heading (start) -> games behind each published figure.
PUBLISHED_GAMES = [
    ("Epsilon", 50),
    ("UCT constant, cross-check", 50),
    ("UCT constant", 50),
    ("Heavy play-outs", 50),
    ("Heavy against light", 88),
    ("MCTS budget", 10),
]

# The tournament, published (points of 50 for the first agent, over 100
# games a pair; heavy v UCT over 88) -> the study's agents as run here.
TOURNAMENT = [
    ("greedy(0.95) v random", "eps-greedy:0.95", "random", 27.5, 100),
    ("MCTS v random", "awale-mcts", "random", 50, 100),
    ("MCTS v greedy(0.95)", "awale-mcts", "eps-greedy:0.95", 50, 100),
    ("UCT v MCTS", "awale-uct", "awale-mcts", 47.4, 100),
    ("heavy v MCTS", "awale-heavy", "awale-mcts", 47.5, 100),
    ("heavy v UCT", "awale-heavy", "awale-uct", 28.7, 88),
    ("UCT v random", "awale-uct", "random", 50, 100),
    ("UCT v greedy(0.95)", "awale-uct", "eps-greedy:0.95", 50, 100),
    ("heavy v random", "awale-heavy", "random", 50, 100),
    ("heavy v greedy(0.95)", "awale-heavy", "eps-greedy:0.95", 50, 100),
]


def parse(text: str):
    """The grid points (section, label, published, W, D, L) and the
    tournament's measured points (row, column) -> (points, games)."""
    points, tournament = [], {}
    section, games, agents = None, None, None
    for line in text.splitlines():
        heading = re.match(r"#+ (.*)", line)
        if heading:
            section = heading.group(1)
            games = next((g for name, g in PUBLISHED_GAMES if section.startswith(name)), None)
            agents = None
            continue
        if line.startswith("| row v column |"):
            agents = [a.strip() for a in line.strip("|").split("|")[1:]]
            continue
        cells = [c.strip() for c in line.strip().strip("|").split("|")] if line.startswith("|") else []
        if agents and len(cells) == len(agents) + 1:
            for agent, cell in zip(agents, cells[1:]):
                m = re.match(r"([\d.]+)/(\d+)", cell)
                if m:
                    tournament[(cells[0], agent)] = (float(m.group(1)), int(m.group(2)))
            continue
        if games is None or len(cells) != 5:
            continue
        wdl = re.search(r"\((\d+)/(\d+)/(\d+)\)", cells[2])
        published = re.match(r"([\d.]+)", cells[1])
        if wdl and published:
            w, d, l = (int(x) for x in wdl.groups())
            points.append((section, games, cells[0], float(published.group(1)), w, d, l))
    return points, tournament


def main() -> None:
    if len(sys.argv) != 2:
        sys.exit("usage: verdicts.py FILE (the markdown benches/study-001.sh printed)")
    points, tournament = parse(open(sys.argv[1]).read())
    rows = []  # (section, label, published, n_pub, measured, n, detail)
    for section, n_pub, label, published, w, d, l in points:
        n = w + d + l
        rows.append((section, label, published, n_pub, (w + d / 2) / n, n, f"{w}/{d}/{l}"))
    for label, a, b, published, n_pub in TOURNAMENT:
        key = next(((r, c) for (r, c) in tournament if r.split(":")[0] == a.split(":")[0] and r.startswith(a)
                    and c.startswith(b)), None)
        if key is None:
            continue
        pts, n = tournament[key]
        rows.append(("Tournament (points of 50 for the first agent)", f"{label} ({key[0]} v {key[1]})",
                     published / 50, n_pub, pts / n, n, f"{pts:g} of {n}"))
    if not rows:
        sys.exit(f"{sys.argv[1]}: no published figure with a measured one found")
    pvals = [two_sample_p(p * n_pub, n_pub, m * n, n) for _, _, p, n_pub, m, n, _ in rows]
    after_holm = holm(pvals)
    section = None
    for (sec, label, published, n_pub, measured, n, detail), p, h in zip(rows, pvals, after_holm):
        if sec != section:
            section = sec
            print(f"\n### {sec}\n")
            print("| point | published (games) | measured (W/D/L) | Wilson 95% | p | verdict |")
            print("|---|---|---|---|---|---|")
        lo, hi = wilson(measured * n, n)
        verdict = "agrees" if p >= 0.05 else ("**differs** (after Holm)" if h else "differs at 5%")
        print(f"| {label} | {published:.3f} ({n_pub}) | {measured:.3f} ({detail}) | {lo:.3f}-{hi:.3f} | {p:.3g} | {verdict} |")
    agree = sum(p >= 0.05 for p in pvals)
    print(f"\n{len(rows)} published figures compared: {agree} agree, {len(rows) - agree} differ at 5% "
          f"({sum(after_holm)} after Holm's correction over the {len(rows)})")


if __name__ == "__main__":
    main()
