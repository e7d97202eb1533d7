// CAMBI on the GPU, bit for bit the CPU twin (family.cpp, scorer.cpp): per
// pass (the distorted picture at the encoding size; with full_ref the
// reference at the source size), the 10-bit picture and its flatness mask,
// then at each of the 5 scales the mode filter and codes, the contrast
// values and their pooling (gpu_kernels.cuh, gpu_pool_kernels.cuh); the
// host reads back each scale's sums and finishes the score with the CPU's
// own functions (pooled_value, weighted_score, write_scores). Heatmaps are
// written by the host from the distorted pass's values, read back per
// frame. docs/gpu.md says why every step gives the CPU's bits.
#include <array>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

#include "gpu/reduce.cuh"
#include "gpu/runtime.hpp"
#include "metrics/cambi/contrast.hpp"
#include "metrics/cambi/gpu.hpp"
#include "metrics/cambi/gpu_buffers.cuh"
#include "metrics/cambi/gpu_kernels.cuh"
#include "metrics/cambi/gpu_pool_kernels.cuh"
#include "metrics/cambi/heatmap.hpp"
#include "metrics/cambi/pooling.hpp"
#include "metrics/cambi/preprocess.hpp"
#include "metrics/cambi/setup.hpp"
#include "metrics/cambi/spatial.hpp"

namespace vqx::cambi {

namespace {

// The kernels' integer counts on the device: gpu/reduce.cuh's exact
// integer atomics (one per block for the sums; for the histograms one per
// value in the block's shared histogram, then one per bin in the global).
struct DeviceCount {
  __device__ void add(unsigned long long* total, unsigned long long v) const {
    gpu::add_exact_block(total, v);
  }
  __device__ void bump(unsigned* bin) const { gpu::count_one(bin); }
  __device__ void add_to(unsigned* bin, unsigned n) const { gpu::count_add(bin, n); }
};

// One pass's fixed facts.
struct Pass {
  const Geometry* geometry = nullptr;
  std::array<unsigned long long, kScaleCount> k{};  // topk_count() per scale
  int flat_threshold = 0;
};

class CambiTwin final : public gpu::Twin {
 public:
  // Latency-bound also at 4K: its late scales are a few blocks each: 4K 411 -> 418 fps side by side
  // (docs/gpu.md).
  [[nodiscard]] bool overlaps_large_frames() const override { return true; }

  CambiTwin(const Params& params, const ExtractorEnv& env)
      : params_(params), output_files_(env.output_files), reciprocal_(reciprocal_table()) {}

  [[nodiscard]] std::vector<gpu::ConstantTable> constant_tables(
      const PictureFormat& /*fmt*/) override {
    return {{kReciprocalTable, reciprocal_.data(), reciprocal_.size() * sizeof(float)}};
  }

  Status init(const PictureFormat& fmt, unsigned slots, const gpu::Resources& res) override {
    VQX_RETURN_IF_ERROR(validate(fmt));
    fmt_ = fmt;
    VQX_ASSIGN_OR_RETURN(setup_, make_setup(params_, fmt));
    VQX_ASSIGN_OR_RETURN(const void* reciprocal, res.constant(kReciprocalTable));
    reciprocal_device_ = static_cast<const float*>(reciprocal);
    contrast_ = contrast_args(setup_.tables);
    passes_ = params_.full_ref ? kPasses : 1;
    for (unsigned p = 0; p < passes_; ++p) {
      Pass& pass = pass_[p];
      pass.geometry = p == 0 ? &setup_.enc : &setup_.src;
      const Geometry& g = *pass.geometry;
      for (unsigned s = 0; s < kScaleCount; ++s) {
        pass.k[s] = topk_count(std::size_t{g.scale_width[s]} * g.scale_height[s], params_.topk);
      }
      pass.flat_threshold = flat_threshold(g.width, g.height);
    }
    check_range_ = depth_can_overflow(fmt.bpc);
    VQX_RETURN_IF_ERROR(buffers_.allocate(setup_, params_.full_ref, fmt.height));
    VQX_ASSIGN_OR_RETURN(
        sums_, gpu::PinnedBuffer<ScaleSums>::allocate(std::size_t{slots} * kPasses * kScaleCount));
    if (check_range_) {
      VQX_ASSIGN_OR_RETURN(row_max_, gpu::PinnedBuffer<std::uint32_t>::allocate(
                                         std::size_t{slots} * kPasses * fmt.height));
    }
    heatmaps_.reset();
    if (!params_.heatmaps_path.empty()) {
      const Geometry& g = setup_.enc;
      heat_pixels_ = 0;
      for (unsigned s = 0; s < kScaleCount; ++s) {
        heat_offset_[s] = heat_pixels_;
        heat_pixels_ += std::size_t{g.scale_width[s]} * g.scale_height[s];
      }
      VQX_ASSIGN_OR_RETURN(heat_, gpu::PinnedBuffer<float>::allocate(slots * heat_pixels_));
      heatmaps_ = std::make_unique<HeatmapWriter>(output_files_);
      VQX_RETURN_IF_ERROR(
          heatmaps_->open(params_.heatmaps_path, g.width, g.height, g.window, setup_.max_weight));
    }
    positions_written_ = false;
    return Status::Ok();
  }

