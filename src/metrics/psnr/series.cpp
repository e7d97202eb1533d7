#include "metrics/psnr/series.hpp"

#include "metrics/psnr/score.hpp"

namespace vqx::psnr {

Series::Series(const Params& params)
    : params_(params), slots_per_plane_(params.enable_mse ? 2 : 1) {}

void Series::start(const PictureFormat& fmt) {
  planes_ = params_.enable_chroma && fmt.chroma != ChromaFormat::k400 ? 3 : 1;
  peak_ = peak(fmt.bpc, params_.reduced_hbd_peak);
  for (unsigned p = 0; p < 3; ++p) cap_[p] = psnr_max(fmt, p, peak_, params_.min_sse);
  sse_total_ = {};
  pixels_total_ = {};
}

void Series::add(unsigned index, const std::array<std::uint64_t, 3>& sse,
                 const std::array<unsigned, 3>& width, const std::array<unsigned, 3>& height,
                 FeatureWriter& out) {
  for (unsigned p = 0; p < planes_; ++p) {
    const PlaneScore s = plane_score(sse[p], width[p], height[p], peak_, cap_[p]);
    const std::size_t slot = std::size_t{p} * slots_per_plane_;
    out.write(slot, index, s.psnr);
    if (params_.enable_mse) out.write(slot + 1, index, s.mse);
    if (params_.enable_apsnr) {
      sse_total_[p] += sse[p];
      pixels_total_[p] += std::uint64_t{width[p]} * height[p];
    }
  }
}

void Series::flush(FeatureWriter& out) const {
  if (!params_.enable_apsnr) return;
  for (unsigned p = 0; p < 3; ++p) {
    out.write_aggregate(p, aggregate_psnr(sse_total_[p], pixels_total_[p], peak_));
  }
}

}  // namespace vqx::psnr
