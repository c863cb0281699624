#!/bin/sh
# Command-line behaviour of build/gravulien: outputs, errors and exit statuses.
BIN="$1"
fail=0
expect_status() { # expected-status description command...
  want=$1; shift; what=$1; shift
  "$@" >/tmp/gv_cli_out.$$ 2>/tmp/gv_cli_err.$$
  got=$?
  if [ "$got" != "$want" ]; then
    echo "FAIL $what: exit $got, expected $want"; cat /tmp/gv_cli_err.$$; fail=1
  else
    echo "ok   $what"
  fi
}
expect_status 0 "perft chu 2" "$BIN" perft chu 2
[ "$(tail -n1 /tmp/gv_cli_out.$$)" = "nodes 1296" ] || { echo "FAIL perft chu 2 output"; fail=1; }
rm -f /tmp/gv_cli_out.$$ /tmp/gv_cli_err.$$
exit $fail
