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
      const unsigned w = fmt.width >> s;
      const unsigned h = fmt.height >> s;
      sc.pitch = round_up(std::size_t{w} * 2, kPitchAlign);
      VQX_ASSIGN_OR_RETURN(sc.ref, gpu::DeviceBuffer<std::uint16_t>::allocate(sc.pitch / 2 * h));
      VQX_ASSIGN_OR_RETURN(sc.dis, gpu::DeviceBuffer<std::uint16_t>::allocate(sc.pitch / 2 * h));
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
    // Scale 0 reads the uploaded luma; each next scale is made from the one
    // before.
    ScalePlanes in{.ref = f.ref[0].data,
                   .dis = f.dist[0].data,
                   .pitch_ref = f.ref[0].pitch,
                   .pitch_dis = f.dist[0].pitch,
                   .w = static_cast<int>(fmt_.width),
                   .h = static_cast<int>(fmt_.height)};
    for (int scale = 0; scale < kScaleCount; ++scale) {
      if (scale > 0) {
        Scale& out = scales_[scale];
        const SubsampleArgs sa =
            subsample_args(scale, fmt_.bpc, in, out.ref.get(), out.dis.get(), out.pitch);
        const SubsampleKernel subsample = subsample_kernel_for(scale, fmt_.bpc);
        subsample<<<subsample_grid(sa), kSubThreads, 0, s.handle()>>>(sa);
        VQX_RETURN_IF_ERROR(gpu::check_launch("vif subsample_kernel"));
        in = {.ref = out.ref.get(),
              .dis = out.dis.get(),
              .pitch_ref = out.pitch,
              .pitch_dis = out.pitch,
              .w = sa.w_out,
              .h = sa.h_out};
      }
      if (scale == 0 && params_.skip_scale0) continue;
      const StatsArgs a =
          stats_args(scale, fmt_.bpc, in, params_.gain_limit, lut_, sums_.get() + scale * kSums);
      const StatsKernel<DeviceSum> stats = stats_kernel_for<DeviceSum>(scale, fmt_.bpc);
      stats<<<stats_grid(a), kStatsThreads, 0, s.handle()>>>(a, DeviceSum{});
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
