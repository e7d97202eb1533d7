#include "metrics/float_adm/cpu.hpp"

#include <algorithm>
#include <cmath>
#include <string>

#include "core/index_math.hpp"
#include "metrics/float_adm/decouple.hpp"
#include "metrics/float_adm/dwt.hpp"
#include "metrics/float_adm/masking.hpp"
#include "metrics/float_adm/scores.hpp"

namespace vqx::float_adm {

namespace {

using float_common::FloatImage;
using float_common::FloatRows;

// Row buffers: the h, v, d rows of ref and dist, a row for a-bands nobody
// reads (scale 3), and a ring of three rows of the weighted values.
enum RowBuffer : std::size_t {
  kRefH,
  kRefV,
  kRefD,
  kDistH,
  kDistV,
  kDistD,
  kDiscard,
  kRing,  // then kRingSlots x kWeightedRows rows
};
constexpr std::size_t kRingSlots = 3;
// Per ring slot: csf_r, flt_r, csf_a, flt_a, each with h, v, d rows.
enum WeightedRow : std::size_t {
  kCsfR = 0,
  kFltR = kBands,
  kCsfA = 2 * kBands,
  kFltA = 3 * kBands
};
constexpr std::size_t kWeightedRows = 4 * kBands;
constexpr std::size_t kRowCount = kRing + kRingSlots * kWeightedRows;
// Floats before each row's first sample: room for column -1, aligned.
constexpr std::size_t kRowLead = 16;

// libvmaf's (int)(side * ADM_BORDER_FACTOR - 0.5 - extra): truncated.
int border(unsigned side, double extra) {
  return static_cast<int>(side * kBorderFactor - 0.5 - extra);
}

}  // namespace

ScaleGeometry scale_geometry(unsigned w, unsigned h) {
  ScaleGeometry g;
  g.w = w;
  g.h = h;
  // adm_cm_s and adm_csf_den_scale_s.
  g.sums.left = border(w, 0);
  g.sums.top = border(h, 0);
  g.sums.right = static_cast<int>(w) - g.sums.left;
  g.sums.bottom = static_cast<int>(h) - g.sums.top;
  // adm_decouple_s and adm_csf_s: one more each side ("for filter tap"),
  // the far edge computed from the unclamped near one, then clamped.
  Region& r = g.weighted;
  r.left = border(w, 1);
  r.top = border(h, 1);
  r.right = std::min(static_cast<int>(w) - r.left + 2, static_cast<int>(w));
  r.bottom = std::min(static_cast<int>(h) - r.top + 2, static_cast<int>(h));
  r.left = std::max(r.left, 0);
  r.top = std::max(r.top, 0);
  return g;
}

Status check_picture_size(unsigned width, unsigned height) {
  if (width < kMinSide || height < kMinSide) {
    return Error(Errc::kUnsupported,
                 "float_adm: a " + std::to_string(width) + "x" + std::to_string(height) +
                     " picture is too small: at least " + std::to_string(kMinSide) + "x" +
                     std::to_string(kMinSide) +
                     " is needed (its fourth wavelet level must be 2x2 or larger)");
  }
  return Status::Ok();
}

Status AdmPipeline::init(unsigned width, unsigned height, const Params& params) {
  VQX_RETURN_IF_ERROR(check_picture_size(width, height));
  params_ = params;
  weights_ = csf_weights(params);
  cos_1deg_sq_ = cos_1deg_squared();
  unsigned w = width;
  unsigned h = height;
  for (int s = 0; s < kScales; ++s) {
    w = (w + 1) / 2;
    h = (h + 1) / 2;
    geometry_[s] = scale_geometry(w, h);
    if (s < kScales - 1) {
      ref_a_[s].resize(w, h);
      dist_a_[s].resize(w, h);
    }
  }
  const unsigned band_w = geometry_[0].w;
  row_stride_ = round_up(kRowLead + band_w + 1, 16);
  rows_.assign(kRowCount * row_stride_, 0.0f);
  dwt_scratch_.assign(dwt_scratch_size(width), 0.0f);
  sum_scratch_.assign(3 * std::size_t{band_w}, 0.0f);
  angle_scratch_.assign(band_w, 0);
  return Status::Ok();
}

void AdmPipeline::compute(FloatRows& ref, FloatRows& dist, FrameSums& out) {
  for (int s = 0; s < kScales; ++s) {
    if (s > 0) {
      scale_ref_.read_image(ref_a_[s - 1]);
      scale_dist_.read_image(dist_a_[s - 1]);
    }
    FloatRows& r = s == 0 ? ref : scale_ref_;
    FloatRows& d = s == 0 ? dist : scale_dist_;
    if (s == 0 && params_.skip_scale0) {
      approx_only(s, r, d);
      out[s] = {0.0f, kSkippedScaleDen, 0.0f};
    } else {
      run_scale(s, r, d, out[s]);
    }
  }
}

void AdmPipeline::approx_only(int scale, FloatRows& ref, FloatRows& dist) {
  for (unsigned i = 0; i < geometry_[scale].h; ++i) {
    dwt_row(ref, i, {ref_a_[scale].row(i), nullptr, nullptr, nullptr}, true, dwt_scratch_);
    dwt_row(dist, i, {dist_a_[scale].row(i), nullptr, nullptr, nullptr}, true, dwt_scratch_);
  }
}

void AdmPipeline::run_scale(int scale, FloatRows& ref, FloatRows& dist, ScaleSums& out) {
  const ScaleGeometry& g = geometry_[scale];
  const BandWeights& weights = weights_[scale];
  const Norm norm{params_.p_norm};
  const bool bypass = params_.bypass_cm != 0;
  auto row = [&](std::size_t k) { return rows_.data() + k * row_stride_ + kRowLead; };
  auto ring = [&](unsigned i, std::size_t k) {
    return row(kRing + (i % kRingSlots) * kWeightedRows + k);
  };
  // The h, v, d rows of one of the WeightedRow groups of row i.
  auto band_rows = [&](unsigned i, std::size_t group) -> ConstBandRows {
    return {ring(i, group), ring(i, group + 1), ring(i, group + 2)};
  };
  const bool keep_a = scale < kScales - 1;
  const ConstBandRows ref_hvd = {row(kRefH), row(kRefV), row(kRefD)};
  const ConstBandRows dist_hvd = {row(kDistH), row(kDistV), row(kDistD)};

  BandSums num{};
  BandSums den{};
  BandSums aim{};
  const Region& sr = g.sums;
  const Region& wr = g.weighted;
  const int h = static_cast<int>(g.h);

  // The masked terms of row k, from ring rows k - 1, k, k + 1 (mirrored).
  auto mask_row = [&](int k) {
    const auto up = static_cast<unsigned>(k == 0 ? 1 : k - 1);
    const auto at = static_cast<unsigned>(k);
    const auto down = static_cast<unsigned>(k == h - 1 ? h - 1 : k + 1);
    const Masker by_a{{band_rows(up, kFltA), band_rows(at, kFltA), band_rows(down, kFltA)},
                      band_rows(at, kCsfA)};
    const Masker by_r{{band_rows(up, kFltR), band_rows(at, kFltR), band_rows(down, kFltR)},
                      band_rows(at, kCsfR)};
    // DLM: the restored part masked by the additive part; AIM: the reverse.
    add_masked_row(band_rows(at, kCsfR), by_a, static_cast<unsigned>(sr.left),
                   static_cast<unsigned>(sr.right), bypass, norm, sum_scratch_, num);
    add_masked_row(band_rows(at, kCsfA), by_r, static_cast<unsigned>(sr.left),
                   static_cast<unsigned>(sr.right), bypass, norm, sum_scratch_, aim);
  };

  for (int i = 0; i < h; ++i) {
    const auto ui = static_cast<unsigned>(i);
    dwt_row(ref, ui,
            {keep_a ? ref_a_[scale].row(ui) : row(kDiscard), row(kRefH), row(kRefV), row(kRefD)},
            false, dwt_scratch_);
    dwt_row(
        dist, ui,
        {keep_a ? dist_a_[scale].row(ui) : row(kDiscard), row(kDistH), row(kDistV), row(kDistD)},
        false, dwt_scratch_);
    if (i >= sr.top && i < sr.bottom) {
      add_reference_row(ref_hvd, weights, static_cast<unsigned>(sr.left),
                        static_cast<unsigned>(sr.right), norm, sum_scratch_, den);
    }
    if (i >= wr.top && i < wr.bottom) {
      auto rows_of = [&](std::size_t group) -> BandRows {
        return {ring(ui, group), ring(ui, group + 1), ring(ui, group + 2)};
      };
      const WeightedRows out_rows{rows_of(kCsfR), rows_of(kFltR), rows_of(kCsfA), rows_of(kFltA)};
      decouple_row(ref_hvd, dist_hvd, static_cast<unsigned>(wr.left),
                   static_cast<unsigned>(wr.right), weights, params_.enhn_gain_limit, cos_1deg_sq_,
                   out_rows, angle_scratch_);
      for (int b = 0; b < kBands; ++b) {
        mirror_columns(out_rows.flt_r[b], g.w);
        mirror_columns(out_rows.flt_a[b], g.w);
      }
    }
    if (i >= 1 && i - 1 >= sr.top && i - 1 < sr.bottom) mask_row(i - 1);
  }
  if (h - 1 >= sr.top && h - 1 < sr.bottom) mask_row(h - 1);

  out = finish_scale(num, den, aim, g, params_);
}

}  // namespace vqx::float_adm
