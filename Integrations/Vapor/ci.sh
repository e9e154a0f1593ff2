#!/usr/bin/env bash
# Builds and tests the Vapor integration (one build folder, reused by the tests).
set -euo pipefail
cd "$(dirname "$0")/SuspenseKitVapor"
swift build
swift test
