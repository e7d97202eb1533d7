#!/usr/bin/env bash
# The GPU tests and benchmark on a device machine, in one call (docs/gpu.md).
#
#   scripts/gpu_device_run.sh build    here: builds VQX_GPU=cuda (FFmpeg's
#                                      libraries, which the device machine
#                                      lacks, are loaded only for files that
#                                      need them: it reads Y4M) and stages
#                                      what the device needs in .gpu_carry/
#                                      (git-ignored)
#   scripts/gpu_device_run.sh device   there: ctest -L "gpu|contract",
#                                      then the benchmark and the speed
#                                      table (bench/speed.sh); logs to $OUT
#                                      (VQX_CTEST_REGEX: only the tests
#                                      whose names match, ctest -R)
#   scripts/gpu_device_run.sh speed    there: the speed table alone, every
#                                      depth for the CPU rows too (a call of
#                                      its own: about 9 minutes at most)
#   scripts/gpu_device_run.sh twins    there: each twin alone at 4K, GPU
#                                      and 16 CPU threads (VQX_TWINS=1 adds
#                                      it to `device`)
#   scripts/gpu_device_run.sh profile VQX_ARGS...
#                                      there: perf's samples (a software
#                                      clock: the device machine's VM has no
#                                      hardware counters) of the vqx command
#                                      with VQX_ARGS, by function, into
#                                      $OUT/profile.txt (needs build --perf)
#   VQX_BATCH=1 with `device`          also a batch of 4 clips against one
#                                      4K reference on the GPU, against 4
#                                      runs (bench/batch.sh --synthetic)
#
# With the device tool, the one call is:
#   run(command="bash scripts/gpu_device_run.sh device", carry=[".gpu_carry"])
# Optional corpus excerpt: scripts/gpu_device_run.sh build --corpus DIR N
# copies the first N frames of each pair in DIR (decoded .y4m) into
# .gpu_carry/corpus, xz-compressed, for the parity test's corpus run.
# Optional comparison: scripts/gpu_device_run.sh build --before BENCH copies
# the vqx_gpu_bench binary BENCH (built from an earlier commit) into
# .gpu_carry/before; the device run then times it and this build's in
# alternating pairs (4K and 1080p, vmaf_v0.6.1, or what VQX_PAIRS_ARGS
# asks), the figure a refactor must not lower.
# Optional profiler: scripts/gpu_device_run.sh build --perf stages this
# machine's perf (Debian's linux-perf) with its libraries and the vqx command
# with its symbols, packed (.gpu_carry/perf.tar.xz, about 9 MB).
# Optional reference: scripts/gpu_device_run.sh build --ref-cpu VMAF
# --ref-cuda VMAF copies libvmaf's `vmaf` command (a CPU build, and a build
# with enable_cuda; both built outside the repository) into .gpu_carry/ref,
# with the shared libraries they need; the speed table then has their rows
# beside vqx's.
#
# The carry is built for sm_90 alone (the H200) in build/cuda90, so that
# the tests, the vqx command and the benchmarks fit in the device tool's
# 64 MiB; the CI preset (build/cuda: sm_80 and sm_90) is left as it is.
# The whole device call is kept to about VQX_DEVICE_BUDGET seconds (480):
# the speed table starts no row after that, less what the tests took.
set -euo pipefail
cd "$(dirname "$0")/.."
mode=${1:-}
carry=.gpu_carry
build=build/cuda90
# What the device runs: the GPU and contract tests, the benchmark, the vqx
# command and the speed table's pair generator.
carry_targets=(vqx_gpu_tests vqx_gpu_first_frame vqx_gpu_fault_tests vqx_gpu_poison_test
               vqx_contract_tests vqx_gpu_bench vqx_cli vqx_synth_y4m vqx_unit_tests
               vqx_capi_cuda_test)

# stage_libs FILE...: the shared libraries the programs need beyond the
# base system, into $carry/lib (or DIR with LIBS=DIR).
stage_libs() {
  local dir=${LIBS:-$carry/lib}
  mkdir -p "$dir"
  for f in "$@"; do
    ldd "$f" 2>/dev/null | awk '/=> \//{print $3}'
  done | sort -u | grep -Ev '/(libc|libm|libdl|libpthread|librt|libstdc\+\+|libgcc_s|ld-linux)[.-]' |
    xargs -r -I{} cp -L {} "$dir/" || true
}

