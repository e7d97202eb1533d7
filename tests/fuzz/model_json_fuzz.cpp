// Fuzz target: the JSON model loader (src/model/model.cpp, svm.cpp) and
// prediction with the model it loads. Input: one byte of ModelConfig flags,
// then the JSON text. A model that loads must predict: one score per output
// name, for any feature values (NaN in gives NaN out, never a crash).
#include <cmath>
#include <cstdint>
#include <limits>
#include <vector>

#include "fuzz_util.hpp"
#include "model/model.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  vqx::fuzz::Bytes in(data, size);
  const std::uint8_t flags = in.u8();
  vqx::ModelConfig config;
  config.disable_clip = (flags & 1) != 0;
  config.enable_transform = (flags & 2) != 0;
  if ((flags & 4) != 0) config.overloads.push_back({"vif", "vif_enhn_gain_limit", "1"});
  if ((flags & 8) != 0) config.overloads.push_back({"adm", "adm_enhn_gain_limit", "1"});
  auto model = vqx::Model::from_json(vqx::fuzz::as_text(in.data(), in.size()), "fuzz.json", config);
  if (!model.ok()) {
    if (model.status().message().rfind("fuzz.json", 0) != 0) {
      vqx::fuzz::broken_promise("model error does not name the file");
    }
    return 0;
  }
  const std::size_t nf = model->features().size();
  std::vector<double> out(model->output_names().size());
  static constexpr double kValues[] = {0.0, 0.5, 1.0, -3.0, 1e300,
                                       std::numeric_limits<double>::quiet_NaN()};
  for (const double v : kValues) {
    const std::vector<double> features(nf, v);
    if (!model->predict(features, out).ok()) vqx::fuzz::broken_promise("predict failed");
  }
  // A size mismatch is an error, not a crash.
  const std::vector<double> wrong(nf + 1, 0.0);
  if (model->predict(wrong, out).ok()) vqx::fuzz::broken_promise("predict took a wrong size");
  return 0;
}
