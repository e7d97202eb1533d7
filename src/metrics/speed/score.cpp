#include "metrics/speed/score.hpp"

#include <algorithm>
#include <cmath>

namespace vqx::speed {

namespace {

// entropy * log2(w) in double, rounded to float.
float weighted(float entropy, double w) { return static_cast<float>(entropy * std::log2(w)); }

// The two weighted entropies of one block. The weights are log2(1 + v):
// 1 + v in float for a single variance, in double for a mix of the two.
struct Pair {
  float ref;
  float dis;
};
Pair weigh(float ref_entropy, float dis_entropy, float ref_var, float dis_var, int mode) {
  const auto own_ref = static_cast<double>(1 + ref_var);
  const auto own_dis = static_cast<double>(1 + dis_var);
  const double mean = 1 + (ref_var + dis_var) / 2.0;
  switch (mode) {
    case 0:
      return {weighted(ref_entropy, own_ref), weighted(dis_entropy, own_dis)};
    case 1:
      return {weighted(ref_entropy, own_ref), weighted(dis_entropy, own_ref)};
    case 2:
      return {weighted(ref_entropy, own_dis), weighted(dis_entropy, own_dis)};
    case 3:
      return {weighted(ref_entropy, mean), weighted(dis_entropy, mean)};
    case 4:
      return {weighted(ref_entropy, own_ref), weighted(dis_entropy, mean)};
    case 5:
      return {weighted(ref_entropy, own_ref),
              weighted(dis_entropy, 1 + (0.75 * ref_var + 0.25 * dis_var))};
    default:  // 6; the option's bounds exclude anything else
      return {weighted(ref_entropy, own_ref),
              weighted(dis_entropy, 1 + (0.25 * ref_var + 0.75 * dis_var))};
  }
}

}  // namespace

float speed_score(const BlockStats& ref, const BlockStats& dis, float sigma_nn, float nn_floor,
                  int weight_var_mode) {
  // The entropy of a block at the noise floor: kN times that of one sample.
  const auto floor_entropy =
      static_cast<float>(static_cast<double>(kBlockElems) *
                         (std::log2(static_cast<double>((1 + nn_floor) * sigma_nn)) + kLog2TwoPiE));
  const std::size_t blocks = ref.entropy.size();
  float score = 0;
  for (std::size_t b = 0; b < blocks; ++b) {
    if (ref.entropy[b] < floor_entropy && dis.entropy[b] < floor_entropy) {
      continue;  // no visible difference
    }
    const Pair w =
        weigh(ref.entropy[b], dis.entropy[b], ref.variance[b], dis.variance[b], weight_var_mode);
    score += std::fabs(w.ref - w.dis);
  }
  return score / static_cast<float>(blocks);
}

void SpeedScorer::init(const Geometry& g, const Params& p, int weight_var_mode) {
  g_ = g;
  p_ = p;
  weight_var_mode_ = weight_var_mode;
  bandpass_.init(g, p);
  if (p.rescales()) {
    rescaled_.init(g.width, g.height, g.scaled_w, g.scaled_h, p.prescale_method);
  }
  gsm_.init(g);
  band_.assign(std::size_t{g.op_w} * g.op_h, 0.0F);
  ref_.allocate(g.blocks());
  dis_.allocate(g.blocks());
}

RowSource& SpeedScorer::prescaled(RowSource& src) {
  if (!p_.rescales()) {
    return src;
  }
  rescaled_.set_source(&src);
  return rescaled_;
}

bool SpeedScorer::fit(RowSource& src, BlockStats& stats) {
  bandpass_.run(prescaled(src), band_.data());
  return gsm_.fit(band_.data(), static_cast<float>(p_.sigma_nn), stats);
}

ScoreResult pair_score(bool ref_ok, const BlockStats& ref, bool dis_ok, const BlockStats& dis,
                       const Params& p, int weight_var_mode) {
  ScoreResult r;
  r.singular = !ref_ok || !dis_ok;
  r.score = ref_ok != dis_ok ? 0.0F
                             : speed_score(ref, dis, static_cast<float>(p.sigma_nn),
                                           static_cast<float>(p.nn_floor), weight_var_mode);
  return r;
}

SpeedScorer::Result SpeedScorer::score(RowSource& ref, RowSource& dis) {
  const bool ref_ok = fit(ref, ref_);
  const bool dis_ok = fit(dis, dis_);
  return pair_score(ref_ok, ref_, dis_ok, dis_, p_, weight_var_mode_);
}

}  // namespace vqx::speed
