#!/usr/bin/env python3
"""Our solver against CMancala on the same positions (issue 60, docs/SOLVER.md,
"Against CMancala").

CMancala is a public C solver of Kalah under the rule set this project calls
`capture-needs-opposite` (6 pits; a capture needs seeds in the opposite pit;
the game ends when either row is empty). It is not part of this repository:
get it from its public GitHub repository, LifesLight/CMancala (MIT licence),
and build it as its README says (CMake, native build; its "Direct RAM"
endgame-database back end needs no third-party library). Then run, from this
repository's root:

    CMANCALA=/path/to/Mancala CMANCALA_DIR=/some/dir python3 benches/cmancala.py run

CMANCALA_DIR is where CMancala keeps its endgame database (it reads and
writes EGDB/ under its working directory); build the 20-seed one first with
`printf 'egdb 20\\nquit\\n' | Mancala` run in that directory.

Subcommands:
  positions   print the fixed, seeded position set (CSV on stdout); needs
              nothing but Python. tests/cmancala.rs checks it.
  run         solve every position on both engines, one thread each, the
              engines alternating per position (CMancala first on even
              positions, ours first on odd ones), RUNS times each; check the
              values agree (stops otherwise); write target/cmancala/runs.csv
              (one row a solve) and target/cmancala/summary.csv (medians per
              position), and print the table per seeds-in-play bucket.

Environment for `run`:
  CMANCALA        CMancala's binary (required)
  CMANCALA_DIR    its working directory, holding EGDB/ (default: the binary's
                  directory)
  CACHE_BITS      CMancala's transposition table: 2^CACHE_BITS entries
                  (default 24). In its solve mode below 2^29 entries it
                  keeps 48-bit keys with 32-bit tags, two entries to a
                  12-byte bucket: 6 bytes an entry, so 24 is 96 MiB.
  TT_MB           our transposition table in MiB (default 96: the same
                  memory; ours adds its 256 KiB near table)
  DB              our table directory holding the capture-needs-opposite
                  6-pit tables up to 20 seeds (default db)
  BIN             our binary (default target/release/mancala: build it first
                  with `cargo build --release`)
  RUNS            timed solves of each position on each engine (default 3;
                  a position whose solve took over LIMIT/4 s of CPU on
                  either engine is timed once)
  PER_BUCKET      positions per seeds-in-play bucket (default 2)
  BUCKETS         seeds in play, comma-separated (default 40,45,50,55,60)
  IDS             only these positions (comma-separated ids, as `positions`
                  prints them; default all)
  LIMIT           wall seconds before a solve is stopped and the position
                  skipped (default 600)

Times: the machine is shared, so the ratio is taken on CPU time: each
solve's process CPU time (user and system, from the kernel) less the
engine's start-up CPU (the median of three solves of a position the tables
answer at once: our tables decoded, CMancala's database read). The times
each engine reports are in runs.csv too: ours is `solve_seconds` of
`mancala solve --json` (wall time of the search), CMancala's its "Total
time" (clock(): CPU time of the search). Both engines run one thread.
Nodes: ours counts every position the search enters (`stats.nodes`);
CMancala's counts every call of its negamax (its "Total nodes", printed in
millions with three decimals).
"""

import csv
import os
import random
import re
import resource
import statistics
import subprocess
import sys
import time

STARTS = (4, 5, 6)  # Kalah(6,4), (6,5), (6,6)
SEED = 60  # the number: the position set's random seed


def play(cells, pit):
    """Sow `pit` of the mover in mover-relative notation (the mover's 6 pits,
    store, the opponent's 6 pits, store) under capture-needs-opposite.
    Returns (cells, over, extra): the next position from its mover's side,
    whether the game ended (then every seed is in a store), and whether the
    mover moves again (the last seed fell into the mover's store)."""
    c = list(cells)
    seeds = c[pit]
    assert seeds > 0
    c[pit] = 0
    i = pit
    while seeds:
        i = (i + 1) % 14
        if i == 13:  # the opponent's store is skipped
            continue
        c[i] += 1
        seeds -= 1
    extra = i == 6
    if i < 6 and c[i] == 1 and c[12 - i] > 0:
        c[6] += c[i] + c[12 - i]
        c[i] = 0
        c[12 - i] = 0
    if sum(c[0:6]) == 0 or sum(c[7:13]) == 0:
        c[6] += sum(c[0:6])
        c[13] += sum(c[7:13])
        for k in list(range(0, 6)) + list(range(7, 13)):
            c[k] = 0
        return c, True, extra
    if not extra:
        c = c[7:14] + c[0:7]
    return c, False, extra


