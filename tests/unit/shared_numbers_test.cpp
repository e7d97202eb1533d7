// The numbers and fixed-point helpers that CPU and GPU twins share, from
// their families' params.hpp: their values, written out, so that a change
// to one is a change to both twins that a test sees. Also compiled as
// constant expressions (the GPU twins call them in device code).
#include <gtest/gtest.h>

#include <cstdint>
#include <limits>

#include "metrics/adm/params.hpp"
#include "metrics/float_psnr/params.hpp"
#include "metrics/motion/params.hpp"
#include "metrics/vif/params.hpp"

namespace vqx {
namespace {

static_assert(vif::round_taps(std::uint32_t{98304}) == 2);
static_assert(adm::dwt_rounding(2).horz_shift == 16);
static_assert(motion::vertical_round<std::int64_t>(16) == 32768);
static_assert(float_psnr::scaled_square_sum(16, 10) == 1.0);

TEST(SharedNumbers, Vif) {
  EXPECT_EQ(vif::kLogOne, 2048);
  EXPECT_EQ(vif::kLog2SigmaNsq, 17);
  EXPECT_EQ(vif::kGainEps, 65536 * 1.0e-10);
  // (v + 2^15) >> 16 in the argument's type.
  EXPECT_EQ(vif::round_taps(std::uint32_t{32767}), 0U);
  EXPECT_EQ(vif::round_taps(std::uint32_t{32768}), 1U);
  EXPECT_EQ(vif::round_taps(std::uint32_t{98303}), 1U);
  EXPECT_EQ(vif::round_taps(std::uint64_t{1} << 40), std::uint64_t{1} << 24);
  // The means' products keep their rounded top 32 bits.
  EXPECT_EQ(vif::mean_product(65535, 65535), 1U);
  EXPECT_EQ(vif::mean_product(65535, 32768), 0U);
  EXPECT_EQ(vif::mean_product(65535, 32769), 1U);
  // Scale 0 rounds bpc-bit sums by bpc (means) and 2 * (bpc - 8) (squares).
  for (unsigned bpc : {8U, 10U, 12U, 16U}) {
    const vif::Rounding m = vif::mean_rounding(0, bpc);
    EXPECT_EQ(m.add, 1U << (bpc - 1));
    EXPECT_EQ(m.shift, static_cast<int>(bpc));
  }
  EXPECT_EQ(vif::square_rounding(0, 8).add, 0U);  // 8-bit squares are kept whole
  EXPECT_EQ(vif::square_rounding(0, 8).shift, 0);
  EXPECT_EQ(vif::square_rounding(0, 10).add, 8U);
  EXPECT_EQ(vif::square_rounding(0, 10).shift, 4);
  EXPECT_EQ(vif::square_rounding(0, 16).add, 32768U);
  EXPECT_EQ(vif::square_rounding(0, 16).shift, 16);
  for (int scale = 1; scale < vif::kScaleCount; ++scale) {
    EXPECT_EQ(vif::mean_rounding(scale, 10).add, 32768U);
    EXPECT_EQ(vif::mean_rounding(scale, 10).shift, 16);
    EXPECT_EQ(vif::square_rounding(scale, 10).add, 32768U);
    EXPECT_EQ(vif::square_rounding(scale, 10).shift, 16);
  }
}

TEST(SharedNumbers, AdmWaveletAndDecoupling) {
  const adm::Dwt0Bias b8 = adm::dwt0_bias(8);
  EXPECT_EQ(b8.hi, 128U);
  EXPECT_EQ(b8.lo, static_cast<std::uint32_t>(128 - 46342 * 128));  // mod 2^32
  EXPECT_EQ(adm::dwt0_bias(16).hi, 32768U);
  EXPECT_EQ(adm::kDwt0HorzAdd, 32768);
  EXPECT_EQ(adm::kDwt0HorzShift, 16);
  const adm::DwtRounding r1 = adm::dwt_rounding(1);
  const adm::DwtRounding r2 = adm::dwt_rounding(2);
  const adm::DwtRounding r3 = adm::dwt_rounding(3);
  EXPECT_EQ(r1.vert_add, 0);  // scale 1's vertical pass keeps full precision
  EXPECT_EQ(r1.vert_shift, 0);
  EXPECT_EQ(r1.horz_add, 16384);
  EXPECT_EQ(r1.horz_shift, 15);
  EXPECT_EQ(r2.vert_add, 32768);
  EXPECT_EQ(r2.vert_shift, 16);
  EXPECT_EQ(r2.horz_add, 32768);
  EXPECT_EQ(r2.horz_shift, 16);
  EXPECT_EQ(r3.vert_add, 32768);
  EXPECT_EQ(r3.vert_shift, 16);
  EXPECT_EQ(r3.horz_add, 16384);
  EXPECT_EQ(r3.horz_shift, 15);
  EXPECT_EQ(adm::kRatioOne, 32768);
  EXPECT_EQ(adm::kRatioHalf, 16384);
  EXPECT_EQ(adm::restore_product(std::int64_t{32768}, std::int64_t{-300}), -300);
  EXPECT_EQ(adm::restore_product(std::int32_t{16384}, std::int32_t{3}), 2);    // 1.5 rounds up
  EXPECT_EQ(adm::restore_product(std::int32_t{16384}, std::int32_t{-3}), -1);  // -1.5 too
  EXPECT_EQ(adm::kAngleScale, 4096.0);
}

TEST(SharedNumbers, AdmWeightingAndMasking) {
  EXPECT_EQ(adm::csf0_hv(16383), 0);
  EXPECT_EQ(adm::csf0_hv(16384), 1);
  EXPECT_EQ(adm::csf0_hv(-16385), -1);
  EXPECT_EQ(adm::csf0_hv(1 << 30), -32768);  // 2^15 after the shift: wraps in int16
  EXPECT_EQ(adm::csf0_d(65536), 0);          // libvmaf's 65535, not 2^16: just below
  EXPECT_EQ(adm::csf0_d(65537), 1);
  EXPECT_EQ(adm::kCsfNAdd, std::int64_t{1} << 27);
  EXPECT_EQ(adm::kCsfNShift, 28);
  EXPECT_EQ(adm::div30_q12(30), 32);  // (30 * 4369 + 2048) >> 12: the reciprocals are 2^17 / n
  EXPECT_EQ(adm::div15_q12(15), 32);
  EXPECT_EQ(adm::div30_q12(-30), -32);
  EXPECT_EQ(adm::div30_q12(0), 0);
  EXPECT_EQ(adm::kQ32Bias, -2147483648LL);
  EXPECT_EQ(adm::kQ32Shift, 32);
  constexpr std::int32_t kMin = std::numeric_limits<std::int32_t>::min();
  EXPECT_EQ(adm::wrap_abs(-5), 5);
  EXPECT_EQ(adm::wrap_abs(kMin), kMin);  // wraps as libvmaf's int32 does
  EXPECT_EQ(adm::wrap_sub(kMin, 1), std::numeric_limits<std::int32_t>::max());
  EXPECT_EQ(adm::wrap_shl(0x40000000, 1), kMin);
  // ((m^2 + sq_add) >> sq_shift) * m + cub_add) >> cub_shift.
  EXPECT_EQ(adm::rounded_cube(1000, 0, 0, 0, 0), 1000000000U);
  EXPECT_EQ(adm::rounded_cube(1000, std::uint64_t{1} << 9, 10, 1 << 3, 4), 61063U);
}

TEST(SharedNumbers, MotionAndFloatPsnr) {
  EXPECT_EQ(motion::kHorizontalRound, 32768);
  EXPECT_EQ(motion::vertical_round<std::int32_t>(8), 128);
  EXPECT_EQ(motion::vertical_round<std::int32_t>(10), 512);
  EXPECT_EQ(float_psnr::inv_sample_scale(8), 1.0F);
  EXPECT_EQ(float_psnr::inv_sample_scale(12), 1.0F / 16);
  EXPECT_EQ(float_psnr::scaled_sum(1024, 10), 256.0);
  EXPECT_EQ(float_psnr::scaled_square_sum(1024, 10), 64.0);
  EXPECT_EQ(float_psnr::scaled_square_sum(3, 16), 3.0 / 65536);
}

}  // namespace
}  // namespace vqx
