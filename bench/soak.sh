#!/bin/sh
# Soak benchmark of 'gravulien serve' (bench/soak.mjs): mixed traffic (people moving in
# many games, human-vs-AI and AI-vs-AI games, watchers coming and going) for MINUTES, the
# server killed with SIGKILL every few minutes and restarted on the same database; prints
# the loop's worst stall, memory over time and acknowledged moves lost, with the targets.
# Usage: bench/soak.sh [path-to-gravulien] [minutes=$SOAK_MINUTES or 30]
# SOAK_DB=pg runs it on a throwaway PostgreSQL (tests/pgtmp.sh, durability on) instead of
# SQLite. Needs node and the ws module of tests/server (scripts/deps.sh); exits 77 without.
here=$(cd "$(dirname "$0")" && pwd)
bin=${1:-$here/../build/gravulien}
[ $# -gt 0 ] && shift
command -v node >/dev/null 2>&1 || { echo "node not installed: skipped"; exit 77; }
[ -f "$here/../tests/server/node_modules/ws/package.json" ] || { echo "ws not installed (scripts/deps.sh): skipped"; exit 77; }
[ -x "$bin" ] || { echo "no gravulien at $bin: build first"; exit 2; }
case $bin in /*) ;; *) bin=$(pwd)/$bin ;; esac
ulimit -n "$(ulimit -Hn)" 2>/dev/null || true
if [ "${SOAK_DB:-sqlite}" = pg ]; then
  GV_PG_DURABLE=1 exec "$here/../tests/pgtmp.sh" node "$here/soak.mjs" "$bin" "$@"
fi
exec node "$here/soak.mjs" "$bin" "$@"
