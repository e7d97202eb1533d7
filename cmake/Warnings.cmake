function(vqx_set_warnings target)
  # C++ sources only: GPU sources (CUDA, HIP) get theirs in cmake/Gpu.cmake.
  target_compile_options(${target} PRIVATE $<$<COMPILE_LANGUAGE:CXX>:-Wall -Wextra -Wpedantic
    -Wshadow -Wconversion -Wno-sign-conversion>)
  if(CMAKE_CXX_COMPILER_ID STREQUAL "GNU")
    # GCC 12 reports std::string concatenation at -O3 as overlapping memcpy
    # (GCC bug 105329, a false positive in libstdc++'s inlined code).
    target_compile_options(${target} PRIVATE $<$<COMPILE_LANGUAGE:CXX>:-Wno-restrict>)
  endif()
  if(VQX_WERROR)
    target_compile_options(${target} PRIVATE $<$<COMPILE_LANGUAGE:CXX>:-Werror>)
  endif()
endfunction()
