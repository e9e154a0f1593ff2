#!/usr/bin/env bash
# Headless Chromium (Debian's `chromium`, installed when missing) loads the streamed Dashboard with
# its cards in a forwards SuspenseList from `DashboardServer --test-clock` and, as the check moves
# the server's clock so that the cards' queries answer out of the page's order, sees the cards
# reveal from the top only; the final page must equal the whole render (see
# browser-reveal-check.py). Writes each step's DOM and screenshots of a middle step and of the end.
#
#     bash scripts/browser-reveal-check.sh path/to/DashboardServer [--page PATH]
#
# `--page /` (the same cards with no list) fails: the way to see that the check can fail.
set -euo pipefail
cd "$(dirname "$0")/.."
server_binary=$1
shift
out=${BROWSER_REVEAL_CHECK_DIR:-.build/browser-reveal-check}
mkdir -p "$out"

if ! command -v chromium >/dev/null; then
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null
fi

# The whole render of the same page, as Chromium has it.
swift build --product Dashboard >/dev/null
"$(swift build --product Dashboard --show-bin-path)/Dashboard" --document --reveal forwards >"$out/whole.html"
timeout 120 chromium --headless --no-sandbox --disable-gpu --disable-dev-shm-usage --no-first-run \
    --dump-dom "file://$PWD/$out/whole.html" 2>/dev/null >"$out/whole.dom.html"

source scripts/lib/start-server.sh
trap 'kill ${server_pid:-} 2>/dev/null || true' EXIT
start_server "$out/server.log" "$server_binary" --test-clock || exit 1
timeout 600 python3 scripts/browser-reveal-check.py "$url" "$out/whole.dom.html" "$out" "$@"
