# Thin wrapper over CMake: make (release build), make check, make bench, make run,
# make install, make wasm (the engine for the browser).
BUILD   ?= build
ASAN    ?= build-asan
JOBS    ?= $(shell nproc 2>/dev/null || echo 2)
# make install: where (PREFIX, compiled into the program to find its web files) and under
# which staging root (DESTDIR, for packaging).
PREFIX  ?= /usr/local
DESTDIR ?=

.PHONY: all deps check check-release check-asan bench soak run fuzz install clean wasm wasm-if-emcc

# The release build is profile-guided (PGO=0 turns that off): the library is first built
# instrumented in $(PGO_BUILD), `gravulien bench` runs on it (again whenever that build
# changed) and records its counts in $(PGO_BUILD)/profile, and $(BUILD) is compiled with
# them. 3-5 % more nodes per second for the searches; docs/dev/performance.md.
PGO       ?= 1
PGO_BUILD ?= build-pgo
PGO_DATA   = $(abspath $(PGO_BUILD))/profile

all: deps
ifeq ($(PGO),1)
	cmake -S . -B $(PGO_BUILD) -DCMAKE_BUILD_TYPE=Release -DGV_PGO=GEN -DGV_PGO_DIR=$(PGO_DATA) >/dev/null
	cmake --build $(PGO_BUILD) -j $(JOBS) --target gravulien
	@if [ ! -f $(PGO_BUILD)/trained ] || [ $(PGO_BUILD)/gravulien -nt $(PGO_BUILD)/trained ]; then \
	  echo "PGO: training on gravulien bench"; rm -rf $(PGO_DATA); \
	  $(PGO_BUILD)/gravulien bench >$(PGO_BUILD)/train.log 2>&1 || { cat $(PGO_BUILD)/train.log; exit 1; }; \
	  touch $(PGO_BUILD)/trained; fi
	cmake -S . -B $(BUILD) -DCMAKE_BUILD_TYPE=Release -DGV_PGO=USE -DGV_PGO_DIR=$(PGO_DATA) \
	  -DCMAKE_INSTALL_PREFIX=$(PREFIX) >/dev/null
else
	cmake -S . -B $(BUILD) -DCMAKE_BUILD_TYPE=Release -DGV_PGO=OFF -DCMAKE_INSTALL_PREFIX=$(PREFIX) >/dev/null
endif
	cmake --build $(BUILD) -j $(JOBS)

deps:
	@scripts/deps.sh

check: all wasm-if-emcc check-release check-asan

check-release:
	cd $(BUILD) && ctest --output-on-failure -j $(JOBS)

check-asan: deps
	cmake -S . -B $(ASAN) -DCMAKE_BUILD_TYPE=RelWithDebInfo -DGV_SANITIZE=ON >/dev/null
	cmake --build $(ASAN) -j $(JOBS)
	cd $(ASAN) && GV_SLOW_TESTS=0 ctest --output-on-failure -j $(JOBS)

# Speed of the searches and rules cores, then the server: WATCHERS WebSocket watchers of one
# game (default 10,000), move-to-watcher latency and memory per connection; then moves per
# second and watcher latency of two processes on PostgreSQL against one on SQLite.
WATCHERS ?= 10000
bench: all wasm-if-emcc
	$(BUILD)/gv_bench
	@if [ -f web/engine/gravulien.wasm ]; then node tests/wasm/bench.mjs $(BUILD)/gravulien; fi
	bench/ws-bench.sh $(BUILD)/gravulien $(WATCHERS)
	bench/multi-bench.sh $(BUILD)/gravulien

