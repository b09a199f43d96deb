#!/usr/bin/env bash
# One command per published document the project reproduces: re-runs the
# document's parts (the scripts listed below), prints each part's results
# and keeps them in OUT. docs/REPRODUCTION.md sets every published figure
# next to the measured one, with the part that measured it.
#
# Usage: benches/reproduce.sh DOC [--quick] [--check | --update-docs]
#   DOC            one of
#     solving-kalah  Irving, Donkers, Uiterwijk (2000), Solving Kalah
#     five-games     Rovaris (2016), AI for five mancala games
#     awale-mcts     Marchant (2021), Awale with MCTS
#     assignment     the course assignment (greedy, minimax, alpha-beta, logs)
#     kalah-agents   Hunter (2021), Kalah agents from random to A3C
#   --quick        a small subset of every part (a minute or less each
#                  document on 2 cores; the tests run it)
#   --check        with --quick: compare the run's figures with the
#                  committed ones (benches/reproduce-quick/DOC.md, times
#                  left out); exit 1 naming the first line that differs
#   --update-docs  write what the run regenerates into the repository:
#                  with --quick the committed figures
#                  (benches/reproduce-quick/DOC.md); without it the pages
#                  a full run rewrites (five-games: docs/study-000.md;
#                  awale-mcts: docs/study-001-epsilon-map.csv and .svg;
#                  kalah-agents: docs/study-004.md). Without this option a
#                  run writes only under OUT; docs/REPRODUCTION.md's
#                  summaries follow by `python3 benches/ledger/ledger.py --write`.
# Environment:
#   BIN   the mancala binary (default target/release/mancala, built first
#         unless SKIP_BUILD is set)
#   OUT   where each part's output goes (default target/reproduce/DOC, or
#         target/reproduce/DOC-quick)
#   DB    the endgame tables' directory (default db, or OUT/db with
#         --quick); tables are built there on first use
#   ONLY  only these parts, by their file names (e.g. ONLY="section56
#         plotreads"; default every part)
# Exit code: 0 when every part ran (a published figure that differs is a
# result, not a failure), 1 when a part failed, 2 for bad arguments.
#
# Full runs (2 cores): solving-kalah about 20 minutes (Table 4's
# conventions 13, the 6-pit tables of Table 7 a few); five-games about
# three hours (the match tables 30 to 45 minutes; the time tables, section
# 5.6 at 200 games, "always won" and the plot reads about two hours more);
# awale-mcts about 90 minutes of one core at the default budget, and 8
# minutes on 2 cores for the budget curve with the tree kept (PARTS and
# THREADS as in study-001.sh); assignment seconds; kalah-agents about 100
# minutes (two GA runs of 20, the figure reads).
set -euo pipefail
cd "$(dirname "$0")/.."

DOCS="solving-kalah five-games awale-mcts assignment kalah-agents"
usage() {
  sed -n '7,46p' "$0" | sed 's/^# \{0,1\}//'
}

DOC=""
QUICK=""
CHECK=""
UPDATE=""
for arg in "$@"; do
  case $arg in
    --quick) QUICK=1 ;;
    --check) CHECK=1 ;;
    --update-docs) UPDATE=1 ;;
    -h | --help) usage; exit 0 ;;
    -*) echo "reproduce.sh: unknown option \"$arg\" (benches/reproduce.sh --help)" >&2; exit 2 ;;
    *)
      if [ -n "$DOC" ]; then
        echo "reproduce.sh: one document at a time (got \"$DOC\" and \"$arg\")" >&2
        exit 2
      fi
      DOC=$arg ;;
  esac
done
if [ -z "$DOC" ]; then
  echo "reproduce.sh: which document? one of: ${DOCS// /, } (benches/reproduce.sh --help)" >&2
  exit 2
fi
if [[ " $DOCS " != *" $DOC "* ]]; then
  echo "reproduce.sh: unknown document \"$DOC\": use one of ${DOCS// /, }" >&2
  exit 2
fi
if [ -n "$CHECK" ] && [ -z "$QUICK" ]; then
  echo "reproduce.sh: --check compares a quick run's figures: use it with --quick" >&2
  exit 2
fi
if [ -n "$CHECK" ] && [ -n "$UPDATE" ]; then
  echo "reproduce.sh: --check and --update-docs: one or the other" >&2
  exit 2
fi

BIN=${BIN:-target/release/mancala}
[ -n "${SKIP_BUILD:-}" ] || cargo build --release --quiet
if [ ! -x "$BIN" ]; then
  echo "reproduce.sh: no mancala binary at $BIN: build it (cargo build --release) or set BIN" >&2
  exit 1
