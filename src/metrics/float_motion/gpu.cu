// float_motion on the GPU, bit for bit the CPU twin (family.cpp): each
// frame's reference planes (the luma, and the chroma with motion_add_uv)
// blurred (filter_kernel<1>) into one of two kept entries on the device,
// halved with motion_add_scale1 (resample_kernel, bilinear, its tables
// uploaded once by the pipeline); from frame 1 on, the rows' sums of
// |previous - current| (row_abs_difference_kernel) read back. The host
// finishes each plane's mean in the CPU's order (sad.cpp's mean_of_rows)
// and writes with the CPU's own code (series.cpp). Frame t's kernels run
// after frame t - 1's on the twin's stream, and the entry frame t writes
// (t % 2) is the one frame t - 1 did not, so the kept frame is always the
// one before. docs/gpu.md says why every step gives the CPU's bits.
#include <array>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "gpu/runtime.hpp"
#include "metrics/float_common/gpu_images.cuh"
#include "metrics/float_common/gpu_kernels.cuh"
#include "metrics/float_motion/geometry.hpp"
#include "metrics/float_motion/gpu.hpp"
#include "metrics/float_motion/sad.hpp"
#include "metrics/float_motion/series.hpp"

namespace vqx::float_motion {

namespace {

static_assert(float_common::unrolled_tap_count(kFilter5.size()) &&
                  float_common::unrolled_tap_count(kFilter3.size()),
              "float_common::kUnrolledTapCounts lacks a motion blur");

using float_common::DeviceImage;

// Two kept entries: frame t's blurred planes at t % 2.
constexpr unsigned kEntries = 2;

class FloatMotionTwin final : public gpu::Twin {
 public:
  explicit FloatMotionTwin(const Params& p) : params_(p), series_(p) {}

  [[nodiscard]] unsigned planes_needed(const PictureFormat& fmt) const override {
    return params_.add_uv ? fmt.plane_count() : 1U;
  }

  std::vector<gpu::ConstantTable> constant_tables(const PictureFormat& fmt) override {
    std::vector<gpu::ConstantTable> out;
    if (params_.force_zero || !params_.add_scale1) return out;
    Expected<std::vector<PlaneGeometry>> planes = plane_geometry(fmt, params_);
    if (!planes.ok()) return out;  // init() refuses the format
    table_planes_ = std::move(planes).value();
    tables_.resize(table_planes_.size());
    for (std::size_t p = 0; p < table_planes_.size(); ++p) {
      const PlaneGeometry& g = table_planes_[p];
      out.push_back(tables_[p].table(g.halver, g.width, g.height, g.half_width, g.half_height));
    }
    return out;
  }

  Status init(const PictureFormat& fmt, unsigned slots, const gpu::Resources& res) override {
    VQX_ASSIGN_OR_RETURN(planes_, plane_geometry(fmt, params_));
    fmt_ = fmt;
    series_.reset();
    if (params_.force_zero) return Status::Ok();  // nothing is blurred
    taps_ = float_common::filter_taps(blur_filter(params_.filter_size));
    tables_.resize(planes_.size());
    rows_ = 0;
    for (Entry& e : entries_) {
      e.full = std::vector<DeviceImage>(planes_.size());
      e.half = std::vector<DeviceImage>(planes_.size());
    }
    for (std::size_t p = 0; p < planes_.size(); ++p) {
      const PlaneGeometry& g = planes_[p];
      for (Entry& e : entries_) {
        VQX_RETURN_IF_ERROR(e.full[p].allocate(g.width, g.height));
        if (params_.add_scale1)
          VQX_RETURN_IF_ERROR(e.half[p].allocate(g.half_width, g.half_height));
      }
      if (params_.add_scale1) {
        VQX_RETURN_IF_ERROR(
            tables_[p].bind(g.halver, g.width, g.height, g.half_width, g.half_height, res));
      }
      rows_ += g.height + (params_.add_scale1 ? g.half_height : 0U);
    }
    VQX_ASSIGN_OR_RETURN(row_sums_, gpu::DeviceBuffer<float>::allocate(rows_));
    VQX_ASSIGN_OR_RETURN(results_, gpu::PinnedBuffer<float>::allocate(std::size_t{slots} * rows_));
    return Status::Ok();
  }

