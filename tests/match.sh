#!/bin/sh
# gravulien match against real and scripted engines: HaChu against HaChu (XBoard), HaChu
# against a USI engine made of `gravulien think`, and engines that fail on purpose (do
# not start, never answer, die, play or refuse an impossible move). Every run is under
# `timeout`: the runner must never hang.
# Usage: tests/match.sh path/to/gravulien. Exit 77 (skipped) when HaChu is missing.
BIN=$1
HACHU=${HACHU:-/usr/games/hachu}
if [ ! -x "$HACHU" ]; then
    echo "SKIP: $HACHU not installed (Debian package hachu)"
    exit 77
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
out=$tmp/out
err=$tmp/err
fail=0
HACHU_RULES=last_rank=must,bare_king=off,repetition=off

# run EXPECTED_STATUS NAME ARGS...: runs gravulien match with a time limit.
run() {
    want=$1 name=$2
    shift 2
    start=$(date +%s)
    timeout 120 "$BIN" match "$@" >"$out" 2>"$err"
    got=$?
    echo "  $name: status $got, $(($(date +%s) - start)) s"
    if [ "$got" -ne "$want" ]; then
        echo "FAIL $name: status $got, expected $want"
        sed 's/^/    | /' "$out" "$err" | tail -20
        fail=1
        return 1
    fi
    return 0
}
# check_times NAME: the thinking-time report of both engines is there and sane: every engine
# moved and thought (times > 0), average <= longest, and total = average x moves to within
# the rounding of the printed average (0.0005 s per move).
check_times() {
    for e in e1 e2; do
        line=$(grep "^Thinking time of $e (" "$out")
        if [ -z "$line" ]; then
            echo "FAIL $1: no thinking time of $e"; fail=1; continue
        fi
        echo "$line" | awk -v name="$1" '
            match($0, /: [0-9]+ moves, total [0-9.]+ s, average [0-9.]+ s per move, longest [0-9.]+ s$/) {
                s = substr($0, RSTART + 2); split(s, w, " ")
                n = w[1]; total = w[4]; avg = w[7]; longest = w[12]
                d = total - avg * n; if (d < 0) d = -d
                if (n > 0 && total > 0 && avg > 0 && avg <= longest + 0.0005 && longest <= total + 0.0005 && d <= 0.0005 * n + 0.001) exit 0
                print "FAIL " name ": insane times: " $0; exit 1
            }
            { print "FAIL " name ": bad format: " $0; exit 1 }' || fail=1
    done
    expect "$1" '^Time ratio e1/e2: [0-9]*\.[0-9][0-9][0-9] (average per move)$'
}
expect() {   # expect NAME PATTERN [FILE]: the output (or FILE) has a line matching PATTERN
    grep -q -- "$2" "${3:-$out}" || { echo "FAIL $1: no line matching '$2'"; sed 's/^/    | /' "$out" "$err" | tail -20; fail=1; }
}

# 1. HaChu against itself: legal moves only, both games played to the end or the cap.
# HaChu's known differences from our default rules are the options in HACHU_RULES (see
# docs/match.md); with them no rule difference is expected.
run 0 "hachu vs hachu" chu --e1 "$HACHU" --e2 "$HACHU" --games 2 --tc 1+0.05 \
    --max-plies 80 --seed 3 --rules "$HACHU_RULES" --log "$tmp/log" &&
    {
        expect "hachu vs hachu" '^game 1: e1 first, e2 second: '
        expect "hachu vs hachu" '^game 2: e2 first, e1 second: '
        expect "hachu vs hachu" '^Score of e1 (HaChu [0-9.]*) vs e2 (HaChu [0-9.]*): .* 2 games'
        expect "hachu vs hachu" '^Rule differences: 0 '
        expect "hachu vs hachu" 'engine failures: 0; no results: 0$'
        expect "hachu vs hachu log" ' e1 < memory 64$' "$tmp/log"
        expect "hachu vs hachu log" ' e2 < usermove ' "$tmp/log"
        check_times "hachu vs hachu"
    }

