#!/usr/bin/env bash
# The exact search's cost above the Awari tables, measured on sampled
# boards: for each pit count P, seeds S and distance D, `mancala verify
# awari --pits P --seeds S --by-search S-D` solves N boards drawn at random
# from the S-seed table by the search probing only the tables up to S-D
# seeds, each within LIMIT seconds (longer ones skipped), and compares
# every finished one with the table. One CSV line per (P, S, D): boards
# solved within the limit, skipped, disagreements (must be 0), nodes, and
# the wall time. The cost model of docs/AWARI.md ("The cost above the
# tables") reads it.
#
# Usage: benches/awari_above.sh [OUT.csv]   (default docs/awari-above-tables.csv)
#   DB=db (table directory; the tables up to the largest S are built there
#   first), N=20 boards a line, LIMIT=10 seconds a board, CASES="P:S:D ..."
#   About 20 minutes on 2 cores with the defaults (shared with other work).
set -euo pipefail
cd "$(dirname "$0")/.."
DB=${DB:-db}
N=${N:-20}
LIMIT=${LIMIT:-10}
OUT=${1:-docs/awari-above-tables.csv}
CASES=${CASES:-"4:8:1 4:8:2 4:8:3 4:8:4 4:12:1 4:12:2 4:12:3 4:16:1 4:16:2 4:20:1 6:8:1 6:8:2 6:8:3 6:10:1 6:10:2 6:12:1 6:12:2 6:14:1 6:16:1"}
BIN=target/release/mancala
cargo build --release --quiet
# The tables each pit count needs (the largest S of its cases).
for p in $(for c in $CASES; do echo "${c%%:*}"; done | sort -u); do
  max=0
  for c in $CASES; do
    IFS=: read -r cp cs _ <<<"$c"
    if [ "$cp" = "$p" ] && [ "$cs" -gt "$max" ]; then max=$cs; fi
  done
  "$BIN" build awari --pits "$p" --max-seeds "$max" --db "$DB" >/dev/null 2>&1
done
echo "pits,seeds,tables_to,boards,solved,skipped,mismatches,nodes,limit_s,wall_s" > "$OUT.tmp"
for c in $CASES; do
  IFS=: read -r p s d <<<"$c"
  start=$(date +%s.%N)
  json=$("$BIN" verify awari --pits "$p" --seeds "$s" --by-search $((s - d)) --sample "$N" \
    --limit "$LIMIT" --db "$DB" --json 2>/dev/null)
  end=$(date +%s.%N)
  python3 - "$p" "$s" "$((s - d))" "$LIMIT" "$start" "$end" "$json" >> "$OUT.tmp" <<'PY'
import json, sys
p, s, k, limit, start, end, text = sys.argv[1:]
r = json.loads(text)
print(f"{p},{s},{k},{r['sampled']},{r['checked']},{r['skipped']},{r['mismatches']},{r['nodes']},{limit},{float(end) - float(start):.1f}")
PY
  tail -1 "$OUT.tmp" >&2
done
mv "$OUT.tmp" "$OUT"
echo "written $OUT" >&2
