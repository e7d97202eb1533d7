// Division as libvmaf's float ADM does it on x86 (adm_tools.c, DIVS with
// ADM_OPT_RECIP_DIVISION and __SSE2__): n * rcp(d), where rcp is the SSE
// RCPSS approximation refined by one Newton step. RCPSS is not specified
// to the bit and differs between CPU makers; the golden scores come from an
// Intel CPU, so VQX emulates Intel's RCPSS in software, the same on every
// machine.
//
// Intel's RCPSS (as documented by the Bochs emulator's measured table,
// bochs/cpu/sse_rcp.cc, which this reproduces entry for entry): for a
// normal x = 2^e * 1.f, the result is 2^(-e-1) * (1 + q / 4096), where q is
// the 12-bit rounding to nearest of 4096 * (2 / m - 1) and m = 1 +
// (2i + 1) / 4096 is the midpoint of x's interval, i being the top 11 bits
// of f. Zero and denormal inputs give infinity, infinite ones zero,
// results below the normal range are flushed to zero (sign kept).
#pragma once

#include <array>
#include <cstdint>

namespace vqx::float_adm {

inline constexpr int kRcpIndexBits = 11;   // fraction bits that select the entry
inline constexpr int kRcpResultBits = 12;  // fraction bits of the result

// The result's fraction bits for each of the 2^11 intervals, in place
// (q << 11): q = round(2^25 / D) - 4096 with D = 4097 + 2i, computed
// exactly in integers.
constexpr std::array<std::uint32_t, 1U << kRcpIndexBits> make_rcp_table() {
  std::array<std::uint32_t, 1U << kRcpIndexBits> t{};
  constexpr std::int64_t kOne = std::int64_t{1} << kRcpResultBits;              // 4096
  constexpr std::int64_t kTwice = std::int64_t{1} << (2 * kRcpResultBits + 2);  // 2 * 2^25
  for (std::int64_t i = 0; i < static_cast<std::int64_t>(t.size()); ++i) {
    const std::int64_t d = kOne + 2 * i + 1;  // the interval's midpoint, times 4096
    const std::int64_t q = (kTwice + d) / (2 * d) - kOne;
    t[i] = static_cast<std::uint32_t>(q) << (23 - kRcpResultBits);
  }
  return t;
}
inline constexpr std::array<std::uint32_t, 1U << kRcpIndexBits> kRcpTable = make_rcp_table();

// Intel RCPSS. Written with selections rather than branches so that loops
// using it vectorise, and forced inline (like every helper of the kernels)
// so that the kernels' clones compile it with their own options.
[[gnu::always_inline]] inline float intel_rcp(float x) {
  const std::uint32_t u = __builtin_bit_cast(std::uint32_t, x);
  const std::uint32_t sign = u & 0x80000000U;
  const std::uint32_t exponent = (u >> 23) & 0xFFU;
  const std::uint32_t fraction = u & 0x7FFFFFU;
  // Normal inputs with a normal result (exponent 1..252).
  std::uint32_t r = sign | ((253U - exponent) << 23) | kRcpTable[fraction >> (23 - kRcpIndexBits)];
  r = exponent >= 253 ? sign : r;  // the result would be denormal: flushed to zero
  // NaN stays (made quiet); infinity gives zero.
  r = exponent == 0xFFU ? (fraction != 0 ? (u | 0x400000U) : sign) : r;
  r = exponent == 0 ? (sign | 0x7F800000U) : r;  // zero or denormal: infinity
  return __builtin_bit_cast(float, r);
}

// libvmaf's rcp_s(): the approximation and one Newton-Raphson step,
// xi + xi * (1 - x * xi), one rounding per operation (nothing is fused:
// cmake/FloatingPoint.cmake).
[[gnu::always_inline]] inline float refined_rcp(float x) {
  const float xi = intel_rcp(x);
  const float product = x * xi;
  const float error = 1.0f - product;
  const float step = xi * error;
  return xi + step;
}

}  // namespace vqx::float_adm
