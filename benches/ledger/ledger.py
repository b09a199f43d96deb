#!/usr/bin/env python3
"""docs/REPRODUCTION.md's ledger: every published number of the five
documents in one class of one written rule (the page's "The rule"), and
every summary of the page computed from those rows. Stdlib only:

    python3 benches/ledger/ledger.py            # print the generated blocks
    python3 benches/ledger/ledger.py --check    # exit 1 when the page differs from them
    python3 benches/ledger/ledger.py --write    # rewrite the blocks in docs/REPRODUCTION.md

(`--root DIR` reads the page, the rows and the study pages under DIR
instead of this clone: the tests check a broken copy.)

The rows come from two places. `docs/reproduction-ledger.tsv` holds the
numbers judged by hand from a run (a count, a class, the reason and the
command), one line a group of numbers of one class. The match tables are
read from the pages their scripts wrote (docs/study-000.md,
docs/study-004.md, docs/study-001.md, benches/study-004/ga-runs/): each
row's published and measured figures give its verdict here, and the file
holds only the reason of each row that differs (a line whose count is
`@`, keyed by the row). A differing row without a reason, or a reason for
a row that does not differ, is an error: the ledger cannot go stale
against the pages.

The generated blocks in the page sit between `<!-- ledger DOC -->` and
`<!-- /ledger DOC -->` (DOC one of the five documents, or `all`). Table 3
of the Kalah agents study has more: its two tables of runs
(`table-3-runs`, `table-3-runs-h9-prose-h10-minus`), the paragraph on the
other readings (`table-3-readings`, in docs/REPRODUCTION.md and
docs/study-004.md) and the numbers in its rows' reasons (`{there}`,
`{fitness}`, `{runs}`, `{seeds}`) are derived from the runs in
benches/study-004/ga-runs/ (ga_readings.py), so they cannot drift either.
"""

import os
import re
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(ROOT / "benches"))
from ga_readings import ReadingError, reproduction_block, run_tables, study_block  # noqa: E402
from ga_readings import derived as ga_derived  # noqa: E402
from pages import PageError, agents_table1, agents_table2, agents_table3, awale_points, five_games  # noqa: E402
from stats import holm, mdd, two_sample_p  # noqa: E402

DOCS = ["solving-kalah", "five-games", "awale-mcts", "assignment", "kalah-agents"]
TITLES = {
    "solving-kalah": "Solving Kalah (2000)",
    "five-games": "five-game study (2016)",
    "awale-mcts": "Awale MCTS study (2021)",
    "assignment": "course assignment",
    "kalah-agents": "Kalah agents study (2021)",
}
# The classes of the rule, in the order the tables give them.
COUNTED = ["agree", "tested", "missing", "unexplained", "not-run"]
ONCE = ["derived", "repeat"]
CLASSES = COUNTED + ONCE
LOW_POWER = 0.20  # an agreeing rate row that cannot detect 20 points is marked


class LedgerError(Exception):
    pass


def read_tsv(path):
    """Rows of the hand-kept file: dicts with doc, part, what, n, class,
    from, why, by (and line, for errors)."""
    rows = []
    for no, line in enumerate(Path(path).read_text().splitlines(), 1):
        if not line.strip() or line.startswith("#"):
            continue
        cells = line.split("\t")
        if cells[0] == "doc":
            continue
        if len(cells) != 8:
            raise LedgerError(f"{path}:{no}: {len(cells)} fields, want 8 (doc part what n class from why by)")
        r = dict(zip(["doc", "part", "what", "n", "class", "from", "why", "by"], cells))
        r["line"] = f"{os.path.basename(path)}:{no}"
        if r["doc"] not in DOCS:
            raise LedgerError(f"{r['line']}: unknown document {r['doc']!r}")
        if r["class"] not in CLASSES:
            raise LedgerError(f"{r['line']}: unknown class {r['class']!r} (one of {', '.join(CLASSES)})")
        if r["from"] not in ("text", "outside"):
            raise LedgerError(f"{r['line']}: 'from' is text or outside, not {r['from']!r}")
        if r["n"] != "@":
            if not r["n"].isdigit() or int(r["n"]) == 0:
                raise LedgerError(f"{r['line']}: the count {r['n']!r} is not a positive number")
            r["n"] = int(r["n"])
        need = {"tested": "the reason and the run that tested it", "missing": "what the text does not give",
                "derived": "what it follows from", "repeat": "where it is counted",
                "not-run": "why it was not run",
                "unexplained": "what the runs ruled out (or that no reading was run)"}
        if r["class"] in need and not r["why"].strip():
            raise LedgerError(f"{r['line']}: a row of class {r['class']} names {need[r['class']]}")
        if r["class"] == "tested" and not r["by"].strip():
            raise LedgerError(f"{r['line']}: a tested reason names its run (the 'by' field)")
        rows.append(r)
    return rows


