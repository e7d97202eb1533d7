// The CAMBI score of one picture (libvmaf cambi.c,
// preprocess_and_extract_cambi() and cambi_score()), with every buffer
// allocated once.
#pragma once

#include <array>
#include <cstdint>
#include <vector>

#include "core/zeroed_memory.hpp"
#include "metrics/cambi/contrast.hpp"
#include "metrics/cambi/heatmap.hpp"
#include "metrics/cambi/params.hpp"
#include "metrics/cambi/runs.hpp"
#include "vqx/picture.hpp"
#include "vqx/status.hpp"

namespace vqx::cambi {

// Where and how one picture is scored.
struct Geometry {
  unsigned in_width = 0;  // the input picture
  unsigned in_height = 0;
  unsigned width = 0;  // the size CAMBI works at (encoding or source size)
  unsigned height = 0;
  unsigned window = 0;           // odd window side, adjusted to the size
  bool half_first = false;       // high-resolution speed-up: scale 0 is already halved
  std::vector<unsigned> xs, ys;  // resampling positions; empty when the sizes agree
  std::array<unsigned, kScaleCount> scale_width{};
  std::array<unsigned, kScaleCount> scale_height{};
};

// libvmaf's adjust_window_size(): the window scaled to (w + h) / 6000,
// halved with the speed-up, made odd.
unsigned adjusted_window(unsigned window_size, unsigned w, unsigned h, bool half_first);

Geometry make_geometry(unsigned in_width, unsigned in_height, unsigned width, unsigned height,
                       unsigned window, bool half_first);

// What score() needs besides the picture.
struct ScoreSetup {
  unsigned bpc = 8;          // of the input picture
  bool anti_dither = false;  // the encode had fewer than 10 bits
  double topk = kDefaultTopk;
  HeatmapWriter* heatmaps = nullptr;  // null: none
  unsigned frame = 0;                 // for the heatmaps
};

class Scorer {
 public:
  // Buffers for pictures up to max_width x max_height, windows up to
  // 2 * max_radius + 1 and the given contrast tables' sizes.
  Status allocate(unsigned max_width, unsigned max_height, unsigned max_radius, unsigned band_size,
                  unsigned num_diffs);

  // The score of the luma plane (weighted scale scores over the window's
  // pixel count), before clipping to cambi_max_val.
  Expected<double> score(const Plane& luma, const Geometry& g, const ContrastTables& t,
                         const ScoreSetup& setup);

 private:
  // The pooled contrast values of one scale, from its runs.
  Expected<double> scale_score(unsigned w, unsigned h, unsigned scale, const Geometry& g,
                               const ContrastTables& t, const ScoreSetup& setup);
  // Spreads the contrast values of the `coded` coded pixels (values_'s
  // front) to every pixel of the w x h scale, zeros included, in place.
  void spread_values(unsigned w, unsigned h, std::size_t coded);

  // The picture-sized buffers, in one slab (core/zeroed_memory.hpp).
  ZeroedSlab pictures_;
  std::uint16_t* full_ = nullptr;  // the 10-bit picture, later the odd scales
  std::uint16_t* half_ = nullptr;  // the even scales (or the odd ones with the speed-up)
  std::uint8_t* mask_ = nullptr;
  std::vector<std::uint8_t> mask_scratch_;
  std::vector<std::uint16_t> mode_rows_;
  std::vector<std::uint16_t> counts_;  // the window counts (window.hpp)
  std::vector<std::uint16_t> row_codes_;
  std::vector<std::int32_t> contrast_num_;  // ContrastScratch
  std::vector<std::int32_t> contrast_den_;
  std::vector<float> contrast_rcp_;
  std::vector<std::uint8_t> run_starts_;
  Run* runs_ = nullptr;  // a scale's runs, row after row (in pictures_)
  std::vector<std::uint32_t> run_offsets_;
  // A scale's contrast values of coded pixels, in order; all of them, zeros
  // included, after spread_values(). In pictures_.
  float* values_ = nullptr;
  std::vector<std::uint32_t> low_counts_;  // largest_sum()'s scratch
};

}  // namespace vqx::cambi