# stage_perf: perf, its libraries (their own folder: they are not the
# programs'), and vqx unstripped, packed into $carry/perf.tar.xz.
stage_perf() {
  local perf
  perf=$(command -v perf) || {
    echo "$0 build --perf: no perf here (apt-get install linux-perf)" >&2
    exit 2
  }
  rm -rf "$carry/perf" "$carry/perf.tar.xz"
  mkdir -p "$carry/perf"
  cp -L "$perf" "$carry/perf/perf"
  cp "$build/vqx" "$carry/perf/vqx"
  LIBS=$carry/perf/lib stage_libs "$perf"
  tar -C "$carry" -cf - perf | xz -T0 -6 >"$carry/perf.tar.xz"
  rm -rf "$carry/perf"
  du -sh "$carry/perf.tar.xz"
}

# profile OUT VQX_ARGS...: where the vqx command's CPU time goes, by
# function (perf record with the cpu-clock event; perf report's text).
profile() {
  local out=$1
  shift
  [ -f "$carry/perf.tar.xz" ] || { echo "$0 profile: no perf in the carry (build --perf)" >&2; exit 2; }
  tar -C /tmp -xJf "$carry/perf.tar.xz"
  local perf=(env "LD_LIBRARY_PATH=/tmp/perf/lib:$LD_LIBRARY_PATH" /tmp/perf/perf)
  "${perf[@]}" record -q -F 4000 -e cpu-clock -o /tmp/vqx_perf.data /tmp/perf/vqx "$@" >/dev/null
  "${perf[@]}" report -i /tmp/vqx_perf.data --no-children --percent-limit 0.5 --stdio 2>/dev/null |
    grep -E '^ +[0-9]' | tee "$out/profile.txt"
}

stage_build() {
  local nvcc
  source scripts/compiler_cache.sh
  nvcc=$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)
  # The release build's settings otherwise (FFmpeg's headers too: its
  # libraries are loaded only when a file needs them, and the device reads
  # Y4M alone), so that a compiler cache gives every C++ object but the
  # family definitions naming twins (scripts/test.sh).
  cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DVQX_WERROR=ON -DVQX_GPU=cuda \
    -DCMAKE_CUDA_COMPILER="$nvcc" -DCMAKE_CUDA_ARCHITECTURES=90 -DVQX_BUILD_BENCH=ON \
    -DVQX_LIBVMAF_COMPAT=ON >/dev/null
  cmake --build "$build" -j "$(nproc)" --target "${carry_targets[@]}"
  rm -rf "$carry/build" "$carry/lib" "$carry/ref" "$carry/programs.tar.xz"
  mkdir -p "$carry/build"
  # ctest's files and the test, benchmark and CLI binaries, at their paths.
  (cd "$build" && find . \( -name CTestTestfile.cmake -o -name '*_include.cmake' \
      -o -name '*_tests.cmake' -o -name vqx_gpu_tests \
      -o -name vqx_gpu_first_frame -o -name vqx_gpu_fault_tests -o -name vqx_gpu_poison_test \
      -o -name vqx_contract_tests -o -name vqx_unit_tests -o -name vqx_capi_cuda_test \
      -o -name vqx_gpu_bench -o -path ./vqx -o -name vqx_synth_y4m \) \
      -type f -print0 | xargs -0 -I{} cp --parents {} "$OLDPWD/$carry/build/")
  find "$carry/build" -type f -perm -u+x -exec strip --strip-unneeded {} +
  local programs
  mapfile -t programs < <(find "$carry/build" -type f -perm -u+x)
  stage_libs "${programs[@]}"
  # Ignored by git: in a worktree .git is a file, so ask git where the file is.
  local exclude
  exclude=$(git rev-parse --git-path info/exclude)
  grep -qx "/$carry/" "$exclude" 2>/dev/null || echo "/$carry/" >>"$exclude"
  du -sh "$carry"
}