def keyed(rows, doc, key, differs):
    """The hand row that gives the reason of the page row `key` (or None)."""
    hits = [r for r in rows if r["doc"] == doc and r["n"] == "@" and r["what"] == key]
    if len(hits) > 1:
        raise LedgerError(f"{hits[1]['line']}: a second reason for {doc} {key}")
    if hits:
        hits[0]["used"] = True
        if not differs:
            raise LedgerError(f"{hits[0]['line']}: a reason for {doc} {key}, which agrees on its page")
        if hits[0]["class"] not in ("tested", "missing", "unexplained"):
            raise LedgerError(f"{hits[0]['line']}: a differing row is tested, missing or unexplained")
        return hits[0]
    if differs:
        raise LedgerError(f"{doc} {key} differs and docs/reproduction-ledger.tsv gives no reason "
                          "(a line with count @ and class tested, missing or unexplained)")
    return None


def entry(doc, part, what, n, cls, src="text", why="", by="", low=None):
    return {"doc": doc, "part": part, "what": what, "n": n, "class": cls, "from": src, "why": why, "by": by,
            "low": low}


def rate_entries(rows, doc, part, items, by, src="text"):
    """Entries for compared rates: items are dicts with key, what, n (numbers
    the row stands for), pub (x, n), meas (x, n), and optionally repeats
    [(what, n)]. Holm's correction over the items is reported, not used."""
    out, ps = [], []
    for it in items:
        p = two_sample_p(*it["pub"], *it["meas"])
        ps.append(p)
        it["p"] = p
    for it, h in zip(items, holm(ps)):
        differs = it["p"] < 0.05
        reason = keyed(rows, doc, it["key"], differs)
        pub = it["pub"][0] / it["pub"][1]
        meas = it["meas"][0] / it["meas"][1]
        what = f"{it['what']}: published {100 * pub:.1f}% ({it['pub'][1]}), measured {100 * meas:.1f}% " \
               f"({it['meas'][1]}), p = {it['p']:.2g}{', after Holm' if h else ''}"
        if reason:
            out.append(entry(doc, part, what, it["n"], reason["class"], src, reason["why"], reason["by"] or by))
        else:
            d = mdd(pub, it["pub"][1], it["meas"][1])
            out.append(entry(doc, part, what, it["n"], "agree", src, "", by, d if d > LOW_POWER else None))
        for rwhat, rn, rwhy in it.get("repeats", []):
            out.append(entry(doc, part, rwhat, rn, "repeat", src, rwhy, by))
    return out, sum(holm(ps)), len(items)


