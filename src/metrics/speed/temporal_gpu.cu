// speed_temporal on the GPU, bit for bit the CPU twin (temporal_family.cpp):
// for frame i > 0 the band-pass pictures of the two frame differences and
// their covariance sums are computed on the device (gpu_band.cuh), then the
// CPU's own fit, score and writer run on the host. The previous frame's
// luma is read from the pipeline's slot of frame i - 1
// (DeviceFrame::previous), so frames run side by side on replicas; where
// the pipeline does not keep it (a batch's shared reference), the twin sees
// every frame, in order, and keeps the previous luma itself
// (device-to-device copies, as integer motion keeps its frames).
// docs/gpu.md says why every step gives the CPU's bits.
#include <cstdint>
#include <memory>
#include <new>
#include <string>

#include "core/index_math.hpp"
#include "gpu/runtime.hpp"
#include "metrics/speed/geometry.hpp"
#include "metrics/speed/gpu.hpp"
#include "metrics/speed/gpu_band.cuh"
#include "metrics/speed/outputs.hpp"
#include "metrics/speed/score.hpp"

namespace vqx::speed {

namespace {

constexpr const char* kFamily = "speed_temporal";
constexpr std::size_t kPitchAlign = 256;

// The pictures of a launch: the reference's difference, the distorted's.
enum Part : unsigned { kRef, kDis, kTemporalPictures };

class SpeedTemporalTwin final : public gpu::Twin {
 public:
  explicit SpeedTemporalTwin(const Params& p) : params_(p) {}

  std::vector<gpu::ConstantTable> constant_tables(const PictureFormat& fmt) override {
    const Expected<Geometry> g = temporal_geometry(fmt, params_);
    if (!g.ok()) return {};  // init() refuses the format
    return band_.tables(*g, params_);
  }

  Status init(const PictureFormat& fmt, unsigned slots, const gpu::Resources& res) override {
    VQX_ASSIGN_OR_RETURN(const Geometry g, temporal_geometry(fmt, params_));
    VQX_RETURN_IF_ERROR(
        band_.allocate(g, params_, fmt.bpc, kTemporalPictures, slots, res, kFamily));
    row_bytes_ = std::size_t{fmt.width} * fmt.bytes_per_sample();
    rows_ = fmt.height;
    pitch_ = round_up(row_bytes_, kPitchAlign);
    VQX_ASSIGN_OR_RETURN(prev_ref_, gpu::DeviceBuffer<std::uint8_t>::allocate(pitch_ * rows_));
    VQX_ASSIGN_OR_RETURN(prev_dis_, gpu::DeviceBuffer<std::uint8_t>::allocate(pitch_ * rows_));
    try {
      ref_.allocate(g.blocks());
      dis_.allocate(g.blocks());
    } catch (const std::bad_alloc&) {
      return Error(Errc::kLimit, std::string(kFamily) + ": out of memory for a " +
                                     std::to_string(fmt.width) + "x" + std::to_string(fmt.height) +
                                     " picture");
    }
    return Status::Ok();
  }

  [[nodiscard]] bool reads_previous_frame() const override { return true; }

  // Nothing accumulates: the band-pass buffers are written in full by their
  // kernels every frame before any kernel reads them, and a kept frame is
  // written (by the copy at the end of every launch) before the next frame
  // reads it; frame 0 reads none.
  Status clear(const gpu::Stream& /*s*/) override { return Status::Ok(); }

  Status launch(const gpu::DeviceFrame& f, unsigned index, unsigned slot,
                const gpu::Stream& s) override {
    const gpu::DevicePlane& ref = f.ref[0];
    const gpu::DevicePlane& dis = f.dist[0];
    if (index > 0) {
      // Frame i - 1 minus frame i (with speed_use_ref_diff the distorted
      // frame i - 1 minus the reference frame i).
      const gpu::DevicePlane& minus = params_.use_ref_diff ? ref : dis;
      FramePictures pictures{};
      if (f.previous != nullptr) {
        const gpu::DeviceFrame& p = *f.previous;
        pictures[kRef] = {p.ref[0].data, p.ref[0].pitch, ref.data, ref.pitch};
        pictures[kDis] = {p.dist[0].data, p.dist[0].pitch, minus.data, minus.pitch};
      } else {
        pictures[kRef] = {prev_ref_.get(), pitch_, ref.data, ref.pitch};
        pictures[kDis] = {prev_dis_.get(), pitch_, minus.data, minus.pitch};
      }
      VQX_RETURN_IF_ERROR(band_.launch(pictures, slot, s));
    }
    // The pipeline keeps the frames (it gave this one its previous): the
    // next frame reads this one's slot. (At frame 0 the copy below is made
    // either way, and unused when it does.)
    if (f.previous != nullptr) return Status::Ok();
    // This frame becomes the one the next frame reads.
    VQX_RETURN_IF_ERROR(gpu::copy_rows_on_device_async(prev_ref_.get(), pitch_, ref.data, ref.pitch,
                                                       row_bytes_, rows_, s));
    return gpu::copy_rows_on_device_async(prev_dis_.get(), pitch_, dis.data, dis.pitch, row_bytes_,
                                          rows_, s);
  }

  Status collect(unsigned slot, unsigned index, FeatureWriter& out) override {
    ScoreResult r;
    if (index > 0) {
      const bool ref_ok = band_.fit(slot, kRef, ref_);
      const bool dis_ok = band_.fit(slot, kDis, dis_);
      r = pair_score(ref_ok, ref_, dis_ok, dis_, params_, 0);  // no weight_var_mode here
    }
    write_temporal(index, r, out);
    return Status::Ok();
  }

 private:
  Params params_;
  GpuBand band_;
  std::size_t row_bytes_ = 0;
  std::size_t rows_ = 0;
  std::size_t pitch_ = 0;
  gpu::DeviceBuffer<std::uint8_t> prev_ref_;  // frame i - 1's luma
  gpu::DeviceBuffer<std::uint8_t> prev_dis_;
  BlockStats ref_;
  BlockStats dis_;
};

}  // namespace

std::unique_ptr<gpu::Twin> make_temporal_twin(const Params& params) {
  return std::make_unique<SpeedTemporalTwin>(params);
}

}  // namespace vqx::speed
