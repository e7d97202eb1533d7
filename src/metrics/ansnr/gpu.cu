// float_ansnr on the GPU, bit for bit the CPU twin (cpu.cpp): the filtered
// energies' terms per sample, each row's float sums in column order
// (gpu_kernels.cuh), the row sums read back; the host adds the rows in
// order and writes the values with the CPU's own code (scores.cpp).
// docs/gpu.md, "The float_ansnr twin", says why every step gives the CPU's
// bits.
#include <cstdint>
#include <memory>

#include "core/index_math.hpp"
#include "gpu/runtime.hpp"
#include "metrics/ansnr/gpu.hpp"
#include "metrics/ansnr/gpu_kernels.cuh"
#include "metrics/ansnr/scores.hpp"
#include "metrics/float_psnr/params.hpp"

namespace vqx::ansnr {

namespace {

class AnsnrTwin final : public gpu::Twin {
 public:
  // Latency-bound also at 4K: each row is summed by one thread: 4K 495 -> 1134 fps side by side
  // (docs/gpu.md).
  [[nodiscard]] bool overlaps_large_frames() const override { return true; }

  Status init(const PictureFormat& fmt, unsigned slots, const gpu::Resources& /*res*/) override {
    VQX_RETURN_IF_ERROR(validate(fmt));
    VQX_RETURN_IF_ERROR(check_size(fmt));
    fmt_ = fmt;
    filters_ = filters();
    pitch_ = round_up(std::size_t{fmt.width}, kPitchFloats);
    const std::size_t plane = pitch_ * fmt.height;
    VQX_ASSIGN_OR_RETURN(terms_, gpu::DeviceBuffer<float>::allocate(2 * plane));
    VQX_ASSIGN_OR_RETURN(rows_, gpu::DeviceBuffer<float>::allocate(2 * std::size_t{fmt.height}));
    VQX_ASSIGN_OR_RETURN(results_,
                         gpu::PinnedBuffer<float>::allocate(std::size_t{slots} * 2 * fmt.height));
    return Status::Ok();
  }

  // No accumulator: the term planes and the row sums are written in full
  // every frame before they are read.
  Status clear(const gpu::Stream& /*s*/) override { return Status::Ok(); }

  Status launch(const gpu::DeviceFrame& f, unsigned /*index*/, unsigned slot,
                const gpu::Stream& s) override {
    if (fmt_.bpc == 8) {
      VQX_RETURN_IF_ERROR(terms_of<std::uint8_t>(f, s));
    } else {
      VQX_RETURN_IF_ERROR(terms_of<std::uint16_t>(f, s));
    }
    const int w = static_cast<int>(fmt_.width);
    const int h = static_cast<int>(fmt_.height);
    rows_kernel<<<ceil_div(fmt_.height, kRowsPerBlock), kRowBlockThreads, 0, s.handle()>>>(
        planes(), w, h, rows_.get(), rows_.get() + fmt_.height);
    VQX_RETURN_IF_ERROR(gpu::check_launch("float_ansnr rows_kernel"));
    const std::size_t per_slot = 2 * std::size_t{fmt_.height};
    return gpu::copy_to_host_async(results_.get() + per_slot * slot, rows_.get(),
                                   per_slot * sizeof(float), s);
  }

  Status collect(unsigned slot, unsigned index, FeatureWriter& out) override {
    const std::size_t per_slot = 2 * std::size_t{fmt_.height};
    const float* signal = results_.get() + per_slot * slot;
    const float* noise = signal + fmt_.height;
    Energies total{0.0F, 0.0F};
    for (unsigned y = 0; y < fmt_.height; ++y) add_row(total, {signal[y], noise[y]});
    write_scores(total, fmt_, index, out);
    return Status::Ok();
  }

 private:
  static constexpr std::size_t kPitchFloats = 64;  // rows start 256 bytes apart

  [[nodiscard]] TermPlanes planes() const {
    const std::size_t plane = pitch_ * fmt_.height;
    return {terms_.get(), terms_.get() + plane, pitch_};
  }

  template <typename Sample>
  Status terms_of(const gpu::DeviceFrame& f, const gpu::Stream& s) {
    const float inv_scale = float_psnr::inv_sample_scale(fmt_.bpc);
    const LumaView<Sample> ref{static_cast<const std::uint8_t*>(f.ref[0].data), f.ref[0].pitch,
                               inv_scale};
    const LumaView<Sample> dis{static_cast<const std::uint8_t*>(f.dist[0].data), f.dist[0].pitch,
                               inv_scale};
    const dim3 grid(ceil_div(fmt_.width, kTermsX), ceil_div(fmt_.height, kTermsY));
    terms_kernel<LumaView<Sample>><<<grid, dim3(kTermsX, kTermsY), 0, s.handle()>>>(
        ref, dis, filters_, static_cast<int>(fmt_.width), static_cast<int>(fmt_.height), planes());
    return gpu::check_launch("float_ansnr terms_kernel");
  }

  PictureFormat fmt_;
  Filters filters_{};
  std::size_t pitch_ = 0;
  gpu::DeviceBuffer<float> terms_;    // the signal plane, then the noise plane
  gpu::DeviceBuffer<float> rows_;     // the rows' signal sums, then their noise sums
  gpu::PinnedBuffer<float> results_;  // per result slot: rows_'s copy
};

}  // namespace

std::unique_ptr<gpu::Twin> make_twin() { return std::make_unique<AnsnrTwin>(); }

}  // namespace vqx::ansnr
