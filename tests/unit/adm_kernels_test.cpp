// The ADM twin's transform and sums kernels (src/metrics/adm/gpu_kernels.cuh),
// run here on the CPU, without a device (tests/unit/gpu_on_host.hpp): their
// own source, so their windows, loads, barrier and sums are the GPU twin's.
//  * The transform: every band of every scale must equal the CPU twin's row
//    kernels (dwt.hpp) exactly: 8 to 16 bits, even and odd sizes from the
//    smallest, so that windows inside the picture and at each of its edges
//    are taken, on random pictures and their approximations; and what its
//    threads decouple beside those bands (0 outside the decoupling area)
//    must equal the CPU's decouple_row and csf_row_* of them.
//  * The decoupling (decouple_pixel): the restored part and the masking
//    filter terms (|c|/30) of the restored and additive parts must equal
//    decouple.hpp's decouple_row and masking.hpp's csf_row_* exactly, at
//    every scale's arithmetic, on random, parallel (the enhancement) and
//    zero-reference pixels.
//  * The sums: each row's nine sums must equal the CPU twin's row kernels
//    (decouple_row for the additive part and masking.hpp's csf_row_* for
//    the centre taps, both of which the kernel forms from the bands it
//    reads, then threshold_row, masked_cubes_*, ref_cubes_*) exactly:
//    16-bit bands (scale 0) and 32-bit ones (scales 1 to 3), with and
//    without the additive impairment, summed areas that span the whole band
//    (mirrored neighbours on both sides), exactly one block and one or
//    several blocks and a few pixels, on random bands and filter terms.
#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "core/index_math.hpp"
#include "metrics/adm/cpu.hpp"
#include "metrics/adm/csf.hpp"
#include "metrics/adm/decouple.hpp"
#include "metrics/adm/dwt.hpp"
#include "metrics/adm/masking.hpp"
#include "test_util.hpp"
// What nvcc and hipcc provide, before the kernel.
#include "gpu_on_host.hpp"
#include "metrics/adm/gpu_kernels.cuh"

#undef __shared__