stage_ref() {  # NAME PATH: a reference `vmaf` command, as $carry/ref/NAME
  mkdir -p "$carry/ref"
  cp -L "$2" "$carry/ref/$1"
  strip --strip-unneeded "$carry/ref/$1"
  stage_libs "$carry/ref/$1"
  du -sh "$carry/ref/$1" "$carry"
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

# Over VQX_CARRY_PACK_MIB (56) MiB, the programs (build/, ref/, lib/) go
# into one xz archive: the binaries each hold the whole library, so a solid
# archive is a tenth of their size (60 MB in 6 MB, 2026-12-01, when each
# twin had a first-frame binary of its own; one binary takes them all since
# issue 13). The device unpacks it (xz there) before anything runs.
pack_if_large() {
  local mib
  mib=$(($(du -sb "$carry" | cut -f1) / 1048576))
  if [ "$mib" -le "${VQX_CARRY_PACK_MIB:-56}" ]; then
    echo "carry: $mib MiB, as files"
    return
  fi
  local parts=()
  for d in build ref lib; do [ ! -d "$carry/$d" ] || parts+=("$d"); done
  tar -C "$carry" -cf - "${parts[@]}" | xz -T0 -6 >"$carry/programs.tar.xz"
  (cd "$carry" && rm -rf "${parts[@]}")
  echo "carry: $mib MiB as files, $(($(du -sb "$carry" | cut -f1) / 1048576)) MiB with the programs packed"
}

# The carried build at its path, and its libraries.
device_setup() {
  if [ -f "$carry/programs.tar.xz" ] && [ ! -d "$carry/build" ]; then
    command -v xz >/dev/null || { echo "$0: the carry is packed (xz) and this machine has no xz" >&2; exit 2; }
    xz -dc "$carry/programs.tar.xz" | tar -C "$carry" -xf -
  fi
  mkdir -p "$(dirname "$build")"
  ln -sfn "$PWD/$carry/build" "$build"
  export LD_LIBRARY_PATH="$PWD/$carry/lib:${LD_LIBRARY_PATH:-}"
}

device() {
  local out=${OUT:-/tmp/vqx_gpu_out} started=$SECONDS
  mkdir -p "$out"
  device_setup
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
  simd "$out"
  timeout "${VQX_CTEST_LIMIT:-420}" ctest --test-dir "$build" -L "gpu|contract" -j 4 \
    ${VQX_CTEST_REGEX:+-R "$VQX_CTEST_REGEX"} \
    --timeout 300 --output-on-failure >"$out/ctest.log" 2>&1
  local rc=$?
  grep -E "tests passed|tests failed|Total Test time|\*\*\*|Failed|SKIPPED" "$out/ctest.log" | tail -25
  [ "${VQX_GPU_BENCH:-1}" = 0 ] || bench "$out"
  [ ! -x "$carry/before/vqx_gpu_bench" ] || bench_pairs "$out"
  [ "${VQX_TWINS:-0}" = 0 ] || twins "$out"
  [ "${VQX_BATCH:-0}" = 0 ] || gpu_batch "$out"
  # What is left of the call's budget, less the length of the last row.
  local left=$((${VQX_DEVICE_BUDGET:-480} - (SECONDS - started) - 30))
  [ "${VQX_SPEED:-1}" = 0 ] || speed "$out" $((left > 60 ? left : 60)) ${VQX_SPEED_ARGS:---cpu-bits 8}
  return $rc
}

# simd OUT: the CPU kernels' every-target tests (tests/unit/simd_targets.hpp)
# on the device machine's CPU, which may run targets this machine cannot
# (AVX-512); which ran is in OUT/simd.log.
simd() {
  local out=$1
  grep -o -w -E 'avx512(f|bw|cd|dq|vl)' /proc/cpuinfo | sort -u | tr '\n' ' ' |
    sed 's/^/cpu avx-512: /' | tee -a "$out/device.txt"
  echo | tee -a "$out/device.txt"
  timeout 120 "$build/tests/vqx_unit_tests" \
    --gtest_filter='*EveryTarget*:*Simd*:FloatingPointRules.*' >"$out/simd.log" 2>&1
  echo "simd tests: exit $? ($(grep -c '^\[       OK \]' "$out/simd.log") passed)"
  grep -m1 '^\[ simd' "$out/simd.log"
}

# gpu_batch OUT: bench/batch.sh on the GPU, 4 clips against one 4K
# reference (synthetic, in /dev/shm) in one run against 4 runs; the table
# in OUT/batch.txt.
gpu_batch() {
  local out=$1
  timeout 240 bash bench/batch.sh --build "$build" --backend cuda --threads 8 --clips 4 --runs 3 \
    --synthetic "${VQX_BATCH_SIZE:-3840x2160:120}" 2>&1 | tee "$out/batch.txt"
}

# speed OUT BUDGET [ARGS...]: bench/speed.sh with the carried programs and
# references; the table in OUT/speed.md (and speed.txt), the raw times in
# OUT/speed.md.runs, its progress in OUT/speed.log.
speed() {
  local out=$1 budget=$2 refs=()
  shift 2
  [ ! -x "$carry/ref/vmaf_cpu" ] || refs+=(--ref-cpu "$carry/ref/vmaf_cpu")
  [ ! -x "$carry/ref/vmaf_cuda" ] || refs+=(--ref-cuda "$carry/ref/vmaf_cuda")
  bash bench/speed.sh --build "$build" --budget "$budget" "${refs[@]}" "$@" \
    --out "$out/speed.md" 2>"$out/speed.log" | tee "$out/speed.txt"
}

bench() {
  local out=$1 b="timeout 90 $build/bench/gpu/vqx_gpu_bench"
  {
    $b --backend cuda --threads 8 --frames 1000 --size 3840x2160 --label vmaf_v0.6.1
    $b --backend cuda --threads 8 --frames 2000 --size 1920x1080 --size 576x324 --label vmaf_v0.6.1
    for f in vif adm motion "motion=motion_force_zero=true"; do
      $b --backend cuda --threads 8 --frames 500 --size 3840x2160 --feature "$f" --label "$f"
    done
    # Issue 13's target: float_ssim and float_ms_ssim together, 3000 fps at 1080p.
    $b --backend cuda --threads 8 --frames 2000 --size 1920x1080 --size 3840x2160 \
      --feature float_ssim --feature float_ms_ssim --label "float_ssim+float_ms_ssim"
    for f in float_ssim float_ms_ssim; do
      $b --backend cuda --threads 8 --frames 2000 --size 1920x1080 --feature "$f" --label "$f"
    done
    # The SpEED twins: vmaf_v1.0.16_3d0h's speed_chroma (its host share runs
    # on the submitting thread), speed_temporal; cambi as the vmaf_v1.0.16
    # models ask for it, and with its defaults; then the whole model, every
    # feature on the GPU (issue 13's 2000 fps at 1080p, 800 at 4K).
    $b --backend cuda --threads 8 --frames 2000 --size 1920x1080 --size 3840x2160 \
      --feature "speed_chroma=speed_kernelscale=1.0:speed_nn_floor=0.1:speed_sigma_nn=0.19:speed_weight_var_mode=5:speed_max_val=45.0" \
      --label speed_chroma_3d0h
    $b --backend cuda --threads 8 --frames 1000 --size 1920x1080 --size 3840x2160 \
      --feature speed_temporal --label speed_temporal
    $b --backend cuda --threads 8 --frames 1000 --size 1920x1080 --size 3840x2160 \
      --feature "cambi=cambi_high_res_speedup=1080:cambi_vis_lum_threshold=0.06:cambi_max_val=17" \
      --label "cambi (vmaf_v1.0.16)"
    $b --backend cuda --threads 8 --frames 300 --size 3840x2160 --feature cambi --label cambi
    $b --backend cuda --threads 8 --frames 1000 --size 1920x1080 --size 3840x2160 \
      --model version=vmaf_v1.0.16_3d0h --label vmaf_v1.0.16_3d0h
    # Issue 13's ssimulacra2 target: 500 fps at 1080p.
    $b --backend cuda --threads 8 --frames 1000 --size 1920x1080 --size 3840x2160 \
      --feature ssimulacra2 --label ssimulacra2
    # Issue 14's target: vmaf_float_v0.6.1 (float_adm, float_vif,
    # float_motion) at 3840x2160, 1000 fps; and each twin alone.
    $b --backend cuda --threads 8 --frames 1000 --size 1920x1080 --size 3840x2160 \
      --model version=vmaf_float_v0.6.1 --label vmaf_float_v0.6.1
    for f in float_vif float_adm float_motion; do
      $b --backend cuda --threads 8 --frames 500 --size 3840x2160 --feature "$f" --label "$f"
    done
    # Integer SSIM (issue 14): its frame's sum is one chain on the host.
    $b --backend cuda --threads 8 --frames 1000 --size 1920x1080 --size 3840x2160 \
      --feature ssim --label ssim
    for f in float_ansnr psnr_hvs ciede; do
      $b --backend cuda --threads 8 --frames 1000 --size 1920x1080 --size 3840x2160 \
        --feature "$f" --label "$f"
    done
    # Issue 14's target: all 17 libvmaf features and ssimulacra2 in one
    # context at 1920x1080, 1000 fps.
    local all=() f
    for f in adm vif motion psnr float_psnr float_moment float_ssim float_ms_ssim speed_chroma \
      speed_temporal cambi float_adm float_vif float_motion float_ansnr psnr_hvs ciede ssimulacra2; do
      all+=(--feature "$f")
    done
    $b --backend cuda --threads 8 --frames 500 --size 1920x1080 --size 3840x2160 "${all[@]}" \
      --label "17 libvmaf features + ssimulacra2"
    $b --backend cpu --threads 16 --frames 40 --size 3840x2160 --label vmaf_v0.6.1
    $b --backend cpu --threads 16 --frames 150 --size 1920x1080 --size 576x324 --label vmaf_v0.6.1
  } 2>&1 | tee "$out/bench.txt"
}

# The fps and wall ms a frame of a vqx_gpu_bench line.
fps_and_ms() {
  awk '/ fps / { m = ""; for (i = 2; i <= NF; ++i) { if ($i == "fps") f = $(i - 1)
                 if ($i == "ms/frame" && m == "") m = $(i - 1) }; print f, m }'
}