fi
export BIN SKIP_BUILD=1
OUT=${OUT:-target/reproduce/$DOC${QUICK:+-quick}}
mkdir -p "$OUT"
if [ -n "$QUICK" ]; then DB=${DB:-$OUT/db}; else DB=${DB:-db}; fi
mkdir -p "$DB"

FAILED=()
PARTS_RUN=()
# part FILE TITLE COMMAND...: runs COMMAND, its output printed and kept in
# OUT/FILE.md (its stderr in OUT/FILE.err); a failure is noted, not fatal.
part() {
  local file=$1 title=$2 t0=$SECONDS
  shift 2
  if [ -n "${ONLY:-}" ] && [[ " $ONLY " != *" $file "* ]]; then
    return 0
  fi
  PARTS_RUN+=("$file")
  echo
  echo "## $title"
  echo
  echo "\`$*\`"
  echo
  if "$@" 2> "$OUT/$file.err" | tee "$OUT/$file.md"; then
    echo
    echo "($((SECONDS - t0)) s)"
  else
    echo
    echo "FAILED ($((SECONDS - t0)) s): $*; the last lines of its stderr ($OUT/$file.err):"
    tail -n 5 "$OUT/$file.err"
    FAILED+=("$file")
  fi
}

T0=$SECONDS
case $DOC in
  solving-kalah)
    echo "# Solving Kalah (Irving, Donkers, Uiterwijk, 2000), reproduced${QUICK:+ (quick)}"
    part tables23 "Tables 2 and 3: state-space sizes and shares" \
      python3 benches/kalah2000/tables23.py
    if [ -n "$QUICK" ]; then
      part tables35 "Tables 3 and 5: game graphs (the small ones)" \
        python3 benches/kalah2000/tables35.py "$BIN" --db "$DB" --quick
      part table1 "Table 1: game length and branching factor (10 games, Kalah(2..4, 1..3))" \
        python3 benches/kalah2000/table1.py "$BIN" --quick
      part table4 "Table 4: branching factors (Kalah(3,1), (4,1), (3,2))" \
        python3 benches/kalah2000/table4.py 3,1 4,1 3,2 --graphs main
      part table7 "Table 7: futility pruning (Kalah(6,3) without tables)" \
        bash benches/kalah2000/table7.sh --quick "$BIN" "$DB"
    else
      part tables35 "Tables 3 and 5: game graphs" \
        python3 benches/kalah2000/tables35.py "$BIN" --db "$DB"
      part table1 "Table 1: game length and branching factor (100 games an instance)" \
        python3 benches/kalah2000/table1.py "$BIN"
      part table4-main "Table 4: branching factors, the project's graph convention" \
        python3 benches/kalah2000/table4.py --graphs main --csv "$OUT/table4-main.csv"
      part table4-all "Table 4: branching factors, every graph convention" \
        python3 benches/kalah2000/table4.py 3,1 4,1 3,2 5,1 3,3 6,1 3,4 4,2 3,5 3,6 --csv "$OUT/table4-all.csv"
      part table4-summary "Table 4: the published figures next to six conventions" \
        python3 benches/kalah2000/table4_summary.py "$OUT/table4-all.csv" "$OUT/table4-main.csv"
      part table7 "Table 7: futility pruning with and without tables" \
        bash benches/kalah2000/table7.sh "$BIN" "$DB"
    fi
    part table6 "Table 6: the first seven layers of Kalah(4,3)'s graph" \
      python3 benches/kalah2000/table6.py "$BIN" --db "$DB"
    part table9 "Table 9: the published perfect games replayed" \
      python3 benches/kalah2000/table9.py "$BIN"
    part table9-kalah46 "Table 9, Kalah(4,6): single and paired edits of the line" \
      python3 benches/kalah2000/table9_kalah46.py
    ;;
  five-games)
    echo "# The five-game study (Rovaris, 2016), reproduced${QUICK:+ (quick)}"
    if [ -n "$QUICK" ]; then
      part study-000 "Tables 5.2, 5.40 and 5.68 at 20 games a match" \
        python3 benches/study-000/run.py --bin "$BIN" --tables "5.2 5.40 5.68" --games 20 \
        --raw "$OUT/raw" --out "$OUT/study-000.md"
      part times "Time tables 5.4 and 5.33 (20 games a match)" \
        python3 benches/study-000/times.py "$BIN" --tables "5.4 5.33" --games 20
      part section56 "Section 5.6: MCTS4000 against HMM8 in Kalah (20 games)" \
        python3 benches/study-000/section56.py "$BIN" --only kalah --games 20
      part always "BMM8, ABMM8 and HMM8 against random (2 games a game)" \
        python3 benches/study-000/always.py "$BIN" --games 2
    else
      part study-000 "Tables 5.1 to 5.75 at the study's settings" \
        python3 benches/study-000/run.py --bin "$BIN" --raw "$OUT/raw" --out "$OUT/study-000.md"
      part times "Time tables 5.4, 5.33 (200 games a match) and 5.37 (40)" \
        python3 benches/study-000/times.py "$BIN"
      part section56 "Section 5.6: MCTS4000 against HMM8 (200 games a game)" \
        python3 benches/study-000/section56.py "$BIN" --games-slow 200
      part always "BMM8, ABMM8 and HMM8 \"always won\" against random (200 games a game)" \
        python3 benches/study-000/always.py "$BIN"
      part plotreads "The rates read off the lost plots (50 games a match)" \
        python3 benches/study-000/plotreads.py "$BIN" --raw "$OUT/plots-raw"
      part readings "Vai Lung Thlan's differing matches under its other readings (200 games a match)" \
        python3 benches/study-000/readings.py "$BIN" --raw "$OUT/readings-raw"
    fi
    summary=$OUT/study-000.md
    # The summary and the rows that differ; with --quick every table too.
    echo
    sed -n '/^## Summary/,/^## Why/p' "$summary" | sed '$d'
    [ -z "$QUICK" ] || sed -n '/^## Tables/,$p' "$summary"
    ;;
  awale-mcts)
    echo "# The Awale MCTS study (Marchant, 2021), reproduced${QUICK:+ (quick)}"
    part power "The power calculation (N = 49)" python3 benches/study-001/power.py
    if [ -n "$QUICK" ]; then
      part experiments "The epsilon experiment (eps-greedy:E against eps-greedy:0, 100 games a point)" \
        env PARTS=eps bash benches/study-001.sh 1000 1
    else
      part experiments "Every experiment at 1,000 iterations a move (the tournament, tuning, budget)" \
        env EPSMAP_OUT="$OUT" bash benches/study-001.sh 1000 1
      part lowc "The two low-c points at the study's 5,000 play-outs" \
        env PARTS=lowc bash benches/study-001.sh 5000 1
    fi
    part verdicts "Published against measured: intervals and verdicts" \
      python3 benches/study-001/verdicts.py "$OUT/experiments.md"
    ;;
  assignment)
    echo "# The course assignment, reproduced${QUICK:+ (quick)}"
    part assignment "The sample traverse log and the evaluation function's examples" \
      python3 benches/assignment/run.py "$BIN"
    ;;
  kalah-agents)
    echo "# The Kalah agents study (Hunter, 2021), reproduced${QUICK:+ (quick)}"
    if [ -n "$QUICK" ]; then
      part study-004 "Tables 1 and 2 at 20 games a cell (2 with MCTS), 2 a pairing" \
        python3 benches/study-004/run.py --bin "$BIN" --games 20 --mcts-games 2 --rr-games 2 \
        --raw "$OUT/raw" --out "$OUT/study-004.md"
      part table2-h10 "Table 2 with H10's weight -1, the text's sign (2 games a pairing)" \
        python3 benches/study-004/run.py --bin "$BIN" --games 2 --mcts-games 2 --rr-games 2 --no-a3c \
        --h10-sign negative --raw "$OUT/raw-h10" --out "$OUT/study-004-h10.md"
      part claim "Heuristic minimax 4 against alpha-beta 8 (100 games)" \
        python3 benches/study-004/claim.py "$BIN" --games 100
      part tune "The genetic algorithm (Table 3): 6 candidates, 2 generations, depth 2" \
        "$BIN" tune heuristic10 --game kalah:6:4:capture-needs-opposite --population 6 \
        --generations 2 --games 2 --depth 2 --seed 1 --out "$OUT/tuned.txt"
      part ga-runs "Table 3 against the two runs at the published settings kept in benches/study-004/ga-runs/" \
        python3 benches/study-004/ga_runs.py benches/study-004/ga-runs/seed-1.json benches/study-004/ga-runs/seed-2.json
    else
      part study-004 "Tables 1 and 2 at the study's settings" \
        python3 benches/study-004/run.py --bin "$BIN" --raw "$OUT/raw" --out "$OUT/study-004.md"
      part table2-h10 "Table 2 with H10's weight -1, the text's sign" \
        python3 benches/study-004/run.py --bin "$BIN" --games 2 --mcts-games 2 --no-a3c \
        --h10-sign negative --raw "$OUT/raw-h10" --out "$OUT/study-004-h10.md"
      part claim "Heuristic minimax 4 against alpha-beta 8 (500 games), with each of table 3's weights" \
        python3 benches/study-004/claim.py "$BIN" --runs
      part figures "Figures 4 and 5: MCTS against the minimax agents at depths 1 and 8 (200 games a match)" \
        python3 benches/study-004/figures.py "$BIN"
      for s in 1 2; do
        part "tune-$s" "The genetic algorithm (Table 3) at the published settings, seed $s (about 20 minutes)" \
          "$BIN" tune heuristic10 --game kalah:6:4:capture-needs-opposite --population 50 \
          --generations 250 --games 10 --depth 4 --seed "$s" --out "$OUT/tuned-$s.txt" --json
        python3 -c 'import json,sys; json.load(open(sys.argv[1]))' "$OUT/tune-$s.md" 2> /dev/null \
          && cp "$OUT/tune-$s.md" "$OUT/ga-seed-$s.json"
      done
      part ga-runs "Table 3 against these runs" \
        python3 benches/study-004/ga_runs.py "$OUT/ga-seed-1.json" "$OUT/ga-seed-2.json"
    fi
    [ ! -f "$OUT/tuned.txt" ] || { echo; echo "tuned weights W1..W10: $(grep -v '^#' "$OUT/tuned.txt" | tr '\n' ' ')"; }
    summary=$OUT/study-004.md
    echo
    sed -n '/^## Results/,/^## What agrees/p' "$summary" | sed '$d'
    if [ -f "$OUT/study-004-h10.md" ]; then
      echo "With H10's weight -1 (the text's sign):"
      echo
      grep '^- table 2' "$OUT/study-004-h10.md" || true
      sed -n '/^### Table 2/,/^## What agrees/p' "$OUT/study-004-h10.md" | sed '1,2d;$d'
    fi
    ;;
