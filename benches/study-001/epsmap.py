"""The Awale study's 21 x 21 epsilon map: eps-greedy:E (the row) against
eps-greedy:E' (the column) for E, E' in 0, 0.05, ..., 1, 50 games a cell on
awale:6:4, sides alternating, a draw half a point (22,050 games). Writes the
row agent's points ratio of every cell as CSV and draws the map as SVG;
prints, in markdown, what the map shows. Stdlib only:

    python3 benches/study-001/epsmap.py [--bin BIN] [--seed S] [--games N]
        [--jobs J] [--csv FILE] [--svg FILE]

Each cell is one `mancala match eps-greedy:E eps-greedy:E' --game awale:6:4
--games N --seed S*10^6 + 100 i + j --threads 1` (i, j the row's and the
column's index), J of them at a time (default 2); the raw JSON reports are
kept in target/study-001/epsmap/. E is the chance of a random move (the
study's code; docs/study-001.md, "The epsilon reading").
"""

import argparse
import concurrent.futures
import json
import os
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from reports import wilson  # noqa: E402

STEPS = 21
EPS = [k / 20 for k in range(STEPS)]
RAW = "target/study-001/epsmap"


def spec(e: float) -> str:
    return f"eps-greedy:{e:g}"


def cell(args, i: int, j: int) -> dict:
    cmd = [args.bin, "match", spec(EPS[i]), spec(EPS[j]), "--game", "awale:6:4", "--games", str(args.games),
           "--seed", str(args.seed * 10**6 + 100 * i + j), "--threads", "1", "--json"]
    r = subprocess.run(cmd, capture_output=True, text=True)
    if r.returncode != 0:
        sys.exit(f"{' '.join(cmd)} failed: {r.stderr.strip()}")
    with open(os.path.join(RAW, f"{i:02}-{j:02}.json"), "w") as f:
        f.write(r.stdout)
    rep = json.loads(r.stdout)
    return {"games": rep["games"], "wins": rep["a_wins"], "draws": rep["draws"], "losses": rep["b_wins"]}


def colour(x: float) -> str:
    """Red (the row loses every game) through white (half) to blue (wins)."""
    lo, mid, hi = (178, 24, 43), (247, 247, 247), (33, 102, 172)
    a, b, t = (lo, mid, x * 2) if x < 0.5 else (mid, hi, x * 2 - 1)
    return "#" + "".join(f"{round(p + (q - p) * t):02x}" for p, q in zip(a, b))


