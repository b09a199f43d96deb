#!/usr/bin/env bash
# The analysis board for a static host (docs/site.md): writes DIR with
#   index.html                      the board (marked to use the engine in the browser)
#   page/*.js, board.css, rules.*   the page's files, as `mancala serve` serves them
#   page/RULES.md                   the rules (docs/RULES.md)
#   page/wasm/mancala_wasm_bg.wasm  the engine (crates/wasm) for wasm32, release
#   page/wasm/mancala_wasm.js       its JavaScript glue (wasm-bindgen)
#   page/tables/*.tbl.gz            the endgame tables the page fetches when a
#   page/tables/index.json          position needs them (TABLES below), gzip -9
# and prints the module's size and its gzip -9 size, and the tables'. Any
# static host serves DIR (`python3 -m http.server -d DIR`); no `mancala`
# process runs.
#
# Needs the wasm32-unknown-unknown target (added with rustup if missing)
# and wasm-bindgen-cli of exactly the version of the wasm-bindgen crate in
# Cargo.lock (installed from crates.io with cargo install if missing). The
# tables are built by `mancala build` (the release binary, or MANCALA_BIN)
# into target/site-tables, kept there: a second run builds nothing.
#
# Usage: dist/site.sh DIR
set -euo pipefail
if [ $# -ne 1 ] || [ -z "$1" ] || [ "${1#-}" != "$1" ]; then
  echo "usage: dist/site.sh DIR  (writes the static analysis board into DIR; docs/site.md)" >&2
  exit 2
fi
# DIR as the caller named it (relative to the caller's directory).
OUT=$(realpath -m -- "$1")
ROOT=$(cd "$(dirname "$0")/.." && pwd)
cd "$ROOT"

# The wasm-bindgen crate's version: its command-line tool must be the same.
version=$(awk '/^name = "wasm-bindgen"$/ { getline; gsub(/version = |"/, ""); print; exit }' Cargo.lock)
if [ -z "$version" ]; then
  echo "dist/site.sh: Cargo.lock names no wasm-bindgen crate (crates/wasm depends on it); run cargo generate-lockfile" >&2
  exit 1
fi

if ! rustup target list --installed 2>/dev/null | grep -qx wasm32-unknown-unknown; then
  echo "== rustup target add wasm32-unknown-unknown" >&2
  rustup target add wasm32-unknown-unknown
fi

# wasm-bindgen of the crate's version: on the PATH, in cargo's bin
# directory, or in target/tools; else installed into cargo's bin directory
# (once per machine: 8 to 16 minutes of compiling on 2 cores).
BINDGEN=""
CARGO_BIN="${CARGO_HOME:-$HOME/.cargo}/bin"
for b in "$(command -v wasm-bindgen || true)" "$CARGO_BIN/wasm-bindgen" "$ROOT/target/tools/bin/wasm-bindgen"; do
  if [ -n "$b" ] && [ -x "$b" ] && [ "$("$b" --version | awk '{print $2}')" = "$version" ]; then
    BINDGEN=$b
    break
  fi
done
if [ -z "$BINDGEN" ]; then
  echo "== cargo install wasm-bindgen-cli --version $version" >&2
  # --locked first (the tool's own lock file); when the registry lacks one
  # of the versions it pins, the newest compatible ones.
  cargo install -q wasm-bindgen-cli --version "$version" --locked \
    || cargo install -q wasm-bindgen-cli --version "$version"
  BINDGEN="$CARGO_BIN/wasm-bindgen"
fi

# The Awari search recurses once a ply: a 32 MiB stack (the module's
# default is 1 MiB).
echo "== cargo build -p mancala-wasm --profile site --target wasm32-unknown-unknown" >&2
RUSTFLAGS="-C link-arg=-zstack-size=33554432" \
  cargo build -q -p mancala-wasm --profile site --target wasm32-unknown-unknown

# The endgame tables the folder holds: GAME RULES PITS MAX-SEEDS
# (docs/site.md says why these: their sizes and load times against the
# page's budget).
TABLES=(
  "kalah default 6 14"
  "kalah capture-needs-opposite 6 14"
  "kalah end-when-mover-empty 6 14"
  "ohvalhu default 2 24"
  "ohvalhu default 3 24"
  "ohvalhu default 4 16"
  "vai-lung-thlan default 2 24"
  "vai-lung-thlan default 3 24"
  "vai-lung-thlan default 4 16"
)
TABLE_DIR="$ROOT/target/site-tables"
if [ -n "${MANCALA_BIN:-}" ]; then
  MANCALA=$MANCALA_BIN
else
  echo "== cargo build --release --bin mancala (builds the tables)" >&2
  cargo build -q --release --bin mancala
  MANCALA="$ROOT/target/release/mancala"
fi
mkdir -p "$TABLE_DIR"
for t in "${TABLES[@]}"; do
  read -r game rules pits seeds <<< "$t"
  # Its words only when it fails (tables already built are kept).
  if ! out=$("$MANCALA" build "$game" --rules "$rules" --pits "$pits" --max-seeds "$seeds" --db "$TABLE_DIR" 2>&1); then
    echo "$out" >&2
    echo "dist/site.sh: mancala build $game --rules $rules --pits $pits --max-seeds $seeds failed" >&2
    exit 1
  fi
done

STAGE=$(mktemp -d)
trap 'rm -rf "$STAGE"' EXIT
"$BINDGEN" --target web --no-typescript --out-dir "$STAGE/wasm" \
  target/wasm32-unknown-unknown/site/mancala_wasm.wasm

PAGE=src/cli/serve/page
mkdir -p "$STAGE/site/page"
for f in "$PAGE"/*; do
  [ "$(basename "$f")" = index.html ] || cp "$f" "$STAGE/site/page/"
done
cp docs/RULES.md "$STAGE/site/page/RULES.md"
# The board, marked to use the engine in the browser (backend.js reads it).
sed 's|<meta charset="utf-8">|<meta charset="utf-8">\n<meta name="mancala-backend" content="wasm">|' \
  "$PAGE/index.html" > "$STAGE/site/index.html"
grep -q 'name="mancala-backend"' "$STAGE/site/index.html" || {
  echo "dist/site.sh: could not mark index.html for the browser's engine (its <meta charset> line changed?)" >&2
  exit 1
}
mv "$STAGE/wasm" "$STAGE/site/page/wasm"

# The tables, each gzipped (the page gunzips them with the browser's
# DecompressionStream), and their list: {"files": {NAME: BYTES, ...}}.
mkdir -p "$STAGE/site/page/tables"
listed=()
for t in "${TABLES[@]}"; do
  read -r game rules pits seeds <<< "$t"
  # The file names of `mancala build`: the rule set named for Kalah only.
  name=$game
  [ "$game" != kalah ] || name="kalah-$rules"
  for k in $(seq 1 "$seeds"); do
    f="$name-m$pits-k$k.tbl"
    [ -f "$TABLE_DIR/$f" ] || { echo "dist/site.sh: mancala build wrote no $TABLE_DIR/$f" >&2; exit 1; }
    gzip -9 -n -c "$TABLE_DIR/$f" > "$STAGE/site/page/tables/$f.gz"
    listed+=("\"$f\": $(wc -c < "$STAGE/site/page/tables/$f.gz")")
  done
done
( IFS=,; echo "{\"files\": {${listed[*]}}}" ) > "$STAGE/site/page/tables/index.json"

# Replace DIR whole, so no file of an older build stays.
mkdir -p "$(dirname "$OUT")"
rm -rf "$OUT"
mv "$STAGE/site" "$OUT"

wasm="$OUT/page/wasm/mancala_wasm_bg.wasm"
bytes=$(wc -c < "$wasm")
gz=$(gzip -9 -c "$wasm" | wc -c)
tables=$(cat "$OUT"/page/tables/*.gz | wc -c)
echo "wrote $OUT: the module $bytes bytes, $gz bytes with gzip -9; the tables $tables bytes (gzip -9); serve it with: python3 -m http.server -d $OUT"
