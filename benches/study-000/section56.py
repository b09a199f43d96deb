"""The five-game study's figures stated in the text of section 5.6 (its
plots are lost): UCT with 4,000 iterations against the heuristic minimax
at depth 8, "MCTS4000 obtains a 23.5% winrate in Awari and 31% winrate in
Oware ... 52% ... in Vai Lung Thlan ... only 12.5% ... in Kalah", and the
time each takes for a game, "in the game Vai Lung Thlan ... HMM takes for
a game is 60.6s, while MCTS takes 120.3s ... when MCTS4000 plays Awari
against HMM8, ... 21.7s, while MCTS takes 107.8s". Stdlib only:

    python3 benches/study-000/section56.py [MANCALA] [--games N] [--games-slow N] [--only GAME]

`rovaris-uct:4000` against `rovaris-heuristic:8` as run.py plays the MCTS
tables (no random opening, Awari and Oware ended by repetition with each
side taking its own seeds), seed 1, one thread: --games for Kalah (default
200, the study's; about a minute), --games-slow for Awari, Oware and Vai
Lung Thlan (default 20: UCT's 4,000 iterations take 3 to 10 s a game
there, 200 games of the three about 70 minutes). MCTS's win share is
compared with the published one (Wilson 95% interval; two-sided
two-proportion test, the published over 200 games); the seconds are this
machine's, so only the ratio of the two agents' times is compared with
the published ratio, without a test.
"""

import json
import os
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from reports import two_sample_p, wilson  # noqa: E402

# game: (published MCTS4000 win %, published HMM8 s a game, MCTS4000 s a game)
PUBLISHED = {
    "kalah:6:4": ("Kalah", 12.5, None, None),
    "awari:6:4": ("Awari", 23.5, 21.7, 107.8),
    "oware:6:4": ("Oware", 31.0, None, None),
    "vai-lung-thlan:6:5": ("Vai Lung Thlan", 52.0, 60.6, 120.3),
}


def main() -> None:
    args = sys.argv[1:]
    opt = lambda name, default: args[args.index(name) + 1] if name in args else default
    games = int(opt("--games", 200))
    slow = int(opt("--games-slow", 20))
    only = opt("--only", None)
    values = {opt(n, None) for n in ("--games", "--games-slow", "--only")}
    rest = [a for a in args if not a.startswith("--") and a not in values]
    mancala = rest[0] if rest else "target/release/mancala"
    print("| game | games | MCTS4000 wins published | measured (W/D/L) | Wilson 95% | p | verdict "
          "| MCTS / HMM8 time a game, published | measured |")
    print("|---|---:|---:|---:|---|---|---|---|---|")
    for game, (name, pub, pub_hmm, pub_mcts) in PUBLISHED.items():
        if only and not game.startswith(only):
            continue
        n = games if game.startswith("kalah") else slow
        cmd = [mancala, "match", "rovaris-uct:4000", "rovaris-heuristic:8", "--game", game, "--games", str(n),
               "--seed", "1", "--random-opening", "0", "--threads", "1", "--json"]
        if game.startswith(("awari", "oware")):
            cmd += ["--repetition", "own-side"]
        r = json.loads(subprocess.run(cmd, capture_output=True, text=True, check=True).stdout)
        lo, hi = wilson(r["a_wins"], n)
        p = two_sample_p(pub * 2, 200, r["a_wins"], n)
        a, b = r["a_time"], r["b_time"]
        ratio = (a["mean_seconds"] * a["moves"]) / (b["mean_seconds"] * b["moves"])
        pub_ratio = f"{pub_mcts / pub_hmm:.1f} ({pub_mcts} s / {pub_hmm} s)" if pub_hmm else "-"
        print(f"| {name} | {n} | {pub}% | {100 * r['a_wins'] / n:.1f}% ({r['a_wins']}/{r['draws']}/{r['b_wins']}) "
              f"| {100 * lo:.1f}-{100 * hi:.1f} | {p:.2g} | {'agrees' if p >= 0.05 else 'differs'} "
              f"| {pub_ratio} | {ratio:.1f} |", flush=True)


if __name__ == "__main__":
    main()
