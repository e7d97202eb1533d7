# The GPU backend (docs/gpu.md). One set of sources, src/**/*.cu, compiled
# as CUDA (VQX_GPU=cuda: sm_80 and sm_90 machine code plus sm_90 PTX) or as
# HIP by hipcc (VQX_GPU=hip: gfx90a, gfx1030, gfx1036, gfx1100;
# VQX_HIP_ARCHITECTURES overrides). VQX_GPU=off compiles src/gpu/off/ instead, and nothing else
# changes.
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
  # HIP sources are compiled by hipcc through custom commands rather than
  # CMake's HIP language, which (CMake 3.25) cannot find Debian's HIP
  # packaging. A target needs its ROCm device library (oclc_isa_version_*.bc):
  # Debian 12's rocm-device-libs (5.2) has gfx1036's but no gfx1100's; a
  # target whose library is missing is left out, with a warning.
  find_program(VQX_HIPCC hipcc REQUIRED)
  find_library(VQX_AMDHIP64 amdhip64 REQUIRED)
  if(NOT DEFINED VQX_HIP_ARCHITECTURES)
    set(VQX_HIP_ARCHITECTURES gfx90a gfx1030)
    foreach(_arch IN ITEMS gfx1036 gfx1100)
      string(REPLACE "gfx" "" _isa ${_arch})
      file(GLOB _library /usr/lib/x86_64-linux-gnu/amdgcn/bitcode/oclc_isa_version_${_isa}.bc
                         /opt/rocm*/amdgcn/bitcode/oclc_isa_version_${_isa}.bc
                         /usr/lib/llvm-*/lib/clang/*/lib/amdgcn/bitcode/oclc_isa_version_${_isa}.bc)
      if(_library)
        list(APPEND VQX_HIP_ARCHITECTURES ${_arch})
      else()
        message(WARNING "VQX_GPU=hip: no ROCm device library for ${_arch} here; left out")
      endif()
    endforeach()
    message(STATUS "VQX_GPU=hip: building for ${VQX_HIP_ARCHITECTURES}")
  endif()
endif()

# Adds the GPU settings to a target holding GPU sources (or using them).
function(vqx_gpu_target target sources)
  if(VQX_GPU STREQUAL "off")
    return()
  endif()
  target_compile_definitions(${target} PRIVATE VQX_HAVE_GPU=1)
  if(VQX_GPU STREQUAL "cuda")
    # --fmad=false: no multiply-add is fused, so float and double arithmetic
    # rounds as the CPU twin's does (bit-exact twins). nvcc's defaults made
    # explicit, as the SSIM twins rely on them (docs/gpu.md): IEEE float
    # division and square root, correctly rounded, and denormals kept.
    target_compile_options(${target} PRIVATE $<$<COMPILE_LANGUAGE:CUDA>:--fmad=false
      --prec-div=true --prec-sqrt=true --ftz=false
      -Xcompiler=-Wall,-Wextra --expt-relaxed-constexpr>)
    if(VQX_WERROR)
      target_compile_options(${target} PRIVATE $<$<COMPILE_LANGUAGE:CUDA>:-Werror=all-warnings>)
    endif()
    target_link_libraries(${target} PUBLIC CUDA::cudart_static)
  else()
    target_compile_definitions(${target} PRIVATE VQX_GPU_HIP=1)
    # The library's floating-point rules (cmake/FloatingPoint.cmake), for the
    # device code as for the host code: -ffp-contract=off for the same reason
    # as CUDA's --fmad=false; clang's HIP defaults made explicit, as for
    # CUDA: float division and square root correctly rounded, denormals kept.
    set(_flags -std=c++20 -x hip -O3 -fPIC ${VQX_FP_RULES} -fhip-fp32-correctly-rounded-divide-sqrt
               -fno-gpu-flush-denormals-to-zero -Wall -Wextra -DVQX_GPU_HIP=1
               -DVQX_HAVE_GPU=1 -I${CMAKE_SOURCE_DIR}/include -I${CMAKE_SOURCE_DIR}/src)
    if(VQX_WERROR)
      list(APPEND _flags -Werror)
    endif()
    foreach(_arch IN LISTS VQX_HIP_ARCHITECTURES)
      list(APPEND _flags --offload-arch=${_arch})
    endforeach()
    set(_objects "")
    foreach(_src IN LISTS sources)
      file(RELATIVE_PATH _rel ${CMAKE_SOURCE_DIR} ${_src})
      set(_obj ${CMAKE_CURRENT_BINARY_DIR}/hip/${_rel}.o)
      get_filename_component(_dir ${_obj} DIRECTORY)
      add_custom_command(OUTPUT ${_obj}
        COMMAND ${CMAKE_COMMAND} -E make_directory ${_dir}
        COMMAND ${VQX_HIPCC} ${_flags} -MD -MF ${_obj}.d -c ${_src} -o ${_obj}
        DEPENDS ${_src} DEPFILE ${_obj}.d
        COMMENT "hipcc ${_rel}" VERBATIM)
      list(APPEND _objects ${_obj})
    endforeach()
    set_source_files_properties(${_objects} PROPERTIES EXTERNAL_OBJECT TRUE GENERATED TRUE)
    target_sources(${target} PRIVATE ${_objects})
    target_link_libraries(${target} PUBLIC ${VQX_AMDHIP64})
  endif()
endfunction()
