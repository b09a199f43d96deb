#!/usr/bin/env bash
# Old binary against new binary (e.g. before and after a refactor), side by
# side in one run: medians of RUNS runs of each, the two binaries alternating
# run by run (old, new, old, new, ...) so that drift in the machine's speed
# hits both alike. Prints each median, the ratio new/old and every run.
#
# Usage: benches/compare.sh OLD_BIN NEW_BIN [solve|build-kalah|build-awari|agents|all]
#   RUNS=5 (runs per binary), DB=db (table directory of the solve, relative
#   to the repository root; if the 6-pit Kalah tables up to 20 seeds are
#   missing there they are built first, with NEW_BIN), THREADS= (passed as
#   --threads to the solve when set; default: the binaries' default, all
#   cores).
#
#   solve        `solve kalah 6 4 --max-table-seeds 20`: `solve_seconds` from
#                --json (the search only, table loading excluded), ~1 s a run
#                on 2 cores (~1.5 s a process). The values must be equal; so
#                must the node counts with THREADS=1 (with more threads they
#                vary from run to run, so only their medians are compared).
#   build-kalah  `build kalah --pits 6 --max-seeds 20`: wall time of a full
#                build into an empty temporary directory, removed after each
#                run (~7 s a run on 2 idle cores, 11 s of CPU).
#   build-awari  `build awari --pits 6 --max-seeds 20`: the same (~2.5 min
#                a run, mostly on one core).
#   agents       four seeded matches on one thread (`match ... --threads 1
#                --json`, the report's `seconds`): alphabeta:9 v heuristic:7
#                and mcts:5000 v greedy in kalah:6:4 (20 games), mcts:1000 v alphabeta:5
#                in awari:6:4, awale-uct:1000 v awale-heavy:1000 in awale:6:4,
#                ~2-6 s each. The results (wins, draws, average difference)
#                must be equal: the agents are seeded.
#   For both builds the CPU time (user + sys, /usr/bin/time) is shown too:
#   it varies much less than the wall time when the machine is shared. The
#   *.tbl files of the first run of each binary are compared by sha256sum:
#   they must be byte-identical.
set -euo pipefail

