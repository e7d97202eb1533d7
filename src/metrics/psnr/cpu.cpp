// The SSE kernel as plain row loops that the compiler vectorises. Integer
// arithmetic, so the order of the additions does not matter and the result
// is libvmaf's to the bit.
#include "metrics/psnr/cpu.hpp"

#include <cassert>

namespace vqx::psnr {

namespace {

// 8-bit: a squared difference is at most 255^2, so a row of up to
// kMaxDimension samples sums within uint32 (as in libvmaf's psnr()).
static_assert(std::uint64_t{255} * 255 * kMaxDimension <= UINT32_MAX);

std::uint64_t sse_8(const Plane& a, const Plane& b) {
  const unsigned w = a.width();
  std::uint64_t total = 0;
  for (unsigned y = 0; y < a.height(); ++y) {
    const std::uint8_t* __restrict ra = a.row<std::uint8_t>(y);
    const std::uint8_t* __restrict rb = b.row<std::uint8_t>(y);
    std::uint32_t row = 0;
    for (unsigned x = 0; x < w; ++x) {
      const int e = int{ra[x]} - int{rb[x]};
      row += static_cast<std::uint32_t>(e * e);
    }
    total += row;
  }
  return total;
}

// 9 to 12 bits: a difference fits int16, so the compiler can square it and
// add pairs of squares in 16-bit lanes (pmaddwd on x86). The 32-bit sums go
// into the 64-bit total every `run` samples, before they could overflow
// (at 12 bits, every 256 samples; the bound needs samples below 2^bpc).
constexpr unsigned kMaxNarrowBpc = 12;

std::uint64_t sse_16_narrow(const Plane& a, const Plane& b, unsigned bpc) {
  const std::uint32_t max = (1U << bpc) - 1;
  const unsigned run = UINT32_MAX / (max * max);
  const unsigned w = a.width();
  std::uint64_t total = 0;
  for (unsigned y = 0; y < a.height(); ++y) {
    const std::uint16_t* __restrict ra = a.row<std::uint16_t>(y);
    const std::uint16_t* __restrict rb = b.row<std::uint16_t>(y);
    for (unsigned x0 = 0; x0 < w; x0 += run) {
      const unsigned end = w - x0 < run ? w : x0 + run;
      std::uint32_t sum = 0;
      for (unsigned x = x0; x < end; ++x) {
        const auto e = static_cast<std::int16_t>(ra[x] - rb[x]);
        sum += static_cast<std::uint32_t>(e * e);
      }
      total += sum;
    }
  }
  return total;
}

// Any depth up to 16 bits: |a - b| <= 65535, whose square still fits uint32.
// The difference is taken modulo 2^32; its square modulo 2^32 is then the
// exact square, whatever the sign.
std::uint64_t sse_16_wide(const Plane& a, const Plane& b) {
  const unsigned w = a.width();
  std::uint64_t total = 0;
  for (unsigned y = 0; y < a.height(); ++y) {
    const std::uint16_t* __restrict ra = a.row<std::uint16_t>(y);
    const std::uint16_t* __restrict rb = b.row<std::uint16_t>(y);
    std::uint64_t row = 0;
    for (unsigned x = 0; x < w; ++x) {
      const std::uint32_t e = std::uint32_t{ra[x]} - std::uint32_t{rb[x]};
      row += static_cast<std::uint64_t>(e * e);
    }
    total += row;
  }
  return total;
}

}  // namespace

std::uint64_t plane_sse(const Plane& a, const Plane& b, unsigned bpc) {
  assert(a.width() == b.width() && a.height() == b.height());
  assert(a.bytes_per_sample() == b.bytes_per_sample());
  assert((bpc == 8) == (a.bytes_per_sample() == 1));
  if (bpc == 8) {
    return sse_8(a, b);
  }
  return bpc <= kMaxNarrowBpc ? sse_16_narrow(a, b, bpc) : sse_16_wide(a, b);
}

}  // namespace vqx::psnr