  Status clear(const gpu::Stream& s) override { return buffers_.clear(s); }

  Status launch(const gpu::DeviceFrame& f, unsigned /*index*/, unsigned slot,
                const gpu::Stream& s) override {
    if (!positions_written_) {
      VQX_RETURN_IF_ERROR(write_positions(s));
      positions_written_ = true;
    }
    for (unsigned p = 0; p < passes_; ++p) {
      const gpu::DevicePlane& plane = p == 0 ? f.dist[0] : f.ref[0];
      const LumaPlane luma{static_cast<const std::uint8_t*>(plane.data), plane.pitch, plane.width,
                           plane.height};
      if (fmt_.bpc == 8) {
        VQX_RETURN_IF_ERROR(picture<std::uint8_t>(p, luma, s));
      } else {
        VQX_RETURN_IF_ERROR(picture<std::uint16_t>(p, luma, s));
      }
      VQX_RETURN_IF_ERROR(scales(p, slot, s));
    }
    if (check_range_) {
      VQX_RETURN_IF_ERROR(gpu::copy_to_host_async(
          row_max_.get() + std::size_t{slot} * kPasses * fmt_.height, buffers_.row_max.get(),
          std::size_t{passes_} * fmt_.height * sizeof(std::uint32_t), s));
    }
    return gpu::copy_to_host_async(sums_.get() + std::size_t{slot} * kPasses * kScaleCount,
                                   buffers_.sums.get(),
                                   std::size_t{passes_} * kScaleCount * sizeof(ScaleSums), s);
  }

  Status collect(unsigned slot, unsigned index, FeatureWriter& out) override {
    std::array<double, kPasses> score{};
    for (unsigned p = 0; p < passes_; ++p) {
      // The CPU's range check (to_10bit), in its order: the distorted
      // picture's rows, then the reference's.
      if (check_range_) {
        const std::uint32_t* rows =
            row_max_.get() + (std::size_t{slot} * kPasses + p) * fmt_.height;
        const std::uint32_t limit = (1U << fmt_.bpc) - 1;
        for (unsigned y = 0; y < fmt_.height; ++y) {
          if (rows[y] > limit) return sample_above_depth(fmt_.bpc, rows[y]);
        }
      }
      const ScaleSums* sums = sums_.get() + (std::size_t{slot} * kPasses + p) * kScaleCount;
      std::array<double, kScaleCount> pooled{};
      for (unsigned s = 0; s < kScaleCount; ++s) pooled[s] = pooled_value(sums[s], pass_[p].k[s]);
      score[p] = weighted_score(pooled, pass_[p].geometry->window);
      if (p == 0 && heatmaps_) VQX_RETURN_IF_ERROR(write_heatmaps(slot, index));
    }
    write_scores(params_, index, score[0], score[1], out);
    return Status::Ok();
  }

  Status flush(FeatureWriter& /*out*/) override {
    return heatmaps_ ? heatmaps_->close() : Status::Ok();
  }

 private:
  static constexpr const char* kReciprocalTable = "cambi reciprocal_lut";

  static Status launched(const char* kernel) { return gpu::check_launch(kernel); }

  // The sample positions of each resampled pass, once per context.
  Status write_positions(const gpu::Stream& s) const {
    for (unsigned p = 0; p < passes_; ++p) {
      const Geometry& g = *pass_[p].geometry;
      if (g.xs.empty()) continue;
      positions_kernel<<<1, 1, 0, s.handle()>>>(g.in_width, g.width, buffers_.xs[p].get());
      VQX_RETURN_IF_ERROR(launched("cambi positions_kernel"));
      positions_kernel<<<1, 1, 0, s.handle()>>>(g.in_height, g.height, buffers_.ys[p].get());
      VQX_RETURN_IF_ERROR(launched("cambi positions_kernel"));
    }
    return Status::Ok();
  }

