// CAMBI's heatmaps (option heatmaps_path): the contrast values of every
// scale of the distorted picture, as libvmaf writes them (cambi.c, init()
// and dump_c_values()). One file per scale,
// <dir>/cambi_heatmap_scale_<s>_<W>x<H>_16b.gray, where W x H halves (rounding
// up) from the encoding size at each scale (also when the high-resolution
// speed-up made the pictures half that). Each frame is one block of native
// 16-bit samples, rows of the scale's actual width, at offset
// frame * width * height * 2: value = (uint16) (c * 65535 / max_c), with
// max_c = (largest contrast weight * window * window) / 4 in integers.
//
// Unlike libvmaf, the files are written under temporary names and renamed
// into place by close() (core/staged_file.hpp): they are files of the
// writer's OutputFiles set (the context's), so when that set is held they
// go into place at its commit. A run that fails or is stopped leaves no
// heatmap behind and keeps the files an earlier run left there.
#pragma once

#include <array>
#include <cstdint>
#include <cstdio>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "core/staged_file.hpp"
#include "metrics/cambi/params.hpp"
#include "vqx/output_files.hpp"
#include "vqx/status.hpp"

namespace vqx::cambi {

class HeatmapWriter {
 public:
  // The files are created in `files` (not null).
  explicit HeatmapWriter(std::shared_ptr<OutputFiles> files) : output_files_(std::move(files)) {}
  // Removes the files of a writer that was never closed (a failed run).
  ~HeatmapWriter();
  HeatmapWriter(const HeatmapWriter&) = delete;
  HeatmapWriter& operator=(const HeatmapWriter&) = delete;

  // Creates the folder (and its parents) and the files' temporaries.
  Status open(const std::string& dir, unsigned enc_width, unsigned enc_height, unsigned window,
              int max_weight);
  // Writes row `row` of a w x h scale's contrast values for `frame`.
  Status write_row(unsigned scale, unsigned frame, unsigned row, unsigned w, unsigned h,
                   const float* values);
  // Completes the files: renamed into place, or removed when a write failed.
  Status close();

 private:
  void abandon_all();

  struct Closer {
    void operator()(std::FILE* f) const { std::fclose(f); }
  };
  std::shared_ptr<OutputFiles> output_files_;  // the set of staged_, kept alive for them
  std::array<std::unique_ptr<std::FILE, Closer>, kScaleCount> files_;
  std::array<staged::StagedFile, kScaleCount> staged_;
  std::array<std::string, kScaleCount> paths_;
  std::vector<std::uint16_t> samples_;
  double scaling_ = 0;
};

}  // namespace vqx::cambi
