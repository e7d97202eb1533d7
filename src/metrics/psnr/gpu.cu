// Integer PSNR on the GPU: each plane's sum of squared differences, exact
// (64-bit integers, one integer atomic per block), then the scores on the
// host by series.cpp, shared with the CPU extractor.
#include <array>
#include <cstdint>

#include "core/index_math.hpp"
#include "gpu/reduce.cuh"
#include "gpu/runtime.hpp"
#include "metrics/psnr/gpu.hpp"
#include "metrics/psnr/series.hpp"

namespace vqx::psnr {

namespace {

constexpr unsigned kThreads = 256;  // columns per block (a multiple of 32 and 64)
constexpr int kRowsPerBlock = 8;

template <typename Sample>
__global__ void __launch_bounds__(kThreads)
    sse_kernel(gpu::DevicePlane ref, gpu::DevicePlane dist, unsigned long long* total) {
  const unsigned x = blockIdx.x * kThreads + threadIdx.x;
  unsigned long long v = 0;
  for (int r = 0; r < kRowsPerBlock; ++r) {
    const unsigned y = blockIdx.y * kRowsPerBlock + static_cast<unsigned>(r);
    if (y >= ref.height || x >= ref.width) continue;
    const auto* a =
        reinterpret_cast<const Sample*>(static_cast<const std::uint8_t*>(ref.data) + ref.pitch * y);
    const auto* b = reinterpret_cast<const Sample*>(static_cast<const std::uint8_t*>(dist.data) +
                                                    dist.pitch * y);
    const std::int64_t d = static_cast<std::int64_t>(a[x]) - static_cast<std::int64_t>(b[x]);
    v += static_cast<unsigned long long>(d * d);
  }
  vqx::gpu::add_exact_block(total, v);
}

class PsnrTwin final : public gpu::Twin {
 public:
  explicit PsnrTwin(const Params& p) : series_(p) {}

  [[nodiscard]] unsigned planes_needed(const PictureFormat& fmt) const override {
    Series s = series_;
    s.start(fmt);
    return s.planes();
  }

  Status init(const PictureFormat& fmt, unsigned slots, const gpu::Resources& /*res*/) override {
    VQX_RETURN_IF_ERROR(validate(fmt));
    fmt_ = fmt;
    series_.start(fmt);
    for (unsigned p = 0; p < 3; ++p) {
      width_[p] = fmt.plane_width(p);
      height_[p] = fmt.plane_height(p);
    }
    VQX_ASSIGN_OR_RETURN(sse_, gpu::DeviceBuffer<unsigned long long>::allocate(3));
    VQX_ASSIGN_OR_RETURN(results_, gpu::PinnedBuffer<unsigned long long>::allocate(3 * slots));
    return Status::Ok();
  }

  Status clear(const gpu::Stream& s) override { return gpu::clear_async(sse_, s); }

  Status launch(const gpu::DeviceFrame& f, unsigned /*index*/, unsigned slot,
                const gpu::Stream& s) override {
    for (unsigned p = 0; p < series_.planes(); ++p) {
      const dim3 grid(ceil_div(width_[p], kThreads), ceil_div(height_[p], unsigned{kRowsPerBlock}));
      if (fmt_.bpc == 8) {
        sse_kernel<std::uint8_t>
            <<<grid, kThreads, 0, s.handle()>>>(f.ref[p], f.dist[p], sse_.get() + p);
      } else {
        sse_kernel<std::uint16_t>
            <<<grid, kThreads, 0, s.handle()>>>(f.ref[p], f.dist[p], sse_.get() + p);
      }
      VQX_RETURN_IF_ERROR(gpu::check_launch("psnr sse_kernel"));
    }
    return gpu::copy_to_host_async(&results_[std::size_t{slot} * 3], sse_.get(), sse_.bytes(), s);
  }

  Status collect(unsigned slot, unsigned index, FeatureWriter& out) override {
    const std::array<std::uint64_t, 3> sse = {results_[std::size_t{slot} * 3],
                                              results_[std::size_t{slot} * 3 + 1],
                                              results_[std::size_t{slot} * 3 + 2]};
    series_.add(index, sse, width_, height_, out);
    return Status::Ok();
  }

  Status flush(FeatureWriter& out) override {
    series_.flush(out);
    return Status::Ok();
  }

 private:
  Series series_;
  PictureFormat fmt_;
  std::array<unsigned, 3> width_{};
  std::array<unsigned, 3> height_{};
  gpu::DeviceBuffer<unsigned long long> sse_;      // per plane
  gpu::PinnedBuffer<unsigned long long> results_;  // the same, per result slot
};

}  // namespace

std::unique_ptr<gpu::Twin> make_twin(const Params& params) {
  return std::make_unique<PsnrTwin>(params);
}

}  // namespace vqx::psnr
