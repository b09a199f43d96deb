"""Solving Kalah's Table 1: average game length d, average branching factor
w and w^d, from 100 games per instance between two players that use plain
alpha-beta to 7 plies and order equivalent moves randomly
(`alphabeta:7:ties=random`), for Kalah(2..6, 1..6) (docs/SOLVER.md,
"Table 1"). Stdlib only: the games are replayed with the sowing of
`table4.py` (which checks every move and the turn passing):

    python3 benches/kalah2000/table1.py [MANCALA] [--games 100] [--rules R] [--quick] [--w-tree K]

d is counted two ways, single moves (sowings) and turns (an extra-turn
chain is one turn), and w over the positions where a move was chosen.
--quick plays 10 games of Kalah(2..4, 1..3) only. --w-tree K reads w a
third way, over the nodes of the players' own search trees: at every
position of the first K games of an instance where a move was chosen,
each root move is searched as the player searches it (alpha-beta to 7
plies on the store difference, full window, pits in order), and w is the
legal moves summed over every node whose moves the search generated,
divided by the number of those nodes; it is printed in a second table,
compared as w is, the published figure taken over the published 100
games (its standard error ours times sqrt(K / 100)).

Each d (in moves) and w is compared with the published one by a two-sided
two-sample z test at 5%, the published 100 games assumed as spread as
ours (d: the games' lengths; w: the ratio estimator's standard error over
the games); w^d agrees when both d and w do. A spread of 0 (every game
alike) agrees only with an equal figure.
"""

import json
import math
import os
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from table4 import make_game  # noqa: E402

# Published: (m, n) -> (d, w, w^d).
PUBLISHED = {
    (2, 1): (3.00, 1.40, 2.74e0), (2, 2): (8.00, 1.34, 1.04e1), (2, 3): (6.00, 1.50, 1.14e1),
    (2, 4): (12.00, 1.47, 1.02e2), (2, 5): (6.00, 1.72, 2.59e1), (2, 6): (13.00, 1.64, 6.21e2),
    (3, 1): (6.42, 1.48, 1.24e1), (3, 2): (9.00, 1.72, 1.32e2), (3, 3): (13.35, 2.04, 1.36e4),
    (3, 4): (13.58, 2.21, 4.75e4), (3, 5): (14.00, 2.25, 8.52e4), (3, 6): (15.05, 2.39, 4.95e5),
    (4, 1): (7.00, 1.72, 4.45e1), (4, 2): (10.00, 2.21, 2.78e3), (4, 3): (18.25, 2.67, 6.08e7),
    (4, 4): (23.05, 2.95, 6.75e10), (4, 5): (22.28, 3.11, 9.52e10), (4, 6): (26.72, 3.13, 1.74e13),
    (5, 1): (10.04, 2.06, 1.42e3), (5, 2): (15.00, 2.67, 2.50e6), (5, 3): (23.34, 3.18, 5.33e11),
    (5, 4): (30.04, 3.51, 2.40e16), (5, 5): (35.25, 3.81, 3.00e20), (5, 6): (37.73, 3.94, 2.94e22),
    (6, 1): (11.49, 2.78, 1.26e5), (6, 2): (16.76, 3.43, 9.37e8), (6, 3): (26.62, 3.65, 9.29e14),
    (6, 4): (30.75, 4.08, 6.00e18), (6, 5): (37.66, 4.51, 4.33e24), (6, 6): (49.25, 4.75, 2.12e33),
}


def z_test(published: float, measured: float, se: float, se_published=None) -> bool:
    """True when `measured` agrees with `published` at 5% (two-sided),
    `measured` having the standard error `se` and `published`
    `se_published` (by default the same)."""
    if se == 0:
        return round(measured, 2) == published
    sp = se if se_published is None else se_published
    z = (measured - published) / math.sqrt(se * se + sp * sp)
    return math.erfc(abs(z) / math.sqrt(2)) >= 0.05


def tree_w(counts: list, published: float, games: int = 100) -> tuple:
    """w over the search-tree nodes of K games, `counts` holding each
    game's (legal moves summed, nodes): (w, its standard error, whether it
    agrees with `published`). The published figure is over `games` games
    as spread as ours, so its standard error is ours times sqrt(K / games)
    (with K = games, the plain two-sample test)."""
    moves, nodes = sum(c[0] for c in counts), sum(c[1] for c in counts)
    wt = moves / nodes
    k = len(counts)
    se = (math.sqrt(sum((mv - wt * nd) ** 2 for mv, nd in counts) / (k - 1)) / (nodes / k * math.sqrt(k))
          if k > 1 else 0.0)
    return wt, se, z_test(published, wt, se, se * math.sqrt(k / games))


def tree_branching(m, n, rules, positions, depth=7):
    """(moves, nodes): the legal moves summed over the nodes whose moves a
    depth-`depth` alpha-beta search generates from each of `positions`
    ((cells, side) pairs), every root move searched with the full window,
    and the number of those nodes."""
    _, sow, sweep, pits, _, _, _ = make_game(m, n, rules)
    ss, ns = m, 2 * m + 1
    count = [0, 0]

    def value(c, me):
        return c[ss] - c[ns] if me == 0 else c[ns] - c[ss]

    def ab(c, side, ended, d, alpha, beta, me):
        if ended:
            return value(sweep(c), me)
        if d == 0:
            return value(c, me)
        moves = pits(c, side)
        count[0] += len(moves)
        count[1] += 1
        best = -math.inf if side == me else math.inf
        for p in moves:
            c2, s2, e2 = sow(c, side, p)
            v = ab(c2, s2, e2, d - 1, alpha, beta, me)
            if side == me:
                best = max(best, v)
                alpha = max(alpha, v)
            else:
                best = min(best, v)
                beta = min(beta, v)
            if alpha >= beta:
                break
        return best

    for c, side in positions:
        moves = pits(c, side)
        count[0] += len(moves)
        count[1] += 1
        for p in moves:
            c2, s2, e2 = sow(c, side, p)
            ab(c2, s2, e2, depth - 1, -math.inf, math.inf, side)
    return count[0], count[1]


