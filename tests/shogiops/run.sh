#!/bin/sh
# Cross-check of Chu Shogi legal moves against shogiops (test-only GPL reference).
# Usage: tests/shogiops/run.sh <path-to-gravulien>. Skips (exit 77) when node or the npm
# module is unavailable.
bin=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
cd "$(dirname "$0")"
command -v node >/dev/null 2>&1 || { echo "node not installed: skipped"; exit 77; }
[ -f node_modules/shogiops/package.json ] || { echo "shogiops not installed: skipped"; exit 77; }
exec node crosscheck.mjs "$bin"
