#!/usr/bin/env bash
# A throwaway PostgreSQL server on 127.0.0.1 for the tests (and .ci/run).
#
#   eval "$(bash tests/pg_server.sh start DIR)"   # prints: export RAPTOR_TEST_DATABASE_URL=...
#   bash tests/pg_server.sh stop DIR
#
# DIR is a new or empty folder (e.g. "$(mktemp -d)"); it holds the cluster, its socket and its
# log (DIR/server.log) and can be removed after `stop`. As root, DIR is given to the server's
# user, so its parent folders must be open to that user (mktemp -d itself is fine; a folder
# inside it is not). The server uses the machine's
# PostgreSQL binaries (the newest /usr/lib/postgresql/*/bin, else initdb on the PATH);
# when there are none and we are root, Debian's `postgresql` package is installed first.
# PostgreSQL refuses to run as root, so as root the server runs as the `postgres` user (or
# `nobody`) through runuser. Durability is off (fsync, synchronous_commit): a test server;
# PG_DURABLE=1 keeps PostgreSQL's defaults (for benchmarks).
set -euo pipefail

usage() { echo "usage: $0 start|stop DIR" >&2; exit 2; }
[[ $# -eq 2 ]] || usage
action=$1
dir=$(realpath -m "$2")

find_bindir() {
    local d
    d=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1 || true)
    if [[ -n "$d" && -x "$d/initdb" ]]; then echo "$d"; return 0; fi
    if command -v initdb >/dev/null 2>&1; then dirname "$(command -v initdb)"; return 0; fi
    return 1
}

as_server_user() {
    if [[ $(id -u) -eq 0 ]]; then
        runuser -u "$server_user" -- "$@"
    else
        "$@"
    fi
}

server_user=postgres
if [[ $(id -u) -eq 0 ]] && ! id postgres >/dev/null 2>&1; then server_user=nobody; fi

case "$action" in
start)
    if ! bindir=$(find_bindir); then
        if [[ $(id -u) -eq 0 ]] && command -v apt-get >/dev/null 2>&1; then
            echo "tests/pg_server.sh: installing Debian's postgresql package" >&2
            DEBIAN_FRONTEND=noninteractive apt-get install -y -q postgresql >&2 \
                || { apt-get update -q >&2 && \
                     DEBIAN_FRONTEND=noninteractive apt-get install -y -q postgresql >&2; }
            bindir=$(find_bindir) || { echo "no PostgreSQL binaries after install" >&2; exit 1; }
            [[ $server_user == nobody ]] && id postgres >/dev/null 2>&1 && server_user=postgres
        else
            echo "tests/pg_server.sh: no PostgreSQL binaries (initdb); install PostgreSQL" >&2
            exit 1
        fi
    fi
    mkdir -p "$dir"
    if [[ $(id -u) -eq 0 ]]; then
        chown "$server_user" "$dir"
        if ! runuser -u "$server_user" -- test -w "$dir"; then
            echo "tests/pg_server.sh: the server user $server_user cannot reach $dir (a parent" \
                 "folder is closed to it, e.g. mktemp -d's mode 700: chmod 711 it)" >&2
            exit 1
        fi
    fi
    port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
    as_server_user "$bindir/initdb" -D "$dir/data" -U raptor --auth=trust -E UTF8 \
        --locale=C.UTF-8 >"$dir/initdb.log" 2>&1 \
        || { cat "$dir/initdb.log" >&2; exit 1; }
    options="-h 127.0.0.1 -p $port -k $dir -c max_connections=200"
    if [[ "${PG_DURABLE:-0}" != 1 ]]; then
        options="$options -c fsync=off -c synchronous_commit=off -c full_page_writes=off"
    fi
    as_server_user "$bindir/pg_ctl" -D "$dir/data" -l "$dir/server.log" -w -t 60 \
        -o "$options" start >&2 || { cat "$dir/server.log" >&2; exit 1; }
    echo "export RAPTOR_TEST_DATABASE_URL=postgresql://raptor@127.0.0.1:$port/postgres"
    ;;
stop)
    bindir=$(find_bindir) || exit 0
    if [[ -f "$dir/data/postmaster.pid" ]]; then
        as_server_user "$bindir/pg_ctl" -D "$dir/data" -m fast -w stop >&2 || true
    fi
    ;;
*)
    usage
    ;;
esac
