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

# A compiler cache for every build below (scripts/compiler_cache.sh).
source scripts/compiler_cache.sh
if command -v ccache >/dev/null; then ccache --zero-stats >/dev/null; fi

# Each step's time, printed as a table at the end (CI has 90 minutes: the
# table tells where they go).
steps=()
step() {
  local name=$1 start=$SECONDS
  shift
  "$@"
  steps+=("$(printf '%6d s  %s' $((SECONDS - start)) "$name")")
}
report() {
  printf "test.sh: time per step\n"
  printf "%s\n" "${steps[@]}"
  if command -v ccache >/dev/null; then ccache --show-stats | sed -n '1,12s/^/test.sh: ccache: /p'; fi
}
trap report EXIT

# The libvmaf-compatible C API (docs/capi.md) is built and tested in the
# release and asan builds (a few seconds: one small library over vqx).
step "release: configure" cmake --preset release -DVQX_LIBVMAF_COMPAT=ON
step "release: build" cmake --build --preset release -j "$jobs"
step "release: tests" ctest --preset release -j "$jobs"

# Every CPU kernel target: the release suite has just tested the clones this
# CPU picks; the other targets get builds of their own (those this CPU cannot
# execute are compiled, as the release build's clones, and reported skipped).
step "other CPU targets: build and tests" bash scripts/simd_targets.sh --ci

step "asan: configure" cmake --preset asan -DVQX_LIBVMAF_COMPAT=ON
step "asan: build" cmake --build --preset asan -j "$jobs"
step "asan: tests" ctest --preset asan -j "$jobs" -E 'CorpusParity|OracleRun'

# ThreadSanitizer on the multi-context and multi-thread tests: the library's
# (vqx_thread_tests: contexts, the read-ahead, the temporal stages) and the
# CLI's (--threads, --read_ahead, SIGINT with busy workers, a batch's readers).
step "tsan: configure" cmake --preset tsan
step "tsan: build" cmake --build --preset tsan -j "$jobs" --target vqx_thread_tests vqx_cli vqx_cli_tests
step "tsan: tests" env TSAN_OPTIONS="halt_on_error=1 ${TSAN_OPTIONS:-}" ctest --preset tsan -j "$jobs" \
  -R '^(Contexts|Concurrency|ReadAheadTest|CliReadAhead|Scheduler|TemporalStages)\.|ThreadCountDoesNotChangeTheOutput|CliReliability\.|BatchTest\.ReadAhead'

# The fuzz targets (clang, libFuzzer + ASan + UBSan): built, and each run for
# 10 s from its seeds and found crashes (the long runs: docs/reliability.md).
step "fuzz: build and 10 s a target" bash scripts/fuzz.sh 10

# The GPU backends: compiled (CUDA, and HIP where installed), device-free checks run.
step "gpu: CUDA and HIP builds, device-free checks" bash scripts/gpu_ci.sh
