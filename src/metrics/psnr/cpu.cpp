// The SSE kernel, written with Highway's portable vectors and compiled for
// each of its targets (HWY_DYNAMIC_DISPATCH picks one per plane). Integer
// arithmetic, so the order of the additions does not matter and every
// target gives libvmaf's result to the bit; the unit tests run each target
// the CPU has against a brute-force sum (tests/unit/psnr_test.cpp).
//
// Up to 12 bits a difference fits int16 and its square plus its
// neighbour's fits int32: each vector of differences is squared and summed
// in pairs into 32-bit lanes (pmaddwd on x86), which go into 64-bit lanes
// before they could overflow. Deeper samples square their differences in
// 32-bit lanes (|a - b| <= 65535, so the square fits uint32) and add them
// into 64-bit lanes at once.
#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "metrics/psnr/cpu.cpp"
#include <hwy/foreach_target.h>  // IWYU pragma: keep
// (foreach_target.h includes this file once per target, then once more.)
#include <hwy/highway.h>

#include <cassert>
#include <cstddef>
#include <cstdint>

#include "metrics/psnr/cpu.hpp"

#ifndef VQX_PSNR_KERNEL_BOUNDS
#define VQX_PSNR_KERNEL_BOUNDS
namespace vqx::psnr::detail {
// The deepest samples whose differences fit int16 (the pairwise path).
constexpr unsigned kMaxPairwiseBpc = 12;
}  // namespace vqx::psnr::detail
#endif

HWY_BEFORE_NAMESPACE();
namespace vqx::psnr::HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

using D16 = hn::ScalableTag<std::int16_t>;
using D32 = hn::Repartition<std::int32_t, D16>;
using DU64 = hn::Repartition<std::uint64_t, D16>;

// acc64 += the lanes of `u`, widened. (The scalar target's vectors have one
// lane, which has no halves.)
template <typename V32>
HWY_INLINE hn::Vec<DU64> AddWidened(hn::Vec<DU64> acc64, V32 u) {
  const DU64 d64;
#if HWY_TARGET == HWY_SCALAR
  return hn::Add(acc64, hn::PromoteTo(d64, u));
#else
  const hn::Half<hn::DFromV<V32> > half;
  acc64 = hn::Add(acc64, hn::PromoteTo(d64, hn::LowerHalf(half, u)));
  return hn::Add(acc64, hn::PromoteTo(d64, hn::UpperHalf(half, u)));
#endif
}

// The lanes of D16 from `p` as int16: 8-bit samples widened, samples of up
// to 15 bits reinterpreted.
template <typename Sample>
HWY_INLINE hn::Vec<D16> LoadInt16(const Sample* HWY_RESTRICT p) {
  const D16 d16;
  const hn::Rebind<Sample, D16> ds;
  if constexpr (sizeof(Sample) == 1) {
    return hn::BitCast(d16, hn::PromoteTo(hn::RebindToUnsigned<D16>(), hn::LoadU(ds, p)));
  } else {
    return hn::BitCast(d16, hn::LoadU(ds, p));
  }
}

// Samples of one plane, `stride` in samples.
template <typename Sample>
struct Rows {
  const Sample* data;
  std::ptrdiff_t stride;
  [[nodiscard]] const Sample* row(unsigned y) const { return data + std::ptrdiff_t{y} * stride; }
};

// Up to 12 bits: pairs of squares in int32 lanes, `flush` vectors at a time
// (each lane then holds at most 2 * flush * max^2 <= INT32_MAX).
template <typename Sample>
std::uint64_t PairwiseSse(Rows<Sample> a, Rows<Sample> b, unsigned w, unsigned h, unsigned bpc) {
  const D16 d16;
  const D32 d32;
  const DU64 d64;
  const unsigned n = static_cast<unsigned>(hn::Lanes(d16));
  const std::int64_t max = (std::int64_t{1} << bpc) - 1;
  const auto flush = static_cast<unsigned>(INT32_MAX / (2 * max * max));
  auto acc64 = hn::Zero(d64);
  std::uint64_t tail = 0;
  for (unsigned y = 0; y < h; ++y) {
    const Sample* ra = a.row(y);
    const Sample* rb = b.row(y);
    unsigned x = 0;
    while (x + n <= w) {
      auto sum0 = hn::Zero(d32);
      auto sum1 = hn::Zero(d32);
      for (unsigned v = 0; v < flush && x + n <= w; ++v, x += n) {
        const auto e = hn::Sub(LoadInt16(ra + x), LoadInt16(rb + x));
        sum0 = hn::ReorderWidenMulAccumulate(d32, e, e, sum0, sum1);
      }
      const hn::Repartition<std::uint32_t, D16> du32;
      acc64 = AddWidened(AddWidened(acc64, hn::BitCast(du32, sum0)), hn::BitCast(du32, sum1));
    }
    for (; x < w; ++x) {
      const std::int64_t e = std::int64_t{ra[x]} - std::int64_t{rb[x]};
      tail += static_cast<std::uint64_t>(e * e);
    }
  }
  return hn::GetLane(hn::SumOfLanes(d64, acc64)) + tail;
}

