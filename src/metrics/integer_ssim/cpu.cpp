// Integer SSIM on the CPU. integer_ssim.c's algorithm: each input row is
// filtered horizontally into a ring of kTaps rows of window sums; once the
// rows below an output row are in, that row is filtered vertically, each
// pixel's term W * ssim formed, and the row's terms are added to the
// frame's sum in order. The window is truncated at every edge (the taps
// outside the picture are left out, tap_range), never padded.
#include "metrics/integer_ssim/cpu.hpp"

#include <algorithm>

#include "metrics/integer_ssim/score.hpp"

namespace vqx::integer_ssim {

void Scorer::init(int width, int height) {
  width_ = width;
  height_ = height;
  ring_.assign(static_cast<std::size_t>(kTaps) * static_cast<std::size_t>(width), Moments{});
  column_weight_.resize(static_cast<std::size_t>(width));
  for (int x = 0; x < width; ++x)
    column_weight_[static_cast<std::size_t>(x)] = axis_weight(x, width);
  row_terms_.assign(static_cast<std::size_t>(width), 0.0);
}

double Scorer::score(const Plane& ref, const Plane& dist, unsigned bpc) {
  return bpc == 8 ? run<std::uint8_t>(ref, dist, bpc, nullptr)
                  : run<std::uint16_t>(ref, dist, bpc, nullptr);
}

double Scorer::terms(const Plane& ref, const Plane& dist, unsigned bpc, std::span<double> terms) {
  return bpc == 8 ? run<std::uint8_t>(ref, dist, bpc, terms.data())
                  : run<std::uint16_t>(ref, dist, bpc, terms.data());
}

template <typename Sample>
double Scorer::run(const Plane& ref, const Plane& dist, unsigned bpc, double* all_terms) {
  const std::int64_t peak_sq = peak_squared(bpc);
  double sum = 0.0;
  int next_input = 0;  // the next input row to filter horizontally
  for (int y = 0; y < height_; ++y) {
    // Output row y reads input rows up to y + kRadius (those that exist).
    const int last_needed = std::min(y + kRadius, height_ - 1);
    for (; next_input <= last_needed; ++next_input) horizontal<Sample>(ref, dist, next_input);
    double* row_terms = all_terms != nullptr ? all_terms + static_cast<std::size_t>(y) *
                                                               static_cast<std::size_t>(width_)
                                             : row_terms_.data();
    vertical(y, peak_sq, row_terms);
    sum = add_in_order(sum, row_terms, static_cast<std::size_t>(width_));
  }
  return frame_score(sum, width_, height_);
}

template <typename Sample>
void Scorer::horizontal(const Plane& ref, const Plane& dist, int y) {
  const Sample* a = ref.row<Sample>(static_cast<unsigned>(y));
  const Sample* b = dist.row<Sample>(static_cast<unsigned>(y));
  Moments* out = ring_row(y);
  for (int x = 0; x < width_; ++x) {
    const TapRange r = tap_range(x, width_);
    Moments m;
    for (int k = r.first; k < r.end; ++k) {
      const int at = x - kRadius + k;
      add_samples(m, kWindow[static_cast<std::size_t>(k)], a[at], b[at]);
    }
    out[x] = m;
  }
}

void Scorer::vertical(int y, std::int64_t peak_sq, double* row_terms) const {
  const TapRange r = tap_range(y, height_);
  const std::int64_t row_weight = axis_weight(y, height_);
  for (int x = 0; x < width_; ++x) {
    Moments m;
    for (int k = r.first; k < r.end; ++k) {
      add_row(m, kWindow[static_cast<std::size_t>(k)], ring_row(y - kRadius + k)[x]);
    }
    row_terms[x] =
        weighted_ssim(m, column_weight_[static_cast<std::size_t>(x)] * row_weight, peak_sq);
  }
}

}  // namespace vqx::integer_ssim
