"""The ledger's readers of the pages the study scripts write: each gives
the compared rows, published and measured, as counts (stdlib only)."""

import json
import re
import statistics
import sys
from pathlib import Path

from stats import rank_mdd, rank_test

BENCHES = Path(__file__).resolve().parents[1]  # the scripts; `root` is where the data is read

GAME_NAMES = {"awari": "Awari", "oware": "Oware", "vai-lung-thlan": "Vai Lung Thlan", "ohvalhu": "Ohvalhu",
              "kalah": "Kalah"}
NUMBER_COLUMNS = ["a_wins", "a_south", "a_north", "b_wins", "b_south", "b_north", "ties"]


class PageError(Exception):
    pass


def _published(root):
    lines = (root / "benches/study-000/published.tsv").read_text().splitlines()
    head = lines[0].split("\t")
    return [dict(zip(head, line.split("\t"))) for line in lines[1:] if line.strip()]


def _same_agent(spec, game):
    """The agent that plays the same moves as `spec` here: plain minimax is
    alpha-beta move for move (tests/rovaris.rs), and in Awari and Oware,
    which have no extra turn, the study's greedy is one-ply alpha-beta
    (tests/rovaris.rs, `greedy_is_one_ply_search_without_extra_turns`)."""
    spec = re.sub(r"^minimax:", "alphabeta:", spec)
    if game in ("Awari", "Oware") and spec == "rovaris-greedy":
        spec = "alphabeta:1"
    return spec


def five_games(root):
    """The five-game study's match tables (docs/study-000.md, written by
    benches/study-000/run.py): one item a match, counted once. Rows that
    compare the same figure of one match (the study printed BMM and ABMM
    tables of agents that play the same moves here) are pooled: the
    published games added, set against the one measured match. A match
    printed both as an agent against itself (South's share) and as a pair
    of differently named agents (the first agent's share) is counted as the
    former; every other number printed for a counted match (the South and
    North splits, the second agent's share, the ties, the repeated rows) is
    a repeat. Returns (items, extra repeats)."""
    published = _published(root)
    page = (root / "docs/study-000.md").read_text()
    rows, table, spec = [], None, None
    for line in page.splitlines():
        m = re.match(r"### Table (\S+): (.*)", line)
        if m:
            table, spec = m.group(1), None
            continue
        m = re.match(r"`([^`]*)` v `([^`]*)`, (\d+) games, random opening (\d+) moves a side\.", line)
        if m and table:
            spec = (m.group(1), m.group(2), int(m.group(3)), int(m.group(4)))
            continue
        m = re.match(r"\| ([A-Za-z ]+) \| .* \| ([\d.]+) / ([\d.]+) \[[\d., ]+\] \| [\d.]+ \| [^|]+ \|$", line)
        if m and spec and m.group(1) != "game":
            rows.append({"table": table, "game": m.group(1), "spec": spec, "pub_pct": float(m.group(2)),
                         "meas_pct": float(m.group(3))})
    if not rows:
        raise PageError("docs/study-000.md: no match row found")
    used = set()
    for r in rows:
        pub = next((p for i, p in enumerate(published) if i not in used and p["table"] == r["table"]
                    and GAME_NAMES[p["game"]] == r["game"]), None)
        if pub is None:
            raise PageError(f"docs/study-000.md: table {r['table']} {r['game']} is not in published.tsv")
        used.add(published.index(pub))
        _, _, games, opening = r["spec"]
        sys.path.insert(0, str(BENCHES / "study-000"))
        from run import spec as agent_of  # noqa: E402
        a, b = agent_of(pub["a"]), agent_of(pub["b"])
        r["printed"] = sum(1 for c in NUMBER_COLUMNS if pub[c].strip())
        pub_n = int(pub["games"] or 200)
        n = games
        if r["table"] == "5.67":
            quantity, pub_n, n = "south-only", pub_n // 2, games // 2
        elif pub["a"] == pub["b"]:
            quantity = "south"
        else:
            quantity = "first"
        r["quantity"] = quantity
        r["pub"] = (round(r["pub_pct"] * pub_n / 100), pub_n)
        r["meas"] = (round(r["meas_pct"] * n / 100), n)
        r["match"] = (_same_agent(a, r["game"]), _same_agent(b, r["game"]), games, opening, r["game"])
        r["key"] = f"{r['table']} {r['game']}" + (f" {pub['a']}" if r["table"] == "5.67" else "")
        r["label"] = f"table {r['table']} {pub['a']} v {pub['b']}"
    if len(used) != len(published):
        missing = [p for i, p in enumerate(published) if i not in used][0]
        raise PageError(f"docs/study-000.md has no row for table {missing['table']} {missing['game']}")
    groups = {}
    for r in rows:
        groups.setdefault((r["match"], r["quantity"]), []).append(r)
    items = []
    for (match, quantity), rs in groups.items():
        if quantity == "first" and match[0] == match[1] and (match, "south") in groups:
            continue  # counted with the match's South share below
        meas = {r["meas"] for r in rs}
        if len(meas) > 1:
            raise PageError(f"{', '.join(r['key'] for r in rs)}: one match here, but measured differently: {meas}")
        others = [r for r in rs[1:]]
        if quantity == "south" and (match, "first") in groups:
            others += groups[(match, "first")]
        first = rs[0]
        pooled = [r for r in rs]
        what = f"{first['label']}, {first['game']}"
        if len(pooled) > 1:
            what += " (pooled with " + ", ".join(r["label"] for r in pooled[1:]) + ")"
        what += {"south": ", South's share", "south-only": ", wins as South"}.get(quantity, "")
        pub = (sum(r["pub"][0] for r in pooled), sum(r["pub"][1] for r in pooled))
        rep_n = sum(r["printed"] for r in rs) + sum(r["printed"] for r in others if r not in rs) - 1
        reasons = []
        if len(rs) > 1:
            reasons.append("its other tables' shares, pooled with it (the agents play the same moves here)")
        if any(r not in rs for r in others):
            reasons.append("the same match printed as a pair of agents that are one agent here: "
                           + ", ".join(f"{r['label']} ({r['pub_pct']:g} published)" for r in others if r not in rs))
        reasons.append("the splits by side, the second agent's share and the ties of the same games")
        repeats = [(f"{what}: the other numbers of the match", rep_n, "; ".join(reasons))] if rep_n else []
        items.append({"key": first["key"], "what": what, "n": 1, "pub": pub, "meas": first["meas"],
                      "repeats": repeats})
    return items, []


