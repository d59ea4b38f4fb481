#!/usr/bin/env bash
# Debian's Chromium headless shell for the browser tests (tests/web/), installed when missing.
#
#   scripts/chromium-install.sh          # apt-get install chromium-headless-shell, if needed
#   scripts/chromium-install.sh --name   # prints the package's name (the tests read it)
#
# .ci/run calls it before `make test` (as it installs PostgreSQL), so that the suite's time is
# the suite's own; tests/web/conftest.py (ensure_chromium) still installs the same package when
# a checkout runs `make test` without it. Playwright's own browser builds are never downloaded.
set -euo pipefail

package=chromium-headless-shell
binary=/usr/bin/chromium-headless-shell

if [ "${1:-}" = "--name" ]; then
    echo "$package"
    exit 0
fi
if [ -x "$binary" ]; then
    exit 0
fi
if [ "$(id -u)" -ne 0 ]; then
    echo "chromium-install: $package is not installed and we are not root" >&2
    exit 1
fi
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq >&2
apt-get install -y -qq "$package" >&2
if [ ! -x "$binary" ]; then
    echo "chromium-install: apt-get install $package did not provide $binary" >&2
    exit 1
fi
