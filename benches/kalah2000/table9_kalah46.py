"""Solving Kalah's Table 9, Kalah(4,6): does a small misprint explain why the
published perfect game does not replay? Tries every single edit of the line
(insert, delete or replace a character of "0123-", swap two neighbours) and
every pair of edits within characters 18 to 36 (around the failure at the
26th), and prints those that replay to the end of a game under the default
rules, with their final store difference (docs/SOLVER.md, "Table 9").
Needs the Python package (`pip install .`):

    python3 benches/kalah2000/table9_kalah46.py
"""

import tempfile

import mancala_solver as ms

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


def main() -> None:
    oracle = ms.Oracle(db=tempfile.mkdtemp(), build_limit=0)

    def ending(line: str):
        try:
            r = oracle.play("kalah:4:6", None, line)
        except ms.BadInput:
            return None
        return r["stores"][0] - r["stores"][1] if r["game_over"] else None

    one = edits(LINE, 0, len(LINE))
    two = set()
    for line in edits(LINE, 18, 36):
        two |= edits(line, 18, 36)
    for name, lines in [("single edits anywhere", one), ("pairs of edits in characters 18-36", two)]:
        found = [(line, d) for line in sorted(lines) if (d := ending(line)) is not None]
        print(f"{name}: {len(lines)} lines, {len(found)} replay to the end of a game")
        for line, d in found[:20]:
            print(f"  {d:+d}  {line}")


if __name__ == "__main__":
    main()
