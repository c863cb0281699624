#!/bin/sh
# Installs the Debian packages and npm modules the build and tests need, when missing
# (`scripts/deps.sh fuzz`: also clang and libFuzzer, for `make fuzz`).
# Safe to run repeatedly; does nothing when everything is present.
set -e
cd "$(dirname "$0")/.."

need=""
command -v cc    >/dev/null 2>&1 || need="$need gcc libc6-dev"
command -v cmake >/dev/null 2>&1 || need="$need cmake"
command -v make  >/dev/null 2>&1 || need="$need make"
command -v node  >/dev/null 2>&1 || need="$need nodejs"
command -v npm   >/dev/null 2>&1 || need="$need npm"
command -v pkg-config >/dev/null 2>&1 || need="$need pkg-config"
[ -f /usr/include/jansson.h ] || need="$need libjansson-dev"
# The server: libwebsockets (event-driven HTTP + WebSocket) and SQLite (its store).
[ -f /usr/include/libwebsockets.h ] || need="$need libwebsockets-dev"
# Its event loop: libev (epoll), which lws joins through its libev plugin (Debian
# libwebsockets-dev depends on both; checked here since the server needs them).
[ -f /usr/include/ev.h ] || need="$need libev-dev"
ls /usr/lib/*/libwebsockets-evlib_ev.so >/dev/null 2>&1 || need="$need libwebsockets-evlib-ev"
[ -f /usr/include/sqlite3.h ] || need="$need libsqlite3-dev"
# liburing: the WebSocket broadcast hands the kernel many sends in one system call.
[ -f /usr/include/liburing.h ] || need="$need liburing-dev"
# PostgreSQL: the client library of the store's second backend, and a server for its
# tests (tests/pgtmp.sh runs a throwaway one; the package's own cluster is not needed).
[ -f /usr/include/postgresql/libpq-fe.h ] || need="$need libpq-dev"
# OpenSSL's libcrypto (SHA-256 of the stored seat tokens); libwebsockets-dev and libpq-dev
# bring it, checked here since the server needs its headers.
[ -f /usr/include/openssl/evp.h ] || need="$need libssl-dev"
# libsodium: Argon2id hashes of the accounts' passwords (crypto_pwhash_str).
[ -f /usr/include/sodium.h ] || need="$need libsodium-dev"
ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1 || need="$need postgresql"
# Protocol peers the tests play against: XBoard under a virtual X server, and HaChu.
command -v xvfb-run  >/dev/null 2>&1 || need="$need xvfb xauth"
[ -x /usr/games/xboard ] || need="$need xboard"
[ -x /usr/games/hachu ]  || need="$need hachu"
command -v tmux >/dev/null 2>&1 || need="$need tmux"   # the terminal test of 'gravulien play'
# nginx: the test of the deployment guide's proxy configuration (tests/server/nginx.mjs).
[ -x /usr/sbin/nginx ] || need="$need nginx"
# SQLite's shell: the server test that holds the database locked (tests/server/slow_store.mjs).
command -v sqlite3 >/dev/null 2>&1 || need="$need sqlite3"
# The browser test of the web page: Chromium driven by playwright-core, and a Japanese font
# so the Chu pieces' kanji are drawn (headless Chromium has no other).
[ -x /usr/bin/chromium ] || need="$need chromium"
[ -d /usr/share/fonts/opentype/ipafont-gothic ] || need="$need fonts-ipafont-gothic"
# The engine for the browser (make wasm, docs/wasm.md): Emscripten (clang for wasm32, its
# libc and JavaScript glue; about 800 MB installed).
command -v emcc >/dev/null 2>&1 || need="$need emscripten"
# `make fuzz` only (scripts/deps.sh fuzz): clang and its libFuzzer runtime.
if [ "${1:-}" = fuzz ]; then
  command -v clang >/dev/null 2>&1 || need="$need clang"
  ls /usr/lib/llvm-*/lib/clang/*/lib/linux/libclang_rt.fuzzer-*.a >/dev/null 2>&1 || \
    need="$need libclang-rt-dev"
fi

if [ -n "$need" ]; then
  if [ "$(id -u)" = 0 ]; then
    echo "deps: installing$need" >&2
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -q >&2
    apt-get install -y -q --no-install-recommends $need >&2
  else
    echo "deps: missing$need; run 'sudo scripts/deps.sh' or install them" >&2
    exit 1
  fi
fi

# The npm modules below are for the tests of `make check` only.
[ "${1:-}" = fuzz ] && exit 0

# shogiops: the independent Chu Shogi rules library (GPL, test-only) used as a reference.
if [ ! -f tests/shogiops/node_modules/shogiops/package.json ]; then
  echo "deps: installing test dependency shogiops (npm)" >&2
  (cd tests/shogiops && npm ci --no-audit --no-fund --loglevel=error >&2) || \
    echo "deps: could not install shogiops; its cross-check test will be skipped" >&2
fi
# @sabaki/gtp: a GTP controller (MIT, test-only) that drives 'gravulien gtp' (ctest gtp_peer).
if [ ! -f tests/gtp/node_modules/@sabaki/gtp/package.json ]; then
  echo "deps: installing test dependency @sabaki/gtp (npm)" >&2
  (cd tests/gtp && npm ci --no-audit --no-fund --loglevel=error >&2) || \
    echo "deps: could not install @sabaki/gtp; the gtp_peer test will be skipped" >&2
fi
# ws: the WebSocket client of the server tests and the watcher benchmark (test-only).
if [ ! -f tests/server/node_modules/ws/package.json ]; then
  echo "deps: installing test dependency ws (npm)" >&2
  (cd tests/server && npm ci --no-audit --no-fund --loglevel=error >&2) || \
    echo "deps: could not install ws; the server tests will be skipped" >&2
fi
# playwright-core: drives Chromium in the web page's browser test (test-only).
if [ ! -f tests/web/node_modules/playwright-core/package.json ]; then
  echo "deps: installing test dependency playwright-core (npm)" >&2
  (cd tests/web && npm ci --no-audit --no-fund --loglevel=error >&2) || \
    echo "deps: could not install playwright-core; the browser test will be skipped" >&2
fi
exit 0
