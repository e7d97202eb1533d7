#include "metrics/cambi/contrast.hpp"

#include <algorithm>
#include <charconv>
#include <string>

#include "metrics/cambi/luminance.hpp"
#include "metrics/cambi/runs.hpp"

namespace vqx::cambi {

std::vector<float> reciprocal_table() {
  std::vector<float> lut(kReciprocalLutSize, 0.0f);
  for (int i = 1; i < kReciprocalLutSize; ++i) {
    char text[40];
    const auto printed = std::to_chars(text, text + sizeof text, 1.0 / i,
                                       std::chars_format::general, kReciprocalDigits);
    std::from_chars(text, printed.ptr, lut[i]);
  }
  return lut;
}

Expected<ContrastTables> make_contrast_tables(const Params& params) {
  ContrastTables t;
  t.num_diffs = params.num_diffs();
  const int nd = static_cast<int>(t.num_diffs);
  // Levels are compared to the thresholds shifted by num_diffs, as libvmaf
  // stores them.
  std::array<int, 32> threshold{};
  for (int d = 0; d < nd; ++d) {
    t.weights[d] = kContrastWeights[d];
    VQX_ASSIGN_OR_RETURN(const int level,
                         visibility_threshold(d + 1, params.tvi_threshold, params.eotf));
    threshold[d] = level + nd;
    // A larger step is visible wherever a smaller one is; the band below
    // relies on it.
    if (d > 0 && threshold[d] < threshold[d - 1]) {
      return Error(Errc::kInternal, "cambi: visibility thresholds decrease with the step size");
    }
  }
  VQX_ASSIGN_OR_RETURN(const int floor, visible_luma_floor(params.vis_lum_threshold, params.eotf));

  // A pixel of level v with an applicable d has v + nd <= threshold[d] and
  // v + nd + d + 1 > floor; its neighbours v +- (d + 1) then lie in
  // (floor - 3 nd, threshold[nd - 1]] (libvmaf's v_band_base, v_band_size).
  t.band_base = std::max(floor - 3 * nd + 1, 0);
  const int top = threshold[nd - 1];
  t.band_size = top >= t.band_base ? static_cast<unsigned>(top + 1 - t.band_base) : 0;

  t.first_diff.assign(t.band_size, static_cast<std::uint8_t>(nd));
  for (unsigned code = 0; code < t.band_size; ++code) {
    const int value = t.band_base + static_cast<int>(code) + nd;
    for (int d = nd - 1; d >= 0; --d) {
      if (value > threshold[d] || value + d + 1 <= floor) break;
      t.first_diff[code] = static_cast<std::uint8_t>(d);
    }
  }
  t.reciprocal = reciprocal_table();
  return t;
}

namespace {

// Runs shorter than this are computed pixel by pixel; longer ones one
// difference at a time over the whole run, in loops the compiler vectorises
// (all but the reads of the reciprocal table).
constexpr unsigned kLongRun = 8;

template <unsigned kDiffs>
void short_run(const std::uint16_t* own, std::size_t stride, unsigned len, unsigned first,
               const ContrastTables& t, float* best) {
  const float* reciprocal = t.reciprocal.data();
  for (unsigned c = 0; c < len; ++c) {
    const std::uint16_t* column = own + c;
    const int p0 = *column;
    float b = 0.0f;
    for (unsigned d = first; d < kDiffs; ++d) {
      const std::size_t k = (d + 1) * stride;
      const int other = std::max<int>(column[k], *(column - k));
      const float value = contrast_term(t.weights[d], p0, other, reciprocal[p0 + other]);
      b = value > b ? value : b;
    }
    best[c] = b;
  }
}

template <unsigned kDiffs>
void long_run(const std::uint16_t* own, std::size_t stride, unsigned len, unsigned first,
              const ContrastTables& t, float* best, ContrastScratch& s) {
  const float* reciprocal = t.reciprocal.data();
  std::fill_n(best, len, 0.0f);
  for (unsigned d = first; d < kDiffs; ++d) {
    const std::uint16_t* up = own + (d + 1) * stride;
    const std::uint16_t* down = own - (d + 1) * stride;
    const auto weight = static_cast<std::uint16_t>(t.weights[d]);
    for (unsigned c = 0; c < len; ++c) {
      const std::uint16_t other = std::max(up[c], down[c]);
      // weight * own fits 16 bits (9 * 4225), the product 32: the integer
      // of contrast_term() (pointwise.hpp), written so that it vectorises.
      const auto scaled = static_cast<std::uint16_t>(weight * own[c]);
      s.num[c] = static_cast<std::int32_t>(std::uint32_t{scaled} * other);
      s.den[c] = static_cast<std::int32_t>(own[c] + other);
    }
    for (unsigned c = 0; c < len; ++c) s.rcp[c] = reciprocal[s.den[c]];
    for (unsigned c = 0; c < len; ++c) {
      const float value = static_cast<float>(s.num[c]) * s.rcp[c];
      best[c] = value > best[c] ? value : best[c];
    }
  }
}

// contrast_row() for num_diffs == kDiffs.
template <unsigned kDiffs>
std::size_t contrast_row_for(const RowRuns& row, const std::uint16_t* counts, std::size_t stride,
                             const ContrastTables& t, float* out, ValueSum& total,
                             ContrastScratch& scratch) {
  std::size_t n = 0;
  for (const Run* run = row.begin; run != row.end; ++run) {
    const unsigned code = run->code;
    if (code == kNoCode) continue;
    const unsigned start = run->start;
    const unsigned len = row.end_of(run) - start;
    const std::uint16_t* own = counts + code * stride + start;
    float* best = out + n;
    if (len < kLongRun) {
      short_run<kDiffs>(own, stride, len, t.first_diff[code], t, best);
    } else {
      long_run<kDiffs>(own, stride, len, t.first_diff[code], t, best, scratch);
    }
    for (unsigned c = 0; c < len; ++c) {
      total.nonzero += best[c] > 0;
      total.units += value_units(best[c]);
    }
    n += len;
  }
  return n;
}

}  // namespace

std::size_t contrast_row(const RowRuns& row, const std::uint16_t* counts, std::size_t stride,
                         const ContrastTables& t, float* out, ValueSum& total,
                         ContrastScratch& scratch) {
  switch (t.num_diffs) {
    case 1:
      return contrast_row_for<1>(row, counts, stride, t, out, total, scratch);
    case 2:
      return contrast_row_for<2>(row, counts, stride, t, out, total, scratch);
    case 4:
      return contrast_row_for<4>(row, counts, stride, t, out, total, scratch);
    case 8:
      return contrast_row_for<8>(row, counts, stride, t, out, total, scratch);
    case 16:
      return contrast_row_for<16>(row, counts, stride, t, out, total, scratch);
    default:
      return contrast_row_for<32>(row, counts, stride, t, out, total, scratch);
  }
}

}  // namespace vqx::cambi