# twins OUT: each twin alone at 3840x2160 8-bit through the API, on the GPU
# and on the device machine's CPU with 16 threads (issue 13: each twin's
# time beside the CPU's on the same machine); a Markdown table in
# OUT/twins.md. VQX_TWINS=1 adds it to the device run.
twins() {
  local out=$1 b="timeout 120 $build/bench/gpu/vqx_gpu_bench" f gpu cpu
  {
    echo "| twin (3840x2160 8-bit) | GPU fps | GPU ms/frame | CPU 16 threads fps | CPU ms/frame |"
    echo "|---|---:|---:|---:|---:|"
    for f in ${VQX_TWIN_FEATURES:-vif adm motion psnr float_psnr float_moment float_ssim float_ms_ssim \
             speed_chroma speed_temporal cambi}; do
      gpu=$($b --backend cuda --threads 8 --frames 300 --size 3840x2160 --feature "$f" --label "$f" 2>&1 |
        fps_and_ms)
      cpu=$($b --backend cpu --threads 16 --frames 16 --size 3840x2160 --feature "$f" --label "$f" 2>&1 |
        fps_and_ms)
      echo "| $f | ${gpu% *} | ${gpu#* } | ${cpu% *} | ${cpu#* } |"
    done
  } | tee "$out/twins.md"
}

