#!/usr/bin/env bash
# Builds and tests the Hummingbird integration (one build folder, reused by the tests).
set -euo pipefail
cd "$(dirname "$0")/SuspenseKitHummingbird"
swift build
swift test
