#!/usr/bin/env bash
# Solve-time benchmarks of `mancala solve` (release build). Medians of RUNS
# runs of the search time reported by the solver (`solve_seconds` in --json:
# the value search only; table loading and the principal variation excluded).
#
# Usage: benches/solve.sh [kalah64|threads|enhancements|tables65|all]
#   RUNS=5 (runs per measurement), DB=db (table directory; missing tables
#   are built first, which takes ~2 min for 20 seeds and ~10 min for 24).
#
#   kalah64       Kalah(6,4), tables up to 20 seeds, 1 and 2 threads.
#   threads       1 vs 2 threads on Kalah(6,4) and Kalah(5,4) (speed-up).
#   enhancements  each enhancement switched off in turn, Kalah(5,4) with
#                 5-pit tables up to 16 seeds and Kalah(6,3) without tables.
#   tables65      Kalah(6,5) with tables up to 20, 22 and 24 seeds (long).
set -euo pipefail
cd "$(dirname "$0")/.."
RUNS=${RUNS:-5}
DB=${DB:-db}
BIN=target/release/mancala
cargo build --release --quiet

median() { sort -g | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }

# measure LABEL ARGS...: prints label, median seconds, value, nodes.
measure() {
  local label=$1; shift
  local times=() out value nodes
  for _ in $(seq "$RUNS"); do
    out=$("$BIN" solve kalah "$@" --db "$DB" --json --quiet)
    times+=("$(grep -o '"solve_seconds": [0-9.e-]*' <<<"$out" | awk '{print $2}')")
    value=$(grep -o '"value": -\?[0-9]*' <<<"$out" | head -1 | awk '{print $2}')
    nodes=$(grep -o '"nodes": [0-9]*' <<<"$out" | awk '{print $2}')
  done
  printf '%-44s median %9.3f s  (runs: %s)  value %+d  nodes %s\n' \
    "$label" "$(printf '%s\n' "${times[@]}" | median)" "${times[*]}" "$value" "$nodes"
}

tables() { "$BIN" build kalah --pits "$1" --max-seeds "$2" --db "$DB" >/dev/null; }

kalah64() {
  tables 6 20
  measure "Kalah(6,4) K=20 1 thread" 6 4 --max-table-seeds 20 --threads 1
  measure "Kalah(6,4) K=20 2 threads" 6 4 --max-table-seeds 20 --threads 2
}

threads() {
  tables 6 20; tables 5 16
  for t in 1 2; do
    measure "Kalah(5,4) K=16 $t thread(s)" 5 4 --max-table-seeds 16 --threads "$t"
    measure "Kalah(6,4) K=20 $t thread(s)" 6 4 --max-table-seeds 20 --threads "$t"
  done
}

enhancements() {
  tables 5 16
  for off in "" --no-tt --no-futility --no-etc --no-tables "--id-step 3 --id-jump 30"; do
    # shellcheck disable=SC2086
    measure "Kalah(5,4) K=16 ${off:-all on}" 5 4 --max-table-seeds 16 --threads 1 $off
  done
  for off in "" --no-futility --no-etc "--id-step 3 --id-jump 30"; do
    # shellcheck disable=SC2086
    measure "Kalah(6,3) no tables ${off:-all on}" 6 3 --max-table-seeds 0 --threads 1 $off
  done
}

tables65() {
  for k in 20 22 24; do
    tables 6 "$k"
    RUNS=${RUNS65:-1} measure "Kalah(6,5) K=$k 2 threads" 6 5 --max-table-seeds "$k" --threads 2 --tt-mb 4096
  done
}

case "${1:-kalah64}" in
  kalah64) kalah64 ;;
  threads) threads ;;
  enhancements) enhancements ;;
  tables65) tables65 ;;
  all) kalah64; threads; enhancements; tables65 ;;
  *) echo "usage: benches/solve.sh [kalah64|threads|enhancements|tables65|all]" >&2; exit 2 ;;
esac
