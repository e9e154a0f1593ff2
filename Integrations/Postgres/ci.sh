#!/usr/bin/env bash
# Builds the Postgres integration and runs its tests against a real PostgreSQL server: Debian's,
# started here in a temporary data directory, on 127.0.0.1 and a free port, and stopped on exit.
# The tests find it through SUSPENSEKIT_PG_HOST, _PORT, _USER and _DATABASE.
set -euo pipefail
cd "$(dirname "$0")"

# Debian's server binaries, installed when missing (a new machine of another kind).
bin=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1 || true)
if [[ -z "$bin" ]]; then
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq postgresql >/dev/null
    bin=$(ls -d /usr/lib/postgresql/*/bin | sort -V | tail -n 1)
fi

data=$(mktemp -d /tmp/suspensekit-pg.XXXXXX)
# PostgreSQL refuses to run as root: as root, the server runs as the `postgres` user.
as_server() {
    if [[ $(id -u) == 0 ]]; then runuser -u postgres -- "$@"; else "$@"; fi
}
if [[ $(id -u) == 0 ]]; then chown postgres "$data"; fi

stop() {
    as_server "$bin/pg_ctl" -D "$data/db" -m immediate stop >/dev/null 2>&1 || true
    rm -rf "$data"
}
trap stop EXIT

port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
as_server "$bin/initdb" -D "$data/db" -U suspensekit --auth=trust -E UTF8 --locale=C >/dev/null
as_server "$bin/pg_ctl" -D "$data/db" -l "$data/server.log" -w \
    -o "-h 127.0.0.1 -p $port -k $data -c max_connections=300 -c fsync=off" start >/dev/null
"$bin/createdb" -h 127.0.0.1 -p "$port" -U suspensekit suspensekit_test

export SUSPENSEKIT_PG_HOST=127.0.0.1 SUSPENSEKIT_PG_PORT="$port"
export SUSPENSEKIT_PG_USER=suspensekit SUSPENSEKIT_PG_DATABASE=suspensekit_test
echo "PostgreSQL on 127.0.0.1:$port ($data)"

swift build
swift test
