#!/usr/bin/env bash
# Re-run the Kalah agents study's table 1 (the cross table of first-player
# win percentages: random, max, alpha-beta 4, heuristic minimax 4, MCTS
# 4000, A3C) and table 2 (the round robin of single heuristics), under the
# study's own rules (kalah:6:4:capture-needs-opposite), and write
# docs/study-004.md: published figure, measured figure, 95% interval and
# verdict for every cell.
#
# Usage: benches/study-004.sh [--seed S] [--games N] [--mcts-games N]
#                             [--out FILE] [--threads T] [--fresh]
#   --games       games per cell (default 1000, as published)
#   --mcts-games  games per cell with an MCTS player (default 200: MCTS
#                 4000 thinks about 45 ms a move)
#   --out         where the markdown goes (default docs/study-004.md)
#   --fresh       play every match again (by default a match whose report
#                 of the same command is in target/study-004/ is reused,
#                 so a stopped run resumes where it stopped)
# Environment: BIN (default target/release/mancala, built first unless
# SKIP_BUILD is set). The whole run takes about 35 minutes on 2 cores.
set -euo pipefail
cd "$(dirname "$0")/.."
BIN=${BIN:-target/release/mancala}
[ -n "${SKIP_BUILD:-}" ] || cargo build --release --quiet
exec python3 benches/study-004/run.py --bin "$BIN" "$@"
