#!/bin/sh
# Tests against shogiops (lishogi's rules library; test-only GPL reference): by default
# the cross-check of Chu Shogi legal moves (crosscheck.mjs); with a second argument, that
# script instead (usi.mjs: `gravulien usi` driven as lishogi drives engines).
# Usage: tests/shogiops/run.sh <path-to-gravulien> [script.mjs]. Skips (exit 77) when node
# or the npm module is unavailable.
bin=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
cd "$(dirname "$0")"
command -v node >/dev/null 2>&1 || { echo "node not installed: skipped"; exit 77; }
[ -f node_modules/shogiops/package.json ] || { echo "shogiops not installed: skipped"; exit 77; }
exec node "${2:-crosscheck.mjs}" "$bin"