def main() -> None:
    args = sys.argv[1:]
    quick = "--quick" in args
    games = 10 if quick else 100
    if "--games" in args:
        games = int(args[args.index("--games") + 1])
    rules = args[args.index("--rules") + 1] if "--rules" in args else "default"
    w_tree = int(args[args.index("--w-tree") + 1]) if "--w-tree" in args else 0
    tree_rows = []
    suffix = "" if rules == "default" else f":{rules}"
    mancala = next((a for a in args if not a.startswith("--") and not a.isdigit() and a != rules), "target/release/mancala")
    agent = "alphabeta:7:ties=random"
    print("| Kalah | d published | d (moves) | d (turns) | w published | w | w^d published | w^d (moves) | verdict |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|---|")
    agree = {"d": 0, "w": 0, "w^d": 0}
    rows = 0
    for (m, n), (pd, pw, pwd) in PUBLISHED.items():
        if quick and (m > 4 or n > 3):
            continue
        out = os.path.join(tempfile.mkdtemp(), "games.jsonl")
        subprocess.run(
            [mancala, "match", agent, agent, "--game", f"kalah:{m}:{n}{suffix}", "--games", str(games),
             "--seed", "1", "--games-out", out, "--json"],
            check=True, capture_output=True,
        )
        start, sow, _sweep, pits, _decided, _enc, _dec = make_game(m, n, rules)
        plies = turns = 0
        branching = []
        per_game = []  # (moves, sum of the branching factors)
        tree_games = []  # each of the first --w-tree games: its positions where a move was chosen
        for line in open(out):
            g = json.loads(line)
            c, side, ended = start, 0, False
            first = len(branching)
            chosen = []
            for turn in g["moves"].split("-"):
                turns += 1
                mover = side
                for pit in turn:
                    if ended or side != mover or int(pit) not in pits(c, side):
                        sys.exit(f"Kalah({m},{n}): the game {g['moves']} does not replay at {turn}")
                    branching.append(len(pits(c, side)))
                    chosen.append((c, side))
                    c, side, ended = sow(c, side, int(pit))
                    plies += 1
                if not ended and side == mover:
                    sys.exit(f"Kalah({m},{n}): the game {g['moves']} keeps the turn after {turn}")
            if not ended:
                sys.exit(f"Kalah({m},{n}): the game {g['moves']} does not end")
            per_game.append((len(branching) - first, sum(branching[first:])))
            if len(tree_games) < w_tree:
                tree_games.append(chosen)
        d_moves, d_turns = plies / games, turns / games
        w = sum(branching) / len(branching)
        g = len(per_game)
        d_sd = math.sqrt(sum((k - d_moves) ** 2 for k, _ in per_game) / (g - 1)) if g > 1 else 0.0
        w_se = (math.sqrt(sum((b - w * k) ** 2 for k, b in per_game) / (g - 1)) / (d_moves * math.sqrt(g))
                if g > 1 else 0.0)
        ok_d = z_test(pd, d_moves, d_sd / math.sqrt(g))
        ok_w = z_test(pw, w, w_se)
        rows += 1
        agree["d"] += ok_d
        agree["w"] += ok_w
        agree["w^d"] += ok_d and ok_w
        verdict = ", ".join(f"{x} {'agrees' if ok else 'differs'}" for x, ok in (("d", ok_d), ("w", ok_w)))
        print(f"| ({m},{n}) | {pd:.2f} | {d_moves:.2f} | {d_turns:.2f} | {pw:.2f} | {w:.2f} | {pwd:.2e} | {w ** d_moves:.2e} "
              f"| {verdict} |", flush=True)
        if w_tree:
            counts = [tree_branching(m, n, rules, ps) for ps in tree_games]
            wt, _, ok = tree_w(counts, pw)
            tree_rows.append((m, n, pw, w, wt, sum(c[1] for c in counts), ok))
    print()
    print(f"{rows} instances, {games} games each: d (moves) agrees in {agree['d']}, w in {agree['w']}, "
          f"w^d (both) in {agree['w^d']} (two-sample z test at 5%)")
    if w_tree:
        print()
        print(f"w over the nodes of the players' search trees (the first {w_tree} games of each instance)")
        print()
        print("| Kalah | w published | w (positions played) | w (search-tree nodes) | nodes | verdict |")
        print("|---|---:|---:|---:|---:|---|")
        for m, n, pw, w, wt, nodes, ok in tree_rows:
            print(f"| ({m},{n}) | {pw:.2f} | {w:.2f} | {wt:.2f} | {nodes:,} | {'agrees' if ok else 'differs'} |")
        print()
        print(f"w over the search-tree nodes agrees in {sum(r[-1] for r in tree_rows)} of {len(tree_rows)} instances")


if __name__ == "__main__":
    main()
