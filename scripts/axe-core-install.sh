#!/usr/bin/env bash
# axe-core (Deque's accessibility engine, npm package) for the browser tests (tests/web/), installed
# when missing into .cache/axe-core/ (gitignored) with the system's npm; the tests inject its
# axe.min.js into each page and run it (tests/web/axe.py).
#
#   scripts/axe-core-install.sh          # npm install axe-core@VERSION, if needed; prints axe.min.js
#   scripts/axe-core-install.sh --path   # prints where axe.min.js is (installed or not)
set -euo pipefail

version=4.14.1
root="$(cd "$(dirname "$0")/.." && pwd)"
prefix="$root/.cache/axe-core/$version"
script="$prefix/node_modules/axe-core/axe.min.js"

if [ "${1:-}" = "--path" ]; then
    echo "$script"
    exit 0
fi
if [ ! -f "$script" ]; then
    if ! command -v npm >/dev/null; then
        echo "axe-core-install: npm is not installed" >&2
        exit 1
    fi
    mkdir -p "$prefix"
    npm install --silent --no-audit --no-fund --no-save --prefix "$prefix" "axe-core@$version" >&2
fi
if [ ! -f "$script" ]; then
    echo "axe-core-install: npm install axe-core@$version did not provide $script" >&2
    exit 1
fi
echo "$script"
