// Integer VIF on the GPU, bit for bit libvmaf's integer_vif.c (and so
// cpu.cpp), by gpu_kernels.cuh's kernels: per scale, stats_kernel's four
// integer sums (added with integer atomics, exact in any order), and
// subsample_kernel's next scale. The host finishes num and den in double
// (scores.cpp, shared with the CPU extractor).
#include <array>
#include <cstdint>

#include "core/index_math.hpp"
#include "gpu/reduce.cuh"
#include "gpu/runtime.hpp"
#include "metrics/vif/gpu.hpp"
#include "metrics/vif/gpu_kernels.cuh"
#include "metrics/vif/params.hpp"
#include "metrics/vif/scores.hpp"

namespace vqx::vif {

namespace {

constexpr const char* kLutName = "vif.log2_q11";
constexpr std::size_t kPitchAlign = 256;

// A stats block's sums into the scale's totals.
struct DeviceSum {
  __device__ void add(unsigned long long* totals, const unsigned long long (&v)[kSums]) const {
    gpu::add_exact_block(totals, 1, v);
  }
};

dim3 grid_for(unsigned w, unsigned h, unsigned tile_w, unsigned tile_h) {
  return {ceil_div(w, tile_w), ceil_div(h, tile_h)};
}

class VifTwin final : public gpu::Twin {
 public:
  VifTwin(const KernelParams& p, bool debug) : params_(p), debug_(debug) {}

  std::vector<gpu::ConstantTable> constant_tables(const PictureFormat& /*fmt*/) override {
    const auto& table = log2_q11_table();
    return {{kLutName, table.data(), table.size() * sizeof(table[0])}};
  }

  Status init(const PictureFormat& fmt, unsigned slots, const gpu::Resources& res) override {
    VQX_RETURN_IF_ERROR(check_format(fmt.width, fmt.height, fmt.bpc));
    fmt_ = fmt;
    VQX_ASSIGN_OR_RETURN(const void* lut, res.constant(kLutName));
    lut_ = static_cast<const std::uint16_t*>(lut);
    for (int s = 1; s < kScaleCount; ++s) {
      Scale& sc = scales_[s];
      sc.w = fmt.width >> s;
      sc.h = fmt.height >> s;
      sc.pitch = round_up(std::size_t{sc.w} * 2, kPitchAlign);
      VQX_ASSIGN_OR_RETURN(sc.ref, gpu::DeviceBuffer<std::uint16_t>::allocate(sc.pitch / 2 * sc.h));
      VQX_ASSIGN_OR_RETURN(sc.dis, gpu::DeviceBuffer<std::uint16_t>::allocate(sc.pitch / 2 * sc.h));
    }
    VQX_ASSIGN_OR_RETURN(sums_,
                         gpu::DeviceBuffer<unsigned long long>::allocate(kScaleCount * kSums));
    VQX_ASSIGN_OR_RETURN(
        results_, gpu::PinnedBuffer<unsigned long long>::allocate(slots * kScaleCount * kSums));
    return Status::Ok();
  }

  Status clear(const gpu::Stream& s) override { return gpu::clear_async(sums_, s); }

