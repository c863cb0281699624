#!/bin/sh
# The layers hold (docs/dev/architecture.md):
#  1. links: no layer's library uses a symbol that only a library above it defines;
#  2. includes: no source file includes a header of a layer above its own;
#  3. games: above the games' folders, no code names a game ("chu", "exac", "grav" as a
#     string) or includes a game's header.
# Usage: tests/layers.sh SOURCE_DIR LIB_core LIB_game ... LIB_games (bottom to top, as
# CMakeLists.txt lists GV_LAYERS).
set -u
src=$1
shift
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0

# ---- 1. links -------------------------------------------------------------------------
i=0
for lib in "$@"; do
    nm -g --defined-only "$lib" 2>/dev/null | awk 'NF == 3 { print $3 }' | sort -u >"$tmp/def$i"
    nm -u "$lib" 2>/dev/null | awk '$1 == "U" { print $2 }' | sort -u >"$tmp/undef$i"
    basename "$lib" >"$tmp/name$i"
    i=$((i + 1))
done
n=$i
i=0
while [ $i -lt $n ]; do
    j=$((i + 1))
    while [ $j -lt $n ]; do
        comm -12 "$tmp/undef$i" "$tmp/def$j" >"$tmp/up"
        if [ -s "$tmp/up" ]; then
            echo "layers: $(cat "$tmp/name$i") uses what only $(cat "$tmp/name$j"), a layer above, defines:"
            sed 's/^/    /' "$tmp/up" | head -20
            fail=1
        fi
        j=$((j + 1))
    done
    i=$((i + 1))
done

# ---- 2. includes ----------------------------------------------------------------------
# Rank of a path under src/ (a source file or an included header).
attach='_(game|eval|mcts|record|term|match|web|xboard|usi|gtp|vectors)\.[ch]$'
cd "$src/src" || exit 1
find . -name '*.[ch]' | sed 's|^\./||' | sort >"$tmp/files"
rank() {
    case $1 in
        core/*) echo 0 ;;
        game/*) echo 1 ;;
        games/games.c) echo 10 ;;
        games/*) if echo "$1" | grep -Eq "$attach"; then echo 10; else echo 2; fi ;;
        search/*) echo 3 ;;
        engine/*) echo 4 ;;
        record/*) echo 5 ;;
        term/*) echo 6 ;;
        proto/*) echo 7 ;;
        server/*) echo 8 ;;
        match/*) echo 9 ;;
        cli/*) echo 11 ;;
        *) echo 99 ;;
    esac
}
while read -r f; do
    rf=$(rank "$f")
    grep -o '^#include "[^"]*"' "$f" | sed 's/^#include "//; s/"$//' | while read -r h; do
        rh=$(rank "$h")
        if [ "$rh" -gt "$rf" ]; then
            echo "layers: $f includes $h, a layer above it"
            echo x >>"$tmp/badinc"
        fi
        # A game's rules core knows no other game.
        case $f in games/*/*)
            case $h in games/*/*)
                if [ "${f%%/*}/$(echo "$f" | cut -d/ -f2)" != "${h%%/*}/$(echo "$h" | cut -d/ -f2)" ]; then
                    echo "layers: $f includes $h, another game's"
                    echo x >>"$tmp/badinc"
                fi ;;
            esac ;;
        esac
    done
done <"$tmp/files"
[ -s "$tmp/badinc" ] 2>/dev/null && fail=1

# ---- 3. no game names above the games -------------------------------------------------
# cli/cli_bench.c and the like ask the descriptors; a game's name in a string outside
# src/games/ is a special case the descriptor should carry.
grep -nE '"(chu|exac|grav)"' $(grep -v '^games/' "$tmp/files") >"$tmp/names"
if [ -s "$tmp/names" ]; then
    echo "layers: game names above the games (ask the descriptor instead):"
    sed 's/^/    /' "$tmp/names"
    fail=1
fi
grep -nE '^#include "games/' $(grep -v '^games/' "$tmp/files") >"$tmp/gameinc"
if [ -s "$tmp/gameinc" ]; then
    echo "layers: game headers included above the games:"
    sed 's/^/    /' "$tmp/gameinc"
    fail=1
fi

[ $fail -eq 0 ] && echo "layers: $n libraries, $(wc -l <"$tmp/files") files: every layer uses only those below it"
exit $fail