def svg(ratio, games: int) -> str:
    size, left, top = 30, 80, 70
    side = size * STEPS
    width, height = left + side + 110, top + side + 60
    title = (f"Awale (awale:6:4): eps-greedy:E (row) against eps-greedy:E' (column), "
             f"the row's points ratio over {games} games a cell")
    out = ['<?xml version="1.0" encoding="UTF-8"?>',
           f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
           f'viewBox="0 0 {width} {height}" font-family="sans-serif" font-size="12">',
           '<rect width="100%" height="100%" fill="white"/>',
           f'<title>{title}</title><text class="title" x="{left}" y="25" font-size="15">'
           'eps-greedy:E (row) against eps-greedy:E\' (column), awale:6:4</text>',
           f'<text class="subtitle" x="{left}" y="45">the row\'s points ratio (x 100) over {games} games a cell; '
           'E = chance of a random move</text>',
           '<g class="cells" font-size="9" text-anchor="middle">']
    for i in range(STEPS):
        for j in range(STEPS):
            x, y, r = left + j * size, top + i * size, ratio[i][j]
            ink = "white" if abs(r - 0.5) > 0.3 else "black"
            out.append(f'<rect x="{x}" y="{y}" width="{size}" height="{size}" fill="{colour(r)}"/>'
                       f'<text x="{x + size / 2}" y="{y + size / 2 + 3}" fill="{ink}">{round(r * 100)}</text>')
    out.append("</g>")
    out.append(f'<g class="axes" stroke="black" fill="none"><rect x="{left}" y="{top}" width="{side}" '
               f'height="{side}"/></g>')
    out.append('<g class="y-ticks" text-anchor="end">')
    for k in range(0, STEPS, 2):
        out.append(f'<text x="{left - 6}" y="{top + k * size + size / 2 + 4}">{EPS[k]:g}</text>')
    out.append('</g><g class="x-ticks" text-anchor="middle">')
    for k in range(0, STEPS, 2):
        out.append(f'<text x="{left + k * size + size / 2}" y="{top + side + 16}">{EPS[k]:g}</text>')
    out.append("</g>")
    out.append(f'<text class="y-label" transform="translate(22,{top + side / 2}) rotate(-90)" '
               'text-anchor="middle">E, the row agent</text>')
    out.append(f'<text class="x-label" x="{left + side / 2}" y="{top + side + 40}" '
               'text-anchor="middle">E\', the column agent</text>')
    # The colour scale.
    lx, lh = left + side + 30, side
    out.append('<g class="scale">')
    for k in range(50):
        v = 1 - (k + 0.5) / 50
        out.append(f'<rect x="{lx}" y="{top + k * lh / 50:.1f}" width="20" height="{lh / 50 + 0.5:.1f}" '
                   f'fill="{colour(v)}"/>')
    out.append(f'<rect x="{lx}" y="{top}" width="20" height="{lh}" stroke="black" fill="none"/>')
    for v in (0, 0.25, 0.5, 0.75, 1):
        out.append(f'<text x="{lx + 26}" y="{top + (1 - v) * lh + 4:.1f}">{v:g}</text>')
    out.append("</g>")
    out.append("</svg>")
    return "\n".join(out) + "\n"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--bin", default="target/release/mancala")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--games", type=int, default=50)
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--csv", default="docs/study-001-epsilon-map.csv")
    ap.add_argument("--svg", default="docs/study-001-epsilon-map.svg")
    args = ap.parse_args()
    os.makedirs(RAW, exist_ok=True)
    pairs = [(i, j) for i in range(STEPS) for j in range(STEPS)]
    with concurrent.futures.ThreadPoolExecutor(args.jobs) as pool:
        done = dict(zip(pairs, pool.map(lambda p: cell(args, *p), pairs)))
    ratio = [[(done[i, j]["wins"] + done[i, j]["draws"] / 2) / done[i, j]["games"] for j in range(STEPS)]
             for i in range(STEPS)]
    with open(args.csv, "w") as f:
        f.write("row_eps,column_eps,games,row_wins,draws,row_losses,row_points_ratio\n")
        for (i, j), c in done.items():
            f.write(f"{EPS[i]:g},{EPS[j]:g},{c['games']},{c['wins']},{c['draws']},{c['losses']},"
                    f"{ratio[i][j]:.3f}\n")
    with open(args.svg, "w") as f:
        f.write(svg(ratio, args.games))
    games = sum(c["games"] for c in done.values())
    print(f"{len(done)} cells, {games} games; written {args.csv} and {args.svg}\n")
    # What the map shows, in numbers.
    diag = [ratio[k][k] for k in range(STEPS)]
    diag_pts = sum(done[k, k]["wins"] + done[k, k]["draws"] / 2 for k in range(STEPS))
    diag_n = sum(done[k, k]["games"] for k in range(STEPS))
    lo, hi = wilson(diag_pts, diag_n)
    print(f"- the diagonal (E = E'): mean points ratio {diag_pts / diag_n:.3f} over {diag_n} games "
          f"(Wilson 95% {lo:.3f}-{hi:.3f}); cells from {min(diag):.2f} to {max(diag):.2f}")
    sym = [ratio[i][j] + ratio[j][i] for i in range(STEPS) for j in range(i + 1, STEPS)]
    print(f"- the two orders of a pair (E against E' and E' against E): their ratios sum to "
          f"{sum(sym) / len(sym):.3f} on average (1 when the map is antisymmetric), "
          f"from {min(sym):.2f} to {max(sym):.2f}")
    below = sum(ratio[i][j] > 0.5 for i in range(STEPS) for j in range(STEPS) if i < j)
    above = sum(ratio[i][j] < 0.5 for i in range(STEPS) for j in range(STEPS) if i > j)
    pairs_n = STEPS * (STEPS - 1) // 2
    print(f"- the lower E scores above half in {below} of the {pairs_n} cells above the diagonal "
          f"(row E < column E') and the higher E below half in {above} of the {pairs_n} below it")
    falls = sum(ratio[i + 1][j] <= ratio[i][j] for i in range(STEPS - 1) for j in range(STEPS))
    print(f"- down a column (the row's E up by 0.05, the same opponent) the ratio does not rise in "
          f"{falls} of {(STEPS - 1) * STEPS} steps")
    means = [sum(r) / STEPS for r in ratio]
    print("- row means (the row agent against all 21 columns): "
          + ", ".join(f"{EPS[i]:g}: {m:.2f}" for i, m in enumerate(means)))
    print(f"- the row against E' = 1 (a random agent): E = 0 scores {ratio[0][-1]:.2f}, "
          f"E = 0.5 {ratio[10][-1]:.2f}, E = 0.95 {ratio[19][-1]:.2f}")


if __name__ == "__main__":
    main()
