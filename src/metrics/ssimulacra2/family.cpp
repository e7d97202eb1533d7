// The "ssimulacra2" extractor family: one output per frame, "ssimulacra2"
// (SSIMULACRA 2.1 as libjxl's tools/ssimulacra2.cc computes it). libvmaf has
// no such extractor; the options (matrix, range, transfer) are VQX's and say
// how the Y'CbCr pictures become the RGB that SSIMULACRA2 measures (see
// colour.hpp).
#include <array>
#include <memory>
#include <new>
#include <string>
#include <string_view>

#include "core/twin_ref.hpp"
#include "metrics/families.hpp"
#include "metrics/ssimulacra2/cpu.hpp"
#include "metrics/ssimulacra2/gpu.hpp"
#include "metrics/ssimulacra2/params.hpp"

namespace vqx {

namespace {

using ssimulacra2::Params;

class Ssimulacra2Extractor final : public Extractor {
 public:
  explicit Ssimulacra2Extractor(const Params& params) : params_(params) {}

  Status init(const PictureFormat& fmt) override {
    VQX_RETURN_IF_ERROR(ssimulacra2::check_format(fmt));
    try {
      kernel_.init(fmt, params_);
    } catch (const std::bad_alloc&) {
      return Error(Errc::kLimit, "ssimulacra2: out of memory for a " + std::to_string(fmt.width) +
                                     "x" + std::to_string(fmt.height) + " picture");
    }
    fmt_ = fmt;
    initialised_ = true;
    return Status::Ok();
  }

  Status extract(const Picture& ref, const Picture& dist, unsigned index,
                 FeatureWriter& out) override {
    VQX_RETURN_IF_ERROR(check_extract_input("ssimulacra2", initialised_, fmt_, FormatMatch::kExact,
                                            ref, dist, index));
    out.write(0, index, kernel_.score(ref, dist));
    return Status::Ok();
  }

 private:
  Params params_;
  ssimulacra2::FrameKernel kernel_;
  PictureFormat fmt_;
  bool initialised_ = false;
};

template <typename Enum, std::size_t N>
Expected<Enum> pick(std::string_view option, const std::string& value,
                    const std::array<std::pair<const char*, Enum>, N>& choices) {
  std::string names;
  for (const auto& [name, e] : choices) {
    if (value == name) {
      return e;
    }
    names += names.empty() ? name : std::string(", ") + name;
  }
  return Error(Errc::kInvalidArgument, "ssimulacra2: option " + std::string(option) + "=" + value +
                                           " is not one of " + names);
}

Expected<Params> read_params(const OptionSet& set) {
  using ssimulacra2::Matrix;
  using ssimulacra2::Range;
  using ssimulacra2::Transfer;
  static constexpr std::array<std::pair<const char*, Matrix>, 3> kMatrices = {{
      {"bt709", Matrix::kBt709},
      {"bt601", Matrix::kBt601},
      {"bt2020", Matrix::kBt2020},
  }};
  static constexpr std::array<std::pair<const char*, Range>, 2> kRanges = {{
      {"limited", Range::kLimited},
      {"full", Range::kFull},
  }};
  static constexpr std::array<std::pair<const char*, Transfer>, 4> kTransfers = {{
      {"srgb", Transfer::kSrgb},
      {"bt709", Transfer::kBt709},
      {"bt1886", Transfer::kBt1886},
      {"linear", Transfer::kLinear},
  }};
  Params p;
  VQX_ASSIGN_OR_RETURN(p.matrix, pick("matrix", set.get_string("matrix"), kMatrices));
  VQX_ASSIGN_OR_RETURN(p.range, pick("range", set.get_string("range"), kRanges));
  VQX_ASSIGN_OR_RETURN(p.transfer, pick("transfer", set.get_string("transfer"), kTransfers));
  return p;
}

constexpr std::array<OutputDef, 1> kOutputs = {{{"ssimulacra2"}}};

// No libvmaf model uses SSIMULACRA2; the entry lets a model name it as is.
constexpr std::array<FeatureAlias, 1> kProvides = {{{"ssimulacra2", "ssimulacra2"}}};

}  // namespace

const ExtractorFamily& ssimulacra2_family() {
  static const ExtractorFamily kFamily = {
      .name = "ssimulacra2",
      .options = ssimulacra2::option_defs(),
      .outputs = kOutputs,
      .provides = kProvides,
      .bind =
          bind_family<Params, read_params, Ssimulacra2Extractor, VQX_TWIN(&ssimulacra2::make_twin)>,
      .from_libvmaf = false,
  };
  return kFamily;
}

}  // namespace vqx
