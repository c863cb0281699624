#!/bin/sh
# WebSocket watcher benchmark of 'gravulien serve' (bench/ws_watchers.mjs): N watchers of
# one game on loopback, move -> watcher latency, memory per connection.
# Usage: bench/ws-bench.sh [path-to-gravulien] [watchers=10000] [moves=50] [client-threads=1]
# STEER=1 (root, 2 cores or more): the server runs on core 0 and loopback's receiving half
# on core 1 (receive packet steering), so that the server's CPU does not include its
# watchers' TCP input, as on a network; the setting is restored afterwards. It then
# also prints the packets loopback's receive queues dropped meanwhile (past
# net.core.netdev_max_backlog, when the client falls behind): their retransmissions are
# in the server's CPU, and the latency maxima (docs/dev/performance.md, 2026-11-28).
# STEER_BACKLOG=N (with STEER=1): that queue holds N packets during the run (100000: none
# is lost, and nearly every packet then costs the server an interrupt of core 1).
# Needs node and the ws module of tests/server (scripts/deps.sh); exits 77 without them.
here=$(cd "$(dirname "$0")" && pwd)
bin=${1:-$here/../build/gravulien}
[ $# -gt 0 ] && shift
command -v node >/dev/null 2>&1 || { echo "node not installed: skipped"; exit 77; }
[ -f "$here/../tests/server/node_modules/ws/package.json" ] || { echo "ws not installed (scripts/deps.sh): skipped"; exit 77; }
[ -x "$bin" ] || { echo "no gravulien at $bin: build first"; exit 2; }
# Each watcher is a socket in this process: raise the soft limit as far as allowed.
ulimit -n "$(ulimit -Hn)" 2>/dev/null || true
if [ "${STEER:-0}" = 1 ]; then
  rps=/sys/class/net/lo/queues/rx-0/rps_cpus
  old=$(cat "$rps" 2>/dev/null) && echo 2 > "$rps" 2>/dev/null ||
    { echo "STEER=1: cannot write $rps (root is needed)"; exit 2; }
  wrap=$(mktemp)
  printf '#!/bin/sh\nexec taskset -c 0 "%s" "$@"\n' "$(cd "$(dirname "$bin")" && pwd)/$(basename "$bin")" > "$wrap"
  chmod +x "$wrap"
  bl=/proc/sys/net/core/netdev_max_backlog
  old_bl=$(cat "$bl")
  if [ -n "${STEER_BACKLOG:-}" ]; then
    echo "$STEER_BACKLOG" > "$bl" 2>/dev/null || { echo "STEER_BACKLOG: cannot write $bl"; exit 2; }
  fi
  trap 'echo "$old" > "$rps"; echo "$old_bl" > "$bl"; rm -f "$wrap"' EXIT INT TERM
  echo "steered: server on core 0, loopback's receive on core 1"
  # The second column of /proc/net/softnet_stat, one line a core: packets dropped (hex).
  drops() { s=0; for h in $(awk '{print $2}' /proc/net/softnet_stat); do s=$((s + 0x$h)); done; echo $s; }
  d0=$(drops)
  node "$here/ws_watchers.mjs" "$wrap" "$@"
  rc=$?
  echo "steered: $(( $(drops) - d0 )) packets dropped by loopback's receive queues" \
       "(net.core.netdev_max_backlog $(cat "$bl"))"
  exit $rc
fi
exec node "$here/ws_watchers.mjs" "$bin" "$@"
