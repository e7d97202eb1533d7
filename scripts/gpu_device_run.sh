#!/usr/bin/env bash
# The GPU tests and benchmark on a device machine, in one call (docs/gpu.md).
#
#   scripts/gpu_device_run.sh build    here: builds VQX_GPU=cuda (no FFmpeg:
#                                      the device machine has no Debian
#                                      libraries) and stages what the device
#                                      needs in .gpu_carry/ (git-ignored)
#   scripts/gpu_device_run.sh device   there: ctest -L "gpu|contract",
#                                      then the benchmark; logs to $OUT
#
# With the device tool, the one call is:
#   run(command="bash scripts/gpu_device_run.sh device", carry=[".gpu_carry"])
# Optional corpus excerpt: scripts/gpu_device_run.sh build --corpus DIR N
# copies the first N frames of each pair in DIR (decoded .y4m) into
# .gpu_carry/corpus, xz-compressed, for the parity test's corpus run.
# Optional comparison: scripts/gpu_device_run.sh build --before BENCH copies
# the vqx_gpu_bench binary BENCH (built from an earlier commit) into
# .gpu_carry/before; the device run then times it and this build's in
# alternating pairs (4K and 1080p, vmaf_v0.6.1), the figure a refactor must
# not lower.
set -euo pipefail
cd "$(dirname "$0")/.."
mode=${1:-}
carry=.gpu_carry
build=build/cuda

stage_build() {
  cmake --preset cuda -DVQX_WITH_LIBAV=OFF >/dev/null
  cmake --build --preset cuda -j "$(nproc)"
  rm -rf "$carry/build"
  mkdir -p "$carry/build"
  # ctest's files and the test, benchmark and CLI binaries, at their paths.
  (cd "$build" && find . \( -name CTestTestfile.cmake -o -name '*_include.cmake' \
      -o -name '*_tests.cmake' -o -name vqx_gpu_tests \
      -o -name 'vqx_gpu_first_frame_*' -o -name vqx_gpu_fault_tests -o -name vqx_gpu_poison_test \
      -o -name vqx_contract_tests \
      -o -name vqx_gpu_bench \) \
      -type f -print0 | xargs -0 -I{} cp --parents {} "../../$carry/build/")
  find "$carry/build" -type f -perm -u+x -exec strip --strip-unneeded {} +
  # Shared libraries the binaries need beyond the base system.
  mkdir -p "$carry/lib"
  for f in $(find "$carry/build" -type f -perm -u+x); do
    ldd "$f" 2>/dev/null | awk '/=> \//{print $3}'
  done | sort -u | grep -Ev '/(libc|libm|libdl|libpthread|librt|libstdc\+\+|libgcc_s|ld-linux)[.-]' |
    xargs -r -I{} cp -L {} "$carry/lib/" || true
  grep -qx "/$carry/" .git/info/exclude 2>/dev/null || echo "/$carry/" >> .git/info/exclude
  du -sh "$carry"
}

