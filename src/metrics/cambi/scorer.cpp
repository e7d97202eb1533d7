#include "metrics/cambi/scorer.hpp"

#include <algorithm>
#include <new>
#include <string>
#include <utility>

#include "metrics/cambi/pointwise.hpp"
#include "metrics/cambi/pooling.hpp"
#include "metrics/cambi/preprocess.hpp"
#include "metrics/cambi/runs.hpp"
#include "metrics/cambi/spatial.hpp"
#include "metrics/cambi/window.hpp"

namespace vqx::cambi {

namespace {

unsigned half_up(unsigned n) { return (n + 1) >> 1; }

}  // namespace

unsigned adjusted_window(unsigned window_size, unsigned w, unsigned h, bool half_first) {
  unsigned win = ((window_size * (w + h)) / kWindowDivisor) >> kWindowShift;
  if (half_first) win = (win + 1) >> 1;
  return win | 1U;
}

Geometry make_geometry(unsigned in_width, unsigned in_height, unsigned width, unsigned height,
                       unsigned window, bool half_first) {
  Geometry g;
  g.in_width = in_width;
  g.in_height = in_height;
  g.width = width;
  g.height = height;
  g.window = window;
  g.half_first = half_first;
  if (width != in_width || height != in_height) {
    g.xs = sample_positions(in_width, width);
    g.ys = sample_positions(in_height, height);
  }
  unsigned w = half_first ? half_up(width) : width;
  unsigned h = half_first ? half_up(height) : height;
  for (unsigned s = 0; s < kScaleCount; ++s) {
    g.scale_width[s] = w;
    g.scale_height[s] = h;
    w = half_up(w);
    h = half_up(h);
  }
  return g;
}

Status Scorer::allocate(unsigned max_width, unsigned max_height, unsigned max_radius,
                        unsigned band_size, unsigned num_diffs) {
  const std::size_t pixels = std::size_t{max_width} * max_height;
  const std::size_t half_pixels = std::size_t{half_up(max_width)} * half_up(max_height);
  try {
    pictures_ = ZeroedSlab{};
    const std::size_t full = pictures_.plan<std::uint16_t>(pixels);
    const std::size_t half = pictures_.plan<std::uint16_t>(half_pixels);
    const std::size_t mask = pictures_.plan<std::uint8_t>(pixels);
    const std::size_t runs = pictures_.plan<Run>(pixels);
    const std::size_t values = pictures_.plan<float>(pixels);
    pictures_.allocate();
    full_ = pictures_.get<std::uint16_t>(full);
    half_ = pictures_.get<std::uint16_t>(half);
    mask_ = pictures_.get<std::uint8_t>(mask);
    runs_ = pictures_.get<Run>(runs);
    values_ = pictures_.get<float>(values);
    mask_scratch_.assign(std::size_t{kMaskScratchRows} * max_width + max_width + kMaskScratchPad,
                         0);
    mode_rows_.assign(3 * std::size_t{max_width}, 0);
    counts_.assign(counts_layout(max_width, max_radius, band_size, num_diffs).size(), 0);
    row_codes_.assign(max_width, 0);
    contrast_num_.assign(max_width, 0);
    contrast_den_.assign(max_width, 0);
    contrast_rcp_.assign(max_width, 0.0f);
    run_starts_.assign((max_width + 7) / 8 * 8, 0);
    run_offsets_.assign(std::size_t{max_height} + 1, 0);
    low_counts_.assign(kLowCounts, 0);
  } catch (const std::bad_alloc&) {
    return Error(Errc::kLimit, "cambi: out of memory for a " + std::to_string(max_width) + "x" +
                                   std::to_string(max_height) + " picture");
  }
  return Status::Ok();
}

Expected<double> Scorer::score(const Plane& luma, const Geometry& g, const ContrastTables& t,
                               const ScoreSetup& setup) {
  const unsigned w = g.width;
  const unsigned h = g.height;
  VQX_RETURN_IF_ERROR(to_10bit(luma, g.in_width, g.in_height, setup.bpc, g.xs, g.ys, full_, w, h));
  if (setup.anti_dither) anti_dither(full_, w, h);

  const MaskScratch scratch{mask_scratch_.data(),
                            mask_scratch_.data() + std::size_t{kMaskScratchRows} * w};
  flatness_mask(full_, w, h, flat_threshold(w, h), mask_, scratch);

  std::uint16_t* cur = full_;
  std::uint16_t* next = half_;
  if (g.half_first) {
    decimate(full_, w, h, half_);
    decimate(mask_, w, h, mask_);
    std::swap(cur, next);
  }
  std::array<double, kScaleCount> pooled{};
  for (unsigned s = 0; s < kScaleCount; ++s) {
    const unsigned sw = g.scale_width[s];
    const unsigned sh = g.scale_height[s];
    const bool last = s + 1 == kScaleCount;
    // Each filtered row gives its runs and, on even rows, a row of the next
    // scale (which starts from the filtered picture).
    const unsigned next_w = (sw + 1) / 2;
    std::uint32_t n = 0;
    mode_filter(cur, sw, sh, mode_rows_.data(), [&](unsigned i, const std::uint16_t* row) {
      run_offsets_[i] = n;
      n += append_runs(row, mask_ + std::size_t{i} * sw, sw, t, row_codes_.data(),
                       run_starts_.data(), runs_ + n);
      if (!last && i % 2 == 0) {
        std::uint16_t* out = next + std::size_t{i / 2} * next_w;
        for (unsigned j = 0; j < next_w; ++j) out[j] = row[2 * j];
      }
    });
    run_offsets_[sh] = n;
    VQX_ASSIGN_OR_RETURN(pooled[s], scale_score(sw, sh, s, g, t, setup));
    if (!last) {
      decimate(mask_, sw, sh, mask_);
      std::swap(cur, next);
    }
  }
  return weighted_score(pooled, g.window);
}

Expected<double> Scorer::scale_score(unsigned w, unsigned h, unsigned scale, const Geometry& g,
                                     const ContrastTables& t, const ScoreSetup& setup) {
  const unsigned radius = g.window / 2;
  auto row = [&](unsigned i) { return row_runs(runs_, run_offsets_.data(), i, w); };

  const CountsLayout layout = counts_layout(w, radius, t.band_size, t.num_diffs);
  std::fill_n(counts_.data(), layout.size(), std::uint16_t{0});
  std::uint16_t* counts = counts_.data() + layout.origin();
  // The window of row i spans rows i - radius .. i + radius.
  for (unsigned r = 0; r < radius && r < h; ++r) {
    update_counts<true>(counts, layout, radius, row(r));
  }
  ContrastScratch scratch{contrast_num_.data(), contrast_den_.data(), contrast_rcp_.data()};
  ValueSum total;
  std::size_t coded = 0;  // contrast values so far, one per coded pixel
  for (unsigned i = 0; i < h; ++i) {
    const bool leaves = i > radius;
    const bool enters = i + radius < h;
    if (leaves && enters) {
      replace_counts(counts, layout, radius, row(i - radius - 1), row(i + radius));
    } else if (enters) {
      update_counts<true>(counts, layout, radius, row(i + radius));
    } else if (leaves) {
      update_counts<false>(counts, layout, radius, row(i - radius - 1));
    }
    coded += contrast_row(row(i), counts, layout.stride, t, values_ + coded, total, scratch);
  }

  const std::size_t n = std::size_t{w} * h;
  const std::size_t k = topk_count(n, setup.topk);
  const PoolPath path = pool_path(total.units, total.nonzero, k);
  const bool exact_order = path == PoolPath::kOrdered;
  if (exact_order || setup.heatmaps != nullptr) {
    spread_values(w, h, coded);
    if (setup.heatmaps != nullptr) {
      for (unsigned i = 0; i < h; ++i) {
        VQX_RETURN_IF_ERROR(
            setup.heatmaps->write_row(scale, setup.frame, i, w, h, values_ + std::size_t{i} * w));
      }
    }
  }
  switch (path) {
    case PoolPath::kOrdered:
      return ordered_largest_sum({values_, n}, k) / static_cast<double>(k);
    case PoolPath::kAll:
      return units_value(total.units) / static_cast<double>(k);
    case PoolPath::kLargest:
      break;
  }
  return largest_sum({values_, coded}, k, low_counts_) / static_cast<double>(k);
}

void Scorer::spread_values(unsigned w, unsigned h, std::size_t coded) {
  // From the last pixel back: a value never moves towards the front, so
  // nothing is overwritten before it has moved.
  float* values = values_;
  std::size_t next = coded;
  for (unsigned i = h; i-- > 0;) {
    const RowRuns r = row_runs(runs_, run_offsets_.data(), i, w);
    float* out = values + std::size_t{i} * w;
    for (const Run* run = r.end; run-- != r.begin;) {
      const unsigned end = r.end_of(run);
      if (run->code == kNoCode) {
        std::fill(out + run->start, out + end, 0.0f);
        continue;
      }
      next -= end - run->start;
      std::copy_backward(values + next, values + next + (end - run->start), out + end);
    }
  }
}

}  // namespace vqx::cambi
