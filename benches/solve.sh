#!/usr/bin/env bash
# Solve-time benchmarks of `mancala solve` (release build). Medians of RUNS
# runs of the search time reported by the solver (`solve_seconds` in --json:
# the value search only; table loading and the principal variation excluded),
# of the time to decode the tables into memory before the search
# (`table_load_seconds`), and of the process's user CPU time (`/usr/bin/time`;
# everything, the decoding included; the machine is shared, so wall times vary
# with the load, CPU time much less).
#
# Usage: benches/solve.sh [kalah64|search64|threads|enhancements|ordering|kalah55|kalah56|tables65|all]
#   RUNS=5 (runs per measurement), DB=db (table directory; missing tables
#   are built first, which takes ~2 min for 20 seeds and ~10 min for 24).
#
#   kalah64       Kalah(6,4), tables up to 20 seeds, 1 and 2 threads.
#   search64      the search on one thread: Kalah(6,4) under --rules default
#                 and --rules capture-needs-opposite, tables up to 20 seeds.
#                 With BIN_OLD=PATH (another build of `mancala`), that
#                 binary and this one run alternately (old, new, old, ...)
#                 in the same run, RUNS times each, side by side; values
#                 must agree (the script stops otherwise).
#   threads       1 vs 2 threads on Kalah(6,4) and Kalah(5,4) (speed-up).
#   enhancements  each enhancement switched off in turn (the near
#                 transposition table and the tables in memory included; and the published
#                 search schedule and move order instead of the defaults),
#                 Kalah(5,4) with 5-pit tables up to 16 seeds and Kalah(6,3)
#                 without tables.
#   ordering      the move orders (--order banked|published) on the starts
#                 of Kalah(6,4) and Kalah(5,5) and on 20 random positions
#                 of each (benches/ordering.rs), 1 thread, tables to 20 seeds.
#   kalah55       Kalah(5,5), 5-pit tables up to 24 seeds, 1 and 2 threads.
#   kalah56       Kalah(5,6), 5-pit tables up to 30 seeds, 2 threads (long;
#                 TIME56=SECONDS stops it there with proven bounds).
#   tables65      Kalah(6,5) with tables up to 20, 22, 24 and 26 seeds
#                 (long: hours; TIME65=SECONDS stops each solve there with
#                 proven bounds; SEEDS65="26" picks the table sizes).
set -euo pipefail
cd "$(dirname "$0")/.."
RUNS=${RUNS:-5}
DB=${DB:-db}
BIN=${BIN:-target/release/mancala}
cargo build --release --quiet

median() { sort -g | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }

# measure LABEL ARGS...: prints label, median search seconds, median table
# decoding seconds, median user CPU seconds, value (or proven bounds when
# stopped), nodes.
measure() {
  local label=$1; shift
  local times=() loads=() users=() out value nodes cpu
  cpu=$(mktemp)
  for _ in $(seq "$RUNS"); do
    out=$(/usr/bin/time -f %U -o "$cpu" "$BIN" solve kalah "$@" --db "$DB" --json --quiet)
    times+=("$(grep -o '"solve_seconds": [0-9.e-]*' <<<"$out" | awk '{print $2}')")
    loads+=("$(grep -o '"table_load_seconds": [0-9.e-]*' <<<"$out" | awk '{print $2}')")
    users+=("$(tail -1 "$cpu")")
    value=$(grep -o '"value": -\?[0-9]*' <<<"$out" | head -1 | awk '{print $2}')
    if grep -q '"exact": false' <<<"$out"; then
      value="not proven, in [$(grep -o '"lower": -\?[0-9]*' <<<"$out" | awk '{print $2}'), $(grep -o '"upper": -\?[0-9]*' <<<"$out" | awk '{print $2}')]"
    fi
    nodes=$(grep -o '"nodes": [0-9]*' <<<"$out" | awk '{print $2}')
  done
  rm -f "$cpu"
  printf '%-34s median %8.3f s (runs: %s)  tables decoded in %.2f s  user CPU %8.2f s (runs: %s)  value %s  nodes %s\n' \
    "$label" "$(printf '%s\n' "${times[@]}" | median)" "${times[*]}" \
    "$(printf '%s\n' "${loads[@]}" | median)" \
    "$(printf '%s\n' "${users[@]}" | median)" "${users[*]}" "$value" "$nodes"
}

tables() { "$BIN" build kalah --pits "$1" --max-seeds "$2" --db "$DB" "${@:3}" >/dev/null; }

