#!/usr/bin/env bash
# The Kalah agents study's table 3 at full size: 20 runs of `mancala tune
# heuristic10` at the published settings (50 candidates, 250 generations,
# 10 games a pairing, depth 4, the study's rules), seeds 1 to 20, then
# each weight column and the fitness against the published 20 runs by the
# rank test (benches/study-004/ga_runs.py).
#
# Usage: benches/study-004/ga20.sh [TUNE OPTIONS...]
#   e.g. benches/study-004/ga20.sh --h9 prose --h10 minus
# Extra options go to every `mancala tune` (the readings of H9 and H10).
# Environment: BIN (default target/release/mancala, built first unless
# SKIP_BUILD is set); OUT (default target/ga-runs/NAME, NAME from the
# options, "algorithm-4" without any); THREADS (each run's threads,
# default all cores); RUNS (default 20).
# A run whose JSON is in OUT is not run again, and a run stopped half way
# goes on from its last generation (`tune --resume`, from the run's
# OUT/seed-S.txt.state.json; it ends where an unbroken run would), so a
# stopped batch resumes. Each run takes 20 to 45 minutes on one free core:
# the batch, about 7 to 15 hours of one core.
set -euo pipefail
cd "$(dirname "$0")/../.."
BIN=${BIN:-target/release/mancala}
[ -n "${SKIP_BUILD:-}" ] || cargo build --release --quiet
NAME=$(printf '%s' "${*:-algorithm-4}" | tr -c 'A-Za-z0-9' '-' | sed 's/^-*//; s/-*$//')
OUT=${OUT:-target/ga-runs/$NAME}
RUNS=${RUNS:-20}
POPULATION=${POPULATION:-50}
GENERATIONS=${GENERATIONS:-250}
mkdir -p "$OUT"
for s in $(seq 1 "$RUNS"); do
  json=$OUT/seed-$s.json
  if [ -s "$json" ] && python3 -c 'import json,sys; json.load(open(sys.argv[1]))' "$json" 2> /dev/null; then
    continue
  fi
  resume=()
  if [ -s "$OUT/seed-$s.txt.state.json" ]; then resume=(--resume); fi
  echo "run $s of $RUNS ($*)${resume:+, resumed}" >&2
  "$BIN" tune heuristic10 --game kalah:6:4:capture-needs-opposite --population "$POPULATION" --generations "$GENERATIONS" \
    --games 10 --depth 4 --seed "$s" --out "$OUT/seed-$s.txt" --json ${THREADS:+--threads "$THREADS"} "${resume[@]}" "$@" \
    > "$json.tmp"
  mv "$json.tmp" "$json"
done
runs=()
for s in $(seq 1 "$RUNS"); do runs+=("$OUT/seed-$s.json"); done
python3 benches/study-004/ga_runs.py "${runs[@]}"
