# The floating-point rules of everything VQX compiles (the library, the CLI,
# the tests and benchmarks; C++ and the host side of CUDA sources), set here
# once. docs/architecture.md, "CPU kernels: targets, dispatch and floating
# point", says why.
#
# -ffp-contract=off (a correctness rule): no multiply and add are fused into
#   one rounding. libvmaf rounds every product and every sum on its own, and
#   the goldens match only that; an FMA would also make the AVX2 and AVX-512
#   kernels round differently from the baseline ones. GCC's default in C++
#   is -ffp-contract=fast (it fuses across statements wherever the target has
#   FMA, as the x86-64-v3/v4 kernels and any -march=native build do); Clang
#   fuses within an expression by default.
# -fno-trapping-math (a licence, not a rule; it changes no value): VQX never
#   enables floating-point traps nor reads the exception flags, so the
#   compiler may compute an operation whose result a selection then drops.
#   Without it GCC keeps loops whose libvmaf form has branches (written as
#   selections: clamps, max(0, x)) scalar. It is Clang's default already.
#
# GPU device code has its own equivalents: nvcc --fmad=false and hipcc
# -ffp-contract=off (cmake/Gpu.cmake); the HIP host side is Clang's, whose
# default traps setting is already "ignore".
set(VQX_FP_RULES -ffp-contract=off -fno-trapping-math)

string(REPLACE ";" "," _vqx_fp_rules_host "${VQX_FP_RULES}")
add_compile_options("$<$<COMPILE_LANGUAGE:CXX>:${VQX_FP_RULES}>"
                    "$<$<COMPILE_LANGUAGE:CUDA>:-Xcompiler=${_vqx_fp_rules_host}>")
