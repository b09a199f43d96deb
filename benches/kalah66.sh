#!/usr/bin/env bash
# The Kalah(6,6) cost model and the checkpointed solve of its start
# (docs/kalah-6-6.md).
#
# Usage: benches/kalah66.sh [model|anchors|start|all]
#   model  random positions a few plies from the start of Kalah(6,6) (the
#          first of each random game with at most 48, 51, ..., 60 seeds in
#          play; IN_PLAY, COUNT) solved on one thread with the tables up to
#          32, 28 and 24 seeds (TABLES), LIMIT seconds each (default 90):
#          target/kalah66/solves.csv (CSV=NAME.csv keeps runs apart), then
#          the fit of every target/kalah66/solves*.csv and its
#          extrapolation to the start (benches/kalah66/fit.py) in
#          target/kalah66/fit.md.
#          About 30-40 minutes with the defaults.
#   anchors the starts of Kalah(6,4) and Kalah(6,5) (48 and 60 seeds in
#          play) solved the same way (one thread, tables up to 32, 28 and
#          24 seeds): the model's prediction at 48 and 60 seeds against a
#          real start, in target/kalah66/anchors.csv (a few minutes).
#   start  the solve of the start with the tables up to 32 seeds, in pieces
#          of PIECE seconds (default 1200), PIECES of them (default 3), each
#          resuming the checkpoint target/kalah66/start.ckpt of the one
#          before (a piece stopped by Ctrl-C leaves its checkpoint too); the
#          JSON result of every piece (proven bounds, opening-move bounds) in
#          target/kalah66/start-N.json (N goes on from the last one).
#          NAME=start-g2 keeps a second solve apart (its checkpoint
#          target/kalah66/NAME.ckpt, its results NAME-N.json); GUESS=G makes
#          a fresh solve's first full-depth MTD(f) pass a null-window test
#          at G, skipping the iterative deepening (--id-step 0 --guess G).
#          ENTRIES=N keeps N transposition entries in each checkpoint
#          (default 32,000,000, about 140 MB: a resumed piece starts from
#          them, of the about 270 million a 4 GiB table holds).
#          MAX_TABLE_SEEDS=30 uses the tables up to 30 seeds (default 32):
#          docs/kalah-6-6.md's second run is
#          MAX_TABLE_SEEDS=30 THREADS=2 PIECES=2 PIECE=1200 GUESS=0 NAME=low
# DB=dir (default db) must hold the 6-pit tables up to 32 seeds (or the
# largest of TABLES, or MAX_TABLE_SEEDS): `mancala build kalah --pits 6
# --max-seeds 32`; on this machine the tables up to 30 take 7 minutes idle
# (11.2 GiB at the peak), 31 and 32 another 18 and 24 minutes (15.8 GiB at
# the peak; docs/SCALING.md).
set -euo pipefail
cd "$(dirname "$0")/.."
DB=${DB:-db}
OUT=target/kalah66
mkdir -p "$OUT"
cargo build --release --quiet

model() {
  DB="$DB" IN_PLAY=${IN_PLAY:-"48 51 54 57 60"} COUNT=${COUNT:-4} TABLES=${TABLES:-"32 28 24"} \
    LIMIT=${LIMIT:-90} cargo bench --quiet --bench kalah66 > "$OUT/${CSV:-solves.csv}"
  python3 benches/kalah66/fit.py "$OUT"/solves*.csv | tee "$OUT/fit.md"
}

anchors() {
  echo "game,tables,exact,value,nodes,seconds" > "$OUT/anchors.csv"
  local n k out
  for n in 4 5; do
    for k in ${TABLES:-32 28 24}; do
      out=$(target/release/mancala solve kalah 6 "$n" --db "$DB" --max-table-seeds "$k" --no-build \
        --threads 1 --tt-mb 1024 --table-memory-mb "${TABLE_MB:-8192}" --json --quiet)
      echo "6-$n,$k,$(grep -o '"exact": [a-z]*' <<<"$out" | awk '{print $2}'),$(grep -o '"value": -\?[0-9]*' <<<"$out" | head -1 | awk '{print $2}'),$(grep -o '"nodes": [0-9]*' <<<"$out" | awk '{print $2}'),$(grep -o '"solve_seconds": [0-9.e-]*' <<<"$out" | awk '{print $2}')" | tee -a "$OUT/anchors.csv"
    done
  done
  python3 benches/kalah66/fit.py "$OUT"/solves*.csv --at 48 60
}

start() {
  local i name=${NAME:-start} first=()
  if [ -n "${GUESS:-}" ]; then first=(--id-step 0 --guess "$GUESS"); fi
  for i in $(seq "${PIECES:-3}"); do
    local resume=() n=1
    while [ -f "$OUT/$name-$n.json" ]; do n=$((n + 1)); done
    if [ -f "$OUT/$name.ckpt" ]; then resume=(--resume "$OUT/$name.ckpt"); fi
    # Exit 0: the piece reached its time limit (or the end); 130: stopped by
    # a signal after writing its checkpoint.
    target/release/mancala solve kalah 6 6 --db "$DB" --max-table-seeds "${MAX_TABLE_SEEDS:-32}" --no-build \
      --threads "${THREADS:-1}" --tt-mb "${TT_MB:-4096}" --table-memory-mb "${TABLE_MB:-8192}" \
      --time "${PIECE:-1200}" --checkpoint "$OUT/$name.ckpt" --checkpoint-every 300 \
      --checkpoint-entries "${ENTRIES:-32000000}" \
      "${first[@]}" "${resume[@]}" --json --quiet > "$OUT/$name-$n.json" || [ $? = 130 ]
    grep -E '"(exact|lower|upper|value|nodes)"' "$OUT/$name-$n.json" | head -6
  done
}

case "${1:-model}" in
  model) model ;;
  anchors) anchors ;;
  start) start ;;
  all) model; anchors; start ;;
  *) echo "usage: benches/kalah66.sh [model|anchors|start|all]" >&2; exit 2 ;;
esac