  // The range check, the 10-bit picture and its mask, and scale 0's
  // picture and mask.
  template <typename Sample>
  Status picture(unsigned p, const LumaPlane& luma, const gpu::Stream& s) const {
    const Geometry& g = *pass_[p].geometry;
    if (check_range_) {
      row_lanes_kernel<Sample>
          <<<dim3(1, pixel_blocks_y(fmt_.height)), dim3(kPixelThreadsX, kPixelThreadsY), 0,
             s.handle()>>>(luma, buffers_.row_lanes.get());
      VQX_RETURN_IF_ERROR(launched("cambi row_lanes_kernel"));
      row_max_kernel<<<ceil_div(fmt_.height, kRowThreads), kRowThreads, 0, s.handle()>>>(
          buffers_.row_lanes.get(), fmt_.height,
          buffers_.row_max.get() + std::size_t{p} * fmt_.height);
      VQX_RETURN_IF_ERROR(launched("cambi row_max_kernel"));
    }
    const unsigned w = g.width;
    const unsigned h = g.height;
    std::uint16_t* full = g.half_first ? buffers_.full.get() : buffers_.img[0].get();
    std::uint8_t* mask = g.half_first ? buffers_.full_mask.get() : buffers_.mask[0].get();
    const dim3 grid(pixel_blocks_x(w), pixel_blocks_y(h));
    const dim3 block(kPixelThreadsX, kPixelThreadsY);
    const PreprocessArgs pre{luma,
                             TenBit(fmt_.bpc),
                             g.xs.empty() ? nullptr : buffers_.xs[p].get(),
                             g.xs.empty() ? nullptr : buffers_.ys[p].get(),
                             w,
                             h,
                             setup_.anti_dither,
                             full};
    preprocess_kernel<Sample><<<grid, block, 0, s.handle()>>>(pre);
    VQX_RETURN_IF_ERROR(launched("cambi preprocess_kernel"));
    derivative_kernel<<<grid, block, 0, s.handle()>>>(full, w, h, buffers_.flags.get());
    VQX_RETURN_IF_ERROR(launched("cambi derivative_kernel"));
    const dim3 mask_grid(pixel_blocks_x(w), ceil_div(h, kMaskRows));
    mask_kernel<<<mask_grid, block, 0, s.handle()>>>(buffers_.flags.get(), w, h,
                                                     pass_[p].flat_threshold, mask);
    VQX_RETURN_IF_ERROR(launched("cambi mask_kernel"));
    if (g.half_first) {
      const dim3 half(pixel_blocks_x((w + 1) / 2), pixel_blocks_y((h + 1) / 2));
      decimate_kernel<std::uint16_t>
          <<<half, block, 0, s.handle()>>>(full, w, h, buffers_.img[0].get());
      VQX_RETURN_IF_ERROR(launched("cambi decimate_kernel"));
      decimate_kernel<std::uint8_t>
          <<<half, block, 0, s.handle()>>>(mask, w, h, buffers_.mask[0].get());
      VQX_RETURN_IF_ERROR(launched("cambi decimate_kernel"));
    }
    return Status::Ok();
  }

