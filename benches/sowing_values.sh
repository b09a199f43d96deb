#!/usr/bin/env bash
# Start values of small Vai Lung Thlan and Ohvalhu games from their tables,
# built from scratch into a fresh directory (the time of each includes the
# tables it adds to those of the smaller games before it).
#
#   benches/sowing_values.sh            # every game below, a few minutes
#   DB=/tmp/db benches/sowing_values.sh # keep the tables
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --release --quiet
bin=target/release/mancala
db=${DB:-$(mktemp -d)}
games=${GAMES:-"2:1 2:2 2:3 2:4 2:5 3:1 3:2 3:3 3:4 4:1 4:2 4:3 5:1 5:2 6:1"}
printf '| game | m, n | value | best move | principal variation | seconds |\n|---|---|---|---|---|---|\n'
for game in vai-lung-thlan ohvalhu; do
  for mn in $games; do
    m=${mn%:*}; n=${mn#*:}
    start=$(date +%s.%N)
    out=$($bin solve "$game" "$m" "$n" --db "$db" --json 2>/dev/null)
    secs=$(echo "$(date +%s.%N) - $start" | bc)
    value=$(echo "$out" | jq '.value')
    best=$(echo "$out" | jq '.best_move')
    pv=$(echo "$out" | jq -r '.pv')
    printf '| %s | %s, %s | %+d | %s | `%s` | %.1f |\n' "$game" "$m" "$n" "$value" "$best" "$pv" "$secs"
  done
done
