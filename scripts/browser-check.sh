#!/usr/bin/env bash
# Loads the streamed Dashboard in headless Chromium (Debian's `chromium`, 150 or later for the
# declarative stream), from a file and, when a DashboardServer binary is given, from the running
# server; checks that the DOM Chromium ends with shows every boundary's resolved content, no
# fallback, no leftover marker, template or script, and the same visible text as the whole render.
# The declarative stream with its script is loaded with Chromium's HTML processing instructions
# turned off, as in browsers without declarative partial updates: its script does the swaps.
# Writes screenshots of the shell alone and of each streamed page (script, declarative, in order).
#
#     bash scripts/browser-check.sh [path/to/DashboardServer]
set -euo pipefail
cd "$(dirname "$0")/.."
server_binary=${1:-}
out=${BROWSER_CHECK_DIR:-.build/browser-check}
mkdir -p "$out"

if ! command -v chromium >/dev/null; then
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null
fi
chrome() {
    # Root in CI: no sandbox. The DOM is dumped after the load event, when the stream has ended.
    timeout 120 chromium --headless --no-sandbox --disable-gpu --disable-dev-shm-usage \
        --no-first-run --hide-scrollbars "$@" 2>/dev/null
}

swift build --product Dashboard >/dev/null
dashboard=$(swift build --product Dashboard --show-bin-path)/Dashboard
"$dashboard" --document >"$out/whole.html"
"$dashboard" --stream >"$out/stream.html"
"$dashboard" --stream --in-order >"$out/in-order.html"
"$dashboard" --stream --declarative >"$out/declarative.html"
"$dashboard" --stream --declarative-script >"$out/declarative-script.html"
head -n 1 "$out/stream.html" >"$out/shell.html"

check() {  # check NAME URL [FLAG…]: dumps the DOM of URL and compares it with the whole render's
    local name=$1 url=$2
    shift 2
    chrome "$@" --dump-dom "$url" >"$out/$name.dom.html"
    python3 scripts/compare-dom.py "$out/whole.dom.html" "$out/$name.dom.html" "$name"
}

chrome --dump-dom "file://$PWD/$out/whole.html" >"$out/whole.dom.html"
check stream "file://$PWD/$out/stream.html"
check in-order "file://$PWD/$out/in-order.html"
check declarative "file://$PWD/$out/declarative.html"
check declarative-script "file://$PWD/$out/declarative-script.html"
check declarative-script-fallback "file://$PWD/$out/declarative-script.html" \
    --disable-blink-features=HTMLProcessingInstruction
# Without the script, such a browser keeps the fallbacks: the check above tests the script.
chrome --disable-blink-features=HTMLProcessingInstruction --dump-dom "file://$PWD/$out/declarative.html" \
    >"$out/declarative-unsupported.dom.html"
if python3 scripts/compare-dom.py "$out/whole.dom.html" "$out/declarative-unsupported.dom.html" \
    declarative-unsupported >/dev/null 2>&1; then
    echo "declarative-unsupported: the fallbacks were swapped without the script"
    exit 1
fi
# The cards as the rows of a SuspenseList: in every order the stream ends as the whole render;
# forwards, each prefix of the stream (the shell and its first chunks, one a line, as a browser
# has them mid-stream) shows the cards' content only from the top down.
for order in forwards backwards together; do
    "$dashboard" --stream --reveal "$order" >"$out/list-$order.html"
    check "list-$order" "file://$PWD/$out/list-$order.html"
done
for count in $(seq 1 "$(wc -l <"$out/list-forwards.html")"); do
    head -n "$count" "$out/list-forwards.html" >"$out/list-prefix.html"
    chrome --dump-dom "file://$PWD/$out/list-prefix.html" >"$out/list-prefix-$count.dom.html"
    python3 scripts/revealed-in-order.py "$out/list-prefix-$count.dom.html" "list-prefix-$count"
done
chrome --screenshot="$out/shell.png" --window-size=1100,700 "file://$PWD/$out/shell.html"
for name in stream declarative in-order; do
    chrome --screenshot="$out/$name.png" --window-size=1100,700 "file://$PWD/$out/$name.html"
done

if [[ -n "$server_binary" ]]; then
    source scripts/lib/start-server.sh
    trap 'kill ${server_pid:-} 2>/dev/null || true' EXIT
    start_server "$out/server.log" "$server_binary" || exit 1
    check server "$url/"
    check server-in-order "$url/in-order"
    chrome --screenshot="$out/server.png" --window-size=1100,700 "$url/"
fi
echo "browser: ok (screenshots in $out)"
