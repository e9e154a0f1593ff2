#!/usr/bin/env bash
# Loads both example servers (Hummingbird's and Vapor's DashboardServer, release builds) with wrk
# on the streamed Dashboard, whose slowest card (Signups) waits 450 ms × the latency scale, and
# prints, for each: the resident memory before and after 20,000 requests (made by a small asyncio
# client, scripts/wrk/ttfb.py), then for 1, 16 and 64 keep-alive connections wrk's requests per
# second and p50/p99 latency of the whole page, and the p50/p99 time to first byte (the status
# line, sent with the shell) measured by that client in a second run of the same length.
# Every request goes to 127.0.0.1 only; each run is bounded in time.
#
#     bash scripts/wrk-servers.sh [--latency-scale 0.1] [--seconds 10] [--servers "hummingbird vapor"]
#
# Needs wrk (Debian's package; installed when missing) and python3. Not part of CI: the figures
# depend on the machine and on what else runs on it.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/lib/start-server.sh
scale=0.1
seconds=10
servers="hummingbird vapor"
while [[ $# -gt 0 ]]; do
    case $1 in
        --latency-scale) scale=$2; shift 2 ;;
        --seconds) seconds=$2; shift 2 ;;
        --servers) servers=$2; shift 2 ;;
        *) echo "usage: $0 [--latency-scale X] [--seconds N] [--servers \"hummingbird vapor\"]" >&2; exit 2 ;;
    esac
done
if ! command -v wrk >/dev/null; then
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq wrk >/dev/null
fi

package() {  # the package folder of a server
    case $1 in
        hummingbird) echo Integrations/Hummingbird/SuspenseKitHummingbird ;;
        vapor) echo Integrations/Vapor/SuspenseKitVapor ;;
    esac
}

rss() { awk '/^VmRSS/ { printf "%.1f MiB", $2 / 1024 }' "/proc/$1/status"; }

# The builds first, one at a time, so that none runs while a server is measured.
for server in $servers; do
    (cd "$(package "$server")" && swift build -c release --product DashboardServer >/dev/null)
done

out=$(mktemp -d)
pid=""
trap '[[ -n "$pid" ]] && kill "$pid" 2>/dev/null; rm -rf "$out"' EXIT
echo "$(date -u '+%Y-%m-%d %H:%M UTC'), $(nproc) cores, load average $(cut -d' ' -f1-3 /proc/loadavg);" \
    "DashboardServer --latency-scale $scale, path /"
for server in $servers; do
    binary=$(cd "$(package "$server")" && swift build -c release --product DashboardServer --show-bin-path)/DashboardServer
    start_server "$out/$server.log" "$binary" --latency-scale "$scale" || exit 1
    pid=$server_pid
    port=${url##*:}

    before=$(rss "$pid")
    made=$(python3 scripts/wrk/ttfb.py "$port" / 64 300 20000 | cut -d' ' -f1)
    echo "$server: RSS $before at start, $(rss "$pid") after $made requests (64 connections)"

    echo "| connections | requests/s | latency p50 | latency p99 | first byte p50 | first byte p99 |"
    echo "|---|---|---|---|---|---|"
    for connections in 1 16 64; do
        threads=$((connections < 2 ? 1 : 2))
        wrk -t"$threads" -c"$connections" -d"${seconds}s" --timeout 5s --latency "$url/" >"$out/wrk.txt"
        if grep -q "Socket errors\|Non-2xx" "$out/wrk.txt"; then
            echo "$server, $connections connections: $(grep 'Socket errors\|Non-2xx' "$out/wrk.txt")" >&2
        fi
        rps=$(awk '/^Requests\/sec/ { printf "%.0f", $2 }' "$out/wrk.txt")
        p50=$(awk '$1 == "50%" { print $2 }' "$out/wrk.txt")
        p99=$(awk '$1 == "99%" { print $2 }' "$out/wrk.txt")
        ttfb=$(python3 scripts/wrk/ttfb.py "$port" / "$connections" "$seconds")
        first50=$(sed -n 's/.*first byte p50 \([0-9.]*\) ms.*/\1ms/p' <<<"$ttfb")
        first99=$(sed -n 's/.*first byte p50 [0-9.]* ms, p99 \([0-9.]*\) ms.*/\1ms/p' <<<"$ttfb")
        echo "| $connections | $rps | $p50 | $p99 | $first50 | $first99 |"
    done
    echo "$server: RSS $(rss "$pid") at the end"
    kill "$pid"
    wait "$pid" 2>/dev/null || true
    pid=""
done
