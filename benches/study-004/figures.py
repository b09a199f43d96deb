"""The Kalah agents study's figures 4 and 5 (MCTS against the two minimax
agents at several depths; lost from the text, which reads rates off them):
"the MCT search performs very well against the alpha-beta minimax when it
is at depth 1", "about 60% ... at a depth of 4" (table 1's cell, 59.3),
"not even being able to achieve ... 100% against the heuristic minimax at
a depth of 1", "flatten out at around 42%" at depth 4 (table 1's cell,
44.7), and "for both minimaxes at a depth of 8, the MCT search has
trouble reaching a win percentage of over 30%". Stdlib only:

    python3 benches/study-004/figures.py [MANCALA] [--games N]

Plays the study's MCTS (`mcts:4000:playout=eps-greedy`, as run.py) against
`alphabeta:1`, `heuristic10:1`, `alphabeta:8` and `heuristic10:8` under the
study's rules (kalah:6:4:capture-needs-opposite), two random opening moves a
side, seed 1, N games (default 200, as table 1's MCTS cells), sides
alternating. The share read off the figures is MCTS's as the first player,
as in table 1 (its 59.3 and 44.7 are the figures' 60 and 42); the share
over both sides is printed beside it. A read-off claim names a range of
shares (below); it agrees when the Wilson 95% interval of the measured
share meets that range, and differs when it does not; "not even 100%"
agrees when MCTS fails to win at least one of its games as first player.
"""

import json
import os
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from reports import wilson  # noqa: E402

MCTS = "mcts:4000:playout=eps-greedy"
GAME = "kalah:6:4:capture-needs-opposite"
# (opponent, the text's words, the range they name, in %)
CLAIMS = [
    ("alphabeta:1", "performs very well (read: close to 100%, at least 90)", (90.0, 100.0)),
    ("heuristic10:1", "not even 100% (read: at least one game not won)", None),
    ("alphabeta:8", "trouble reaching over 30% (read: at most 30)", (0.0, 30.0)),
    ("heuristic10:8", "trouble reaching over 30% (read: at most 30)", (0.0, 30.0)),
]


def main() -> None:
    args = sys.argv[1:]
    games = int(args[args.index("--games") + 1]) if "--games" in args else 200
    rest = [a for i, a in enumerate(args) if not a.startswith("--") and (i == 0 or args[i - 1] != "--games")]
    mancala = rest[0] if rest else "target/release/mancala"
    print(f"MCTS ({MCTS}) against the minimax agents, {games} games a match, its win % as first player "
          "(W/D/L of its games as South)")
    print()
    print("| against | the text | range read | MCTS first: measured | Wilson 95% | both sides | verdict |")
    print("|---|---|---|---|---|---|---|")
    agree = 0
    for opponent, words, read in CLAIMS:
        out = subprocess.run(
            [mancala, "match", MCTS, opponent, "--game", GAME, "--games", str(games), "--seed", "1",
             "--random-opening", "2", "--json"],
            capture_output=True, text=True, check=True).stdout
        r = json.loads(out)
        s = r["a_as_south"]
        n = s["wins"] + s["draws"] + s["losses"]
        lo, hi = wilson(s["wins"], n)
        if read is None:
            ok, shown = s["wins"] < n, "below 100"
        else:
            ok, shown = 100 * hi >= read[0] and 100 * lo <= read[1], f"{read[0]:g}-{read[1]:g}"
        agree += ok
        print(f"| `{opponent}` | {words} | {shown} | {100 * s['wins'] / n:.1f} "
              f"({s['wins']}/{s['draws']}/{s['losses']}) | {100 * lo:.1f}-{100 * hi:.1f} "
              f"| {100 * r['a_wins'] / r['games']:.1f} | {'agrees' if ok else 'differs'} |", flush=True)
    print()
    print(f"{agree} of {len(CLAIMS)} figure reads agree")


if __name__ == "__main__":
    main()
