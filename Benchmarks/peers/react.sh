#!/usr/bin/env bash
# Renders the SuspenseBench tree with React 18.1's server renderer and prints its times next to
# SuspenseKit's (benchmarks 1, 2, 8 and 9) for the same N and number of runs: the static tree,
# every item suspending at once, every item suspending once for real (YIELDING items; React:
# setImmediate), and the eknkc/ssr-benchmark page (TABLE_ROWS rows × 2 UUIDs, whole and streamed).
#
#     Benchmarks/peers/react.sh [N=100000] [RUNS=7] [YIELDING=10000] [TABLE_ROWS=1000]
#
# Needs node (v20 here) and Debian's React: `apt-get install -y node-react-dom` (the npm registry
# is not used). SuspenseKit's figures come from `SuspenseBench --only 1,2`, built in release.
set -euo pipefail
cd "$(dirname "$0")/.."
N="${1:-100000}"
RUNS="${2:-7}"
YIELDING="${3:-10000}"
TABLE_ROWS="${4:-1000}"

if [ ! -d /usr/share/nodejs/react-dom ]; then
    echo "React is not installed: apt-get install -y node-react-dom" >&2
    exit 1
fi

echo "React $(NODE_PATH=/usr/share/nodejs node -p 'require("react-dom/package.json").version') on node $(node --version), N=$N, $RUNS runs (medians)"
react="$(NODE_ENV=production NODE_PATH=/usr/share/nodejs node peers/react-render.cjs "$N" "$RUNS" "$YIELDING" "$TABLE_ROWS")"
react_static="$(awk '$1 == "static" { print $2 }' <<<"$react")"
react_suspending="$(awk '$1 == "suspending" { print $2 }' <<<"$react")"
react_yielding="$(awk '$1 == "yielding" { print $2 }' <<<"$react")"
react_table="$(awk '$1 == "table" { print $2 }' <<<"$react")"
react_streamed_table="$(awk '$1 == "streamed-table" { print $2 }' <<<"$react")"

swift build -c release --product SuspenseBench >/dev/null
ours="$(.build/release/SuspenseBench --runs "$RUNS" --items "$N" --only 1,2,8,9 --no-plot \
    --yielding-items "$YIELDING" --table-rows "$TABLE_ROWS")"
# A cell of SuspenseBench's table in ms (column 3 ours, 4 the baseline); µs become ms.
cell() {
    grep -F "$1" <<<"$ours" | head -1 | awk -F'|' -v column="$2" '{
        value = $column; gsub(/ /, "", value)
        if (value ~ /µs$/) { sub(/µs$/, "", value); value = value / 1000 } else { sub(/ms$/, "", value) }
        print value }'
}
ours_static="$(grep -F '`.html`' <<<"$ours" | awk -F'|' '{ gsub(/ ms| /, "", $3); print $3 }')"
baseline="$(grep -F '`.html`' <<<"$ours" | awk -F'|' '{ gsub(/ ms| /, "", $4); print $4 }')"
ours_suspending="$(grep -F 'every item suspends on its own key' <<<"$ours" | awk -F'|' '{ gsub(/ ms| /, "", $3); print $3 }')"
ours_yielding="$(cell 'suspends once' 3)"
yielding_baseline="$(cell 'suspends once' 4)"
ours_table="$(cell '`render`:' 3)"
ours_streamed_table="$(cell '`renderStream`:' 3)"
table_baseline="$(cell '`render`:' 4)"

echo
echo "| Workload, $N items | SuspenseKit | React 18 | Byte-buffer baseline |"
echo "|---|---:|---:|---:|"
echo "| static tree to HTML (React: renderToString) | $ours_static ms | $react_static ms | $baseline ms |"
echo "| every item suspends, one Suspense (React: renderToPipeableStream, onAllReady) | $ours_suspending ms | $react_suspending ms | $baseline ms |"
echo "| every item suspends once for real, $YIELDING items (React: setImmediate, onAllReady) | $ours_yielding ms | $react_yielding ms | $yielding_baseline ms |"
echo "| eknkc/ssr-benchmark page, $TABLE_ROWS rows, whole (React: onAllReady) | $ours_table ms | $react_table ms | $table_baseline ms |"
echo "| the same page streamed (React: onShellReady) | $ours_streamed_table ms | $react_streamed_table ms | $table_baseline ms |"
