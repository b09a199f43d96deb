"""Solving Kalah's Table 9, Kalah(4,6): does a small misprint explain why the
published perfect game does not replay? Tries every single edit of the line
(insert, delete or replace a character of "0123-", swap two neighbours) and
every pair of edits within characters 18 to 36 (around the failure at the
26th), and prints those that replay to the end of a game under the default
rules, with their final store difference (docs/SOLVER.md, "Table 9").
Stdlib only (the sowing of `table4.py`; a line replays as `mancala play
--moves` takes it: every move legal, a dash exactly where the turn passes,
and the game over at its end):

    python3 benches/kalah2000/table9_kalah46.py
"""

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from table4 import make_game  # noqa: E402

LINE = "1-0-2-3-1330-01-2-2-21-201-2-23-3-23-230-32-32-12-1-0-32"
ALPHABET = "0123-"


def edits(line: str, lo: int, hi: int) -> set:
    out = set()
    for i in range(lo, min(hi, len(line)) + 1):
        for c in ALPHABET:
            out.add(line[:i] + c + line[i:])
        if i < len(line):
            out.add(line[:i] + line[i + 1 :])
            for c in ALPHABET:
                out.add(line[:i] + c + line[i + 1 :])
        if i + 1 < len(line):
            out.add(line[:i] + line[i + 1] + line[i] + line[i + 2 :])
    return out


def ending(m: int, n: int, line: str):
    """South's seeds minus North's at the end of the game `line` plays
    from the start of Kalah(m, n) under the default rules, or None if the
    line is not legal or does not end the game."""
    start, sow, _sweep, pits, _decided, _enc, _dec = make_game(m, n)
    c, side, ended = start, 0, False
    groups = line.split("-")
    for i, group in enumerate(groups):
        if group == "":
            return None
        mover = side
        for ch in group:
            if ended or side != mover or not ch.isdigit() or int(ch) not in pits(c, side):
                return None
            c, side, ended = sow(c, side, int(ch))
        if not ended and side == mover and i + 1 < len(groups):
            return None
    if not ended:
        return None
    return (c[m] + sum(c[0:m])) - (c[2 * m + 1] + sum(c[m + 1 : 2 * m + 1]))


def main() -> None:
    def ending46(line: str):
        return ending(4, 6, line)

    one = edits(LINE, 0, len(LINE))
    two = set()
    for line in edits(LINE, 18, 36):
        two |= edits(line, 18, 36)
    for name, lines in [("single edits anywhere", one), ("pairs of edits in characters 18-36", two)]:
        found = [(line, d) for line in sorted(lines) if (d := ending46(line)) is not None]
        print(f"{name}: {len(lines)} lines, {len(found)} replay to the end of a game")
        for line, d in found[:20]:
            print(f"  {d:+d}  {line}")


if __name__ == "__main__":
    main()
