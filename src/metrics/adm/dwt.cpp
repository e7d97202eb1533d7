#include "metrics/adm/dwt.hpp"

#include "metrics/adm/params.hpp"

namespace vqx::adm {

namespace {

constexpr std::int32_t L0 = kDb2Lo[0], L1 = kDb2Lo[1], L2 = kDb2Lo[2], L3 = kDb2Lo[3];
constexpr std::int32_t H0 = kDb2Hi[0], H1 = kDb2Hi[1], H2 = kDb2Hi[2], H3 = kDb2Hi[3];

// Extends a vertically filtered row by the boundary rule so that the
// horizontal pass can read columns -1 .. w + 1 without tests.
template <typename T>
void pad_row(T* r, int w) {
  r[-1] = r[1];
  r[w] = r[w - 1];
  r[w + 1] = r[w - 2];
}

// Vertical pass of scale 0. libvmaf centres the samples by subtracting
// (sum of low-pass taps) * 2^(bpc-1) and rounds with 2^(bpc-1) before the
// shift by bpc. The sums are formed in 32-bit two's complement: at 16 bits
// per sample they can exceed int32_t, where libvmaf's C code wraps.
template <typename Sample, bool kDetail>
void vertical0(const Sample* const rows[4], int w, int bpc, DwtScratch<std::int16_t> tmp) {
  const Sample* r0 = rows[0];
  const Sample* r1 = rows[1];
  const Sample* r2 = rows[2];
  const Sample* r3 = rows[3];
  const std::uint32_t half = 1u << (bpc - 1);
  const std::uint32_t lo_bias = half - static_cast<std::uint32_t>(kDb2LoSum) * half;
  const std::uint32_t hi_bias = half;  // the high-pass taps sum to zero
  std::int16_t* lo = tmp.lo;
  std::int16_t* hi = tmp.hi;
  for (int j = 0; j < w; ++j) {
    const std::uint32_t u0 = r0[j];
    const std::uint32_t u1 = r1[j];
    const std::uint32_t u2 = r2[j];
    const std::uint32_t u3 = r3[j];
    const std::uint32_t l = static_cast<std::uint32_t>(L0) * u0 + static_cast<std::uint32_t>(L1) * u1 +
                            static_cast<std::uint32_t>(L2) * u2 + static_cast<std::uint32_t>(L3) * u3 +
                            lo_bias;
    lo[j] = static_cast<std::int16_t>(static_cast<std::int32_t>(l) >> bpc);
    if constexpr (kDetail) {
      const std::uint32_t h = static_cast<std::uint32_t>(H0) * u0 + static_cast<std::uint32_t>(H1) * u1 +
                              static_cast<std::uint32_t>(H2) * u2 + static_cast<std::uint32_t>(H3) * u3 +
                              hi_bias;
      hi[j] = static_cast<std::int16_t>(static_cast<std::int32_t>(h) >> bpc);
    }
  }
}

}  // namespace

template <typename Sample>
void dwt_scale0_row(const Sample* const rows[4], int w, int bpc, DwtScratch<std::int16_t> tmp,
                    const Dwt0Row& out) {
  const int bw = (w + 1) / 2;
  constexpr std::int32_t kRound = 1 << 15;
  if (out.v == nullptr) {
    vertical0<Sample, false>(rows, w, bpc, tmp);
    pad_row(tmp.lo, w);
    const std::int16_t* lo = tmp.lo;
    std::int32_t* a = out.a;
    for (int j = 0; j < bw; ++j) {
      const std::int16_t* p = lo + 2 * j - 1;
      a[j] = (L0 * p[0] + L1 * p[1] + L2 * p[2] + L3 * p[3] + kRound) >> 16;
    }
    return;
  }
  vertical0<Sample, true>(rows, w, bpc, tmp);
  pad_row(tmp.lo, w);
  pad_row(tmp.hi, w);
  const std::int16_t* lo = tmp.lo;
  const std::int16_t* hi = tmp.hi;
  std::int32_t* a = out.a;
  std::int16_t* v = out.v;
  std::int16_t* h = out.h;
  std::int16_t* d = out.d;
  for (int j = 0; j < bw; ++j) {
    const std::int16_t* p = lo + 2 * j - 1;
    const std::int32_t p0 = p[0], p1 = p[1], p2 = p[2], p3 = p[3];
    a[j] = (L0 * p0 + L1 * p1 + L2 * p2 + L3 * p3 + kRound) >> 16;
    v[j] = static_cast<std::int16_t>((H0 * p0 + H1 * p1 + H2 * p2 + H3 * p3 + kRound) >> 16);
    const std::int16_t* q = hi + 2 * j - 1;
    const std::int32_t q0 = q[0], q1 = q[1], q2 = q[2], q3 = q[3];
    h[j] = static_cast<std::int16_t>((L0 * q0 + L1 * q1 + L2 * q2 + L3 * q3 + kRound) >> 16);
    d[j] = static_cast<std::int16_t>((H0 * q0 + H1 * q1 + H2 * q2 + H3 * q3 + kRound) >> 16);
  }
}

template void dwt_scale0_row<std::uint8_t>(const std::uint8_t* const rows[4], int, int,
                                           DwtScratch<std::int16_t>, const Dwt0Row&);
template void dwt_scale0_row<std::uint16_t>(const std::uint16_t* const rows[4], int, int,
                                            DwtScratch<std::int16_t>, const Dwt0Row&);

void dwt_scale_n_row(const std::int32_t* const rows[4], int w, int scale,
                     DwtScratch<std::int32_t> tmp, const DwtNRow& out) {
  // Rounding and shifts per scale (adm_dwt2_s123_combined): the vertical
  // pass keeps full precision at scale 1, then both passes renormalise.
  constexpr std::int64_t kVertAdd[3] = {0, 32768, 32768};
  constexpr int kVertShift[3] = {0, 16, 16};
  constexpr std::int64_t kHorzAdd[3] = {16384, 32768, 16384};
  constexpr int kHorzShift[3] = {15, 16, 15};
  const std::int64_t vadd = kVertAdd[scale - 1];
  const int vsh = kVertShift[scale - 1];
  const std::int64_t hadd = kHorzAdd[scale - 1];
  const int hsh = kHorzShift[scale - 1];

  const std::int32_t* r0 = rows[0];
  const std::int32_t* r1 = rows[1];
  const std::int32_t* r2 = rows[2];
  const std::int32_t* r3 = rows[3];
  std::int32_t* lo = tmp.lo;
  std::int32_t* hi = tmp.hi;
  for (int j = 0; j < w; ++j) {
    const std::int64_t s0 = r0[j], s1 = r1[j], s2 = r2[j], s3 = r3[j];
    lo[j] = static_cast<std::int32_t>((L0 * s0 + L1 * s1 + L2 * s2 + L3 * s3 + vadd) >> vsh);
    hi[j] = static_cast<std::int32_t>((H0 * s0 + H1 * s1 + H2 * s2 + H3 * s3 + vadd) >> vsh);
  }
  pad_row(lo, w);
  pad_row(hi, w);

  const int bw = (w + 1) / 2;
  for (int j = 0; j < bw; ++j) {
    const std::int32_t* p = lo + 2 * j - 1;
    const std::int64_t p0 = p[0], p1 = p[1], p2 = p[2], p3 = p[3];
    if (out.a != nullptr) {
      out.a[j] = static_cast<std::int32_t>((L0 * p0 + L1 * p1 + L2 * p2 + L3 * p3 + hadd) >> hsh);
    }
    out.v[j] = static_cast<std::int32_t>((H0 * p0 + H1 * p1 + H2 * p2 + H3 * p3 + hadd) >> hsh);
    const std::int32_t* q = hi + 2 * j - 1;
    const std::int64_t q0 = q[0], q1 = q[1], q2 = q[2], q3 = q[3];
    out.h[j] = static_cast<std::int32_t>((L0 * q0 + L1 * q1 + L2 * q2 + L3 * q3 + hadd) >> hsh);
    out.d[j] = static_cast<std::int32_t>((H0 * q0 + H1 * q1 + H2 * q2 + H3 * q3 + hadd) >> hsh);
  }
}

}  // namespace vqx::adm
