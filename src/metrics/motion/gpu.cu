// Integer motion on the GPU: the blurred-difference SAD of cpu.cpp, bit for
// bit. One block filters a segment of 8 rows: per row, the vertical 5-tap
// pass of prev - cur for the segment and its 2-column borders into shared
// memory, then the horizontal pass and |.|; the block's sum is added to the
// frame's 64-bit total with an integer atomic (exact in any order). The state, the
// previous frames' luma, is kept on the device by a device-to-device copy.
// The temporal bookkeeping is series.cpp, shared with the CPU extractor.
#include <cstdint>
#include <vector>

#include "core/index_math.hpp"
#include "gpu/reduce.cuh"
#include "gpu/runtime.hpp"
#include "metrics/motion/gpu.hpp"
#include "metrics/motion/series.hpp"

namespace vqx::motion {

namespace {

constexpr unsigned kTile = 128;  // columns per block (a multiple of 32 and 64)
constexpr int kRowsPerBlock = 8;
constexpr std::size_t kPitchAlign = 256;

constexpr int kTapCount = static_cast<int>(kTaps.size());  // 2 * kRadius + 1
__constant__ std::int32_t c_taps[kTapCount] = {kTaps[0], kTaps[1], kTaps[2], kTaps[3], kTaps[4]};

template <typename Sample>
__device__ const Sample* row_of(const void* base, std::size_t pitch, int y) {
  return reinterpret_cast<const Sample*>(static_cast<const std::uint8_t*>(base) + pitch * y);
}

template <typename Sample>
__global__ void sad_kernel(const void* prev, std::size_t prev_pitch, const void* cur,
                           std::size_t cur_pitch, int w, int h, int bpc,
                           unsigned long long* total) {
  __shared__ std::int32_t vert[kTile + 2 * kRadius];
  const int x0 = static_cast<int>(blockIdx.x * kTile);
  const std::int64_t round_v = vertical_round<std::int64_t>(static_cast<unsigned>(bpc));
  unsigned long long v = 0;
  for (int r = 0; r < kRowsPerBlock; ++r) {
    const int y = static_cast<int>(blockIdx.y) * kRowsPerBlock + r;
    if (y >= h) break;  // the same for the whole block
    // Vertical pass for columns x0 - 2 .. x0 + kTile + 1 (reflect101).
    for (int i = static_cast<int>(threadIdx.x); i < static_cast<int>(kTile) + 2 * kRadius;
         i += static_cast<int>(blockDim.x)) {
      const int x = x0 - kRadius + i;
      if (x >= w + kRadius) break;
      const int xr = reflect101(x, w);
      std::int64_t acc = 0;
      for (int k = 0; k < kTapCount; ++k) {
        const int yr = reflect101(y - kRadius + k, h);
        const std::int32_t d = static_cast<std::int32_t>(row_of<Sample>(prev, prev_pitch, yr)[xr]) -
                               static_cast<std::int32_t>(row_of<Sample>(cur, cur_pitch, yr)[xr]);
        acc += std::int64_t{c_taps[k]} * d;
      }
      vert[i] = static_cast<std::int32_t>((acc + round_v) >> bpc);
    }
    __syncthreads();
    const int x = x0 + static_cast<int>(threadIdx.x);
    if (x < w) {
      std::int64_t acc = 0;
      for (int k = 0; k < kTapCount; ++k) acc += std::int64_t{c_taps[k]} * vert[threadIdx.x + k];
      const auto val = static_cast<std::int32_t>((acc + kHorizontalRound) >> kHorizontalShift);
      v += static_cast<unsigned long long>(val < 0 ? -val : val);
    }
    __syncthreads();  // vert is rewritten for the next row
  }
  vqx::gpu::add_exact_block(total, v);
}

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
      const dim3 grid(ceil_div(fmt_.width, kTile), ceil_div(fmt_.height, unsigned{kRowsPerBlock}));
      if (fmt_.bpc == 8) {
        sad_kernel<std::uint8_t><<<grid, kTile, 0, s.handle()>>>(
            kept, pitch_, cur.data, cur.pitch, w, h, static_cast<int>(fmt_.bpc), total_.get());
      } else {
        sad_kernel<std::uint16_t><<<grid, kTile, 0, s.handle()>>>(
            kept, pitch_, cur.data, cur.pitch, w, h, static_cast<int>(fmt_.bpc), total_.get());
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
