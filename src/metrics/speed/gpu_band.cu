// The SpEED twins' shared device side (gpu_band.cuh): buffers, the
// prescale's table, the launches of gpu_kernels.cuh and the host's finish.
#include <cstdint>
#include <new>

#include "core/index_math.hpp"
#include "metrics/speed/gpu_band.cuh"
#include "metrics/speed/gpu_kernels.cuh"
#include "metrics/speed/pointwise.hpp"
#include "metrics/speed/rescale.hpp"
#include "metrics/speed/taps.hpp"

namespace vqx::speed {

namespace {

const char* method_name(ScaleMethod m) {
  switch (m) {
    case ScaleMethod::kNearest:
      return "nearest";
    case ScaleMethod::kBilinear:
      return "bilinear";
    case ScaleMethod::kBicubic:
      return "bicubic";
    case ScaleMethod::kLanczos4:
      break;
  }
  return "lanczos4";
}

}  // namespace

bool GpuBand::resampled() const { return resamples(g_, p_); }

// The table depends on the method and the sizes alone: twins of one context
// with equal ones share it.
std::string GpuBand::table_name() const {
  return std::string("speed prescale ") + method_name(p_.prescale_method) + " " +
         std::to_string(g_.width) + "x" + std::to_string(g_.height) + " to " +
         std::to_string(g_.scaled_w) + "x" + std::to_string(g_.scaled_h);
}

std::vector<gpu::ConstantTable> GpuBand::tables(const Geometry& g, const Params& p) {
  g_ = g;
  p_ = p;
  if (!resampled()) return {};
  table_ = table_name();
  table_bytes_ = rescale_table(g, p.prescale_method);
  return {{table_.c_str(), table_bytes_.data(), table_bytes_.size()}};
}

Status GpuBand::allocate(const Geometry& g, const Params& p, unsigned bpc, unsigned pictures,
                         unsigned slots, const gpu::Resources& res, const std::string& family) {
  g_ = g;
  p_ = p;
  bpc_ = bpc;
  pictures_ = pictures;
  family_ = family;
  decimate_name_ = family + " decimate_kernel";
  band_name_ = family + " band_kernel";
  stats_name_ = family + " stats_kernel";
  qr_name_ = family + " qr_kernel";
  solve_name_ = family + " solve_kernel";
  if (pictures > kMaxPictures) {
    return Error(Errc::kInternal, family + ": too many pictures for one launch");
  }
  if (!filter_taps(antialias_taps(p.kernel_scale), antialias_) ||
      !filter_taps(band_taps(p.kernel_scale), blur_)) {
    return Error(Errc::kInternal, family + ": a filter with more taps than a kernel takes");
  }
  table_on_device_ = nullptr;
  if (resampled()) {
    const std::string name = table_name();
    VQX_ASSIGN_OR_RETURN(const void* t, res.constant(name.c_str()));
    table_on_device_ = static_cast<const unsigned char*>(t);
  }
  picture_floats_ = std::size_t{g.op_w} * g.op_h;
  const std::size_t floats = picture_floats_ * pictures;
  const std::size_t sums = static_cast<std::size_t>(kLowerEntries) * pictures;
  VQX_ASSIGN_OR_RETURN(decimated_, gpu::DeviceBuffer<float>::allocate(floats));
  VQX_ASSIGN_OR_RETURN(band_, gpu::DeviceBuffer<float>::allocate(floats));
  VQX_ASSIGN_OR_RETURN(sums_, gpu::DeviceBuffer<double>::allocate(sums));
  VQX_ASSIGN_OR_RETURN(factors_, gpu::DeviceBuffer<float>::allocate(kFactorFloats * pictures));
  VQX_ASSIGN_OR_RETURN(verdicts_, gpu::DeviceBuffer<int>::allocate(pictures));
  VQX_ASSIGN_OR_RETURN(variance_,
                       gpu::DeviceBuffer<float>::allocate(std::size_t{g.blocks()} * pictures));
  VQX_ASSIGN_OR_RETURN(band_results_, gpu::PinnedBuffer<float>::allocate(floats * slots));
  VQX_ASSIGN_OR_RETURN(sums_results_, gpu::PinnedBuffer<double>::allocate(sums * slots));
  VQX_ASSIGN_OR_RETURN(verdict_results_,
                       gpu::PinnedBuffer<int>::allocate(std::size_t{pictures} * slots));
  VQX_ASSIGN_OR_RETURN(variance_results_,
                       gpu::PinnedBuffer<float>::allocate(variance_.size() * slots));
  try {
    gsm_ = GsmFit(g);  // (not a call named init: tests/contract reads names)
  } catch (const std::bad_alloc&) {
    return Error(Errc::kLimit, family + ": out of memory for the host's share of " +
                                   std::to_string(g.width) + "x" + std::to_string(g.height) +
                                   " pictures");
  }
  return Status::Ok();
}

template <typename Sample>
Status GpuBand::launch_as(const FramePictures& pictures, unsigned slot, const gpu::Stream& s) {
  Pictures<Sample> in{};
  const float unit = sample_unit(bpc_);
  for (unsigned k = 0; k < pictures_; ++k) {
    const PictureOnDevice& d = pictures[k];
    in.picture[k] = {static_cast<const std::uint8_t*>(d.plane), d.pitch,
                     static_cast<const std::uint8_t*>(d.minus), d.minus_pitch, unit};
  }
  const BandShape shape = band_shape(g_);
  const Resampler r = resampler(table_on_device_, g_, p_);
  const dim3 grid(ceil_div(g_.op_w, kBandThreads), g_.op_h, pictures_);
  decimate_kernel<Sample>
      <<<grid, kBandThreads, 0, s.handle()>>>(in, r, antialias_, shape, decimated_.get());
  VQX_RETURN_IF_ERROR(gpu::check_launch(decimate_name_.c_str()));
  band_kernel<kBandThreads>
      <<<grid, kBandThreads, 0, s.handle()>>>(decimated_.get(), blur_, shape, band_.get());
  VQX_RETURN_IF_ERROR(gpu::check_launch(band_name_.c_str()));
  stats_kernel<kStatsThreads>
      <<<pictures_, kStatsThreads, 0, s.handle()>>>(band_.get(), shape, sums_.get());
  VQX_RETURN_IF_ERROR(gpu::check_launch(stats_name_.c_str()));
  qr_kernel<kQrThreads><<<pictures_, kQrThreads, 0, s.handle()>>>(sums_.get(), shape,
                                                                  factors_.get(), verdicts_.get());
  VQX_RETURN_IF_ERROR(gpu::check_launch(qr_name_.c_str()));
  const auto blocks = static_cast<int>(g_.blocks());
  const dim3 solve_grid(ceil_div(g_.blocks(), kSolveThreads), pictures_);
  solve_kernel<kSolveThreads><<<solve_grid, kSolveThreads, 0, s.handle()>>>(
      band_.get(), factors_.get(), shape, static_cast<int>(g_.blocks_x), blocks, variance_.get());
  VQX_RETURN_IF_ERROR(gpu::check_launch(solve_name_.c_str()));
  VQX_RETURN_IF_ERROR(gpu::copy_to_host_async(band_results_.get() + band_.size() * slot,
                                              band_.get(), band_.bytes(), s));
  VQX_RETURN_IF_ERROR(gpu::copy_to_host_async(sums_results_.get() + sums_.size() * slot,
                                              sums_.get(), sums_.bytes(), s));
  VQX_RETURN_IF_ERROR(gpu::copy_to_host_async(verdict_results_.get() + verdicts_.size() * slot,
                                              verdicts_.get(), verdicts_.bytes(), s));
  return gpu::copy_to_host_async(variance_results_.get() + variance_.size() * slot, variance_.get(),
                                 variance_.bytes(), s);
}

Status GpuBand::launch(const FramePictures& pictures, unsigned slot, const gpu::Stream& s) {
  return bpc_ == 8 ? launch_as<std::uint8_t>(pictures, slot, s)
                   : launch_as<std::uint16_t>(pictures, slot, s);
}

bool GpuBand::fit(unsigned slot, unsigned k, BlockStats& out) {
  const float* band = band_results_.get() + band_.size() * slot + picture_floats_ * k;
  const double* sums =
      sums_results_.get() + sums_.size() * slot + static_cast<std::size_t>(kLowerEntries) * k;
  const float* variance =
      variance_results_.get() + variance_.size() * slot + std::size_t{g_.blocks()} * k;
  const bool pivots_ok = verdict_results_[verdicts_.size() * slot + k] != 0;
  return gsm_.fit_solved(sums, band, variance, pivots_ok, static_cast<float>(p_.sigma_nn), out);
}

}  // namespace vqx::speed
