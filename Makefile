# Thin wrapper over CMake: make (release build), make check, make bench, make run.
BUILD   ?= build
ASAN    ?= build-asan
JOBS    ?= $(shell nproc 2>/dev/null || echo 2)

.PHONY: all deps check check-release check-asan bench run clean

all: deps
	cmake -S . -B $(BUILD) -DCMAKE_BUILD_TYPE=Release >/dev/null
	cmake --build $(BUILD) -j $(JOBS)

deps:
	@scripts/deps.sh

check: all check-release check-asan

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
bench: all
	$(BUILD)/gv_bench
	bench/ws-bench.sh $(BUILD)/gravulien $(WATCHERS)
	bench/multi-bench.sh $(BUILD)/gravulien

# The main job: the game server (SQLite store gravulien.db in this directory); prints its URL.
run: all
	$(BUILD)/gravulien serve --db gravulien.db

clean:
	rm -rf $(BUILD) $(ASAN)
