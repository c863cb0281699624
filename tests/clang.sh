#!/bin/sh
# Every C file of the build compiles without a warning under clang as well as gcc:
# `make fuzz` and `make wasm` build with clang, whose warnings differ from gcc's
# (-Wstring-concatenation, say), and nothing else in `make check` would notice.
# Each translation unit of compile_commands.json is compiled with clang -fsyntax-only,
# with its own include paths, definitions, C standard and target flags, and the project's
# warnings.
# Usage: tests/clang.sh BUILD_DIR. Exit 77 (skipped) when no clang or python3 is installed
# (scripts/deps.sh installs both with Emscripten).
set -u
build=$1
cc=
for c in clang clang-14 clang-15 clang-16; do
    if command -v "$c" >/dev/null 2>&1; then
        cc=$c
        break
    fi
done
if [ -z "$cc" ]; then
    echo "clang.sh: no clang found: skipped"
    exit 77
fi
db="$build/compile_commands.json"
if [ ! -f "$db" ]; then
    echo "clang.sh: $db is missing (CMAKE_EXPORT_COMPILE_COMMANDS)"
    exit 1
fi
# Python splits the compile commands as the shell would (Emscripten, which brings clang,
# depends on it; without it the check is skipped).
if ! command -v python3 >/dev/null 2>&1; then
    echo "clang.sh: no python3 found: skipped"
    exit 77
fi
# One line per translation unit: the file, then the flags clang should see.
python3 - "$db" >"$build/clang-units.txt" <<'EOF' || exit 1
import json, shlex, sys
keep = ("-I", "-isystem", "-D", "-std=", "-include", "-m")
for e in json.load(open(sys.argv[1])):
    f = e["file"]
    if not f.endswith(".c"):
        continue
    args = e["arguments"] if "arguments" in e else shlex.split(e["command"])
    out, i = [], 1
    while i < len(args):
        a = args[i]
        if a in ("-I", "-isystem", "-D", "-include") and i + 1 < len(args):
            out += [a, args[i + 1]]
            i += 2
            continue
        if a.startswith(keep):
            out.append(a)
        i += 1
    print(shlex.join([f] + out))
EOF
n=$(wc -l <"$build/clang-units.txt")
fail=0
# Two at a time; each prints its file and clang's complaints when it fails.
if ! xargs -P 2 -L 1 sh -c '
    f=$1; shift
    if ! out=$('"$cc"' -fsyntax-only -Wall -Wextra -Wmissing-declarations -Wshadow -Werror \
               "$@" "$f" 2>&1); then
        echo "clang.sh: $f:"; echo "$out"; exit 1
    fi' sh <"$build/clang-units.txt"; then
    fail=1
fi
if [ "$fail" = 0 ]; then
    echo "clang.sh: $n files compile without warnings under $cc"
fi
exit $fail
