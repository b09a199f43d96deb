#!/usr/bin/env bash
# Re-run the Awale MCTS study's experiments at its settings (Awale as the
# study plays it: awale:6:4, the 500-move cap scored a draw; sides
# alternating; a draw half a point) and print, in markdown, the published
# figures next to the measured ones, as docs/study-001.md quotes them.
#
# Usage: benches/study-001.sh [BUDGET] [SEED]
#   BUDGET: MCTS iterations a move standing for the study's 5 seconds of
#   Python (default 1000; 5000 is the study's own play-out count, five times
#   the run time). The MCTS time grid maps t seconds to t * BUDGET / 5
#   iterations. SEED: default 1.
# Environment:
#   PARTS   which experiments, any of: tournament eps epsmap uct uct15 heavy
#           budget budgetkeep lowc (default: all of them but lowc). epsmap runs the whole
#           21 x 21 epsilon map (benches/study-001/epsmap.py) and rewrites
#           docs/study-001-epsilon-map.csv and .svg; budgetkeep is the budget
#           curve with the tree kept between moves (awale-mcts:T:keep); lowc
#           plays the two points of the c grids that differ at 1,000
#           iterations (UCT and heavy, c = 0.4) at BUDGET, for
#           `benches/study-001.sh 5000` at the study's 5,000 play-outs.
#   BUDGET_GAMES games a point of budget and budgetkeep (default 20)
#   EPSMAP_OUT where epsmap writes study-001-epsilon-map.csv and .svg
#           (default docs/, the tracked page's picture)
#   BIN     the mancala binary (default target/release/mancala, built first
#           unless SKIP_BUILD is set)
#   THREADS worker threads of each match (default: all cores)
# Time at BUDGET 1000: the tournament 11 min on 2 cores; with THREADS=1 (one
# core, measured on a shared machine) eps 1 min, uct 20, uct15 15, heavy 35,
# budget 12; epsmap 2 s on 2 cores; lowc at BUDGET 5000 about 25 minutes. Raw JSON reports are kept in target/study-001/.
set -euo pipefail
cd "$(dirname "$0")/.."
B=${1:-1000}
SEED=${2:-1}
BIN=${BIN:-target/release/mancala}
PARTS=${PARTS:-tournament eps epsmap uct uct15 heavy budget budgetkeep}
BG=${BUDGET_GAMES:-20}
OUT=target/study-001
[ -n "${SKIP_BUILD:-}" ] || cargo build --release --quiet
mkdir -p "$OUT"
G="--game awale:6:4 --seed $SEED"
[ -z "${THREADS:-}" ] || G="$G --threads $THREADS"
want() { [[ " $PARTS " == *" $1 "* ]]; }
t0=$(date +%s)

# Tournament: the five champions of the study plus the as-intended greedy agent.
if want tournament; then
echo "## Tournament of the champions (50 games a pairing, budget $B iterations)"
echo
$BIN tournament random eps-greedy:0.05 eps-greedy:0.95 "awale-mcts:$B" "awale-uct:$B" "awale-heavy:$B" \
  $G --games 50 --json > "$OUT/tournament.json"
python3 - "$OUT/tournament.json" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
a = r["agents"]
print("| row v column | " + " | ".join(a) + " |")
print("|---" * (len(a) + 1) + "|")
for i, x in enumerate(a):
    cells = []
    for j in range(len(a)):
        if i == j:
            cells.append(".")
        else:
            s = r["score"][i][j]
            rel = {"stronger": ">", "weaker": "<", "undecided": "~"}[r["relation"][i][j]]
            cells.append(f"{s*50:.1f}/50 {rel}")
    print(f"| {x} | " + " | ".join(cells) + " |")
print()
print("order:", " > ".join(a[i] for i in r["order"]) if r.get("order") else "no strict order; undecided pairs: "
      + ", ".join(f"{a[i]} ~ {a[j]}" for i, j in r["undecided"]))
PY
fi

# One grid point: `point LABEL PUBLISHED REF CHALLENGER GAMES` plays REF
# against CHALLENGER and prints the challenger's points ratio next to the
# published one, with its 95% interval and the study's verdict at 50 games.
point() {
  local f="$OUT/$(echo "$3-v-$4-$5" | tr ':=/' '___').json"
  $BIN match "$3" "$4" $G --games "$5" --json > "$f" 2>/dev/null
  python3 - "$f" "$1" "$2" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
n = r["games"]
b = 1 - r["a_score"]
lo, hi = 1 - r["a_score_ci95"][1], 1 - r["a_score_ci95"][0]
pts = b * n
# The study's one-sided binomial test at 5% (at 50 games: > from 32 points, < up to 18).
from math import comb
k = next(k for k in range(n + 1) if sum(comb(n, i) for i in range(k, n + 1)) / 2**n < 0.05)
v = "challenger stronger" if pts >= k else ("reference stronger" if pts <= n - k else "undecided")
print(f"| {sys.argv[2]} | {sys.argv[3]} | {b:.3f} ({r['b_wins']}/{r['draws']}/{r['a_wins']}) | {lo:.2f}..{hi:.2f} | {v} |")
PY
}
header() {
  echo
  echo "## $1"
  echo
  echo "| $2 | published points ratio | measured points ratio (W/D/L) | 95% CI | verdict |"
  echo "|---|---|---|---|---|"
}

