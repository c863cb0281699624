#!/bin/sh
# gravulien play through a real terminal: tmux runs the program in a detached session of
# fixed size, keys go in with `tmux send-keys`, the screen comes back with
# `tmux capture-pane -p`, and every step waits for the text it expects (with a timeout).
# Usage: tests/play.sh <path to gravulien>. Exits 77 (skipped) when tmux is missing.
BIN=${1:?usage: play.sh <gravulien>}
case $BIN in /*) ;; *) BIN=$(pwd)/$BIN ;; esac
command -v tmux >/dev/null 2>&1 || { echo "SKIP: tmux is not installed"; exit 77; }

SOCK=gvplay$$
TMP=$(mktemp -d)
# tmux's socket goes inside TMP (not /tmp/tmux-UID, where a killed server leaves it).
TMUX_TMPDIR=$TMP
export TMUX_TMPDIR
S=play
fail=0
# Generous for slow CI machines and sanitizer builds; a step that passes returns at once.
WAIT=${PLAY_WAIT:-60}
cleanup() { tmux -L "$SOCK" kill-server >/dev/null 2>&1; rm -rf "$TMP"; }
trap cleanup EXIT INT TERM

tm() { tmux -L "$SOCK" "$@"; }
# A session that stays for the whole test keeps the server up: killing the only session
# makes the server exit, and a new-session racing with that exit fails.
tm -u new-session -d -s keep -x 80 -y 10 "sleep 3600" || { echo "FAIL: tmux cannot start"; exit 1; }

# start ARGS...: a fresh session running gravulien with ARGS (extra environment in ENVS);
# when the program ends the pane shows "EXIT:<status>".
start() {
    tm kill-session -t "$S" >/dev/null 2>&1
    printf '#!/bin/sh\ncd %s\nenv TERM=xterm-256color LANG=C.UTF-8 LC_ALL= %s "%s" play' "$TMP" "${ENVS:-}" "$BIN" >"$TMP/run.sh"
    for a in "$@"; do printf " '%s'" "$a" >>"$TMP/run.sh"; done
    printf '\necho "EXIT:$?"\nsleep 600\n' >>"$TMP/run.sh"
    chmod +x "$TMP/run.sh"
    tm -u new-session -d -s "$S" -x 110 -y 50 "$TMP/run.sh"
}

# screen: the visible screen; "EXIT:gone" when the session itself is gone.
screen() { tm capture-pane -p -t "$S" 2>/dev/null || echo "EXIT:gone"; }

# expect TEXT [SECONDS]: waits until TEXT (fixed string) is on the screen.
expect() {
    n=0 limit=$(( ${2:-$WAIT} * 10 ))
    while ! screen | grep -qF -- "$1"; do
        n=$((n + 1))
        # A program that ended (or crashed) will not show it: fail at once.
        if [ "$n" -ge "$limit" ] || { [ "$n" -gt 5 ] && screen | grep -q '^EXIT:'; }; then
            echo "FAIL [$step]: waited for '$1'; the screen:"
            screen | sed 's/^/    | /'
            fail=1
            return 1
        fi
        sleep 0.1
    done
    return 0
}

# absent TEXT: the screen does not show TEXT now.
absent() {
    if screen | grep -qF -- "$1"; then
        echo "FAIL [$step]: '$1' should not be on the screen:"
        screen | sed 's/^/    | /'
        fail=1
        return 1
    fi
}

# type TEXT: types a line and presses Enter.
type_line() { tm send-keys -t "$S" -l "$1"; tm send-keys -t "$S" Enter; }

now() { date +%s; }
ok() { [ "$fail" = "$failed_before" ] && echo "ok   $step ($(( $(now) - t0 ))s)"; }
begin() { step=$1; failed_before=$fail; t0=$(now); }

# ---- Chu Shogi: a whole game against the AI from a near-mate position ----------------
begin "chu: near-mate game against AI level 1, kanji board"
start chu --position '11k/12/9N2/12/12/12/12/12/12/12/12/K11 b - 1' -o bare_king=off \
      --level 1 --seed 1
expect "your move (like 7i7h or P-7h)>" && expect "獅" && expect "v王"
type_line "12l12k"
expect "Sente ☗ (you): 12l12k"
expect "Gote ☖ (AI level 1): 1a"
# The AI's king went to 1b, 2a or 2b: the Lion on 3c reaches all of them.
ksq=$(screen | sed -n 's/.*Gote ☖ (AI level 1): 1a\([0-9]*[a-l]\).*/\1/p' | tail -1)
type_line "3c$ksq"
expect "Game over: Sente ☗ (you) wins (royal captured)."
expect "Game over. undo, save FILE, board, quit>"
type_line "quit"
expect "EXIT:0"
ok

