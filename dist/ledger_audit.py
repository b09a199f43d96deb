#!/usr/bin/env python3
"""Audit a proof ledger of `mancala prove` with nothing but Python 3.

The ledger (docs/SOLVER.md and docs/kalah-6-6.md describe it) is a file of
JSON lines: a header naming the rule set, the pits and the root position,
then one line per finished task: a *proof* (a position, a threshold, the
answer, the proven bounds on the position's value) or a *split* (a question
too large for one task, asked again of each move's position).

This script is a second, independent reading of such a file. It shares no
code with the engine: it checks every line's CRC-32, plays the Kalah rules
itself (as docs/RULES.md states them), rebuilds the tree that the splits
describe from the root, and derives from the proof lines alone the bounds
on the value of the root and of each opening move. It prints them in the
form `mancala prove ... --status --every-move` prints, so the two readings
can be compared line by line. What it does not do is re-prove a proof
line: that is a search (`mancala prove --check`).

It also refuses a ledger that contradicts itself (a proof whose answer
disagrees with its bounds, two lines that cannot both hold, bounds the
children rule out) and names every line the tree does not reach (a line
the engine wrote under other rules, or a position this reading plays
differently).

Usage: python3 dist/ledger_audit.py LEDGER [--json]
Exit: 0 audited, 1 the ledger is inconsistent or damaged, 2 bad usage.
"""

import json
import sys
import zlib

RULE_SETS = ("default", "capture-needs-opposite", "end-when-mover-empty")


class Inconsistent(Exception):
    """The ledger cannot be right (or cannot be read)."""


def read_ledger(path):
    """The header and the other entries, each with its line number."""
    try:
        with open(path, encoding="utf-8") as f:
            text = f.read()
    except OSError as e:
        raise Inconsistent(f"{path}: cannot read it: {e.strerror}") from None
    entries = []
    for number, line in enumerate(text.splitlines(), start=1):
        line = line.rstrip()
        if not line:
            continue
        prefix, middle = '{"crc":"', '","entry":'
        if not (line.startswith(prefix) and line.endswith("}")):
            raise Inconsistent(f"{path}, line {number}: not a ledger line")
        crc, body = line[len(prefix):len(prefix) + 8], line[len(prefix) + 8:]
        if not body.startswith(middle):
            raise Inconsistent(f"{path}, line {number}: not a ledger line")
        body = body[len(middle):-1]
        try:
            want = int(crc, 16)
        except ValueError:
            raise Inconsistent(f"{path}, line {number}: bad checksum {crc!r}") from None
        if zlib.crc32(body.encode("utf-8")) != want:
            raise Inconsistent(f"{path}, line {number}: checksum mismatch")
        try:
            entries.append((number, json.loads(body)))
        except json.JSONDecodeError as e:
            raise Inconsistent(f"{path}, line {number}: unreadable entry: {e}") from None
    if not entries or entries[0][1].get("kind") != "header":
        raise Inconsistent(f"{path}: the first line is not a ledger header")
    return entries[0][1], entries[1:]


def parse_position(text, pits):
    cells = tuple(int(word) for word in text.replace(",", " ").split())
    if len(cells) != 2 * pits + 2 or min(cells) < 0:
        raise Inconsistent(f"position {text!r} is not a {pits}-pit Kalah position")
    return cells


def show(cells):
    return " ".join(str(c) for c in cells)


def play(cells, pit, m, rules):
    """Sow `pit` of the mover (cells seen from the mover).

    Returns (next cells, seen from whoever moves next; whether the turn
    passed; the final difference for the mover if the game is over, else
    None).
    """
    board = list(cells)
    seeds, board[pit] = board[pit], 0
    i = pit
    while seeds:
        i = (i + 1) % (2 * m + 2)
        if i == 2 * m + 1:  # the opponent's store is skipped
            continue
        board[i] += 1
        seeds -= 1
    extra = i == m
    if i < m and board[i] == 1:  # the last seed fell into an empty own pit
        across = 2 * m - i
        if board[across] > 0 or rules != "capture-needs-opposite":
            board[m] += 1 + board[across]
            board[i] = board[across] = 0
    mover_empty = sum(board[:m]) == 0
    opponent_empty = sum(board[m + 1:2 * m + 1]) == 0
    if rules == "end-when-mover-empty":
        over = mover_empty if extra else opponent_empty
    else:
        over = mover_empty or opponent_empty
    if over:
        mine = board[m] + sum(board[:m])
        theirs = board[2 * m + 1] + sum(board[m + 1:2 * m + 1])
        return None, not extra, mine - theirs
    if extra:
        return tuple(board), False, None
    return tuple(board[m + 1:] + board[:m + 1]), True, None


