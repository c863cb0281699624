#!/bin/sh
# The search's signature: `gravulien bench` node counts and result digests (best moves and
# scores) per game and in total must equal the pinned ones in
# tests/data/bench-signature.txt. A change to search behaviour changes them on purpose:
# then run `gravulien bench` and update the file in the same commit.
BIN="$1"
DATA="$(dirname "$0")/data/bench-signature.txt"
got=$("$BIN" bench | grep 'Nodes searched:' | sed 's/  nps.*//')
want=$(cat "$DATA")
if [ "$got" != "$want" ]; then
  echo "FAIL bench signature changed:"
  echo "--- expected"; echo "$want"
  echo "--- got"; echo "$got"
  exit 1
fi
echo "ok   bench signature"
echo "$got"
