// speed_chroma on the GPU, bit for bit the CPU twin (chroma_family.cpp):
// the band-pass pictures of U and V of both frames and their covariance
// sums on the device (gpu_band.cuh), then the CPU's own fit, score and
// writer on the host. docs/gpu.md says why every step gives the CPU's bits.
#include <memory>
#include <new>
#include <string>

#include "gpu/runtime.hpp"
#include "metrics/speed/geometry.hpp"
#include "metrics/speed/gpu.hpp"
#include "metrics/speed/gpu_band.cuh"
#include "metrics/speed/outputs.hpp"
#include "metrics/speed/score.hpp"

namespace vqx::speed {

namespace {

constexpr const char* kFamily = "speed_chroma";

// The pictures of a launch: U of ref and dist, then V of ref and dist.
enum Part : unsigned { kRefU, kDisU, kRefV, kDisV, kChromaPictures };

class SpeedChromaTwin final : public gpu::Twin {
 public:
  explicit SpeedChromaTwin(const Params& p) : params_(p) {}

  [[nodiscard]] unsigned planes_needed(const PictureFormat& fmt) const override {
    return fmt.plane_count();
  }

  std::vector<gpu::ConstantTable> constant_tables(const PictureFormat& fmt) override {
    const Expected<Geometry> g = chroma_geometry(fmt, params_);
    if (!g.ok()) return {};  // init() refuses the format
    return band_.tables(*g, params_);
  }

  Status init(const PictureFormat& fmt, unsigned slots, const gpu::Resources& res) override {
    VQX_ASSIGN_OR_RETURN(const Geometry g, chroma_geometry(fmt, params_));
    VQX_RETURN_IF_ERROR(band_.allocate(g, params_, fmt.bpc, kChromaPictures, slots, res, kFamily));
    try {
      ref_.allocate(g.blocks());
      dis_.allocate(g.blocks());
    } catch (const std::bad_alloc&) {
      return Error(Errc::kLimit, std::string(kFamily) + ": out of memory for " +
                                     std::to_string(g.width) + "x" + std::to_string(g.height) +
                                     " chroma planes");
    }
    return Status::Ok();
  }

  // Nothing accumulates: every device buffer is written in full by its
  // kernel every frame before any kernel reads it.
  Status clear(const gpu::Stream& /*s*/) override { return Status::Ok(); }

  Status launch(const gpu::DeviceFrame& f, unsigned /*index*/, unsigned slot,
                const gpu::Stream& s) override {
    FramePictures pictures{};
    pictures[kRefU] = {f.ref[1].data, f.ref[1].pitch, nullptr, 0};
    pictures[kDisU] = {f.dist[1].data, f.dist[1].pitch, nullptr, 0};
    pictures[kRefV] = {f.ref[2].data, f.ref[2].pitch, nullptr, 0};
    pictures[kDisV] = {f.dist[2].data, f.dist[2].pitch, nullptr, 0};
    return band_.launch(pictures, slot, s);
  }

  Status collect(unsigned slot, unsigned index, FeatureWriter& out) override {
    const ScoreResult u = channel(slot, kRefU, kDisU);
    const ScoreResult v = channel(slot, kRefV, kDisV);
    write_chroma(u, v, params_.max_val, index, out);
    return Status::Ok();
  }

 private:
  // SpeedScorer::score()'s end, from the device's pictures.
  ScoreResult channel(unsigned slot, unsigned ref, unsigned dis) {
    const bool ref_ok = band_.fit(slot, ref, ref_);
    const bool dis_ok = band_.fit(slot, dis, dis_);
    return pair_score(ref_ok, ref_, dis_ok, dis_, params_, params_.weight_var_mode);
  }

  Params params_;
  GpuBand band_;
  BlockStats ref_;
  BlockStats dis_;
};

}  // namespace

std::unique_ptr<gpu::Twin> make_chroma_twin(const Params& params) {
  return std::make_unique<SpeedChromaTwin>(params);
}

}  // namespace vqx::speed