  // Nothing accumulates: the kept entries and the row sums are written in
  // full by their kernels before any kernel reads them (frame 0 reads no
  // kept entry).
  Status clear(const gpu::Stream& /*s*/) override { return Status::Ok(); }

  Status launch(const gpu::DeviceFrame& f, unsigned index, unsigned slot,
                const gpu::Stream& s) override {
    if (params_.force_zero) return Status::Ok();
    const Entry& cur = entries_[index % kEntries];
    for (std::size_t p = 0; p < planes_.size(); ++p) {
      if (fmt_.bpc == 8) {
        VQX_RETURN_IF_ERROR(
            blur(float_common::plane_source<std::uint8_t>(f.ref[p], fmt_.bpc), p, cur, s));
      } else {
        VQX_RETURN_IF_ERROR(
            blur(float_common::plane_source<std::uint16_t>(f.ref[p], fmt_.bpc), p, cur, s));
      }
    }
    if (index == 0) return Status::Ok();
    const Entry& prev = entries_[(index - 1) % kEntries];
    float* sums = row_sums_.get();
    for (std::size_t p = 0; p < planes_.size(); ++p) {
      const PlaneGeometry& g = planes_[p];
      VQX_RETURN_IF_ERROR(float_common::launch_row_abs_difference(
          prev.full[p].source(), cur.full[p].source(), g.width, g.height, sums, s,
          "float_motion row_abs_difference_kernel"));
      sums += g.height;
      if (params_.add_scale1) {
        VQX_RETURN_IF_ERROR(float_common::launch_row_abs_difference(
            prev.half[p].source(), cur.half[p].source(), g.half_width, g.half_height, sums, s,
            "float_motion row_abs_difference_kernel"));
        sums += g.half_height;
      }
    }
    return gpu::copy_to_host_async(results_.get() + std::size_t{rows_} * slot, row_sums_.get(),
                                   std::size_t{rows_} * sizeof(float), s);
  }

  Status collect(unsigned slot, unsigned index, FeatureWriter& out) override {
    double score = 0.0;
    if (!params_.force_zero && index > 0) {
      // libvmaf compute_motion() per plane, luma then chroma added in double.
      const float* sums = results_.get() + std::size_t{rows_} * slot;
      for (const PlaneGeometry& g : planes_) {
        const float full = mean_of_rows(sums, g.width, g.height);
        sums += g.height;
        float half = 0.0f;
        if (params_.add_scale1) {
          half = mean_of_rows(sums, g.half_width, g.half_height);
          sums += g.half_height;
        }
        score += static_cast<double>(plane_value(full, half, params_.add_scale1));
      }
    }
    series_.add(index, score, out);
    return Status::Ok();
  }

  Status flush(FeatureWriter& out) override {
    series_.flush(out);
    return Status::Ok();
  }

 private:
  // A frame's blurred planes (and their halves).
  struct Entry {
    std::vector<DeviceImage> full;
    std::vector<DeviceImage> half;
  };

  // Plane p of frame `cur` blurred (and halved) into its entry.
  template <typename Source>
  Status blur(const Source& src, std::size_t p, const Entry& cur, const gpu::Stream& s) {
    const PlaneGeometry& g = planes_[p];
    VQX_RETURN_IF_ERROR(float_common::launch_filter<1>(
        src, g.width, g.height, taps_, cur.full[p].target(), s, "float_motion filter_kernel"));
    if (!params_.add_scale1) return Status::Ok();
    return float_common::launch_resample(cur.full[p].source(), float_common::ScaleMethod::kBilinear,
                                         tables_[p], cur.half[p].target(), s,
                                         "float_motion resample_kernel");
  }

  Params params_;
  Series series_;
  PictureFormat fmt_;
  std::vector<PlaneGeometry> planes_;        // luma, then chroma with motion_add_uv
  std::vector<PlaneGeometry> table_planes_;  // the halvers whose tables are listed
  std::vector<float_common::ResampleTable> tables_;
  float_common::FilterTaps taps_{};
  std::array<Entry, kEntries> entries_;
  unsigned rows_ = 0;  // rows summed per frame, every plane and half
  gpu::DeviceBuffer<float> row_sums_;
  gpu::PinnedBuffer<float> results_;  // per result slot
};

}  // namespace

std::unique_ptr<gpu::Twin> make_twin(const Params& params) {
  return std::make_unique<FloatMotionTwin>(params);
}

}  // namespace vqx::float_motion