# Before and after in alternating pairs, three of each, so that a drift of
# the machine (clocks, other tenants) falls on both alike.
# VQX_PAIRS_ARGS: what the pairs score instead of vmaf_v0.6.1 (vqx_gpu_bench
# arguments, e.g. "--model version=vmaf_float_v0.6.1").
bench_pairs() {
  local out=$1 i which b what
  read -r -a what <<<"${VQX_PAIRS_ARGS:-}"
  for i in 1 2 3; do
    for which in before after; do
      b=$build/bench/gpu/vqx_gpu_bench
      [ "$which" = after ] || b=$carry/before/vqx_gpu_bench
      timeout 90 "$b" --backend cuda --threads 8 --frames 1000 --size 3840x2160 "${what[@]}" \
        --label "$which, pair $i" 2>&1
      timeout 90 "$b" --backend cuda --threads 8 --frames 2000 --size 1920x1080 "${what[@]}" \
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
        --ref-cpu) stage_ref vmaf_cpu "$2"; shift 2 ;;
        --ref-cuda) stage_ref vmaf_cuda "$2"; shift 2 ;;
        --perf) stage_perf; shift ;;
        *) echo "$0 build: unknown option $1" >&2; exit 2 ;;
      esac
    done
    pack_if_large
    ;;
  device) device ;;
  bench) device_setup && bench "${OUT:-/tmp/vqx_gpu_out}" ;;
  twins) mkdir -p "${OUT:-/tmp/vqx_gpu_out}" && device_setup && twins "${OUT:-/tmp/vqx_gpu_out}" ;;
  profile)
    shift
    mkdir -p "${OUT:-/tmp/vqx_gpu_out}"
    device_setup
    profile "${OUT:-/tmp/vqx_gpu_out}" "$@"
    ;;
  speed)
    mkdir -p "${OUT:-/tmp/vqx_gpu_out}"
    device_setup
    speed "${OUT:-/tmp/vqx_gpu_out}" "${VQX_SPEED_BUDGET:-500}" ${VQX_SPEED_ARGS:-}
    ;;
  *)
    echo "usage: $0 build [--corpus DIR N] [--before BENCH] [--ref-cpu VMAF] [--ref-cuda VMAF]" \
      "[--perf] | device | speed | bench | twins | profile VQX_ARGS..." >&2
    exit 2
    ;;
esac