if want eps; then
  header "Epsilon: eps-greedy:E against eps-greedy:0 (100 games each; E = chance of a random move)" "E"
  for ep in 0.05:0.48 0.10:0.50 0.25:0.39 0.50:0.24 0.75:0.19 0.90:0.10 0.95:0.06 1:0.04; do
    point "${ep%%:*}" "${ep##*:}" eps-greedy:0 "eps-greedy:${ep%%:*}" 100
  done
fi

if want epsmap; then
  echo
  echo "## The 21 x 21 epsilon map (eps-greedy:E against eps-greedy:E', 50 games a cell)"
  echo
  EO=${EPSMAP_OUT:-docs}
  python3 benches/study-001/epsmap.py --bin "$BIN" --seed "$SEED" --jobs "${THREADS:-2}" \
    --csv "$EO/study-001-epsilon-map.csv" --svg "$EO/study-001-epsilon-map.svg"
fi

if want uct; then
  header "UCT constant: awale-uct:$B:c=C against c = sqrt(2)/2 (50 games each)" "C"
  for cp in 0.2:0.000 0.4:0.275 0.5:0.500 0.6:0.511 0.7:0.542 0.8:0.398 0.9:0.391 1.0:0.389 \
            1.2:0.272 1.4:0.208 1.6:0.149 1.8:0.224 2.0:0.135 2.2:0.173; do
    point "${cp%%:*}" "${cp##*:}" "awale-uct:$B" "awale-uct:$B:c=${cp%%:*}" 50
  done
fi

if want uct15; then
  header "UCT constant, cross-check: awale-uct:$B:c=C against c = 1.5 (50 games each)" "C"
  for cp in 0.2:0.060 0.4:0.583 0.6:0.827 0.8:0.809 1.0:0.651 1.2:0.628 1.4:0.550 1.6:0.500 \
            1.8:0.406 2.0:0.348 2.2:0.367; do
    point "${cp%%:*}" "${cp##*:}" "awale-uct:$B:c=1.5" "awale-uct:$B:c=${cp%%:*}" 50
  done
fi

if want heavy; then
  header "Heavy play-outs: awale-heavy:$B:c=C against c = sqrt(2)/2 (50 games each)" "C"
  for cp in 0.2:0.000 0.4:0.130 0.5:0.320 0.6:0.458 0.7:0.478 0.8:0.478 0.9:0.500 0.95:0.409 \
            1.0:0.372 1.2:0.307 1.4:0.287 1.6:0.173 1.8:0.092 2.0:0.106 2.2:0.160; do
    point "${cp%%:*}" "${cp##*:}" "awale-heavy:$B" "awale-heavy:$B:c=${cp%%:*}" 50
  done
  header "Heavy against light play-outs: awale-heavy against awale-uct:$B (50 games each)" "heavy budget"
  point "$B (equal iterations)" "-" "awale-uct:$B" "awale-heavy:$B" 50
  # The study's equal 5 s: its heavy agent made 2,300 play-outs to UCT's 4,700.
  point "$((B * 23 / 47)) (equal time)" "0.568 (88 games, pooled)" "awale-uct:$B" "awale-heavy:$((B * 23 / 47))" 50
fi

if want budget; then
  header "MCTS budget: awale-mcts:T against awale-mcts:$B ($BG games each; T = t seconds * $B / 5)" "t (iterations)"
  for tp in 0.5:0.100 1:0.200 1.5:0.350 2:0.225 3:0.500 5:0.550 7:0.611 10:0.647 15:0.667 20:0.700 \
            30:0.700 40:0.850; do
    t=${tp%%:*}
    it=$(python3 -c "print(round($t * $B / 5))")
    point "$t s ($it)" "${tp##*:}" "awale-mcts:$B" "awale-mcts:$it" "$BG"
  done
fi

# The same curve with both agents keeping their trees between moves, as the
# study's program does. (Its heading is not one verdicts.py counts: the
# published points are those of the budget part.)
if want budgetkeep; then
  header "Tree kept between moves: awale-mcts:T:keep against awale-mcts:$B:keep ($BG games each; T = t seconds * $B / 5)" "t (iterations)"
  for tp in 0.5:0.100 1:0.200 1.5:0.350 2:0.225 3:0.500 5:0.550 7:0.611 10:0.647 15:0.667 20:0.700 \
            30:0.700 40:0.850; do
    t=${tp%%:*}
    it=$(python3 -c "print(round($t * $B / 5))")
    point "$t s ($it)" "${tp##*:}" "awale-mcts:$B:keep" "awale-mcts:$it:keep" "$BG"
  done
fi
# The two points of the c grids that differ at 1,000 iterations, at BUDGET
# (its headings are not ones verdicts.py counts: the grids above are).
if want lowc; then
  header "Low c at the budget: awale-uct:$B:c=0.4 against c = sqrt(2)/2 (50 games)" "C"
  point 0.4 0.275 "awale-uct:$B" "awale-uct:$B:c=0.4" 50
  header "Low c at the budget, heavy: awale-heavy:$B:c=0.4 against c = sqrt(2)/2 (50 games)" "C"
  point 0.4 0.130 "awale-heavy:$B" "awale-heavy:$B:c=0.4" 50
fi
echo
echo "total time: $(( $(date +%s) - t0 )) s"
