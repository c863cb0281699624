#!/bin/sh
# Command-line behaviour of gravulien: outputs, one-line errors and exit statuses.
BIN="$1"
fail=0
out=$(mktemp) err=$(mktemp)
trap 'rm -f "$out" "$err"' EXIT

run() { # expected-status description command...
  want=$1; shift; what=$1; shift
  "$@" >"$out" 2>"$err" </dev/null
  got=$?
  if [ "$got" != "$want" ]; then
    echo "FAIL $what: exit $got, expected $want"; cat "$err"; fail=1; return 1
  fi
  echo "ok   $what"
}
last_line_is() { # description expected
  if [ "$(tail -n 1 "$out")" != "$2" ]; then
    echo "FAIL $1: last line '$(tail -n 1 "$out")', expected '$2'"; fail=1
  fi
}
one_line_error() { # description pattern
  if [ "$(wc -l <"$err")" -ne 1 ] || ! grep -q "$2" "$err"; then
    echo "FAIL $1: expected one error line matching '$2', got:"; cat "$err"; fail=1
  fi
}

START='lfcsgekgscfl/a1b1txot1b1a/mvrhdqndhrvm/pppppppppppp/3i4i3/12/12/3I4I3/PPPPPPPPPPPP/MVRHDNQDHRVM/A1B1TOXT1B1A/LFCSGKEGSCFL b - 1'

# perft
run 0 "perft chu 1" "$BIN" perft chu 1 && last_line_is "perft chu 1" "nodes 36"
run 0 "perft chu 3" "$BIN" perft chu 3 && last_line_is "perft chu 3" "nodes 48315"
run 0 "perft chu 2 with SFEN as one argument" "$BIN" perft chu 2 "$START" && last_line_is "perft sfen" "nodes 1296"
run 0 "perft chu 2 with SFEN as several arguments" "$BIN" perft chu 2 $START && last_line_is "perft split sfen" "nodes 1296"
run 0 "perft chu 2 startpos" "$BIN" perft chu 2 startpos && last_line_is "perft startpos" "nodes 1296"
run 0 "perft --divide" "$BIN" perft chu 2 --divide && last_line_is "divide total" "nodes 1296"
[ "$(grep -c ' 36$' "$out")" -eq 36 ] || { echo "FAIL divide: expected 36 lines 'move 36'"; fail=1; }
run 0 "perft depth 0" "$BIN" perft chu 0 && last_line_is "perft 0" "nodes 1"
run 0 "perft with options" "$BIN" perft chu 2 --options lion_double=jcsa,promotion=msm && last_line_is "perft options" "nodes 1296"

# moves
run 0 "moves chu" "$BIN" moves chu
[ "$(wc -l <"$out")" -eq 36 ] || { echo "FAIL moves chu: expected 36 lines"; fail=1; }
grep -qx '7j7h' "$out" || { echo "FAIL moves chu: lion jump 7j7h missing"; fail=1; }
run 0 "moves of an ended game print nothing" "$BIN" moves chu '12/12/12/12/12/12/12/12/12/12/12/5K6 w - 1'
[ -s "$out" ] && { echo "FAIL ended game has moves"; fail=1; }

# Exac
run 0 "perft exac 2" "$BIN" perft exac 2 && last_line_is "perft exac 2" "nodes 1849"
run 0 "perft exac 3 from text" "$BIN" perft exac 3 '1SSSSS1/SSSSSSS/7/7/7/FFFFFFF/1FFFFF1 f 0 1' && last_line_is "perft exac 3" "nodes 105189"
run 0 "moves exac" "$BIN" moves exac
[ "$(wc -l <"$out")" -eq 43 ] || { echo "FAIL moves exac: expected 43 lines"; fail=1; }
LC_ALL=C sort -c "$out" 2>/dev/null || { echo "FAIL moves exac: not sorted"; fail=1; }
run 2 "exac malformed position" "$BIN" moves exac '1SSSSS1/SSSSSSS/7/7/7/FFFFFFF/1FFFFX1 f 0 1' && one_line_error "exac malformed" "rank 7"
run 2 "exac bad option" "$BIN" moves exac --options quiet_limit=-3 && one_line_error "exac bad option" "quiet_limit"

