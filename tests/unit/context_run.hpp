// Runs a whole context over generated frames and keeps every value it gives
// out, for the tests that compare what two runs write (output names, 4:0:0
// pictures, out-of-range samples).
#pragma once

#include <gtest/gtest.h>

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "core/family.hpp"
#include "metrics/registry.hpp"
#include "vqx/vqx.hpp"

namespace vqx::testutil {

// Every value a context gave out after flush: per frame by metric name, and
// the whole-video values.
struct ContextValues {
  std::map<std::string, std::vector<double>> frames;
  std::map<std::string, double> aggregates;
};

// One registration: "f SPEC" (use_feature) or "m SPEC" (use_features_from_model).
inline Status register_item(Context& ctx, const std::string& item) {
  const std::string spec = item.substr(2);
  return item[0] == 'm' ? ctx.use_features_from_model(spec) : ctx.use_feature(spec);
}

// The reference and distorted pictures of frame i.
using FrameSource = std::function<std::pair<Picture, Picture>(unsigned i)>;

// Registers `items`, reads `frames` frames from `source`, flushes, and
// collects every value; the first error (of any step) otherwise.
inline Expected<ContextValues> run_context(const std::vector<std::string>& items,
                                           const FrameSource& source, unsigned frames,
                                           ContextSettings settings = {.backend = Backend::kCpu}) {
  VQX_ASSIGN_OR_RETURN(std::unique_ptr<Context> ctx, Context::create(settings));
  for (const std::string& item : items) VQX_RETURN_IF_ERROR(register_item(*ctx, item));
  for (unsigned i = 0; i < frames; ++i) {
    auto [ref, dist] = source(i);
    VQX_RETURN_IF_ERROR(ctx->read_pictures(std::move(ref), std::move(dist), i));
  }
  VQX_RETURN_IF_ERROR(ctx->flush());
  ContextValues out;
  for (const std::string& name : ctx->metric_names()) {
    std::vector<double>& v = out.frames[name];
    for (unsigned i = 0; i < frames; ++i) {
      auto x = ctx->score_at_index(name, i);
      v.push_back(x.ok() ? *x : -1e300);  // a frame without a value
    }
  }
  for (const ExtractorFamily* f : all_families()) {
    for (const OutputDef& a : f->aggregates) {
      auto x = ctx->aggregate_score(a.base);
      if (x.ok()) out.aggregates[a.base] = *x;
    }
  }
  return out;
}

// A picture of `fmt` whose samples are drawn from `rng`: smooth content plus
// noise in every plane, within the bit depth.
inline Picture noisy_picture(const PictureFormat& fmt, std::mt19937& rng) {
  Picture pic = Picture::make(fmt).value();
  const std::uint32_t max = (1U << fmt.bpc) - 1;
  for (unsigned p = 0; p < fmt.plane_count(); ++p) {
    Plane& pl = pic.plane(p);
    for (unsigned y = 0; y < pl.height(); ++y) {
      for (unsigned x = 0; x < pl.width(); ++x) {
        const std::uint32_t smooth = (max / 4) + ((x * 5 + y * 3 + p * 40) % (max / 2));
        const std::uint32_t v =
            std::min(max, smooth + static_cast<std::uint32_t>(rng() % (max / 8 + 1)));
        if (pl.bytes_per_sample() == 1) {
          pl.row<std::uint8_t>(y)[x] = static_cast<std::uint8_t>(v);
        } else {
          pl.row<std::uint16_t>(y)[x] = static_cast<std::uint16_t>(v);
        }
      }
    }
  }
  return pic;
}

// Frames of `fmt` with noisy content, the same for every run with `seed`.
inline FrameSource noisy_frames(const PictureFormat& fmt, unsigned seed) {
  return [fmt, seed](unsigned i) {
    std::mt19937 rng(seed + 7919 * i);
    Picture ref = noisy_picture(fmt, rng);
    Picture dist = noisy_picture(fmt, rng);
    return std::make_pair(std::move(ref), std::move(dist));
  };
}

}  // namespace vqx::testutil
