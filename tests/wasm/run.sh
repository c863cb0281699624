#!/bin/sh
# The browser engine against the native program (tests/wasm/wasm.mjs and view.mjs), then in Chromium
# (tests/wasm/browser.mjs): builds it first (make wasm, which does nothing when it is up to
# date). Skipped (77) without Emscripten.
#   tests/wasm/run.sh path/to/gravulien
BIN="$1"
ROOT="$(cd "$(dirname "$0")/../.." && pwd)"
if ! command -v emcc >/dev/null 2>&1; then
  echo "skip: emcc not found (scripts/deps.sh installs Debian's emscripten)"
  exit 77
fi
command -v node >/dev/null 2>&1 || { echo "skip: node not found"; exit 77; }
# Not the make that may be running ctest: a make of its own.
if ! env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL make -s -C "$ROOT" wasm >"${TMPDIR:-/tmp}/gv-wasm-build.$$" 2>&1; then
  cat "${TMPDIR:-/tmp}/gv-wasm-build.$$"
  rm -f "${TMPDIR:-/tmp}/gv-wasm-build.$$"
  echo "FAIL make wasm"
  exit 1
fi
rm -f "${TMPDIR:-/tmp}/gv-wasm-build.$$"
node "$ROOT/tests/wasm/wasm.mjs" "$BIN" || exit 1
# Its views of positions against the native server's (tests/wasm/view.mjs).
node "$ROOT/tests/wasm/view.mjs" "$BIN" || exit 1
# The same engine in Chromium through the server's page (skipped without Chromium).
node "$ROOT/tests/wasm/browser.mjs" "$BIN"
rc=$?
[ $rc -eq 0 ] || [ $rc -eq 77 ] || exit 1
exit 0
