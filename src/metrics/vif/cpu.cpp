#include "metrics/vif/cpu.hpp"

#include <algorithm>
#include <bit>
#include <cmath>
#include <span>
#include <string>

namespace vqx::vif {

namespace {

// Rows are processed in blocks of kLanes columns. Every row buffer is padded
// to a multiple of kLanes (and input pictures have 64-byte aligned rows), so
// blocks never need a scalar tail; columns past the width compute values
// that are never used.
constexpr std::size_t kLanes = 16;

std::size_t round_up(std::size_t n, std::size_t m) { return (n + m - 1) / m * m; }

// Row index y reflected into [0, n) about the first and last rows, without
// repeating them (..., 2, 1, 0, 1, 2, ...): libvmaf's border rule for rows
// and columns alike. Valid for -n < y < 2n - 1.
int mirror(int y, int n) {
  if (y < 0) return -y;
  if (y >= n) return 2 * (n - 1) - y;
  return y;
}

// Fills the `half` margin entries either side of row[0, w) by reflection.
template <typename T>
void mirror_edges(T* row, unsigned w, int half) {
  const int last = static_cast<int>(w) - 1;
  for (int f = 1; f <= half; ++f) {
    row[-f] = row[f];
    row[last + f] = row[last - f];
  }
}

// Q11 log2 of v for v >= 2^16: the top 16 bits index the table, the
// dropped bits add whole units. libvmaf's log2_32 and log2_64.
inline std::int32_t log2_q11_32(const std::uint16_t* lut, std::uint32_t v) {
  const int dropped = 16 - std::countl_zero(v);
  return lut[v >> dropped] + (dropped << kLogFracBits);
}
inline std::int32_t log2_q11_64(const std::uint16_t* lut, std::uint64_t v) {
  const int dropped = 48 - std::countl_zero(v);
  return lut[v >> dropped] + (dropped << kLogFracBits);
}

// How the vertical pass of the moments filter rounds its sums back down.
struct MomentRounding {
  std::uint32_t mean_add;
  int mean_shift;
  std::uint64_t square_add;
  int square_shift;
};

// The vertical pass brings every scale to 16-bit means. Scale 0 comes in at
// bpc bits, so its means shift by bpc (the filter gain is 2^16) and its
// second moments by 2 * (bpc - 8): 8-bit squares are kept whole. The other
// scales are 16-bit already and shift by 16.
MomentRounding moment_rounding(int scale, unsigned bpc) {
  if (scale > 0) return {32768, 16, 32768, 16};
  const int sq_shift = 2 * (static_cast<int>(bpc) - 8);
  return {1u << (bpc - 1), static_cast<int>(bpc),
          sq_shift == 0 ? 0 : std::uint64_t{1} << (sq_shift - 1), sq_shift};
}

// Vertical pass of the moments filter over one output row: rows_r[k] and
// rows_d[k] are the source rows under tap k. Writes, per column, the means
// (Q16 of a sample) and the second moments ref^2, dis^2 and ref*dis.
// SqAcc is uint32_t for 8-bit input (the sums fit, as in libvmaf) and
// uint64_t otherwise.
template <typename Src, typename SqAcc>
void vertical_moments(const Src* const* rows_r, const Src* const* rows_d,
                      std::span<const std::uint16_t> taps, std::size_t padded,
                      const MomentRounding& rd, std::uint16_t* __restrict mu1,
                      std::uint16_t* __restrict mu2, std::uint32_t* __restrict xx,
                      std::uint32_t* __restrict yy, std::uint32_t* __restrict xy) {
  constexpr std::size_t B = sizeof(SqAcc) == 4 ? 16 : 8;
  const std::size_t ntaps = taps.size();
  for (std::size_t j0 = 0; j0 < padded; j0 += B) {
    std::uint32_t a1[B] = {};
    std::uint32_t a2[B] = {};
    SqAcc q11[B] = {};
    SqAcc q22[B] = {};
    SqAcc q12[B] = {};
    for (std::size_t k = 0; k < ntaps; ++k) {
      const Src* r = rows_r[k] + j0;
      const Src* d = rows_d[k] + j0;
      const std::uint32_t c = taps[k];
      for (std::size_t l = 0; l < B; ++l) {
        const std::uint32_t x = r[l];
        const std::uint32_t y = d[l];
        a1[l] += c * x;
        a2[l] += c * y;
        q11[l] += SqAcc{c} * (x * x);
        q22[l] += SqAcc{c} * (y * y);
        q12[l] += SqAcc{c} * (x * y);
      }
    }
    for (std::size_t l = 0; l < B; ++l) {
      mu1[j0 + l] = static_cast<std::uint16_t>((a1[l] + rd.mean_add) >> rd.mean_shift);
      mu2[j0 + l] = static_cast<std::uint16_t>((a2[l] + rd.mean_add) >> rd.mean_shift);
      xx[j0 + l] = static_cast<std::uint32_t>((q11[l] + rd.square_add) >> rd.square_shift);
      yy[j0 + l] = static_cast<std::uint32_t>((q22[l] + rd.square_add) >> rd.square_shift);
      xy[j0 + l] = static_cast<std::uint32_t>((q12[l] + rd.square_add) >> rd.square_shift);
    }
  }
}

// Horizontal pass of the moments filter, then the local variances and
// covariance: sigma1^2 = E[x^2] - mu1^2 etc., all in Q16 of sample^2 units.
// The products of the 32-bit means are rounded to their top 32 bits.
// sigma2^2 is clamped at 0, sigma1^2 and sigma12 are not.
void horizontal_sigmas(const std::uint16_t* mu1, const std::uint16_t* mu2,
                       const std::uint32_t* xx, const std::uint32_t* yy, const std::uint32_t* xy,
                       std::span<const std::uint16_t> taps, int half, std::size_t padded,
                       std::int32_t* __restrict s11, std::int32_t* __restrict s22,
                       std::int32_t* __restrict s12) {
  constexpr std::size_t B = 8;
  const std::size_t ntaps = taps.size();
  for (std::size_t j0 = 0; j0 < padded; j0 += B) {
    std::uint32_t m1[B] = {};
    std::uint32_t m2[B] = {};
    std::uint64_t q11[B] = {};
    std::uint64_t q22[B] = {};
    std::uint64_t q12[B] = {};
    for (std::size_t k = 0; k < ntaps; ++k) {
      const std::ptrdiff_t off = static_cast<std::ptrdiff_t>(j0 + k) - half;
      const std::uint32_t c = taps[k];
      for (std::size_t l = 0; l < B; ++l) {
        m1[l] += c * mu1[off + l];
        m2[l] += c * mu2[off + l];
        q11[l] += std::uint64_t{c} * xx[off + l];
        q22[l] += std::uint64_t{c} * yy[off + l];
        q12[l] += std::uint64_t{c} * xy[off + l];
      }
    }
    for (std::size_t l = 0; l < B; ++l) {
      const std::uint64_t a = m1[l];
      const std::uint64_t b = m2[l];
      const auto mu1_sq = static_cast<std::uint32_t>((a * a + 0x80000000u) >> 32);
      const auto mu2_sq = static_cast<std::uint32_t>((b * b + 0x80000000u) >> 32);
      const auto mu1_mu2 = static_cast<std::uint32_t>((a * b + 0x80000000u) >> 32);
      const auto ex2 = static_cast<std::uint32_t>((q11[l] + 32768) >> 16);
      const auto ey2 = static_cast<std::uint32_t>((q22[l] + 32768) >> 16);
      const auto exy = static_cast<std::uint32_t>((q12[l] + 32768) >> 16);
      s11[j0 + l] = static_cast<std::int32_t>(ex2 - mu1_sq);
      s22[j0 + l] = std::max(static_cast<std::int32_t>(ey2 - mu2_sq), 0);
      s12[j0 + l] = static_cast<std::int32_t>(exy - mu1_mu2);
    }
  }
}

// The four integer sums of one scale.
struct ScaleAccum {
  std::int64_t num_log = 0;  // Q11 log2 terms of the numerator
  std::int64_t den_log = 0;  // Q11 log2 terms of the denominator
  std::int64_t num_lin = 0;  // sigma2^2 summed where sigma1^2 is below the noise
  std::int64_t den_lin = 0;  // count of those pixels
};

// Adds one row of pixels to the sums. Where the reference varies more than
// the noise (sigma1^2 >= sigma_nsq):
//   den += log2(1 + sigma1^2 / sigma_nsq)
//   num += log2(1 + g^2 sigma1^2 / (sv^2 + sigma_nsq)),  g = sigma12 / sigma1^2,
//          sv^2 = sigma2^2 - g sigma12, g capped at the gain limit,
// with each log2(1 + a / b) taken as log2(b + a) - log2(b) from the Q11
// table. Elsewhere the pixel counts 1 in den and 1 - sigma2^2 / 255^2 in num
// (applied in finish()). g and sv^2 use double exactly as libvmaf does.
void accumulate_row(const std::int32_t* s11, const std::int32_t* s22, const std::int32_t* s12,
                    unsigned w, double gain_limit, const std::uint16_t* lut, ScaleAccum& acc) {
  constexpr double kEps = 65536 * 1.0e-10;
  constexpr std::int32_t kLog2SigmaNsq = 17 << kLogFracBits;  // log2(2 * 65536)
  for (unsigned j = 0; j < w; ++j) {
    const std::int32_t sigma1_sq = s11[j];
    const std::int32_t sigma2_sq = s22[j];
    const std::int32_t sigma12 = s12[j];
    if (sigma1_sq >= kSigmaNsq) {
      acc.den_log +=
          log2_q11_32(lut, static_cast<std::uint32_t>(kSigmaNsq + sigma1_sq)) - kLog2SigmaNsq;
      if (sigma12 > 0 && sigma2_sq > 0) {
        double g = sigma12 / (sigma1_sq + kEps);
        const auto sv_sq_raw = static_cast<std::int32_t>(sigma2_sq - g * sigma12);
        const std::int32_t sv_sq = std::max(sv_sq_raw, 0);
        g = std::min(g, gain_limit);
        const auto noise = static_cast<std::uint32_t>(sv_sq + kSigmaNsq);
        const std::int64_t signal = static_cast<std::int64_t>(g * g * sigma1_sq) + noise;
        acc.num_log += log2_q11_64(lut, static_cast<std::uint64_t>(signal)) -
                       log2_q11_64(lut, std::uint64_t{noise});
      }
    } else {
      acc.num_lin += sigma2_sq;
      acc.den_lin += 1;
    }
  }
}

// The scale's num and den, computed in double and stored as float, in
// libvmaf's order of operations (16384 * 65025 is 65536 * 255^2: sigma2^2
// in Q16 relative to the 8-bit peak).
ScaleSums finish(const ScaleAccum& acc) {
  const double num_log = static_cast<double>(acc.num_log);
  const double den_log = static_cast<double>(acc.den_log);
  const double num_lin = static_cast<double>(acc.num_lin);
  const double den_lin = static_cast<double>(acc.den_lin);
  ScaleSums out;
  out.num = static_cast<float>(num_log / 2048.0 + (den_lin - (num_lin / 16384.0) / 65025.0));
  out.den = static_cast<float>(den_log / 2048.0 + den_lin);
  return out;
}

// Vertical pass of the downsampling filter over one output row.
template <typename Src>
void vertical_smooth(const Src* const* rows, std::span<const std::uint16_t> taps,
                     std::size_t padded, std::uint32_t add, int shift,
                     std::uint16_t* __restrict out) {
  constexpr std::size_t B = 16;
  const std::size_t ntaps = taps.size();
  for (std::size_t j0 = 0; j0 < padded; j0 += B) {
    std::uint32_t a[B] = {};
    for (std::size_t k = 0; k < ntaps; ++k) {
      const Src* r = rows[k] + j0;
      const std::uint32_t c = taps[k];
      for (std::size_t l = 0; l < B; ++l) a[l] += c * std::uint32_t{r[l]};
    }
    for (std::size_t l = 0; l < B; ++l) {
      out[j0 + l] = static_cast<std::uint16_t>((a[l] + add) >> shift);
    }
  }
}

// Horizontal pass of the downsampling filter, evaluated at even columns
// only: out[j] is the filtered value at column 2j.
void horizontal_smooth_even(const std::uint16_t* row, std::span<const std::uint16_t> taps,
                            int half, std::size_t out_padded, std::uint16_t* __restrict out) {
  constexpr std::size_t B = 16;
  const std::size_t ntaps = taps.size();
  for (std::size_t j0 = 0; j0 < out_padded; j0 += B) {
    std::uint32_t a[B] = {};
    for (std::size_t k = 0; k < ntaps; ++k) {
      const std::uint16_t* src = row + (static_cast<std::ptrdiff_t>(2 * j0 + k) - half);
      const std::uint32_t c = taps[k];
      for (std::size_t l = 0; l < B; ++l) a[l] += c * std::uint32_t{src[2 * l]};
    }
    for (std::size_t l = 0; l < B; ++l) {
      out[j0 + l] = static_cast<std::uint16_t>((a[l] + 32768) >> 16);
    }
  }
}

template <typename Src>
struct SquareAccumulator {
  using type = std::uint64_t;
};
template <>
struct SquareAccumulator<std::uint8_t> {
  using type = std::uint32_t;
};

}  // namespace

const std::array<std::uint16_t, 65536>& log2_q11_table() {
  // libvmaf rounds log2 to float before scaling, and that rounding matters:
  // 38 entries differ from a table built from log2 in double. Rounding a
  // double log2 to float gives the correctly rounded float, which
  // reproduces glibc's log2f table entry for entry (checked for all i).
  static const std::array<std::uint16_t, 65536> kTable = [] {
    std::array<std::uint16_t, 65536> t{};
    for (unsigned i = 32767; i < 65536; ++i) {
      const auto l = static_cast<float>(std::log2(static_cast<double>(i)));
      t[i] = static_cast<std::uint16_t>(std::round(l * 2048.0f));
    }
    return t;
  }();
  return kTable;
}

template <typename T>
void CpuKernel::Row<T>::allocate(std::size_t padded) {
  store.assign(kMargin + padded + kMargin, T{0});
  data = store.data() + kMargin;
}

Status CpuKernel::init(unsigned width, unsigned height, unsigned bpc) {
  if (width < kMinSide || height < kMinSide) {
    return Error(Errc::kUnsupported, "vif: picture " + std::to_string(width) + "x" +
                                         std::to_string(height) + " is too small (at least " +
                                         std::to_string(kMinSide) + "x" +
                                         std::to_string(kMinSide) + ")");
  }
  if (bpc < 8 || bpc > 16) {
    return Error(Errc::kUnsupported, "vif: bit depth " + std::to_string(bpc) + " not supported");
  }
  width_ = width;
  height_ = height;
  bpc_ = bpc;
  log2_table_ = log2_q11_table().data();

  for (int s = 1; s < kScaleCount; ++s) {
    const std::size_t w = width >> s;
    const std::size_t h = height >> s;
    pyr_stride_[s - 1] = round_up(w, kLanes);
    pyr_ref_[s - 1].assign(pyr_stride_[s - 1] * h, 0);
    pyr_dis_[s - 1].assign(pyr_stride_[s - 1] * h, 0);
  }
  // The even-column pass of the downsampling filter reads up to
  // round_up(width / 2, kLanes) * 2 + half columns of its row.
  const std::size_t padded = round_up(width, 2 * kLanes);
  mu1_.allocate(padded);
  mu2_.allocate(padded);
  xx_.allocate(padded);
  yy_.allocate(padded);
  xy_.allocate(padded);
  conv_ref_.allocate(padded);
  conv_dis_.allocate(padded);
  s11_.assign(padded, 0);
  s22_.assign(padded, 0);
  s12_.assign(padded, 0);
  return Status::Ok();
}

template <typename Src, typename SqAcc>
ScaleSums CpuKernel::scale_sums(PlaneView<Src> ref, PlaneView<Src> dis, int scale,
                                const KernelParams& params) {
  const unsigned w = width_ >> scale;
  const int h = static_cast<int>(height_ >> scale);
  const Filter& filter = kFilters[scale];
  const int half = filter.half;
  const std::size_t padded = round_up(w, kLanes);
  const MomentRounding rd = moment_rounding(scale, bpc_);

  std::array<const Src*, 2 * kMaxHalf + 1> rows_r{};
  std::array<const Src*, 2 * kMaxHalf + 1> rows_d{};
  ScaleAccum acc;
  for (int i = 0; i < h; ++i) {
    for (int k = 0; k <= 2 * half; ++k) {
      const auto y = static_cast<std::size_t>(mirror(i + k - half, h));
      rows_r[k] = ref.data + y * ref.stride;
      rows_d[k] = dis.data + y * dis.stride;
    }
    vertical_moments<Src, SqAcc>(rows_r.data(), rows_d.data(), filter.taps, padded, rd,
                                 mu1_.data, mu2_.data, xx_.data, yy_.data, xy_.data);
    mirror_edges(mu1_.data, w, half);
    mirror_edges(mu2_.data, w, half);
    mirror_edges(xx_.data, w, half);
    mirror_edges(yy_.data, w, half);
    mirror_edges(xy_.data, w, half);
    horizontal_sigmas(mu1_.data, mu2_.data, xx_.data, yy_.data, xy_.data, filter.taps, half,
                      padded, s11_.data(), s22_.data(), s12_.data());
    accumulate_row(s11_.data(), s22_.data(), s12_.data(), w, params.gain_limit, log2_table_,
                   acc);
  }
  return finish(acc);
}

template <typename Src>
void CpuKernel::downsample(PlaneView<Src> ref, PlaneView<Src> dis, int scale) {
  const unsigned w = width_ >> scale;
  const int h = static_cast<int>(height_ >> scale);
  const Filter& filter = kFilters[scale + 1];
  const int half = filter.half;
  const std::size_t padded = round_up(w, kLanes);
  const std::size_t out_padded = round_up(w / 2, kLanes);
  // Scale 0 arrives at bpc bits and leaves the vertical pass as 16-bit.
  const std::uint32_t add = scale == 0 ? 1u << (bpc_ - 1) : 32768u;
  const int shift = scale == 0 ? static_cast<int>(bpc_) : 16;
  std::uint16_t* out_r = pyr_ref_[scale].data();
  std::uint16_t* out_d = pyr_dis_[scale].data();
  const std::size_t out_stride = pyr_stride_[scale];

  std::array<const Src*, 2 * kMaxHalf + 1> rows{};
  for (int i = 0; i < h / 2; ++i) {
    for (int k = 0; k <= 2 * half; ++k) {
      rows[k] = ref.data + static_cast<std::size_t>(mirror(2 * i + k - half, h)) * ref.stride;
    }
    vertical_smooth(rows.data(), filter.taps, padded, add, shift, conv_ref_.data);
    for (int k = 0; k <= 2 * half; ++k) {
      rows[k] = dis.data + static_cast<std::size_t>(mirror(2 * i + k - half, h)) * dis.stride;
    }
    vertical_smooth(rows.data(), filter.taps, padded, add, shift, conv_dis_.data);
    mirror_edges(conv_ref_.data, w, half);
    mirror_edges(conv_dis_.data, w, half);
    horizontal_smooth_even(conv_ref_.data, filter.taps, half, out_padded,
                           out_r + static_cast<std::size_t>(i) * out_stride);
    horizontal_smooth_even(conv_dis_.data, filter.taps, half, out_padded,
                           out_d + static_cast<std::size_t>(i) * out_stride);
  }
}

template <typename Src>
void CpuKernel::run_scales(PlaneView<Src> ref0, PlaneView<Src> dis0, const KernelParams& params,
                           FrameSums& out) {
  out = {};
  using SqAcc0 = typename SquareAccumulator<Src>::type;
  if (!params.skip_scale0) out[0] = scale_sums<Src, SqAcc0>(ref0, dis0, 0, params);
  downsample(ref0, dis0, 0);
  for (int s = 1; s < kScaleCount; ++s) {
    if (s > 1) downsample(pyramid_view(pyr_ref_, s - 1), pyramid_view(pyr_dis_, s - 1), s - 1);
    out[s] = scale_sums<std::uint16_t, std::uint64_t>(pyramid_view(pyr_ref_, s),
                                                      pyramid_view(pyr_dis_, s), s, params);
  }
}

CpuKernel::PlaneView<std::uint16_t> CpuKernel::pyramid_view(
    const std::array<std::vector<std::uint16_t>, kScaleCount - 1>& pyr, int scale) const {
  return {pyr[scale - 1].data(), pyr_stride_[scale - 1]};
}

template <typename Src>
CpuKernel::PlaneView<Src> CpuKernel::view(const Plane& p) {
  return {p.row<Src>(0), p.stride_bytes() / sizeof(Src)};
}

Status CpuKernel::check(const Plane& p) const {
  const std::size_t bps = bpc_ > 8 ? 2 : 1;
  if (p.width() != width_ || p.height() != height_ || p.bytes_per_sample() != bps) {
    return Error(Errc::kMismatch, "vif: plane is " + std::to_string(p.width()) + "x" +
                                      std::to_string(p.height()) + ", expected " +
                                      std::to_string(width_) + "x" + std::to_string(height_));
  }
  // Blocks read whole kLanes groups of samples; Plane rows are padded to
  // 64 bytes, which covers them.
  if (p.stride_bytes() < round_up(width_, kLanes) * bps) {
    return Error(Errc::kInternal, "vif: plane rows are not padded to 16 samples");
  }
  return Status::Ok();
}

void CpuKernel::compute(const Plane& ref, const Plane& dist, const KernelParams& params,
                        FrameSums& out) {
  if (bpc_ == 8) {
    run_scales(view<std::uint8_t>(ref), view<std::uint8_t>(dist), params, out);
  } else {
    run_scales(view<std::uint16_t>(ref), view<std::uint16_t>(dist), params, out);
  }
}

}  // namespace vqx::vif