# Grav
run 0 "moves grav" "$BIN" moves grav --options size=7,players=3
grep -qx '1 pass' "$out" || { echo "FAIL moves grav: '1 pass' missing"; fail=1; }
[ "$(grep -c ' place ' "$out")" -eq 49 ] || { echo "FAIL moves grav: expected 49 placements"; fail=1; }
run 2 "grav bad size" "$BIN" moves grav --options size=9 && one_line_error "grav bad size" "size"
run 2 "grav bad position" "$BIN" moves grav 'N=7 players=2' && one_line_error "grav bad position" "missing"
run 2 "vectors missing file" "$BIN" vectors grav /nonexistent.jsonl && one_line_error "vectors missing" "cannot open"

# errors: one line, exit status 2
run 2 "unknown game" "$BIN" perft nosuchgame 2 && one_line_error "unknown game" "unknown game 'nosuchgame'"
run 2 "bad depth" "$BIN" perft chu x && one_line_error "bad depth" "bad depth"
run 2 "negative depth" "$BIN" perft chu -1 && one_line_error "negative depth" "depth"
run 2 "missing depth" "$BIN" perft chu && one_line_error "missing depth" "usage"
run 2 "malformed position" "$BIN" perft chu 1 'lfcsgekgscfl/zzz b - 1' && one_line_error "malformed position" "unknown piece"
run 2 "short rank" "$BIN" moves chu '11/12/12/12/12/12/12/12/12/12/12/5K6 b - 1' && one_line_error "short rank" "rank a"
run 2 "bad side" "$BIN" moves chu '12/12/12/12/12/12/12/12/12/12/12/5K6 x - 1' && one_line_error "bad side" "side to move"
run 2 "unknown option" "$BIN" moves chu --options nosuch=1 && one_line_error "unknown option" "unknown option"
run 2 "bad option value" "$BIN" moves chu --options bare_king=maybe && one_line_error "bad option value" "bare_king"
run 2 "unknown command" "$BIN" frobnicate && one_line_error "unknown command" "unknown command"
run 2 "no command" "$BIN"

# think, bench, selfplay
run 0 "think chu depth 3" "$BIN" think chu --depth 3
grep -q '^bestmove [0-9]' "$out" || { echo "FAIL think chu: no bestmove"; fail=1; }
grep -q '^info depth 3 ' "$out" || { echo "FAIL think chu: no depth-3 report"; fail=1; }
run 0 "think exac after moves" "$BIN" think exac --moves 'm5 m3' --nodes 3000 --level 4
grep -q '^bestmove ' "$out" || { echo "FAIL think exac: no bestmove"; fail=1; }
run 0 "think grav" "$BIN" think grav --options size=7,players=3 --nodes 2000
grep -q '^bestmove 1 ' "$out" || { echo "FAIL think grav: player 1 should move"; fail=1; }
run 2 "think illegal move" "$BIN" think chu --moves '7i7h 7i7h' && one_line_error "think illegal" "7i7h"
run 2 "think bad level" "$BIN" think exac --level 11 && one_line_error "think level" "level"
run 0 "think grav after moves of several words" "$BIN" think grav --options size=5,seed=3 --moves '1 place c3 2 accept' --nodes 200
grep -q '^position .*phase=turn current=2 ' "$out" || { echo "FAIL think grav --moves: the moves were not both played"; cat "$out"; fail=1; }
run 0 "think grav after moves separated by commas" "$BIN" think grav --options size=5,seed=3 --moves '1 place c3, 2 accept' --nodes 200
grep -q '^position .*phase=turn current=2 ' "$out" || { echo "FAIL think grav --moves with commas"; fail=1; }
run 2 "think bad depth" "$BIN" think exac --depth zero && one_line_error "think depth" "bad option"
run 2 "think ended game" "$BIN" think chu '12/12/12/12/12/12/12/12/12/12/12/5K6 w - 1' && one_line_error "think ended" "over"
run 0 "xboard --threads 2" "$BIN" xboard --threads 2
run 0 "usi --threads 2" "$BIN" usi --threads 2
run 2 "xboard --threads 0" "$BIN" xboard --threads 0 && one_line_error "xboard --threads 0" "bad option '--threads'"
run 2 "usi --threads x" "$BIN" usi --threads x && one_line_error "usi --threads x" "bad option '--threads'"
run 0 "selfplay exac" "$BIN" selfplay exac --a level=2 --b greedy --games 2 --seed 4
grep -q '^A level=2 vs B greedy: ' "$out" || { echo "FAIL selfplay: no score line"; fail=1; }
run 2 "selfplay bad player" "$BIN" selfplay exac --a level=0 && one_line_error "selfplay player" "bad player"
run 2 "selfplay bad tc" "$BIN" selfplay chu --tc 1+x && one_line_error "selfplay tc" "time control"
run 2 "selfplay unknown game" "$BIN" selfplay go && one_line_error "selfplay game" "unknown game"
run 2 "bench unknown game" "$BIN" bench go && one_line_error "bench game" "unknown game"