def build(root, readings):
    """Every entry of the ledger, and notes the page prints per document
    (`readings`: ga_readings.derived(root), for the table 3 reasons)."""
    rows = read_tsv(root / "docs/reproduction-ledger.tsv")
    entries = [dict(r) for r in rows if r["n"] != "@"]
    for e in entries:
        e["low"] = None
    notes = {}
    # The five-game study's match tables.
    items, same = five_games(root)
    es, nholm, nitems = rate_entries(rows, "five-games", "Tables 5.1 to 5.75: win shares", items,
                                     "benches/study-000/run.py (docs/study-000.md)")
    entries += es
    entries += [entry("five-games", "Tables 5.1 to 5.75: win shares", w, n, "repeat", "text", why,
                      "benches/study-000/run.py") for w, n, why in same]
    notes["five-games"] = f"match tables: {nitems} matches counted, {nholm} differ after Holm's correction over them"
    # The Kalah agents study's tables 1 to 3.
    items = agents_table1(root)
    es, nholm, nitems = rate_entries(rows, "kalah-agents", "Table 1: first player's win %", items,
                                     "benches/study-004/run.py (docs/study-004.md)")
    entries += es
    notes["kalah-agents"] = f"table 1: {nitems} cells, {nholm} differ after Holm's correction over them"
    items = agents_table2(root)
    es, _, _ = rate_entries(rows, "kalah-agents", "Table 2: single heuristics' round robin", items,
                            "benches/study-004/run.py (docs/study-004.md)")
    entries += es
    for col in agents_table3(root):
        differs = col["p"] < 0.05
        reason = keyed(rows, "kalah-agents", col["key"], differs)
        by = "benches/study-004/ga_runs.py"
        if reason:
            entries.append(entry("kalah-agents", "Table 3: 20 GA runs", col["what"], 20, reason["class"], "text",
                                 table3_reason(reason, col["key"], readings), reason["by"] or by))
        else:
            entries.append(entry("kalah-agents", "Table 3: 20 GA runs", col["what"], 20, "agree", "text", "", by,
                                 col["mdd"] if col["mdd"] > LOW_POWER else None))
    # The Awale study's points, from its result files (outside the text).
    items = awale_points(root)
    es, nholm, nitems = rate_entries(rows, "awale-mcts", "points of the tuning grids and the tournament", items,
                                     "benches/study-001/verdicts.py (docs/study-001.md)", src="outside")
    entries += es
    notes["awale-mcts"] = f"result-file points: {nitems}, {nholm} differ after Holm's correction over them"
    unused = [r for r in rows if r["n"] == "@" and not r.get("used")]
    if unused:
        raise LedgerError(f"{unused[0]['line']}: the reason for {unused[0]['what']!r} matches no row of its page")
    return entries, notes


def table3_reason(row, key, readings):
    """A table 3 row's reason with what the runs under the other readings
    measured filled in ({there}, {fitness}, {runs}, {seeds}): those numbers
    are derived from the runs (ga_readings.py), never kept by hand."""
    if "{there}" not in row["why"]:
        raise LedgerError(f"{row['line']}: a table 3 reason says what the other readings' runs measured "
                          "through {there} (filled in from benches/study-004/ga-runs/), not by hand")
    name = key.split(": ", 1)[1]
    name = "the fitness" if name == "fitness" else name
    try:
        return row["why"].format(there=readings["there"][name], fitness=readings["fitness"],
                                 runs=readings["runs"], seeds=readings["seeds"])
    except (KeyError, IndexError, ValueError) as e:
        raise LedgerError(f"{row['line']}: the reason's fields: {e} (known: there, fitness, runs, seeds)")


def tally(es):
    t = {c: 0 for c in CLASSES}
    t["low"] = 0
    for e in es:
        t[e["class"]] += e["n"]
        if e["low"] is not None:
            t["low"] += e["n"]
    t["printed"] = sum(t[c] for c in CLASSES)
    t["counted"] = sum(t[c] for c in COUNTED)
    return t


