#include "metrics/float_vif/cpu.hpp"

#include <algorithm>
#include <string>
#include <utility>

#include "core/index_math.hpp"
#include "metrics/float_common/convolve.hpp"
#include "metrics/float_vif/gaussian.hpp"
#include "metrics/float_vif/geometry.hpp"

namespace vqx::float_vif {

namespace {

using float_common::FloatImage;
using float_common::FloatRows;
using float_common::kMaxTaps;
using float_common::reflect;

// The planes of one filtered row: the means, the squares and the product.
enum Moment { kMu1, kMu2, kXx, kYy, kXy, kMoments };

// Pointers to the rows that tap k of a filter of `taps` taps reads for
// output row `centre` (mirrored at the top and bottom).
void tap_rows(FloatRows& img, int centre, std::size_t taps,
              std::array<const float*, kMaxTaps>& rows) {
  const int h = static_cast<int>(img.height());
  const int radius = static_cast<int>(taps / 2);
  for (std::size_t k = 0; k < taps; ++k) {
    rows[k] = img.row(static_cast<unsigned>(reflect(centre - radius + static_cast<int>(k), h)));
  }
}

}  // namespace

Status VifPipeline::init(unsigned width, unsigned height, const PipelineConfig& config) {
  config_ = config;
  if (!valid_kernelscale(config.kernelscale)) {
    return Error(Errc::kInvalidArgument, "float_vif: vif_kernelscale " +
                                             std::to_string(config.kernelscale) +
                                             " is not one libvmaf accepts");
  }
  VQX_ASSIGN_OR_RETURN(Scales scales,
                       scale_sizes(width, height, config.kernelscale, config.skip_scale0));
  unsigned max_radius = 0;
  for (int s = 0; s < kScales; ++s) {
    filters_[s] = std::move(scales.filters[s]);
    max_radius = std::max(max_radius, static_cast<unsigned>(filters_[s].size() / 2));
    if (s > 0) {
      ref_[s].resize(scales.w[s], scales.h[s]);
      dist_[s].resize(scales.w[s], scales.h[s]);
    }
  }
  row_pad_ = round_up(std::size_t{max_radius}, 16);
  row_stride_ = round_up(row_pad_ + width + max_radius, 16);
  padded_.assign(kMoments * row_stride_, 0.0f);
  filtered_.assign(kMoments * round_up(std::size_t{width}, 16), 0.0f);
  stat_scratch_.assign(2 * std::size_t{width}, 0.0f);
  return Status::Ok();
}

unsigned VifPipeline::input_window() const {
  // Scale 0's sums read filter 0's rows of it, the decimation to scale 1
  // filter 1's.
  const std::size_t sums = config_.skip_scale0 ? 0 : filters_[0].size();
  return static_cast<unsigned>(std::max(sums, filters_[1].size()));
}

void VifPipeline::compute(FloatRows& ref, FloatRows& dist, FrameSums& out) {
  FloatRows* cur_ref = &ref;
  FloatRows* cur_dist = &dist;
  const int first = config_.skip_scale0 ? 1 : 0;
  for (int s = first; s < kScales; ++s) {
    if (s > 0) {
      decimate(s, *cur_ref, ref_[s]);
      decimate(s, *cur_dist, dist_[s]);
      scale_ref_.read_image(ref_[s]);
      scale_dist_.read_image(dist_[s]);
      cur_ref = &scale_ref_;
      cur_dist = &scale_dist_;
    }
    add_scale_sums(s, *cur_ref, *cur_dist, out[s]);
  }
}

void VifPipeline::add_scale_sums(int scale, FloatRows& ref, FloatRows& dist, ScaleSums& out) {
  const std::span<const float> taps = filters_[scale];
  const auto radius = static_cast<unsigned>(taps.size() / 2);
  const unsigned w = ref.width();
  const std::size_t fstride = round_up(std::size_t{w}, 16);
  std::array<float*, kMoments> pad{};
  std::array<float*, kMoments> filt{};
  for (int m = 0; m < kMoments; ++m) {
    pad[m] = padded_.data() + m * row_stride_ + row_pad_;
    filt[m] = filtered_.data() + m * fstride;
  }
  std::array<const float*, kMaxTaps> rows_ref{};
  std::array<const float*, kMaxTaps> rows_dist{};
  float num = 0.0f;
  float den = 0.0f;
  for (unsigned i = 0; i < ref.height(); ++i) {
    tap_rows(ref, static_cast<int>(i), taps.size(), rows_ref);
    tap_rows(dist, static_cast<int>(i), taps.size(), rows_dist);
    float_common::weighted_rows_moments(taps, rows_ref.data(), rows_dist.data(), w, pad.data());
    for (int m = 0; m < kMoments; ++m) {
      float_common::mirror_pad(pad[m], w, radius);
      float_common::filter_row(taps, pad[m], w, filt[m]);
    }
    add_row(filt[kMu1], filt[kMu2], filt[kXx], filt[kYy], filt[kXy], w, config_.stat,
            stat_scratch_.data(), num, den);
  }
  out.num = num;
  out.den = den;
}

void VifPipeline::decimate(int scale, FloatRows& src, FloatImage& dst) {
  const std::span<const float> taps = filters_[scale];
  const auto radius = static_cast<unsigned>(taps.size() / 2);
  float* pad = padded_.data() + row_pad_;
  std::array<const float*, kMaxTaps> rows{};
  for (unsigned i = 0; i < dst.height(); ++i) {
    tap_rows(src, static_cast<int>(2 * i), taps.size(), rows);
    float_common::weighted_rows(taps, rows.data(), src.width(), pad);
    float_common::mirror_pad(pad, src.width(), radius);
    float_common::filter_row_even(taps, pad, dst.width(), dst.row(i));
  }
}

}  // namespace vqx::float_vif
