#!/bin/sh
# Runs a command next to a throwaway PostgreSQL server:
#
#   tests/pgtmp.sh COMMAND [ARGS...]
#
# initdb into a fresh temporary directory, trust authentication, a free port on
# 127.0.0.1 (and a Unix socket in the same directory, nowhere else), durability off
# (fsync, synchronous_commit) since the data is thrown away. The command runs as the
# caller with GV_TEST_PG=postgres://postgres@127.0.0.1:PORT/postgres in its environment
# (and GV_TEST_PG_CTL, a command that stops or starts that server: "$GV_TEST_PG_CTL stop");
# the server is stopped and its directory removed afterwards, whatever happens (the
# command failing, Ctrl-C, a TERM from ctest's timeout). Exits with the command's status,
# 77 (skipped) when no PostgreSQL server binaries are installed
# (/usr/lib/postgresql/*/bin/initdb, or GV_PG_BINDIR; scripts/deps.sh installs them), 1
# when the server does not start. Even when this script is killed outright (SIGKILL), a
# detached watchdog stops the server and removes the directory within a second.
#
# PostgreSQL refuses to run as root: under root, initdb and the server run as the
# 'postgres' system user the Debian package creates (or 'nobody' without it), which owns
# the temporary directory. The data never leaves that directory.
set -u

# GV_PG_DURABLE=1 keeps PostgreSQL's durability on (for benchmarks against SQLite, which
# syncs every commit); otherwise it is off, the data being thrown away.
if [ "${GV_PG_DURABLE:-0}" = 1 ]; then
  durability=""
else
  durability="-c fsync=off -c synchronous_commit=off -c full_page_writes=off"
fi

if [ $# -lt 1 ]; then
  echo "usage: $0 COMMAND [ARGS...]" >&2
  exit 2
fi

bindir=""
for d in $(ls -d ${GV_PG_BINDIR:-/usr/lib/postgresql/*/bin} 2>/dev/null | sort -V); do
  [ -x "$d/initdb" ] && [ -x "$d/pg_ctl" ] && bindir=$d   # the newest version wins
done
if [ -z "$bindir" ]; then
  echo "pgtmp: no PostgreSQL server (/usr/lib/postgresql/*/bin/initdb); skipped" >&2
  exit 77
fi

# Who runs the server: the caller, or an unprivileged user when the caller is root.
as=""
if [ "$(id -u)" = 0 ]; then
  if id postgres >/dev/null 2>&1; then as=postgres
  elif id nobody >/dev/null 2>&1; then as=nobody
  else
    echo "pgtmp: running as root and neither a 'postgres' nor a 'nobody' user exists" >&2
    exit 1
  fi
fi
run() {   # run ARGS... as the server's user, from the server's directory
  if [ -z "$as" ]; then
    (cd "$dir" && "$@")
  elif command -v runuser >/dev/null 2>&1; then
    (cd "$dir" && runuser -u "$as" -- "$@")
  else
    (cd "$dir" && su -s /bin/sh "$as" -c '"$0" "$@"' "$@")
  fi
}

# tests/pgtmp.sh --watchdog PID DIR: waits for process PID to end, then stops the server
# of DIR (when still there) and removes DIR.
if [ "$1" = "--watchdog" ] && [ $# = 3 ]; then
  dir=$3
  cd /
  while kill -0 "$2" 2>/dev/null; do sleep 1; done
  [ -d "$dir" ] || exit 0
  [ -f "$dir/data/postmaster.pid" ] && run "$bindir/pg_ctl" -D "$dir/data" -m immediate -w stop
  rm -rf "$dir"
  exit 0
fi

# tests/pgtmp.sh --ctl DIR PORT stop|start: stops the server of DIR, or starts it again on
# PORT (a test of what the program does while its database is down runs this through
# GV_TEST_PG_CTL, below).
if [ "$1" = "--ctl" ] && [ $# = 4 ]; then
  dir=$2
  case $4 in
    stop) run "$bindir/pg_ctl" -D "$dir/data" -m fast -w -t 30 stop >/dev/null ;;
    start) run "$bindir/pg_ctl" -D "$dir/data" -l "$dir/server.log" -w -t 60 \
             -o "-p $3 -c listen_addresses=127.0.0.1 -k $dir $durability -c max_connections=50" \
             start >/dev/null ;;
    *) exit 2 ;;
  esac
  exit $?
fi

dir=$(mktemp -d "${TMPDIR:-/tmp}/gv-pgtmp.XXXXXX") || exit 1
started=0
cleanup() {
  if [ "$started" = 1 ]; then
    run "$bindir/pg_ctl" -D "$dir/data" -m immediate -w -t 30 stop >/dev/null 2>&1
    started=0
  fi
  rm -rf "$dir"
}
child=""
stop_child() { [ -n "$child" ] && kill -TERM "$child" 2>/dev/null; }
trap cleanup EXIT
trap 'stop_child; exit 130' INT
trap 'stop_child; exit 143' TERM
trap 'stop_child; exit 129' HUP
[ -n "$as" ] && chown "$as" "$dir"

# The watchdog (this script again, see above): outside this script's process group and
# tree, it outlives a SIGKILL of the script (ctest's timeout), then cleans up.
if command -v setsid >/dev/null 2>&1; then
  setsid sh "$0" --watchdog $$ "$dir" </dev/null >/dev/null 2>&1 &
else
  ( sh "$0" --watchdog $$ "$dir" </dev/null >/dev/null 2>&1 & )
fi

if ! run "$bindir/initdb" -D "$dir/data" -U postgres -A trust -E UTF8 --no-locale \
     --no-sync >"$dir/initdb.log" 2>&1; then
  echo "pgtmp: initdb failed:" >&2
  cat "$dir/initdb.log" >&2
  exit 1
fi

# A free port: try random ones until the server binds one (pg_ctl -w fails otherwise).
port=""
tries=0
while [ $tries -lt 20 ]; do
  tries=$((tries + 1))
  p=$(( 20000 + $(od -An -N2 -tu2 /dev/urandom | tr -d ' ') % 40000 ))
  if run "$bindir/pg_ctl" -D "$dir/data" -l "$dir/server.log" -w -t 60 \
       -o "-p $p -c listen_addresses=127.0.0.1 -k $dir $durability -c max_connections=50" \
       start >/dev/null 2>&1; then
    port=$p
    started=1
    break
  fi
  # Not started: a port taken shows in the log; anything else is fatal.
  if ! grep -q "could not bind\|Address already in use\|could not create any TCP/IP" \
       "$dir/server.log" 2>/dev/null; then
    break
  fi
  run rm -f "$dir/server.log"
done
if [ -z "$port" ]; then
  echo "pgtmp: the PostgreSQL server did not start:" >&2
  cat "$dir/server.log" >&2 2>/dev/null
  exit 1
fi

GV_TEST_PG="postgres://postgres@127.0.0.1:$port/postgres"
export GV_TEST_PG
# "$GV_TEST_PG_CTL stop" and "$GV_TEST_PG_CTL start": the server down and up again.
GV_TEST_PG_CTL="sh $(cd "$(dirname "$0")" && pwd)/$(basename "$0") --ctl $dir $port"
export GV_TEST_PG_CTL
echo "pgtmp: PostgreSQL $("$bindir/postgres" -V | awk '{print $3}') at $GV_TEST_PG (as ${as:-$(id -un)}, in $dir)" >&2
# In the background so that INT/TERM reach the traps at once (a shell waiting for a
# foreground command handles them only when it ends); stdin passed on explicitly.
exec 3<&0
"$@" <&3 3<&- &
child=$!
wait "$child"
rc=$?
child=""
exit $rc
