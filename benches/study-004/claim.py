"""The Kalah agents study's one figure outside its tables: "the advanced
heuristic minimax [depth 4] ... having a win percentage of 54.5%" over 500
games against alpha-beta at depth 8. Plays `heuristic10:4` against
`alphabeta:8` under the study's rules (kalah:6:4:capture-needs-opposite),
sides alternating, two random opening moves a side as in study-004.sh,
and compares the heuristic's win share with the published one (Wilson 95%
interval; two-sided two-proportion test, both samples of 500). Stdlib only:

    python3 benches/study-004/claim.py [MANCALA] [--games N] [--runs]

--runs plays the same match with each of the 20 weight sets of the study's
table 3 (`heuristic10:4:run=R`; about 12 s each on 2 cores), to see
whether any of them reaches the published figure.
"""

import json
import os
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from reports import two_sample_p, wilson  # noqa: E402

PUBLISHED, PUBLISHED_GAMES = 0.545, 500


def play(mancala: str, agent: str, games: int) -> dict:
    out = subprocess.run(
        [mancala, "match", agent, "alphabeta:8", "--game", "kalah:6:4:capture-needs-opposite",
         "--games", str(games), "--seed", "1", "--random-opening", "2", "--json"],
        capture_output=True, text=True, check=True).stdout
    return json.loads(out)


def row(agent: str, r: dict) -> str:
    n = r["games"]
    share = r["a_wins"] / n
    lo, hi = wilson(r["a_wins"], n)
    p = two_sample_p(PUBLISHED * PUBLISHED_GAMES, PUBLISHED_GAMES, r["a_wins"], n)
    verdict = "agrees" if p >= 0.05 else "differs"
    return (f"| `{agent}` | {100 * PUBLISHED:.1f} | {100 * share:.1f} ({r['a_wins']}/{r['draws']}/{r['b_wins']}) "
            f"| {100 * lo:.1f}-{100 * hi:.1f} | {p:.2g} | {verdict} |")


def main() -> None:
    args = sys.argv[1:]
    games = int(args[args.index("--games") + 1]) if "--games" in args else PUBLISHED_GAMES
    rest = [a for i, a in enumerate(args) if not a.startswith("--") and (i == 0 or args[i - 1] != "--games")]
    mancala = rest[0] if rest else "target/release/mancala"
    print(f"Heuristic minimax (depth 4) against alpha-beta (depth 8), {games} games, "
          "the heuristic's win % (W/D/L)")
    print()
    print("| heuristic | published | measured | Wilson 95% | p | verdict |")
    print("|---|---:|---:|---|---|---|")
    print(row("heuristic10:4", play(mancala, "heuristic10:4", games)), flush=True)
    if "--runs" in args:
        for run in range(1, 21):
            agent = f"heuristic10:4:run={run}"
            print(row(agent, play(mancala, agent, games)), flush=True)


if __name__ == "__main__":
    main()