namespace vqx {
namespace {

// Three bands of n samples each, one after the other in `v`, as the kernels
// take them, and row i (w samples a band row) as the CPU's row kernels do.
template <typename T>
adm::Band3 band3(std::vector<T>& v, std::size_t n) {
  return {{v.data(), v.data() + n, v.data() + 2 * n}};
}
template <typename T>
adm::DetailRow<T> band_row(const std::vector<T>& v, std::size_t n, int w, int i) {
  const T* r = v.data() + static_cast<std::size_t>(i) * w;
  return {r, r + n, r + 2 * n};
}

// --- The transform ---------------------------------------------------------

// The four output bands of one side of one scale, w x h each (a as int32,
// h, v and d as T).
template <typename T>
struct Bands {
  int w, h;
  std::vector<std::int32_t> a;
  std::vector<T> b[3];  // h, v, d (the kernels' Band3 order)
  Bands(int width, int height) : w(width), h(height) {
    const auto n = static_cast<std::size_t>(w) * static_cast<std::size_t>(h);
    a.assign(n, 0);
    for (auto& x : b) x.assign(n, 0);
  }
  adm::Band3 band3() { return {{b[0].data(), b[1].data(), b[2].data()}}; }
  std::size_t at(int i, int j) const { return static_cast<std::size_t>(i) * w + j; }
};

// The CPU's rows of an output row i: input rows 2i - 1 .. 2i + 2 mirrored.
template <typename S>
std::array<const S*, 4> input_rows(const S* base, std::size_t pitch_elems, int in_h, int i) {
  std::array<const S*, 4> rows{};
  for (int k = 0; k < 4; ++k) {
    rows[static_cast<std::size_t>(k)] =
        base + pitch_elems * static_cast<std::size_t>(reflect101_repeat_end(2 * i - 1 + k, in_h));
  }
  return rows;
}

template <typename T>
void expect_band_rows_equal(const Bands<T>& gpu, int i, const std::int32_t* a, const T* h,
                            const T* v, const T* d, const std::string& what) {
  for (int j = 0; j < gpu.w; ++j) {
    const std::size_t o = gpu.at(i, j);
    ASSERT_EQ(gpu.a[o], a[j]) << what << ", a at " << i << "," << j;
    ASSERT_EQ(gpu.b[0][o], h[j]) << what << ", h at " << i << "," << j;
    ASSERT_EQ(gpu.b[1][o], v[j]) << what << ", v at " << i << "," << j;
    ASSERT_EQ(gpu.b[2][o], d[j]) << what << ", d at " << i << "," << j;
  }
}

// What the transform's threads decouple beside their bands, w x h each: the
// restored part and the masking filter's terms of the additive ("a") and
// restored ("r") parts, with the default options and aim.
template <typename T>
struct Decoupled {
  std::size_t n;
  std::vector<T> restored;        // 3 bands, one after the other
  std::vector<std::int32_t> flt;  // a, then r
  adm::DecoupleArgs args{};
  Decoupled(const adm::ScaleGeometry& geo, int scale, const adm::CsfWeights& weights)
      : n(static_cast<std::size_t>(geo.w) * static_cast<std::size_t>(geo.h)),
        restored(3 * n, 0),
        flt(2 * n, 0) {
    const adm::DecoupleParams p = adm::make_decouple_params(adm::AdmParams{}.enhn_gain_limit);
    args.restored = band3(restored, n);
    args.flt_a = flt.data();
    args.flt_r = flt.data() + n;
    args.gain = p.enhn_gain_limit;
    args.cos_sq = p.cos_1deg_sq;
    const std::array<std::uint32_t, 3> q = adm::csf_weights_of(weights, scale);
    for (int b = 0; b < 3; ++b) args.q[b] = q[static_cast<std::size_t>(b)];
    args.aim = true;
  }
};

// The decoupling of `got` over the decoupling area against the CPU's
// decouple_row and csf_row_* of the bands the kernel made (which equal the
// CPU's: checked before); 0 outside the area.
template <typename T>
void expect_decoupled_equal(const Bands<T> (&bands)[2], const Decoupled<T>& got,
                            const adm::ScaleGeometry& geo, int scale,
                            const adm::CsfWeights& weights, const std::string& what) {
  const int w = geo.w;
  const adm::DecoupleParams p = adm::make_decouple_params(adm::AdmParams{}.enhn_gain_limit);
  std::vector<std::int32_t> scratch(3 * static_cast<std::size_t>(w));
  std::vector<T> want_r(3 * static_cast<std::size_t>(w)), want_a(want_r.size());
  std::vector<std::int32_t> flt(static_cast<std::size_t>(w)), ctr(flt.size());
  const auto row = [&](const Bands<T>& side, int i) {
    const std::size_t o = side.at(i, 0);
    return adm::DetailRow<T>{side.b[0].data() + o, side.b[1].data() + o, side.b[2].data() + o};
  };
  const auto out = [&](std::vector<T>& v) {
    return adm::DetailOut<T>{v.data(), v.data() + w, v.data() + 2 * w};
  };
  const auto csf = [&](const std::vector<T>& v) {
    const adm::DetailRow<T> src{v.data(), v.data() + w, v.data() + 2 * w};
    if constexpr (sizeof(T) == 2) {
      adm::reference::csf_row_scale0(src, 0, w, weights.q_scale0, flt.data(), ctr.data());
    } else {
      adm::reference::csf_row_scale_n(src, 0, w, weights.q[scale], flt.data(), ctr.data());
    }
  };
  const std::string where = what + ", scale " + std::to_string(scale) + ", decoupled ";
  for (int i = 0; i < geo.h; ++i) {
    const bool rows_in = i >= geo.dec_y.begin && i < geo.dec_y.end;
    if (rows_in) {
      adm::reference::decouple_row(row(bands[0], i), row(bands[1], i), 0, w, p, scratch.data(),
                                   out(want_r), out(want_a));
    }
    for (int part = 0; part < 2; ++part) {
      if (rows_in) csf(part == 0 ? want_a : want_r);
      for (int j = 0; j < w; ++j) {
        const bool in = rows_in && j >= geo.dec_x.begin && j < geo.dec_x.end;
        const std::size_t o = bands[0].at(i, j);
        ASSERT_EQ(got.flt[static_cast<std::size_t>(part) * got.n + o],
                  in ? flt[static_cast<std::size_t>(j)] : 0)
            << where << (part == 0 ? "flt_a" : "flt_r") << " at " << i << "," << j;
        if (part == 1) continue;
        for (int b = 0; b < 3; ++b) {
          ASSERT_EQ(got.restored[static_cast<std::size_t>(b) * got.n + o],
                    in ? want_r[static_cast<std::size_t>(b) * w + j] : T{0})
              << where << "restored band " << b << " at " << i << "," << j;
        }
      }
    }
  }
}

// Scales 1 to 3 from `in` (the previous scale's approximations of both
// sides: the kernel transforms two at once), against the CPU's rows, with
// the decoupling of the two.
void expect_scale_n_equal(const std::vector<std::int32_t> (&in)[2], int in_w, int in_h, int scale,
                          const adm::CsfWeights& weights, const std::string& what,
                          std::vector<std::int32_t> (&next)[2]) {
  const adm::ScaleGeometry geo = adm::scale_geometry(in_w, in_h);
  Bands<std::int32_t> out[2] = {{geo.w, geo.h}, {geo.w, geo.h}};
  Decoupled<std::int32_t> dec(geo, scale, weights);
  const adm::DwtRounding r = adm::dwt_rounding(scale);
  adm::DwtNArgs args{};
  args.src[0] = in[0].data();
  args.src[1] = in[1].data();
  args.g = adm::to_device(geo);
  args.vadd = r.vert_add;
  args.hadd = r.horz_add;
  args.vsh = r.vert_shift;
  args.hsh = r.horz_shift;
  args.out[0] = out[0].band3();
  args.out[1] = out[1].band3();
  args.a_out[0] = out[0].a.data();
  args.a_out[1] = out[1].a.data();
  args.dec = dec.args;
  args.decouple = true;
  gpu_on_host::run_each(adm::pixel_grid(geo.w, geo.h), {adm::kBlockX, adm::kBlockY},
                        [&] { adm::dwtn_kernel(args); });
  std::vector<std::int32_t> lo(static_cast<std::size_t>(in_w) + 4);
  std::vector<std::int32_t> hi(lo.size());
  std::vector<std::int32_t> a(static_cast<std::size_t>(geo.w));
  std::vector<std::int32_t> h(a.size()), v(a.size()), d(a.size());
  for (int side = 0; side < 2; ++side) {
    for (int i = 0; i < geo.h; ++i) {
      const auto rows = input_rows(in[side].data(), static_cast<std::size_t>(in_w), in_h, i);
      adm::reference::dwt_scale_n_row(rows.data(), in_w, scale, {lo.data() + 1, hi.data() + 1},
                                      {a.data(), v.data(), h.data(), d.data()});
      expect_band_rows_equal(
          out[side], i, a.data(), h.data(), v.data(), d.data(),
          what + (side == 0 ? ", ref" : ", dis") + ", scale " + std::to_string(scale));
    }
    next[side] = out[side].a;
  }
  expect_decoupled_equal(out, dec, geo, scale, weights, what);
}

template <typename Sample>
void expect_transform_equal(unsigned w, unsigned h, unsigned bpc, std::mt19937& rng) {
  const std::string what =
      std::to_string(w) + "x" + std::to_string(h) + " " + std::to_string(bpc) + "-bit";
  const PictureFormat fmt = testutil::format(w, h, bpc, ChromaFormat::k420);
  const Picture ref = testutil::random_picture(fmt, rng, 0);
  const Picture dis = testutil::random_picture(fmt, rng, 0);
  const adm::ScaleGeometry geo = adm::scale_geometry(static_cast<int>(w), static_cast<int>(h));
  Bands<std::int16_t> out[2] = {{geo.w, geo.h}, {geo.w, geo.h}};
  const auto weights = adm::make_csf_weights(adm::AdmParams{});
  ASSERT_TRUE(weights.ok());
  Decoupled<std::int16_t> dec(geo, 0, *weights);
  adm::Dwt0Args args{};
  const Picture* pics[2] = {&ref, &dis};
  for (int side = 0; side < 2; ++side) {
    args.src[side] = pics[side]->plane(0).row<std::uint8_t>(0);
    args.pitch[side] = pics[side]->plane(0).stride_bytes();
    args.out[side] = out[side].band3();
    args.a_out[side] = out[side].a.data();
  }
  args.bpc = static_cast<int>(bpc);
  args.g = adm::to_device(geo);
  args.dec = dec.args;
  args.decouple = true;
  gpu_on_host::run_each(adm::pixel_grid(geo.w, geo.h), {adm::kBlockX, adm::kBlockY},
                        [&] { adm::dwt0_kernel_for(bpc)(args); });

  std::vector<std::int16_t> lo(static_cast<std::size_t>(w) + 4);
  std::vector<std::int16_t> hi(lo.size());
  std::vector<std::int32_t> a(static_cast<std::size_t>(geo.w));
  std::vector<std::int16_t> bh(a.size()), bv(a.size()), bd(a.size());
  for (int side = 0; side < 2; ++side) {
    const Plane& plane = pics[side]->plane(0);
    for (int i = 0; i < geo.h; ++i) {
      const auto rows = input_rows(plane.row<Sample>(0), plane.stride_bytes() / sizeof(Sample),
                                   static_cast<int>(h), i);
      adm::reference::dwt_scale0_row(rows.data(), static_cast<int>(w), static_cast<int>(bpc),
                                     {lo.data() + 1, hi.data() + 1},
                                     {a.data(), bv.data(), bh.data(), bd.data()});
      expect_band_rows_equal(out[side], i, a.data(), bh.data(), bv.data(), bd.data(),
                             what + (side == 0 ? ", ref" : ", dis") + ", scale 0");
    }
  }
  expect_decoupled_equal(out, dec, geo, 0, *weights, what);
  // The deeper scales, each from the approximations the kernel made.
  std::vector<std::int32_t> in[2] = {out[0].a, out[1].a};
  int in_w = geo.w;
  int in_h = geo.h;
  for (int scale = 1; scale < adm::kScales; ++scale) {
    std::vector<std::int32_t> next[2];
    expect_scale_n_equal(in, in_w, in_h, scale, *weights, what, next);
    in[0] = std::move(next[0]);
    in[1] = std::move(next[1]);
    in_w = (in_w + 1) / 2;
    in_h = (in_h + 1) / 2;
  }
}

TEST(AdmKernels, TransformEqualsTheCpuTwin) {
  struct Size {
    unsigned w, h;
  };
  // The smallest picture ADM takes (kMinSize), odd sides, a picture of
  // several blocks of outputs each way with partial ones (the blocks are
  // kBlockX x kBlockY outputs, of 2 kBlockX x 2 kBlockY samples), and one
  // whose bands at scales 0 and 1 are 45 samples or more each way, where
  // the decoupling area ends inside the band (below that, its far margin
  // reaches the band's end).
  const std::vector<Size> sizes = {{adm::kMinSize, adm::kMinSize},
                                   {adm::kMinSize + 1, adm::kMinSize + 4},
                                   {2 * 2 * adm::kBlockX + 6, 3 * 2 * adm::kBlockY + 3},
                                   {200, 190}};
  std::mt19937 rng(31);
  for (const Size s : sizes) {
    expect_transform_equal<std::uint8_t>(s.w, s.h, 8, rng);
    for (const unsigned bpc : {10U, 12U, 16U})
      expect_transform_equal<std::uint16_t>(s.w, s.h, bpc, rng);
  }
}

// --- The decoupling ----------------------------------------------------------

// decouple_pixel over the decoupling area of one scale (each pixel as the
// transform's threads decouple it, from its bands) against the CPU's
// decouple_row and csf_row_* (the restored part, and the masking filter's
// terms of the additive ("a") and restored ("r") parts; the additive part
// and the centre taps are the sums kernel's, tested there). The
// distorted bands are random, the reference's times a factor (parallel
// vectors, the enhancement), or zero-reference pixels (o = 0), mixed.
template <typename T>
void expect_decoupling_equal(int w, int h, int scale, bool aim, double gain, std::mt19937& rng) {
  const std::string what = std::to_string(w) + "x" + std::to_string(h) + " scale " +
                           std::to_string(scale) + (aim ? ", aim" : ", no aim") + ", gain " +
                           std::to_string(gain);
  const adm::ScaleGeometry geo = adm::scale_geometry(2 * w, 2 * h);
  ASSERT_EQ(geo.w, w);
  const auto weights = adm::make_csf_weights(adm::AdmParams{});
  ASSERT_TRUE(weights.ok());
  const adm::DecoupleParams p = adm::make_decouple_params(gain);
  const auto n = static_cast<std::size_t>(w) * static_cast<std::size_t>(h);
  const std::int32_t band_max = sizeof(T) == 2 ? 20000 : (1 << 24);
  std::uniform_int_distribution<std::int32_t> band(-band_max, band_max);
  std::uniform_int_distribution<int> kind(0, 3);
  std::uniform_real_distribution<double> factor(-0.5, 2.5);
  std::vector<T> ref(3 * n), dis(3 * n);
  for (std::size_t x = 0; x < n; ++x) {
    const int k = kind(rng);
    const double f = factor(rng);
    for (int b = 0; b < 3; ++b) {
      const std::size_t o = static_cast<std::size_t>(b) * n + x;
      ref[o] = static_cast<T>(k == 3 ? 0 : band(rng));
      dis[o] = static_cast<T>(k == 1 || k == 2 ? std::clamp<double>(f * ref[o], -band_max, band_max)
                                               : band(rng));
    }
  }
  std::vector<T> restored(3 * n, 0);
  std::vector<std::int32_t> masks(2 * n, 0);
  adm::DecoupleArgs args{};
  args.restored = band3(restored, n);
  args.flt_a = masks.data();
  args.flt_r = masks.data() + n;
  args.gain = p.enhn_gain_limit;
  args.cos_sq = p.cos_1deg_sq;
  const std::array<std::uint32_t, 3> q = adm::csf_weights_of(*weights, scale);
  for (int b = 0; b < 3; ++b) args.q[b] = q[static_cast<std::size_t>(b)];
  args.aim = aim;
  // Each pixel of the decoupling area as the transform's threads decouple
  // it, from its bands.
  for (int i = geo.dec_y.begin; i < geo.dec_y.end; ++i) {
    for (int j = geo.dec_x.begin; j < geo.dec_x.end; ++j) {
      const int o = i * w + j;
      std::int32_t ov[3], tv[3];
      for (int b = 0; b < 3; ++b) {
        ov[b] = ref[static_cast<std::size_t>(b) * n + o];
        tv[b] = dis[static_cast<std::size_t>(b) * n + o];
      }
      adm::kernel_detail::decouple_pixel<T>(args, o, ov, tv);
    }
  }

  const int begin = geo.dec_x.begin;
  const int end = geo.dec_x.end;
  std::vector<std::int32_t> scratch(3 * static_cast<std::size_t>(end));
  std::vector<T> want_r(3 * static_cast<std::size_t>(w)), want_a(want_r.size());
  std::vector<std::int32_t> flt(static_cast<std::size_t>(w)), ctr(flt.size());
  const auto out = [&](std::vector<T>& v) {
    return adm::DetailOut<T>{v.data(), v.data() + w, v.data() + 2 * w};
  };
  const auto csf = [&](const std::vector<T>& v) {
    const adm::DetailRow<T> src{v.data(), v.data() + w, v.data() + 2 * w};
    if constexpr (sizeof(T) == 2) {
      adm::reference::csf_row_scale0(src, begin, end, weights->q_scale0, flt.data(), ctr.data());
    } else {
      adm::reference::csf_row_scale_n(src, begin, end, weights->q[scale], flt.data(), ctr.data());
    }
  };
  const auto expect_terms = [&](std::size_t plane, int i, const char* which) {
    for (int j = begin; j < end; ++j) {
      const std::size_t o = static_cast<std::size_t>(i) * w + j;
      ASSERT_EQ(masks[plane * n + o], flt[static_cast<std::size_t>(j)])
          << what << ", flt_" << which << " at " << i << "," << j;
    }
  };
  for (int i = geo.dec_y.begin; i < geo.dec_y.end; ++i) {
    adm::reference::decouple_row(band_row(ref, n, w, i), band_row(dis, n, w, i), begin, end, p,
                                 scratch.data(), out(want_r), out(want_a));
    for (int b = 0; b < 3; ++b) {
      for (int j = begin; j < end; ++j) {
        const std::size_t o = static_cast<std::size_t>(b) * n + static_cast<std::size_t>(i) * w + j;
        const std::size_t c = static_cast<std::size_t>(b) * w + j;
        ASSERT_EQ(restored[o], want_r[c])
            << what << ", restored band " << b << " at " << i << "," << j;
      }
    }
    csf(want_a);
    expect_terms(0, i, "a");
    if (aim) {
      csf(want_r);
      expect_terms(1, i, "r");
    }
  }
}

TEST(AdmKernels, DecouplingEqualsTheCpuTwin) {
  // Bands of one and of several blocks each way, with partial ones; every
  // scale's arithmetic (16-bit bands and the deeper scales' 32-bit ones,
  // with their denominators above 2^15 rounded to 15 bits); the default
  // enhancement limit and none (1).
  std::mt19937 rng(37);
  for (const bool aim : {true, false}) {
    for (const double gain : {100.0, 1.0}) {
      expect_decoupling_equal<std::int16_t>(40, 20, 0, aim, gain, rng);
      expect_decoupling_equal<std::int16_t>(3 * adm::kBlockX + 7, 2 * adm::kBlockY + 5, 0, aim,
                                            gain, rng);
      for (const int scale : {1, 3}) {
        expect_decoupling_equal<std::int32_t>(3 * adm::kBlockX + 7, 2 * adm::kBlockY + 5, scale,
                                              aim, gain, rng);
      }
    }
  }
}

// --- The sums ----------------------------------------------------------------

struct HostSum {
  void add(unsigned long long* rows, std::size_t stride,
           const unsigned long long (&v)[adm::kRowSums]) const {
    for (int k = 0; k < adm::kRowSums; ++k) {
      std::atomic_ref<unsigned long long>(rows[k * stride]).fetch_add(v[k]);
    }
  }
};

// One scale's inputs of the sums, w x h each: three random bands of the
// reference and the distorted pictures, their restored and additive parts
// as the CPU's decouple_row makes them, and random masking filter terms of
// the additive ("a") and restored ("r") parts (the 3x3 sums' arithmetic does
// not depend on where they come from).
template <typename T>
struct Inputs {
  int w = 0;
  int h = 0;
  std::vector<T> ref, dis, restored, additive;  // 3 bands, one after the other
  std::vector<std::int32_t> flt_a, flt_r;