def summary_line(title, t, out):
    s = (f"**Summary ({title}): {t['printed']} numbers printed; {t['repeat']} repeat a number or a match counted "
         f"elsewhere and {t['derived']} are derived from others, so {t['counted']} are counted: {t['agree']} agree "
         f"({t['low']} of them with low power), {t['tested']} differ with a reason tested by a run, "
         f"{t['missing']} differ and are not reproducible from the text, {t['unexplained']} differ unexplained, "
         f"{t['not-run']} not run.")
    if out["printed"]:
        s += (f" Kept apart, not from the document: {out['printed']} numbers ({out['repeat'] + out['derived']} "
              f"counted once elsewhere; of the {out['counted']} counted, {out['agree']} agree ({out['low']} with low "
              f"power), {out['tested']} differ with a tested reason, {out['missing']} not reproducible, "
              f"{out['unexplained']} unexplained, {out['not-run']} not run).")
    return s + "**"


def doc_block(doc, entries, notes):
    es = [e for e in entries if e["doc"] == doc]
    lines = ["| part | numbers | repeats | derived | counted | agree (low power) | differ, tested reason "
             "| differ, not reproducible | differ, unexplained | not run |",
             "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|"]
    parts = []
    for e in es:
        key = (e["part"], e["from"])
        if key not in parts:
            parts.append(key)
    for part, src in parts:
        t = tally([e for e in es if e["part"] == part and e["from"] == src])
        label = part + (" (not in the document: kept apart)" if src == "outside" else "")
        lines.append(f"| {label} | {t['printed']} | {t['repeat']} | {t['derived']} | {t['counted']} | "
                     f"{t['agree']} ({t['low']}) | {t['tested']} | {t['missing']} | {t['unexplained']} | {t['not-run']} |")
    lines.append("")
    differ = [e for e in es if e["class"] in ("tested", "missing", "unexplained", "not-run")]
    if differ:
        lines.append("Every number that differs or was not run, with its class and reason:")
        lines.append("")
        names = {"tested": "differs, reason tested by a run", "missing": "differs, not reproducible from the text",
                 "unexplained": "differs, unexplained", "not-run": "not run"}
        for e in differ:
            by = f" (`{e['by']}`)" if e["by"] and not e["by"].startswith("benches/") else (f" (`{e['by']}`)" if e["by"] else "")
            src = "; not in the document" if e["from"] == "outside" else ""
            why = f": {e['why']}" if e["why"] else ""
            lines.append(f"- {e['part']}, {e['what']} ({e['n']}{src}): **{names[e['class']]}**{why}{by}")
        lines.append("")
    low = [e for e in es if e["low"] is not None]
    if low:
        lines.append("Agreeing with low power (the smallest difference the row detects, at 5% with 80% power, is "
                     f"more than {100 * LOW_POWER:.0f} points):")
        lines.append("")
        for e in low:
            lines.append(f"- {e['part']}, {e['what']}: could detect {100 * e['low']:.0f} points")
        lines.append("")
    once = [e for e in es if e["class"] in ONCE]
    if once:
        lines.append(f"<details><summary>Counted once: {sum(e['n'] for e in once)} numbers that repeat or follow "
                     "from others, and where</summary>")
        lines.append("")
        for e in once:
            src = "; not in the document" if e["from"] == "outside" else ""
            lines.append(f"- {e['part']}, {e['what']} ({e['n']}{src}): {e['class']}: {e['why']}")
        lines.append("")
        lines.append("</details>")
        lines.append("")
    if doc in notes:
        lines.append(f"Holm's correction, for the reader (the verdicts above are at 5% a number): {notes[doc]}.")
        lines.append("")
    text = tally([e for e in es if e["from"] == "text"])
    out = tally([e for e in es if e["from"] == "outside"])
    lines.append(summary_line(TITLES[doc], text, out))
    return "\n".join(lines)


