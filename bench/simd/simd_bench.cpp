// vqx_simd_bench: times two hot CPU kernels over a 1080p frame's worth of
// rows in their plain-loop reference forms, as this build compiled them
// (target_clones, or one target: VQX_CPU_TARGET), and as the library's own
// Highway kernels under each Highway target this CPU runs, after checking
// that every version gives the same bits. Prints one line per version:
//   kernel<TAB>version<TAB>median ms per frame<TAB>fastest ms per frame
// bench/simd.sh runs it in several builds and makes the table. The moments
// kernel is also timed written with GCC vector types in this build's
// dispatch (vector_kernels.cpp), to tell the dispatch from the loop's form.
//  * moments: float_common::reference::weighted_rows_moments against
//    float_common::weighted_rows_moments, float VIF's 17-tap filter of its
//    five moments, 1080 rows of 1920 floats;
//  * dwt0: adm::reference::dwt_scale0_row against adm::dwt_scale0_row,
//    integer ADM's first wavelet level of an 8-bit 1920x1080 plane (540
//    output rows, every band).
#include <algorithm>
#include <array>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <functional>
#include <random>
#include <string>
#include <vector>

#include "core/index_math.hpp"
#include "hwy/targets.h"
#include "metrics/adm/dwt.hpp"
#include "metrics/float_common/convolve.hpp"
#include "simd/vector_kernels.hpp"

namespace {

constexpr int kWidth = 1920;
constexpr int kHeight = 1080;
constexpr int kTaps = 17;
constexpr int kRepeats = 9;  // timed frames per version; the median is reported

struct Timing {
  double median_ms;
  double fastest_ms;
};

Timing time_frames(const std::function<void()>& frame) {
  frame();  // warm-up: caches, page faults, the dispatch's first call
  std::vector<double> ms;
  for (int r = 0; r < kRepeats; ++r) {
    const auto start = std::chrono::steady_clock::now();
    frame();
    const auto end = std::chrono::steady_clock::now();
    ms.push_back(std::chrono::duration<double, std::milli>(end - start).count());
  }
  std::sort(ms.begin(), ms.end());
  return {ms[ms.size() / 2], ms.front()};
}

void report(const char* kernel, const std::string& version, const Timing& t) {
  std::printf("%s\t%s\t%.3f\t%.3f\n", kernel, version.c_str(), t.median_ms, t.fastest_ms);
}

// The float kernel: 1080 output rows, each from 17 of the input rows.
struct MomentsCase {
  std::vector<float> taps;
  std::vector<std::vector<float>> a, b;   // kTaps + kHeight rows
  std::array<std::vector<float>, 5> out;  // every output row, one after the other

  MomentsCase() : a(kTaps + kHeight), b(kTaps + kHeight) {
    std::mt19937 rng(1);
    std::uniform_real_distribution<float> value(0.0f, 255.0f), tap(0.0f, 0.125f);
    for (int k = 0; k < kTaps; ++k) taps.push_back(tap(rng));
    for (auto* rows : {&a, &b}) {
      for (auto& row : *rows) {
        row.resize(kWidth);
        for (float& v : row) v = value(rng);
      }
    }
    for (auto& o : out) o.assign(std::size_t{kWidth} * kHeight, 0.0f);
  }

  template <typename Kernel>
  void frame(const Kernel& kernel) {
    std::array<const float*, kTaps> ra{}, rb{};
    for (int i = 0; i < kHeight; ++i) {
      for (int k = 0; k < kTaps; ++k) {
        ra[k] = a[i + k].data();
        rb[k] = b[i + k].data();
      }
      std::array<float*, 5> o{};
      for (int m = 0; m < 5; ++m) o[m] = out[m].data() + std::size_t{kWidth} * i;
      kernel(ra.data(), rb.data(), o.data());
    }
  }
};

// The integer kernel: an 8-bit plane, 540 output rows of every band.
struct DwtCase {
  std::vector<std::uint8_t> plane;
  std::vector<std::int16_t> lo, hi;  // scratch, index -1 .. w + 1 usable
  std::vector<std::int32_t> a;
  std::vector<std::int16_t> v, h, d;
  static constexpr int kOutW = (kWidth + 1) / 2;
  static constexpr int kOutH = (kHeight + 1) / 2;

