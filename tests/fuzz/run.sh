#!/bin/sh
# Runs the libFuzzer targets one after another (one process each) and prints, per target,
# the executions, seconds, executions per second and crashes (docs/fuzzing.md).
#
#   tests/fuzz/run.sh BUILD_DIR
#
# Environment: FUZZ_TARGETS (names, default all), FUZZ_TIME (seconds per target, default
# 300), FUZZ_RUNS (executions per target, default 10000000; whichever limit comes first),
# FUZZ_MERGE=1 (afterwards, the tree's corpus of each target becomes the smallest set of
# inputs covering what it and the new inputs cover: libFuzzer -merge=1; regress/ stays).
#
# Each target reads tests/fuzz/corpus/<target> and writes what it finds to
# BUILD_DIR/fuzz/corpus/<target>; crashes go to BUILD_DIR/fuzz/artifacts, logs to
# BUILD_DIR/fuzz/logs. Exit status 1 when a target crashed.
set -u
cd "$(dirname "$0")/../.."
build=${1:?usage: tests/fuzz/run.sh BUILD_DIR}
targets=${FUZZ_TARGETS:-"game_chu game_exac game_grav record_kif record_usi record_pgn record_json api ws ws_frame usi xboard gtp"}
time=${FUZZ_TIME:-300}
runs=${FUZZ_RUNS:-10000000}
out=$build/fuzz
mkdir -p "$out/corpus" "$out/artifacts" "$out/logs"
failed=0
printf '%-12s %12s %8s %9s %8s\n' target executions seconds exec/s crashes
for t in $targets; do
  bin=$build/tests/fuzz/fuzz_$t
  [ -x "$bin" ] || { echo "run.sh: no $bin (cmake --build $build --target fuzzers)" >&2; exit 2; }
  # The longest input the fuzzer makes: records are long, moves short.
  case $t in
    record_kif|record_json) maxlen=32768 ;;
    game_*) maxlen=4096 ;;
    *) maxlen=8192 ;;
  esac
  # The API target keeps its hub's games from one input to the next: libFuzzer's leak
  # check after every input that did not free all it allocated would scan the whole heap
  # each time. Leaks are still looked for when the process ends.
  leaks=1
  [ "$t" = api ] && leaks=0
  dict=""
  [ -f tests/fuzz/dict/$t.dict ] && dict="-dict=tests/fuzz/dict/$t.dict"
  mkdir -p "$out/corpus/$t"
  log=$out/logs/$t.log
  start=$(date +%s)
  "$bin" -runs="$runs" -max_total_time="$time" -max_len=$maxlen -timeout=20 \
    -detect_leaks=$leaks -print_final_stats=1 $dict -artifact_prefix="$out/artifacts/$t-" \
    "$out/corpus/$t" "tests/fuzz/corpus/$t" >"$log" 2>&1
  rc=$?
  secs=$(( $(date +%s) - start ))
  execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
  [ -n "$execs" ] || execs=$(sed -n 's/^Done \([0-9]*\) runs.*/\1/p' "$log" | tail -1)
  [ -n "$execs" ] || execs=0
  crashes=0
  if [ $rc -ne 0 ]; then
    crashes=1
    failed=1
  fi
  rate=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$log" | tail -1)
  [ -n "$rate" ] || rate=$(( execs / (secs > 0 ? secs : 1) ))
  printf '%-12s %12s %8s %9s %8s\n' "$t" "$execs" "$secs" "$rate" "$crashes"
  [ $rc -ne 0 ] && grep -m 8 -E "^fuzz:|ERROR|SUMMARY|artifact" "$log" | sed 's/^/    /'
  if [ "${FUZZ_MERGE:-0}" = 1 ] && [ $rc -eq 0 ]; then
    # The tree's inputs (not regress/) and the new ones, down to those that add coverage.
    tmp=$out/merge-$t
    rm -rf "$tmp" && mkdir -p "$tmp/old" "$tmp/new"
    find "tests/fuzz/corpus/$t" -maxdepth 1 -type f -exec cp {} "$tmp/old/" \;
    if "$bin" -merge=1 -max_len=$maxlen -detect_leaks=0 "$tmp/new" "$tmp/old" "$out/corpus/$t" \
        >"$out/logs/$t.merge.log" 2>&1; then
      find "tests/fuzz/corpus/$t" -maxdepth 1 -type f -delete
      cp "$tmp/new/"* "tests/fuzz/corpus/$t/"
      echo "    corpus: $(ls "$tmp/old" | wc -l) -> $(ls "tests/fuzz/corpus/$t" | grep -cv '^regress$') inputs"
    else
      echo "    merge failed: $out/logs/$t.merge.log"
    fi
    rm -rf "$tmp"
  fi
done
exit $failed
