#!/usr/bin/env python3
"""The five-game study's Vai Lung Thlan matches under the other readings of
its rules (docs/RULES.md, 'Vai Lung Thlan: other readings'). Stdlib only:

    python3 benches/study-000/readings.py [MANCALA] [--games N] [--only READING]
        [--tables "5.2 5.5 ..."] [--all] [--raw DIR]
    python3 benches/study-000/readings.py [MANCALA] --text [--games-slow N] [--only READING]

The study's text leaves three points of the rules open, which
docs/RULES.md reads one way: the origin pit takes a seed on a lap, the
capture chain runs back across the rows, the game ends past half of the
seeds. Each other reading is a rule set of the game
(`vai-lung-thlan:6:5:skip-origin`, `chain-own-row`, `play-to-end`) and
plays here the matches whose share differs from the published one on
docs/study-000.md (with --all, every Vai Lung Thlan match the ledger
counts; with --tables, those tables), as run.py plays them: the same
agents, seed 1, the same random opening, N games (default the study's
200). Each share is set against the published one as the ledger does
(benches/ledger: rows of agents that play the same moves here pooled,
the two-sided two-proportion test at 5%). Raw JSON reports go to DIR
(default target/study-000-readings); a report of the same command there is
reused.

With --text it plays instead the two figures of the text that differ in
Vai Lung Thlan: HMM4 against MCTS1000 with random play-outs (figure 5.23
at depth 4, 'slightly below 50%', read 40 to 50%; 50 games, as
plotreads.py, HMM4's share agreeing when its Wilson 95% interval meets the
range) and, with --games-slow N, MCTS4000 against HMM8 in section 5.6
(52% of 200 published; N games, as section56.py, one thread a match:
200 games took 4 to 7 minutes a reading on a free core, 2026-11-29).
"""

import os
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
sys.path.insert(0, str(HERE.parent))
sys.path.insert(0, str(HERE.parent / "ledger"))
sys.path.insert(0, str(HERE))
from reports import cached_run, two_sample_p, wilson  # noqa: E402
from pages import five_games  # noqa: E402
from run import load, opening, spec  # noqa: E402

READINGS = ["skip-origin", "chain-own-row", "play-to-end"]
GAME = "vai-lung-thlan"


def command(row, reading, games):
    """run.py's match command of a published row, under `reading`."""
    a, b = row["a"], row["b"]
    return ["match", spec(a), spec(b), "--game", f"{GAME}:6:5:{reading}", "--games", str(games),
            "--seed", "1", "--random-opening", str(opening(a, b)), "--json"]


def share(row, rep):
    """The compared count of a report: South's wins when an agent meets
    itself, else the first agent's wins."""
    s, no = rep["a_as_south"], rep["a_as_north"]
    if row["a"] == row["b"]:
        return s["wins"] + no["losses"]
    return s["wins"] + no["wins"]


def text_figures(mancala, readings, slow, raw):
    """The section 5.6 and figure 5.23 matches under each reading."""
    print("| figure | published | reading | measured (W/D/L) | Wilson 95% | test | verdict |")
    print("|---|---|---|---|---|---|---|")
    for reading in readings:
        game = f"{GAME}:6:5:{reading}"
        cmd = ["match", "rovaris-uct:1000:playout=eps-greedy:eps=1", "rovaris-heuristic:4", "--game", game,
               "--games", "50", "--seed", "1", "--random-opening", "0", "--json"]
        r = cached_run(mancala, cmd, os.path.join(raw, f"eps-v4-{reading}.json"))
        w, n = r["b_wins"], r["games"]
        lo, hi = wilson(w, n)
        ok = 100 * hi >= 40 and 100 * lo <= 50
        print(f"| figure 5.23, HMM4 v MCTS1000 random play-outs, HMM4's share | 40 to 50% (words) | {reading} "
              f"| {100 * w / n:.1f}% ({w}/{r['draws']}/{r['a_wins']}) | {100 * lo:.1f}-{100 * hi:.1f} "
              f"| interval meets the range | {'agrees' if ok else 'differs'} |", flush=True)
        if not slow:
            continue
        cmd = ["match", "rovaris-uct:4000", "rovaris-heuristic:8", "--game", game, "--games", str(slow),
               "--seed", "1", "--random-opening", "0", "--threads", "1", "--json"]
        r = cached_run(mancala, cmd, os.path.join(raw, f"section56-{reading}.json"))
        w, n = r["a_wins"], r["games"]
        lo, hi = wilson(w, n)
        p = two_sample_p(104, 200, w, n)
        print(f"| section 5.6, MCTS4000 v HMM8, MCTS's share | 52% of 200 | {reading} "
              f"| {100 * w / n:.1f}% ({w}/{r['draws']}/{r['b_wins']}) | {100 * lo:.1f}-{100 * hi:.1f} "
              f"| p = {p:.2g} | {'agrees' if p >= 0.05 else 'differs'} |", flush=True)


