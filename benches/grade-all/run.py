#!/usr/bin/env python3
"""Grade every agent of the studies with `mancala grade` and write
docs/grades.md (called by benches/grade-all.sh)."""
import argparse
import json
import os
import subprocess
import sys
import time

# (agent, which study it comes from); a3c is graded only when it exists.
KALAH_AGENTS = [
    ("random", "all"),
    ("greedy", "project's greedy; seeds 000, 003"),
    ("max", "seed 004 max agent"),
    ("rovaris-greedy", "seed 000 greedy"),
    ("alphabeta:1", "seeds 000, 003"),
    ("alphabeta:4", "seeds 000, 004"),
    ("alphabeta:8", "seeds 000, 004"),
    ("heuristic:4", "seed 000 heuristic minimax (the study's published weights)"),
    ("heuristic:8", "seed 000 heuristic minimax"),
    ("rovaris-heuristic:4:h6=reply", "seed 000, Algorithm 8 (H6 as the reply at depth 4)"),
    ("heuristic10:4", "seed 004 heuristic minimax"),
    ("eps-greedy:0.1", "seed 001"),
    ("mcts:1000", "seeds 000, 001"),
    ("rovaris-uct:1000", "seed 000 UCT"),
    ("mcts:4000:playout=eps-greedy", "seed 004 MCTS"),
    ("a3c", "seed 004 A3C"),
    ("perfect:2s", "seed 002 (tables + solver)"),
]
AWARI_AGENTS = [
    ("random", "all"),
    ("greedy", "project's greedy"),
    ("rovaris-greedy", "seed 000 greedy"),
    ("alphabeta:4", "seed 000"),
    ("alphabeta:8", "seed 000"),
    ("heuristic:4", "seed 000 heuristic minimax"),
    ("rovaris-heuristic:4:h6=reply", "seed 000, Algorithm 8 (H6 as the reply at depth 4)"),
    ("eps-greedy:0.1", "seed 001"),
    ("awale-uct:1000", "seed 001 UCT"),
    ("awale-heavy:1000", "seed 001 heavy play-outs"),
    ("rovaris-uct:1000", "seed 000 UCT"),
    ("perfect:2s", "tables + search"),
]
POSITIONS = {"perfect:2s": 200}


def grade(args, game, agent):
    name = f"{game}-{agent}".replace(":", "_").replace("=", "_")
    out = os.path.join(args.raw, name + ".json")
    n = min(args.positions, POSITIONS.get(agent, args.positions))
    cmd = ["grade", agent, "--game", game, "--positions", str(n), "--seed", str(args.seed),
           "--search-ms", str(args.search_ms), "--json"]
    if os.path.exists(out) and not args.fresh:
        with open(out) as f:
            rep = json.load(f)
        if rep.get("_command") == " ".join(cmd):
            return rep
    t0 = time.time()
    r = subprocess.run([args.bin] + cmd, capture_output=True, text=True)
    if r.returncode != 0:
        print(f"{game} {agent}: skipped ({r.stderr.strip().splitlines()[-1]})", file=sys.stderr)
        return None
    rep = json.loads(r.stdout)
    rep["_command"] = " ".join(cmd)
    with open(out + ".tmp", "w") as f:
        json.dump(rep, f, indent=1)
    os.replace(out + ".tmp", out)
    print(f"{game} {agent}: {time.time() - t0:.0f} s", file=sys.stderr)
    return rep


def est(e, pct):
    if e is None:
        return "-"
    if pct:
        return f"{100 * e['value']:.1f} ({100 * e['low']:.1f}-{100 * e['high']:.1f})"
    return f"{e['value']:.2f} ({e['low']:.2f}-{e['high']:.2f})"


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--bin", default="target/release/mancala")
    ap.add_argument("--positions", type=int, default=1000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--search-ms", type=int, default=2000)
    ap.add_argument("--games", default="kalah:6:4 awari:6:4 oware:6:4")
    ap.add_argument("--raw", default="target/grades")
    ap.add_argument("--fresh", action="store_true")
    ap.add_argument("--out", default="docs/grades.md")
    args = ap.parse_args()
    os.makedirs(args.raw, exist_ok=True)
    sections = []
    for game in args.games.split():
        agents = KALAH_AGENTS if game.startswith("kalah") else AWARI_AGENTS
        reports = [(a, s, grade(args, game, a)) for a, s in agents]
        reports = [(a, s, r) for a, s, r in reports if r is not None]
        if not reports:
            continue
        reports.sort(key=lambda x: (-x[2]["optimal_share"]["value"], x[2]["mean_loss"]["value"]))
        r0 = reports[0][2]
        scope = (f"positions with at most {r0['max_seeds']} seeds on the board (the tables' range)"
                 if r0.get("max_seeds") else "the whole game (tables to 20 seeds, the solver above)")
        lines = [f"### {game}", "",
                 f"{scope}; seed {args.seed}, solver budget {args.search_ms} ms a position.", "",
                 "| rank | agent | from | positions (skipped) | perfect moves % (95% CI) | "
                 "mean loss per move (95% CI) |",
                 "|---|---|---|---|---|---|"]
        for i, (a, s, r) in enumerate(reports):
            lines.append(f"| {i + 1} | `{a}` | {s} | {r['positions']} ({r['skipped']}) | "
                         f"{est(r['optimal_share'], True)} | {est(r['mean_loss'], False)} |")
        phases = r0["by_phase"]
        lines += ["", "Perfect moves % by phase (seeds on the board):", "",
                  "| agent | " + " | ".join(f"{p['seeds_low']}-{p['seeds_high']}" for p in phases) + " |",
                  "|---" * (len(phases) + 1) + "|"]
        for a, s, r in reports:
            cells = [f"{100 * p['optimal_share']['value']:.0f}" if p["optimal_share"] else "-"
                     for p in r["by_phase"]]
            lines.append(f"| `{a}` | " + " | ".join(cells) + " |")
        sections.append("\n".join(lines))
    with open(args.out) as f:
        doc = f.read()
    start = doc.index("<!-- grades -->") + len("<!-- grades -->")
    end = doc.index("<!-- /grades -->")
    doc = doc[:start] + "\n\n" + "\n\n".join(sections) + "\n\n" + doc[end:]
    with open(args.out, "w") as f:
        f.write(doc)
    print(f"wrote {args.out}", file=sys.stderr)


if __name__ == "__main__":
    main()
