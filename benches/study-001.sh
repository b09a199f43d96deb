#!/usr/bin/env bash
# Re-run the Awale MCTS study's experiments at its settings (50 games a
# pairing, sides alternating, Awale as the study plays it: awale:6:4, the
# 500-move cap scored a draw) and print the measured tables in markdown,
# as docs/study-001.md quotes them.
#
# Usage: benches/study-001.sh [BUDGET] [SEED]
#   BUDGET: MCTS iterations per move standing for the study's 5 seconds of
#   Python (default 1000; docs/study-001.md says why), SEED default 1.
# Takes about 20 minutes on 2 cores (release build). Raw JSON reports are
# kept in target/study-001/.
set -euo pipefail
cd "$(dirname "$0")/.."
B=${1:-1000}
SEED=${2:-1}
BIN=${BIN:-target/release/mancala}
OUT=target/study-001
[ -n "${SKIP_BUILD:-}" ] || cargo build --release --quiet
mkdir -p "$OUT"
G="--game awale:6:4 --games 50 --seed $SEED"
t0=$(date +%s)

echo "## Tournament of the champions (50 games a pairing, budget $B iterations)"
$BIN tournament random eps-greedy:0.05 eps-greedy:0.95 "awale-mcts:$B" "awale-uct:$B" "awale-heavy:$B" \
  $G --json > "$OUT/tournament.json"
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

row() { # A B -> "| B | points of A | 95% CI | verdict |"
  $BIN match "$1" "$2" $G --json 2>/dev/null | python3 -c "
import json,sys; r=json.load(sys.stdin); p=r['a_score']*50
lo,hi=r['a_score_ci95']
v='A stronger' if p>=32 else ('B stronger' if p<=18 else 'undecided')
print(f\"| {r['b']} | {p:.1f} | {lo*50:.1f}..{hi*50:.1f} | {v} |\")"
}

echo
echo "## Epsilon: eps-greedy:0.95 against other epsilons (50 games each)"
echo "| opponent | points of eps-greedy:0.95 of 50 | 95% CI | verdict |"
echo "|---|---|---|---|"
for e in 0 0.05 0.25 0.5 0.75 1; do row eps-greedy:0.95 "eps-greedy:$e"; done

echo
echo "## UCT constant: awale-uct:$B (c = sqrt(2)/2) against other c (50 games each)"
echo "| opponent | points of c = 0.707 of 50 | 95% CI | verdict |"
echo "|---|---|---|---|"
for c in 0.2 0.4 0.6 1.0 1.4 1.8 2.2; do row "awale-uct:$B" "awale-uct:$B:c=$c"; done

echo
echo "## MCTS budget: awale-mcts:$B against other budgets (50 games each)"
echo "| opponent | points of awale-mcts:$B of 50 | 95% CI | verdict |"
echo "|---|---|---|---|"
for m in 100 200 400 2000 4000; do row "awale-mcts:$B" "awale-mcts:$m"; done

echo
echo "## Heavy play-outs: awale-heavy:$B against awale-uct:$B"
echo "| opponent | points of awale-heavy of 50 | 95% CI | verdict |"
echo "|---|---|---|---|"
row "awale-heavy:$B" "awale-uct:$B"
echo
echo "total time: $(( $(date +%s) - t0 )) s"
