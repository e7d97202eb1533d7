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

#include "metrics/float_common/float_ops.hpp"

namespace vqx::float_adm {

inline constexpr int kRcpIndexBits = 11;   // fraction bits that select the entry
inline constexpr int kRcpResultBits = 12;  // fraction bits of the result
inline constexpr int kFloatFractionBits = 23;
inline constexpr std::uint32_t kFloatSignBit = 0x80000000U;
inline constexpr std::uint32_t kFloatFractionMask = 0x7FFFFFU;
inline constexpr std::uint32_t kFloatExponentField = 0xFFU;
inline constexpr std::uint32_t kFloatInfinityBits = 0x7F800000U;
inline constexpr std::uint32_t kFloatQuietBit = 0x400000U;
// The exponent field of 2^(-e-1) for an input exponent field e: 253 - e;
// from e = 253 on the result is below the normal range.
inline constexpr std::uint32_t kRcpExponentSum = 253U;

// The result's fraction bits for interval i (in place, q << 11): q =
// round(2^25 / D) - 4096 with D = 4097 + 2i, computed exactly in 32-bit
// integers (2^26 + D < 2^32). The table below is made of it, and the GPU
// twin computes it where the CPU looks it up: the same integers.
VQX_POINTWISE std::uint32_t rcp_fraction(std::uint32_t i) {
  constexpr std::uint32_t kOne = std::uint32_t{1} << kRcpResultBits;              // 4096
  constexpr std::uint32_t kTwice = std::uint32_t{1} << (2 * kRcpResultBits + 2);  // 2 * 2^25
  const std::uint32_t d = kOne + 2 * i + 1;  // the interval's midpoint, times 4096
  const std::uint32_t q = (kTwice + d) / (2 * d) - kOne;
  return q << (kFloatFractionBits - kRcpResultBits);
}

constexpr std::array<std::uint32_t, 1U << kRcpIndexBits> make_rcp_table() {
  std::array<std::uint32_t, 1U << kRcpIndexBits> t{};
  for (std::uint32_t i = 0; i < t.size(); ++i) t[i] = rcp_fraction(i);
  return t;
}
inline constexpr std::array<std::uint32_t, 1U << kRcpIndexBits> kRcpTable = make_rcp_table();

// The interval of x: the top 11 bits of its fraction.
VQX_POINTWISE std::uint32_t rcp_index(float x) {
  return (float_common::bits_of(x) & kFloatFractionMask) >> (kFloatFractionBits - kRcpIndexBits);
}

// Intel RCPSS, given `fraction`, rcp_fraction(rcp_index(x)) (looked up or
// computed). Written with selections rather than branches so that loops
// using it vectorise.
VQX_POINTWISE float intel_rcp(float x, std::uint32_t fraction) {
  const std::uint32_t u = float_common::bits_of(x);
  const std::uint32_t sign = u & kFloatSignBit;
  const std::uint32_t exponent = (u >> kFloatFractionBits) & kFloatExponentField;
  const std::uint32_t frac = u & kFloatFractionMask;
  // Normal inputs with a normal result (exponent 1..252).
  std::uint32_t r = sign | ((kRcpExponentSum - exponent) << kFloatFractionBits) | fraction;
  r = exponent >= kRcpExponentSum ? sign : r;  // the result would be denormal: flushed to zero
  // NaN stays (made quiet); infinity gives zero.
  r = exponent == kFloatExponentField ? (frac != 0 ? (u | kFloatQuietBit) : sign) : r;
  r = exponent == 0 ? (sign | kFloatInfinityBits) : r;  // zero or denormal: infinity
  return float_common::float_of(r);
}

// libvmaf's rcp_s(): the approximation and one Newton-Raphson step,
// xi + xi * (1 - x * xi), one rounding per operation (nothing is fused:
// cmake/FloatingPoint.cmake, --fmad=false).
VQX_POINTWISE float refined_rcp(float x, std::uint32_t fraction) {
  const float xi = intel_rcp(x, fraction);
  const float product = x * xi;
  const float error = 1.0f - product;
  const float step = xi * error;
  return xi + step;
}

// The reciprocal as each twin forms it: the CPU looks the fraction up (a
// gather its vector loops can do), the GPU computes it (no table to keep on
// the device). Both give refined_rcp() the same integer.
struct TableRcp {
  VQX_POINTWISE float operator()(float x) const { return refined_rcp(x, kRcpTable[rcp_index(x)]); }
};
struct ComputedRcp {
  VQX_POINTWISE float operator()(float x) const {
    return refined_rcp(x, rcp_fraction(rcp_index(x)));
  }
};

// The host's one-argument forms (tests, the CPU twin).
[[gnu::always_inline]] inline float intel_rcp(float x) {
  return intel_rcp(x, kRcpTable[rcp_index(x)]);
}
[[gnu::always_inline]] inline float refined_rcp(float x) { return TableRcp{}(x); }

}  // namespace vqx::float_adm
