// row_terms() (statistic.hpp) written with Highway's portable vectors, for
// each of its targets (HWY_DYNAMIC_DISPATCH picks one per row).
//
// pointwise.hpp's pixel_terms() step for step on whole vectors of
// positions: each float and double operation of the scalar function on the
// same values in the same types (the double quotients on each half of a
// vector of floats, widened with PromoteTo and rounded back with DemoteTo
// as the casts do), its selections as IfThenElse; so every target gives
// its bits, which FloatVifTerms.RowKernelEqualsThePointwiseDefinition
// checks for every target the CPU runs. Its one double comparison, sigma1^2
// < sigma_nsq, is made on the float with the smallest float not below
// sigma_nsq, the same test. Four vectors go side by side (Many): each
// position's arithmetic is chains of dependent operations (two log2
// polynomials of nine steps, two divisions), which the compiler's
// vectorised loop ran one vector after another.
#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "metrics/float_vif/statistic_simd.cpp"
#include <hwy/foreach_target.h>  // IWYU pragma: keep
// (foreach_target.h includes this file once per target, then once more.)
#include <hwy/highway.h>

#include <cmath>
#include <cstdint>
#include <limits>

#include "core/many_vectors-inl.h"
#include "metrics/float_vif/params.hpp"
#include "metrics/float_vif/pointwise.hpp"
#include "metrics/float_vif/statistic.hpp"

