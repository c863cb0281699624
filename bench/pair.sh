#!/bin/bash
# bench/pair.sh GAME ROUNDS OLD NEW: compares the search speed of two gravulien binaries.
# Each round runs `OLD bench GAME` and `NEW bench GAME` (in an order flipped every round,
# so that a machine getting faster or slower favours neither) and takes NEW/OLD of their
# nodes per second. Prints the median nodes/s of each and the median of the per-round
# ratios: on a shared machine whose speed drifts by 20 %, the ratio within a round is the
# figure to trust, not a single run. Example:
#   bench/pair.sh exac 21 /tmp/old/gravulien build/gravulien
set -euo pipefail
if [ $# -ne 4 ]; then
    echo "usage: bench/pair.sh GAME ROUNDS OLD NEW" >&2
    exit 2
fi
game=$1 rounds=$2 old=$3 new=$4
nps() { "$1" bench "$game" | awk '/^Nodes\/second/ {print $2}'; }
median() { printf '%s\n' "$@" | sort -g | awk '{a[NR] = $1} END {print a[int((NR + 1) / 2)]}'; }
ra=() rb=() rr=()
for ((i = 0; i < rounds; i++)); do
    if ((i % 2)); then
        b=$(nps "$new"); a=$(nps "$old")
    else
        a=$(nps "$old"); b=$(nps "$new")
    fi
    ra+=("$a") rb+=("$b") rr+=("$(awk -v a="$a" -v b="$b" 'BEGIN {printf "%.4f", b / a}')")
done
echo "old $(median "${ra[@]}")  new $(median "${rb[@]}")  new/old median $(median "${rr[@]}")"
echo "ratios: ${rr[*]}"
