#!/usr/bin/env bash
# target_clones against Highway's dynamic dispatch (docs/architecture.md,
# "CPU kernels: targets, dispatch and floating point"): vqx_simd_bench
# (bench/simd/) built against three builds of the library,
#   build/release            the kernels as target_clones, the loader's pick;
#   build/target-x86-64      the baseline kernels only (VQX_CPU_TARGET=x86-64);
#   build/target-x86-64-v3   the AVX2 kernels only, called without dispatch;
# the moments kernel also written with GCC vector types in each of those
# builds' dispatch, and Highway versions of both kernels for each Highway
# target this CPU runs (all checked bit for bit against the library's).
# Prints a Markdown table of milliseconds per 1080p frame: the fastest frame
# of all runs (the steadier figure on a shared machine; the ratio column is
# of these) and the median of the runs' medians.
# Usage: bench/simd.sh   (ROUNDS=n: runs of each program, default 3)
set -euo pipefail
cd "$(dirname "$0")/.."
jobs=$(nproc)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

trees=(build/release build/target-x86-64 build/target-x86-64-v3)
for dir in "${trees[@]}"; do
  case $dir in
    build/release) cmake --preset release -DVQX_BUILD_BENCH=ON >/dev/null ;;
    *) cmake --preset release -B "$dir" -DVQX_CPU_TARGET="${dir#build/target-}" -DVQX_BUILD_BENCH=ON >/dev/null ;;
  esac
  cmake --build "$dir" -j "$jobs" --target vqx_simd_bench >/dev/null
done
# ROUNDS rounds (default 3), each running every tree's program in turn, so
# that a change of load on a shared machine falls on all versions alike; a
# version's figures are the medians over every run of it (the Highway rows
# come from every tree: the same code each time).
for _ in $(seq "${ROUNDS:-3}"); do
  for dir in "${trees[@]}"; do "$dir/bench/vqx_simd_bench" >>"$work/runs"; done
done
/usr/bin/python3 - "$work/runs" >"$work/rows" <<'PY'
import statistics, sys
runs = {}
for line in open(sys.argv[1]):
    kernel, version, median, fastest = line.rstrip("\n").split("\t")
    runs.setdefault((kernel, version), []).append((float(median), float(fastest)))
for (kernel, version), v in runs.items():
    print(f"{kernel}\t{version}\t{statistics.median(m for m, _ in v)}\t{min(f for _, f in v)}")
PY

cpu=$(grep -m1 '^model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ *//')
echo "CPU: $cpu, $(nproc) cores; load average $(cut -d' ' -f1-3 /proc/loadavg)"
echo
echo "| kernel | version | fastest frame, ms | median frame, ms | fastest / target_clones' fastest |"
echo "|---|---|---|---|---|"
# Per kernel: the library's builds, then Highway's targets.
for kernel in moments dwt0; do
  grep "^$kernel"$'\tlibrary ' "$work/rows"
  grep "^$kernel"$'\thighway ' "$work/rows"
done | awk -F'\t' '
  $2 == "library target_clones" { clones = $4 }
  { printf "| %s | %s | %.2f | %.2f | %.2fx |\n", $1, $2, $4, $3, $4 / clones }'
