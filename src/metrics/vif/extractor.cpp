// The "vif" extractor family: libvmaf's integer VIF (feature/integer_vif.c),
// four scale scores plus, with debug=true, the combined score and every
// numerator and denominator.
#include <memory>
#include <string>
#include <vector>

#include "metrics/families.hpp"
#include "metrics/vif/cpu.hpp"
#include "metrics/vif/gpu.hpp"
#include "metrics/vif/params.hpp"
#include "metrics/vif/scores.hpp"

namespace vqx {

namespace {

using vif::FrameSums;

struct VifConfig {
  vif::KernelParams kernel;
  bool debug = false;
};

class IntegerVifExtractor final : public Extractor {
 public:
  explicit IntegerVifExtractor(VifConfig config) : config_(config) {}

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

  VifConfig config_;
  PictureFormat fmt_;
  vif::CpuKernel kernel_;
};

Expected<ExtractorSpec> make_vif_spec(const OptionMap& options) {
  VQX_ASSIGN_OR_RETURN(OptionSet opts, OptionSet::parse("vif", vif::option_defs(), options));
  VifConfig config;
  config.debug = opts.get_bool(vif::kOptDebug);
  config.kernel.gain_limit = opts.get_double(vif::kOptGainLimit);
  config.kernel.skip_scale0 = opts.get_bool(vif::kOptSkipScale0);

  const std::string suffix = opts.name_suffix();
  ExtractorSpec spec;
  spec.family = "vif";
  spec.key = "vif:" + opts.canonical();
  spec.temporal = false;
  spec.outputs = outputs_with_suffix(vif::kScoreNames, suffix);
  if (config.debug) {
    for (ExtractorOutput& o : outputs_with_suffix(vif::kDebugNames, suffix)) {
      spec.outputs.push_back(std::move(o));
    }
  }
  spec.make = [config]() -> std::unique_ptr<Extractor> {
    return std::make_unique<IntegerVifExtractor>(config);
  };
#if VQX_HAVE_GPU
  spec.make_twin = vif::twin_factory(config.kernel, config.debug);
#endif
  return spec;
}

}  // namespace

const ExtractorFamily& integer_vif_family() {
  static const ExtractorFamily kFamily = {"vif", vif::kModelAliases, &make_vif_spec};
  return kFamily;
}

}  // namespace vqx