stage_corpus() {  # DIR N: first N frames of each decoded pair
  local dir=$1 frames=$2
  mkdir -p "$carry/corpus"
  python3 - "$dir" "$frames" "$carry/corpus" <<'PY'
import os, sys
src, n, dst = sys.argv[1], int(sys.argv[2]), sys.argv[3]
for name in sorted(os.listdir(src)):
    if not name.endswith('.y4m'):
        continue
    with open(os.path.join(src, name), 'rb') as f:
        header = f.readline()
        tok = {t[:1]: t[1:] for t in header.split()[1:]}
        w, h = int(tok[b'W']), int(tok[b'H'])
        c = tok.get(b'C', b'420').decode()
        bps = 2 if 'p1' in c else 1
        cw, ch = {'420': ((w + 1) // 2, (h + 1) // 2), '422': ((w + 1) // 2, h),
                  '444': (w, h)}[c[:3]]
        size = bps * (w * h + 2 * cw * ch)
        with open(os.path.join(dst, name), 'wb') as o:
            o.write(header)
            for _ in range(n):
                o.write(f.readline())
                o.write(f.read(size))
PY
  xz -f -T0 -1 "$carry"/corpus/*.y4m
  du -sh "$carry/corpus"
}

device() {
  local out=${OUT:-/tmp/vqx_gpu_out}
  mkdir -p "$out" build
  ln -sfn "../$carry/build" "$build"
  export LD_LIBRARY_PATH="$PWD/$carry/lib:${LD_LIBRARY_PATH:-}"
  {
    date -u +"date: %Y-%m-%dT%H:%M:%SZ"
    nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader
    nproc | sed 's/^/cpu cores: /'
  } | tee "$out/device.txt"
  if [ -d "$carry/corpus" ]; then
    mkdir -p /tmp/vqx_corpus
    for f in "$carry"/corpus/*.xz; do xz -dc "$f" > "/tmp/vqx_corpus/$(basename "$f" .xz)"; done
    export VQX_GPU_CORPUS_DIR=/tmp/vqx_corpus VQX_GPU_CORPUS_FRAMES=${VQX_GPU_CORPUS_FRAMES:-2}
  fi
  set +e
  timeout "${VQX_CTEST_LIMIT:-420}" ctest --test-dir "$build" -L "gpu|contract" -j 4 \
    --timeout 300 --output-on-failure >"$out/ctest.log" 2>&1
  local rc=$?
  grep -E "tests passed|tests failed|Total Test time|\*\*\*|Failed|SKIPPED" "$out/ctest.log" | tail -25
  [ "${VQX_GPU_BENCH:-1}" = 0 ] || bench "$out"
  [ ! -x "$carry/before/vqx_gpu_bench" ] || bench_pairs "$out"
  return $rc
}

bench() {
  local out=$1 b="timeout 90 $build/bench/gpu/vqx_gpu_bench"
  {
    $b --backend cuda --threads 8 --frames 1000 --size 3840x2160 --label vmaf_v0.6.1
    $b --backend cuda --threads 8 --frames 2000 --size 1920x1080 --size 576x324 --label vmaf_v0.6.1
    for f in vif adm motion "motion=motion_force_zero=true"; do
      $b --backend cuda --threads 8 --frames 500 --size 3840x2160 --feature "$f" --label "$f"
    done
    $b --backend cpu --threads 16 --frames 40 --size 3840x2160 --label vmaf_v0.6.1
    $b --backend cpu --threads 16 --frames 150 --size 1920x1080 --size 576x324 --label vmaf_v0.6.1
  } 2>&1 | tee "$out/bench.txt"
}

# Before and after in alternating pairs, three of each, so that a drift of
# the machine (clocks, other tenants) falls on both alike.
bench_pairs() {
  local out=$1 i which b
  for i in 1 2 3; do
    for which in before after; do
      b=$build/bench/gpu/vqx_gpu_bench
      [ "$which" = after ] || b=$carry/before/vqx_gpu_bench
      timeout 90 "$b" --backend cuda --threads 8 --frames 1000 --size 3840x2160 \
        --label "$which, pair $i" 2>&1
      timeout 90 "$b" --backend cuda --threads 8 --frames 2000 --size 1920x1080 \
        --label "$which, pair $i" 2>&1
    done
  done | tee "$out/bench_pairs.txt"
}

case "$mode" in
  build)
    stage_build
    shift
    while [ $# -gt 0 ]; do
      case $1 in
        --corpus) stage_corpus "$2" "${3:-2}"; shift 3 ;;
        --before) mkdir -p "$carry/before" && cp "$2" "$carry/before/vqx_gpu_bench"; shift 2 ;;
        *) echo "$0 build: unknown option $1" >&2; exit 2 ;;
      esac
    done
    ;;
  device) device ;;
  bench) bench "${OUT:-/tmp/vqx_gpu_out}" ;;
  *) echo "usage: $0 build [--corpus DIR N] | device | bench" >&2; exit 2 ;;
esac
