#!/usr/bin/env python3
"""The Kalah agents study's table 3 (20 runs of its genetic algorithm: the
best weights W1..W10 and fitness of each) against runs of `mancala tune
heuristic10` at the same settings, weight by weight.

    python3 benches/study-004/ga_runs.py RUN.json [RUN.json ...]

Each RUN.json is the output of

    mancala tune heuristic10 --game kalah:6:4:capture-needs-opposite \\
      --population 50 --generations 250 --games 10 --depth 4 --seed S --json

(benches/study-004/ga-runs/ keeps the runs made here under Algorithm 4's
readings, 19 to 20 minutes each on 2 cores shared with a low-priority job;
ga-runs/h9-prose-h10-minus/ those under `--h9 prose --h10 minus`, about 30
minutes each on one core). Table 3 is read from
crates/engine/src/play/agents/hunter.rs (TABLE_3), where the agents take it from. For
each weight: the published runs' range, mean and standard deviation, ours,
and how many of ours fall inside the published range. The published
fitness is a percentage of points against the rest of the population; ours
is the same share (0-1), printed as a percentage. The runs differ by their
seeds, which the study does not give, so each column is compared as a
sample: the two-sided Wilcoxon-Mann-Whitney rank test of the 20 published
values against ours (exact; benches/ledger/stats.py), a column agreeing
when p >= 0.05.
"""
import json
import re
import statistics
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "benches" / "ledger"))
from stats import rank_test  # noqa: E402


def table_3():
    text = (ROOT / "crates/engine/src/play/agents/hunter.rs").read_text()
    body = text[text.index("pub const TABLE_3"):]
    body = body[: body.index("];")]
    rows = re.findall(r"\(\s*\[([^\]]*)\],\s*([0-9.]+),?\s*\)", body)
    out = [([float(x) for x in w.replace("\n", " ").split(",") if x.strip()], float(f)) for w, f in rows]
    assert len(out) == 20 and all(len(w) == 10 for w, _ in out), "TABLE_3 not read"
    return out


def _seed_order(path):
    """Runs in the order of their seeds (seed-2 before seed-10), as the
    pages print them, whatever order the shell's glob gives."""
    m = re.search(r"(\d+)", Path(path).stem)
    return (str(Path(path).parent), int(m.group(1)) if m else -1, str(path))


def table(paths):
    """The markdown table of the runs `paths` against the published 20, and
    the count of weights inside the published range."""
    published = table_3()
    runs = []
    for p in sorted(paths, key=_seed_order):
        r = json.loads(Path(p).read_text())
        runs.append((Path(p).name, r["weights"], 100.0 * r["fitness"], r["settings"]))
    lines = ["| weight | published: min-max | mean (sd) | ours: " + " ".join(n for n, *_ in runs)
             + " | ours inside the range | rank test p | verdict |",
             "|---|---|---|---|---|---|---|"]
    inside_all = 0
    for i in range(10):
        col = [w[i] for w, _ in published]
        lo, hi = min(col), max(col)
        ours = [w[i] for _, w, _, _ in runs]
        inside = sum(lo <= x <= hi for x in ours)
        inside_all += inside
        p = rank_test(col, ours)
        lines.append(
            f"| W{i + 1} | {lo:.3f}-{hi:.3f} | {statistics.mean(col):.3f} ({statistics.stdev(col):.3f}) | "
            + " ".join(f"{x:.3f}" for x in ours)
            + f" | {inside} of {len(ours)} | {p:.2g} | {'agrees' if p >= 0.05 else 'differs'} |"
        )
    fit = [f for _, f in published]
    ours = [fitness for _, _, fitness, _ in runs]
    p = rank_test(fit, ours)
    lines.append(
        f"| fitness (%) | {min(fit):.1f}-{max(fit):.1f} | {statistics.mean(fit):.1f} ({statistics.stdev(fit):.1f}) | "
        + " ".join(f"{x:.1f}" for x in ours)
        + f" | {sum(min(fit) <= x <= max(fit) for x in ours)} of {len(ours)} | {p:.2g} | "
        + f"{'agrees' if p >= 0.05 else 'differs'} |"
    )
    return runs, lines, inside_all


def main(paths):
    if not paths:
        print(__doc__)
        return 2
    runs, lines, inside_all = table(paths)
    for name, _, _, settings in runs:
        print(f"- {name}: {settings}")
    print()
    print("\n".join(lines))
    print()
    print(f"weights inside the published range: {inside_all} of {10 * len(runs)}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