# pair LABEL ARGS...: `mancala solve kalah ARGS` by $BIN_OLD (if set) and
# $BIN, alternately, RUNS times each; for each binary the median search
# seconds, median user CPU seconds (the table decoding included), nodes
# and value.
pair() {
  local label=$1; shift
  local bins=("$BIN") names=(new)
  if [ -n "${BIN_OLD:-}" ]; then bins=("$BIN_OLD" "$BIN"); names=(old new); fi
  local -A times users nodes values loads
  local cpu out i
  cpu=$(mktemp)
  for _ in $(seq "$RUNS"); do
    for i in "${!bins[@]}"; do
      out=$(/usr/bin/time -f %U -o "$cpu" "${bins[$i]}" solve kalah "$@" --db "$DB" --json --quiet --no-build)
      times[$i]+="$(grep -o '"solve_seconds": [0-9.e-]*' <<<"$out" | awk '{print $2}') "
      loads[$i]+="$(grep -o '"table_load_seconds": [0-9.e-]*' <<<"$out" | awk '{print $2}') "
      users[$i]+="$(tail -1 "$cpu") "
      nodes[$i]=$(grep -o '"nodes": [0-9]*' <<<"$out" | awk '{print $2}')
      values[$i]=$(grep -o '"value": -\?[0-9]*' <<<"$out" | head -1 | awk '{print $2}')
    done
  done
  rm -f "$cpu"
  for i in "${!bins[@]}"; do
    printf '%-40s %-3s search median %7.3f s (%s)  user CPU median %7.2f s (%s)  tables decoded %.2f s  nodes %s  value %s\n' \
      "$label" "${names[$i]}" "$(tr ' ' '\n' <<<"${times[$i]}" | grep . | median)" "${times[$i]% }" \
      "$(tr ' ' '\n' <<<"${users[$i]}" | grep . | median)" "${users[$i]% }" \
      "$(tr ' ' '\n' <<<"${loads[$i]}" | grep . | median)" "${nodes[$i]}" "${values[$i]}"
  done
  if [ -n "${BIN_OLD:-}" ] && [ "${values[0]}" != "${values[1]}" ]; then
    echo "$label: the values differ (old ${values[0]}, new ${values[1]})" >&2
    exit 1
  fi
}

search64() {
  local rules
  for rules in default capture-needs-opposite; do
    tables 6 20 --rules "$rules"
    pair "Kalah(6,4) K=20 1 thread $rules" 6 4 --max-table-seeds 20 --threads 1 --rules "$rules"
  done
}

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
  for off in "" --no-tt "--near-tt-kb 0" --no-futility --no-etc --etc-main-tt --no-tables "--table-memory-mb 0" "--id-step 0" "--id-step 3 --id-jump 30" "--order published"; do
    # shellcheck disable=SC2086
    measure "Kalah(5,4) K=16 ${off:-all on}" 5 4 --max-table-seeds 16 --threads 1 $off
  done
  for off in "" "--near-tt-kb 0" --no-futility --no-etc --etc-main-tt "--id-step 0" "--id-step 3 --id-jump 30" "--order published"; do
    # shellcheck disable=SC2086
    measure "Kalah(6,3) no tables ${off:-all on}" 6 3 --max-table-seeds 0 --threads 1 $off
  done
}

ordering() {
  tables 6 20; tables 5 20
  for order in published banked; do
    measure "Kalah(6,4) K=20 order $order" 6 4 --max-table-seeds 20 --threads 1 --order "$order"
    measure "Kalah(5,5) K=20 order $order" 5 5 --max-table-seeds 20 --threads 1 --order "$order"
  done
  DB="$DB" cargo bench --quiet --bench ordering
}

kalah55() {
  tables 5 24
  for t in 1 2; do
    measure "Kalah(5,5) K=24 $t thread(s)" 5 5 --max-table-seeds 24 --threads "$t" --tt-mb 2048
  done
}

kalah56() {
  local limit=()
  if [ -n "${TIME56:-}" ]; then limit=(--time "$TIME56"); fi
  tables 5 30
  RUNS=${RUNS56:-1} measure "Kalah(5,6) K=30 2 threads" 5 6 --max-table-seeds 30 --threads 2 --tt-mb 8192 "${limit[@]}"
}

tables65() {
  local limit=()
  if [ -n "${TIME65:-}" ]; then limit=(--time "$TIME65"); fi
  for k in ${SEEDS65:-20 22 24 26}; do
    tables 6 "$k"
    RUNS=${RUNS65:-1} measure "Kalah(6,5) K=$k 2 threads" 6 5 --max-table-seeds "$k" --threads 2 --tt-mb 8192 "${limit[@]}"
  done
}

case "${1:-kalah64}" in
  kalah64) kalah64 ;;
  search64) search64 ;;
  threads) threads ;;
  enhancements) enhancements ;;
  ordering) ordering ;;
  kalah55) kalah55 ;;
  kalah56) kalah56 ;;
  tables65) tables65 ;;
  all) kalah64; threads; enhancements; ordering; kalah55; kalah56; tables65 ;;
  *) echo "usage: benches/solve.sh [kalah64|search64|threads|enhancements|ordering|kalah55|kalah56|tables65|all]" >&2; exit 2 ;;
esac