def agents_table1(root):
    """The Kalah agents study's table 1 (docs/study-004.md): one item a
    published cell, the first player's wins over its games as first player
    (the published cells over 1,000 games)."""
    page = (root / "docs/study-004.md").read_text()
    m = re.search(r"(\d+) games a cell \((\d+) with MCTS\)", page)
    if not m:
        raise PageError("docs/study-004.md: no 'N games a cell (M with MCTS)' line")
    games, mcts_games = int(m.group(1)), int(m.group(2))
    body = page[page.index("### Table 1"):]
    lines = [line for line in body.splitlines()[1:] if line.startswith("|")]
    names = [c.strip() for c in lines[0].strip("|").split("|")][1:]
    items = []
    for line in lines[2:2 + len(names)]:
        cells = [c.strip() for c in line.strip("|").split("|")]
        row = cells[0]
        for col, cell in zip(names, cells[1:]):
            m = re.match(r"([\d.]+) / ([\d.]+) \[", cell)
            if not m:
                continue  # N/A in the study
            n = mcts_games if "Monte Carlo Tree Search" in (row, col) else games
            pub, meas = float(m.group(1)), float(m.group(2))
            items.append({"key": f"table 1: {row} v {col}", "what": f"{row} first v {col}", "n": 1,
                          "pub": (round(pub * 10), 1000), "meas": (round(meas * n / 100), n)})
    if len(items) != 32:
        raise PageError(f"docs/study-004.md: {len(items)} published cells of table 1 read, want 32")
    return items


def agents_table2(root):
    """Table 2: each heuristic's matches won of 9 (the published shares are
    k/9 rounded), against ours of the page."""
    page = (root / "docs/study-004.md").read_text()
    items = []
    for m in re.finditer(r"^\| H(\d+) \| (\d+)% \| \d+% \(([\d.]+)\) \|", page, re.M):
        k = int(m.group(1))
        items.append({"key": f"table 2: H{k}", "what": f"H{k}'s share of the round robin", "n": 1,
                      "pub": (round(int(m.group(2)) * 9 / 100), 9), "meas": (float(m.group(3)), 9)})
    if len(items) != 10:
        raise PageError(f"docs/study-004.md: {len(items)} rows of table 2 read, want 10")
    return items


def agents_table3(root):
    """Table 3: each column (W1..W10, fitness) of the 20 published GA runs
    against the runs kept in benches/study-004/ga-runs/ (the rank test)."""
    sys.path.insert(0, str(BENCHES / "study-004"))
    from ga_runs import table_3  # noqa: E402
    published = table_3()
    runs = [json.loads(p.read_text()) for p in sorted((root / "benches/study-004/ga-runs").glob("*.json"))]
    if not runs:
        raise PageError("benches/study-004/ga-runs/ holds no run")
    cols = []
    for i in range(11):
        pub = [w[i] for w, _ in published] if i < 10 else [f / 100 for _, f in published]
        ours = [r["weights"][i] for r in runs] if i < 10 else [r["fitness"] for r in runs]
        name = f"W{i + 1}" if i < 10 else "fitness"
        p = rank_test(pub, ours)
        cols.append({"key": f"table 3: {name}", "p": p, "mdd": rank_mdd(statistics.stdev(pub), 20, len(ours)),
                     "what": f"{name}: published median {statistics.median(pub):.3f} "
                             f"({min(pub):.3f}-{max(pub):.3f}), ours {len(ours)} runs "
                             + " ".join(f"{x:.3f}" for x in ours) + f", rank test p = {p:.2g}"})
    return cols


def awale_points(root):
    """The Awale study's points from its result files (docs/study-001.md,
    read as benches/study-001/verdicts.py reads it)."""
    sys.path.insert(0, str(BENCHES / "study-001"))
    import verdicts  # noqa: E402
    points, tournament = verdicts.parse((root / "docs/study-001.md").read_text())
    items = []
    for section, n_pub, label, published, w, d, l in points:
        n = w + d + l
        short = next(name for name, _ in verdicts.PUBLISHED_GAMES if section.startswith(name))
        items.append({"key": f"{short}: {label}", "what": f"{short}, {label}", "n": 1,
                      "pub": (published * n_pub, n_pub), "meas": (w + d / 2, n)})
    for label, a, b, published, n_pub in verdicts.TOURNAMENT:
        key = next(((r, c) for (r, c) in tournament if r.startswith(a) and c.startswith(b)), None)
        if key is None:
            raise PageError(f"docs/study-001.md: the tournament has no {a} v {b}")
        pts, n = tournament[key]
        items.append({"key": f"Tournament: {label}", "what": f"tournament, {label}", "n": 1,
                      "pub": (published / 50 * n_pub, n_pub), "meas": (pts, n)})
    if len(items) != 71:
        raise PageError(f"docs/study-001.md: {len(items)} published points read, want 71")
    return items
