"""OpenSpiel's MCTS with the engine's leaf values (mancala_solver.openspiel.
ExactEvaluator) against plain MCTS (one random roll-out a leaf), at equal
simulations and at equal time, on an OpenSpiel game: the table of
docs/python.md ("MCTS with the engine's leaf values").

    python benches/mcts_openspiel.py --game mancala --games 40 --sims 100
    python benches/mcts_openspiel.py --game oware:4:3 --games 40 --sims 100

Each setting plays --games games, the exact side first in the even ones.
"Equal simulations" gives both bots --sims simulations a move; "equal
time" then gives plain MCTS as many simulations as it runs in the time
the exact bot took a move in the equal-simulations games (measured, and
the times reached are printed). The score is the exact bot's (a win 1, a
draw 1/2) with a 95% Wilson interval. The tables the game needs are built first (`ExactOracle.prepare`);
the evaluator's cost per leaf, by where the value came from, is printed
too. Run at low priority on a shared machine (nice -n 10); the results go
to stdout as Markdown rows and, with --json FILE, as JSON.
"""

import argparse
import json
import math
import sys
import time
import warnings

import numpy as np
import pyspiel
from open_spiel.python.algorithms import mcts

import mancala_solver as ms
from mancala_solver.openspiel import ExactEvaluator, ExactOracle


def load(name):
    if name == "mancala":
        return pyspiel.load_game("mancala")
    _, houses, seeds = name.split(":")
    return pyspiel.load_game("oware", {"num_houses_per_player": int(houses), "num_seeds_per_house": int(seeds)})


class Timed:
    """A bot's CPU time (of this process: the engine's threads included)
    and wall-clock time, summed over its moves."""

    def __init__(self, bot, sims):
        self.bot, self.sims, self.seconds, self.wall, self.moves = bot, sims, 0.0, 0.0, 0

    def step(self, state):
        t, w = time.process_time(), time.perf_counter()
        a = self.bot.step(state)
        self.seconds += time.process_time() - t
        self.wall += time.perf_counter() - w
        self.moves += 1
        return a


def play(game, bots):
    s = game.new_initial_state()
    while not s.is_terminal():
        s.apply_action(bots[s.current_player()].step(s))
    return s.returns()


def interval(scores):
    """The mean score and its 95% Wilson interval (the score as a share of
    the games, a draw half a win): unlike the normal approximation, not
    empty when every game is won."""
    n = len(scores)
    p = sum(scores) / n
    z = 1.96
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return p, max(0.0, centre - half), min(1.0, centre + half)


