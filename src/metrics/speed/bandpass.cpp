#include "metrics/speed/bandpass.hpp"

#include <algorithm>

#include "core/index_math.hpp"
#include "core/kernel_build.hpp"

namespace vqx::speed {

namespace {

// The border rule of vif_filter1d_s() and convolution_edge_s(): reflect
// about the edge samples without repeating them (-1 -> 1, n -> n - 2:
// reflect101, core/index_math.hpp). The minimum size keeps every radius
// below n, so one reflection suffices.
constexpr int mirror(int i, int n) { return reflect101(i, n); }

// out[x] = sum_k f[k] * in[mirror(x - r + k)] for the `count` positions
// x = first, first + step, ...; the sum starts from 0 as in libvmaf.
void horizontal(const Taps& t, const float* in, int n, int first, int step, int count, float* out) {
  const int r = t.radius();
  const int width = static_cast<int>(t.f.size());
  for (int o = 0; o < count; ++o) {
    const int x = first + o * step;
    float s = 0.0F;
    for (int k = 0; k < width; ++k) {
      s += t.f[static_cast<std::size_t>(k)] * in[mirror(x - r + k, n)];
    }
    out[o] = s;
  }
}

// acc[x] += f * row[x]: one tap of a vertical pass.
VQX_CLONES void add_tap(float* __restrict acc, const float* __restrict row, float f, int n) {
  for (int x = 0; x < n; ++x) {
    acc[x] += f * row[x];
  }
}

}  // namespace

void BandPass::init(const Geometry& g, const Params& p) {
  g_ = g;
  antialias_ = antialias_taps(p.kernel_scale);
  band_ = band_taps(p.kernel_scale);
  row_.assign(g.scaled_w, 0.0F);
  column_sum_.assign(g.scaled_w, 0.0F);
  decimated_.assign(std::size_t{g.op_w} * g.op_h, 0.0F);
  band_rows_.assign(g.op_w, 0.0F);
}

void BandPass::run(RowSource& src, float* out) {
  const int sw = static_cast<int>(g_.scaled_w);
  const int sh = static_cast<int>(g_.scaled_h);
  const int ow = static_cast<int>(g_.op_w);
  const int oh = static_cast<int>(g_.op_h);

  // Anti-aliasing blur at the kept samples (16i, 16j) only.
  const int ra = antialias_.radius();
  const int fa = static_cast<int>(antialias_.f.size());
  for (int i = 0; i < oh; ++i) {
    const int centre = i * static_cast<int>(kDecimation);
    std::fill(column_sum_.begin(), column_sum_.end(), 0.0F);
    for (int k = 0; k < fa; ++k) {
      src.row(static_cast<unsigned>(mirror(centre - ra + k, sh)), row_.data());
      add_tap(column_sum_.data(), row_.data(), antialias_.f[static_cast<std::size_t>(k)], sw);
    }
    horizontal(antialias_, column_sum_.data(), sw, 0, static_cast<int>(kDecimation), ow,
               &decimated_[static_cast<std::size_t>(i) * g_.op_w]);
  }

  // Minus its band blur (vertical pass, then horizontal).
  const int rb = band_.radius();
  const int fb = static_cast<int>(band_.f.size());
  const float* dec = decimated_.data();
  for (int i = 0; i < oh; ++i) {
    std::fill(band_rows_.begin(), band_rows_.end(), 0.0F);
    for (int k = 0; k < fb; ++k) {
      add_tap(band_rows_.data(), dec + static_cast<std::ptrdiff_t>(mirror(i - rb + k, oh)) * ow,
              band_.f[static_cast<std::size_t>(k)], ow);
    }
    float* o = out + static_cast<std::ptrdiff_t>(i) * ow;
    horizontal(band_, band_rows_.data(), ow, 0, 1, ow, o);
    const float* d = dec + static_cast<std::ptrdiff_t>(i) * ow;
    for (int x = 0; x < ow; ++x) {
      o[x] = d[x] - o[x];
    }
  }
}

}  // namespace vqx::speed