def in_play(cells):
    return sum(cells[0:6]) + sum(cells[7:13])


def random_position(rng, n, target):
    """A random game from the start of Kalah(6,n), stopped at the first
    position with `target` seeds in play or fewer; None when it jumped past
    `target` (a capture) or the game ended. Returns (cells, moves), moves in
    the published notation (turns joined by '-')."""
    cells = [n] * 6 + [0] + [n] * 6 + [0]
    turns, turn = [], ""
    while in_play(cells) > target:
        pit = rng.choice([p for p in range(6) if cells[p] > 0])
        cells, over, extra = play(cells, pit)
        turn += str(pit)
        if over:
            return None
        if extra:
            continue
        turns.append(turn)
        turn = ""
    if in_play(cells) != target:
        return None
    if turn:
        turns.append(turn)
    return cells, "-".join(turns)


def positions():
    """The fixed set: the start of Kalah(6,4), then PER_BUCKET random
    positions for each bucket of seeds in play, the starts taken in turn
    among those holding more seeds than the bucket."""
    per = int(os.environ.get("PER_BUCKET", "2"))
    buckets = [int(b) for b in os.environ.get("BUCKETS", "40,45,50,55,60").split(",")]
    rng = random.Random(SEED)
    out = [("start64", 4, 48, "", [4] * 6 + [0] + [4] * 6 + [0])]
    for target in buckets:
        starts = [n for n in STARTS if 12 * n > target]
        k = 0
        while k < per:
            n = starts[k % len(starts)]
            got = random_position(rng, n, target)
            if got is None:
                continue
            cells, moves = got
            out.append((f"s{target}-{k}", n, target, moves, cells))
            k += 1
    return out


def to_cmancala(cells):
    """CMancala's board code (its `load` format) for a position and the
    `stones` setting it needs: (code, stones per pit).

    Its code packs 14 cells of 8 bits after a bit for the side to move and
    drops the top 20 of the 128 bits, so player 2's store (cell 13) keeps
    only 3 bits: at most 7 seeds. Its solver also needs the total of seeds
    to be 12 x `stones` (its endgame database reads the seeds in play as
    that total less the stores). The stores only add their difference to
    the value, so the position is loaded with the same pits and the same
    store difference but other stores: the smaller store is player 2's (the
    side to move is player 2 when its store is the smaller), at most 7, and
    both stores together make the total a multiple of 12. The value from
    the mover's side is then the same as ours."""
    mover, opp = cells[6], cells[13]
    pits = in_play(cells)
    d = abs(mover - opp)
    for small in range(0, 8):
        big = d + small
        if (big + small + pits) % 12 == 0:
            break
    else:
        raise ValueError(f"no stores fit CMancala's code for {cells}")
    if mover > opp:
        board = cells[0:6] + [big] + cells[7:13] + [small]
        color = 1
    else:  # the mover is player 2, whose store is cell 13
        board = cells[7:13] + [big] + cells[0:6] + [small]
        color = 0
    low, high, shift = color, 0, 1
    for v in board:
        if shift < 64:
            low |= (v << shift) & ((1 << 64) - 1)  # cell 7 keeps 7 bits, as in CMancala
        else:
            high |= v << (shift - 64)
        shift += 8
    code = f"{high:016x}{low:016x}"
    assert code[:5] == "00000", (cells, code)
    return code[5:], (big + small + pits) // 12


def cmd_positions():
    w = csv.writer(sys.stdout, lineterminator="\n")
    w.writerow(["id", "start_seeds_per_pit", "seeds_in_play", "moves", "position", "cmancala_code", "cmancala_stones"])
    for pid, n, target, moves, cells in positions():
        code, stones = to_cmancala(cells)
        w.writerow([pid, n, target, moves, " ".join(map(str, cells)), code, stones])


