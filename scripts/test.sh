#!/usr/bin/env bash
# Builds VQX and runs the whole test suite: release build (warnings as
# errors) with every test, then the same suite under ASan+UBSan (without the
# full-corpus parity runs, which the release build already covers).
set -euo pipefail
cd "$(dirname "$0")/.."
jobs=$(nproc)

cmake --preset release
cmake --build --preset release -j "$jobs"
ctest --preset release -j "$jobs"

cmake --preset asan
cmake --build --preset asan -j "$jobs"
ctest --preset asan -j "$jobs" -E 'CorpusParity'
