#include "metrics/speed/rescale.hpp"

#include <cmath>
#include <numbers>

#include "metrics/speed/pointwise.hpp"

namespace vqx::speed {

namespace {

// vif_tools.c, mirror(): float arguments, left always 0.
float mirror(float i, float right) { return i < 0 ? -i : (i > right ? 2 * right - i : i); }

int mirrored_index(double position, int n) {
  return static_cast<int>(mirror(static_cast<float>(position), static_cast<float>(n - 1)));
}

// The sample position of output `o`: (o + 0.5) * ratio - 0.5 in double,
// rounded to float.
float centre(int o, float ratio) { return static_cast<float>((o + 0.5) * ratio - 0.5); }

// bicubic_kernel(), a = -0.75, in float.
float bicubic_weight(float t) {
  const float a = -0.75F;
  if (t < 0) {
    t = -t;
  }
  if (t < 1) {
    return ((a + 2) * t - (a + 3)) * t * t + 1;
  }
  if (t < 2) {
    return (((t - 5) * t + 8) * t - 4) * a;
  }
  return 0;
}

// lanczos4_kernel(x, a = 4), in double, rounded to float.
float lanczos_weight(float x) {
  const float a = 4;
  if (x == 0.0) {
    return 1.0F;
  }
  if (x > -a && x < a) {
    const double pi = std::numbers::pi;
    return static_cast<float>(a * std::sin(pi * x) * std::sin(pi * x / a) / (pi * pi * x * x));
  }
  return 0.0F;
}

}  // namespace

unsigned taps_of(ScaleMethod m) {
  switch (m) {
    case ScaleMethod::kNearest:
      return 1;
    case ScaleMethod::kBilinear:
      return 2;
    case ScaleMethod::kBicubic:
      return 4;
    case ScaleMethod::kLanczos4:
      break;
  }
  return 9;
}

namespace {

// Fills the `taps` positions and weights of output position `o`.
void fill_taps(ScaleMethod m, int o, float ratio, int src_n, int* index, float* weight) {
  switch (m) {
    case ScaleMethod::kNearest:
      index[0] = static_cast<int>(static_cast<float>(o) * ratio);
      return;
    case ScaleMethod::kBilinear: {
      // The weight is measured from the mirrored lower position.
      const float c = centre(o, ratio);
      index[0] = mirrored_index(std::floor(c), src_n);
      index[1] = mirrored_index(std::ceil(c), src_n);
      const float d = c - static_cast<float>(index[0]);
      weight[0] = 1 - d;
      weight[1] = d;
      return;
    }
    case ScaleMethod::kBicubic:
    case ScaleMethod::kLanczos4: {
      // Taps at floor(c) + i, i = -1..2 (bicubic) or -4..4 (lanczos4).
      const bool bicubic = m == ScaleMethod::kBicubic;
      const int first = bicubic ? -1 : -4;
      const int count = bicubic ? 4 : 9;
      const float c = centre(o, ratio);
      const int c0 = static_cast<int>(std::floor(c));
      const float d = c - static_cast<float>(c0);
      for (int t = 0; t < count; ++t) {
        const int i = first + t;
        const float x = static_cast<float>(i) - d;
        weight[t] = bicubic ? bicubic_weight(x) : lanczos_weight(x);
        index[t] = mirrored_index(c0 + i, src_n);
      }
      return;
    }
  }
}

// One output row of an interpolating method with T taps per axis: for each
// column, pointwise.hpp's resample() over the T source rows. For bilinear
// libvmaf writes (wy * wx) * src and adds the four terms without the
// leading 0: the same floats (0 + t == t up to the sign of a zero, which no
// later step can observe).
template <int T, bool Normalise>
void weighted_sums(const float* rows, std::size_t src_w, const int* index, const float* wx,
                   const float* wy, unsigned width, float* out) {
  for (unsigned x = 0; x < width; ++x) {
    const auto source = [&](int j, int column) {
      return rows[(static_cast<std::size_t>(j) * src_w) + static_cast<std::size_t>(column)];
    };
    out[x] =
        resample<T, Normalise>(index + (std::size_t{x} * T), wx + (std::size_t{x} * T), wy, source);
  }
}

}  // namespace

AxisTaps axis_taps(ScaleMethod m, unsigned src, unsigned dst) {
  AxisTaps a;
  a.taps = taps_of(m);
  a.index.assign(std::size_t{dst} * a.taps, 0);
  a.weight.assign(std::size_t{dst} * a.taps, 0.0F);
  const float ratio = static_cast<float>(src) / static_cast<float>(dst);
  for (unsigned o = 0; o < dst; ++o) {
    fill_taps(m, static_cast<int>(o), ratio, static_cast<int>(src),
              &a.index[std::size_t{o} * a.taps], &a.weight[std::size_t{o} * a.taps]);
  }
  return a;
}

void RescaledRows::init(unsigned src_w, unsigned src_h, unsigned dst_w, unsigned dst_h,
                        ScaleMethod method) {
  method_ = method;
  src_w_ = src_w;
  dst_w_ = dst_w;
  identity_ = src_w == dst_w && src_h == dst_h;
  taps_ = taps_of(method);
  columns_ = axis_taps(method, src_w, dst_w);
  row_taps_ = axis_taps(method, src_h, dst_h);
  rows_.assign(std::size_t{src_w} * taps_, 0.0F);
}

void RescaledRows::row(unsigned y, float* out) {
  if (identity_) {
    source_->row(y, out);
    return;
  }
  const std::size_t first = std::size_t{y} * taps_;
  for (unsigned j = 0; j < taps_; ++j) {
    source_->row(static_cast<unsigned>(row_taps_.index[first + j]),
                 &rows_[std::size_t{j} * src_w_]);
  }

  const int* ix = columns_.index.data();
  const float* wx = columns_.weight.data();
  const float* wy = row_taps_.weight.data() + first;
  switch (method_) {
    case ScaleMethod::kNearest:
      for (unsigned x = 0; x < dst_w_; ++x) {
        out[x] = rows_[static_cast<std::size_t>(ix[x])];
      }
      return;
    case ScaleMethod::kBilinear:
      weighted_sums<2, false>(rows_.data(), src_w_, ix, wx, wy, dst_w_, out);
      return;
    case ScaleMethod::kBicubic:
      weighted_sums<4, false>(rows_.data(), src_w_, ix, wx, wy, dst_w_, out);
      return;
    case ScaleMethod::kLanczos4:
      weighted_sums<9, true>(rows_.data(), src_w_, ix, wx, wy, dst_w_, out);
      return;
  }
}

}  // namespace vqx::speed
