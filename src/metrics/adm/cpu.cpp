#include "metrics/adm/cpu.hpp"

#include <algorithm>
#include <cmath>
#include <string>
#include <type_traits>

#include "core/index_math.hpp"
#include "metrics/adm/dwt.hpp"
#include "metrics/adm/masking.hpp"

namespace vqx::adm {

namespace {

// Border trimmed from each side of a band of n samples before summing, and
// the smaller one (one sample of filter margin) where the decoupling and CSF
// stages run. libvmaf computes both in double and truncates toward zero.
int sum_border(int n) { return static_cast<int>(n * kBorderFactor - 0.5); }
int stage_border(int n) { return static_cast<int>(n * kBorderFactor - 0.5 - 1); }

Range sum_range(int n) {
  const int b = sum_border(n);
  return {b, n - b};
}

Range stage_range(int n) {
  const int b = stage_border(n);
  return {std::max(b, 0), std::min(n - b + 2, n)};  // +2: filter margin on the far side
}

// ceil(log2(n) - bias), as libvmaf derives its adaptive shifts.
int ceil_log2(double n, double bias = 0.0) {
  return static_cast<int>(std::ceil(std::log2(n) - bias));
}

// Rounding constant for a right shift by s. libvmaf computes pow(2, s - 1)
// in unsigned arithmetic; for s = 0 that is 2^(2^32 - 1), converted to
// 0 on x86-64. Inside the sizes accepted here s is never 0.
std::int64_t half_of(int s) { return s > 0 ? std::int64_t{1} << (s - 1) : 0; }

}  // namespace

ScaleGeometry scale_geometry(int in_w, int in_h) {
  ScaleGeometry g;
  g.in_w = in_w;
  g.in_h = in_h;
  g.w = (in_w + 1) / 2;
  g.h = (in_h + 1) / 2;
  g.dec_x = stage_range(g.w);
  g.dec_y = stage_range(g.h);
  g.sum_x = sum_range(g.w);
  g.sum_y = sum_range(g.h);
  return g;
}

// Band rows of one scale: the current row of the six detail bands, and a
// three-row window (slot = row % 3) of the decoupled bands and of the
// masking-filter sums that the 3x3 threshold needs.
template <typename T>
struct AdmCpu::Window {
  DetailOut<T> ref, dis;
  std::array<DetailOut<T>, 3> restored, additive;
  // Filter sums with one column of padding on each side (index -1 .. w).
  // "a": from the additive part (masks the detail-loss numerator);
  // "r": from the restored part (masks the additive-impairment numerator).
  std::array<std::int32_t*, 3> flt_a, ctr_a, flt_r, ctr_r;
};

namespace {}  // namespace

SumConsts sum_consts(int scale, const ScaleGeometry& g) {
  SumConsts c;
  const int area_w = g.sum_x.end - g.sum_x.begin;
  const int area_h = g.sum_y.end - g.sum_y.begin;
  c.row_shift = ceil_log2(g.h);
  c.row_add = half_of(c.row_shift);
  if (scale == 0) {
    // x is weight * coefficient (Q21/Q23 * Q6); the threshold is brought to
    // the same format (<< 10, << 12); x^2 back to 32 bits (>> 29, >> 30);
    // x^3 shifted by a width-dependent amount so that a row sum fits.
    const int hv_cub = ceil_log2(g.w, 4.0);
    const int d_cub = ceil_log2(g.w, 3.0);
    c.cubes[0] = {10, std::int64_t{1} << 28, 29, half_of(hv_cub), hv_cub};
    c.cubes[1] = c.cubes[0];
    c.cubes[2] = {12, std::int64_t{1} << 29, 30, half_of(d_cub), d_cub};
    const int den_shift = std::max(ceil_log2(static_cast<double>(area_h * area_w), 20.0), 0);
    c.den_row_shift = den_shift;
    c.den_row_add = static_cast<std::uint64_t>(half_of(den_shift));
  } else {
    const int cub = ceil_log2(g.w);
    const CubeRounding r = {0, std::int64_t{1} << 29, 30, half_of(cub), cub};
    c.cubes = {r, r, r};
    // x^2 rounding of the denominator: libvmaf adds 1 << shift (not half).
    constexpr int kSqShift[3] = {31, 30, 31};
    const int sq = kSqShift[scale - 1];
    const int ref_cub = ceil_log2(area_w);
    c.ref = {std::uint64_t{1} << sq, sq, static_cast<std::uint64_t>(half_of(ref_cub)), ref_cub};
    c.den_row_shift = ceil_log2(area_h);
    c.den_row_add = static_cast<std::uint64_t>(half_of(c.den_row_shift));
  }
  return c;
}

namespace {

template <typename T>
DetailRow<T> view(const DetailOut<T>& o) {
  return {o.h, o.v, o.d};
}

// Pads a filter row by the boundary rule where the stage reached the band
// edge (index -1 reads 1, index w reads w - 1).
void pad_edges(std::int32_t* row, const Range& x, int w) {
  if (x.begin == 0) row[-1] = row[1];
  if (x.end == w) row[w] = row[w - 1];
}

}  // namespace

Expected<AdmCpu> AdmCpu::create(const AdmParams& params, unsigned width, unsigned height,
                                unsigned bpc, bool allocate) {
  if (width < kMinSize || height < kMinSize) {
    return Error(Errc::kUnsupported, "adm: picture " + std::to_string(width) + "x" +
                                         std::to_string(height) + " is too small (at least " +
                                         std::to_string(kMinSize) + "x" + std::to_string(kMinSize) +
                                         "; libvmaf reads outside the picture below that)");
  }
  if (bpc < 8 || bpc > 16) {
    return Error(Errc::kUnsupported, "adm: bit depth " + std::to_string(bpc) + " not supported");
  }
  if (params.norm_view_dist * params.ref_display_height < kMinViewDistTimesHeight) {
    return Error(Errc::kInvalidArgument,
                 "adm: adm_norm_view_dist * adm_ref_display_height must be at least 3240 "
                 "(3 x 1080); libvmaf's integer ADM cannot represent smaller viewing conditions");
  }
  AdmCpu c;
  c.params_ = params;
  VQX_ASSIGN_OR_RETURN(c.csf_, make_csf_weights(params));
  c.dec_ = make_decouple_params(params.enhn_gain_limit);
  c.width_ = width;
  c.height_ = height;
  c.bpc_ = bpc;
  int in_w = static_cast<int>(width);
  int in_h = static_cast<int>(height);
  for (int s = 0; s < kScales; ++s) {
    c.geo_[s] = scale_geometry(in_w, in_h);
    in_w = c.geo_[s].w;
    in_h = c.geo_[s].h;
  }
  if (!allocate) return c;

  const auto area = [](const ScaleGeometry& g) {
    return static_cast<std::size_t>(g.w) * static_cast<std::size_t>(g.h);
  };
  const std::size_t w0 = static_cast<std::size_t>(c.geo_[0].w);
  const std::size_t w1 = static_cast<std::size_t>(c.geo_[1].w);
  const std::size_t ref_a16 = c.bands_.plan<std::int16_t>(area(c.geo_[0]));
  const std::size_t dis_a16 = c.bands_.plan<std::int16_t>(area(c.geo_[0]));
  const std::size_t ref_a1 = c.bands_.plan<std::int32_t>(area(c.geo_[1]));
  const std::size_t dis_a1 = c.bands_.plan<std::int32_t>(area(c.geo_[1]));
  const std::size_t ref_a2 = c.bands_.plan<std::int32_t>(area(c.geo_[2]));
  const std::size_t dis_a2 = c.bands_.plan<std::int32_t>(area(c.geo_[2]));
  c.bands_.allocate();
  c.ref_a16_ = c.bands_.get<std::int16_t>(ref_a16);
  c.dis_a16_ = c.bands_.get<std::int16_t>(dis_a16);
  c.ref_a1_ = c.bands_.get<std::int32_t>(ref_a1);
  c.dis_a1_ = c.bands_.get<std::int32_t>(dis_a1);
  c.ref_a2_ = c.bands_.get<std::int32_t>(ref_a2);
  c.dis_a2_ = c.bands_.get<std::int32_t>(dis_a2);
  // Two vertical-pass rows (lo, hi) of w + 3 (index -1 .. w + 1).
  c.tmp16_.assign(2 * (static_cast<std::size_t>(width) + 3), 0);
  c.tmp32_.assign(2 * (static_cast<std::size_t>(c.geo_[1].in_w) + 3), 0);
  // 6 current rows + 3 slots x 6 decoupled rows.
  constexpr std::size_t kBandRows = 6 + 3 * 6;
  c.rows16_.assign(kBandRows * w0, 0);
  c.rows32_.assign(kBandRows * w1, 0);
  // 3 slots x 4 filter rows, each w + 2.
  c.mask_rows_.assign(3 * 4 * (w0 + 2), 0);
  c.col_scratch_.assign(w0 + 2, 0);
  c.thr_.assign(w0, 0);
  c.ratio_scratch_.assign(3 * w0, 0);
  return c;
}

template <typename T, typename Step>
void AdmCpu::sweep(int scale, Step&& transform_row, ScaleSums& sums) {
  const ScaleGeometry& g = geo_[scale];
  const SumConsts k = sum_consts(scale, g);
  constexpr bool kScale0 = std::is_same_v<T, std::int16_t>;

  // Lay the window out over this scale's row storage.
  Window<T> win;
  {
    T* base;
    if constexpr (kScale0) {
      base = rows16_.data();
    } else {
      base = rows32_.data();
    }
    const auto w = static_cast<std::size_t>(g.w);
    auto take = [&]() {
      DetailOut<T> o{base, base + w, base + 2 * w};
      base += 3 * w;
      return o;
    };
    win.ref = take();
    win.dis = take();
    for (int s = 0; s < 3; ++s) {
      win.restored[s] = take();
      win.additive[s] = take();
    }
    std::int32_t* m = mask_rows_.data() + 1;
    const std::size_t mw = w + 2;
    for (int s = 0; s < 3; ++s) {
      win.flt_a[s] = m;
      win.ctr_a[s] = m + mw;
      win.flt_r[s] = m + 2 * mw;
      win.ctr_r[s] = m + 3 * mw;
      m += 4 * mw;
    }
  }

  const bool with_aim = !params_.skip_aim;
  auto csf_row = [&](const DetailOut<T>& src, std::int32_t* flt, std::int32_t* ctr) {
    if constexpr (kScale0) {
      csf_row_scale0(view(src), g.dec_x.begin, g.dec_x.end, csf_.q_scale0, flt, ctr);
    } else {
      csf_row_scale_n(view(src), g.dec_x.begin, g.dec_x.end, csf_.q[scale], flt, ctr);
    }
    pad_edges(flt, g.dec_x, g.w);
  };
  auto cubes = [&](const DetailOut<T>& x) {
    if constexpr (kScale0) {
      return masked_cubes_scale0(view(x), thr_.data(), g.sum_x.begin, g.sum_x.end, csf_.q_scale0,
                                 k.cubes);
    } else {
      return masked_cubes_scale_n(view(x), thr_.data(), g.sum_x.begin, g.sum_x.end, csf_.q[scale],
                                  k.cubes);
    }
  };
  auto add_row = [&](std::array<std::int64_t, 3>& acc, const BandSums& row) {
    for (int b = 0; b < 3; ++b) acc[b] += (row[b] + k.row_add) >> k.row_shift;
  };
  // Numerator sums of row i, whose lower neighbour is row `below`.
  auto masked_row = [&](int i, int below) {
    const int above = reflect101_repeat_end(i - 1, g.h);
    const int s_up = above % 3, s_mid = i % 3, s_dn = below % 3;
    threshold_row(win.flt_a[s_up], win.flt_a[s_mid], win.flt_a[s_dn], win.ctr_a[s_mid],
                  g.sum_x.begin, g.sum_x.end, col_scratch_.data(), thr_.data());
    add_row(sums.dlm, cubes(win.restored[s_mid]));
    if (with_aim) {
      threshold_row(win.flt_r[s_up], win.flt_r[s_mid], win.flt_r[s_dn], win.ctr_r[s_mid],
                    g.sum_x.begin, g.sum_x.end, col_scratch_.data(), thr_.data());
      add_row(sums.aim, cubes(win.additive[s_mid]));
    }
  };

  for (int i = 0; i < g.h; ++i) {
    transform_row(i, win.ref, win.dis);
    if (g.sum_y.contains(i)) {
      BandSumsU row;
      if constexpr (kScale0) {
        row = ref_cubes_scale0(view(win.ref), g.sum_x.begin, g.sum_x.end);
      } else {
        row = ref_cubes_scale_n(view(win.ref), g.sum_x.begin, g.sum_x.end, k.ref);
      }
      for (int b = 0; b < 3; ++b) sums.den[b] += (row[b] + k.den_row_add) >> k.den_row_shift;
    }
    if (g.dec_y.contains(i)) {
      const int s = i % 3;
      decouple_row(view(win.ref), view(win.dis), g.dec_x.begin, g.dec_x.end, dec_,
                   ratio_scratch_.data(), win.restored[s], win.additive[s]);
      csf_row(win.additive[s], win.flt_a[s], win.ctr_a[s]);
      if (with_aim) csf_row(win.restored[s], win.flt_r[s], win.ctr_r[s]);
    }
    if (i >= 1 && g.sum_y.contains(i - 1)) masked_row(i - 1, i);
  }
  if (g.sum_y.contains(g.h - 1)) masked_row(g.h - 1, g.h - 1);
}

template <typename Src>
void AdmCpu::run_scale0(const Plane& ref, const Plane& dis, ScaleSums& sums) {
  const ScaleGeometry& g = geo_[0];
  const int bpc = static_cast<int>(bpc_);
  const DwtScratch<std::int16_t> tmp{tmp16_.data() + 1, tmp16_.data() + 1 + g.in_w + 3};
  // The approximation band as int16_t (Dwt0Row::a16), for scale 1.
  std::int16_t* ref_a = ref_a16_;
  std::int16_t* dis_a = dis_a16_;
  const auto w = static_cast<std::size_t>(g.w);
  auto a_only = [](std::int16_t* a16) { return Dwt0Row{nullptr, nullptr, nullptr, nullptr, a16}; };

  auto source_rows = [&](const Plane& p, int i, const Src* rows[4]) {
    for (int k = 0; k < 4; ++k) {
      rows[k] = p.row<Src>(static_cast<unsigned>(reflect101_repeat_end(2 * i - 1 + k, g.in_h)));
    }
  };

  if (params_.skip_scale0) {
    // Only the approximation band, for scale 1.
    for (int i = 0; i < g.h; ++i) {
      const Src* rows[4];
      source_rows(ref, i, rows);
      dwt_scale0_row(rows, g.in_w, bpc, tmp, a_only(ref_a + i * w));
      source_rows(dis, i, rows);
      dwt_scale0_row(rows, g.in_w, bpc, tmp, a_only(dis_a + i * w));
    }
    return;
  }
  sweep<std::int16_t>(
      0,
      [&](int i, DetailOut<std::int16_t>& r, DetailOut<std::int16_t>& d) {
        const Src* rows[4];
        source_rows(ref, i, rows);
        dwt_scale0_row(rows, g.in_w, bpc, tmp, Dwt0Row{nullptr, r.v, r.h, r.d, ref_a + i * w});
        source_rows(dis, i, rows);
        dwt_scale0_row(rows, g.in_w, bpc, tmp, Dwt0Row{nullptr, d.v, d.h, d.d, dis_a + i * w});
      },
      sums);
}

void AdmCpu::run_scale_n(int scale, ScaleSums& sums) {
  const ScaleGeometry& g = geo_[scale];
  // Inputs and outputs of the approximation band: scale 1 reads scale 0's
  // (int16_t) and writes a1, scale 2 reads a1 and writes a2, scale 3 reads a2.
  const std::int32_t* ref_in = scale == 2 ? ref_a1_ : ref_a2_;
  const std::int32_t* dis_in = scale == 2 ? dis_a1_ : dis_a2_;
  std::int32_t* ref_out = scale == 1 ? ref_a1_ : (scale == 2 ? ref_a2_ : nullptr);
  std::int32_t* dis_out = scale == 1 ? dis_a1_ : (scale == 2 ? dis_a2_ : nullptr);
  const auto in_stride = static_cast<std::size_t>(g.in_w);
  const auto w = static_cast<std::size_t>(g.w);
  const DwtScratch<std::int32_t> tmp{tmp32_.data() + 1, tmp32_.data() + 1 + g.in_w + 3};

  auto source_rows = [&](const auto* base, int i, const auto* rows[4]) {
    for (int k = 0; k < 4; ++k) {
      rows[k] =
          base + static_cast<std::size_t>(reflect101_repeat_end(2 * i - 1 + k, g.in_h)) * in_stride;
    }
  };
  auto out_row = [&](std::int32_t* base, int i) { return base ? base + i * w : nullptr; };
  if (scale == 1) {
    sweep<std::int32_t>(
        scale,
        [&](int i, DetailOut<std::int32_t>& r, DetailOut<std::int32_t>& d) {
          const std::int16_t* rows[4];
          source_rows(ref_a16_, i, rows);
          dwt_scale1_row(rows, g.in_w, tmp, DwtNRow{out_row(ref_out, i), r.v, r.h, r.d});
          source_rows(dis_a16_, i, rows);
          dwt_scale1_row(rows, g.in_w, tmp, DwtNRow{out_row(dis_out, i), d.v, d.h, d.d});
        },
        sums);
    return;
  }
  sweep<std::int32_t>(
      scale,
      [&](int i, DetailOut<std::int32_t>& r, DetailOut<std::int32_t>& d) {
        const std::int32_t* rows[4];
        source_rows(ref_in, i, rows);
        dwt_scale_n_row(rows, g.in_w, scale, tmp, DwtNRow{out_row(ref_out, i), r.v, r.h, r.d});
        source_rows(dis_in, i, rows);
        dwt_scale_n_row(rows, g.in_w, scale, tmp, DwtNRow{out_row(dis_out, i), d.v, d.h, d.d});
      },
      sums);
}

void AdmCpu::compute(const Plane& ref, const Plane& dis, AdmScores& out) {
  std::array<ScaleSums, kScales> sums{};
  if (bpc_ == 8) {
    run_scale0<std::uint8_t>(ref, dis, sums[0]);
  } else {
    run_scale0<std::uint16_t>(ref, dis, sums[0]);
  }
  for (int s = 1; s < kScales; ++s) run_scale_n(s, sums[s]);
  finish(sums, out);
}

void AdmCpu::finish(const std::array<ScaleSums, kScales>& sums, AdmScores& out) const {
  const float third = 1.0f / 3.0f;
  double num = 0;
  double den = 0;
  double aim_num = 0;
  for (int s = 0; s < kScales; ++s) {
    const ScaleGeometry& g = geo_[s];
    const SumConsts k = sum_consts(s, g);
    const int area = (g.sum_y.end - g.sum_y.begin) * (g.sum_x.end - g.sum_x.begin);
    const std::array<float, 3> weight = {csf_.scale[s].hv, csf_.scale[s].hv, csf_.scale[s].diag};
    const float noise = std::pow(static_cast<float>(area * params_.noise_weight), third);
    const float no_noise = std::pow(static_cast<float>(area * 0.0), third);

    float num_scale = 0;
    float den_scale = 0;
    float aim_scale = 0;
    if (s == 0 && params_.skip_scale0) {
      den_scale = 1e-10f;  // libvmaf's guard against dividing by zero
    } else {
      // Denominator: the CSF weight is applied after cubing, in double.
      double den_div = 0;
      if (s == 0) {
        den_div = std::pow(2, 18 - k.den_row_shift);
      } else {
        constexpr int kDenQ[3] = {32, 27, 23};
        den_div = std::pow(2, kDenQ[s - 1] - k.den_row_shift - k.ref.cub_shift);
      }
      std::array<float, 3> den_b{};
      for (int b = 0; b < 3; ++b) {
        const double c = static_cast<double>(sums[s].den[b]) / den_div *
                         std::pow(static_cast<double>(weight[b]), 3);
        den_b[b] = std::pow(static_cast<float>(c), third) + noise;
      }
      den_scale = den_b[0] + den_b[1] + den_b[2];

      // Numerators: scale 0 converts through double, scales 1..3 divide a
      // float by a float power of two (libvmaf's final_shift).
      auto band_value = [&](std::int64_t acc, int b) -> float {
        if (s == 0) {
          const int q = b == 2 ? 57 : 52;
          return static_cast<float>(static_cast<double>(acc) /
                                    std::pow(2, q - k.cubes[b].cub_shift - k.row_shift));
        }
        constexpr int kNumQ[3] = {45, 39, 36};
        const auto div =
            static_cast<float>(std::pow(2, kNumQ[s - 1] - k.cubes[b].cub_shift - k.row_shift));
        return static_cast<float>(acc) / div;
      };
      std::array<float, 3> num_b{};
      std::array<float, 3> aim_b{};
      for (int b = 0; b < 3; ++b) {
        num_b[b] = std::pow(band_value(sums[s].dlm[b], b), third) + noise;
        if (!params_.skip_aim) {
          aim_b[b] = std::pow(band_value(sums[s].aim[b], b), third) + no_noise;
        }
      }
      num_scale = num_b[0] + num_b[1] + num_b[2];
      if (!params_.skip_aim) aim_scale = aim_b[0] + aim_b[1] + aim_b[2];
    }
    num += num_scale;
    den += den_scale;
    aim_num += aim_scale;
    out.num_scale[s] = num_scale;
    out.den_scale[s] = den_scale;
    out.scale[s] = static_cast<double>(num_scale) / static_cast<double>(den_scale);
  }

  const double limit = 1e-10 * static_cast<int>(width_ * height_) / (1920.0 * 1080.0);
  num = num < limit ? 0 : num;
  den = den < limit ? 0 : den;
  if (den == 0.0) {
    // libvmaf leaves the AIM score unset here; VQX reports no impairment.
    out.adm2 = 1.0;
    out.aim = 0.0;
  } else {
    out.aim = aim_num / den;
    out.adm2 = num / den;
  }
  out.num = num;
  out.den = den;
  const double dlm = params_.dlm_weight;
  const double blended = out.adm2 * dlm + (1 - out.aim) * (1 - dlm);
  out.adm3 = blended > params_.min_val ? blended : params_.min_val;
}

}  // namespace vqx::adm
