#!/bin/sh
# WebSocket watcher benchmark of 'gravulien serve' (bench/ws_watchers.mjs): N watchers of
# one game on loopback, move -> watcher latency, memory per connection.
# Usage: bench/ws-bench.sh [path-to-gravulien] [watchers=10000] [moves=50] [client-threads=1]
# Needs node and the ws module of tests/server (scripts/deps.sh); exits 77 without them.
here=$(cd "$(dirname "$0")" && pwd)
bin=${1:-$here/../build/gravulien}
[ $# -gt 0 ] && shift
command -v node >/dev/null 2>&1 || { echo "node not installed: skipped"; exit 77; }
[ -f "$here/../tests/server/node_modules/ws/package.json" ] || { echo "ws not installed (scripts/deps.sh): skipped"; exit 77; }
[ -x "$bin" ] || { echo "no gravulien at $bin: build first"; exit 2; }
# Each watcher is a socket in this process: raise the soft limit as far as allowed.
ulimit -n "$(ulimit -Hn)" 2>/dev/null || true
exec node "$here/ws_watchers.mjs" "$bin" "$@"
