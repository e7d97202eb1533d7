// CAMBI's heatmaps (option heatmaps_path): the contrast values of every
// scale of the distorted picture, as libvmaf writes them (cambi.c, init()
// and dump_c_values()). One file per scale,
// <dir>/cambi_heatmap_scale_<s>_<W>x<H>_16b.gray, where W x H halves (rounding
// up) from the encoding size at each scale (also when the high-resolution
// speed-up made the pictures half that). Each frame is one block of native
// 16-bit samples, rows of the scale's actual width, at offset
// frame * width * height * 2: value = (uint16) (c * 65535 / max_c), with
// max_c = (largest contrast weight * window * window) / 4 in integers.
#pragma once

#include <array>
#include <cstdint>
#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include "metrics/cambi/params.hpp"
#include "vqx/status.hpp"

namespace vqx::cambi {

class HeatmapWriter {
 public:
  // Creates the folder (and its parents) and the files, truncating them.
  Status open(const std::string& dir, unsigned enc_width, unsigned enc_height, unsigned window,
              int max_weight);
  // Writes row `row` of a w x h scale's contrast values for `frame`.
  Status write_row(unsigned scale, unsigned frame, unsigned row, unsigned w, unsigned h,
                   const float* values);
  Status close();

 private:
  struct Closer {
    void operator()(std::FILE* f) const { std::fclose(f); }
  };
  std::array<std::unique_ptr<std::FILE, Closer>, kScaleCount> files_;
  std::array<std::string, kScaleCount> paths_;
  std::vector<std::uint16_t> samples_;
  double scaling_ = 0;
};

}  // namespace vqx::cambi
