#!/bin/sh
# gv_tune spsa on a tiny budget: Grav's MCTS tuned for 2 iterations of 2 games at 50
# playouts a move. It must run, give the same output twice for one seed (and another
# for another seed), and end on a vector inside the parameters' ranges, printed both as
# an initializer and as a --from argument that reads back.
set -eu
tune=$1
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
run() {
    "$tune" spsa grav --iterations 2 --games-per-iteration 2 --playouts 50 "$@" 2>>"$dir/err"
}
run --seed 5 >"$dir/a" || { echo "spsa failed"; cat "$dir/err"; exit 1; }
run --seed 5 >"$dir/b"
cmp -s "$dir/a" "$dir/b" || { echo "not deterministic for a seed"; diff "$dir/a" "$dir/b"; exit 1; }
test "$(grep -c '^iteration ' "$dir/a")" = 2 || { echo "not 2 iterations"; cat "$dir/a"; exit 1; }
# The initializer: every parameter once, each within its range.
awk '
    /^    \.[a-z_]+ = / { name = $1; sub(/^\./, "", name); v = $3; sub(/,$/, "", v); seen[name] = v + 0 }
    END {
        split("horizon 0 16 win_weight 0 1 uct_c 0.001 0.5 expand_visits 1 64", r, " ")
        for (i = 1; i <= 12; i += 3) {
            if (!(r[i] in seen)) { print "missing " r[i]; exit 1 }
            if (seen[r[i]] < r[i + 1] || seen[r[i]] > r[i + 2]) { print r[i] " out of range: " seen[r[i]]; exit 1 }
        }
    }' "$dir/a"
# The --from line reads back: starting there reprints it as the start.
from=$(sed -n 's/^--from //p' "$dir/a")
test -n "$from" || { echo "no --from line"; exit 1; }
run --seed 5 --from "$from" >"$dir/c"
start=$(sed -n 's/^start: //p' "$dir/c" | tr ' ' ',')
want=$(echo "$from" | awk -F, '{ for (i = 1; i <= NF; i++) { split($i, kv, "="); printf "%s%s=%.4g", (i > 1 ? "," : ""), kv[1], kv[2] } }')
test "$start" = "$want" || { echo "--from $from started at $start"; exit 1; }
# Out-of-range starting values are clamped; unknown names and games without tunables fail.
run --seed 5 --from uct_c=9,horizon=-4 >"$dir/d"
grep -q '^start: horizon=0 win_weight=0 uct_c=0.5 expand_visits=4$' "$dir/d" || { echo "not clamped:"; grep '^start' "$dir/d"; exit 1; }
if run --from nosuch=1 >/dev/null; then echo "accepted an unknown parameter"; exit 1; fi
if "$tune" spsa chu --iterations 1 >/dev/null 2>&1; then echo "tuned a game without search tunables"; exit 1; fi
run --seed 6 >"$dir/e"
grep -v '^spsa ' "$dir/e" >"$dir/e.body"
grep -v '^spsa ' "$dir/a" | cmp -s - "$dir/e.body" && { echo "seeds 5 and 6 gave the same run"; exit 1; }
echo "spsa: $(sed -n 's/^--from //p' "$dir/a")"
