#!/usr/bin/env bash
# Solving Kalah's Table 7: the tree reduction due to futility pruning, with
# and without endgame tables (docs/SOLVER.md, "Table 7"). One thread, the
# search's nodes with and without --no-futility, for Kalah(6,3) without
# tables and for Kalah(6,3) and (6,4) with the 6-pit tables up to K seeds.
# About 5 minutes; builds the 6-pit tables up to 20 seeds into DB first if
# they are missing (a few minutes more).
#
#   benches/kalah2000/table7.sh [MANCALA] [DB]
set -euo pipefail
MANCALA=${1:-target/release/mancala}
DB=${2:-db}
nodes() {
  "$MANCALA" solve kalah "$@" --threads 1 --db "$DB" --json 2>/dev/null |
    python3 -c 'import json,sys; print(json.load(sys.stdin)["stats"]["nodes"])'
}
"$MANCALA" build kalah --pits 6 --max-seeds 20 --db "$DB" > /dev/null 2>&1
echo "| Kalah | tables to | nodes with futility | nodes without | fewer with futility |"
echo "|---|---:|---:|---:|---:|"
row() {
  local m=$1 n=$2 k=$3
  local a b
  a=$(nodes "$m" "$n" --max-table-seeds "$k")
  b=$(nodes "$m" "$n" --max-table-seeds "$k" --no-futility)
  python3 -c "a, b = $a, $b; print(f'| ($m,$n) | $k | {a:,} | {b:,} | {100 * (b - a) / b:.1f}% |')"
}
row 6 3 0
for k in 8 12 14 16 20; do row 6 3 "$k"; done
for k in 12 14 16 18 20; do row 6 4 "$k"; done