# 1b. Time odds: each engine is told its own clock (XBoard's level and time).
run 0 "time odds" chu --e1 "$HACHU" --e2 "$HACHU" --games 1 --tc1 1+0.05 --tc2 3+0.1 \
    --max-plies 20 --seed 5 --rules "$HACHU_RULES" --log "$tmp/log-odds" &&
    {
        expect "time odds" 'time e1 1+0.05 s, e2 3+0.1 s'
        expect "time odds log" ' e1 < level 0 0:01 0.05$' "$tmp/log-odds"
        expect "time odds log" ' e2 < level 0 0:03 0.1$' "$tmp/log-odds"
        check_times "time odds"
    }

# 1c. Heisei Chu between two USI engines: the drops cross as USI (XBoard, which has no
# drops, is spoken by neither engine, so its missing notation does not stop the match).
run 0 "heisei over usi" chu --e1 "$BIN usi --rules variant=heisei --hash 16 --level 1" --p1 usi \
    --e2 "$BIN usi --rules variant=heisei --hash 16 --level 1" --p2 usi --games 2 --st 0.2 \
    --max-plies 24 --seed 7 --rules variant=heisei &&
    {
        expect "heisei over usi" '^Score of e1 .* 2 games'
        expect "heisei over usi" 'no results: 0$'
    }

# 2. A USI engine: `gravulien think` behind a small USI loop, against HaChu (XBoard), so
# that every move crosses between the two notations. HaChu gets 'Allow repeats' (by
# default it refuses any move that repeats an earlier position; see docs/match.md).
cat >"$tmp/think-usi" <<EOF
#!/bin/sh
moves=""
while read -r cmd rest; do
    case "\$cmd" in
    usi) echo "id name think-usi"; echo "option name USI_Hash type spin default 16 min 1 max 64"; echo usiok ;;
    isready) echo readyok ;;
    position) moves=\$(echo "\$rest" | sed -n 's/^startpos moves //p') ;;
    go) echo "bestmove \$("$BIN" think chu --options $HACHU_RULES --depth 1 --level 1 --moves "\$moves" | sed -n 's/^bestmove //p')" ;;
    quit) exit 0 ;;
    esac
done
EOF
chmod +x "$tmp/think-usi"
run 0 "usi vs hachu" chu --e1 "$tmp/think-usi" --p1 usi --e2 "$HACHU" --o2 'Allow repeats=1' --games 2 --tc 2+0.1 \
    --max-plies 40 --rules "$HACHU_RULES" --log "$tmp/log2" &&
    {
        expect "usi vs hachu" '^Score of e1 (think-usi) vs e2 (HaChu'
        expect "usi vs hachu" '^Rule differences: 0 '
        expect "usi vs hachu" 'engine failures: 0; no results: 0$'
        expect "usi vs hachu log" ' e1 < setoption name USI_Variant value chushogi$' "$tmp/log2"
        expect "usi vs hachu log" ' e1 < setoption name USI_Hash value 64$' "$tmp/log2"
        expect "usi vs hachu log" ' e2 < option Allow repeats=1$' "$tmp/log2"
        expect "usi vs hachu log" ' e1 < position startpos moves [0-9]' "$tmp/log2"
        expect "usi vs hachu log" ' e1 < go btime [0-9]* wtime [0-9]* binc 100 winc 100$' "$tmp/log2"
    }

# 2b. Exac over XBoard: `gravulien think` behind a small XBoard loop that translates
# XBoard squares (a1..g7, First at the bottom) to the game's own (g n m s d v z, First at
# ranks 6-7), on both sides.
cat >"$tmp/think-xb-exac" <<EOF
#!/bin/sh
x2o() { echo "\$1" | awk '{f="gnmsdvz"; printf "%s%d-%s%d", substr(f,index("abcdefg",substr(\$0,1,1)),1), 8-substr(\$0,2,1), substr(f,index("abcdefg",substr(\$0,3,1)),1), 8-substr(\$0,4,1)}'; }
o2x() { echo "\$1" | awk '{x="abcdefg"; f="gnmsdvz"; printf "%s%d%s%d", substr(x,index(f,substr(\$0,1,1)),1), 8-substr(\$0,2,1), substr(x,index(f,substr(\$0,4,1)),1), 8-substr(\$0,5,1)}'; }
moves=""
while read -r cmd rest; do
    case "\$cmd" in
    protover) echo 'feature ping=1 usermove=1 myname="think-xb" variants="exac" done=1' ;;
    ping) echo "pong \$rest" ;;
    new) moves="" ;;
    usermove) moves="\$moves \$(x2o "\$rest")" ;;
    go) out=\$("$BIN" think exac --depth 1 --level 1 --moves "\$moves")
        pos=\$(echo "\$out" | sed -n 's/^position //p'); best=\$(echo "\$out" | sed -n 's/^bestmove //p')
        ft=\$("$BIN" moves exac "\$pos" | awk -v b="\$best" '\$2==b {print \$1; exit}')
        moves="\$moves \$ft"; echo "move \$(o2x "\$ft")" ;;
    quit) exit 0 ;;
    esac
