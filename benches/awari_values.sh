#!/usr/bin/env bash
# Values of the start positions of small Awari and Oware games, from the
# tables (`mancala build`, then `mancala solve awari|oware M N`, release
# build), as a Markdown table, with the time each took (the build counts).
#
# Usage: benches/awari_values.sh [GAMES...]   (default: every M = 2..=5 with
#   N = 1..=3, and M = 6 with N = 1, 2; a game is written M,N)
#   DB=db (table directory). Long: building the 5-pit tables up to 30 seeds
#   and the 6-pit tables up to 24 takes about 8 minutes each per game on 2
#   cores.
set -euo pipefail
cd "$(dirname "$0")/.."
DB=${DB:-db}
BIN=target/release/mancala
cargo build --release --quiet
games=("$@")
if [ ${#games[@]} -eq 0 ]; then
  games=(2,1 2,2 2,3 3,1 3,2 3,3 4,1 4,2 4,3 5,1 5,2 5,3 6,1 6,2)
fi
echo "| game | M,N | value | opening moves (pit: value) | seconds |"
echo "|---|---|---|---|---|"
for g in awari oware; do
  for mn in "${games[@]}"; do
    m=${mn%,*}; n=${mn#*,}
    start=$(date +%s.%N)
    # A solve builds only small tables on first use: the larger ones here
    # (5 pits up to 30 seeds, 6 pits up to 24) are built first.
    "$BIN" build "$g" --pits "$m" --max-seeds $((2 * m * n)) --db "$DB" >/dev/null 2>&1
    out=$("$BIN" solve "$g" "$m" "$n" --db "$DB" --json 2>/dev/null)
    end=$(date +%s.%N)
    python3 - "$g" "$mn" "$out" "$start" "$end" <<'PY'
import json, sys
g, mn, out, start, end = sys.argv[1], sys.argv[2], json.loads(sys.argv[3]), float(sys.argv[4]), float(sys.argv[5])
moves = " ".join(f"{m['move']}:{m['value']:+d}" for m in out["moves"])
print(f"| {g} | {mn} | {out['value']:+d} | {moves} | {end - start:.1f} |")
PY
  done
done
