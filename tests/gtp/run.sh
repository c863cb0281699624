#!/bin/sh
# Drives 'gravulien gtp' with a real GTP controller (@sabaki/gtp, test-only) through whole
# games. Usage: tests/gtp/run.sh <path-to-gravulien>. Skips (exit 77) when node or the
# npm module is unavailable (scripts/deps.sh installs it).
bin=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
cd "$(dirname "$0")"
command -v node >/dev/null 2>&1 || { echo "node not installed: skipped"; exit 77; }
[ -f node_modules/@sabaki/gtp/package.json ] || { echo "@sabaki/gtp not installed: skipped"; exit 77; }
exec node drive.mjs "$bin"
