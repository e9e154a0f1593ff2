#!/usr/bin/env bash
# Checks that every Swift file follows .swift-format (4 spaces, 120 columns, and a doc comment on every public
# declaration of the libraries; Examples/, Benchmarks/ and Integrations/ServerTestSupport/ have their own .swift-format
# without that rule). Fix with: swift format format --in-place --recursive <the paths below>
set -euo pipefail
cd "$(dirname "$0")/.."
paths=(
    Sources Examples Tests Benchmarks/Sources
    Integrations/Hummingbird/SuspenseKitHummingbird/Sources Integrations/Hummingbird/SuspenseKitHummingbird/Tests
    Integrations/Vapor/SuspenseKitVapor/Sources Integrations/Vapor/SuspenseKitVapor/Tests
    Integrations/ServerTestSupport/Sources
    Integrations/Postgres/Sources Integrations/Postgres/Tests
    Integrations/Tracing/Sources Integrations/Tracing/Tests
)
output=$(swift format lint --recursive "${paths[@]}" 2>&1)
if [ -n "$output" ]; then
    echo "$output"
    echo "swift-format: the files above do not follow .swift-format" >&2
    exit 1
fi
echo "swift-format: ok"
