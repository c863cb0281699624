#!/bin/sh
# Multi-process benchmark of 'gravulien serve' (bench/multi_bench.mjs): moves per second
# and move -> watcher latency with 2 processes on one PostgreSQL vs 1 on SQLite, G games
# played flat out for T seconds, 3 runs of each configuration alternated, medians.
# Usage: bench/multi-bench.sh [path-to-gravulien] [games=40] [seconds=10] [runs=3]
# Needs node, the ws module of tests/server and PostgreSQL's server binaries
# (scripts/deps.sh); exits 77 without them. PostgreSQL runs through tests/pgtmp.sh with
# GV_PG_DURABLE=1 (fsync on), as SQLite syncs every commit.
here=$(cd "$(dirname "$0")" && pwd)
bin=${1:-$here/../build/gravulien}
[ $# -gt 0 ] && shift
command -v node >/dev/null 2>&1 || { echo "node not installed: skipped"; exit 77; }
[ -f "$here/../tests/server/node_modules/ws/package.json" ] || { echo "ws not installed (scripts/deps.sh): skipped"; exit 77; }
pg=""
for d in $(ls -d ${GV_PG_BINDIR:-/usr/lib/postgresql/*/bin} 2>/dev/null); do
  [ -x "$d/initdb" ] && [ -x "$d/pg_ctl" ] && pg=$d
done
[ -n "$pg" ] || { echo "no PostgreSQL server (/usr/lib/postgresql/*/bin/initdb): skipped"; exit 77; }
[ -x "$bin" ] || { echo "no gravulien at $bin: build first"; exit 2; }
case $bin in /*) ;; *) bin=$(pwd)/$bin ;; esac
ulimit -n "$(ulimit -Hn)" 2>/dev/null || true
GV_PG_DURABLE=1 exec "$here/../tests/pgtmp.sh" node "$here/multi_bench.mjs" "$bin" "$@"