esac

echo
if [ ${#FAILED[@]} -gt 0 ]; then
  echo "$DOC: ${#FAILED[@]} part(s) failed: ${FAILED[*]} ($((SECONDS - T0)) s; outputs in $OUT)"
  exit 1
fi
echo "$DOC: every part ran ($((SECONDS - T0)) s; outputs in $OUT)"

# The run's figures: every part's output in order (OUT/PART.md), then the
# pages the run wrote, the output directory written OUT.
figures() {
  {
    for f in "${PARTS_RUN[@]}"; do
      echo "## $f"
      cat "$OUT/$f.md"
    done
    for f in study-000.md study-004.md study-004-h10.md; do
      [ ! -f "$OUT/$f" ] || { echo "## $f"; cat "$OUT/$f"; }
    done
  } | OUT_DIR=$OUT python3 -c 'import os, sys; sys.stdout.write(sys.stdin.read().replace(os.environ["OUT_DIR"], "OUT"))'
}
COMMITTED=benches/reproduce-quick/$DOC.md
if [ -n "$CHECK" ]; then
  if [ ! -f "$COMMITTED" ]; then
    echo "reproduce.sh: no committed figures at $COMMITTED: write them with --quick --update-docs" >&2
    exit 1
  fi
  figures > "$OUT/figures.md"
  python3 benches/ledger/figures.py compare "$COMMITTED" "$OUT/figures.md" || exit 1
  echo "$DOC: the quick run's figures are the committed ones ($COMMITTED)"
elif [ -n "$UPDATE" ]; then
  if [ -n "$QUICK" ]; then
    mkdir -p benches/reproduce-quick
    figures > "$COMMITTED.tmp" && mv "$COMMITTED.tmp" "$COMMITTED"
    echo "$DOC: wrote $COMMITTED"
  else
    case $DOC in
      five-games) pages=(study-000.md) ;;
      awale-mcts) pages=(study-001-epsilon-map.csv study-001-epsilon-map.svg) ;;
      kalah-agents) pages=(study-004.md) ;;
      *) pages=() ;;
    esac
    for f in "${pages[@]}"; do
      if [ -f "$OUT/$f" ]; then
        cp "$OUT/$f" "docs/$f.tmp" && mv "docs/$f.tmp" "docs/$f"
        echo "$DOC: wrote docs/$f"
      else
        echo "$DOC: docs/$f left as it was (this run did not write $OUT/$f)"
      fi
    done
    echo "$DOC: now \`python3 benches/ledger/ledger.py --write\` recomputes docs/REPRODUCTION.md's summaries"
  fi
fi
