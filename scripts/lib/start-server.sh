# Sourced by the scripts that start an example DashboardServer.
#
# start_server LOG BINARY [ARGS...]: starts BINARY --port 0 ARGS on 127.0.0.1 in the background,
# its output in LOG, and waits (up to 30 s) for its one line `listening on URL`. Sets `server_pid` to
# its pid and `url` to that URL; prints the log and returns 1 if it exits or never says so.
start_server() {
    local log=$1 binary=$2
    shift 2
    "$binary" --port 0 "$@" >"$log" 2>&1 &
    server_pid=$!
    url=""
    for _ in $(seq 1 300); do
        url=$(sed -n 's/^listening on \(http:[^ ]*\)$/\1/p' "$log" | head -n 1)
        [[ -n "$url" ]] && return 0
        kill -0 "$server_pid" 2>/dev/null || break
        sleep 0.1
    done
    echo "DashboardServer did not start" >&2
    cat "$log" >&2
    return 1
}
