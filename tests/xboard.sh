#!/bin/sh
# A real peer: XBoard 4.9 (Debian `xboard`) under a virtual X server (Xvfb) plays a short
# Chu Shogi game and a short Exac game between two copies of `gravulien xboard`, and the
# test reads XBoard's debug transcript and saved game.
# Usage: tests/xboard.sh <path-to-gravulien>. Skips (77) only when xboard or xvfb-run is
# missing; scripts/deps.sh installs both.
BIN=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
XBOARD=/usr/games/xboard
[ -x "$XBOARD" ] || XBOARD=$(command -v xboard)
if [ -z "$XBOARD" ] || ! command -v xvfb-run >/dev/null 2>&1; then
  echo "xboard or xvfb-run not installed: skipped"; exit 77
fi
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
fail=0
# XBoard reads and, on exit, rewrites a settings file: the system configuration
# (/etc/xboard/xboard.conf) names ~/.xboardrc. Every run here has its own, inside $dir,
# is told not to save it, and runs with HOME=$dir, so that nothing of the user's is read or
# written (a saved -saveGameFile would otherwise point into this deleted directory).
home_rc="${HOME:-/nonexistent}/.xboardrc"
home_rc_before=$(ls -l --time-style=full-iso "$home_rc" 2>/dev/null)

# play VARIANT MOVES EXTRA...: one game, both sides ours (levels 7 and 6, which never
# play a random blunder that could end the game early), 10 s + 0.1 s,
# adjudicated a draw by XBoard after MOVES moves unless it ends before.
play() {
  v=$1; moves=$2; shift 2
  rm -f "$dir/$v.debug" "$dir/$v.pgn"
  (cd "$dir" && HOME="$dir" timeout 300 xvfb-run -a "$XBOARD" \
    -settingsFile "$dir/xboardrc" -saveSettingsFile "$dir/xboardrc" -saveSettingsOnExit false \
    -fcp "$BIN xboard --level 7 --hash 8" -fd "$dir" \
    -scp "$BIN xboard --level 6 --hash 8" -sd "$dir" \
    -variant "$v" -matchGames 1 -timeControl 0:10 -timeIncrement 0.1 \
    -adjudicateDrawMoves "$moves" -popupExitMessage false \
    -debug -nameOfDebugFile "$dir/$v.debug" -saveGameFile "$dir/$v.pgn" "$@" \
    >"$dir/$v.out" 2>&1)
  rc=$?
  if [ $rc -ne 0 ] || [ ! -s "$dir/$v.debug" ] || [ ! -s "$dir/$v.pgn" ]; then
    echo "FAIL $v: xboard exit $rc, no transcript or no saved game"
    grep -v ALSA "$dir/$v.out" | tail -5
    fail=1; return 1
  fi
  dbg="$dir/$v.debug"
  # Both engines made moves, and neither ever refused one or erred.
  first=$(grep -c '<first : move ' "$dbg")
  second=$(grep -c '<second: move ' "$dbg")
  if [ "$first" -lt 5 ] || [ "$second" -lt 5 ]; then
    echo "FAIL $v: too few moves (first $first, second $second)"; fail=1
  fi
  if grep -E '<(first |second): (Illegal move|Error|tellusererror)' "$dbg" >/dev/null; then
    echo "FAIL $v: an engine refused a move or a command:"
    grep -E '<(first |second): (Illegal move|Error|tellusererror)' "$dbg" | head -5; fail=1
  fi
  if grep -E 'Forfeit|False win claim|illegal' "$dbg" "$dir/$v.out" >/dev/null; then
    echo "FAIL $v: XBoard rejected a move or a claim:"
    grep -E 'Forfeit|False win claim|illegal' "$dbg" "$dir/$v.out" | head -5; fail=1
  fi
  # The game ended: by the rules (our claim) or XBoard's move-count adjudication.
  if ! grep -E '^\[Result "(1-0|0-1|1/2-1/2)"\]' "$dir/$v.pgn" >/dev/null; then
    echo "FAIL $v: no result in the saved game"; fail=1
  fi
  echo "ok   $v: $first + $second moves; $(grep '^\[Result' "$dir/$v.pgn")"
}

# Chu: XBoard knows the rules (lion double moves, promotions) and checks every move.
play chu 40
grep -q '<first : feature .*variants="chu,exac"' "$dir/chu.debug" ||
  { echo "FAIL chu: no variants feature"; fail=1; }
# Chu from a set-up position (a saved game with a FEN tag): XBoard sends it with setboard.
cat >"$dir/setup.pgn" <<'EOF2'
[Event "set-up position"]
[Variant "chu"]
[FEN "lfcsgekgscfl/a1b1txot1b1a/mvrhdqndhrvm/pppppppppppp/3i4i3/12/12/3I3PI3/PPPPPPP1PPPP/MVRHDNQDHRVM/A1B1TOXT1B1A/LFCSGKEGSCFL b - - 0 1"]
[SetUp "1"]

*
EOF2
play chu 12 -loadGameFile "$dir/setup.pgn"
grep -q '>first : setboard lfcsgekgscfl/.*/3I3PI3/PPPPPPP1PPPP/.* b ' "$dir/chu.debug" ||
  { echo "FAIL chu: XBoard sent no setboard"; fail=1; }
# Exac: defined by the engine (setup + piece); XBoard cannot judge its rules, so its own
# claim test is off (as docs/xboard.md tells users).
play exac 60 -testClaims false
grep -q '<first : setup (....M.....m.) 7x7+0_fairy 1mmmmm1/mmmmmmm/7/7/7/MMMMMMM/1MMMMM1 w - - 0 1' \
  "$dir/exac.debug" || { echo "FAIL exac: no setup command"; fail=1; }
grep -q '^\[Variant "exac"\]' "$dir/exac.pgn" || { echo "FAIL exac: not saved as exac"; fail=1; }
# Nothing saved: neither in this run's settings file nor in the user's.
for f in "$dir/xboardrc" "$dir/.xboardrc"; do
  [ -e "$f" ] && { echo "FAIL XBoard saved its settings in $f"; fail=1; }
done
[ "$(ls -l --time-style=full-iso "$home_rc" 2>/dev/null)" = "$home_rc_before" ] ||
  { echo "FAIL XBoard changed $home_rc"; fail=1; }
exit $fail
