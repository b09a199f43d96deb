"""Table 3 of the Kalah agents study under the other readings of its
heuristics: the words the ledger and the pages print about them, derived
from the runs kept in benches/study-004/ga-runs/<reading>/ (stdlib only).

The hand-kept reasons of the table 3 rows (docs/reproduction-ledger.tsv)
say why the rows are unexplained; what the runs under the other readings
measured (which columns agree there, their ranges and rank tests, the
fitness) is filled in here from the runs, so that a new or changed run
changes the pages through `ledger.py --write` and `--check` catches drift.
"""

import json
import math
import sys
from pathlib import Path

from stats import rank_test

BENCHES = Path(__file__).resolve().parents[1]

# The reading the reasons name: its directory under ga-runs/ and its options.
READING = "h9-prose-h10-minus"
NAMES = [f"W{i + 1}" for i in range(10)] + ["the fitness"]


class ReadingError(Exception):
    pass


def _study_scripts():
    """Make benches/study-004/ (ga_runs.py) importable, once."""
    path = str(BENCHES / "study-004")
    if path not in sys.path:
        sys.path.insert(0, path)


def _published():
    _study_scripts()
    from ga_runs import table_3  # noqa: E402
    pub = table_3()
    return [[w[i] for w, _ in pub] for i in range(10)] + [[f / 100 for _, f in pub]]


def _runs(folder):
    paths = sorted(folder.glob("seed-*.json"), key=lambda p: int(p.stem.split("-")[1]))
    if not paths:
        raise ReadingError(f"{folder} holds no run")
    runs = []
    for p in paths:
        try:
            r = json.loads(p.read_text())
            runs.append([float(r["weights"][i]) for i in range(10)] + [float(r["fitness"])])
        except (OSError, ValueError, KeyError, IndexError, TypeError) as e:
            raise ReadingError(f"{p}: not a run of `mancala tune heuristic10 --json` "
                               f"(weights W1..W10 and fitness): {e!r}; run it again or remove the file")
    cols = [[r[i] for r in runs] for i in range(11)]
    return cols, [int(p.stem.split("-")[1]) for p in paths]


def columns(root, folder):
    """Per column (W1..W10, the fitness): ours, the rank test's p against the
    20 published runs, and whether it agrees (p >= 0.05)."""
    pub = _published()
    ours, seeds = _runs(folder)
    cols = []
    for name, p, o in zip(NAMES, pub, ours):
        test = rank_test(p, o)
        cols.append({"name": name, "pub": p, "ours": o, "p": test, "agrees": test >= 0.05})
    return cols, seeds


def decimal(p):
    """p with two significant digits, written out (0.086, 0.00000034)."""
    if p >= 0.1:
        return f"{p:.2g}"
    return f"{p:.{1 - math.floor(math.log10(p))}f}"


def listing(names):
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


def _span(col):
    lo, hi = min(col["ours"]), max(col["ours"])
    if col["name"] == "the fitness":
        return f"{100 * lo:.1f} to {100 * hi:.1f}%"
    return f"{lo:.3f} to {hi:.3f}"


def _fitness(cols):
    xs = sorted(100 * x for x in cols[-1]["ours"])
    if len(xs) == 2:
        return f"{xs[0]:.1f} and {xs[1]:.1f}%"
    return f"{xs[0]:.1f} to {xs[-1]:.1f}%"


def derived(root):
    """The words the pages print: `there[name]` for each column's reason,
    `fitness` for the fitness ranges, `moves` for the page's summary."""
    main, _ = columns(root, root / "benches/study-004/ga-runs")
    alt, seeds = columns(root, root / "benches/study-004/ga-runs" / READING)
    if all(c["agrees"] for c in alt):
        raise ReadingError(f"every column of table 3 agrees under {READING}: the rows are explained "
                           "there, so their reasons in docs/reproduction-ledger.tsv are stale")
    there = {}
    for c in alt:
        others = [o["name"] for o in alt if o is not c]
        differ = [n for n in others if not next(o for o in alt if o["name"] == n)["agrees"]]
        agree = [n for n in others if n not in differ]
        head = f"{c['name']} {'agrees' if c['agrees'] else 'differs'} there ({_span(c)}, p = {decimal(c['p'])})"
        if c["agrees"]:
            s = f"{head}, but {listing(differ)} differ"
        else:
            s = f"{head}, and {listing(differ)} differ there too" if differ else head
        if agree:
            s += f" while {listing(agree)} agree"
        there[c["name"]] = s + ", so neither reading gives the table"
    fitness = f"{_span(alt[-1])} under these readings, {_fitness(main)} under Algorithm 4's"
    into = [a["name"] for m, a in zip(main, alt) if not m["agrees"] and a["agrees"]]
    out = [a["name"] for m, a in zip(main, alt) if m["agrees"] and not a["agrees"]]
    both = [a["name"] for m, a in zip(main, alt) if not m["agrees"] and not a["agrees"]]
    parts = []
    if into:
        parts.append(f"move {listing(into)} into agreement")
    if out:
        parts.append(f"{listing(out)} out of it" if into else f"move {listing(out)} out of agreement")
    moves = " and ".join(parts) or "change no column's verdict"
    if both:
        moves += f"; {listing(both)} differ under both readings"
    low = min(alt[-1]["pub"])
    below = sum(x < low for x in alt[-1]["ours"])
    return {"there": there, "fitness": fitness, "moves": moves, "runs": len(seeds),
            "alt_fitness": _span(alt[-1]), "main_fitness": _fitness(main),
            "below": f"{below} of the {len(seeds)} runs below all 20 published runs "
                     f"({100 * low:.1f} to {100 * max(alt[-1]['pub']):.1f}%)",
            "seeds": f"seeds {seeds[0]} to {seeds[-1]}" if seeds == list(range(seeds[0], seeds[-1] + 1))
            else "seeds " + listing([str(s) for s in seeds])}


def run_tables(root):
    """docs/REPRODUCTION.md's two tables of the runs (as
    `benches/study-004/ga_runs.py` prints them): Algorithm 4's readings and
    READING's, by block name."""
    _study_scripts()
    from ga_runs import table  # noqa: E402
    out = {}
    for name, folder in [("table-3-runs", root / "benches/study-004/ga-runs"),
                         (f"table-3-runs-{READING}", root / "benches/study-004/ga-runs" / READING)]:
        paths = list(folder.glob("seed-*.json"))
        if not paths:
            raise ReadingError(f"{folder} holds no run")
        out[name] = "\n".join(table(paths)[1])
    return out


def reproduction_block(d):
    """The paragraph of docs/REPRODUCTION.md after the table of the runs."""
    return (f"Under these readings the runs {d['moves']}. The fitness stays at {d['alt_fitness']} "
            f"under them ({d['main_fitness']} under Algorithm 4's), "
            f"{d['below']}: how the study counted it is not given.")


def study_block(d):
    """The sentence of docs/study-004.md on the other readings."""
    return (f"Under the other readings of H9 and H10 (`--h9 prose --h10 minus`), the {d['runs']} runs "
            f"(`benches/study-004/ga-runs/{READING}/`) {d['moves']} (the fitness {d['alt_fitness']}).")
