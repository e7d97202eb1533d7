// Per-frame prediction: libvmaf's arithmetic step for step (normalise ->
// chroma correction -> nu-SVR/RBF -> denormalise -> transform -> clip; for a
// bootstrap collection the members' mean, spread and 95 % interval).
#include <algorithm>
#include <array>
#include <cmath>
#include <vector>

#include "model/model.hpp"
#include "model/text.hpp"

namespace vqx {

namespace {

// Score post-processing, in libvmaf's order and arithmetic.

// libvmaf's piecewise-linear mapping: every segment whose closed x-range
// holds x sets y (a later segment wins at a shared knot); the first and
// last segments extend below and above the knots. Knots are validated at
// load (x increasing, y non-decreasing, at least 2).
double piecewise_linear(double x, const std::vector<std::pair<double, double>>& knots) {
  double y = 0.0;
  const std::size_t n_seg = knots.size() - 1;
  for (std::size_t i = 0; i < n_seg; ++i) {
    const auto [x0, y0] = knots[i];
    const auto [x1, y1] = knots[i + 1];
    const bool inside = x0 <= x && x <= x1;
    const bool below = i == 0 && x < x0;
    const bool above = i == n_seg - 1 && x > x1;
    if (y0 == y1) {
      if (inside || below || above) {
        y = y0;
      }
    } else {
      double slope = 0, offset = 0;
      if (x0 == 0) {
        offset = y0;
        slope = (y1 - offset) / x1;
      } else {
        slope = (y1 - y0) / (x1 - x0);
        offset = y0 - (x0 * slope);
      }
      if (inside || below || above) {
        y = slope * x + offset;
      }
    }
  }
  return y;
}

double apply_transform(const detail::ScoreTransform& t, double in) {
  double out = in;
  if (t.has_p0 || t.has_p1 || t.has_p2) {
    out = 0.;
    if (t.has_p0) {
      out += t.p0;
    }
    if (t.has_p1) {
      out += t.p1 * in;
    }
    if (t.has_p2) {
      out += t.p2 * in * in;
    }
  }
  if (!t.knots.empty()) {
    out = piecewise_linear(out, t.knots);
  }
  if (t.out_lte_in && out > in) {
    out = in;
  }
  if (t.out_gte_in && out < in) {
    out = in;
  }
  return out;
}

// libvmaf's percentile of sorted scores: linear interpolation at
// perc * (n - 1) / 100.
double percentile(const std::vector<double>& sorted, double perc) {
  const double p = perc * static_cast<double>(sorted.size() - 1) / 100.;
  const double lo = std::floor(p);
  const double hi = std::ceil(p);
  const auto il = static_cast<std::size_t>(lo);
  const auto ih = static_cast<std::size_t>(hi);
  if (il == ih) {
    return sorted[il];
  }
  return sorted[il] * (hi - p) + sorted[ih] * (p - lo);
}

}  // namespace

double detail::SvmModel::raw_score(std::span<const double> inputs) const {
  const std::size_t n = features.size();
  std::array<double, detail::kMaxFeatures> x{};
  for (std::size_t i = 0; i < n; ++i) {
    double v = inputs[input[i]];
    if (linear_rescale) {
      v = feature_slope[i] * v + feature_intercept[i];
    }
    x[i] = v;
  }
  if (chroma_correction) {
    const std::size_t g = chroma_guiding;
    const std::size_t h = chroma_guided;
    double guiding = x[g];
    double guided = x[h];
    if (linear_rescale) {
      guiding = (guiding - feature_intercept[g]) / feature_slope[g];
      guided = (guided - feature_intercept[h]) / feature_slope[h];
    }
    if (guided == 0.0) {
      double corrected = (-chroma_parameter * guiding) + chroma_parameter;
      if (linear_rescale) {
        corrected = feature_slope[h] * corrected + feature_intercept[h];
      }
      x[h] = corrected;
    }
  }
  double prediction = svm.predict(std::span<const double>(x.data(), n));
  if (linear_rescale) {
    prediction = (prediction - intercept) / slope;
  }
  return prediction;
}

double detail::SvmModel::finish(double raw) const {
  double score = raw;
  if (transform.enabled) {
    score = apply_transform(transform, score);
  }
  if (clip) {
    score = score < clip_min ? clip_min : score;
    score = score > clip_max ? clip_max : score;
  }
  return score;
}

Status Model::predict(std::span<const double> features, std::span<double> out) const {
  if (features.size() != features_.size()) {
    return Error(Errc::kInvalidArgument,
                 "model " + printable(name_) + ": predict got " + std::to_string(features.size()) +
                     " feature values, expected " + std::to_string(features_.size()));
  }
  if (out.size() != output_names_.size()) {
    return Error(Errc::kInvalidArgument, "model " + printable(name_) + ": predict got room for " +
                                             std::to_string(out.size()) + " scores, expected " +
                                             std::to_string(output_names_.size()));
  }
  out[0] = members_[0].finish(members_[0].raw_score(features));
  if (!is_bootstrap()) {
    return Status::Ok();
  }

  // Bootstrap: statistics over the untransformed, unclipped scores of models
  // 1..N; each model's own score is transformed and clipped as usual.
  const std::size_t n = members_.size() - 1;
  std::vector<double> scores(n);
  for (std::size_t i = 0; i < n; ++i) {
    const double raw = members_[i + 1].raw_score(features);
    scores[i] = raw;
    out[i + 1] = members_[i + 1].finish(raw);
  }
  double sum = 0.;
  for (const double s : scores) {
    sum += s;
  }
  const double mean = sum / static_cast<double>(n);
  const double delta = 0.01;
  double bagging = mean;
  double plus_delta = mean + delta;
  double minus_delta = mean - delta;
  double ssd = 0.;
  for (const double s : scores) {
    ssd += (s - mean) * (s - mean);
  }
  double stddev = std::sqrt(ssd / static_cast<double>(n));

  double lo = std::numeric_limits<double>::quiet_NaN();
  double hi = lo;
  if (std::none_of(scores.begin(), scores.end(), [](double s) { return std::isnan(s); })) {
    std::sort(scores.begin(), scores.end());
    lo = percentile(scores, 2.5);
    hi = percentile(scores, 97.5);
  }
  // Transform and clip with the first bootstrap model's settings; the
  // standard deviation is scaled by the slope of that mapping at the mean.
  const detail::SvmModel& first = members_[1];
  bagging = first.finish(bagging);
  lo = first.finish(lo);
  hi = first.finish(hi);
  plus_delta = first.finish(plus_delta);
  minus_delta = first.finish(minus_delta);
  const double slope = (plus_delta - minus_delta) / (2.0 * delta);
  stddev *= slope;

  out[n + 1] = bagging;
  out[n + 2] = stddev;
  out[n + 3] = lo;
  out[n + 4] = hi;
  return Status::Ok();
}

}  // namespace vqx