# play: two people at one keyboard, scripted (the terminal UI proper is tests/play.sh)
printf '7i7h\n6d6e\nxyz\n7i7h\nundo\nmoves\nquit\n' | "$BIN" play chu >"$out" 2>"$err"
[ $? -eq 0 ] || { echo "FAIL play exit status"; fail=1; }
grep -q "Illegal move" "$out" || { echo "FAIL play: illegal move not reported"; fail=1; }
grep -q "no piece on 7i" "$out" || { echo "FAIL play: reason for illegal 7i7h missing"; fail=1; }
echo "ok   play scripted"

# record: check, replay and convert game records (docs/records.md)
REC="$(cd "$(dirname "$0")" && pwd)/data/records"
tmpk=$(mktemp) tmpu=$(mktemp)
run 0 "record chu check KIF" "$BIN" record chu check "$REC/chu-2.kif" &&
  last_line_is "record check kif" "ok: 508 moves, result 0-1 (royal captured)"
run 0 "record chu convert KIF to USI" "$BIN" record chu convert "$REC/chu-1.kif" --out "$tmpu"
head -n 1 "$tmpu" | grep -q '^\[Game "Chu Shogi"\]$' || { echo "FAIL record convert: no Game tag"; fail=1; }
run 0 "record chu convert USI to KIF" "$BIN" record chu convert "$tmpu" --out "$tmpk"
# shogiops writes an empty 手合割 for the start; ours names it (docs/records.md)
if [ "$(tail -n +2 "$tmpk")" != "$(tail -n +2 "$REC/chu-1.kif")" ] || [ "$(head -n 1 "$tmpk")" != "手合割：中将棋" ]; then
  echo "FAIL record chu KIF -> USI -> KIF differs from shogiops' KIF"; fail=1
