// The integer VIF kernel on the CPU: for one frame pair it returns, for each
// of the four scales, the numerator and denominator that libvmaf's integer
// VIF computes (libvmaf src/feature/integer_vif.c), bit for bit.
//
// Outline, per scale s (scale 0 is the luma plane itself):
//   * moments: filter s (separable, vertical then horizontal, mirrored
//     borders) gives local means mu1, mu2 and second moments of ref and dist;
//     from them sigma1^2, sigma2^2 and sigma12 in fixed point;
//   * sums: each pixel adds log2 terms (Q11, from a 16-bit log2 table) or a
//     linear term for flat areas; the frame sums become num and den;
//   * pyramid: filter s + 1 on scale s, keeping every second row and column,
//     gives scale s + 1 as 16-bit samples.
// All buffers are sized by init(); compute() allocates nothing.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "metrics/vif/params.hpp"
#include "vqx/picture.hpp"
#include "vqx/status.hpp"

namespace vqx::vif {

// One scale's result, in float as libvmaf keeps it.
struct ScaleSums {
  float num = 0.0f;
  float den = 0.0f;
};
using FrameSums = std::array<ScaleSums, kScaleCount>;

struct KernelParams {
  double gain_limit = kDefaultGainLimit;  // vif_enhn_gain_limit, >= 1
  bool skip_scale0 = false;               // vif_skip_scale0: scale 0 left at 0/0
};

class CpuKernel {
 public:
  // Sizes every buffer for luma planes of width x height at bpc bits
  // (8..16). Fails for sides below kMinSide.
  Status init(unsigned width, unsigned height, unsigned bpc);

  // Whether `p` is a plane compute() can take: the size and depth given to
  // init(), rows padded to whole blocks of 16 samples (as Plane pads them).
  [[nodiscard]] Status check(const Plane& p) const;

  // ref and dist are luma planes that passed check().
  void compute(const Plane& ref, const Plane& dist, const KernelParams& params, FrameSums& out);

  // Row storage with a mirrored margin on each side; public for the helpers
  // in cpu.cpp, not for callers.
  template <typename T>
  struct Row {
    std::vector<T> store;
    T* data = nullptr;  // element 0; data[-kMargin .. padded + kMargin) are valid
    void allocate(std::size_t padded);
  };
  static constexpr std::size_t kMargin = 16;

 private:
  template <typename T>
  struct PlaneView {
    const T* data;
    std::size_t stride;  // in samples
  };
  template <typename Src>
  static PlaneView<Src> view(const Plane& p);
  PlaneView<std::uint16_t> pyramid_view(
      const std::array<std::vector<std::uint16_t>, kScaleCount - 1>& pyr, int scale) const;

  template <typename Src>
  void run_scales(PlaneView<Src> ref0, PlaneView<Src> dis0, const KernelParams& params,
                  FrameSums& out);
  template <typename Src, typename SqAcc>
  ScaleSums scale_sums(PlaneView<Src> ref, PlaneView<Src> dis, int scale,
                       const KernelParams& params);
  template <typename Src>
  void downsample(PlaneView<Src> ref, PlaneView<Src> dis, int scale);

  unsigned width_ = 0;
  unsigned height_ = 0;
  unsigned bpc_ = 8;
  const std::uint16_t* log2_table_ = nullptr;

  // Scales 1..3 of ref and dist (index s - 1), 16-bit samples.
  std::array<std::vector<std::uint16_t>, kScaleCount - 1> pyr_ref_;
  std::array<std::vector<std::uint16_t>, kScaleCount - 1> pyr_dis_;
  std::array<std::size_t, kScaleCount - 1> pyr_stride_{};

  // Vertically filtered rows: means (16 bit) and second moments (32 bit).
  Row<std::uint16_t> mu1_, mu2_;
  Row<std::uint32_t> xx_, yy_, xy_;
  // One row of sigma1^2, sigma2^2 (clamped at 0) and sigma12.
  std::vector<std::int32_t> s11_, s22_, s12_;
  // Vertically filtered rows of the downsampling filter.
  Row<std::uint16_t> conv_ref_, conv_dis_;
};

// The Q11 log2 table of libvmaf (log_generate() in integer_vif.c): entry i,
// for 32767 <= i <= 65535, is round(2048 * log2f(i)); the others are 0.
const std::array<std::uint16_t, 65536>& log2_q11_table();

}  // namespace vqx::vif