  Status launch(const gpu::DeviceFrame& f, unsigned /*index*/, unsigned slot,
                const gpu::Stream& s) override {
    const bool hbd = fmt_.bpc > 8;
    // Scale 0 reads the uploaded luma.
    const void* in_ref = f.ref[0].data;
    const void* in_dis = f.dist[0].data;
    std::size_t pitch_ref = f.ref[0].pitch;
    std::size_t pitch_dis = f.dist[0].pitch;
    for (int scale = 0; scale < kScaleCount; ++scale) {
      const unsigned w = scale == 0 ? fmt_.width : scales_[scale].w;
      const unsigned h = scale == 0 ? fmt_.height : scales_[scale].h;
      if (scale > 0) {
        // Make this scale from the one before.
        const unsigned w_in = scale == 1 ? fmt_.width : scales_[scale - 1].w;
        const unsigned h_in = scale == 1 ? fmt_.height : scales_[scale - 1].h;
        // The filter's vertical rounding is that of the input scale's means.
        const Rounding vertical = mean_rounding(scale - 1, fmt_.bpc);
        const SubsampleArgs sa{.ref = in_ref,
                               .dis = in_dis,
                               .pitch_in_ref = pitch_ref,
                               .pitch_in_dis = pitch_dis,
                               .w_in = static_cast<int>(w_in),
                               .h_in = static_cast<int>(h_in),
                               .ref_out = scales_[scale].ref.get(),
                               .dis_out = scales_[scale].dis.get(),
                               .pitch_out = scales_[scale].pitch,
                               .w_out = static_cast<int>(w),
                               .h_out = static_cast<int>(h),
                               .v_shift = vertical.shift,
                               .v_round = vertical.add};
        const dim3 grid = grid_for(w, h, kSubW, kSubH);
        const dim3 block(kSubThreads);
        if (scale == 1 && !hbd) {
          subsample_kernel<1, std::uint8_t><<<grid, block, 0, s.handle()>>>(sa);
        } else if (scale == 1) {
          subsample_kernel<1, std::uint16_t><<<grid, block, 0, s.handle()>>>(sa);
        } else if (scale == 2) {
          subsample_kernel<2, std::uint16_t><<<grid, block, 0, s.handle()>>>(sa);
        } else {
          subsample_kernel<3, std::uint16_t><<<grid, block, 0, s.handle()>>>(sa);
        }
        VQX_RETURN_IF_ERROR(gpu::check_launch("vif subsample_kernel"));
        in_ref = scales_[scale].ref.get();
        in_dis = scales_[scale].dis.get();
        pitch_ref = pitch_dis = scales_[scale].pitch;
      }
      if (scale == 0 && params_.skip_scale0) continue;

      const Rounding means = mean_rounding(scale, fmt_.bpc);
      const Rounding squares = square_rounding(scale, fmt_.bpc);
      const StatsArgs a{.ref = in_ref,
                        .dis = in_dis,
                        .pitch_ref = pitch_ref,
                        .pitch_dis = pitch_dis,
                        .w = static_cast<int>(w),
                        .h = static_cast<int>(h),
                        .mu_shift = means.shift,
                        .mu_round = means.add,
                        .sq_shift = squares.shift,
                        .sq_round = squares.add,
                        .gain_limit = params_.gain_limit,
                        .lut = lut_,
                        .sums = sums_.get() + scale * kSums};
      const dim3 grid = grid_for(w, h, kStatsW, kStatsH);
      const dim3 block(kStatsThreads);
      switch (scale) {
        case 0:
          if (hbd) {
            stats_kernel<0, std::uint16_t, std::uint64_t>
                <<<grid, block, 0, s.handle()>>>(a, DeviceSum{});
          } else {
            stats_kernel<0, std::uint8_t, std::uint32_t>
                <<<grid, block, 0, s.handle()>>>(a, DeviceSum{});
          }
          break;
        case 1:
          stats_kernel<1, std::uint16_t, std::uint64_t>
              <<<grid, block, 0, s.handle()>>>(a, DeviceSum{});
          break;
        case 2:
          stats_kernel<2, std::uint16_t, std::uint64_t>
              <<<grid, block, 0, s.handle()>>>(a, DeviceSum{});
          break;
        default:
          stats_kernel<3, std::uint16_t, std::uint64_t>
              <<<grid, block, 0, s.handle()>>>(a, DeviceSum{});
          break;
      }
      VQX_RETURN_IF_ERROR(gpu::check_launch("vif stats_kernel"));
    }
    return gpu::copy_to_host_async(&results_[std::size_t{slot} * kScaleCount * kSums], sums_.get(),
                                   sums_.bytes(), s);
  }

  Status collect(unsigned slot, unsigned index, FeatureWriter& out) override {
    const unsigned long long* r = &results_[std::size_t{slot} * kScaleCount * kSums];
    FrameSums sums{};
    for (int scale = 0; scale < kScaleCount; ++scale) {
      if (scale == 0 && params_.skip_scale0) continue;
      const unsigned long long* q = r + scale * kSums;
      sums[scale] = finish_scale(static_cast<std::int64_t>(q[0]), static_cast<std::int64_t>(q[1]),
                                 static_cast<std::int64_t>(q[2]), static_cast<std::int64_t>(q[3]));
    }
    write_scores(sums, params_.skip_scale0, debug_, index, out);
    return Status::Ok();
  }

 private:
  struct Scale {
    unsigned w = 0;
    unsigned h = 0;
    std::size_t pitch = 0;  // bytes
    gpu::DeviceBuffer<std::uint16_t> ref;
    gpu::DeviceBuffer<std::uint16_t> dis;
  };

  KernelParams params_;
  bool debug_;
  PictureFormat fmt_;
  const std::uint16_t* lut_ = nullptr;
  std::array<Scale, kScaleCount> scales_;          // [0] unused: scale 0 is the uploaded luma
  gpu::DeviceBuffer<unsigned long long> sums_;     // kSums per scale
  gpu::PinnedBuffer<unsigned long long> results_;  // the same, per result slot
};

}  // namespace

std::unique_ptr<gpu::Twin> make_twin(const Config& config) {
  return std::make_unique<VifTwin>(config.kernel, config.debug);
}

}  // namespace vqx::vif
