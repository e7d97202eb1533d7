// Fuzz target: the --feature and --model string parsers
// (src/core/feature_spec.cpp, src/core/options.cpp, src/model/model_spec.cpp)
// and what a context does with the specs they accept: option tables, model
// loading with overloads, extractor set-up, and two frames scored with the
// extractors so configured.
//
// Input: one byte choosing the picture (size, depth, chroma, content), then
// up to 4 lines, each "f <feature spec>" or "m <model spec>". Model specs
// with path= are parsed but not loaded, and cambi's heatmaps_path is left
// out: the fuzzer must not read or write files.
#include <cstdint>
#include <string>
#include <string_view>

#include "core/feature_spec.hpp"
#include "fuzz_util.hpp"
#include "model/model.hpp"
#include "vqx/vqx.hpp"

namespace {

void fill(vqx::Picture& pic, unsigned seed) {
  std::uint32_t x = 0x9e3779b9U * (seed + 1);
  const unsigned max = (1U << pic.bpc()) - 1;
  for (unsigned p = 0; p < pic.plane_count(); ++p) {
    vqx::Plane& pl = pic.plane(p);
    for (unsigned y = 0; y < pl.height(); ++y) {
      for (unsigned i = 0; i < pl.width(); ++i) {
        x ^= x << 13;
        x ^= x >> 17;
        x ^= x << 5;
        const unsigned v = ((i * 7 + y * 3) + (x & 15)) & max;
        if (pic.bpc() > 8) {
          pl.row<std::uint16_t>(y)[i] = static_cast<std::uint16_t>(v);
        } else {
          pl.row<std::uint8_t>(y)[i] = static_cast<std::uint8_t>(v);
        }
      }
    }
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  vqx::fuzz::Bytes in(data, size);
  const std::uint8_t pick = in.u8();
  std::string_view text = vqx::fuzz::as_text(in.data(), in.size());

  auto ctx = vqx::Context::create({.threads = 0, .backend = vqx::Backend::kCpu});
  if (!ctx.ok()) vqx::fuzz::broken_promise("no context");
  bool registered = true;
  int any = 0;
  for (int line = 0; line < 4 && !text.empty(); ++line) {
    const std::size_t nl = text.find('\n');
    const std::string_view item = text.substr(0, nl);
    text = nl == std::string_view::npos ? std::string_view() : text.substr(nl + 1);
    if (item.size() < 2 || item[1] != ' ') continue;
    const std::string_view spec = item.substr(2);
    // cambi's heatmaps_path writes files: not from a fuzzer.
    if (spec.find("heatmap") != std::string_view::npos) continue;
    vqx::Status s;
    if (item[0] == 'f') {
      (void)vqx::parse_feature_spec(spec);
      s = (*ctx)->use_feature(spec);
    } else if (item[0] == 'm') {
      auto parsed = vqx::ModelSpec::parse(spec);
      if (!parsed.ok() || !parsed->path.empty()) continue;
      s = (*ctx)->use_features_from_model(spec);
    } else {
      continue;
    }
    if (!s.ok() && s.message().empty()) vqx::fuzz::broken_promise("empty error");
    registered = registered && s.ok();
    any += s.ok() ? 1 : 0;
  }
  if (!registered || any == 0) return 0;

  static constexpr unsigned kSizes[4][2] = {{64, 64}, {176, 144}, {33, 17}, {8, 8}};
  static constexpr vqx::ChromaFormat kChroma[4] = {vqx::ChromaFormat::k420, vqx::ChromaFormat::k422,
                                                   vqx::ChromaFormat::k444, vqx::ChromaFormat::k400};
  const vqx::PictureFormat fmt{kSizes[pick & 3][0], kSizes[pick & 3][1],
                               (pick & 4) != 0 ? 10U : 8U, kChroma[(pick >> 3) & 3]};
  for (unsigned i = 0; i < 2; ++i) {
    auto ref = (*ctx)->fetch_picture(fmt);
    auto dist = (*ctx)->fetch_picture(fmt);
    if (!ref.ok() || !dist.ok()) vqx::fuzz::broken_promise("fetch_picture failed");
    fill(*ref, i);
    fill(*dist, i + (pick >> 5) + 1);
    if (!(*ctx)->read_pictures(std::move(*ref), std::move(*dist), i).ok()) return 0;
  }
  if (!(*ctx)->flush().ok()) return 0;
  for (const auto& name : (*ctx)->metric_names()) {
    (void)(*ctx)->score_at_index(name, 1);
    (void)(*ctx)->pooled_score(name, vqx::PoolMethod::kHarmonicMean);
  }
  return 0;
}
