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
  layout_.band = sizeof(double) * static_cast<std::size_t>(kLowerEntries) * pictures;
  layout_.variance = layout_.band + sizeof(float) * floats;
  layout_.verdicts = layout_.variance + sizeof(float) * g.blocks() * pictures;
  layout_.bytes = round_up(layout_.verdicts + sizeof(int) * pictures, sizeof(double));
  VQX_ASSIGN_OR_RETURN(decimated_, gpu::DeviceBuffer<float>::allocate(floats));
  VQX_ASSIGN_OR_RETURN(factors_, gpu::DeviceBuffer<float>::allocate(kFactorFloats * pictures));
  VQX_ASSIGN_OR_RETURN(results_, gpu::DeviceBuffer<unsigned char>::allocate(layout_.bytes));
  VQX_ASSIGN_OR_RETURN(readback_,
                       gpu::PinnedBuffer<unsigned char>::allocate(layout_.bytes * slots));
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
  unsigned char* out = results_.get();
  float* band = part<float>(out, layout_.band);
  double* sums = part<double>(out, 0);
  band_kernel<kBandThreads>
      <<<grid, kBandThreads, 0, s.handle()>>>(decimated_.get(), blur_, shape, band);
  VQX_RETURN_IF_ERROR(gpu::check_launch(band_name_.c_str()));
  stats_kernel<kStatsThreads><<<pictures_, kStatsThreads, 0, s.handle()>>>(band, shape, sums);
  VQX_RETURN_IF_ERROR(gpu::check_launch(stats_name_.c_str()));
  qr_kernel<kQrThreads><<<pictures_, kQrThreads, 0, s.handle()>>>(sums, shape, factors_.get(),
                                                                  part<int>(out, layout_.verdicts));
  VQX_RETURN_IF_ERROR(gpu::check_launch(qr_name_.c_str()));
  const dim3 solve_grid(ceil_div(g_.blocks(), kSolveThreads), pictures_);
  solve_kernel<kSolveThreads><<<solve_grid, kSolveThreads, 0, s.handle()>>>(
      band, factors_.get(), shape, static_cast<int>(g_.blocks_x), static_cast<int>(g_.blocks()),
      part<float>(out, layout_.variance));
  VQX_RETURN_IF_ERROR(gpu::check_launch(solve_name_.c_str()));
  return gpu::copy_to_host_async(readback_.get() + layout_.bytes * slot, out, layout_.bytes, s);
}

Status GpuBand::launch(const FramePictures& pictures, unsigned slot, const gpu::Stream& s) {
  return bpc_ == 8 ? launch_as<std::uint8_t>(pictures, slot, s)
                   : launch_as<std::uint16_t>(pictures, slot, s);
}

bool GpuBand::fit(unsigned slot, unsigned k, BlockStats& out) {
  unsigned char* in = readback_.get() + layout_.bytes * slot;
  const double* sums = part<double>(in, 0) + static_cast<std::size_t>(kLowerEntries) * k;
  const float* band = part<float>(in, layout_.band) + picture_floats_ * k;
  const float* variance = part<float>(in, layout_.variance) + std::size_t{g_.blocks()} * k;
  const bool pivots_ok = part<int>(in, layout_.verdicts)[k] != 0;
  return gsm_.fit_solved(sums, band, variance, pivots_ok, static_cast<float>(p_.sigma_nn), out);
}

}  // namespace vqx::speed
