// The "vif" extractor family: libvmaf's integer VIF (feature/integer_vif.c),
// four scale scores plus, with debug=true, the combined score and every
// numerator and denominator.
#include <memory>
#include <string>
#include <vector>

#include "core/twin_ref.hpp"
#include "metrics/families.hpp"
#include "metrics/vif/cpu.hpp"
#include "metrics/vif/gpu.hpp"
#include "metrics/vif/params.hpp"
#include "metrics/vif/scores.hpp"

namespace vqx {

namespace {

using vif::Config;
using vif::FrameSums;

class IntegerVifExtractor final : public Extractor {
 public:
  explicit IntegerVifExtractor(const Config& config) : config_(config) {}

  Status init(const PictureFormat& fmt) override {
    fmt_ = fmt;
    return kernel_.init(fmt.width, fmt.height, fmt.bpc);
  }

  Status extract(const Picture& ref, const Picture& dist, unsigned index,
                 FeatureWriter& out) override {
    if (ref.bpc() != fmt_.bpc || dist.bpc() != fmt_.bpc) {
      return Error(Errc::kMismatch, "vif: picture bit depth differs from the initialised one");
    }
    VQX_RETURN_IF_ERROR(kernel_.check(ref.plane(0)));
    VQX_RETURN_IF_ERROR(kernel_.check(dist.plane(0)));
    FrameSums sums;
    kernel_.compute(ref.plane(0), dist.plane(0), config_.kernel, sums);
    write(sums, index, out);
    return Status::Ok();
  }

 private:
  void write(const FrameSums& s, unsigned index, FeatureWriter& out) const {
    vif::write_scores(s, config_.kernel.skip_scale0, config_.debug, index, out);
  }

  Config config_;
  PictureFormat fmt_;
  vif::CpuKernel kernel_;
};

Expected<Config> read_config(const OptionSet& options) {
  return Config{{.gain_limit = options.get_double(vif::kOptGainLimit),
                 .skip_scale0 = options.get_bool(vif::kOptSkipScale0)},
                options.get_bool(vif::kOptDebug)};
}

}  // namespace

const ExtractorFamily& integer_vif_family() {
  static const ExtractorFamily kFamily = {
      .name = "vif",
      .options = vif::option_defs(),
      .outputs = vif::kOutputs,
      .provides = vif::kProvides,
      .luma_only = true,
      .bind = bind_family<Config, read_config, IntegerVifExtractor, VQX_TWIN(&vif::make_twin)>,
  };
  return kFamily;
}

}  // namespace vqx
