#!/bin/sh
# gv_tune on a tiny data set: a few fast Exaç self-play games, then a short fit whose
# error must end below where it started; then Chu positions both ways (quiet positions,
# and with --qleaf the ends of quiescence lines, of which there must be many more).
set -eu
tune=$1
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
"$tune" gen exac --games 4 --nodes 300 --random 6 --skip 8 --seed 3 -o "$dir/data" 2>"$dir/gen.log"
test -s "$dir/data" || { echo "no positions"; cat "$dir/gen.log"; exit 1; }
"$tune" fit exac "$dir/data" --passes 3 --step 4 >"$dir/fit.out" 2>"$dir/fit.log"
cat "$dir/fit.out" | head -3
before=$(sed -n 's/^error before //p' "$dir/fit.out")
after=$(sed -n 's/^error after //p' "$dir/fit.out")
awk -v b="$before" -v a="$after" 'BEGIN { exit !(a < b) }' || { echo "error $before -> $after: not reduced"; exit 1; }
grep -q '^    \.material = {' "$dir/fit.out" || { echo "no weights printed"; exit 1; }
echo "tune: error $before -> $after"
# The tuning evaluation with the default weights is the search's, for both games.
"$tune" check exac "$dir/data"
"$tune" gen chu --games 2 --nodes 300 --random 6 --skip 8 --max-plies 120 --seed 5 -o "$dir/chu" 2>"$dir/gen-chu.log"
"$tune" check chu "$dir/chu"
"$tune" gen chu --games 2 --nodes 300 --random 6 --skip 8 --max-plies 120 --seed 5 --qleaf \
    -o "$dir/chu-q" 2>"$dir/gen-chu-q.log"
"$tune" check chu "$dir/chu-q"
quiet=$(wc -l <"$dir/chu") leaves=$(wc -l <"$dir/chu-q")
test "$leaves" -gt $((quiet * 4)) || { echo "--qleaf: $leaves positions, quiet: $quiet"; exit 1; }
echo "chu: $quiet quiet positions, $leaves quiescence leaves"
