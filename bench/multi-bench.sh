#!/bin/sh
# Multi-process benchmark of 'gravulien serve' (bench/multi_bench.mjs): moves per second,
# move -> watcher latency and the event loop's stall with 2 processes on one PostgreSQL vs
# 1 on SQLite, G games played flat out for T seconds, 3 runs of each configuration
# alternated, medians.
# Usage: bench/multi-bench.sh [path-to-gravulien] [games=40] [seconds=10] [runs=3]
#        bench/multi-bench.sh OLD-gravulien NEW-gravulien [games] [seconds] [runs]
# With two binaries (the second argument is not a number) each configuration's runs are
# made with both, old and new alternating (the order flipped every run), and the summary
# gives both and the ratios new/old (of the medians, and the median of each run's ratio):
# moves/s, POST p99, watcher p99, the loop's stall p99 and worst, the worst ping.
# The stall: a thread of the client per server process does GET /api/health on a new
# connection every 50 ms and times a WebSocket ping every 100 ms (bench/probe.mjs).
# Needs node, the ws module of tests/server and PostgreSQL's server binaries
# (scripts/deps.sh); exits 77 without them. PostgreSQL runs through tests/pgtmp.sh with
# GV_PG_DURABLE=1 (fsync on), as SQLite syncs every commit.
here=$(cd "$(dirname "$0")" && pwd)
bin=${1:-$here/../build/gravulien}
[ $# -gt 0 ] && shift
old=""
case ${1:-} in
  '' | *[!0-9.]*) if [ -n "${1:-}" ]; then old=$bin; bin=$1; shift; fi ;;
esac
command -v node >/dev/null 2>&1 || { echo "node not installed: skipped"; exit 77; }
[ -f "$here/../tests/server/node_modules/ws/package.json" ] || { echo "ws not installed (scripts/deps.sh): skipped"; exit 77; }
pg=""
for d in $(ls -d ${GV_PG_BINDIR:-/usr/lib/postgresql/*/bin} 2>/dev/null); do
  [ -x "$d/initdb" ] && [ -x "$d/pg_ctl" ] && pg=$d
done
[ -n "$pg" ] || { echo "no PostgreSQL server (/usr/lib/postgresql/*/bin/initdb): skipped"; exit 77; }
abs() { case $1 in /*) echo "$1" ;; *) echo "$(pwd)/$1" ;; esac; }
[ -x "$bin" ] || { echo "no gravulien at $bin: build first"; exit 2; }
bin=$(abs "$bin")
if [ -n "$old" ]; then
  [ -x "$old" ] || { echo "no gravulien at $old: build first"; exit 2; }
  set -- "$(abs "$old")" "$bin" "$@"
else
  set -- "$bin" "$@"
fi
ulimit -n "$(ulimit -Hn)" 2>/dev/null || true
GV_PG_DURABLE=1 exec "$here/../tests/pgtmp.sh" node "$here/multi_bench.mjs" "$@"
