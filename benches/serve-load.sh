#!/usr/bin/env bash
# Load test of `mancala serve`: 20,000 table queries (Kalah(6,4) positions
# with at most 20 seeds in play) from 32 concurrent keep-alive clients on
# loopback; throughput, p50/p99 latency, errors and the server's memory.
#   benches/serve-load.sh [REQUESTS] [CLIENTS]
# Builds the 6-pit tables up to 20 seeds into db/ when missing (about 15 s).
set -euo pipefail
cd "$(dirname "$0")/.."
REQUESTS=${1:-20000}
CLIENTS=${2:-32}
cargo build --release --quiet --bin mancala --example serve_load
BIN=target/release/mancala
"$BIN" build kalah --pits 6 --max-seeds 20 --db db >/dev/null
PORT_FILE=$(mktemp)
"$BIN" serve --addr 127.0.0.1:0 --db db >"$PORT_FILE" 2>/dev/null &
PID=$!
trap 'kill $PID 2>/dev/null || true; rm -f "$PORT_FILE"' EXIT
for _ in $(seq 100); do grep -q listening "$PORT_FILE" && break; sleep 0.1; done
ADDR=$(sed -n 's|listening on http://\(.*\)/|\1|p' "$PORT_FILE")
for round in 1 2 3; do
  echo "round $round:"
  target/release/examples/serve_load --addr "$ADDR" --requests "$REQUESTS" --clients "$CLIENTS" --pid "$PID"
done