# ---- Chu: illegal moves with the core's reason, undo, save, resume ----------------------
begin "chu: illegal moves say why; undo takes back the AI's answer too"
start chu --level 1 --seed 2
expect "your move (like 7i7h or P-7h)>"
type_line "6d6e"
expect "Illegal move: the piece on 6d is not Sente's"
type_line "xyz"
expect "Illegal move: 'xyz' is not a legal move"
type_line "7i7h"
expect "Sente ☗ (you): 7i7h  (P-7h)"
expect "Gote ☖ (AI level 1):"
expect "Move 3, Sente"
type_line "undo"
expect "Took back 2 moves."
expect "Move 1, Sente"
absent "Last move:"
ok

begin "chu: save, quit, resume with --load"
type_line "8i8h"
expect "Move 3, Sente"
ai=$(screen | sed -n 's/.*Gote ☖ (AI level 1): \([0-9a-l+]*\) .*/\1/p' | tail -1)
type_line "save game.txt"
expect "Saved to game.txt (2 moves)"
type_line "quit"
expect "EXIT:0"
grep -qx '\[Game "Chu Shogi"\]' "$TMP/game.txt" && grep -q "^1\. 8i8h 2\. $ai " "$TMP/game.txt" || {
    echo "FAIL [$step]: the saved file lacks the game or its moves:"; sed 's/^/    | /' "$TMP/game.txt"; fail=1; }
start --load game.txt --level 1
expect "Resumed Chu Shogi from game.txt after 2 moves."
expect "Move 3, Sente"
expect "Last move: $ai"
type_line "8h8g"
expect "Sente ☗ (you): 8h8g"
expect "Move 5, Sente"
type_line "quit"
expect "EXIT:0"
ok

# ---- Chu: a long think shows progress and a key makes the AI move now ------------------
begin "chu: progress line while thinking; a key press moves now"
start chu --you second --level 10 --movetime 600000 --seed 3
expect "thinking..." 20 && expect "depth" 20 && expect "(any key: move now)" 20
tm send-keys -t "$S" x
expect "Gote ☖ (you), your move" 20
expect "Sente ☗ (AI level 10):"
absent "thinking..."
# The board is drawn from Gote's side: file 1 on the left.
screen | grep -q '^ *1   2   3 ' || { echo "FAIL [$step]: board not flipped for Gote"; screen | sed 's/^/    | /'; fail=1; }
# Ctrl-D (end of input) at the prompt ends the program cleanly.
tm send-keys -t "$S" C-d
expect "EXIT:0"
ok

# ---- Plain ASCII when NO_COLOR is set ------------------------------------------------
begin "chu: NO_COLOR gives plain ASCII with abbreviations"
ENVS="NO_COLOR=1" start chu --hotseat
expect "Sente (human), your move"
absent "☗" && absent "王"
screen | grep -q ' l  *L  *FL  *C  *S  *G  *K  *DE' || { echo "FAIL [$step]: no abbreviated back rank"; screen | sed 's/^/    | /'; fail=1; }
screen | grep -q ' a  *l  *fl  *c ' || { echo "FAIL [$step]: Gote's pieces not in lower case"; fail=1; }
type_line "quit"
expect "EXIT:0"
ok

# ---- Exac: roles, an illegal move, the AI's hint, the winning move ----------------------
begin "exac: roles, reasons, hint, a won game"
start exac --position 'S4SS/7/7/2S4/2F4/7/FF4F f 0 1' --level 1 --seed 4
expect "your move (like m5, Hxd3 or m6-m5)>"
type_line "roles m5"
expect "First's piece on m5 is:"
expect "Polus (soldier)    m4"
type_line "m5-m3"
expect "Illegal move:"
type_line "hint"
expect "Hint: "
hint=$(screen | sed -n 's/^Hint: \([^ ]*\) .*/\1/p' | tail -1)
type_line "$hint"
expect "Game over: First ● (you) wins"
type_line "quit"
expect "EXIT:0"
ok

begin "exac: a game against the AI, undo back to your turn"
start exac --level 1 --seed 5
expect "your move (like m5, Hxd3 or m6-m5)>"
type_line "m6-m5"
expect "First ● (you): m5  (m6-m5)"
expect "Second ○ (AI level 1):"
expect "Move 2, First"
type_line "roles"
expect "Role letters on the board: on."
type_line "undo"
expect "Took back 2 moves."
expect "Move 1, First"
type_line "quit"
expect "EXIT:0"
ok