  Inputs(int width, int height, std::mt19937& rng, std::int32_t band_max) : w(width), h(height) {
    std::uniform_int_distribution<std::int32_t> band(-band_max, band_max);
    // Masking terms as large as a sum of nine of them allows without int32
    // overflow (the CPU's row kernel adds them as int32).
    std::uniform_int_distribution<std::int32_t> term(0, (1 << 26) - 1);
    for (auto* v : {&ref, &dis}) {
      v->resize(3 * n());
      for (T& x : *v) x = static_cast<T>(band(rng));
    }
    restored.resize(3 * n());
    additive.resize(3 * n());
    const adm::DecoupleParams p = adm::make_decouple_params(adm::AdmParams{}.enhn_gain_limit);
    std::vector<std::int32_t> scratch(3 * static_cast<std::size_t>(w));
    for (int i = 0; i < h; ++i) {
      adm::reference::decouple_row(row(ref, i), row(dis, i), 0, w, p, scratch.data(),
                                   out(restored, i), out(additive, i));
    }
    for (auto* v : {&flt_a, &flt_r}) {
      v->resize(n());
      for (std::int32_t& x : *v) x = term(rng);
    }
  }
  std::size_t n() const { return static_cast<std::size_t>(w) * static_cast<std::size_t>(h); }
  adm::DetailRow<T> row(const std::vector<T>& bands, int i) const {
    return band_row(bands, n(), w, i);
  }
  adm::DetailOut<T> out(std::vector<T>& bands, int i) const {
    T* r = bands.data() + static_cast<std::size_t>(i) * w;
    return {r, r + n(), r + 2 * n()};
  }
};

// Row i of a w x h plane of terms with one column either side, mirrored as
// the kernels mirror (reflect101_repeat_end), at index 1.
std::vector<std::int32_t> padded_row(const std::vector<std::int32_t>& plane, int w, int i) {
  std::vector<std::int32_t> row(static_cast<std::size_t>(w) + 2);
  for (int j = -1; j <= w; ++j) {
    row[static_cast<std::size_t>(j + 1)] =
        plane[static_cast<std::size_t>(i) * w + reflect101_repeat_end(j, w)];
  }
  return row;
}

struct Case {
  int w, h, scale;
  bool aim;
};

template <typename T>
void expect_rows_equal(const Case& c, std::mt19937& rng) {
  const std::string what = std::to_string(c.w) + "x" + std::to_string(c.h) + " scale " +
                           std::to_string(c.scale) + (c.aim ? ", aim" : ", no aim");
  // A band of w x h is what a picture of 2w x 2h makes at scale 0 (and
  // the approximation of that size at the deeper scales).
  const adm::ScaleGeometry geo = adm::scale_geometry(2 * c.w, 2 * c.h);
  ASSERT_EQ(geo.w, c.w);
  const adm::SumConsts k = adm::sum_consts(c.scale, geo);
  const auto weights = adm::make_csf_weights(adm::AdmParams{});
  ASSERT_TRUE(weights.ok());
  Inputs<T> in(c.w, c.h, rng, sizeof(T) == 2 ? 32767 : (1 << 22));

  // The twin's launch (gpu.cu).
  std::vector<unsigned long long> rows(static_cast<std::size_t>(adm::kRowSums) * c.h, 0);
  adm::SumsArgs a{};
  a.ref = band3(in.ref, in.n());
  a.dis = band3(in.dis, in.n());
  a.restored = band3(in.restored, in.n());
  a.flt_a = in.flt_a.data();
  a.flt_r = in.flt_r.data();
  a.g = adm::to_device(geo);
  const std::array<std::uint32_t, 3> q = adm::csf_weights_of(*weights, c.scale);
  for (int b = 0; b < 3; ++b) {
    a.q[b] = q[static_cast<std::size_t>(b)];
    a.cube[b] = k.cubes[b];
  }
  a.den_sq_add = k.ref.sq_add;
  a.den_sq_shift = k.ref.sq_shift;
  a.den_cub_add = k.ref.cub_add;
  a.den_cub_shift = k.ref.cub_shift;
  a.rows = rows.data();
  const auto kernel = adm::sums_kernel_for<HostSum>(c.scale, c.aim);
  gpu_on_host::run_grid(adm::sums_grid(a.g), {adm::kSumThreads}, [&] { kernel(a, HostSum{}); });

  // The CPU's row kernels.
  const int begin = geo.sum_x.begin;
  const int end = geo.sum_x.end;
  std::vector<std::int32_t> scratch(static_cast<std::size_t>(c.w) + 2);
  std::vector<std::int32_t> thr(static_cast<std::size_t>(c.w));
  std::vector<std::int32_t> unused_flt(thr.size()), ctr(thr.size());
  // Row i's thresholds: the 3x3 sums of `flt`, with the centre taps of the
  // part `centre` (its bands' |c|/15, csf_row_*).
  const auto threshold = [&](const std::vector<std::int32_t>& flt, const std::vector<T>& centre,
                             int i) {
    if constexpr (sizeof(T) == 2) {
      adm::reference::csf_row_scale0(in.row(centre, i), begin, end, weights->q_scale0,
                                     unused_flt.data(), ctr.data());
    } else {
      adm::reference::csf_row_scale_n(in.row(centre, i), begin, end, weights->q[c.scale],
                                      unused_flt.data(), ctr.data());
    }
    const auto up = padded_row(flt, c.w, reflect101_repeat_end(i - 1, c.h));
    const auto mid = padded_row(flt, c.w, i);
    const auto down = padded_row(flt, c.w, reflect101_repeat_end(i + 1, c.h));
    adm::reference::threshold_row(up.data() + 1, mid.data() + 1, down.data() + 1, ctr.data(), begin,
                                  end, scratch.data(), thr.data());
  };
  const auto cubes = [&](adm::DetailRow<T> x) {
    if constexpr (sizeof(T) == 2) {
      return adm::reference::masked_cubes_scale0(x, thr.data(), begin, end, weights->q_scale0,
                                                 k.cubes);
    } else {
      return adm::reference::masked_cubes_scale_n(x, thr.data(), begin, end, weights->q[c.scale],
                                                  k.cubes);
    }
  };
  for (int i = 0; i < c.h; ++i) {
    const bool summed = i >= geo.sum_y.begin && i < geo.sum_y.end;
    std::vector<unsigned long long> want(adm::kRowSums, 0);
    if (summed) {
      threshold(in.flt_a, in.additive, i);
      const adm::BandSums dlm = cubes(in.row(in.restored, i));
      adm::BandSums aim{};
      if (c.aim) {
        threshold(in.flt_r, in.restored, i);
        aim = cubes(in.row(in.additive, i));
      }
      adm::BandSumsU den{};
      if constexpr (sizeof(T) == 2) {
        den = adm::reference::ref_cubes_scale0(in.row(in.ref, i), begin, end);
      } else {
        den = adm::reference::ref_cubes_scale_n(in.row(in.ref, i), begin, end, k.ref);
      }
      for (int b = 0; b < 3; ++b) {
        want[b] = static_cast<unsigned long long>(dlm[b]);
        want[3 + b] = static_cast<unsigned long long>(aim[b]);
        want[6 + b] = den[b];
      }
    }
    for (int s = 0; s < adm::kRowSums; ++s) {
      ASSERT_EQ(rows[static_cast<std::size_t>(s) * c.h + i], want[s])
          << what << ", row " << i << ", sum " << s;
    }
  }
}

// The smallest band width whose summed area is `span` wide (none: 0).
int band_width_summing(int span) {
  for (int w = span; w < 2 * span + 64; ++w) {
    const adm::ScaleGeometry g = adm::scale_geometry(2 * w, 2 * adm::kMinSize);
    if (g.sum_x.end - g.sum_x.begin == span) return w;
  }
  return 0;
}

TEST(AdmKernels, RowSumsEqualTheCpuTwin) {
  // Band widths: the whole band summed (a border of 0 below 15), the summed
  // area exactly one block, one block and 2 pixels, and several blocks and a
  // part.
  const int one = band_width_summing(adm::kSumSpan);
  const int one_and_two = band_width_summing(adm::kSumSpan + 2);
  const int several = band_width_summing(2 * adm::kSumSpan + 100);
  ASSERT_TRUE(one > 0 && one_and_two > 0 && several > 0);
  const std::vector<Case> cases = {
      {10, 5, 0, true},           {10, 5, 2, true},          {one, 4, 0, true},
      {one_and_two, 4, 0, true},  {one_and_two, 4, 1, true}, {one_and_two, 4, 0, false},
      {one_and_two, 4, 3, false}, {several, 3, 0, true},     {several, 3, 1, true}};
  std::mt19937 rng(29);
  for (const Case& c : cases) {
    if (c.scale == 0) {
      expect_rows_equal<std::int16_t>(c, rng);
    } else {
      expect_rows_equal<std::int32_t>(c, rng);
    }
  }
}

}  // namespace
}  // namespace vqx