fi
run 0 "record chu check USI" "$BIN" record chu check "$tmpu" && last_line_is "record check usi" "ok: 120 moves, result * (going on)"
sed 's/^   3   7十奔王 （←6十）$/   3   7十奔王 （←6九）/' "$REC/chu-1.kif" >"$tmpk"
run 1 "record chu check refuses a bad move" "$BIN" record chu check "$tmpk"
grep -q "^refused: move 3 (Sente) '7十奔王 （←6九）': " "$out" || { echo "FAIL record refusal line:"; cat "$out"; fail=1; }
run 1 "record convert refuses too" "$BIN" record chu convert "$tmpk" && one_line_error "record convert refused" "move 3 (Sente)"
run 0 "record chu replay" "$BIN" record chu replay "$REC/chu-4.kif" && last_line_is "record replay" "result 0-1 (royal captured)"
grep -q '^1\. [0-9]' "$out" || { echo "FAIL record replay: no move lines"; fail=1; }
run 0 "record exac check" "$BIN" record exac check "$REC/exac-1.pgn" && last_line_is "record exac" "ok: 54 moves, result 0-1 (yachi toppled)"
run 0 "record exac convert" "$BIN" record exac convert "$REC/exac-1.pgn"
cmp -s "$out" "$REC/exac-1.pgn" || { echo "FAIL record exac convert is not canonical"; fail=1; }
run 0 "record grav check" "$BIN" record grav check "$REC/grav-1.json" && last_line_is "record grav" "ok: 300 moves, result * (going on)"
run 0 "record grav convert" "$BIN" record grav convert "$REC/grav-1.json" --to json
cmp -s "$out" "$REC/grav-1.json" || { echo "FAIL record grav convert is not canonical"; fail=1; }
run 1 "record wrong game" "$BIN" record exac check "$REC/grav-1.json" && grep -q "^refused: this looks like a Grav record" "$out" || { echo "FAIL record wrong game"; fail=1; }
run 1 "record missing file" "$BIN" record chu check "$REC/none.kif" && one_line_error "record missing file" "cannot read"
run 2 "record bad format" "$BIN" record exac convert "$REC/exac-1.pgn" --to kif && one_line_error "record bad format" "written as pgn"
run 2 "record bad action" "$BIN" record chu frobnicate "$REC/chu-1.kif" && one_line_error "record bad action" "unknown action"
run 2 "record missing arguments" "$BIN" record chu check
run 2 "record --to without convert" "$BIN" record chu check "$REC/chu-1.kif" --to kif
printf '1. 7i7h 2. 6d6e\n' | "$BIN" record chu convert - --to kif >"$out" 2>"$err"
[ $? -eq 0 ] && grep -q '^まで2手で中断$' "$out" || { echo "FAIL record from stdin"; fail=1; }
echo "ok   record from stdin"
rm -f "$tmpk" "$tmpu"

# serve without its page: an error at start, not a server answering 404 to every page
nodb=$(mktemp -d)
run 1 "serve with a missing web directory" "$BIN" serve --port 0 --db "$nodb/games.db" --web "$nodb/none" &&
  one_line_error "serve with a missing web directory" "cannot read the web directory"
mkdir "$nodb/empty"
run 1 "serve with an empty web directory" "$BIN" serve --port 0 --db "$nodb/games.db" --web "$nodb/empty" &&
  one_line_error "serve with an empty web directory" "no page files"
run 2 "serve --threads 0" "$BIN" serve --threads 0 --port 0 --db "$nodb/games.db" &&
  one_line_error "serve --threads 0" "bad option '--threads 0'"
run 2 "serve --ws-buffer 0" "$BIN" serve --ws-buffer 0 --port 0 --db "$nodb/games.db" &&
  one_line_error "serve --ws-buffer 0" "bad option '--ws-buffer 0'"
run 2 "serve --io-uring yes" "$BIN" serve --io-uring yes --port 0 --db "$nodb/games.db" &&
  one_line_error "serve --io-uring yes" "bad option '--io-uring yes'"
run 2 "serve --max-games-in-memory 8" "$BIN" serve --max-games-in-memory 8 --port 0 --db "$nodb/games.db" &&
  one_line_error "serve --max-games-in-memory 8" "bad option '--max-games-in-memory 8'"
# serve --config FILE: its options first, the command line's over them; errors name the file
printf '# a comment\nbogus = 1\n' >"$nodb/bad.conf"
run 2 "serve --config with a bad option" "$BIN" serve --config "$nodb/bad.conf" &&
  one_line_error "serve --config with a bad option" "bad.conf: bad option '--bogus 1'"
run 1 "serve --config of a missing file" "$BIN" serve --config "$nodb/none.conf" &&
  one_line_error "serve --config of a missing file" "cannot read the config file"
printf 'config = other.conf\n' >"$nodb/loop.conf"
run 1 "serve --config naming a config" "$BIN" serve --config "$nodb/loop.conf" &&
  one_line_error "serve --config naming a config" "cannot name another"
