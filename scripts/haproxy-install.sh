#!/usr/bin/env bash
# Debian's HAProxy for the scale-out of several `croupier serve` processes (docs/scale-out.md)
# and its failover test (tests/live/test_live_failover.py), installed when missing.
#
#   scripts/haproxy-install.sh          # apt-get install haproxy, if needed
#   scripts/haproxy-install.sh --path   # prints the binary's path (the tests read it)
#
# .ci/run calls it before `make test`, as it installs PostgreSQL and Chromium. Only Debian's
# package is used: nothing is built or downloaded from elsewhere.
set -euo pipefail

package=haproxy
binary=/usr/sbin/haproxy

if [ "${1:-}" = "--path" ]; then
    echo "$binary"
    exit 0
fi
if [ -x "$binary" ]; then
    exit 0
fi
if [ "$(id -u)" -ne 0 ]; then
    echo "haproxy-install: $package is not installed and we are not root" >&2
    exit 1
fi
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq >&2
apt-get install -y -qq --no-install-recommends "$package" >&2
if [ ! -x "$binary" ]; then
    echo "haproxy-install: apt-get install $package did not provide $binary" >&2
    exit 1
fi
