"""The Kalah agents study's table 1 under the readings its text leaves
open, each played against the published cells it can move. Stdlib only:

    python3 benches/study-004/readings.py [MANCALA] [--games N] [--only NAME] [--raw DIR]

Each reading replaces some of run.py's agents (or its opening) and plays
the cells they take part in, as run.py plays them: kalah:6:4:capture-needs-opposite,
seed 1, sides alternating, a match of A against B filling the cells (A, B)
with its games with A first and (B, A) with the others. N games a cell
(default 200; 100 for a cell with MCTS). Every cell is compared with the
published one (1,000 games) by the two-sided two-proportion test, and the
count of agreeing cells is set beside run.py's (docs/study-004.md, the
study's own settings and readings). The readings:

- max-first, max-stop, max-random: Algorithm 2's open choices (`max`'s
  ties=first, extra=stop, ties=random; run.py plays ties=last, extra=follow);
- mcts-expand: the text's epsilon-greedy expansion step
  (`mcts:4000:expand=0.1`, random play-outs; run.py's MCTS expands at random
  and plays out epsilon-greedily);
- no-opening: no random opening (run.py opens with two random moves a
  side), the deterministic agents drawing among equal best moves instead
  (`max:ties=random`, `alphabeta:4:ties=random`,
  `heuristic10:4:ties=random`), as the first Kalah study's players "order
  equivalent moves randomly";
- ties-random: the same random choice among equal best moves for every
  deterministic agent, with run.py's random opening (run.py's take a
  fixed one of equal moves).

Raw JSON reports go to DIR (default target/study-004-readings); a report of
the same command there is reused.
"""

import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))
sys.path.insert(0, HERE)
from reports import cached_run, two_sample_p  # noqa: E402
from run import GAME, NAMES, SPECS, TABLE_1  # noqa: E402

RANDOM, MAX, AB, HMM, MCTS, A3C = range(6)
# name -> (agents replaced {index: spec}, the agents whose cells are played, opening)
READINGS = {
    "max-first": ({MAX: "max:ties=first"}, [RANDOM, MAX, AB, HMM, MCTS, A3C], 2),
    "max-stop": ({MAX: "max:extra=stop"}, [RANDOM, MAX, AB, HMM, MCTS, A3C], 2),
    "max-random": ({MAX: "max:ties=random"}, [RANDOM, MAX, AB, HMM, MCTS, A3C], 2),
    "mcts-expand": ({MCTS: "mcts:4000:expand=0.1"}, [RANDOM, MAX, AB, HMM, MCTS], 2),
    "no-opening": ({MAX: "max:ties=random", AB: "alphabeta:4:ties=random", HMM: "heuristic10:4:ties=random"},
                   [RANDOM, MAX, AB, HMM], 0),
    "ties-random": ({MAX: "max:ties=random", AB: "alphabeta:4:ties=random", HMM: "heuristic10:4:ties=random"},
                    [RANDOM, MAX, AB, HMM, MCTS, A3C], 2),
}


def baseline():
    """run.py's measured cells, read from docs/study-004.md: (i, j) -> %."""
    sys.path.insert(0, os.path.join(os.path.dirname(HERE), "ledger"))
    from pathlib import Path
    from pages import agents_table1  # noqa: E402
    out = {}
    for item in agents_table1(Path(HERE).parents[1]):
        row, col = item["key"][len("table 1: "):].split(" v ")
        out[(NAMES.index(row), NAMES.index(col))] = item["meas"]
    return out


def play(args, a, b, spec_a, spec_b, games, opening):
    cmd = ["match", spec_a, spec_b, "--game", GAME, "--games", str(games), "--seed", "1",
           "--random-opening", str(opening), "--json"]
    name = "-".join(x.replace(":", "_").replace("=", "_").replace("/", "_") for x in (spec_a, spec_b, str(opening)))
    return cached_run(args["bin"], cmd, os.path.join(args["raw"], name + ".json"), False, 0)


def run_reading(args, name, base):
    replace, agents, opening = READINGS[name]
    specs = [replace.get(i, s) for i, s in enumerate(SPECS)]
    cells = {}
    for i in agents:
        for j in agents:
            if j < i or not (i in replace or j in replace or opening != 2):
                continue
            n = args["games"] // 2 if MCTS in (i, j) else args["games"]
            rep = play(args, i, j, specs[i], specs[j], n if i == j else 2 * n, opening)
            s, no = rep["a_as_south"], rep["a_as_north"]
            if i == j:
                cells[(i, i)] = (s["wins"] + no["losses"], rep["games"])
            else:
                half = rep["games"] // 2
                cells[(i, j)] = (s["wins"], half)
                cells[(j, i)] = (no["losses"], half)
    changed = ", ".join(f"`{specs[i]}`" for i in sorted(replace)) or "the agents of run.py"
    print(f"### {name}: {changed}, random opening {opening} moves a side")
    print()
    print("| first | second | published | run.py | this reading (games) | p | verdict |")
    print("|---|---|---:|---:|---:|---:|---|")
    agree = agree_base = compared = 0
    for (i, j), (x, n) in sorted(cells.items()):
        pub = TABLE_1[i][j]
        if pub is None:
            continue
        p = two_sample_p(x, n, round(pub * 10), 1000)
        bx, bn = base[(i, j)]
        pb = two_sample_p(bx, bn, round(pub * 10), 1000)
        compared += 1
        agree += p >= 0.05
        agree_base += pb >= 0.05
        print(f"| {NAMES[i]} | {NAMES[j]} | {pub:g} | {100 * bx / bn:.1f}{'' if pb >= 0.05 else ' ≠'} "
              f"| {100 * x / n:.1f} ({n}) | {p:.2g} | {'agrees' if p >= 0.05 else 'differs'} |", flush=True)
    print()
    print(f"{name}: {agree} of these {compared} published cells agree (run.py: {agree_base})")
    print()


def main() -> None:
    argv = sys.argv[1:]
    opt = lambda key, default: argv[argv.index(key) + 1] if key in argv else default
    args = {"games": int(opt("--games", 200)), "raw": opt("--raw", "target/study-004-readings")}
    only = opt("--only", None)
    values = {opt(k, None) for k in ("--games", "--only", "--raw")}
    rest = [a for a in argv if not a.startswith("--") and a not in values]
    args["bin"] = rest[0] if rest else "target/release/mancala"
    if only and only not in READINGS:
        sys.exit(f"readings.py: no reading {only!r}: use one of {', '.join(READINGS)}")
    os.makedirs(args["raw"], exist_ok=True)
    base = baseline()
    for name in READINGS:
        if not only or name == only:
            run_reading(args, name, base)


if __name__ == "__main__":
    main()