def run(game, exact, games, exact_sims, plain_sims, seed, search_ms):
    """Play ``games`` games: the exact bot's score, its interval, each
    bot's seconds a move and a simulation, and the evaluator's stats."""
    scores, wins, draws = [], 0, 0
    ex_t = pl_t = ex_w = pl_w = 0.0
    ex_moves = pl_moves = 0
    stats = {}
    for g in range(games):
        rs = np.random.RandomState(seed + g)
        evaluator = ExactEvaluator(exact, search_ms=search_ms, random_state=rs)
        ex = Timed(mcts.MCTSBot(game, 2.0, exact_sims, evaluator, random_state=rs), exact_sims)
        rs2 = np.random.RandomState(10_000 + seed + g)
        pl = Timed(mcts.MCTSBot(game, 2.0, plain_sims, mcts.RandomRolloutEvaluator(1, rs2), random_state=rs2), plain_sims)
        side = g % 2
        bots = [ex, pl] if side == 0 else [pl, ex]
        r = play(game, bots)[side]
        score = 1.0 if r > 0 else 0.5 if r == 0 else 0.0
        scores.append(score)
        wins += r > 0
        draws += r == 0
        ex_t += ex.seconds
        ex_w += ex.wall
        ex_moves += ex.moves
        pl_t += pl.seconds
        pl_w += pl.wall
        pl_moves += pl.moves
        for k, v in evaluator.stats().items():
            s = stats.setdefault(k, [0, 0.0, 0.0])
            s[0] += v["leaves"]
            s[1] += v["leaves"] * v["ms_per_leaf"]
            s[2] += v["leaves"] * v["cpu_ms_per_leaf"]
        print(f"  game {g + 1}/{games}: exact bot {'first' if side == 0 else 'second'}, score {score}", file=sys.stderr)
    mean, lo, hi = interval(scores)
    return {
        "games": games,
        "exact_sims": exact_sims,
        "plain_sims": plain_sims,
        "wins": wins,
        "draws": draws,
        "losses": games - wins - draws,
        "score": mean,
        "interval": [lo, hi],
        "exact_s_per_move": ex_t / ex_moves,
        "plain_s_per_move": pl_t / pl_moves,
        "exact_wall_s_per_move": ex_w / ex_moves,
        "plain_wall_s_per_move": pl_w / pl_moves,
        "exact_s_per_sim": ex_t / ex_moves / exact_sims,
        "plain_s_per_sim": pl_t / pl_moves / plain_sims,
        "leaves": {
            k: {"leaves": n, "ms_per_leaf": t / n, "cpu_ms_per_leaf": c / n} for k, (n, t, c) in sorted(stats.items())
        },
    }


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--game", default="mancala", help="mancala, or oware:HOUSES:SEEDS")
    p.add_argument("--games", type=int, default=40)
    p.add_argument("--sims", type=int, default=100, help="simulations a move of the exact bot")
    p.add_argument("--search-ms", type=int, default=5, help="the evaluator's search_ms")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--db", default="db")
    p.add_argument("--json", help="also write the results to this file")
    a = p.parse_args()
    game = load(a.game)
    exact = ExactOracle(db=a.db)
    t = time.perf_counter()
    plan = exact.prepare(game)
    print(f"{a.game}: {plan['game']}, tables up to {plan['seeds']} seeds ready ({time.perf_counter() - t:.1f} s)", file=sys.stderr)
    warnings.simplefilter("ignore", ms.TablesWarning)
    rows = []
    same = run(game, exact, a.games, a.sims, a.sims, a.seed, a.search_ms)
    rows.append(("equal simulations", same))
    plain = max(1, round(a.sims * same["exact_s_per_sim"] / same["plain_s_per_sim"]))
    timed = run(game, exact, a.games, a.sims, plain, a.seed + 1000, a.search_ms)
    rows.append(("equal time", timed))
    print("| game | setting | simulations (exact / plain) | CPU s a move (exact / plain) | games | exact bot W-D-L | exact bot's score (95% CI) |")
    print("|---|---|---|---|---|---|---|")
    for setting, r in rows:
        print(
            f"| {a.game} | {setting} | {r['exact_sims']} / {r['plain_sims']} | "
            f"{r['exact_s_per_move']:.3f} / {r['plain_s_per_move']:.3f} | {r['games']} | "
            f"{r['wins']}-{r['draws']}-{r['losses']} | {100 * r['score']:.0f}% ({100 * r['interval'][0]:.0f}-{100 * r['interval'][1]:.0f}%) |"
        )
    print()
    print("| game | leaf value from | leaves | CPU ms a leaf | wall ms a leaf |")
    print("|---|---|---|---|---|")
    leaves = {}
    for _, r in rows:
        for k, v in r["leaves"].items():
            s = leaves.setdefault(k, [0, 0.0, 0.0])
            s[0] += v["leaves"]
            s[1] += v["leaves"] * v["ms_per_leaf"]
            s[2] += v["leaves"] * v["cpu_ms_per_leaf"]
    for k, (n, t, c) in sorted(leaves.items()):
        print(f"| {a.game} | {k} | {n} | {c / n:.3f} | {t / n:.3f} |")
    if a.json:
        with open(a.json, "w") as f:
            json.dump({"game": a.game, "search_ms": a.search_ms, "seed": a.seed, "rows": dict(rows)}, f, indent=1)


if __name__ == "__main__":
    main()
