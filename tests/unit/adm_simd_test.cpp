// Integer ADM's SIMD row kernels (Highway: dwt_simd.cpp, decouple_simd.cpp,
// masking_simd.cpp) against their scalar reference forms (adm::reference),
// checkasm-style: every Highway target this CPU executes, on adversarial rows
// (all-zero, all-maximum, random full-range, near-equal reference and
// distorted, extremes), widths that are no multiple of any vector length,
// every bit depth, and outputs compared bit for bit.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cstdint>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "metrics/adm/cpu.hpp"
#include "metrics/adm/decouple.hpp"
#include "metrics/adm/dwt.hpp"
#include "metrics/adm/masking.hpp"
#include "simd_targets.hpp"

namespace vqx {
namespace {

using test::for_each_simd_target;

// The reference forms overflow (signed, undefined) on int32 coefficients
// near the type's limits, which these tests feed them and ADM's pipeline
// never produces; UBSan (the asan preset) aborts on that. Until the tests'
// ranges are bounded by what the pipeline can produce, they run in the
// other builds only.
#if defined(__SANITIZE_ADDRESS__)
#define VQX_SKIP_UNDER_UBSAN() GTEST_SKIP() << "reference overflows on out-of-range test rows"
#else
#define VQX_SKIP_UNDER_UBSAN() static_cast<void>(0)
#endif

// How the values of a row are drawn.
// kMedium: below 2^26 in magnitude, where the deeper scales' angle test
// takes its double path; kInt16: int16_t values and its extremes, where the
// deeper wavelet's vertical pass takes its 32-bit path.
enum class Fill { kZero, kMax, kMin, kRandom, kExtremes, kSmall, kMedium, kInt16 };
constexpr Fill kFills[] = {Fill::kZero,     Fill::kMax,   Fill::kMin,    Fill::kRandom,
                           Fill::kExtremes, Fill::kSmall, Fill::kMedium, Fill::kInt16};

template <typename T>
T draw(Fill f, std::mt19937& rng, std::int64_t lo, std::int64_t hi) {
  switch (f) {
    case Fill::kZero:
      return 0;
    case Fill::kMax:
      return static_cast<T>(hi);
    case Fill::kMin:
      return static_cast<T>(lo);
    case Fill::kRandom:
      return static_cast<T>(std::uniform_int_distribution<std::int64_t>(lo, hi)(rng));
    case Fill::kExtremes: {
      const std::int64_t pick[] = {lo, hi, 0, lo + 1, hi - 1, 1, -1};
      const std::int64_t v = pick[rng() % 7];
      return static_cast<T>(std::clamp(v, lo, hi));
    }
    case Fill::kMedium: {
      const std::int64_t m = (std::int64_t{1} << 26) - 1;
      return static_cast<T>(
          std::uniform_int_distribution<std::int64_t>(std::max(lo, -m), std::min(hi, m))(rng));
    }
    case Fill::kInt16: {
      const std::int64_t pick[] = {-32768, 32767, static_cast<std::int16_t>(rng())};
      return static_cast<T>(std::clamp(pick[rng() % 3], lo, hi));
    }
    case Fill::kSmall:
      return static_cast<T>(
          std::clamp<std::int64_t>(static_cast<std::int64_t>(rng() % 64) - 32, lo, hi));
  }
  return 0;
}

template <typename T>
std::vector<T> row_of(int n, Fill f, std::mt19937& rng, std::int64_t lo, std::int64_t hi) {
  std::vector<T> v(static_cast<std::size_t>(n));
  for (T& x : v) x = draw<T>(f, rng, lo, hi);
  return v;
}

// Widths 3..67 (every remainder of every vector length), then wider odd and
// even ones.
std::vector<int> test_widths() {
  std::vector<int> w;
  for (int i = 3; i <= 67; ++i) w.push_back(i);
  for (int i : {95, 128, 129, 255, 480, 961, 1921}) w.push_back(i);
  return w;
}

// --- Wavelet rows --------------------------------------------------------

template <typename Sample>
void check_dwt0(int w, int bpc, Fill f, std::mt19937& rng, bool detail) {
  const std::int64_t max = (std::int64_t{1} << bpc) - 1;
  std::array<std::vector<Sample>, 4> src;
  for (auto& r : src) r = row_of<Sample>(w, f, rng, 0, max);
  const Sample* rows[4] = {src[0].data(), src[1].data(), src[2].data(), src[3].data()};
  const int bw = (w + 1) / 2;
  struct Out {
    std::vector<std::int16_t> lo, hi;
    std::vector<std::int32_t> a;
    std::vector<std::int16_t> v, h, d;
  };
  auto make = [&] {
    Out o;
    o.lo.assign(static_cast<std::size_t>(w) + 3, 0);
    o.hi.assign(static_cast<std::size_t>(w) + 3, 0);
    o.a.assign(static_cast<std::size_t>(bw), -1);
    o.v.assign(static_cast<std::size_t>(bw), -1);
    o.h.assign(static_cast<std::size_t>(bw), -1);
    o.d.assign(static_cast<std::size_t>(bw), -1);
    return o;
  };
  auto run = [&](Out& o, bool reference) {
    const adm::DwtScratch<std::int16_t> tmp{o.lo.data() + 1, o.hi.data() + 1};
    const adm::Dwt0Row out{o.a.data(), detail ? o.v.data() : nullptr, detail ? o.h.data() : nullptr,
                           detail ? o.d.data() : nullptr};
    if (reference) {
      adm::reference::dwt_scale0_row(rows, w, bpc, tmp, out);
    } else {
      adm::dwt_scale0_row(rows, w, bpc, tmp, out);
    }
  };
  Out want = make();
  Out got = make();
  run(want, true);
  run(got, false);
  ASSERT_EQ(got.a, want.a) << "w=" << w << " bpc=" << bpc;
  ASSERT_EQ(got.v, want.v) << "w=" << w << " bpc=" << bpc;
  ASSERT_EQ(got.h, want.h) << "w=" << w << " bpc=" << bpc;
  ASSERT_EQ(got.d, want.d) << "w=" << w << " bpc=" << bpc;
}

// The approximation band as int16_t (Dwt0Row::a16): the SIMD and the
// reference rows agree, and hold the int32_t band's values.
template <typename Sample>
void check_dwt0_narrow(int w, int bpc, Fill f, std::mt19937& rng, bool detail) {
  const std::int64_t max = (std::int64_t{1} << bpc) - 1;
  std::array<std::vector<Sample>, 4> src;
  for (auto& r : src) r = row_of<Sample>(w, f, rng, 0, max);
  const Sample* rows[4] = {src[0].data(), src[1].data(), src[2].data(), src[3].data()};
  const auto bw = static_cast<std::size_t>((w + 1) / 2);
  std::vector<std::int16_t> lo(static_cast<std::size_t>(w) + 3), hi(lo);
  const adm::DwtScratch<std::int16_t> tmp{lo.data() + 1, hi.data() + 1};
  std::vector<std::int16_t> v(bw), h(bw), d(bw);
  std::vector<std::int32_t> wide(bw, -1);
  std::vector<std::int16_t> got(bw, -1), want(bw, -1);
  auto row = [&](std::int32_t* a, std::int16_t* a16) {
    return adm::Dwt0Row{a, detail ? v.data() : nullptr, detail ? h.data() : nullptr,
                        detail ? d.data() : nullptr, a16};
  };
  adm::reference::dwt_scale0_row(rows, w, bpc, tmp, row(wide.data(), nullptr));
  adm::reference::dwt_scale0_row(rows, w, bpc, tmp, row(nullptr, want.data()));
  adm::dwt_scale0_row(rows, w, bpc, tmp, row(nullptr, got.data()));
  ASSERT_EQ(got, want) << "w=" << w << " bpc=" << bpc;
  for (std::size_t j = 0; j < bw; ++j) ASSERT_EQ(want[j], wide[j]) << "w=" << w << " j=" << j;
}

TEST(AdmSimd, Scale0WaveletMatchesReferenceOnEveryTarget) {
  for_each_simd_target([&](const std::string&) {
    std::mt19937 rng(11);
    for (int w : test_widths()) {
      for (Fill f : kFills) {
        check_dwt0<std::uint8_t>(w, 8, f, rng, true);
        for (int bpc : {10, 12, 16}) check_dwt0<std::uint16_t>(w, bpc, f, rng, true);
      }
      // Only the approximation band (adm_skip_scale0).
      check_dwt0<std::uint8_t>(w, 8, Fill::kRandom, rng, false);
      check_dwt0<std::uint16_t>(w, 10, Fill::kRandom, rng, false);
      for (Fill f : kFills) {
        for (bool detail : {true, false}) {
          check_dwt0_narrow<std::uint8_t>(w, 8, f, rng, detail);
          for (int bpc : {10, 12, 16}) check_dwt0_narrow<std::uint16_t>(w, bpc, f, rng, detail);
        }
      }
    }
  });
}

void check_dwt_n(int w, int scale, Fill f, std::mt19937& rng, bool with_a) {
  constexpr std::int64_t kLo = std::numeric_limits<std::int32_t>::min();
  constexpr std::int64_t kHi = std::numeric_limits<std::int32_t>::max();
  std::array<std::vector<std::int32_t>, 4> src;
  for (auto& r : src) r = row_of<std::int32_t>(w, f, rng, kLo, kHi);
  const std::int32_t* rows[4] = {src[0].data(), src[1].data(), src[2].data(), src[3].data()};
  const auto bw = static_cast<std::size_t>((w + 1) / 2);
  struct Out {
    std::vector<std::int32_t> lo, hi, a, v, h, d;
  };
  auto make = [&] {
    Out o;
    o.lo.assign(static_cast<std::size_t>(w) + 3, 0);
    o.hi.assign(static_cast<std::size_t>(w) + 3, 0);
    o.a.assign(bw, -1);
    o.v.assign(bw, -1);
    o.h.assign(bw, -1);
    o.d.assign(bw, -1);
    return o;
  };
  auto run = [&](Out& o, bool reference) {
    const adm::DwtScratch<std::int32_t> tmp{o.lo.data() + 1, o.hi.data() + 1};
    const adm::DwtNRow out{with_a ? o.a.data() : nullptr, o.v.data(), o.h.data(), o.d.data()};
    if (reference) {
      adm::reference::dwt_scale_n_row(rows, w, scale, tmp, out);
    } else {
      adm::dwt_scale_n_row(rows, w, scale, tmp, out);
    }
  };
  Out want = make();
  Out got = make();
  run(want, true);
  run(got, false);
  ASSERT_EQ(got.a, want.a) << "w=" << w << " scale=" << scale;
  ASSERT_EQ(got.v, want.v) << "w=" << w << " scale=" << scale;
  ASSERT_EQ(got.h, want.h) << "w=" << w << " scale=" << scale;
  ASSERT_EQ(got.d, want.d) << "w=" << w << " scale=" << scale;
}

// Scale 1 from int16_t rows: the SIMD row, the reference one and the int32_t
// reference on the same rows widened agree.
void check_dwt1(int w, Fill f, std::mt19937& rng) {
  std::array<std::vector<std::int16_t>, 4> src;
  std::array<std::vector<std::int32_t>, 4> wide;
  for (int k = 0; k < 4; ++k) {
    src[k] = row_of<std::int16_t>(w, f, rng, -32768, 32767);
    wide[k].assign(src[k].begin(), src[k].end());
  }
  const std::int16_t* rows[4] = {src[0].data(), src[1].data(), src[2].data(), src[3].data()};
  const std::int32_t* wide_rows[4] = {wide[0].data(), wide[1].data(), wide[2].data(),
                                      wide[3].data()};
  const auto bw = static_cast<std::size_t>((w + 1) / 2);
  auto run = [&](int how) {
    std::vector<std::int32_t> lo(static_cast<std::size_t>(w) + 3), hi(lo), out(4 * bw, -1);
    const adm::DwtScratch<std::int32_t> tmp{lo.data() + 1, hi.data() + 1};
    const adm::DwtNRow o{out.data(), out.data() + bw, out.data() + 2 * bw, out.data() + 3 * bw};
    if (how == 0) adm::dwt_scale1_row(rows, w, tmp, o);
    if (how == 1) adm::reference::dwt_scale1_row(rows, w, tmp, o);
    if (how == 2) adm::reference::dwt_scale_n_row(wide_rows, w, 1, tmp, o);
    return out;
  };
  const std::vector<std::int32_t> want = run(2);
  ASSERT_EQ(run(1), want) << "w=" << w;
  ASSERT_EQ(run(0), want) << "w=" << w;
}

TEST(AdmSimd, DeeperWaveletMatchesReferenceOnEveryTarget) {
  for_each_simd_target([&](const std::string&) {
    std::mt19937 rng(12);
    for (int w : test_widths()) {
      for (int scale = 1; scale <= 3; ++scale) {
        for (Fill f : kFills) check_dwt_n(w, scale, f, rng, true);
        check_dwt_n(w, scale, Fill::kRandom, rng, false);  // the last scale: no approximation
      }
      for (Fill f : kFills) check_dwt1(w, f, rng);
    }
  });
}

// --- Decoupling ------------------------------------------------------------

// Reference and distorted bands of n pixels each (h, v, d one after the
// other); `near` makes the distorted close to the reference (every case of
// the ratio's clamp and the enhancement rule), else independent.
template <typename T>
struct DecoupleCase {
  std::vector<T> o, t;
};

template <typename T>
DecoupleCase<T> decouple_case(int n, Fill f, bool near, std::mt19937& rng) {
  constexpr std::int64_t kLo = std::numeric_limits<T>::min();
  constexpr std::int64_t kHi = std::numeric_limits<T>::max();
  DecoupleCase<T> c;
  c.o = row_of<T>(3 * n, f, rng, kLo, kHi);
  if (!near) {
    c.t = row_of<T>(3 * n, f == Fill::kZero ? Fill::kRandom : f, rng, kLo, kHi);
    return c;
  }
  c.t.resize(c.o.size());
  for (std::size_t i = 0; i < c.o.size(); ++i) {
    const std::int64_t o = c.o[i];
    std::int64_t t = o;
    switch (rng() % 5) {
      case 0:  // nearly parallel, shrunk or grown
        t = o * static_cast<std::int64_t>(3 + rng() % 3) / 4;
        break;
      case 1:
        t = o + static_cast<std::int64_t>(rng() % 7) - 3;
        break;
      case 2:
        t = -o;
        break;
      case 3:
        t = o / 2;
        break;
      default:
        break;
    }
    c.t[i] = static_cast<T>(std::clamp(t, kLo, kHi));
  }
  return c;
}

template <typename T>
void check_decouple(int n, int begin, Fill f, bool near, double egl, std::mt19937& rng) {
  const DecoupleCase<T> c = decouple_case<T>(n, f, near, rng);
  const auto sn = static_cast<std::size_t>(n);
  const adm::DetailRow<T> ref{c.o.data(), c.o.data() + sn, c.o.data() + 2 * sn};
  const adm::DetailRow<T> dis{c.t.data(), c.t.data() + sn, c.t.data() + 2 * sn};
  const adm::DecoupleParams p = adm::make_decouple_params(egl);
  auto run = [&](bool reference) {
    std::vector<T> r(3 * sn, 7), a(3 * sn, 7);
    std::vector<std::int32_t> scratch(3 * sn, 0);
    const adm::DetailOut<T> ro{r.data(), r.data() + sn, r.data() + 2 * sn};
    const adm::DetailOut<T> ao{a.data(), a.data() + sn, a.data() + 2 * sn};
    if (reference) {
      adm::reference::decouple_row(ref, dis, begin, n, p, scratch.data(), ro, ao);
    } else {
      adm::decouple_row(ref, dis, begin, n, p, scratch.data(), ro, ao);
    }
    r.insert(r.end(), a.begin(), a.end());
    return r;
  };
  ASSERT_EQ(run(false), run(true))
      << "n=" << n << " begin=" << begin << " egl=" << egl << " near=" << near;
}

TEST(AdmSimd, DecouplingMatchesReferenceOnEveryTarget) {
  VQX_SKIP_UNDER_UBSAN();
  for_each_simd_target([&](const std::string&) {
    std::mt19937 rng(13);
    for (int n : test_widths()) {
      for (Fill f : kFills) {
        for (bool near : {false, true}) {
          for (double egl : {1.0, 100.0, 2.5}) {
            const int begin = n > 8 ? static_cast<int>(rng() % 5) : 0;
            check_decouple<std::int16_t>(n, begin, f, near, egl, rng);
            check_decouple<std::int32_t>(n, begin, f, near, egl, rng);
          }
        }
      }
    }
  });
}

// --- CSF weighting, threshold and cube sums --------------------------------

// Weights: libvmaf's defaults, and any 16- or 32-bit value (the unsigned
// weights above 2^15 and 2^31 take their own path in the SIMD code).
std::array<std::uint16_t, 3> weights16(std::mt19937& rng) {
  switch (rng() % 3) {
    case 0:
      return {36453, 36453, 49417};
    case 1:
      return {65535, 1, 32768};
    default:
      return {static_cast<std::uint16_t>(rng()), static_cast<std::uint16_t>(rng()),
              static_cast<std::uint16_t>(rng())};
  }
}

std::array<std::uint32_t, 3> weights32(std::mt19937& rng) {
  switch (rng() % 3) {
    case 0:
      return {4294967295u, 2147483648u, 2147483647u};
    case 1:
      return {1, 0, 3000000000u};
    default:
      return {static_cast<std::uint32_t>(rng()), static_cast<std::uint32_t>(rng()),
              static_cast<std::uint32_t>(rng())};
  }
}

template <typename T>
struct Bands {
  std::vector<T> h, v, d;
  [[nodiscard]] adm::DetailRow<T> row() const { return {h.data(), v.data(), d.data()}; }
};

template <typename T>
Bands<T> bands_of(int n, Fill f, std::mt19937& rng) {
  constexpr std::int64_t kLo = std::numeric_limits<T>::min();
  constexpr std::int64_t kHi = std::numeric_limits<T>::max();
  return {row_of<T>(n, f, rng, kLo, kHi), row_of<T>(n, f, rng, kLo, kHi),
          row_of<T>(n, f, rng, kLo, kHi)};
}

template <typename T, typename Q>
void check_csf(int n, int begin, Fill f, const Q& q, std::mt19937& rng) {
  const Bands<T> src = bands_of<T>(n, f, rng);
  auto run = [&](bool reference) {
    std::vector<std::int32_t> flt(static_cast<std::size_t>(n), -7), ctr(flt);
    if constexpr (sizeof(T) == 2) {
      (reference ? adm::reference::csf_row_scale0 : adm::csf_row_scale0)(src.row(), begin, n, q,
                                                                         flt.data(), ctr.data());
    } else {
      (reference ? adm::reference::csf_row_scale_n : adm::csf_row_scale_n)(src.row(), begin, n, q,
                                                                           flt.data(), ctr.data());
    }
    flt.insert(flt.end(), ctr.begin(), ctr.end());
    return flt;
  };
  ASSERT_EQ(run(false), run(true)) << "n=" << n << " begin=" << begin;
}

// Scale-0 rows whose weighted values reach -2^15 (|c| = 2^15, the one
// magnitude an int16_t lane cannot hold): 32768 * -32768 and 65535 * 16384.
void check_csf0_edges(int n) {
  const std::int16_t cycle[] = {-32768, 16384, 32767, -1, 0, 1, -16384, -32767};
  Bands<std::int16_t> src;
  for (int j = 0; j < n; ++j) {
    src.h.push_back(cycle[j % 8]);
    src.v.push_back(cycle[(j + 1) % 8]);
    src.d.push_back(cycle[(j + 2) % 8]);
  }
  for (const std::array<std::uint16_t, 3>& q :
       {std::array<std::uint16_t, 3>{32768, 65535, 65535}, {65535, 32768, 32768}}) {
    std::vector<std::int32_t> got(2 * static_cast<std::size_t>(n), -7), want(got);
    adm::csf_row_scale0(src.row(), 0, n, q, got.data(), got.data() + n);
    adm::reference::csf_row_scale0(src.row(), 0, n, q, want.data(), want.data() + n);
    ASSERT_EQ(got, want) << "n=" << n;
  }
}

TEST(AdmSimd, CsfWeightingMatchesReferenceOnEveryTarget) {
  for_each_simd_target([&](const std::string&) {
    for (int n : test_widths()) check_csf0_edges(n);
    std::mt19937 rng(14);
    for (int n : test_widths()) {
      for (Fill f : kFills) {
        const int begin = n > 8 ? static_cast<int>(rng() % 5) : 0;
        check_csf<std::int16_t>(n, begin, f, weights16(rng), rng);
        check_csf<std::int32_t>(n, begin, f, weights32(rng), rng);
      }
    }
  });
}

TEST(AdmSimd, ThresholdMatchesReferenceOnEveryTarget) {
  VQX_SKIP_UNDER_UBSAN();
  for_each_simd_target([&](const std::string&) {
    std::mt19937 rng(15);
    constexpr std::int64_t kLo = std::numeric_limits<std::int32_t>::min();
    constexpr std::int64_t kHi = std::numeric_limits<std::int32_t>::max();
    for (int n : test_widths()) {
      for (Fill f : kFills) {
        // Rows of n + 2 with the filter's column on each side (index -1 .. n).
        std::array<std::vector<std::int32_t>, 4> rows;
        for (auto& r : rows) r = row_of<std::int32_t>(n + 2, f, rng, kLo, kHi);
        const int begin = n > 8 ? static_cast<int>(rng() % 5) : 0;
        auto run = [&](bool reference) {
          std::vector<std::int32_t> scratch(static_cast<std::size_t>(n) + 2, 0);
          std::vector<std::int32_t> thr(static_cast<std::size_t>(n), -7);
          (reference ? adm::reference::threshold_row : adm::threshold_row)(
              rows[0].data() + 1, rows[1].data() + 1, rows[2].data() + 1, rows[3].data() + 1, begin,
              n, scratch.data(), thr.data());
          return thr;
        };
        ASSERT_EQ(run(false), run(true)) << "n=" << n;
      }
    }
  });
}

// Cube roundings as sum_consts() makes them for scale 0 and for the deeper
// scales, at this width, and with random shifts.
adm::CubeRoundings cube_roundings(int scale, int n, std::mt19937& rng) {
  if (rng() % 2 == 0) {
    const adm::ScaleGeometry g = adm::scale_geometry(2 * std::max(n, 17), 2 * std::max(n, 17));
    return adm::sum_consts(scale, g).cubes;
  }
  adm::CubeRoundings r{};
  for (adm::CubeRounding& c : r) {
    c.thr_shift = static_cast<int>(rng() % 13);
    c.sq_shift = 28 + static_cast<int>(rng() % 4);
    c.sq_add = std::int64_t{1} << (c.sq_shift - 1);
    c.cub_shift = static_cast<int>(rng() % 20);
    c.cub_add = c.cub_shift > 0 ? std::int64_t{1} << (c.cub_shift - 1) : 0;
  }
  return r;
}

template <typename T>
void check_cubes(int n, int begin, Fill f, std::mt19937& rng) {
  const Bands<T> x = bands_of<T>(n, f, rng);
  // Thresholds: sums of |c|/30 terms are small and non-negative; also any.
  const bool any = rng() % 2 == 0;
  const std::vector<std::int32_t> thr = row_of<std::int32_t>(
      n, f == Fill::kZero ? Fill::kRandom : f, rng, any ? INT32_MIN : 0, any ? INT32_MAX : 200000);
  constexpr bool kScale0 = sizeof(T) == 2;
  const adm::CubeRoundings r =
      cube_roundings(kScale0 ? 0 : 1 + static_cast<int>(rng() % 3), n, rng);
  adm::BandSums got{}, want{};
  if constexpr (kScale0) {
    const auto q = weights16(rng);
    got = adm::masked_cubes_scale0(x.row(), thr.data(), begin, n, q, r);
    want = adm::reference::masked_cubes_scale0(x.row(), thr.data(), begin, n, q, r);
  } else {
    const auto q = weights32(rng);
    got = adm::masked_cubes_scale_n(x.row(), thr.data(), begin, n, q, r);
    want = adm::reference::masked_cubes_scale_n(x.row(), thr.data(), begin, n, q, r);
  }
  ASSERT_EQ(got, want) << "n=" << n << " begin=" << begin;
}

TEST(AdmSimd, MaskedCubeSumsMatchReferenceOnEveryTarget) {
  VQX_SKIP_UNDER_UBSAN();
  for_each_simd_target([&](const std::string&) {
    std::mt19937 rng(16);
    for (int n : test_widths()) {
      for (Fill f : kFills) {
        for (int rep = 0; rep < 3; ++rep) {
          const int begin = n > 8 ? static_cast<int>(rng() % 5) : 0;
          check_cubes<std::int16_t>(n, begin, f, rng);
          check_cubes<std::int32_t>(n, begin, f, rng);
        }
      }
    }
  });
}

TEST(AdmSimd, ReferenceCubeSumsMatchReferenceOnEveryTarget) {
  for_each_simd_target([&](const std::string&) {
    std::mt19937 rng(17);
    for (int n : test_widths()) {
      for (Fill f : kFills) {
        const int begin = n > 8 ? static_cast<int>(rng() % 5) : 0;
        const Bands<std::int16_t> o16 = bands_of<std::int16_t>(n, f, rng);
        ASSERT_EQ(adm::ref_cubes_scale0(o16.row(), begin, n),
                  adm::reference::ref_cubes_scale0(o16.row(), begin, n))
            << "n=" << n;
        const Bands<std::int32_t> o32 = bands_of<std::int32_t>(n, f, rng);
        for (int scale = 1; scale <= 3; ++scale) {
          const adm::ScaleGeometry g =
              adm::scale_geometry(2 * std::max(n, 17), 2 * std::max(n, 17));
          const adm::RefCubeRounding r = adm::sum_consts(scale, g).ref;
          ASSERT_EQ(adm::ref_cubes_scale_n(o32.row(), begin, n, r),
                    adm::reference::ref_cubes_scale_n(o32.row(), begin, n, r))
              << "n=" << n << " scale=" << scale;
        }
      }
    }
  });
}

}  // namespace
}  // namespace vqx
