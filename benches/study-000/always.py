"""The five-game study's "always won" claims with no table behind them:
BMM8 "wins always against random" (section 5.3), "ABMM8 won always"
(5.4), "HMM8 won always" (5.5), in each of the five games. Stdlib only:

    python3 benches/study-000/always.py [MANCALA] [--games N]

Each agent plays `random` as run.py plays the tables against random (no
random opening; Awari and Oware ended by repetition with each side taking
its own seeds), seed 1, N games (default 200, the study's), sides
alternating. BMM8 is plain minimax to depth 8, which chooses the same move
as `alphabeta:8` in every position (tests/rovaris.rs checks it in all five
games), so one match of `alphabeta:8` stands for both. "Always" is read as
a win share of 100% over the study's 200 games, compared by the two-sided
two-proportion test with the measured share.
"""

import json
import os
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from reports import two_sample_p, wilson  # noqa: E402

GAMES = [("Awari", "awari:6:4"), ("Oware", "oware:6:4"), ("Vai Lung Thlan", "vai-lung-thlan:6:5"),
         ("Ohvalhu", "ohvalhu:8:8"), ("Kalah", "kalah:6:4")]
AGENTS = [("BMM8 and ABMM8", "alphabeta:8"), ("HMM8", "rovaris-heuristic:8")]


def main() -> None:
    args = sys.argv[1:]
    games = int(args[args.index("--games") + 1]) if "--games" in args else 200
    rest = [a for i, a in enumerate(args) if not a.startswith("--") and (i == 0 or args[i - 1] != "--games")]
    mancala = rest[0] if rest else "target/release/mancala"
    print(f"| agent | game | published | measured wins (W/D/L of {games}) | Wilson 95% | p | verdict |")
    print("|---|---|---|---|---|---|---|")
    agree = total = 0
    for name, agent in AGENTS:
        for game_name, game in GAMES:
            cmd = [mancala, "match", agent, "random", "--game", game, "--games", str(games), "--seed", "1",
                   "--random-opening", "0", "--json"]
            if game.startswith(("awari", "oware")):
                cmd += ["--repetition", "own-side"]
            r = json.loads(subprocess.run(cmd, capture_output=True, text=True, check=True).stdout)
            lo, hi = wilson(r["a_wins"], games)
            p = two_sample_p(200, 200, r["a_wins"], games)
            ok = p >= 0.05
            agree += ok
            total += 1
            print(f"| {name} | {game_name} | always | {100 * r['a_wins'] / games:.1f}% "
                  f"({r['a_wins']}/{r['draws']}/{r['b_wins']}) | {100 * lo:.1f}-{100 * hi:.1f} | {p:.2g} "
                  f"| {'agrees' if ok else 'differs'} |", flush=True)
    print()
    print(f"{agree} of {total} claims agree")


if __name__ == "__main__":
    main()
