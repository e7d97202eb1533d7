#!/usr/bin/env bash
# ctest bench_cpu (label bench): bench/cpu.sh end to end on the corpus pair
# P3, two frames, one run, with vqx itself given as the "reference" command
# (it takes the same options), so that every column is filled: a row per
# family with wall seconds, CPU ms per frame for both tools, and a ratio;
# the reference's extra options (--ref-args) reach its runs and the header.
# Skips (77) without the corpus.
# Usage: bench/cpu_test.sh BUILD_DIR
set -euo pipefail
cd "$(dirname "$0")/.."
build=$1
corpus=${VQX_CORPUS:-../shared/corpus}
[ -f "$corpus/manifest.json" ] || { echo "no corpus at $corpus: skipped"; exit 77; }
out=$(bash bench/cpu.sh --build "$build" --ref "$build/vqx" --ref-args "--subsample 1" \
  --sizes 1080p --threads 1 --families "psnr motion" --frames 2 --runs 1)
echo "$out"
num='-?[0-9.]+'
rows=$(grep -cE "^\| 1080p \| 1 \| (psnr|motion)( \| ($num|-)){8} \|$" <<<"$out" || true)
[ "$rows" = 2 ] || { echo "FAIL: expected 2 complete rows, got $rows" >&2; exit 1; }
grep -q '^CPU: .*reference: .*/vqx --subsample 1$' <<<"$out" ||
  { echo "FAIL: no CPU line naming the reference's options" >&2; exit 1; }
