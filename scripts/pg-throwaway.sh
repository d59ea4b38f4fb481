#!/usr/bin/env bash
# A throwaway PostgreSQL cluster for tests and benchmarks, on a loopback port.
#
#   scripts/pg-throwaway.sh start DIR PORT   # installs Debian's postgresql when missing,
#                                            # initdb in DIR, starts it on 127.0.0.1:PORT;
#                                            # prints the SQLAlchemy URL of database "croupier"
#   scripts/pg-throwaway.sh stop DIR         # stops it (DIR may then be removed)
#   scripts/pg-throwaway.sh install          # only installs Debian's postgresql when missing
#
# The tests (tests/server/live_harness.py) and benchmarks/bench_server.py call it; .ci/run
# installs the package first.
#
# PostgreSQL refuses to run as root (CI runs as root): the cluster then runs as the "postgres"
# user the Debian package creates (runuser), in a directory that user owns.
set -euo pipefail

action=${1:?usage: pg-throwaway.sh start DIR PORT | stop DIR | install}

bindir() {
    local found
    found=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1 || true)
    if [ -z "$found" ]; then
        if [ "$(id -u)" -ne 0 ]; then
            echo "pg-throwaway: PostgreSQL is not installed and we are not root" >&2
            exit 1
        fi
        export DEBIAN_FRONTEND=noninteractive
        apt-get update -qq >&2
        apt-get install -y -qq postgresql >&2
        found=$(ls -d /usr/lib/postgresql/*/bin | sort -V | tail -n 1)
    fi
    echo "$found"
}

as_owner() {
    if [ "$(id -u)" -eq 0 ]; then
        runuser -u postgres -- "$@"
    else
        "$@"
    fi
}

case "$action" in
install)
    bindir >/dev/null
    ;;
start)
    dir=${2:?the cluster directory}
    port=${3:?the port}
    bin=$(bindir)
    mkdir -p "$dir"
    if [ "$(id -u)" -eq 0 ]; then
        chown postgres "$dir"
        chmod 700 "$dir"
        # the postgres user must reach the directory
        parent=$(dirname "$dir")
        while [ "$parent" != "/" ]; do chmod o+x "$parent" 2>/dev/null || true; parent=$(dirname "$parent"); done
    fi
    as_owner "$bin/initdb" -D "$dir/data" -U croupier --auth=trust -E UTF8 >"$dir/initdb.log" 2>&1
    as_owner "$bin/pg_ctl" -D "$dir/data" -l "$dir/data/server.log" -w -t 60 \
        -o "-c listen_addresses=127.0.0.1 -p $port -k $dir -c fsync=on -c synchronous_commit=on -c max_connections=200" \
        start >/dev/null
    as_owner "$bin/createdb" -h 127.0.0.1 -p "$port" -U croupier croupier
    echo "postgresql+psycopg://croupier@127.0.0.1:$port/croupier"
    ;;
stop)
    dir=${2:?the cluster directory}
    bin=$(bindir)
    if [ -d "$dir/data" ]; then
        as_owner "$bin/pg_ctl" -D "$dir/data" -m fast -w stop >/dev/null || true
    fi
    ;;
*)
    echo "usage: pg-throwaway.sh start DIR PORT | stop DIR" >&2
    exit 2
    ;;
esac
