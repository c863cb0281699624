#!/bin/sh
# Runs the libFuzzer targets one after another (a process each, or a series of them:
# FUZZ_CHUNK) and prints, per target, the executions, seconds, executions per second and
# crashes (docs/fuzzing.md).
#
#   tests/fuzz/run.sh BUILD_DIR
#
# Environment: FUZZ_TARGETS (names, default all), FUZZ_TIME (seconds per target, default
# 300), FUZZ_RUNS (executions per target, default 10000000; whichever limit comes first),
# FUZZ_CHUNK (executions per fuzzer process, 0 for the default: usi and xboard 250000, below),
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
# Ctrl-C stops the running fuzzer, which then exits with its statistics: the script
# reports that target's executions so far and ends (a stopped run is not a crash).
stopped=0
trap 'stopped=1' INT
printf '%-12s %12s %8s %9s %8s\n' target executions seconds exec/s crashes
for t in $targets; do
  bin=$build/tests/fuzz/fuzz_$t
  [ -x "$bin" ] || { echo "run.sh: no $bin (cmake --build $build --target fuzzers)" >&2; exit 2; }
  # The longest input the fuzzer makes: records are long, moves short. A protocol
  # session's input is a series of commands, each of which may search (USI and XBoard
  # start a thread and a table for it): kept short, a session stays fast instead of
  # slowing the run two- or threefold as inputs grow. No input of the merged corpora is
  # over 810 bytes for gtp, 250 for usi and xboard.
  case $t in
    record_kif|record_json) maxlen=32768 ;;
    game_*) maxlen=4096 ;;
    gtp) maxlen=1024 ;;
    usi|xboard) maxlen=256 ;;
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
  # Targets whose inputs are whole protocol sessions start threads for every input, and
  # under ASan each thread made and joined leaves about 0.7 KB behind in the sanitizer's
  # runtime (a program that only creates and joins threads shows the same): a run of
  # millions of inputs would reach libFuzzer's 2 GB memory limit and stop as a crash.
  # Those targets run as a series of processes of FUZZ_CHUNK executions each, every one
  # starting from the corpus the previous ones grew; the executions are summed.
  chunk=${FUZZ_CHUNK:-0}
  case $t in usi|xboard) [ "$chunk" -gt 0 ] || chunk=250000 ;; esac
  log=$out/logs/$t.log
  : >"$log"
  start=$(date +%s)
  execs=0
  rc=0
  while :; do
    left_time=$(( time - ($(date +%s) - start) ))
    left_runs=$(( runs - execs ))
    [ $left_time -gt 0 ] && [ $left_runs -gt 0 ] || break
    n=$left_runs
    [ "$chunk" -gt 0 ] && [ $n -gt "$chunk" ] && n=$chunk
    part=$out/logs/$t.part.log
    "$bin" -runs="$n" -max_total_time="$left_time" -max_len=$maxlen -timeout=20 \
      -detect_leaks=$leaks -print_final_stats=1 $dict -artifact_prefix="$out/artifacts/$t-" \
      "$out/corpus/$t" "tests/fuzz/corpus/$t" >"$part" 2>&1
    rc=$?
    # Stopped by hand (SIGINT): the executions so far count, and nothing crashed.
    grep -q "libFuzzer: run interrupted" "$part" && { rc=0; stopped=1; }
    cat "$part" >>"$log"
    done_here=$(sed -n 's/^stat::number_of_executed_units: *//p' "$part" | tail -1)
    [ -n "$done_here" ] || done_here=$(sed -n 's/^Done \([0-9]*\) runs.*/\1/p' "$part" | tail -1)
    execs=$(( execs + ${done_here:-0} ))
    rm -f "$part"
    # A process that stopped short of its runs ran out of time (or crashed): done.
    [ $rc -eq 0 ] && [ $stopped -eq 0 ] && [ "${done_here:-0}" -ge "$n" ] || break
  done
  secs=$(( $(date +%s) - start ))
  crashes=0
  if [ $rc -ne 0 ]; then
    crashes=1
    failed=1
  fi
  rate=$(( execs / (secs > 0 ? secs : 1) ))
  printf '%-12s %12s %8s %9s %8s%s\n' "$t" "$execs" "$secs" "$rate" "$crashes" \
    "$([ $stopped -eq 1 ] && echo ' (stopped by hand)')"
  # A run stopped by hand ends the campaign.
  [ $stopped -eq 1 ] && exit $failed
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