def child_cpu():
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


def run_timed(args, **kw):
    """subprocess.run, and the CPU seconds (user and system) the child used."""
    c0 = child_cpu()
    out = subprocess.run(args, capture_output=True, text=True, **kw)
    return out, child_cpu() - c0


def solve_ours(cells, env):
    args = [
        env["BIN"], "solve", "kalah", " ".join(map(str, cells)),
        "--rules", "capture-needs-opposite", "--threads", "1",
        "--max-table-seeds", "20", "--no-build", "--db", env["DB"],
        "--tt-mb", env["TT_MB"], "--json", "--quiet",
    ]
    out, cpu = run_timed(args, timeout=float(env["LIMIT"]) + 60)
    if out.returncode != 0:
        sys.exit(f"mancala solve failed on {cells}: {out.stderr.strip()}")
    text = out.stdout

    def num(key):
        return re.search(rf'"{key}": (-?[0-9.e+-]+)', text).group(1)

    return int(num("value")), int(num("nodes")), float(num("solve_seconds")), cpu


def solve_cmancala(cells, env):
    """One fresh CMancala process a solve (so its transposition table starts
    empty, as ours does): the endgame database loads from CMANCALA_DIR/EGDB,
    outside the timed search."""
    code, stones = to_cmancala(cells)
    script = "\n".join([
        "autoplay false", f"stones {stones}", "time 0", "depth 0", f"cache {env['CACHE_BITS']}",
        "book false", "player 1 ai", "player 2 ai", "solver local", "progress false",
        "egdb 20", "start", f"load {code}", "step", "last", "quit", "",
    ])
    out, cpu = run_timed([env["CMANCALA"]], input=script, cwd=env["CMANCALA_DIR"],
                         timeout=float(env["LIMIT"]) + 120)
    text = out.stdout
    ev = re.findall(r"Evaluation:\s+(-?\d+)", text)
    nodes = re.findall(r"Total nodes:\s+([0-9.]+) million", text)
    secs = re.findall(r"Total time:\s+([0-9.]+) seconds", text)
    if not (ev and nodes and secs):
        sys.exit(f"CMancala gave no solve for {cells}; its last output:\n{text[-2000:]}")
    return int(ev[-1]), round(float(nodes[-1]) * 1e6), float(secs[-1]), cpu


# A position of 20 seeds in play, which the tables of both engines answer at
# once: its CPU time is each engine's start-up (tables mapped or decoded,
# endgame database read), taken off every solve's process CPU time.
BASELINE = [2, 2, 2, 2, 1, 1, 20, 2, 2, 2, 2, 1, 1, 20]


def solve(eng, cells, env):
    return solve_ours(cells, env) if eng == "ours" else solve_cmancala(cells, env)


