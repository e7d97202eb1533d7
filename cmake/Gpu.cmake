# The GPU backend (docs/gpu.md). One set of sources, src/**/*.cu, compiled
# as CUDA (VQX_GPU=cuda: sm_80 and sm_90 machine code plus sm_90 PTX) or as
# HIP (VQX_GPU=hip: gfx90a, gfx1030, gfx1100). VQX_GPU=off compiles
# src/gpu/off/ instead, and nothing else changes.
if(NOT VQX_GPU MATCHES "^(off|cuda|hip)$")
  message(FATAL_ERROR "VQX_GPU must be off, cuda or hip (got '${VQX_GPU}')")
endif()

if(VQX_GPU STREQUAL "cuda")
  if(NOT DEFINED CMAKE_CUDA_ARCHITECTURES)
    set(CMAKE_CUDA_ARCHITECTURES "80-real;90")
  endif()
  enable_language(CUDA)
  find_package(CUDAToolkit REQUIRED)
  # CMake 3.25 does not know nvcc's C++20 flag (the targets' CXX_STANDARD 20
  # applies to CUDA sources too).
  if(NOT DEFINED CMAKE_CUDA20_STANDARD_COMPILE_OPTION OR CMAKE_CUDA20_STANDARD_COMPILE_OPTION STREQUAL "")
    set(CMAKE_CUDA20_STANDARD_COMPILE_OPTION "-std=c++20")
    set(CMAKE_CUDA20_EXTENSION_COMPILE_OPTION "-std=c++20")
  endif()
elseif(VQX_GPU STREQUAL "hip")
  if(NOT DEFINED CMAKE_HIP_ARCHITECTURES)
    set(CMAKE_HIP_ARCHITECTURES "gfx90a;gfx1030;gfx1100")
  endif()
  enable_language(HIP)
  find_package(hip REQUIRED CONFIG)
  set(CMAKE_HIP_STANDARD 20)
  set(CMAKE_HIP_STANDARD_REQUIRED ON)
endif()

# Adds the GPU settings to a target holding GPU sources (or using them).
function(vqx_gpu_target target sources)
  if(VQX_GPU STREQUAL "off")
    return()
  endif()
  target_compile_definitions(${target} PRIVATE VQX_HAVE_GPU=1)
  if(VQX_GPU STREQUAL "cuda")
    # --fmad=false: no multiply-add is fused, so float and double arithmetic
    # rounds as the CPU twin's does (bit-exact twins).
    target_compile_options(${target} PRIVATE $<$<COMPILE_LANGUAGE:CUDA>:--fmad=false
      -Xcompiler=-Wall,-Wextra --expt-relaxed-constexpr>)
    if(VQX_WERROR)
      target_compile_options(${target} PRIVATE $<$<COMPILE_LANGUAGE:CUDA>:-Werror=all-warnings>)
    endif()
    target_link_libraries(${target} PUBLIC CUDA::cudart_static)
  else()
    set_source_files_properties(${sources} PROPERTIES LANGUAGE HIP)
    target_compile_definitions(${target} PRIVATE VQX_GPU_HIP=1)
    # -ffp-contract=off: the same reason as CUDA's --fmad=false.
    target_compile_options(${target} PRIVATE $<$<COMPILE_LANGUAGE:HIP>:-ffp-contract=off>)
    target_link_libraries(${target} PUBLIC hip::host)
  endif()
endfunction()
