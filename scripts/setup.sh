#!/usr/bin/env bash
# Installs everything VQX needs to build and test on Debian 12 (bookworm).
set -euo pipefail
packages=(
  build-essential cmake ninja-build pkg-config git ccache
  dpkg-dev  # apt-get source unpacks with dpkg-source (tests/capi/ffmpeg_build.sh)
  libavformat-dev libavcodec-dev libavutil-dev libswscale-dev  # libswscale: --scale
  ffmpeg  # the scaling and alignment tests make their clips with it (tests/cli/batch_test.cpp)
  libhwy-dev nlohmann-json3-dev libcli11-dev libfmt-dev
  libgtest-dev libgmock-dev libbenchmark-dev
  clang-14 libclang-rt-14-dev  # the fuzz targets (libFuzzer), scripts/fuzz.sh
  chromium  # `vqx report`'s page opened headless (tests/report/browser_test.py)
  # The Python package (python/, docs/python.md) for Debian's /usr/bin/python3:
  # its module (pybind11, the headers), NumPy, its tests (pytest), pandas
  # (Result.to_pandas), and pip and venv to install it. Not matplotlib
  # (Result.plot): with its dependencies (SciPy, SymPy, Boost's headers) it
  # is 320 MB, so its test is skipped where it is absent.
  python3-dev pybind11-dev python3-numpy python3-pytest python3-pandas python3-pip python3-venv
  # vqx.dask (python/vqx/dask.py, docs/scale-out.md): Dask's distributed
  # scheduler and workers, for its tests (LocalCluster) and bench/dask_overhead.py.
  python3-distributed
)
# The HIP build (VQX_GPU=hip, scripts/gpu_ci.sh) needs Debian's HIP compiler
# and runtime: installed only when asked for, as they are large.
if [ "${VQX_WITH_HIP:-0}" = 1 ]; then
  packages+=(hipcc libamdhip64-dev rocm-device-libs)
fi
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if ((${#missing[@]})); then
  sudo=""
  [ "$(id -u)" -eq 0 ] || sudo="sudo"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi
echo "setup: all build dependencies are installed"
