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
on the value of the root, of each opening move and of each move after an
extra turn of the root's turn. It prints them in the
form `mancala prove ... --status --every-move` prints, so the two readings
can be compared line by line. What it does not do is re-prove a proof
line: that is a search (`mancala prove --check`).

The rule, which the engine applies too (crates/engine/src/search/prove, "What a ledger
proves"): the root and the positions of its own turn (those its extra moves
reach, the same player to move), every position with a split line and, in
a book ledger (format 2, `book_turns` in the header), every position within
that many turns of the root are *expanded*, and the children of an expanded position
are *reached*. A reached position with s seeds in all is bounded by
[-s, s], by each of its proof lines' [lower, upper], and, if expanded, by
[max lower, max upper] over its moves (negated where the turn passes);
the bounds are then brought to the parity of s. A finished game is worth
its final difference.

It refuses a ledger (exit 1, naming the lines) that cannot be right: a
line with bounds outside [-s, s] or an answer its bounds contradict, a
position of another board or seed count, a second header, a position whose
bounds come out empty (its lines contradict each other or its moves'
lines), or a line about a position the tree from the root does not reach
(a line the engine wrote under other rules, or a position this reading
plays differently).

The checksums protect against damage, not forgery: anyone can write a line
and its checksum. A forged line that contradicts nothing is found only by
proving it again: `--reprove N --mancala BIN` draws N proof lines at random
(0: all) and has `BIN prove ... --run-task` prove each again (options after
`--` go to every call, e.g. `-- --db DIR --max-table-seeds 20`); a line the
search answers otherwise is a failure (exit 1).

