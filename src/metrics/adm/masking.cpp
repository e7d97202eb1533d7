#include "metrics/adm/masking.hpp"

#include "metrics/adm/params.hpp"

namespace vqx::adm {

namespace {

// 32-bit two's complement helpers: libvmaf's C code does these operations on
// int32_t and relies on the hardware wrapping in the (pathological) cases
// where they overflow; these give the same bits without undefined behaviour.
inline std::int32_t wrap_abs(std::int32_t v) {
  return v < 0 ? static_cast<std::int32_t>(0u - static_cast<std::uint32_t>(v)) : v;
}
inline std::int32_t wrap_sub(std::int32_t a, std::int32_t b) {
  return static_cast<std::int32_t>(static_cast<std::uint32_t>(a) - static_cast<std::uint32_t>(b));
}
inline std::int32_t wrap_shl(std::int32_t v, int s) {
  return static_cast<std::int32_t>(static_cast<std::uint32_t>(v) << s);
}

// |c|/30 and |c|/15 in Q12 with rounding, truncated to 16 bits (scale 0).
inline std::int32_t div30_q12(std::int32_t m) {
  return static_cast<std::int16_t>((kOneBy30Q12 * m + 2048) >> 12);
}
inline std::int32_t div15_q12(std::int32_t m) {
  return static_cast<std::int16_t>((kOneBy15Q12 * m + 2048) >> 12);
}

// The same in Q32 (scales 1..3). libvmaf's rounding constant here is
// (1u << 31) stored in an int32_t, i.e. -2^31: the quotient is rounded
// down from one half below, and that is what must be reproduced.
constexpr std::int64_t kQ32Bias = -(std::int64_t{1} << 31);
inline std::int32_t div30_q32(std::int32_t m) {
  return static_cast<std::int32_t>((kOneBy30Q32 * m + kQ32Bias) >> 32);
}
inline std::int32_t div15_q32(std::int32_t m) {
  return static_cast<std::int32_t>((kOneBy15Q32 * m + kQ32Bias) >> 32);
}

// CSF weighting of scale 0: h and v in Q21 -> shifted by 15, d in Q23 ->
// shifted by 17 (with libvmaf's rounding constant 65535 for d).
inline std::int32_t weigh0_hv(std::int32_t q, std::int16_t s) {
  return static_cast<std::int16_t>((q * s + 16384) >> 15);
}
inline std::int32_t weigh0_d(std::int32_t q, std::int16_t s) {
  return static_cast<std::int16_t>((q * s + 65535) >> 17);
}

// CSF weighting of scales 1..3: Q32 weight, result kept in Q28 units.
inline std::int32_t weigh_n(std::int64_t q, std::int32_t s) {
  return static_cast<std::int32_t>((q * s + (1 << 27)) >> 28);
}

// max(|x| - thr, 0)^3 with libvmaf's intermediate roundings.
inline std::int64_t masked_cube(std::int32_t x, std::int32_t thr, const CubeRounding& r) {
  std::int32_t m = wrap_sub(wrap_abs(x), wrap_shl(thr, r.thr_shift));
  m = m < 0 ? 0 : m;
  const auto sq = static_cast<std::int32_t>((std::int64_t{m} * m + r.sq_add) >> r.sq_shift);
  return (std::int64_t{sq} * m + r.cub_add) >> r.cub_shift;
}

}  // namespace

void csf_row_scale0(DetailRow<std::int16_t> src, int begin, int end,
                    const std::array<std::uint16_t, 3>& q, std::int32_t* flt_sum,
                    std::int32_t* ctr_sum) {
  const std::int32_t qh = q[0], qv = q[1], qd = q[2];
  for (int j = begin; j < end; ++j) {
    const std::int32_t mh = wrap_abs(weigh0_hv(qh, src.h[j]));
    const std::int32_t mv = wrap_abs(weigh0_hv(qv, src.v[j]));
    const std::int32_t md = wrap_abs(weigh0_d(qd, src.d[j]));
    flt_sum[j] = div30_q12(mh) + div30_q12(mv) + div30_q12(md);
    ctr_sum[j] = div15_q12(mh) + div15_q12(mv) + div15_q12(md);
  }
}

void csf_row_scale_n(DetailRow<std::int32_t> src, int begin, int end,
                     const std::array<std::uint32_t, 3>& q, std::int32_t* flt_sum,
                     std::int32_t* ctr_sum) {
  const std::int64_t qh = q[0], qv = q[1], qd = q[2];
  for (int j = begin; j < end; ++j) {
    const std::int32_t mh = wrap_abs(weigh_n(qh, src.h[j]));
    const std::int32_t mv = wrap_abs(weigh_n(qv, src.v[j]));
    const std::int32_t md = wrap_abs(weigh_n(qd, src.d[j]));
    flt_sum[j] = div30_q32(mh) + div30_q32(mv) + div30_q32(md);
    ctr_sum[j] = div15_q32(mh) + div15_q32(mv) + div15_q32(md);
  }
}

void threshold_row(const std::int32_t* up, const std::int32_t* mid, const std::int32_t* down,
                   const std::int32_t* ctr, int begin, int end, std::int32_t* col_scratch,
                   std::int32_t* thr) {
  // Column sums over the three rows, for columns begin-1 .. end.
  std::int32_t* cs = col_scratch - (begin - 1);
  for (int j = begin - 1; j <= end; ++j) cs[j] = up[j] + mid[j] + down[j];
  for (int j = begin; j < end; ++j) {
    thr[j] = cs[j - 1] + cs[j] + cs[j + 1] - mid[j] + ctr[j];
  }
}

BandSums masked_cubes_scale0(DetailRow<std::int16_t> x, const std::int32_t* thr, int begin,
                             int end, const std::array<std::uint16_t, 3>& q,
                             const CubeRoundings& r) {
  const std::int16_t* bands[3] = {x.h, x.v, x.d};
  BandSums sums{};
  for (int b = 0; b < 3; ++b) {
    const std::int16_t* s = bands[b];
    const std::int32_t qb = q[b];
    const CubeRounding rb = r[b];
    std::int64_t sum = 0;
    for (int j = begin; j < end; ++j) sum += masked_cube(qb * s[j], thr[j], rb);
    sums[b] = sum;
  }
  return sums;
}

BandSums masked_cubes_scale_n(DetailRow<std::int32_t> x, const std::int32_t* thr, int begin,
                              int end, const std::array<std::uint32_t, 3>& q,
                              const CubeRoundings& r) {
  const std::int32_t* bands[3] = {x.h, x.v, x.d};
  BandSums sums{};
  for (int b = 0; b < 3; ++b) {
    const std::int32_t* s = bands[b];
    const std::int64_t qb = q[b];
    const CubeRounding rb = r[b];
    std::int64_t sum = 0;
    for (int j = begin; j < end; ++j) sum += masked_cube(weigh_n(qb, s[j]), thr[j], rb);
    sums[b] = sum;
  }
  return sums;
}

BandSumsU ref_cubes_scale0(DetailRow<std::int16_t> o, int begin, int end) {
  const std::int16_t* bands[3] = {o.h, o.v, o.d};
  BandSumsU sums{};
  for (int b = 0; b < 3; ++b) {
    const std::int16_t* s = bands[b];
    std::uint64_t sum = 0;
    for (int j = begin; j < end; ++j) {
      const std::uint64_t m = static_cast<std::uint16_t>(wrap_abs(s[j]));
      sum += m * m * m;
    }
    sums[b] = sum;
  }
  return sums;
}

BandSumsU ref_cubes_scale_n(DetailRow<std::int32_t> o, int begin, int end,
                            const RefCubeRounding& r) {
  const std::int32_t* bands[3] = {o.h, o.v, o.d};
  BandSumsU sums{};
  for (int b = 0; b < 3; ++b) {
    const std::int32_t* s = bands[b];
    std::uint64_t sum = 0;
    for (int j = begin; j < end; ++j) {
      const std::uint64_t m = static_cast<std::uint32_t>(wrap_abs(s[j]));
      sum += ((((m * m) + r.sq_add) >> r.sq_shift) * m + r.cub_add) >> r.cub_shift;
    }
    sums[b] = sum;
  }
  return sums;
}

}  // namespace vqx::adm
