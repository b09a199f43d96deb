#!/usr/bin/env bash
# The screenshots of the analysis board (docs/board.md, docs/serve.md:
# docs/board-desktop.png,
# docs/board-phone.png): the browser test that makes them
# (review::readme_screenshots_show_proven_values, which also checks that
# every move's value on them is proven), then copied into docs/. Needs
# Debian's chromium and chromium-driver, as the browser test does.
set -euo pipefail
cd "$(dirname "$0")/../.."
cargo build --bin mancala
MANCALA_BIN="$PWD/target/debug/mancala" cargo test -p mancala-browser-test --test browser \
  -- --exact review::readme_screenshots_show_proven_values
cp target/screenshots/board-desktop.png target/screenshots/board-phone.png docs/
echo "docs/board-desktop.png and docs/board-phone.png updated"
