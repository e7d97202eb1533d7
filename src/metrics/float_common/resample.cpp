#include "metrics/float_common/resample.hpp"

#include <cassert>
#include <cmath>
#include <numbers>

#include "core/index_math.hpp"
#include "core/kernel_build.hpp"
#include "metrics/float_common/params.hpp"
#include "metrics/float_common/pointwise.hpp"

namespace vqx::float_common {

namespace {

// libvmaf's mirror(), reflection about 0 and side - 1, takes float
// arguments; on integer indices (exact in float for every side VQX takes)
// it is reflect101.
int mirror_index(int i, unsigned side) { return reflect101(i, static_cast<int>(side)); }

// Source-to-destination ratio: a float quotient, as libvmaf computes it.
float ratio(unsigned src, unsigned dst) {
  return static_cast<float>(src) / static_cast<float>(dst);
}

// The source position of output sample x (pixel centres): computed in
// double, kept as float.
float centre(unsigned x, float r) {
  return static_cast<float>((x + 0.5) * static_cast<double>(r) - 0.5);
}

float bicubic_kernel(float t) {
  if (t < 0) t = -t;
  if (t < 1) return ((kBicubicA + 2) * t - (kBicubicA + 3)) * t * t + 1;
  if (t < 2) return (((t - 5) * t + 8) * t - 4) * kBicubicA;
  return 0;
}

// The Lanczos kernel in double (sin is double in libvmaf), returned as float.
float lanczos_kernel(float x, float a) {
  if (x == 0.0) return 1.0f;
  if (x > -a && x < a) {
    constexpr double pi = std::numbers::pi;
    const double dx = x;
    const double da = a;
    return static_cast<float>(da * std::sin(pi * dx) * std::sin(pi * dx / da) /
                              (pi * pi * dx * dx));
  }
  return 0.0f;
}

}  // namespace

std::optional<ScaleMethod> parse_scale_method(std::string_view name) {
  if (name == "nearest") return ScaleMethod::kNearest;
  if (name == "bilinear") return ScaleMethod::kBilinear;
  if (name == "bicubic") return ScaleMethod::kBicubic;
  if (name == "lanczos4") return ScaleMethod::kLanczos4;
  return std::nullopt;
}

unsigned min_source_side(ScaleMethod method) {
  switch (method) {
    case ScaleMethod::kNearest:
      return 1;
    case ScaleMethod::kBilinear:
      return 2;  // floor -1 mirrors to 1, ceil side to side - 2
    case ScaleMethod::kBicubic:
      return 3;  // taps from floor - 1 >= -2 to floor + 2 <= side + 1
    case ScaleMethod::kLanczos4:
      return 6;  // taps from floor - 4 >= -5 to floor + 4 <= side + 3
  }
  return 1;
}

Resampler::Axis Resampler::make_axis(ScaleMethod method, unsigned src, unsigned dst) {
  Axis a;
  const float r = ratio(src, dst);
  switch (method) {
    case ScaleMethod::kNearest:
      a.taps = 1;
      for (unsigned x = 0; x < dst; ++x) {
        a.index.push_back(static_cast<int>(static_cast<float>(x) * r));
      }
      break;
    case ScaleMethod::kBilinear:
      a.taps = 2;
      for (unsigned x = 0; x < dst; ++x) {
        const float xx = centre(x, r);
        const int lo = mirror_index(static_cast<int>(std::floor(xx)), src);
        const int hi = mirror_index(static_cast<int>(std::ceil(xx)), src);
        a.index.push_back(lo);
        a.index.push_back(hi);
        a.frac.push_back(xx - static_cast<float>(lo));
      }
      break;
    case ScaleMethod::kBicubic:
    case ScaleMethod::kLanczos4: {
      const bool cubic = method == ScaleMethod::kBicubic;
      a.taps = cubic ? kBicubicTaps : kLanczosTaps;
      const int first = cubic ? kBicubicFirst : -kLanczosA;
      for (unsigned x = 0; x < dst; ++x) {
        const float xx = centre(x, r);
        const int x0 = static_cast<int>(std::floor(xx));
        const float d = xx - static_cast<float>(x0);
        a.origin.push_back(x0);
        for (unsigned t = 0; t < a.taps; ++t) {
          const int i = first + static_cast<int>(t);
          const float pos = static_cast<float>(i) - d;
          a.weight.push_back(cubic ? bicubic_kernel(pos)
                                   : lanczos_kernel(pos, static_cast<float>(kLanczosA)));
          a.index.push_back(mirror_index(x0 + i, src));
        }
      }
      break;
    }
  }
  return a;
}

Resampler resampler_for(ScaleMethod method, unsigned src_w, unsigned src_h, unsigned dst_w,
                        unsigned dst_h) {
  Resampler r;
  r.init(method, src_w, src_h, dst_w, dst_h);
  return r;
}

void Resampler::init(ScaleMethod method, unsigned src_w, unsigned src_h, unsigned dst_w,
                     unsigned dst_h) {
  method_ = method;
  src_w_ = src_w;
  src_h_ = src_h;
  dst_w_ = dst_w;
  dst_h_ = dst_h;
  if (identity()) return;
  assert(src_w >= min_source_side(method) && src_h >= min_source_side(method));
  cols_ = make_axis(method, src_w, dst_w);
  rows_ = make_axis(method, src_h, dst_h);
}

void Resampler::run(const FloatImage& src, FloatImage& dst) const {
  assert(src.width() == src_w_ && src.height() == src_h_);
  assert(dst.width() == dst_w_ && dst.height() == dst_h_);
  if (identity()) {
    for (unsigned y = 0; y < dst_h_; ++y) {
      const float* s = src.row(y);
      float* d = dst.row(y);
      for (unsigned x = 0; x < dst_w_; ++x) d[x] = s[x];
    }
    return;
  }
  switch (method_) {
    case ScaleMethod::kNearest:
      run_nearest(src, dst);
      break;
    case ScaleMethod::kBilinear:
      run_bilinear(src, dst);
      break;
    case ScaleMethod::kBicubic:
      run_bicubic(src, dst);
      break;
    case ScaleMethod::kLanczos4:
      run_lanczos(src, dst);
      break;
  }
}

void Resampler::run_nearest(const FloatImage& src, FloatImage& dst) const {
  for (unsigned y = 0; y < dst_h_; ++y) {
    const float* s = src.row(static_cast<unsigned>(rows_.index[y]));
    float* d = dst.row(y);
    for (unsigned x = 0; x < dst_w_; ++x) d[x] = s[cols_.index[x]];
  }
}

// libvmaf's bilinear interpolation: pointwise.hpp's bilinear_value().
VQX_CLONES
void Resampler::run_bilinear(const FloatImage& src, FloatImage& dst) const {
  const int* xi = cols_.index.data();
  const float* dxs = cols_.frac.data();
  for (unsigned y = 0; y < dst_h_; ++y) {
    const float* r1 = src.row(static_cast<unsigned>(rows_.index[2 * y]));
    const float* r2 = src.row(static_cast<unsigned>(rows_.index[2 * y + 1]));
    const float dy = rows_.frac[y];
    float* d = dst.row(y);
    for (unsigned x = 0; x < dst_w_; ++x) {
      const int x1 = xi[2 * x];
      const int x2 = xi[2 * x + 1];
      d[x] = bilinear_value(dxs[x], dy, r1[x1], r1[x2], r2[x1], r2[x2]);
    }
  }
}

// libvmaf bicubic_interpolation(): pointwise.hpp's bicubic_value().
void Resampler::run_bicubic(const FloatImage& src, FloatImage& dst) const {
  for (unsigned y = 0; y < dst_h_; ++y) {
    const int* yi = &rows_.index[y * kBicubicTaps];
    const float* wy = &rows_.weight[y * kBicubicTaps];
    float* d = dst.row(y);
    for (unsigned x = 0; x < dst_w_; ++x) {
      const int* xi = &cols_.index[x * kBicubicTaps];
      const float* wx = &cols_.weight[x * kBicubicTaps];
      d[x] = bicubic_value<kBicubicTaps>(wx, wy, [&](unsigned i, unsigned j) {
        return src.row(static_cast<unsigned>(yi[j]))[xi[i]];
      });
    }
  }
}

// libvmaf lanczos4_interpolation(): pointwise.hpp's lanczos_value().
void Resampler::run_lanczos(const FloatImage& src, FloatImage& dst) const {
  for (unsigned y = 0; y < dst_h_; ++y) {
    const int* yi = &rows_.index[y * kLanczosTaps];
    const float* wy = &rows_.weight[y * kLanczosTaps];
    float* d = dst.row(y);
    for (unsigned x = 0; x < dst_w_; ++x) {
      const int* xi = &cols_.index[x * kLanczosTaps];
      const float* wx = &cols_.weight[x * kLanczosTaps];
      d[x] = lanczos_value<kLanczosTaps>(wx, wy, [&](unsigned i, unsigned j) {
        return src.row(static_cast<unsigned>(yi[j]))[xi[i]];
      });
    }
  }
}

}  // namespace vqx::float_common
