#!/usr/bin/env bash
# Re-run the five-game study's tables 5.1 to 5.75 (Awari, Oware, Vai Lung
# Thlan, Ohvalhu, Kalah; random, greedy, minimax, alpha-beta, heuristic
# minimax and UCT at the study's depths, budgets, openings and sides) and
# write docs/study-000.md: published figure, measured figure, 95% interval
# and verdict for every row.
#
# Usage: benches/study-000.sh [--seed S] [--tables "5.2 5.7"] [--games N]
#                             [--out FILE] [--threads T] [--fresh]
#   --tables  only these tables (default: all of them)
#   --games   games per match instead of the study's (200; 1000 in 5.1)
#   --out     where the markdown goes (default docs/study-000.md)
#   --fresh   play every match again (by default a match whose report of
#             the same command is in target/study-000/ is reused, so a
#             stopped run resumes where it stopped)
# Environment: BIN (default target/release/mancala, built first unless
# SKIP_BUILD is set); PLAIN_MINIMAX=1 runs BMM8 as plain minimax rather
# than as the move-for-move identical alpha-beta (much slower).
# Raw JSON reports are kept in target/study-000/. The whole run takes
# 30 to 45 minutes on 2 cores.
set -euo pipefail
cd "$(dirname "$0")/.."
BIN=${BIN:-target/release/mancala}
[ -n "${SKIP_BUILD:-}" ] || cargo build --release --quiet
exec python3 benches/study-000/run.py --bin "$BIN" "$@"