usage() { echo "usage: benches/compare.sh OLD_BIN NEW_BIN [solve|build-kalah|build-awari|agents|all]" >&2; exit 2; }
[ $# -ge 2 ] && [ $# -le 3 ] || usage
# Absolute paths of the binaries, resolved before the cd below.
abs() {
  local p=$1
  if [[ $p != */* ]]; then p=$(command -v "$p") || { echo "no such binary: $1" >&2; exit 2; }; fi
  p="$(cd "$(dirname "$p")" && pwd)/$(basename "$p")"
  [ -x "$p" ] || { echo "not an executable: $1" >&2; exit 2; }
  echo "$p"
}
OLD=$(abs "$1")
NEW=$(abs "$2")
WHAT=${3:-all}
case "$WHAT" in solve|build-kalah|build-awari|agents|all) ;; *) usage ;; esac
cd "$(dirname "$0")/.."
RUNS=${RUNS:-5}
DB=${DB:-db}
THREADS=${THREADS:-}

TMP=$(mktemp -d /tmp/mancala-compare.XXXXXX)
trap 'rm -rf "$TMP"' EXIT

median() { sort -g | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
now() { date +%s.%N; }
elapsed() { awk -v a="$1" -v b="$2" 'BEGIN {printf "%.3f", b - a}'; }
json_num() { grep -o "\"$1\": -\\?[0-9.e-]*" <<<"$2" | head -1 | awk '{print $2}'; }

# report LABEL UNIT OLD_RUNS NEW_RUNS (runs space-separated)
report() {
  local label=$1 unit=$2 om nm
  om=$(tr ' ' '\n' <<<"$3" | median)
  nm=$(tr ' ' '\n' <<<"$4" | median)
  printf '%-34s old median %9.3f %s  new median %9.3f %s  new/old %6.3f\n' \
    "$label" "$om" "$unit" "$nm" "$unit" "$(awk -v o="$om" -v n="$nm" 'BEGIN {print n / o}')"
  printf '  old runs: %s\n  new runs: %s\n' "$3" "$4"
}

solve() {
  local k
  for k in $(seq 20); do
    if [ ! -f "$DB/kalah-default-m6-k$k.tbl" ]; then
      echo "tables of 6-pit Kalah up to 20 seeds missing in $DB: building them with the new binary ($NEW)"
      "$NEW" build kalah --pits 6 --max-seeds 20 --db "$DB" >/dev/null
      break
    fi
  done
  local threads=()
  if [ -n "$THREADS" ]; then threads=(--threads "$THREADS"); fi
  local -A times=() values=() nodes=()
  local i who bin out
  for i in $(seq "$RUNS"); do
    for who in old new; do
      if [ $who = old ]; then bin=$OLD; else bin=$NEW; fi
      out=$("$bin" solve kalah 6 4 --max-table-seeds 20 --db "$DB" --json --quiet "${threads[@]}")
      times[$who]+="$(printf '%.3f' "$(json_num solve_seconds "$out")") "
      values[$who]+="$(json_num value "$out") "
      nodes[$who]+="$(json_num nodes "$out") "
      echo "solve: $who run $i/$RUNS done" >&2
    done
  done
  report "solve kalah 6 4 K=20 solve_seconds" s "${times[old]% }" "${times[new]% }"
  echo "  values: old ${values[old]% }, new ${values[new]% }"
  echo "  nodes:  old ${nodes[old]% }, new ${nodes[new]% }"
  if [ "$(tr ' ' '\n' <<<"${values[old]}${values[new]}" | sed '/^$/d' | sort -u | wc -l)" -ne 1 ]; then
    echo "  WARNING: the values differ"
  fi
  if [ "$THREADS" = 1 ]; then
    if [ "$(tr ' ' '\n' <<<"${nodes[old]}${nodes[new]}" | sed '/^$/d' | sort -u | wc -l)" -ne 1 ]; then
      echo "  WARNING: the node counts differ (1 thread: they should be equal)"
    fi
  else
    echo "  (node counts vary run to run with more than 1 thread; medians: old $(tr ' ' '\n' <<<"${nodes[old]% }" | median), new $(tr ' ' '\n' <<<"${nodes[new]% }" | median); THREADS=1 checks them for equality)"
  fi
}

# tables_sums DIR: "sha256  name" of every table file, sorted by name.
tables_sums() { (cd "$1" && sha256sum -- *.tbl | sort -k2); }

# compare_tables OLD_SUMS NEW_SUMS
compare_tables() {
  local diff
  diff=$(join -j 2 -a 1 -a 2 -e MISSING -o 0,1.1,2.1 "$1" "$2" | awk '$2 != $3 {print "    " $1 " (old " substr($2, 1, 12) ", new " substr($3, 1, 12) ")"}')
  if [ -z "$diff" ]; then
    echo "  tables identical ($(wc -l <"$1") files)"
  else
    echo "  WARNING: tables differ:"
    echo "$diff"
  fi
}

# build GAME: wall time of `build GAME --pits 6 --max-seeds 20` into an empty
# directory, the binaries alternating.
build() {
  local game=$1
  local -A times=() cpus=()
  local i who bin dir t0 t1 cpu
  for i in $(seq "$RUNS"); do
    for who in old new; do
      if [ $who = old ]; then bin=$OLD; else bin=$NEW; fi
      dir="$TMP/$game-$who"
      rm -rf "$dir"; mkdir "$dir"
      t0=$(now)
      if ! /usr/bin/time -f '%U %S' -o "$TMP/cpu" "$bin" build "$game" --pits 6 --max-seeds 20 --db "$dir" >"$TMP/log" 2>&1; then
        echo "build $game failed ($who: $bin):" >&2; tail -20 "$TMP/log" >&2; exit 1
      fi
      t1=$(now)
      cpu=$(tail -1 "$TMP/cpu" | awk '{printf "%.2f", $1 + $2}')
      times[$who]+="$(elapsed "$t0" "$t1") "
      cpus[$who]+="$cpu "
      echo "build-$game: $who run $i/$RUNS $(elapsed "$t0" "$t1") s wall, $cpu s CPU" >&2
      if [ "$i" = 1 ]; then tables_sums "$dir" >"$TMP/$game-$who.sha"; fi
      rm -rf "$dir"
    done
  done
  report "build $game --pits 6 --max-seeds 20" s "${times[old]% }" "${times[new]% }"
  report "  the same, CPU time (user + sys)" s "${cpus[old]% }" "${cpus[new]% }"
  compare_tables "$TMP/$game-old.sha" "$TMP/$game-new.sha"
}

# agents: seeded matches on one thread, the binaries alternating.
agents() {
  local spec
  for spec in "kalah:6:4 alphabeta:9 heuristic:7 20" "kalah:6:4 mcts:5000 greedy 20" \
      "awari:6:4 mcts:1000 alphabeta:5 6" "awale:6:4 awale-uct:1000 awale-heavy:1000 4"; do
    set -- $spec
    local -A times=() results=()
    local i who bin out
    for i in $(seq "$RUNS"); do
      for who in old new; do
        if [ $who = old ]; then bin=$OLD; else bin=$NEW; fi
        out=$("$bin" match "$2" "$3" --game "$1" --games "$4" --seed 1 --threads 1 --json 2>/dev/null)
        times[$who]+="$(printf '%.3f' "$(json_num seconds "$out")") "
        results[$who]+="$(json_num a_wins "$out")/$(json_num draws "$out")/$(json_num b_wins "$out")/$(json_num average_difference "$out") "
        echo "agents $1 $2 v $3: $who run $i/$RUNS done" >&2
      done
    done
    report "$1 $2 v $3, $4 games" s "${times[old]% }" "${times[new]% }"
    if [ "$(tr ' ' '\n' <<<"${results[old]}${results[new]}" | sed '/^$/d' | sort -u | wc -l)" -ne 1 ]; then
      echo "  WARNING: the results differ: old ${results[old]}, new ${results[new]}"
    else
      echo "  results equal (A wins/draws/B wins/average difference): ${results[old]%% *}"
    fi
  done
}

echo "old: $OLD"
echo "new: $NEW"
echo "RUNS=$RUNS, alternating old, new; $(nproc) cores"
case "$WHAT" in
  solve) solve ;;
  build-kalah) build kalah ;;
  build-awari) build awari ;;
  agents) agents ;;
  all) solve; build kalah; build awari; agents ;;
  *) usage ;;
esac
