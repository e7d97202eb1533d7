#include "metrics/speed/outputs.hpp"

namespace vqx::speed {

namespace {

double clipped(float score, double max_val) {
  const double s = score;
  return s < max_val ? s : max_val;
}

}  // namespace

void write_chroma(const ScoreResult& u, const ScoreResult& v, double max_val, unsigned index,
                  FeatureWriter& out) {
  float uv = 0;
  if (u.singular && !v.singular) {
    uv = v.score;
  } else if (v.singular && !u.singular) {
    uv = u.score;
  } else {
    uv = static_cast<float>((u.score + v.score) / 2.0);
  }
  out.write(kSlotU, index, clipped(u.score, max_val));
  out.write(kSlotV, index, clipped(v.score, max_val));
  out.write(kSlotUv, index, clipped(uv, max_val));
}

void write_temporal(unsigned index, const ScoreResult& r, FeatureWriter& out) {
  out.write(0, index, index == 0 ? 0.0 : static_cast<double>(r.score));
}

}  // namespace vqx::speed