done
EOF
chmod +x "$tmp/think-xb-exac"
run 0 "exac over xboard" exac --e1 "$tmp/think-xb-exac" --e2 "$tmp/think-xb-exac" --games 2 \
    --tc 5+0.1 --max-plies 60 &&
    {
        expect "exac over xboard" '^game 2: e2 first, e1 second: '
        expect "exac over xboard" '^Rule differences: 0 '
        expect "exac over xboard" 'engine failures: 0; no results: 0$'
    }

# 3. Scripted XBoard engines that fail: MODE die (exits when asked to move), sleepy
# (answers pings but never moves), illegal
# (plays a1a1), refuse (answers every move it is told with "Illegal move", naming no
# move, as HaChu does).
cat >"$tmp/bad-xb" <<'EOF'
#!/bin/sh
while read -r cmd rest; do
    case "$cmd" in
    protover) echo "feature ping=1 usermove=1 myname=\"bad-$1\" variants=\"chu\" done=1" ;;
    ping) echo "pong $rest" ;;
    usermove) [ "$1" = refuse ] && echo "Illegal move {Repeats earlier position}" ;;
    go) [ "$1" = die ] && exit 3; [ "$1" = sleepy ] || echo "move a1a1" ;;
    quit) exit 0 ;;
    esac
done
EOF
chmod +x "$tmp/bad-xb"
run 0 "engine dies" chu --e1 "$HACHU" --e2 "$tmp/bad-xb die" --games 2 --tc 1+0.05 \
    --openings 1 --rules "$HACHU_RULES" &&
    {
        expect "engine dies" '^game 1: e1 first, e2 second: 1-0 e1 wins (e2 stopped answering (exit status 3)), 1 plies$'
        expect "engine dies" '^Score of e1 (HaChu [0-9.]*) vs e2 (bad-die): 2 - 0 - 0 '
        expect "engine dies" 'engine failures: 2; no results: 0$'
    }
run 0 "never moves" chu --e1 "$tmp/bad-xb sleepy" --e2 "$HACHU" --games 2 --tc 0.3+0 \
    --openings 1 --rules "$HACHU_RULES" &&
    {
        expect "never moves" '^game 1: e1 first, e2 second: 0-1 e2 wins (e1 loses on time (no move in [0-9]* ms)), 2 plies$'
        expect "never moves" '^game 2: e2 first, e1 second: 1-0 e2 wins (e1 loses on time (no move in [0-9]* ms)), 1 plies$'
        expect "never moves" 'time losses: 2; resignations: 0; engine failures: 0; no results: 0$'
    }
run 0 "illegal move" chu --e1 "$tmp/bad-xb illegal" --e2 "$HACHU" --games 1 --tc 1+0.05 \
    --openings 0 --rules "$HACHU_RULES" &&
    {
        expect "illegal move" "^rule difference (game 1, ply 1): e1 (bad-illegal) played 'a1a1', which our rules refuse: "
        expect "illegal move" '^  position: lfcsgekgscfl/'
        expect "illegal move" '^game 1: e1 first, e2 second: 0-1 e2 wins (e1 played a1a1, which our rules refuse), 0 plies$'
    }
run 0 "illegal move, void" chu --e1 "$tmp/bad-xb illegal" --e2 "$HACHU" --games 1 --st 1 \
    --openings 0 --refused void --rules "$HACHU_RULES" &&
    expect "illegal move, void" '^Score of .*: 0 - 0 - 0 .* 0 games'
