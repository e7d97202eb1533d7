#!/usr/bin/env bash
# Builds VQX and runs the whole test suite: release build (warnings as
# errors) with every test, then the unit and golden tests of every other CPU
# kernel target this machine executes (scripts/simd_targets.sh), the same
# suite under ASan+UBSan (without the full-corpus runs (CorpusParity,
# OracleRun), which the release build already covers), the multi-thread
# tests under TSan, and a short run of every fuzz target.
set -euo pipefail
cd "$(dirname "$0")/.."
jobs=$(nproc)

cmake --preset release
cmake --build --preset release -j "$jobs"
ctest --preset release -j "$jobs"

# Every CPU kernel target: the release suite has just tested the clones this
# CPU picks; the other targets get builds of their own (those this CPU cannot
# execute are compiled, as the release build's clones, and reported skipped).
bash scripts/simd_targets.sh --ci

cmake --preset asan
cmake --build --preset asan -j "$jobs"
ctest --preset asan -j "$jobs" -E 'CorpusParity|OracleRun'

# ThreadSanitizer on the multi-context and multi-thread tests: the library's
# (vqx_thread_tests) and the CLI's (--threads, SIGINT with busy workers).
cmake --preset tsan
cmake --build --preset tsan -j "$jobs" --target vqx_thread_tests vqx_cli vqx_cli_tests
TSAN_OPTIONS="halt_on_error=1 ${TSAN_OPTIONS:-}" ctest --preset tsan -j "$jobs" \
  -R '^(Contexts|Concurrency)\.|ThreadCountDoesNotChangeTheOutput|CliReliability\.'

# The fuzz targets (clang, libFuzzer + ASan + UBSan): built, and each run for
# 10 s from its seeds and found crashes (the long runs: docs/reliability.md).
bash scripts/fuzz.sh 10

# The GPU backends: compiled (CUDA, and HIP where installed), device-free checks run.
bash scripts/gpu_ci.sh
