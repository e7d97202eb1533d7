// The "vif" extractor family: libvmaf's integer VIF (feature/integer_vif.c),
// four scale scores plus, with debug=true, the combined score and every
// numerator and denominator.
#include <memory>
#include <string>
#include <vector>

#include "metrics/families.hpp"
#include "metrics/vif/cpu.hpp"
#include "metrics/vif/params.hpp"

namespace vqx {

namespace {

using vif::FrameSums;

struct VifConfig {
  vif::KernelParams kernel;
  bool debug = false;
};

// Slots: the four scale scores, then with debug the kDebugNames in order.
enum Slot : std::size_t {
  kSlotScore = 4,  // integer_vif
  kSlotNum,
  kSlotDen,
  kSlotScaleNumDen,  // num_scale0, den_scale0, num_scale1, ...
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
  // The values libvmaf writes (write_scores() in integer_vif.c): each scale
  // score is the float quotient num / den widened to double; the debug sums
  // add the float parts in double.
  void write(const FrameSums& s, unsigned index, FeatureWriter& out) const {
    const bool skip0 = config_.kernel.skip_scale0;
    for (std::size_t k = 0; k < vif::kScaleCount; ++k) {
      const float score = (k == 0 && skip0) ? 0.0f : s[k].num / s[k].den;
      out.write(k, index, static_cast<double>(score));
    }
    if (!config_.debug) return;

    const std::size_t first = skip0 ? 1 : 0;
    double num = 0.0;
    double den = 0.0;
    for (std::size_t k = first; k < vif::kScaleCount; ++k) {
      num += static_cast<double>(s[k].num);
      den += static_cast<double>(s[k].den);
    }
    out.write(kSlotScore, index, den == 0.0 ? 1.0 : num / den);
    out.write(kSlotNum, index, num);
    out.write(kSlotDen, index, den);
    for (std::size_t k = 0; k < vif::kScaleCount; ++k) {
      // A skipped scale 0 reports 0 / -1, as libvmaf does.
      const double scale_num = (k == 0 && skip0) ? 0.0 : static_cast<double>(s[k].num);
      const double scale_den = (k == 0 && skip0) ? -1.0 : static_cast<double>(s[k].den);
      out.write(kSlotScaleNumDen + 2 * k, index, scale_num);
      out.write(kSlotScaleNumDen + 2 * k + 1, index, scale_den);
    }
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
  return spec;
}

}  // namespace

const ExtractorFamily& integer_vif_family() {
  static const ExtractorFamily kFamily = {"vif", vif::kModelAliases, &make_vif_spec};
  return kFamily;
}

}  // namespace vqx
