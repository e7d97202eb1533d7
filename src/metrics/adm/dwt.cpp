#include "metrics/adm/dwt.hpp"

#include "core/index_math.hpp"
#include "metrics/adm/column_loops.hpp"
#include "metrics/adm/params.hpp"

namespace vqx::adm {

namespace {

constexpr std::int32_t L0 = kDb2Lo[0], L1 = kDb2Lo[1], L2 = kDb2Lo[2], L3 = kDb2Lo[3];
constexpr std::int32_t H0 = kDb2Hi[0], H1 = kDb2Hi[1], H2 = kDb2Hi[2], H3 = kDb2Hi[3];

// Extends a vertically filtered row by the boundary rule so that the
// horizontal pass can read columns -1 .. w + 1 without tests.
template <typename T>
VQX_FORCE_INLINE void pad_row(T* r, int w) {
  pad_reflect101_repeat_end(r, w, 1, 2);
}

// Vertical pass of scale 0. libvmaf centres the samples by subtracting
// (sum of low-pass taps) * 2^(bpc-1) and rounds with 2^(bpc-1) before the
// shift by bpc (dwt0_bias). The sums are formed in 32-bit
// two's complement: at 16 bits per sample they can exceed int32_t, where
// libvmaf's C code wraps.
template <typename Sample, bool kDetail>
VQX_FORCE_INLINE void vertical0(const Sample* const rows[4], int w, int bpc,
                                DwtScratch<std::int16_t> tmp) {
  const Sample* __restrict r0 = rows[0];
  const Sample* __restrict r1 = rows[1];
  const Sample* __restrict r2 = rows[2];
  const Sample* __restrict r3 = rows[3];
  std::int16_t* __restrict lo = tmp.lo;
  std::int16_t* __restrict hi = tmp.hi;
  const Dwt0Bias bias = dwt0_bias(bpc);
  const std::uint32_t lo_bias = bias.lo;
  const std::uint32_t hi_bias = bias.hi;
  constexpr auto l0 = static_cast<std::uint32_t>(L0), l1 = static_cast<std::uint32_t>(L1),
                 l2 = static_cast<std::uint32_t>(L2), l3 = static_cast<std::uint32_t>(L3);
  constexpr auto h0 = static_cast<std::uint32_t>(H0), h1 = static_cast<std::uint32_t>(H1),
                 h2 = static_cast<std::uint32_t>(H2), h3 = static_cast<std::uint32_t>(H3);
  for_columns<64 / sizeof(Sample)>(0, w, [=](int j) VQX_INLINE_LAMBDA {
    const std::uint32_t u0 = r0[j], u1 = r1[j], u2 = r2[j], u3 = r3[j];
    const std::uint32_t l = l0 * u0 + l1 * u1 + l2 * u2 + l3 * u3 + lo_bias;
    lo[j] = static_cast<std::int16_t>(static_cast<std::int32_t>(l) >> bpc);
    if constexpr (kDetail) {
      const std::uint32_t h = h0 * u0 + h1 * u1 + h2 * u2 + h3 * u3 + hi_bias;
      hi[j] = static_cast<std::int16_t>(static_cast<std::int32_t>(h) >> bpc);
    }
  });
}

// A is the approximation band's type: int32_t, or int16_t (Dwt0Row::a16).
template <typename Sample, typename A>
VQX_FORCE_INLINE void scale0_row_into(const Sample* const rows[4], int w, int bpc,
                                      DwtScratch<std::int16_t> tmp, const Dwt0Row& out, A* a_out) {
  const int bw = (w + 1) / 2;
  A* __restrict a = a_out;
  if (out.v == nullptr) {
    vertical0<Sample, false>(rows, w, bpc, tmp);
    pad_row(tmp.lo, w);
    const std::int16_t* __restrict lo = tmp.lo;
    for_columns<32>(0, bw, [=](int j) VQX_INLINE_LAMBDA {
      const std::int16_t* p = lo + 2 * j - 1;
      a[j] = static_cast<A>((L0 * p[0] + L1 * p[1] + L2 * p[2] + L3 * p[3] + kDwt0HorzAdd) >>
                            kDwt0HorzShift);
    });
    return;
  }
  vertical0<Sample, true>(rows, w, bpc, tmp);
  pad_row(tmp.lo, w);
  pad_row(tmp.hi, w);
  const std::int16_t* __restrict lo = tmp.lo;
  const std::int16_t* __restrict hi = tmp.hi;
  std::int16_t* __restrict v = out.v;
  std::int16_t* __restrict h = out.h;
  std::int16_t* __restrict d = out.d;
  for_columns<32>(0, bw, [=](int j) VQX_INLINE_LAMBDA {
    const std::int16_t* p = lo + 2 * j - 1;
    const std::int32_t p0 = p[0], p1 = p[1], p2 = p[2], p3 = p[3];
    a[j] = static_cast<A>((L0 * p0 + L1 * p1 + L2 * p2 + L3 * p3 + kDwt0HorzAdd) >> kDwt0HorzShift);
    v[j] = static_cast<std::int16_t>((H0 * p0 + H1 * p1 + H2 * p2 + H3 * p3 + kDwt0HorzAdd) >>
                                     kDwt0HorzShift);
    const std::int16_t* q = hi + 2 * j - 1;
    const std::int32_t q0 = q[0], q1 = q[1], q2 = q[2], q3 = q[3];
    h[j] = static_cast<std::int16_t>((L0 * q0 + L1 * q1 + L2 * q2 + L3 * q3 + kDwt0HorzAdd) >>
                                     kDwt0HorzShift);
    d[j] = static_cast<std::int16_t>((H0 * q0 + H1 * q1 + H2 * q2 + H3 * q3 + kDwt0HorzAdd) >>
                                     kDwt0HorzShift);
  });
}

template <typename Sample>
VQX_FORCE_INLINE void scale0_row(const Sample* const rows[4], int w, int bpc,
                                 DwtScratch<std::int16_t> tmp, const Dwt0Row& out) {
  if (out.a16 != nullptr) {
    scale0_row_into(rows, w, bpc, tmp, out, out.a16);
  } else {
    scale0_row_into(rows, w, bpc, tmp, out, out.a);
  }
}

}  // namespace

namespace reference {

VQX_CLONES void dwt_scale0_row(const std::uint8_t* const rows[4], int w, int bpc,
                               DwtScratch<std::int16_t> tmp, const Dwt0Row& out) {
  scale0_row(rows, w, bpc, tmp, out);
}

VQX_CLONES void dwt_scale0_row(const std::uint16_t* const rows[4], int w, int bpc,
                               DwtScratch<std::int16_t> tmp, const Dwt0Row& out) {
  scale0_row(rows, w, bpc, tmp, out);
}

namespace {

template <typename Src>
VQX_FORCE_INLINE void scale_n_row(const Src* const rows[4], int w, int scale,
                                  DwtScratch<std::int32_t> tmp, const DwtNRow& out) {
  // Rounding and shifts per scale (params.hpp, dwt_rounding).
  const DwtRounding rounding = dwt_rounding(scale);
  const std::int64_t vadd = rounding.vert_add;
  const int vsh = rounding.vert_shift;
  const std::int64_t hadd = rounding.horz_add;
  const int hsh = rounding.horz_shift;

  const Src* __restrict r0 = rows[0];
  const Src* __restrict r1 = rows[1];
  const Src* __restrict r2 = rows[2];
  const Src* __restrict r3 = rows[3];
  std::int32_t* __restrict lo = tmp.lo;
  std::int32_t* __restrict hi = tmp.hi;
  for_columns(0, w, [=](int j) VQX_INLINE_LAMBDA {
    const std::int64_t s0 = r0[j], s1 = r1[j], s2 = r2[j], s3 = r3[j];
    lo[j] =
        static_cast<std::int32_t>(shift_right(L0 * s0 + L1 * s1 + L2 * s2 + L3 * s3 + vadd, vsh));
    hi[j] =
        static_cast<std::int32_t>(shift_right(H0 * s0 + H1 * s1 + H2 * s2 + H3 * s3 + vadd, vsh));
  });
  pad_row(tmp.lo, w);
  pad_row(tmp.hi, w);

  const int bw = (w + 1) / 2;
  std::int32_t* __restrict v = out.v;
  std::int32_t* __restrict h = out.h;
  std::int32_t* __restrict d = out.d;
  auto detail = [=](int j) VQX_INLINE_LAMBDA {
    const std::int32_t* p = lo + 2 * j - 1;
    const std::int64_t p0 = p[0], p1 = p[1], p2 = p[2], p3 = p[3];
    v[j] =
        static_cast<std::int32_t>(shift_right(H0 * p0 + H1 * p1 + H2 * p2 + H3 * p3 + hadd, hsh));
    const std::int32_t* q = hi + 2 * j - 1;
    const std::int64_t q0 = q[0], q1 = q[1], q2 = q[2], q3 = q[3];
    h[j] =
        static_cast<std::int32_t>(shift_right(L0 * q0 + L1 * q1 + L2 * q2 + L3 * q3 + hadd, hsh));
    d[j] =
        static_cast<std::int32_t>(shift_right(H0 * q0 + H1 * q1 + H2 * q2 + H3 * q3 + hadd, hsh));
  };
  if (out.a == nullptr) {
    for_columns(0, bw, detail);
    return;
  }
  std::int32_t* __restrict a = out.a;
  for_columns(0, bw, [=](int j) VQX_INLINE_LAMBDA {
    const std::int32_t* p = lo + 2 * j - 1;
    const std::int64_t p0 = p[0], p1 = p[1], p2 = p[2], p3 = p[3];
    a[j] =
        static_cast<std::int32_t>(shift_right(L0 * p0 + L1 * p1 + L2 * p2 + L3 * p3 + hadd, hsh));
    detail(j);
  });
}

}  // namespace

VQX_CLONES void dwt_scale_n_row(const std::int32_t* const rows[4], int w, int scale,
                                DwtScratch<std::int32_t> tmp, const DwtNRow& out) {
  scale_n_row(rows, w, scale, tmp, out);
}

VQX_CLONES void dwt_scale1_row(const std::int16_t* const rows[4], int w,
                               DwtScratch<std::int32_t> tmp, const DwtNRow& out) {
  scale_n_row(rows, w, 1, tmp, out);
}

}  // namespace reference

}  // namespace vqx::adm