Usage: python3 dist/ledger_audit.py LEDGER [--json] [--reprove N --mancala BIN [--seed S] [-- OPTIONS...]]
Exit: 0 audited, 1 the ledger is inconsistent or damaged (or a re-proof
disagrees), 2 bad usage.
"""

import json
import random
import subprocess
import sys
import zlib
from collections import deque

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
    if text.startswith("\ufeff"):  # a byte-order mark, as some editors write
        text = text[1:]
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
    for number, e in entries[1:]:
        if e.get("kind") == "header":
            raise Inconsistent(
                f"{path}, line {number}: a second header (a ledger has one, on its first line)")
    return entries[0][1], entries[1:]


def parse_position(text, pits):
    try:
        cells = tuple(int(word) for word in text.replace(",", " ").split())
    except ValueError:
        raise Inconsistent(f"position {text!r} is not a list of seed counts") from None
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


def is_int(v):
    return isinstance(v, int) and not isinstance(v, bool)


def moves_of(pos, m, rules):
    """(pit, child, turn passed, final difference or None) for each move."""
    for pit in range(m):
        if pos[pit] == 0:
            continue
        child, passed, final = play(pos, pit, m, rules)
        yield pit, child, passed, final


def book_positions(root, m, rules, turns):
    """The positions within `turns` turns of the root, with the fewest turns
    that reach each: the root (0) and what the moves of a position of fewer
    than `turns` turns lead to (one turn more where the turn passes, the
    same after an extra move); a position of `turns` turns ends the book."""
    depth = {}
    queue = deque([(root, 0)])
    while queue:
        pos, t = queue.popleft()
        if pos in depth and depth[pos] <= t:
            continue
        depth[pos] = t
        if t == turns:  # its moves are the next turn's
            continue
        for _, child, passed, final in moves_of(pos, m, rules):
            if final is not None:
                continue
            if not passed:
                queue.appendleft((child, t))
            else:
                queue.append((child, t + 1))
    return depth


def audit(path):
    header, entries = read_ledger(path)
    rules, m = header.get("rules"), header.get("pits")
    if rules not in RULE_SETS:
        raise Inconsistent(f"{path}: rule set {rules!r} is not one of {', '.join(RULE_SETS)}")
    turns = header.get("book_turns", 0)
    if header.get("format") not in (1, 2) or not is_int(turns) or turns < 0 \
            or (header.get("format") == 2) != (turns > 0):
        raise Inconsistent(
            f"{path}: header of format {header.get('format')!r} with book_turns {turns!r}: "
            "this reading knows format 1 (no book turns) and format 2 (book turns from 1)")
    if not is_int(m) or m < 1:
        raise Inconsistent(f"{path}: header: {m!r} pits")
    root = parse_position(header["root"], m)
    total = sum(root)
    book = book_positions(root, m, rules, turns) if turns > 0 else {}
    root_turn = {pos for pos, t in book_positions(root, m, rules, 1).items() if t == 0}

    def parity(v):
        return (v - total) % 2

    known = {}  # position -> [lower, upper, line numbers]
    splits = {}  # position -> line numbers
    totals = {"proofs": 0, "splits": 0, "nodes": 0, "seconds": 0.0}
    for number, e in entries:
        kind = e.get("kind")
        if kind not in ("proof", "split"):
            raise Inconsistent(f"{path}, line {number}: unknown kind {kind!r}")
        pos = parse_position(e["position"], m)
        if sum(pos) != total:
            raise Inconsistent(
                f"{path}, line {number}: position {show(pos)} holds {sum(pos)} seeds, the root "
                f"{total}: it is not a position of this game")
        t = e["at_least"]
        if not (is_int(t) and is_int(e["nodes"]) and e["nodes"] >= 0
                and isinstance(e["seconds"], (int, float)) and e["seconds"] >= 0):
            raise Inconsistent(
                f"{path}, line {number}: at_least, nodes or seconds is not a number of its kind")
        totals["nodes"] += e["nodes"]
        totals["seconds"] += e["seconds"]
        if kind == "split":
            legal = sorted(pit for pit in range(m) if pos[pit] > 0)
            if sorted(e["order"]) != legal or len(e["estimates"]) != len(legal):
                raise Inconsistent(
                    f"{path}, line {number}: the split's order is not the position's legal moves")
            totals["splits"] += 1
            splits.setdefault(pos, []).append(number)
            continue
        totals["proofs"] += 1
        lo, hi, answer = e["lower"], e["upper"], e["answer"]
        if not (is_int(lo) and is_int(hi) and isinstance(answer, bool)):
            raise Inconsistent(f"{path}, line {number}: lower, upper or answer of the wrong kind")
        if lo > hi or lo < -total or hi > total:
            raise Inconsistent(
                f"{path}, line {number}: the bounds [{lo}, {hi}] are not bounds of a value of "
                f"this game (from -{total} to {total}, lower first)")
        if answer != (lo >= t) or (not answer and hi >= t):
            raise Inconsistent(
                f"{path}, line {number}: answer {answer} to 'at least {t}' "
                f"disagrees with its bounds [{lo}, {hi}]")
        have = known.setdefault(pos, [-total, total, []])
        have[0], have[1] = max(have[0], lo), min(have[1], hi)
        have[2].append(number)
        if have[0] + parity(have[0]) > have[1] - parity(have[1]):
            raise Inconsistent(
                f"{path}, lines {have[2]}: the proofs of {show(pos)} contradict each other")

    reached = set()
    memo = {}

    def expanded(pos):
        return pos == root or pos in root_turn or pos in splits or book.get(pos, turns) < turns

    def bounds(pos):
        """Proven (lower, upper) on the value of `pos` for its mover."""
        if pos in memo:
            return memo[pos]
        reached.add(pos)
        lo, hi = -total, total
        if pos in known:
            lo, hi = known[pos][0], known[pos][1]
        if expanded(pos):
            clo = chi = None
            for _, child, passed, final in moves_of(pos, m, rules):
                if final is not None:
                    vlo = vhi = final
                else:
                    blo, bhi = bounds(child)
                    vlo, vhi = (-bhi, -blo) if passed else (blo, bhi)
                clo = vlo if clo is None else max(clo, vlo)
                chi = vhi if chi is None else max(chi, vhi)
            if clo is not None:
                lo, hi = max(lo, clo), min(hi, chi)
        lo, hi = lo + parity(lo), hi - parity(hi)
        if lo > hi:
            where = known.get(pos, [0, 0, []])[2] + splits.get(pos, [])
            raise Inconsistent(
                f"{path}: {show(pos)} (lines {sorted(where)}) is proven in "
                f"[{lo}, {hi}] by its lines and its children together: no value fits")
        memo[pos] = (lo, hi)
        return lo, hi

    value = bounds(root)
    # Lines the rule does not reach from the root (before the report below
    # asks the bounds of more positions).
    orphans = sorted(n for pos, v in known.items() if pos not in reached for n in v[2])
    orphans += sorted(n for pos, v in splits.items() if pos not in reached for n in v)
    # The moves of the root's turn, breadth first: the opening moves, then
    # those after each extra turn (the same player's, so the root mover's
    # view throughout).
    moves = []
    level = [(root, [])]
    while level:
        following = []
        for pos, after in level:
            for pit, child, passed, final in moves_of(pos, m, rules):
                if final is not None:
                    moves.append((after, pit, final, final))
                    continue
                blo, bhi = bounds(child)
                moves.append((after, pit, -bhi, -blo) if passed else (after, pit, blo, bhi))
                if not passed:
                    following.append((child, after + [pit]))
        level = following
    report = {
        "root": show(root),
        "rules": rules,
        "value": list(value),
        "moves": [{"pit": p, "lower": lo, "upper": hi} for a, p, lo, hi in moves if not a],
        "continuations": [{"after": a, "pit": p, "lower": lo, "upper": hi}
                          for a, p, lo, hi in moves if a],
        "unreached_lines": sorted(orphans),
        **totals,
    }
    if turns > 0:
        exact = sum(1 for pos in book if memo.get(pos, (0, 1))[0] == memo.get(pos, (0, 1))[1])
        report["book"] = {"turns": turns, "positions": len(book), "exact": exact}
    return report


def reprove(path, n, mancala, seed, options):
    """Prove `n` proof lines of the ledger again (0: all) with `mancala prove
    --run-task`; returns (checked, [disagreements in words])."""
    header, entries = read_ledger(path)
    proofs = [(number, e) for number, e in entries if e.get("kind") == "proof"]
    if 0 < n < len(proofs):
        proofs = random.Random(seed).sample(proofs, n)
    game = f"kalah:{header['rules']}"
    differ = []
    for number, e in proofs:
        task = json.dumps({"position": e["position"], "at_least": e["at_least"]})
        try:
            out = subprocess.run(
                [mancala, "prove", game, header["root"], "--ledger", path, "--run-task", task,
                 "--task-seconds", "1e9", "--quiet", *options],
                capture_output=True, text=True)
        except OSError as err:
            raise Inconsistent(f"cannot run {mancala}: {err.strerror}") from None
        if out.returncode != 0:
            raise Inconsistent(
                f"{mancala} prove --run-task failed on line {number} "
                f"(exit {out.returncode}): {out.stderr.strip()}")
        again = json.loads(out.stdout.strip().split("\n")[-1])["entry"]
        if again.get("kind") != "proof" or again["answer"] != e["answer"]:
            said = "did not settle it" if again.get("kind") != "proof" else \
                f"says {'yes' if again['answer'] else 'no'} ([{again['lower']}, {again['upper']}])"
            differ.append(
                f"line {number}: {e['position']} at least {e['at_least']}: the ledger says "
                f"{'yes' if e['answer'] else 'no'}, the search {said}")
    return len(proofs), differ


def signed(v):
    return f"{v:+d}"


def bound_text(lo, hi):
    return signed(lo) if lo == hi else f"[{signed(lo)},{signed(hi)}]"


USAGE = ("usage: python3 dist/ledger_audit.py LEDGER [--json] "
         "[--reprove N --mancala BIN [--seed S] [-- OPTIONS...]]")


def parse_args(argv):
    """(ledger, json, reprove N or None, mancala, seed, options) or None."""
    options = []
    if "--" in argv:
        k = argv.index("--")
        argv, options = argv[:k], argv[k + 1:]
    ledger, as_json, n, mancala, seed = None, False, None, None, 0
    it = iter(argv)
    try:
        for a in it:
            if a == "--json":
                as_json = True
            elif a == "--reprove":
                n = int(next(it))
                if n < 0:
                    return None
            elif a == "--mancala":
                mancala = next(it)
            elif a == "--seed":
                seed = int(next(it))
            elif a.startswith("-") or ledger is not None:
                return None
            else:
                ledger = a
    except (StopIteration, ValueError):
        return None
    if ledger is None or (n is None) != (mancala is None) or (options and n is None):
        return None
    return ledger, as_json, n, mancala, seed, options


def main(argv):
    parsed = parse_args(argv)
    if parsed is None:
        print(USAGE, file=sys.stderr)
        return 2
    path, as_json, n, mancala, seed, options = parsed
    try:
        report = audit(path)
        if n is not None:
            checked, differ = reprove(path, n, mancala, seed, options)
            report["reproved"] = {"checked": checked, "differ": differ}
    except Inconsistent as e:
        print(f"error: {e}", file=sys.stderr)
        return 1
    except (KeyError, TypeError, ValueError, AttributeError) as e:
        print(f"error: {path}: a line lacks a field or holds a wrong one ({e})",
              file=sys.stderr)
        return 1
    if as_json:
        print(json.dumps(report))
    else:
        lo, hi = report["value"]
        print(f"root {report['root']} ({report['rules']} rules)")
        print(f"value {bound_text(lo, hi)}" + (" (proven)" if lo == hi else ""))
        print("moves (pit: value or proven bounds) " + " ".join(
            f"{mv['pit']}:{bound_text(mv['lower'], mv['upper'])}" for mv in report["moves"]))
        groups = []
        for mv in report["continuations"]:
            if not groups or groups[-1][0] != mv["after"]:
                groups.append((mv["after"], []))
            groups[-1][1].append(f"{mv['pit']}:{bound_text(mv['lower'], mv['upper'])}")
        for after, shown in groups:
            print(f"moves after {' then '.join(map(str, after))} (the extra turn) " + " ".join(shown))
        print(f"{report['proofs']} proofs, {report['splits']} splits, "
              f"{report['nodes']} nodes, {report['seconds']:.0f} s of search")
        if "book" in report:
            b = report["book"]
            print(f"book of {b['turns']} turns: {b['exact']} of {b['positions']} positions exact")
        if report["unreached_lines"]:
            print(f"lines the tree from the root does not reach: {report['unreached_lines']}")
        if "reproved" in report:
            r = report["reproved"]
            print(f"{r['checked']} proof lines proven again: "
                  f"{r['checked'] - len(r['differ'])} agree, {len(r['differ'])} differ")
            for d in r["differ"]:
                print(f"  DIFFERS: {d}")
    failed = report["unreached_lines"] or report.get("reproved", {}).get("differ")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
