// Picture scaling as libvmaf's float VIF prescaler and float motion's
// scale-1 term do it (libvmaf/src/feature/vif_tools.c, vif_scale_frame_s):
// nearest neighbour, bilinear, bicubic (a = -0.75) and Lanczos (a = 4),
// sampling at pixel centres and mirroring about the edge samples.
//
// Every output sample is computed with libvmaf's operations in libvmaf's
// order and precision; what depends only on the column (or row) is
// computed once in init().
#pragma once

#include <optional>
#include <string_view>
#include <vector>

#include "metrics/float_common/image.hpp"

namespace vqx::float_common {

enum class ScaleMethod { kNearest, kBilinear, kBicubic, kLanczos4 };

// The names libvmaf accepts for vif_prescale_method.
[[nodiscard]] std::optional<ScaleMethod> parse_scale_method(std::string_view name);

// The narrowest source the method's mirrored reach stays inside of.
[[nodiscard]] unsigned min_source_side(ScaleMethod method);

// libvmaf's bilinear scaler keeps its column tables in arrays of this size
// and refuses wider outputs (VIF_BILINEAR_MAX_WIDTH in vif_tools.h).
inline constexpr unsigned kBilinearMaxWidth = 7680;

class Resampler;
// A Resampler from src_w x src_h to dst_w x dst_h (init() below), as a
// value: for the GPU sources, where the contract check reads a call to any
// function named init as the pipeline's (tests/contract).
[[nodiscard]] Resampler resampler_for(ScaleMethod method, unsigned src_w, unsigned src_h,
                                      unsigned dst_w, unsigned dst_h);

class Resampler {
 public:
  // Prepares scaling from src_w x src_h to dst_w x dst_h (allocates). The
  // caller checks the sizes: sides >= min_source_side(method), and, for
  // bilinear, dst_w <= kBilinearMaxWidth.
  void init(ScaleMethod method, unsigned src_w, unsigned src_h, unsigned dst_w, unsigned dst_h);

  // Whether source and destination sizes are equal: libvmaf then copies.
  [[nodiscard]] bool identity() const { return src_w_ == dst_w_ && src_h_ == dst_h_; }

  // dst = src scaled; src and dst have the sizes given to init().
  void run(const FloatImage& src, FloatImage& dst) const;

  // Taps of one output column or row: source indices (already mirrored)
  // and weights. Nearest and bilinear use 1 and 2 taps, bicubic 4,
  // Lanczos 9. (The GPU twins read these as constant tables.)
  struct Axis {
    unsigned taps = 0;
    std::vector<int> index;     // taps per output position
    std::vector<float> weight;  // bicubic and Lanczos: taps per position
    std::vector<float> frac;    // bilinear: the distance to the first tap
    std::vector<int> origin;    // bicubic and Lanczos: floor of the position
  };
  [[nodiscard]] ScaleMethod method() const { return method_; }
  [[nodiscard]] const Axis& columns() const { return cols_; }
  [[nodiscard]] const Axis& rows() const { return rows_; }

 private:
  static Axis make_axis(ScaleMethod method, unsigned src, unsigned dst);

  void run_nearest(const FloatImage& src, FloatImage& dst) const;
  void run_bilinear(const FloatImage& src, FloatImage& dst) const;
  void run_bicubic(const FloatImage& src, FloatImage& dst) const;
  void run_lanczos(const FloatImage& src, FloatImage& dst) const;

  ScaleMethod method_ = ScaleMethod::kNearest;
  unsigned src_w_ = 0, src_h_ = 0, dst_w_ = 0, dst_h_ = 0;
  Axis cols_, rows_;
};

}  // namespace vqx::float_common