# ---- Grav: two people at one keyboard, a correct call -----------------------------------
begin "grav: hot-seat on 5x5, parameters shown, a correct Grav! call, game to the end"
start grav --hotseat -o size=5,a=3,b=2,c=3,d=2,e=3,seed=7
expect "Rules: a=3" && expect "b=2 c=3  at most 3 stones in any 2x2 square" && expect "d=2 e=3"
expect "=== Player 1 ● (human): your turn ==="
type_line "c3"
expect "=== Player 2 ○ (human): your turn ==="
expect "Player 1 placed c3: accept, grav, or just play your turn>"
# The one asked is never told whether the stone breaks a rule.
type_line "hint"
expect "No hint: whether a stone breaks a rule is for you to find"
type_line "c4"
expect "Player 2 placed c4: accept, grav, or just play your turn>"
type_line "grav"
expect "Correct call! The stone on c4 broke the distance rule and is taken back."
expect "Player 2 has no stone on the board to remove."
expect "Player 1 ● (human), place a stone"
type_line "check a1"
expect "[private to Player 1 ● (human)] A stone on a1 would break the distance rule."
type_line "check b2"
expect "[private to Player 1 ● (human)] A stone on b2 breaks no rule."
type_line "pass"
expect "Player 2 ○ (human), place a stone"
type_line "pass"
expect "Game over: Player 1 ● (human) wins (passes)."
type_line "quit"
expect "EXIT:0"
ok

# ---- Grav: one person against the AI to the end --------------------------------------
begin "grav: 5x5 against the AI, every question answered until the end"
start grav --level 2 --seed 8 -o size=5,seed=11,max_turns=8
expect "Rules: a="
# The question waiting for an answer: the last line addressed to you, ending in '>' with
# nothing typed after it yet (empty while the AI thinks or the screen is being drawn).
question() { screen | grep '(you), ' | tail -1 | grep '>$'; }
turns=0
while :; do
    if screen | grep -qE "Game over: |^EXIT:"; then break; fi
    turns=$((turns + 1))
    [ $turns -le 60 ] || { echo "FAIL [$step]: the game did not end"; screen | sed 's/^/    | /'; fail=1; break; }
    prompt=$(question)
    case $prompt in
        *"or pass>"|*"bonus turn"*)
            type_line "check"
            expect "Points where your stone breaks no rule:" || break
            pt=$(screen | sed -n 's/.*Points where your stone breaks no rule: \([a-e][1-5]\).*/\1/p' | tail -1)
            if [ -n "$pt" ]; then type_line "$pt"; else type_line "pass"; fi ;;
        *"accept or grav>"|*"accept, grav, or just play your turn>") type_line "accept" ;;
        *"declare how many"*) type_line "1" ;;
        *"remove a stone"*)
            type_line "moves"
            expect "remove " || break
            pt=$(screen | grep -o 'remove [a-e][1-5]' | head -1 | cut -d' ' -f2)
            type_line "$pt" ;;
        *) sleep 0.1; continue ;;
    esac
    # Wait until the answer shows on that line (the next question is a new line).
    n=0
    while [ "$(question)" = "$prompt" ]; do
        n=$((n + 1)); [ $n -lt 300 ] || break; sleep 0.1
    done
done
expect "Game over: "
screen | grep -qE "Turn 8 of 8\.|\(passes\)" || { echo "FAIL [$step]: the game did not end by turns or passes"; fail=1; }
type_line "quit"
expect "EXIT:0"
ok

# ---- Bad input never crashes --------------------------------------------------------
begin "bad input and a bad saved file"
start grav --hotseat -o size=7,players=3,seed=1
expect "Player 1 ● (human), place a stone (like m4) or pass>"
type_line "declare 99"
expect "Illegal move:"
type_line "zz9"
expect "Illegal move:"
type_line "save"
expect "save needs a file name"
type_line "resign"
expect "Player 1 ● (human): resigns"
expect "=== Player 2 ○ (human): your turn ==="
type_line "quit"
expect "EXIT:0"
printf 'not a game\n' >"$TMP/bad.txt"
start --load bad.txt
expect "'not' is not a move"
expect "EXIT:2"
ok

[ "$fail" = 0 ] && echo "play: all passed"
exit "$fail"