HWY_BEFORE_NAMESPACE();
namespace vqx::float_vif::HWY_NAMESPACE {

#if HWY_HAVE_FLOAT64 && HWY_TARGET != HWY_SCALAR
namespace hn = hwy::HWY_NAMESPACE;
namespace many = vqx::HWY_NAMESPACE::many;
using namespace many;  // Map, Select, Less, ... and the operators

using DF = hn::ScalableTag<float>;
using DH = hn::Half<DF>;
using DD = hn::Rebind<double, DH>;  // a half of DF's floats, widened
using DU = hn::RebindToUnsigned<DF>;
using DI = hn::RebindToSigned<DF>;
using VF = hn::Vec<DF>;
using VD = hn::Vec<DD>;

constexpr int kSide = 4;
using F = many::Many<VF, kSide>;

HWY_INLINE F SplatF(float x) { return many::Splat<VF, kSide>(x); }

// fn(widened half of each argument), the two halves' results rounded back
// to float and put together: a double expression of float operands.
template <class Fn>
HWY_INLINE F InDouble(const Fn& fn, const F& a, const F& b) {
  return Map(
      [&fn](VF x, VF y) {
        const DF df;
        const DH dh;
        const DD dd;
        const VD lo =
            fn(hn::PromoteTo(dd, hn::LowerHalf(dh, x)), hn::PromoteTo(dd, hn::LowerHalf(dh, y)));
        const VD hi =
            fn(hn::PromoteTo(dd, hn::UpperHalf(dh, x)), hn::PromoteTo(dd, hn::UpperHalf(dh, y)));
        return hn::Combine(df, hn::DemoteTo(dh, hi), hn::DemoteTo(dh, lo));
      },
      a, b);
}

// log2_approx(): the exponent plus the mantissa's polynomial (log2_bits),
// NaN below 0, -infinity at 0.
HWY_INLINE F Log2Approx(const F& x) {
  const F remain = Map(
      [](VF v) {
        const DU du;
        const auto mantissa = hn::And(hn::BitCast(du, v), hn::Set(du, kMantissaMask));
        return hn::BitCast(DF(), hn::Or(mantissa, hn::Set(du, kOneBits)));
      },
      x);
  const F exponent = Map(
      [](VF v) {
        const DU du;
        const DI di;
        const auto field =
            hn::ShiftRight<kMantissaBits>(hn::And(hn::BitCast(du, v), hn::Set(du, kExponentMask)));
        return hn::ConvertTo(DF(), hn::Sub(hn::BitCast(di, field), hn::Set(di, kExponentBias)));
      },
      x);
  const F t = remain - 1.0f;
  F poly = SplatF(0.0f);
  for (const float c : kLog2Poly) poly = poly * t + c;
  F r = exponent + poly;
  r = Select(Less(x, 0.0f), SplatF(std::numeric_limits<float>::quiet_NaN()), r);
  return Select(Equal(x, 0.0f), SplatF(-std::numeric_limits<float>::infinity()), r);
}

struct Constants {
  double sigma_nsq;
  float gain_limit;
  float sigma_max_inv;
  float sigma_nsq_not_below;  // the smallest float >= sigma_nsq
};

// The terms of kSide vectors of positions from x on.
HWY_INLINE void TermsBlock(std::size_t x, const float* HWY_RESTRICT mu1,
                           const float* HWY_RESTRICT mu2, const float* HWY_RESTRICT xx,
                           const float* HWY_RESTRICT yy, const float* HWY_RESTRICT xy,
                           const Constants& c, float* HWY_RESTRICT num_out,
                           float* HWY_RESTRICT den_out) {
  const DF df;
  const F m1 = LoadU<DF, kSide>(df, mu1 + x);
  const F m2 = LoadU<DF, kSide>(df, mu2 + x);
  const F zero = SplatF(0.0f);
  F s1 = LoadU<DF, kSide>(df, xx + x) - m1 * m1;
  F s2 = LoadU<DF, kSide>(df, yy + x) - m2 * m2;
  const F s12 = LoadU<DF, kSide>(df, xy + x) - m1 * m2;
  s1 = Select(Greater(s1, 0.0f), s1, zero);
  s2 = Select(Greater(s2, 0.0f), s2, zero);
  F g = s12 / (s1 + kEps);
  F sv = s2 - g * s12;
  const auto flat1 = Less(s1, kEps);
  g = Select(flat1, zero, g);
  sv = Select(flat1, s2, sv);
  s1 = Select(flat1, zero, s1);
  const auto flat2 = Less(s2, kEps);
  g = Select(flat2, zero, g);
  sv = Select(flat2, zero, sv);
  const auto negative = Less(g, 0.0f);
  sv = Select(negative, s2, sv);
  g = Select(negative, zero, g);
  sv = Select(Greater(sv, kEps), sv, SplatF(kEps));
  g = Select(Less(g, c.gain_limit), g, SplatF(c.gain_limit));
  const double sigma_nsq = c.sigma_nsq;
  const F num_arg = InDouble(
      [sigma_nsq](VD ggs, VD v) {
        const DD dd;
        const VD gain = hn::Div(ggs, hn::Add(v, hn::Set(dd, sigma_nsq)));
        return hn::Add(hn::Set(dd, 1.0), gain);
      },
      g * g * s1, sv);
  const F den_arg = InDouble(
      [sigma_nsq](VD v, VD) {
        const DD dd;
        return hn::Add(hn::Set(dd, 1.0), hn::Div(v, hn::Set(dd, sigma_nsq)));
      },
      s1, s1);
  F num = Log2Approx(num_arg);
  F den = Log2Approx(den_arg);
  num = Select(Less(s12, 0.0f), zero, num);
  const auto below_noise = Less(s1, c.sigma_nsq_not_below);
  num = Select(below_noise, 1.0f - s2 * c.sigma_max_inv, num);
  den = Select(below_noise, SplatF(1.0f), den);
  StoreU(num, df, num_out + x);
  StoreU(den, df, den_out + x);
}

void RowTerms(const float* HWY_RESTRICT mu1, const float* HWY_RESTRICT mu2,
              const float* HWY_RESTRICT xx, const float* HWY_RESTRICT yy,
              const float* HWY_RESTRICT xy, unsigned width, const StatParams& p,
              float* HWY_RESTRICT num, float* HWY_RESTRICT den) {
  float not_below = static_cast<float>(p.sigma_nsq);
  if (static_cast<double>(not_below) < p.sigma_nsq) {
    not_below = std::nextafter(not_below, std::numeric_limits<float>::infinity());
  }
  const Constants c{p.sigma_nsq, p.gain_limit, p.sigma_max_inv, not_below};
  const std::size_t step = kSide * hn::Lanes(DF());
  std::size_t x = 0;
  for (; x + step <= width; x += step) TermsBlock(x, mu1, mu2, xx, yy, xy, c, num, den);
  for (; x < width; ++x) {
    const Terms t = pixel_terms(mu1[x], mu2[x], xx[x], yy[x], xy[x], p);
    num[x] = t.num;
    den[x] = t.den;
  }
}

#else  // the scalar target, or no double vectors: the plain loop

void RowTerms(const float* mu1, const float* mu2, const float* xx, const float* yy, const float* xy,
              unsigned width, const StatParams& p, float* num, float* den) {
  reference::row_terms(mu1, mu2, xx, yy, xy, width, p, num, den);
}

#endif

}  // namespace vqx::float_vif::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace vqx::float_vif {

HWY_EXPORT(RowTerms);

void row_terms(const float* mu1, const float* mu2, const float* xx, const float* yy,
               const float* xy, unsigned width, const StatParams& p, float* num, float* den) {
  HWY_DYNAMIC_DISPATCH(RowTerms)(mu1, mu2, xx, yy, xy, width, p, num, den);
}

}  // namespace vqx::float_vif
#endif