printf 'db = %s/conf#1.db   # the store (a "#" inside a value stays)\nport 0\nrate=0\nweb /nonexistent\n' "$nodb" >"$nodb/ok.conf"
# the command line's --web wins over the file's (which names no page: an error at start)
( exec "$BIN" serve --config "$nodb/ok.conf" --web "$(dirname "$0")/../web" >"$nodb/conf.out" 2>&1 ) &
cpid=$!
for _ in $(seq 1 50); do grep -q 'http://' "$nodb/conf.out" 2>/dev/null && break; sleep 0.1; done
if grep -q "sqlite database $nodb/conf#1.db" "$nodb/conf.out"; then
  echo "ok   serve --config: the file's options, the command line's over them"
else
  echo "FAIL serve --config:"; cat "$nodb/conf.out"; fail=1
fi
kill "$cpid" 2>/dev/null; wait "$cpid" 2>/dev/null
rm -rf "$nodb"

# install: the program, its web page and its manual page under a staging root, and the
# installed program's server finding its web page without --web
BUILD=$(dirname "$BIN")
get() { # URL: the body on stdout (curl, or node's fetch)
  if command -v curl >/dev/null; then curl -fsS --max-time 10 "$1"
  else node -e 'fetch(process.argv[1]).then(async r => { if (!r.ok) process.exit(1); process.stdout.write(await r.text()); })' "$1"; fi
}
if [ -f "$BUILD/cmake_install.cmake" ] && command -v cmake >/dev/null && { command -v curl || command -v node; } >/dev/null; then
  inst=$(mktemp -d)
  # cmake --install writes its list of installed files into the build tree; keep that tree
  # as it was
  had_manifest=0; [ -e "$BUILD/install_manifest.txt" ] && had_manifest=1
  if DESTDIR="$inst" cmake --install "$BUILD" --prefix /opt/gv >"$out" 2>"$err"; then
    echo "ok   cmake --install into a staging root"
  else
    echo "FAIL cmake --install:"; cat "$out" "$err"; fail=1
  fi
  [ $had_manifest = 1 ] || rm -f "$BUILD/install_manifest.txt"
  for f in bin/gravulien share/gravulien/web/index.html share/gravulien/web/app.js share/man/man1/gravulien.1 lib/systemd/system/gravulien.service; do
    [ -f "$inst/opt/gv/$f" ] || { echo "FAIL install: $f missing"; fail=1; }
  done
  [ -x "$inst/opt/gv/bin/gravulien" ] || { echo "FAIL install: the program is not executable"; fail=1; }
  grep -q '^ExecStart=/opt/gv/bin/gravulien serve ' "$inst/opt/gv/lib/systemd/system/gravulien.service" 2>/dev/null ||
    { echo "FAIL install: the systemd unit does not start the installed program"; fail=1; }
  if [ -x "$inst/opt/gv/bin/gravulien" ]; then
    # a mark in the installed copy only: the page served must be that copy, not the source's
    echo '<!-- installed copy -->' >>"$inst/opt/gv/share/gravulien/web/index.html"
    (cd "$inst" && exec "$inst/opt/gv/bin/gravulien" serve --port 0 --db "$inst/games.db" >"$inst/serve.out" 2>&1) &
    spid=$!
    url=
    for _ in $(seq 1 100); do
      url=$(grep -o 'http://[0-9.]*:[0-9]*/' "$inst/serve.out" 2>/dev/null | head -n 1)
      [ -n "$url" ] && break
      sleep 0.1
    done
    if [ -z "$url" ]; then
      echo "FAIL installed serve printed no URL:"; cat "$inst/serve.out"; fail=1
    elif get "$url" >"$out" 2>"$err" && grep -q 'installed copy' "$out"; then
      echo "ok   installed serve finds its web page"
    else
      echo "FAIL installed serve: GET / is not the installed index.html"; cat "$err"; fail=1
    fi
    kill "$spid" 2>/dev/null; wait "$spid" 2>/dev/null
  fi
  rm -rf "$inst"
else
  echo "skip install (no cmake_install.cmake beside $BIN, or no cmake, or neither curl nor node)"
fi

exit $fail