def main():
    args = sys.argv[1:]
    opt = lambda name, default: args[args.index(name) + 1] if name in args else default
    games = int(opt("--games", 0))
    only = opt("--only", None)
    tables = opt("--tables", "").split()
    raw = opt("--raw", "target/study-000-readings")
    slow = int(opt("--games-slow", 0))
    values = {opt(n, None) for n in ("--games", "--only", "--tables", "--raw", "--games-slow")}
    rest = [a for a in args if not a.startswith("--") and a not in values]
    mancala = rest[0] if rest else "target/release/mancala"
    if only and only not in READINGS:
        sys.exit(f"readings.py: unknown reading {only!r}: use one of {', '.join(READINGS)}")
    readings = [only] if only else READINGS
    os.makedirs(raw, exist_ok=True)
    if "--text" in args:
        text_figures(mancala, readings, slow, raw)
        return
    published = [r for r in load(HERE / "published.tsv") if r["game"] == GAME]
    items, _ = five_games(ROOT)
    chosen = []
    for it in items:
        table, game = it["key"].split(" ", 1)
        if game != "Vai Lung Thlan":
            continue
        it["p"] = two_sample_p(*it["pub"], *it["meas"])
        if tables and table not in tables:
            continue
        if not tables and "--all" not in args and it["p"] >= 0.05:
            continue
        row = next(r for r in published if r["table"] == table)
        chosen.append((it, row))
    if not chosen:
        sys.exit("readings.py: no Vai Lung Thlan row chosen")
    agree = {r: 0 for r in readings}
    print("| match | published | default (docs/study-000.md) | "
          + " | ".join(readings) + " |")
    print("|---|---|---|" + "---|" * len(readings))
    for it, row in chosen:
        pub_x, pub_n = it["pub"]
        cells = []
        for reading in readings:
            n = games or int(row["games"] or 200)
            out = os.path.join(raw, f"{row['table']}-{reading}.json")
            rep = cached_run(mancala, command(row, reading, n), out)
            x = share(row, rep)
            p = two_sample_p(pub_x, pub_n, x, n)
            agree[reading] += p >= 0.05
            cells.append(f"{100 * x / n:.1f}% of {n}, p = {p:.2g}, {'agrees' if p >= 0.05 else 'differs'}")
            took = "reused" if rep.get("_reused") else f"{rep['_seconds']:.0f} s"
            print(f"{row['table']} {reading}: {100 * x / n:.1f}% ({took})", file=sys.stderr, flush=True)
        meas_x, meas_n = it["meas"]
        default = (f"{100 * meas_x / meas_n:.1f}% of {meas_n}, p = {it['p']:.2g}, "
                   f"{'agrees' if it['p'] >= 0.05 else 'differs'}")
        print(f"| {it['what']} | {100 * pub_x / pub_n:.1f}% of {pub_n} | {default} | "
              + " | ".join(cells) + " |", flush=True)
    print()
    n_default = sum(1 for it, _ in chosen if it["p"] >= 0.05)
    print(f"Agreeing of {len(chosen)}: default {n_default}, "
          + ", ".join(f"{r} {agree[r]}" for r in readings))


if __name__ == "__main__":
    main()