def all_block(entries):
    lines = ["| document | numbers | repeats | derived | counted | agree (low power) | differ, tested reason "
             "| differ, not reproducible | differ, unexplained | not run | not in the document (counted) |",
             "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"]
    tot = {"text": [], "outside": []}
    for doc in DOCS:
        es = [e for e in entries if e["doc"] == doc]
        t = tally([e for e in es if e["from"] == "text"])
        o = tally([e for e in es if e["from"] == "outside"])
        tot["text"] += [e for e in es if e["from"] == "text"]
        tot["outside"] += [e for e in es if e["from"] == "outside"]
        lines.append(f"| `{doc}` | {t['printed']} | {t['repeat']} | {t['derived']} | {t['counted']} | {t['agree']} "
                     f"({t['low']}) | {t['tested']} | {t['missing']} | {t['unexplained']} | {t['not-run']} | "
                     f"{o['printed']} ({o['counted']}) |")
    t, o = tally(tot["text"]), tally(tot["outside"])
    lines.append(f"| all | {t['printed']} | {t['repeat']} | {t['derived']} | {t['counted']} | {t['agree']} ({t['low']}) "
                 f"| {t['tested']} | {t['missing']} | {t['unexplained']} | {t['not-run']} | {o['printed']} ({o['counted']}) |")
    return "\n".join(lines)


def blocks(root):
    """The generated blocks of each page: {page: {block name: text}}."""
    readings = ga_derived(root)
    entries, notes = build(root, readings)
    out = {doc: doc_block(doc, entries, notes) for doc in DOCS}
    out["all"] = all_block(entries)
    out["table-3-readings"] = reproduction_block(readings)
    out.update(run_tables(root))
    return {"docs/REPRODUCTION.md": out, "docs/study-004.md": {"table-3-readings": study_block(readings)}}


def render(page, generated, where="docs/REPRODUCTION.md"):
    for name, body in generated.items():
        begin, end = f"<!-- ledger {name} -->", f"<!-- /ledger {name} -->"
        pat = re.compile(re.escape(begin) + r".*?" + re.escape(end), re.S)
        if not pat.search(page):
            raise LedgerError(f"{where} has no {begin} ... {end} block")
        page = pat.sub(lambda _: f"{begin}\n{body}\n{end}", page)
    return page


def main(argv):
    args = argv[1:]
    root = ROOT
    if "--root" in args:
        i = args.index("--root")
        if i + 1 >= len(args):
            print("ledger.py: --root needs a directory", file=sys.stderr)
            return 2
        root = Path(args[i + 1]).resolve()
        del args[i:i + 2]
    mode = args[0] if args else "--print"
    if mode not in ("--print", "--check", "--write") or len(args) > 1:
        print("usage: ledger.py [--check | --write] [--root DIR]", file=sys.stderr)
        return 2
    try:
        generated = blocks(root)
        if mode == "--print":
            for page_blocks in generated.values():
                for name, body in page_blocks.items():
                    print(f"## {name}\n\n{body}\n")
            return 0
        pages = {}
        for rel, page_blocks in generated.items():
            path = root / rel
            page = path.read_text()
            pages[rel] = (path, page, render(page, page_blocks, rel))
    except (LedgerError, PageError, ReadingError) as e:
        print(f"ledger: {e}", file=sys.stderr)
        return 1
    if mode == "--check":
        for rel, (path, page, new) in pages.items():
            if new != page:
                old_lines, new_lines = page.splitlines(), new.splitlines()
                first = next((i for i, (a, b) in enumerate(zip(old_lines, new_lines)) if a != b),
                             min(len(old_lines), len(new_lines)))
                print(f"ledger: {rel} differs from its rows at line {first + 1}:\n"
                      f"  page:  {old_lines[first] if first < len(old_lines) else '(end)'}\n"
                      f"  rows:  {new_lines[first] if first < len(new_lines) else '(end)'}\n"
                      "run `python3 benches/ledger/ledger.py --write` after changing the rows or the runs",
                      file=sys.stderr)
                return 1
        print("ledger: docs/REPRODUCTION.md and docs/study-004.md: each follows from its rows and runs")
        return 0
    wrote = 0
    for rel, (path, page, new) in pages.items():
        if new == page:
            continue
        tmp = path.with_name(path.name + ".tmp")
        tmp.write_text(new)
        os.replace(tmp, path)
        print(f"ledger: wrote {path}")
        wrote += 1
    if not wrote:
        print("ledger: the pages already follow from their rows and runs; nothing written")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
