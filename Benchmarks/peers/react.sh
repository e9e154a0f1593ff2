#!/usr/bin/env bash
# Renders the SuspenseBench tree with React 18.1's server renderer and prints its times next to
# SuspenseKit's (benchmarks 1 and 2) for the same N and number of runs.
#
#     Benchmarks/peers/react.sh [N=100000] [RUNS=7]
#
# Needs node (v20 here) and Debian's React: `apt-get install -y node-react-dom` (the npm registry
# is not used). SuspenseKit's figures come from `SuspenseBench --only 1,2`, built in release.
set -euo pipefail
cd "$(dirname "$0")/.."
N="${1:-100000}"
RUNS="${2:-7}"

if [ ! -d /usr/share/nodejs/react-dom ]; then
    echo "React is not installed: apt-get install -y node-react-dom" >&2
    exit 1
fi

echo "React $(NODE_PATH=/usr/share/nodejs node -p 'require("react-dom/package.json").version') on node $(node --version), N=$N, $RUNS runs (medians)"
react="$(NODE_ENV=production NODE_PATH=/usr/share/nodejs node peers/react-render.cjs "$N" "$RUNS")"
react_static="$(awk '$1 == "static" { print $2 }' <<<"$react")"
react_suspending="$(awk '$1 == "suspending" { print $2 }' <<<"$react")"

swift build -c release --product SuspenseBench >/dev/null
ours="$(.build/release/SuspenseBench --runs "$RUNS" --items "$N" --only 1,2 --no-plot)"
ours_static="$(grep -F '`.html`' <<<"$ours" | awk -F'|' '{ gsub(/ ms| /, "", $3); print $3 }')"
baseline="$(grep -F '`.html`' <<<"$ours" | awk -F'|' '{ gsub(/ ms| /, "", $4); print $4 }')"
ours_suspending="$(grep -F 'every item suspends' <<<"$ours" | awk -F'|' '{ gsub(/ ms| /, "", $3); print $3 }')"

echo
echo "| Workload, $N items | SuspenseKit | React 18 | Byte-buffer baseline |"
echo "|---|---:|---:|---:|"
echo "| static tree to HTML (React: renderToString) | $ours_static ms | $react_static ms | $baseline ms |"
echo "| every item suspends, one Suspense (React: renderToPipeableStream, onAllReady) | $ours_suspending ms | $react_suspending ms | $baseline ms |"