# The engine for the browser (docs/wasm.md): the rules cores, search and engine compiled
# by Emscripten in $(WASM_BUILD) into web/engine/gravulien.wasm and its loader gravulien.js,
# which web/engine/worker.js drives; prints their sizes. `make check` and `make bench`
# build it when emcc is there (scripts/deps.sh installs Debian's emscripten). Emscripten's
# JavaScript optimiser needs acorn, which Debian keeps in /usr/share/nodejs.
WASM_BUILD ?= build-wasm
WASM_ENV    = NODE_PATH=/usr/share/nodejs$${NODE_PATH:+:$$NODE_PATH}
wasm:
	@command -v emcc >/dev/null 2>&1 || { echo "wasm: emcc not found (scripts/deps.sh installs emscripten)" >&2; exit 1; }
	$(WASM_ENV) emcmake cmake -S src/wasm -B $(WASM_BUILD) -DCMAKE_BUILD_TYPE=Release >/dev/null
	$(WASM_ENV) cmake --build $(WASM_BUILD) -j $(JOBS)

wasm-if-emcc:
	@if command -v emcc >/dev/null 2>&1; then $(MAKE) --no-print-directory wasm; \
	  else echo "wasm: emcc not found, the browser engine is not built (its test is skipped)"; fi

# The fuzzers (docs/fuzzing.md; not part of check): every parser's libFuzzer target, built
# with clang in $(FUZZ_BUILD) (ASan + UBSan), run one after another from its corpus in
# tests/fuzz/corpus/, each for FUZZ_TIME seconds or FUZZ_RUNS executions, whichever ends
# first. FUZZ_TARGETS picks some (e.g. "api ws"); FUZZ_MERGE=1 then shrinks each corpus
# in the tree to the inputs that cover what the old and the new ones cover; FUZZ_CHUNK
# caps the executions of one fuzzer process (0: the target's default).
FUZZ_BUILD   ?= build-fuzz
FUZZ_TIME    ?= 300
FUZZ_RUNS    ?= 10000000
FUZZ_TARGETS ?=
FUZZ_MERGE   ?= 0
FUZZ_CHUNK   ?= 0
fuzz:
	@scripts/deps.sh fuzz
	cmake -S . -B $(FUZZ_BUILD) -DCMAKE_C_COMPILER=clang -DCMAKE_BUILD_TYPE=RelWithDebInfo \
	  -DGV_PGO=OFF -DGV_SANITIZE=ON -DGV_FUZZ=ON >/dev/null
	cmake --build $(FUZZ_BUILD) -j $(JOBS) --target fuzzers
	FUZZ_TIME=$(FUZZ_TIME) FUZZ_RUNS=$(FUZZ_RUNS) FUZZ_TARGETS="$(FUZZ_TARGETS)" \
	  FUZZ_MERGE=$(FUZZ_MERGE) FUZZ_CHUNK=$(FUZZ_CHUNK) tests/fuzz/run.sh $(FUZZ_BUILD)

# Soak: SOAK_MINUTES of mixed traffic (people, AI games, watchers) against one server that is
# killed with SIGKILL every few minutes and restarted on the same database; prints the loop's
# worst stall, memory over time and acknowledged moves lost, with the targets (bench/soak.mjs).
# SOAK_DB=pg runs it on a throwaway PostgreSQL. Not part of `make check`.
SOAK_MINUTES ?= 30
soak: all
	SOAK_MINUTES=$(SOAK_MINUTES) bench/soak.sh $(BUILD)/gravulien $(SOAK_MINUTES)

# The main job: the game server (SQLite store gravulien.db in this directory); prints its URL.
run: all wasm-if-emcc
	$(BUILD)/gravulien serve --db gravulien.db

# The release build installed: $(PREFIX)/bin/gravulien, its web page in
# $(PREFIX)/share/gravulien/web and the manual page gravulien.1 in $(PREFIX)/share/man/man1,
# all under $(DESTDIR) when it is given.
install: all
	DESTDIR="$(DESTDIR)" cmake --install $(BUILD) --prefix "$(PREFIX)"

clean:
	rm -rf $(BUILD) $(ASAN) $(PGO_BUILD) $(FUZZ_BUILD) $(WASM_BUILD)
	rm -f web/engine/gravulien.js web/engine/gravulien.wasm
