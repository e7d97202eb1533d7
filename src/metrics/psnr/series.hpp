// Integer PSNR's per-frame values and whole-video aggregates from the
// planes' SSEs: shared by the CPU extractor and the GPU twin.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>

#include "core/extractor.hpp"
#include "metrics/psnr/params.hpp"

namespace vqx::psnr {

class Series {
 public:
  explicit Series(const Params& params);
  // Before the first frame.
  void start(const PictureFormat& fmt);
  // Planes measured: 3, or 1 for 4:0:0 or without enable_chroma.
  [[nodiscard]] unsigned planes() const { return planes_; }
  // Frame `index`'s SSE of each measured plane, of planes w x h each.
  void add(unsigned index, const std::array<std::uint64_t, 3>& sse,
           const std::array<unsigned, 3>& width, const std::array<unsigned, 3>& height,
           FeatureWriter& out);
  // After the last frame: the apsnr aggregates (with enable_apsnr).
  void flush(FeatureWriter& out) const;

 private:
  Params params_;
  std::size_t slots_per_plane_;
  unsigned planes_ = 1;
  std::uint32_t peak_ = 0;
  std::array<double, 3> cap_{};
  // apsnr: SSE and pixel count of each plane over every frame so far.
  std::array<std::uint64_t, 3> sse_total_{};
  std::array<std::uint64_t, 3> pixels_total_{};
};

}  // namespace vqx::psnr