  // The scales: codes, values, pooling; the distorted pass's values read
  // back for the heatmaps.
  Status scales(unsigned p, unsigned slot, const gpu::Stream& s) const {
    const Geometry& g = *pass_[p].geometry;
    const DeviceCount count;
    for (unsigned sc = 0; sc < kScaleCount; ++sc) {
      const unsigned w = g.scale_width[sc];
      const unsigned h = g.scale_height[sc];
      const bool last = sc + 1 == kScaleCount;
      const ModeArgs mode{buffers_.img[sc].get(),
                          buffers_.mask[sc].get(),
                          w,
                          h,
                          contrast_.band_base,
                          contrast_.band_size,
                          buffers_.codes.get(),
                          last ? nullptr : buffers_.img[sc + 1].get(),
                          last ? nullptr : buffers_.mask[sc + 1].get()};
      mode_codes_kernel<<<dim3(pixel_blocks_x(w), pixel_blocks_y(h)),
                          dim3(kPixelThreadsX, kPixelThreadsY), 0, s.handle()>>>(mode);
      VQX_RETURN_IF_ERROR(launched("cambi mode_codes_kernel"));
      const ValueArgs values{buffers_.codes.get(),
                             w,
                             h,
                             g.window / 2,
                             reciprocal_device_,
                             buffers_.values.get(),
                             buffers_.sums_of(p, sc),
                             buffers_.buckets_of(p, sc)};
      VQX_RETURN_IF_ERROR(launch_values(values, s, count));
      if (p == 0 && heatmaps_) {
        VQX_RETURN_IF_ERROR(
            gpu::copy_to_host_async(heat_.get() + slot * heat_pixels_ + heat_offset_[sc],
                                    buffers_.values.get(), std::size_t{w} * h * sizeof(float), s));
      }
      const PoolArgs pool{buffers_.sums_of(p, sc), buffers_.buckets_of(p, sc),
                          buffers_.low_of(p, sc),  buffers_.values.get(),
                          std::size_t{w} * h,      pass_[p].k[sc]};
      split_kernel<<<1, kPoolThreads, 0, s.handle()>>>(pool);
      VQX_RETURN_IF_ERROR(launched("cambi split_kernel"));
      const unsigned pass2_blocks = ceil_div(w * h, kPass2Threads);
      pass2_kernel<DeviceCount><<<pass2_blocks, kPass2Threads, 0, s.handle()>>>(pool, count);
      VQX_RETURN_IF_ERROR(launched("cambi pass2_kernel"));
      finish_kernel<DeviceCount><<<1, kPoolThreads, 0, s.handle()>>>(pool, count);
      VQX_RETURN_IF_ERROR(launched("cambi finish_kernel"));
      ordered_kernel<<<1, 1, 0, s.handle()>>>(pool);
      VQX_RETURN_IF_ERROR(launched("cambi ordered_kernel"));
    }
    return Status::Ok();
  }

  // values_kernel for this configuration's num_diffs.
  Status launch_values(const ValueArgs& a, const gpu::Stream& s, const DeviceCount& count) const {
    const dim3 grid(tile_blocks_x(a.width), tile_blocks_y(a.height));
    const dim3 block(kPixelThreadsX, kValueThreadsY);
    switch (setup_.tables.num_diffs) {
      case 1:
        values_kernel<1><<<grid, block, 0, s.handle()>>>(a, contrast_, count);
        break;
      case 2:
        values_kernel<2><<<grid, block, 0, s.handle()>>>(a, contrast_, count);
        break;
      case 4:
        values_kernel<4><<<grid, block, 0, s.handle()>>>(a, contrast_, count);
        break;
      case 8:
        values_kernel<8><<<grid, block, 0, s.handle()>>>(a, contrast_, count);
        break;
      case 16:
        values_kernel<16><<<grid, block, 0, s.handle()>>>(a, contrast_, count);
        break;
      default:
        values_kernel<kMaxDiffs><<<grid, block, 0, s.handle()>>>(a, contrast_, count);
        break;
    }
    return launched("cambi values_kernel");
  }

  // The distorted picture's contrast values of every scale, as the CPU
  // writes them (row by row, scale by scale).
  Status write_heatmaps(unsigned slot, unsigned index) {
    const Geometry& g = setup_.enc;
    for (unsigned sc = 0; sc < kScaleCount; ++sc) {
      const unsigned w = g.scale_width[sc];
      const unsigned h = g.scale_height[sc];
      const float* values = heat_.get() + slot * heat_pixels_ + heat_offset_[sc];
      for (unsigned i = 0; i < h; ++i) {
        VQX_RETURN_IF_ERROR(heatmaps_->write_row(sc, index, i, w, h, values + std::size_t{i} * w));
      }
    }
    return Status::Ok();
  }

  Params params_;
  std::shared_ptr<OutputFiles> output_files_;
  std::vector<float> reciprocal_;  // the host copy the pipeline uploads
  const float* reciprocal_device_ = nullptr;
  PictureFormat fmt_;
  Setup setup_;
  ContrastArgs contrast_{};
  unsigned passes_ = 1;
  std::array<Pass, kPasses> pass_{};
  bool check_range_ = false;
  bool positions_written_ = false;
  DeviceBuffers buffers_;
  gpu::PinnedBuffer<ScaleSums> sums_;         // per slot: kPasses x kScaleCount
  gpu::PinnedBuffer<std::uint32_t> row_max_;  // per slot: kPasses x input rows
  gpu::PinnedBuffer<float> heat_;             // per slot: every scale's values (heatmaps)
  std::size_t heat_pixels_ = 0;
  std::array<std::size_t, kScaleCount> heat_offset_{};
  std::unique_ptr<HeatmapWriter> heatmaps_;
};

}  // namespace

std::unique_ptr<gpu::Twin> make_twin(const Params& params, const ExtractorEnv& env) {
  return std::make_unique<CambiTwin>(params, env);
}

}  // namespace vqx::cambi
