# Sourced by scripts/test.sh and scripts/gpu_device_run.sh: compile through
# ccache when it is installed (scripts/setup.sh installs it). The builds CI
# makes compile many sources with the same flags (a per-target build
# differs from the release build only in the sources that include
# core/kernel_build.hpp, the CUDA and HIP builds only in the GPU sources and
# the family definitions that name twins: cmake/CpuTargets.cmake,
# cmake/Gpu.cmake), and paths are taken relative to the checkout, so each
# of those objects is compiled once. A cache kept from an earlier run
# (~/.cache/ccache by default) makes later runs faster still.
# CMake reads the launcher when a build folder is first configured.
if command -v ccache >/dev/null; then
  export CMAKE_CXX_COMPILER_LAUNCHER=ccache CCACHE_BASEDIR=$PWD CCACHE_NOHASHDIR=1
fi