def audit(path):
    header, entries = read_ledger(path)
    rules, m = header.get("rules"), header.get("pits")
    if rules not in RULE_SETS:
        raise Inconsistent(f"{path}: rule set {rules!r} is not one of {', '.join(RULE_SETS)}")
    root = parse_position(header["root"], m)
    total = sum(root)

    known = {}  # position -> [lower, upper, line numbers]
    splits = {}  # position -> line numbers
    totals = {"proofs": 0, "splits": 0, "nodes": 0, "seconds": 0.0}
    for number, e in entries:
        kind = e.get("kind")
        pos = parse_position(e["position"], m)
        t = e["at_least"]
        totals["nodes"] += e["nodes"]
        totals["seconds"] += e["seconds"]
        if kind == "split":
            totals["splits"] += 1
            splits.setdefault(pos, []).append(number)
            continue
        if kind != "proof":
            raise Inconsistent(f"{path}, line {number}: unknown kind {kind!r}")
        totals["proofs"] += 1
        lo, hi, answer = e["lower"], e["upper"], e["answer"]
        if lo > hi or answer != (lo >= t) or (not answer and hi >= t):
            raise Inconsistent(
                f"{path}, line {number}: answer {answer} to 'at least {t}' "
                f"disagrees with its bounds [{lo}, {hi}]")
        have = known.setdefault(pos, [-total, total, []])
        have[0], have[1] = max(have[0], lo), min(have[1], hi)
        have[2].append(number)
        if have[0] > have[1]:
            raise Inconsistent(
                f"{path}, lines {have[2]}: the proofs of {show(pos)} contradict each other")

    reached = set()
    memo = {}

    def bounds(pos):
        """Proven (lower, upper) on the value of `pos` for its mover."""
        if pos in memo:
            return memo[pos]
        reached.add(pos)
        lo, hi = -total, total
        if pos in known:
            lo, hi = known[pos][0], known[pos][1]
        if pos == root or pos in splits:
            clo = chi = None
            for pit in range(m):
                if pos[pit] == 0:
                    continue
                child, passed, final = play(pos, pit, m, rules)
                if final is not None:
                    vlo = vhi = final
                else:
                    blo, bhi = bounds(child)
                    vlo, vhi = (-bhi, -blo) if passed else (blo, bhi)
                clo = vlo if clo is None else max(clo, vlo)
                chi = vhi if chi is None else max(chi, vhi)
            if clo is not None:
                lo, hi = max(lo, clo), min(hi, chi)
        if lo > hi:
            where = known.get(pos, [0, 0, []])[2] + splits.get(pos, [])
            raise Inconsistent(
                f"{path}: {show(pos)} (lines {sorted(where)}) is proven in "
                f"[{lo}, {hi}] by its lines and its children together: no value fits")
        memo[pos] = (lo, hi)
        return lo, hi

    value = bounds(root)
    moves = []
    for pit in range(m):
        if root[pit] == 0:
            continue
        child, passed, final = play(root, pit, m, rules)
        if final is not None:
            moves.append((pit, final, final))
            continue
        blo, bhi = bounds(child)
        moves.append((pit, -bhi, -blo) if passed else (pit, blo, bhi))
    orphans = sorted(n for pos, v in known.items() if pos not in reached for n in v[2])
    orphans += sorted(n for pos, v in splits.items() if pos not in reached for n in v)
    return {
        "root": show(root),
        "rules": rules,
        "value": list(value),
        "moves": [{"pit": p, "lower": lo, "upper": hi} for p, lo, hi in moves],
        "unreached_lines": sorted(orphans),
        **totals,
    }


def signed(v):
    return f"{v:+d}"


def bound_text(lo, hi):
    return signed(lo) if lo == hi else f"[{signed(lo)},{signed(hi)}]"


def main(argv):
    args = [a for a in argv if a != "--json"]
    if len(args) != 1 or args[0].startswith("-"):
        print("usage: python3 dist/ledger_audit.py LEDGER [--json]", file=sys.stderr)
        return 2
    try:
        report = audit(args[0])
    except Inconsistent as e:
        print(f"error: {e}", file=sys.stderr)
        return 1
    except (KeyError, TypeError, ValueError) as e:
        print(f"error: {args[0]}: a line lacks a field or holds a wrong one ({e})",
              file=sys.stderr)
        return 1
    if "--json" in argv:
        print(json.dumps(report))
    else:
        lo, hi = report["value"]
        print(f"root {report['root']} ({report['rules']} rules)")
        print(f"value {bound_text(lo, hi)}" + (" (proven)" if lo == hi else ""))
        print("moves (pit: value or proven bounds) " + " ".join(
            f"{mv['pit']}:{bound_text(mv['lower'], mv['upper'])}" for mv in report["moves"]))
        print(f"{report['proofs']} proofs, {report['splits']} splits, "
              f"{report['nodes']} nodes, {report['seconds']:.0f} s of search")
        if report["unreached_lines"]:
            print(f"lines the tree from the root does not reach: {report['unreached_lines']}")
    return 1 if report["unreached_lines"] else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
