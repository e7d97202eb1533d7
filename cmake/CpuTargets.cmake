# The x86-64 targets VQX's CPU kernels are built for (src/core/kernel_build.hpp,
# docs/architecture.md "CPU kernels: targets, dispatch and floating point").
#
# The one list of shipped targets. A normal build compiles every function
# marked VQX_CLONES once per target (GCC target_clones) and the loader picks
# the best the CPU runs. A per-target build (-DVQX_CPU_TARGET=<target>,
# scripts/simd_targets.sh) compiles those functions for that one target only,
# with the same attribute the clone gets and every other flag unchanged, so
# that its tests run that clone's code on any CPU able to execute it.
#
# `cmake -P cmake/CpuTargets.cmake` prints the list (scripts/simd_targets.sh).
set(VQX_SHIPPED_CPU_TARGETS x86-64 x86-64-v3 x86-64-v4)

if(CMAKE_SCRIPT_MODE_FILE)
  string(REPLACE ";" " " _targets "${VQX_SHIPPED_CPU_TARGETS}")
  message("${_targets}")
  return()
endif()

set(VQX_CPU_TARGET "" CACHE STRING
    "Build the CPU kernels for this one target instead of cloning them for all (tests only): x86-64, x86-64-v3 or x86-64-v4")
set_property(CACHE VQX_CPU_TARGET PROPERTY STRINGS "" ${VQX_SHIPPED_CPU_TARGETS})
if(NOT VQX_CPU_TARGET STREQUAL "" AND NOT VQX_CPU_TARGET IN_LIST VQX_SHIPPED_CPU_TARGETS)
  message(FATAL_ERROR "VQX_CPU_TARGET must be empty or one of ${VQX_SHIPPED_CPU_TARGETS} "
                      "(got '${VQX_CPU_TARGET}')")
endif()
if(NOT VQX_CPU_TARGET STREQUAL "" AND NOT CMAKE_SYSTEM_PROCESSOR MATCHES "^(x86_64|AMD64|amd64)$")
  message(FATAL_ERROR "VQX_CPU_TARGET is for x86-64 builds (this is ${CMAKE_SYSTEM_PROCESSOR})")
endif()

# The GCC attribute argument of one target: the baseline is target_clones'
# "default", the others "arch=<target>".
function(_vqx_clone_name target out)
  if(target STREQUAL "x86-64")
    set(${out} "default" PARENT_SCOPE)
  else()
    set(${out} "arch=${target}" PARENT_SCOPE)
  endif()
endfunction()

# Adds to `target` (the library) the definitions kernel_build.hpp reads, for
# its C++ sources only (nvcc would split the clone list at its commas, and no
# GPU source holds a CPU kernel):
#   VQX_KERNEL_CLONES  "default","arch=x86-64-v3",...  (a normal build)
#   VQX_KERNEL_TARGET  "arch=x86-64-v3"                 (a per-target build)
#   VQX_NO_CLONES                                       (the per-target baseline)
#   VQX_KERNEL_LEVEL   1, 3 or 4                        (a per-target build)
function(vqx_cpu_target_definitions target)
  if(VQX_CPU_TARGET STREQUAL "")
    set(_clones "")
    foreach(_t IN LISTS VQX_SHIPPED_CPU_TARGETS)
      _vqx_clone_name(${_t} _name)
      list(APPEND _clones "\"${_name}\"")
    endforeach()
    string(REPLACE ";" "," _clones "${_clones}")
    target_compile_definitions(${target} PRIVATE "$<$<COMPILE_LANGUAGE:CXX>:VQX_KERNEL_CLONES=${_clones}>")
    return()
  endif()
  if(VQX_CPU_TARGET MATCHES "-v([0-9])$")
    set(_level ${CMAKE_MATCH_1})
    _vqx_clone_name(${VQX_CPU_TARGET} _name)
    target_compile_definitions(${target} PRIVATE "$<$<COMPILE_LANGUAGE:CXX>:VQX_KERNEL_TARGET=\"${_name}\">")
  else()
    set(_level 1)
    target_compile_definitions(${target} PRIVATE $<$<COMPILE_LANGUAGE:CXX>:VQX_NO_CLONES>)
  endif()
  target_compile_definitions(${target} PRIVATE $<$<COMPILE_LANGUAGE:CXX>:VQX_KERNEL_LEVEL=${_level}>)
endfunction()
