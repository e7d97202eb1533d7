#!/usr/bin/env bash
# The GPU backends in CI, on a machine without a GPU (docs/gpu.md):
#  * CUDA (when nvcc is installed): builds the library with VQX_GPU=cuda, the
#    GPU tests, the contract check and the benchmark, and runs ctest -L
#    "gpu|contract": the contract check runs, the GPU tests skip and say so;
#  * HIP (when hipcc is installed: scripts/setup.sh with VQX_WITH_HIP=1):
#    compiles every GPU source with hipcc for the AMD targets and builds the
#    GPU test binaries against them (compiled, not run: no AMD device).
# Only the GPU-related targets are built, to keep CI time down. Both builds
# take the release build's settings (FFmpeg's headers included), so that
# with the compiler cache scripts/test.sh sets up, every C++ source but the
# family definitions that name twins comes from the release build's cache.
set -euo pipefail
cd "$(dirname "$0")/.."
jobs=$(nproc)
targets=(vqx_gpu_tests vqx_gpu_first_frame vqx_gpu_fault_tests vqx_gpu_poison_test
         vqx_contract_tests vqx_contract_check_cli)
# The libvmaf drop-in's CUDA functions (libvmaf_cuda.h) and their test.
cuda_targets=(vqx_libvmaf vqx_capi_cuda_test)

nvcc=$(command -v nvcc || true)
if [ -z "$nvcc" ] && [ -x /usr/local/cuda/bin/nvcc ]; then nvcc=/usr/local/cuda/bin/nvcc; fi
if [ -n "$nvcc" ]; then
  cmake --preset cuda -DCMAKE_CUDA_COMPILER="$nvcc" -DVQX_LIBVMAF_COMPAT=ON
  cmake --build --preset cuda -j "$jobs" --target "${targets[@]}" "${cuda_targets[@]}" vqx_gpu_bench
  ctest --test-dir build/cuda -L "gpu|contract" -j "$jobs" --output-on-failure
else
  echo "gpu_ci: nvcc not found: the CUDA build is not compiled here"
fi

if command -v hipcc >/dev/null; then
  cmake -S . -B build/hip -G Ninja -DCMAKE_BUILD_TYPE=Release -DVQX_GPU=hip -DVQX_WERROR=ON
  # hipcc's clang leaves an empty directory a source and offload target in
  # the temporary directory (gpu-XXXXXX, ...): keep them in the build tree.
  rm -rf build/hip/tmp && mkdir -p build/hip/tmp
  TMPDIR="$PWD/build/hip/tmp" cmake --build build/hip -j "$jobs" --target "${targets[@]}"
  rm -rf build/hip/tmp
  ctest --test-dir build/hip -L contract -j "$jobs" --output-on-failure
else
  echo "gpu_ci: hipcc not found (scripts/setup.sh with VQX_WITH_HIP=1 installs it): HIP not compiled"
fi
