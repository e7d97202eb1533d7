#include "metrics/adm/masking.hpp"

#include "metrics/adm/column_loops.hpp"
#include "metrics/adm/params.hpp"

namespace vqx::adm {

namespace {

// The fixed-point steps are params.hpp's (div30_q12, csf0_hv, csf_n,
// masked_cube, ..., shared with the GPU twin); their int64 shifts are
// shift_right's, which vectorises on the CPU.

// CSF weighting of scale 0: h and v in Q21, d in Q23 (csf0_hv, csf0_d).
VQX_FORCE_INLINE std::int32_t weigh0_hv(std::int32_t q, std::int16_t s) { return csf0_hv(q * s); }
VQX_FORCE_INLINE std::int32_t weigh0_d(std::int32_t q, std::int16_t s) { return csf0_d(q * s); }

// CSF weighting of scales 1..3: Q32 weight, result kept in Q28 units.
VQX_FORCE_INLINE std::int32_t weigh_n(std::int64_t q, std::int32_t s) { return csf_n(q * s); }

}  // namespace

namespace reference {

VQX_CLONES void csf_row_scale0(DetailRow<std::int16_t> src, int begin, int end,
                               const std::array<std::uint16_t, 3>& q, std::int32_t* flt_sum,
                               std::int32_t* ctr_sum) {
  const std::int16_t* __restrict sh = src.h;
  const std::int16_t* __restrict sv = src.v;
  const std::int16_t* __restrict sd = src.d;
  std::int32_t* __restrict flt = flt_sum;
  std::int32_t* __restrict ctr = ctr_sum;
  const std::int32_t qh = q[0], qv = q[1], qd = q[2];
  for_columns<32>(begin, end, [=](int j) VQX_INLINE_LAMBDA {
    const std::int32_t mh = wrap_abs(weigh0_hv(qh, sh[j]));
    const std::int32_t mv = wrap_abs(weigh0_hv(qv, sv[j]));
    const std::int32_t md = wrap_abs(weigh0_d(qd, sd[j]));
    flt[j] = div30_q12(mh) + div30_q12(mv) + div30_q12(md);
    ctr[j] = div15_q12(mh) + div15_q12(mv) + div15_q12(md);
  });
}

VQX_CLONES void csf_row_scale_n(DetailRow<std::int32_t> src, int begin, int end,
                                const std::array<std::uint32_t, 3>& q, std::int32_t* flt_sum,
                                std::int32_t* ctr_sum) {
  const std::int32_t* __restrict sh = src.h;
  const std::int32_t* __restrict sv = src.v;
  const std::int32_t* __restrict sd = src.d;
  std::int32_t* __restrict flt = flt_sum;
  std::int32_t* __restrict ctr = ctr_sum;
  const std::int64_t qh = q[0], qv = q[1], qd = q[2];
  for_columns(begin, end, [=](int j) VQX_INLINE_LAMBDA {
    const std::int32_t mh = wrap_abs(weigh_n(qh, sh[j]));
    const std::int32_t mv = wrap_abs(weigh_n(qv, sv[j]));
    const std::int32_t md = wrap_abs(weigh_n(qd, sd[j]));
    flt[j] = div30_q32(mh) + div30_q32(mv) + div30_q32(md);
    ctr[j] = div15_q32(mh) + div15_q32(mv) + div15_q32(md);
  });
}

VQX_CLONES void threshold_row(const std::int32_t* up, const std::int32_t* mid,
                              const std::int32_t* down, const std::int32_t* ctr, int begin, int end,
                              std::int32_t* col_scratch, std::int32_t* thr) {
  const std::int32_t* __restrict u = up;
  const std::int32_t* __restrict m = mid;
  const std::int32_t* __restrict dn = down;
  const std::int32_t* __restrict c = ctr;
  // Column sums over the three rows, for columns begin-1 .. end.
  std::int32_t* __restrict cs = col_scratch - (begin - 1);
  for_columns(begin - 1, end + 1, [=](int j) VQX_INLINE_LAMBDA { cs[j] = u[j] + m[j] + dn[j]; });
  std::int32_t* __restrict t = thr;
  for_columns(begin, end,
              [=](int j) VQX_INLINE_LAMBDA { t[j] = cs[j - 1] + cs[j] + cs[j + 1] - m[j] + c[j]; });
}

VQX_CLONES BandSums masked_cubes_scale0(DetailRow<std::int16_t> x, const std::int32_t* thr,
                                        int begin, int end, const std::array<std::uint16_t, 3>& q,
                                        const CubeRoundings& r) {
  const std::int16_t* bands[3] = {x.h, x.v, x.d};
  const std::int32_t* __restrict t = thr;
  BandSums sums{};
  for (int b = 0; b < 3; ++b) {
    const std::int16_t* __restrict s = bands[b];
    const std::int32_t qb = q[b];
    const CubeRounding rb = r[b];
    sums[b] = sum_columns<std::int64_t, 32>(
        begin, end, [=](int j) VQX_INLINE_LAMBDA { return masked_cube(qb * s[j], t[j], rb); });
  }
  return sums;
}

VQX_CLONES BandSums masked_cubes_scale_n(DetailRow<std::int32_t> x, const std::int32_t* thr,
                                         int begin, int end, const std::array<std::uint32_t, 3>& q,
                                         const CubeRoundings& r) {
  const std::int32_t* bands[3] = {x.h, x.v, x.d};
  const std::int32_t* __restrict t = thr;
  BandSums sums{};
  for (int b = 0; b < 3; ++b) {
    const std::int32_t* __restrict s = bands[b];
    const std::int64_t qb = q[b];
    const CubeRounding rb = r[b];
    sums[b] = sum_columns<std::int64_t>(begin, end, [=](int j) VQX_INLINE_LAMBDA {
      return masked_cube(weigh_n(qb, s[j]), t[j], rb);
    });
  }
  return sums;
}

VQX_CLONES BandSumsU ref_cubes_scale0(DetailRow<std::int16_t> o, int begin, int end) {
  const std::int16_t* bands[3] = {o.h, o.v, o.d};
  BandSumsU sums{};
  for (int b = 0; b < 3; ++b) {
    const std::int16_t* __restrict s = bands[b];
    sums[b] = sum_columns<std::uint64_t, 32>(begin, end, [=](int j) VQX_INLINE_LAMBDA {
      const std::uint64_t m = static_cast<std::uint16_t>(wrap_abs(s[j]));
      return m * m * m;
    });
  }
  return sums;
}

VQX_CLONES BandSumsU ref_cubes_scale_n(DetailRow<std::int32_t> o, int begin, int end,
                                       const RefCubeRounding& r) {
  const std::int32_t* bands[3] = {o.h, o.v, o.d};
  BandSumsU sums{};
  const RefCubeRounding rr = r;
  for (int b = 0; b < 3; ++b) {
    const std::int32_t* __restrict s = bands[b];
    sums[b] = sum_columns<std::uint64_t>(begin, end, [=](int j) VQX_INLINE_LAMBDA {
      const std::uint64_t m = static_cast<std::uint32_t>(wrap_abs(s[j]));
      return rounded_cube(m, rr.sq_add, rr.sq_shift, rr.cub_add, rr.cub_shift);
    });
  }
  return sums;
}

}  // namespace reference

}  // namespace vqx::adm
