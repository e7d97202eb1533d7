#!/usr/bin/env bash
# Runs every fuzz target (tests/fuzz, docs/reliability.md) for a given time.
#
#   scripts/fuzz.sh SECONDS [TARGET...]     e.g. scripts/fuzz.sh 600, scripts/fuzz.sh 60 y4m raw
#
# Builds the clang preset "fuzz" (libFuzzer + ASan + UBSan; set
# VQX_FUZZ_NO_BUILD=1 to skip), then runs the targets two at a time, each
# for SECONDS, starting from its seeds and regressions in tests/fuzz. The
# growing corpus is kept in build/fuzz/corpus/<target> (not in the repo);
# logs go to build/fuzz/logs/<target>.log; a crash, leak, timeout or
# sanitizer report leaves its input in build/fuzz/artifacts/<target>/ and
# makes the script exit 1. Prints one line per target: seconds, executions,
# executions per second, corpus size, peak RSS.
set -euo pipefail
cd "$(dirname "$0")/.."
if [ $# -lt 1 ] || ! [[ $1 =~ ^[0-9]+$ ]]; then
  echo "usage: $0 SECONDS [TARGET...]   (targets: y4m raw model_json cli specs libav)" >&2
  exit 2
fi
seconds=$1
shift
targets=("$@")
((${#targets[@]})) || targets=(y4m raw model_json cli specs libav)

build=build/fuzz
if [ "${VQX_FUZZ_NO_BUILD:-0}" != 1 ]; then
  cmake --preset fuzz >/dev/null
  cmake --build --preset fuzz -j "$(nproc)" --target "${targets[@]/#/vqx_fuzz_}"
fi
mkdir -p "$build/logs"

# Readers get up to 16 KiB (a few small frames); the parsers libFuzzer's default.
max_len_for() {
  case $1 in
    y4m | raw | libav) echo 16384 ;;
    *) echo 4096 ;;
  esac
}

run_one() {
  local t=$1
  local corpus=$build/corpus/$t artifacts=$build/artifacts/$t
  mkdir -p "$corpus" "$artifacts"
  local dirs=("$corpus" "tests/fuzz/seeds/$t")
  [ -d "tests/fuzz/regressions/$t" ] && dirs+=("tests/fuzz/regressions/$t")
  # Readers open /proc/self/fd/N (fuzz_util.hpp); 25 s is a hang, 2 GiB a leak.
  nice -n 10 "$build/tests/fuzz/vqx_fuzz_$t" -max_total_time="$seconds" -timeout=25 \
    -rss_limit_mb=2048 -max_len="$(max_len_for "$t")" -print_final_stats=1 \
    -artifact_prefix="$artifacts/" "${dirs[@]}" >"$build/logs/$t.log" 2>&1
}

pids=()
names=()
status=0
for t in "${targets[@]}"; do
  if ((${#pids[@]} >= 2)); then
    wait "${pids[0]}" || status=1
    pids=("${pids[@]:1}")
  fi
  run_one "$t" &
  pids+=($!)
  names+=("$t")
done
for p in "${pids[@]}"; do wait "$p" || status=1; done

printf '%-11s %8s %12s %9s %8s %8s  %s\n' target seconds execs exec/s corpus rss_mb result
for t in "${names[@]}"; do
  log=$build/logs/$t.log
  execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
  rate=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$log" | tail -1)
  rss=$(sed -n 's/^stat::peak_rss_mb: *//p' "$log" | tail -1)
  corpus=$(find "$build/corpus/$t" -type f | wc -l)
  result=ok
  if grep -qE '^==[0-9]+==ERROR|runtime error:|^SUMMARY: |libFuzzer: (deadly signal|timeout|out-of-memory)|vqx fuzz:' "$log" ||
     [ -z "$execs" ]; then
    result="FAILED: see $log and $build/artifacts/$t/"
    status=1
  fi
  printf '%-11s %8s %12s %9s %8s %8s  %s\n' "$t" "$seconds" "${execs:-?}" "${rate:-?}" "$corpus" "${rss:-?}" "$result"
done
exit $status