def cmd_run():
    if "CMANCALA" not in os.environ:
        usage("set CMANCALA to CMancala's binary (the top of benches/cmancala.py says where to get it)")
    env = {
        "CMANCALA": os.environ["CMANCALA"],
        "CMANCALA_DIR": os.environ.get("CMANCALA_DIR", os.path.dirname(os.path.abspath(os.environ["CMANCALA"]))),
        "CACHE_BITS": os.environ.get("CACHE_BITS", "24"),
        "TT_MB": os.environ.get("TT_MB", "96"),
        "DB": os.environ.get("DB", "db"),
        "BIN": os.environ.get("BIN", "target/release/mancala"),
        "LIMIT": os.environ.get("LIMIT", "600"),
    }
    for name in ("CMANCALA", "BIN"):
        if not os.path.isfile(env[name]):
            usage(f"{name}={env[name]} is not a file (the top of benches/cmancala.py says what it must be)")
    runs = int(os.environ.get("RUNS", "3"))
    os.makedirs("target/cmancala", exist_ok=True)
    base = {}
    for eng in ("ours", "cmancala"):
        base[eng] = statistics.median(solve(eng, BASELINE, env)[3] for _ in range(3))
    print(f"start-up CPU: ours {base['ours']:.3f} s, CMancala {base['cmancala']:.3f} s", flush=True)
    rows, summary = [], []
    with open("target/cmancala/runs.csv", "w", newline="") as f:
        w = csv.writer(f, lineterminator="\n")
        w.writerow(["id", "seeds_in_play", "engine", "run", "value", "nodes", "reported_s",
                    "cpu_s", "search_cpu_s", "load1"])
        ids = os.environ.get("IDS", "")
        chosen = [p for p in positions() if not ids or p[0] in ids.split(",")]
        for i, (pid, n, target, moves, cells) in enumerate(chosen):
            order = ["cmancala", "ours"] if i % 2 == 0 else ["ours", "cmancala"]
            got = {"ours": [], "cmancala": []}
            skipped = False
            for r in range(runs):
                for eng in order:
                    l1 = os.getloadavg()[0]
                    t0 = time.time()
                    try:
                        v, nodes, secs, cpu = solve(eng, cells, env)
                    except subprocess.TimeoutExpired:
                        print(f"{pid}: {eng} took over {env['LIMIT']} s; position skipped", flush=True)
                        skipped = True
                        break
                    search = max(cpu - base[eng], 0.0)
                    got[eng].append((v, nodes, secs, search))
                    w.writerow([pid, target, eng, r, v, nodes, f"{secs:.3f}", f"{cpu:.3f}",
                                f"{search:.3f}", f"{l1:.2f}"])
                    f.flush()
                    print(f"{pid} ({target} in play) {eng}: value {v}, {nodes} nodes, reported {secs:.2f} s, "
                          f"search CPU {search:.2f} s (wall {time.time() - t0:.1f} s, load {l1:.2f})", flush=True)
                if skipped:
                    break
                if max(got["ours"][-1][3], got["cmancala"][-1][3]) > float(env["LIMIT"]) / 4:
                    break  # a long position is timed once
            if skipped:
                continue
            vals = {v for e in got for (v, *_) in got[e]}
            if len(vals) != 1:
                sys.exit(f"{pid} ({' '.join(map(str, cells))}): the engines disagree: {got}")
            mo = statistics.median(c for (*_, c) in got["ours"])
            mc = statistics.median(c for (*_, c) in got["cmancala"])
            ro = statistics.median(s for (_, _, s, _) in got["ours"])
            rc = statistics.median(s for (_, _, s, _) in got["cmancala"])
            no, nc = got["ours"][0][1], got["cmancala"][0][1]
            summary.append([pid, target, vals.pop(), no, nc, f"{mo:.3f}", f"{mc:.3f}",
                            f"{mo / mc:.3f}", f"{ro:.3f}", f"{rc:.3f}", len(got["ours"])])
            rows.append((target, mo, mc, no, nc, pid))
    with open("target/cmancala/summary.csv", "w", newline="") as f:
        w = csv.writer(f, lineterminator="\n")
        w.writerow(["id", "seeds_in_play", "value", "nodes_ours", "nodes_cmancala", "search_cpu_s_ours",
                    "search_cpu_s_cmancala", "ratio", "reported_s_ours", "reported_s_cmancala", "runs"])
        w.writerows(summary)
    print("\nbucket | positions | median CPU ratio ours/CMancala | median nodes ours | median nodes CMancala")
    for key in sorted({("start" if p == "start64" else str(t)) for (t, *_, p) in rows}):
        b = [r for r in rows if ("start" if r[5] == "start64" else str(r[0])) == key]
        print(f"{key} | {len(b)} | {statistics.median(r[1] / r[2] for r in b):.2f} | "
              f"{statistics.median(r[3] for r in b):.3g} | {statistics.median(r[4] for r in b):.3g}")


def usage(message):
    print(f"benches/cmancala.py: {message}", file=sys.stderr)
    sys.exit(2)


if __name__ == "__main__":
    if len(sys.argv) != 2 or sys.argv[1] not in ("positions", "run"):
        usage("give `positions` or `run` (the top of the file says what each does)")
    {"positions": cmd_positions, "run": cmd_run}[sys.argv[1]]()
