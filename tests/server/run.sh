#!/bin/sh
# Runs one of the server's loopback tests (node + ws) against 'gravulien serve'.
# Usage: tests/server/run.sh <path-to-gravulien> <script.mjs> [args]. Skips (exit 77) when
# node or the npm module is unavailable (scripts/deps.sh installs it).
bin=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
script="$2"
shift 2
cd "$(dirname "$0")"
command -v node >/dev/null 2>&1 || { echo "node not installed: skipped"; exit 77; }
[ -f node_modules/ws/package.json ] || { echo "ws not installed: skipped"; exit 77; }
# Tests that hold thousands of sockets (nginx.mjs): as many open files as allowed.
ulimit -n "$(ulimit -Hn)" 2>/dev/null || true
exec node "$script" "$bin" "$@"
