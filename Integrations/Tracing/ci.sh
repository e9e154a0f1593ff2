#!/usr/bin/env bash
# Builds the tracing integration and runs its tests (one build folder, reused by the tests).
set -euo pipefail
cd "$(dirname "$0")"
swift build
swift test