run 0 "refused move" chu --e1 "$HACHU" --e2 "$tmp/bad-xb refuse" --games 2 --tc 1+0.05 \
    --openings 2 --rules "$HACHU_RULES" &&
    {
        expect "refused move" "^rule difference (game 1, ply 1): e2 (bad-refuse) refused '[a-l][0-9]*[a-l][0-9]*', which our rules allow; it said 'Illegal move {Repeats earlier position}'"
        expect "refused move" '^game 2: e2 first, e1 second: \* no result (e2 refused '
        expect "refused move" 'our moves an engine refused: 2); .* no results: 2$'
    }

# 4. Engines that cannot play: a clear message and status 1, quickly.
run 1 "false engine" chu --e1 /bin/false --e2 "$HACHU" && expect "false engine" "e1 ('/bin/false') exited during the XBoard handshake (exit status 1)" "$err"
run 1 "missing engine" chu --e1 "$HACHU" --e2 /nonexistent/engine --p2 usi &&
    expect "missing engine" "e2 ('/nonexistent/engine') exited during the USI handshake (exit status 127)" "$err"
run 1 "silent engine" chu --e1 "sleep 60" --e2 "$HACHU" --handshake 1 &&
    expect "silent engine" "e1 ('sleep 60') no 'feature done=1' within 1000 ms" "$err"
run 1 "wrong variant" exac --e1 "$HACHU" --e2 "$HACHU" &&
    expect "wrong variant" "does not play variant exac" "$err"

# 5. Usage errors: status 2, one line.
run 2 "no e2" chu --e1 "$HACHU" && expect "no e2" "--e2 CMD is required" "$err"
run 2 "usi for exac" exac --e1 x --e2 y --p2 usi && expect "usi exac" "USI is for Chu Shogi only" "$err"
run 2 "bad engine option" chu --e1 x --e2 y --o1 novalue && expect "bad option" "NAME=VALUE" "$err"
run 2 "bad tc" chu --e1 x --e2 y --tc 1+x && expect "bad tc" "bad time control" "$err"
run 2 "bad rules" chu --e1 x --e2 y --rules last_rank=never && expect "bad rules" "last_rank" "$err"
run 2 "unknown game" go --e1 x --e2 y && expect "unknown game" "unknown game" "$err"

# 6. Our own engines: `gravulien xboard` and `gravulien usi` (under HaChu's rule options)
# against HaChu, and Exac ours against ours; every move of both sides legal by our rules.
run 0 "ours (xboard) vs hachu" chu --e1 "$BIN xboard --rules $HACHU_RULES --hash 16" \
    --e2 "$HACHU" --o2 'Allow repeats=1' --games 2 --tc 2+0.05 --max-plies 80 \
    --rules "$HACHU_RULES" --verbose &&
    {
        expect "ours vs hachu" '^Score of e1 (Gravulien [0-9.]*) vs e2 (HaChu [0-9.]*): .* 2 games'
        expect "ours vs hachu, verbose" '^  game 1, ply 5: e1 [^ ]* in [0-9.]* s; clocks e1 [0-9.]* s, e2 [0-9.]* s$'
        expect "ours vs hachu, verbose" '^  so far: Thinking time of e1 (Gravulien [0-9.]*): [0-9]* moves, total '
        expect "ours vs hachu, verbose" '^  so far: Time ratio e1/e2: '
        check_times "ours vs hachu"
        expect "ours vs hachu" '^Rule differences: 0 '
        expect "ours vs hachu" 'engine failures: 0; no results: 0$'
    }
run 0 "ours (usi) vs hachu" chu --e1 "$BIN usi --rules $HACHU_RULES --hash 16" --p1 usi \
    --e2 "$HACHU" --o2 'Allow repeats=1' --games 2 --tc 2+0.05 --max-plies 60 \
    --rules "$HACHU_RULES" &&
    {
        expect "ours usi vs hachu" '^Rule differences: 0 '
        expect "ours usi vs hachu" 'engine failures: 0; no results: 0$'
    }
run 0 "exac ours vs ours" exac --e1 "$BIN xboard --level 4 --hash 8" \
    --e2 "$BIN xboard --level 2 --hash 8" --games 2 --tc 2+0.05 &&
    {
        expect "exac ours" '^Rule differences: 0 '
        expect "exac ours" 'engine failures: 0; no results: 0$'
    }

[ $fail -eq 0 ] && echo "match tests passed"
exit $fail