// Any depth up to 16 bits: the difference modulo 2^32 squared modulo 2^32
// is the exact square (below 2^32), whatever the sign.
std::uint64_t WideSse(Rows<std::uint16_t> a, Rows<std::uint16_t> b, unsigned w, unsigned h) {
  const hn::Repartition<std::uint32_t, D16> du32;
  const hn::Rebind<std::uint16_t, decltype(du32)> ds;
  const DU64 d64;
  const unsigned n = static_cast<unsigned>(hn::Lanes(du32));
  auto acc64 = hn::Zero(d64);
  std::uint64_t tail = 0;
  for (unsigned y = 0; y < h; ++y) {
    const std::uint16_t* ra = a.row(y);
    const std::uint16_t* rb = b.row(y);
    unsigned x = 0;
    for (; x + n <= w; x += n) {
      const auto e = hn::Sub(hn::PromoteTo(du32, hn::LoadU(ds, ra + x)),
                             hn::PromoteTo(du32, hn::LoadU(ds, rb + x)));
      const auto sq = hn::Mul(e, e);
      acc64 = AddWidened(acc64, sq);
    }
    for (; x < w; ++x) {
      const std::int64_t e = std::int64_t{ra[x]} - std::int64_t{rb[x]};
      tail += static_cast<std::uint64_t>(e * e);
    }
  }
  return hn::GetLane(hn::SumOfLanes(d64, acc64)) + tail;
}

std::uint64_t Sse8(const std::uint8_t* a, std::ptrdiff_t sa, const std::uint8_t* b,
                   std::ptrdiff_t sb, unsigned w, unsigned h) {
  return PairwiseSse(Rows<std::uint8_t>{a, sa}, Rows<std::uint8_t>{b, sb}, w, h, 8);
}

std::uint64_t Sse16(const std::uint16_t* a, std::ptrdiff_t sa, const std::uint16_t* b,
                    std::ptrdiff_t sb, unsigned w, unsigned h, unsigned bpc) {
  const Rows<std::uint16_t> ra{a, sa};
  const Rows<std::uint16_t> rb{b, sb};
  return bpc <= detail::kMaxPairwiseBpc ? PairwiseSse(ra, rb, w, h, bpc) : WideSse(ra, rb, w, h);
}

}  // namespace vqx::psnr::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace vqx::psnr {

HWY_EXPORT(Sse8);
HWY_EXPORT(Sse16);

std::uint64_t plane_sse(const Plane& a, const Plane& b, unsigned bpc) {
  assert(a.width() == b.width() && a.height() == b.height());
  assert(a.bytes_per_sample() == b.bytes_per_sample());
  assert((bpc == 8) == (a.bytes_per_sample() == 1));
  const auto stride = [](const Plane& p) {
    return static_cast<std::ptrdiff_t>(p.stride_bytes() / p.bytes_per_sample());
  };
  if (bpc == 8) {
    return HWY_DYNAMIC_DISPATCH(Sse8)(a.row<std::uint8_t>(0), stride(a), b.row<std::uint8_t>(0),
                                      stride(b), a.width(), a.height());
  }
  return HWY_DYNAMIC_DISPATCH(Sse16)(a.row<std::uint16_t>(0), stride(a), b.row<std::uint16_t>(0),
                                     stride(b), a.width(), a.height(), bpc);
}

}  // namespace vqx::psnr
#endif
