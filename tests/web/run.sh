#!/bin/sh
# Runs the web page's browser test: playwright-core drives Debian's Chromium against
# 'gravulien serve'. Usage: tests/web/run.sh <path-to-gravulien> [script.mjs]
# Skips (exit 77) when node, Chromium or playwright-core is missing
# (npm ci in tests/web installs playwright-core; apt installs chromium).
bin=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
script="${2:-web.mjs}"
cd "$(dirname "$0")"
command -v node >/dev/null 2>&1 || { echo "node not installed: skipped"; exit 77; }
[ -x "${CHROMIUM:-/usr/bin/chromium}" ] || { echo "chromium not installed: skipped"; exit 77; }
[ -f node_modules/playwright-core/package.json ] || { echo "playwright-core not installed (npm ci in tests/web): skipped"; exit 77; }
exec node "$script" "$bin"
