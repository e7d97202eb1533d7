// Integer VIF's row kernels (simd.cpp) once more, for Highway's AVX3 target
// with MulPairsAdd as vpdpwssd: for CPUs with AVX512_VNNI to which Highway
// does not grant AVX3_DL, because they lack some other member of its group
// (VAES, VPCLMULQDQ, GFNI, ...), as virtual machines may report them (the
// device machines' Xeons: docs/performance.md). simd.cpp's dispatch calls
// these only where the CPU has AVX512_VNNI. The same bits as every other
// target (tests/unit/vif_simd_test.cpp runs them).
#define VQX_VIF_AVX3_VNNI 1
// Only AVX3 is wanted here; Highway compiles its static (baseline) target
// too, which nothing calls.
#define HWY_DISABLED_TARGETS (HWY_AVX3_DL | HWY_AVX2 | HWY_SSE4 | HWY_SSSE3)
#include "metrics/vif/simd.cpp"  // NOLINT(bugprone-suspicious-include)
