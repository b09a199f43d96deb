#!/usr/bin/env bash
# Grade every agent of the studies against perfect play (`mancala grade`)
# and write docs/grades.md: share of perfect moves and mean value lost per
# move, with 95% intervals, overall and by phase.
#
# Usage: benches/grade-all.sh [--positions N] [--seed S] [--search-ms MS]
#                             [--games "kalah:6:4 awari:6:4"] [--fresh]
# Needs the 6-pit Kalah tables in db/ (built on first use: mancala build
# kalah --pits 6 --max-seeds 20, about 15 s) and, for Awari and Oware, their
# 6-pit tables up to 24 seeds (mancala build awari|oware --pits 6
# --max-seeds 24, about 8 minutes each); games without tables are skipped.
# Reports are kept in target/grades/ and reused for the same command, so a
# stopped run resumes. Environment: BIN (default target/release/mancala,
# built first unless SKIP_BUILD is set). About 25 minutes on 2 cores.
set -euo pipefail
cd "$(dirname "$0")/.."
BIN=${BIN:-target/release/mancala}
[ -n "${SKIP_BUILD:-}" ] || cargo build --release --quiet
exec python3 benches/grade-all/run.py --bin "$BIN" "$@"
