// Integer PSNR ("psnr", libvmaf feature/integer_psnr.c): the numbers and
// options, written once.
//
// The measure: per plane, the sum of squared sample differences (SSE) in
// integers, mse = SSE / (w * h) and psnr = 10 log10(peak^2 / mse), capped at
// a per-plane maximum. With enable_apsnr the SSEs and pixel counts of every
// frame are summed and one "aggregate" PSNR per plane is written at the end.
#pragma once

#include <array>
#include <cfloat>
#include <cstdint>
#include <span>

#include "core/options.hpp"

namespace vqx::psnr {

// The mse used in the log is at least this (integer_psnr.c, psnr() and
// psnr_hbd(): MAX(mse, 1e-16)), so a lossless plane gets the cap.
inline constexpr double kMseFloor = 1e-16;

// Options: names, defaults and bounds as integer_psnr.c `options[]`. None is
// a feature parameter (no VMAF_OPT_FLAG_FEATURE_PARAM), so no option changes
// an output name.
inline std::span<const OptionDef> option_defs() {
  static const std::array<OptionDef, 5> kDefs = {{
      {"enable_chroma", nullptr, OptionValue{true}, 0, 0, false, kSelectsOutputs},
      {"enable_mse", nullptr, OptionValue{false}, 0, 0, false, kSelectsOutputs},
      {"enable_apsnr", nullptr, OptionValue{false}, 0, 0, false, kSelectsOutputs},
      {"reduced_hbd_peak", nullptr, OptionValue{false}, 0, 0, false},
      {"min_sse", nullptr, OptionValue{0.0}, 0.0, DBL_MAX, false},
  }};
  return kDefs;
}

struct Params {
  bool enable_chroma = true;
  bool enable_mse = false;
  bool enable_apsnr = false;
  bool reduced_hbd_peak = false;
  double min_sse = 0.0;
};

// The peak sample value: 2^bpc - 1, or with reduced_hbd_peak the 8-bit peak
// scaled up, 255 * 2^(bpc - 8) (integer_psnr.c, init()). Its square fits
// uint32 at every depth up to 16, as libvmaf computes it.
[[nodiscard]] constexpr std::uint32_t peak(unsigned bpc, bool reduced_hbd_peak) {
  return reduced_hbd_peak ? (255U << (bpc - 8)) : ((1U << bpc) - 1);
}
static_assert(std::uint64_t{peak(16, false)} * peak(16, false) <= UINT32_MAX);

}  // namespace vqx::psnr