  DwtCase()
      : plane(std::size_t{kWidth} * kHeight),
        lo(kWidth + 64),
        hi(kWidth + 64),
        a(std::size_t{kOutW} * kOutH),
        v(a.size()),
        h(a.size()),
        d(a.size()) {
    std::mt19937 rng(2);
    std::uniform_int_distribution<int> sample(0, 255);
    for (auto& s : plane) s = static_cast<std::uint8_t>(sample(rng));
  }

  template <typename Kernel>
  void frame(const Kernel& kernel) {
    for (int i = 0; i < kOutH; ++i) {
      const std::uint8_t* rows[4];
      for (int k = 0; k < 4; ++k) {
        rows[k] =
            plane.data() + std::size_t{kWidth} * vqx::reflect101_repeat_end(2 * i - 1 + k, kHeight);
      }
      const std::size_t o = std::size_t{kOutW} * i;
      kernel(rows, lo.data() + 1, hi.data() + 1, a.data() + o, v.data() + o, h.data() + o,
             d.data() + o);
    }
  }

  [[nodiscard]] bool same_as(const DwtCase& other) const {
    return a == other.a && v == other.v && h == other.h && d == other.d;
  }
};

std::string library_version() {
#if defined(VQX_BENCH_LIBRARY)
  return std::string("library ") + VQX_BENCH_LIBRARY;
#else
  return "library";
#endif
}

}  // namespace

int main() {
  int failures = 0;

  // The library's kernels, as this build compiled them.
  MomentsCase lib_moments;
  const auto library_moments = [&](const float* const* a, const float* const* b,
                                   float* const* out) {
    vqx::float_common::reference::weighted_rows_moments(lib_moments.taps, a, b, kWidth, out);
  };
  report("moments", library_version(), time_frames([&] { lib_moments.frame(library_moments); }));

  // The same loop with GCC vector types, in this build's dispatch.
  {
    MomentsCase v;
    const auto vector_moments = [&](const float* const* a, const float* const* b,
                                    float* const* out) {
      vqx::bench::vector_moments(v.taps.data(), v.taps.size(), a, b, kWidth, out);
    };
    const Timing t = time_frames([&] { v.frame(vector_moments); });
    if (v.out != lib_moments.out) {
      std::fprintf(stderr, "vqx_simd_bench: moments, GCC vectors: not the library's bits\n");
      ++failures;
    }
    report("moments", library_version() + ", GCC vectors", t);
  }

  DwtCase lib_dwt;
  const auto library_dwt = [&](const std::uint8_t* const rows[4], std::int16_t* lo,
                               std::int16_t* hi, std::int32_t* a, std::int16_t* v, std::int16_t* h,
                               std::int16_t* d) {
    vqx::adm::reference::dwt_scale0_row(rows, kWidth, 8, vqx::adm::DwtScratch<std::int16_t>{lo, hi},
                                        vqx::adm::Dwt0Row{a, v, h, d});
  };
  report("dwt0", library_version(), time_frames([&] { lib_dwt.frame(library_dwt); }));

  // The library's own Highway kernels, one target at a time.
  for (const std::int64_t target : hwy::SupportedAndGeneratedTargets()) {
    hwy::SetSupportedTargetsForTest(target);
    const std::string name = std::string("highway ") + hwy::TargetName(target);

    MomentsCase m;
    const auto hwy_moments = [&](const float* const* a, const float* const* b, float* const* out) {
      vqx::float_common::weighted_rows_moments(m.taps, a, b, kWidth, out);
    };
    const Timing tm = time_frames([&] { m.frame(hwy_moments); });
    if (m.out != lib_moments.out) {
      std::fprintf(stderr, "vqx_simd_bench: moments, %s: not the library's bits\n", name.c_str());
      ++failures;
    }
    report("moments", name, tm);

    DwtCase dw;
    const auto hwy_dwt = [&](const std::uint8_t* const rows[4], std::int16_t* lo, std::int16_t* hi,
                             std::int32_t* a, std::int16_t* v, std::int16_t* h, std::int16_t* d) {
      vqx::adm::dwt_scale0_row(rows, kWidth, 8, vqx::adm::DwtScratch<std::int16_t>{lo, hi},
                               vqx::adm::Dwt0Row{a, v, h, d});
    };
    const Timing td = time_frames([&] { dw.frame(hwy_dwt); });
    if (!dw.same_as(lib_dwt)) {
      std::fprintf(stderr, "vqx_simd_bench: dwt0, %s: not the library's bits\n", name.c_str());
      ++failures;
    }
    report("dwt0", name, td);
  }
  hwy::SetSupportedTargetsForTest(0);
  return failures == 0 ? 0 : 1;
}
