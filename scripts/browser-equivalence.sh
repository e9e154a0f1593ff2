#!/usr/bin/env bash
# The browser-equivalence test: generated trees (boundaries first in the page, directly in body, in
# tables with and without tbody, rows, lists, title and textarea, nested, failing late, reopening,
# beside ids that look like markers), each streamed out of order (script swap and declarative
# swap) and in order, served chunk by chunk with
# a CSP that allows only the nonce, loaded in one headless Chromium (Debian's `chromium`,
# installed when missing), whose final DOM and visible text must equal the whole render's.
# Prints each failing tree with the seed, the tree and a diff of the DOMs; exits 1 if any fails.
#
#     bash scripts/browser-equivalence.sh [--seed S] [--count N] [--again] [--only K] [--screenshot K MODE PNG]
#
# The seed fixes every tree; the order in which a tree's boundaries resolve depends on real query
# delays, so a stream can differ from one run to the next. Reproduce a failing tree K of seed S:
#     bash scripts/browser-equivalence.sh --again --only K     # the same chunks, loaded again
#     bash scripts/browser-equivalence.sh --seed S --only K    # tree K streamed anew
# Either prints the whole tree and the whole diff. The pages stay in .build/browser-equivalence
# (K/whole.html, K/<mode>.json, K/tree.txt); a screenshot of one (MODE whole, script, in-order…):
#     bash scripts/browser-equivalence.sh --again --screenshot K MODE shot.png
set -euo pipefail
cd "$(dirname "$0")/.."
seed=${BROWSER_EQUIVALENCE_SEED:-1}
count=200
only=()
again=0
screenshot=()
while (($#)); do
    case $1 in
        --seed) seed=$2; shift 2 ;;
        --count) count=$2; shift 2 ;;
        --only) only=(--only "$2"); shift 2 ;;
        --again) again=1; shift ;;
        --screenshot) screenshot=(--screenshot "$2" "$3" "$4"); shift 4 ;;
        *) echo "unknown argument $1" >&2; exit 2 ;;
    esac
done
out=${BROWSER_EQUIVALENCE_DIR:-.build/browser-equivalence}

if ! command -v chromium >/dev/null; then
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null
fi

if ((!again)); then
    swift build --product BrowserEquivalence >/dev/null
    rm -rf "$out"
    "$(swift build --product BrowserEquivalence --show-bin-path)/BrowserEquivalence" \
        --seed "$seed" --count "$count" --out "$out" "${only[@]}"
fi
timeout 600 python3 scripts/browser-equivalence.py "$out" "${only[@]}" "${screenshot[@]}"
