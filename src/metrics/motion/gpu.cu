// Integer motion on the GPU: the blurred-difference SAD of cpu.cpp, bit for
// bit, by gpu_kernels.cuh's sad_kernel into the frame's 64-bit total (integer
// atomics, exact in any order). The state, the previous frames' luma, is
// kept on the device by a device-to-device copy.
// The temporal bookkeeping is series.cpp, shared with the CPU extractor.
#include <cstdint>
#include <vector>

#include "core/index_math.hpp"
#include "gpu/reduce.cuh"
#include "gpu/runtime.hpp"
#include "metrics/motion/gpu.hpp"
#include "metrics/motion/gpu_kernels.cuh"
#include "metrics/motion/series.hpp"

namespace vqx::motion {

namespace {

constexpr std::size_t kPitchAlign = 256;

// The kernel's sum of a block into the frame's total.
struct DeviceSum {
  __device__ void add(unsigned long long* total, unsigned long long v) const {
    gpu::add_exact_block(total, v);
  }
};

class MotionTwin final : public gpu::Twin {
 public:
  explicit MotionTwin(const Params& p) : params_(p), lag_(p.lag()), series_(p) {}

  Status init(const PictureFormat& fmt, unsigned slots, const gpu::Resources& /*res*/) override {
    if (fmt.width < kMinDimension || fmt.height < kMinDimension) {
      return Error(Errc::kUnsupported, "motion: picture " + std::to_string(fmt.width) + "x" +
                                           std::to_string(fmt.height) + " is too small (at least " +
                                           std::to_string(kMinDimension) + "x" +
                                           std::to_string(kMinDimension) + " is needed)");
    }
    fmt_ = fmt;
    pitch_ = round_up(std::size_t{fmt.width} * fmt.bytes_per_sample(), kPitchAlign);
    history_ = std::vector<gpu::DeviceBuffer<std::uint8_t>>();
    if (!params_.force_zero) {
      for (unsigned i = 0; i < lag_; ++i) {
        VQX_ASSIGN_OR_RETURN(auto b,
                             gpu::DeviceBuffer<std::uint8_t>::allocate(pitch_ * fmt.height));
        history_.push_back(std::move(b));
      }
      VQX_ASSIGN_OR_RETURN(total_, gpu::DeviceBuffer<unsigned long long>::allocate(1));
      VQX_ASSIGN_OR_RETURN(results_, gpu::PinnedBuffer<unsigned long long>::allocate(slots));
    }
    series_.reset();
    return Status::Ok();
  }

  Status clear(const gpu::Stream& s) override {
    if (params_.force_zero) return Status::Ok();
    return gpu::clear_async(total_, s);
  }

  Status launch(const gpu::DeviceFrame& f, unsigned index, unsigned slot,
                const gpu::Stream& s) override {
    if (params_.force_zero) return Status::Ok();
    const gpu::DevicePlane& cur = f.ref[0];
    std::uint8_t* kept = history_[index % lag_].get();
    const int w = static_cast<int>(fmt_.width);
    const int h = static_cast<int>(fmt_.height);
    if (index >= lag_) {
      const dim3 grid(ceil_div(fmt_.width, unsigned{kSadCols}),
                      ceil_div(fmt_.height, unsigned{kSadRows}));
      const SadArgs args{kept,        pitch_, cur.data, cur.pitch, w, h, static_cast<int>(fmt_.bpc),
                         total_.get()};
      if (fmt_.bpc == 8) {
        sad_kernel<std::uint8_t><<<grid, kSadThreads, 0, s.handle()>>>(args, DeviceSum{});
      } else {
        sad_kernel<std::uint16_t><<<grid, kSadThreads, 0, s.handle()>>>(args, DeviceSum{});
      }
      VQX_RETURN_IF_ERROR(gpu::check_launch("motion sad_kernel"));
      VQX_RETURN_IF_ERROR(
          gpu::copy_to_host_async(&results_[slot], total_.get(), sizeof(unsigned long long), s));
    }
    // This frame's luma becomes the state that frame index + lag reads.
    return gpu::copy_rows_on_device_async(kept, pitch_, cur.data, cur.pitch,
                                          std::size_t{fmt_.width} * fmt_.bytes_per_sample(),
                                          fmt_.height, s);
  }

  Status collect(unsigned slot, unsigned index, FeatureWriter& out) override {
    double sad = 0.0;
    if (!params_.force_zero && index >= lag_) {
      sad = sad_score(results_[slot], fmt_.width, fmt_.height, params_);
    }
    series_.add(index, sad, out);
    return Status::Ok();
  }

  Status flush(FeatureWriter& out) override {
    series_.flush(out);
    return Status::Ok();
  }

 private:
  Params params_;
  unsigned lag_;
  Series series_;
  PictureFormat fmt_;
  std::size_t pitch_ = 0;
  std::vector<gpu::DeviceBuffer<std::uint8_t>> history_;  // luma of frame i at i % lag
  gpu::DeviceBuffer<unsigned long long> total_;           // the frame's SAD sum
  gpu::PinnedBuffer<unsigned long long> results_;         // per result slot
};

}  // namespace

std::unique_ptr<gpu::Twin> make_twin(const Params& params) {
  return std::make_unique<MotionTwin>(params);
}

}  // namespace vqx::motion
