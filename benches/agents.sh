#!/usr/bin/env bash
# Per-move thinking times of every agent (release build), each agent playing
# `random` on one thread, from `mancala match --json` (a_time: mean and
# longest move of agent A; random opening moves are not timed).
#
# Usage: benches/agents.sh [GAME]      GAME defaults to awari:6:4
#   e.g. benches/agents.sh kalah:6:4, benches/agents.sh oware:6:4
#
# The machine's load shows in the maxima (a preempted move); the means over
# thousands of moves are the figures to quote.
set -euo pipefail
cd "$(dirname "$0")/.."
GAME=${1:-awari:6:4}
BIN=target/release/mancala
cargo build --release --quiet
echo "$GAME, each agent v random, seed 1, 1 thread"
for spec in "random 200" "greedy 200" "minimax:4 100" "alphabeta:4 100" \
    "alphabeta:8 40" "heuristic:4 100" "heuristic:8 40" "mcts:1000 20" \
    "mcts:1000:playout=heavy 20" "mcts:1000:playout=eps-greedy 10" \
    "perfect:100ms 4" "perfect 2"; do
  set -- $spec
  $BIN match "$1" random --game "$GAME" --games "$2" --seed 1 --threads 1 --json 2>/dev/null |
    python3 -c "import json,sys; r=json.load(sys.stdin); t=r['a_time']; print(f\"{r['a']:32s} {r['games']:4d} games {t['moves']:6d} moves  mean {t['mean_seconds']*1e3:10.4f} ms  max {t['max_seconds']*1e3:9.3f} ms  score v random {r['a_score']:.3f}\")"
done
