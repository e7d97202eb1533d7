#include "metrics/ssim/scores.hpp"

#include <cmath>

#include "metrics/ssim/db.hpp"

namespace vqx::ssim {

namespace {

// float_ssim's slots: the score, then with enable_lcs the l, c and s means.
enum SsimSlot : std::size_t { kSlotScore, kSlotL, kSlotC, kSlotS };

// float_ms_ssim's: the score, then l of scales 0..4, c of 0..4, s of 0..4.
constexpr std::size_t slot_l(int scale) { return 1 + static_cast<std::size_t>(scale); }
constexpr std::size_t slot_c(int scale) { return 1 + kScales + static_cast<std::size_t>(scale); }
constexpr std::size_t slot_s(int scale) {
  return 1 + 2 * kScales + static_cast<std::size_t>(scale);
}

}  // namespace

void write_ssim(const SsimConfig& config, double max_db, const WindowMeans& means, unsigned index,
                FeatureWriter& out) {
  double score = static_cast<double>(means.ssim);
  if (config.enable_db) score = to_db(score, max_db);
  out.write(kSlotScore, index, score);
  if (config.enable_lcs) {
    out.write(kSlotL, index, static_cast<double>(means.l));
    out.write(kSlotC, index, static_cast<double>(means.c));
    out.write(kSlotS, index, static_cast<double>(means.s));
  }
}

double ms_ssim_score(const std::array<WindowMeans, kScales>& means) {
  double score = 1.0;
  for (int k = 0; k < kScales; ++k) {
    const auto l = static_cast<double>(means[k].l);
    const auto c = static_cast<double>(means[k].c);
    const auto s = static_cast<double>(means[k].s);
    score *= std::pow(l, static_cast<double>(kAlphas[k])) *
             std::pow(c, static_cast<double>(kBetas[k])) *
             std::pow(s, static_cast<double>(kGammas[k]));
  }
  return score;
}

void write_ms_ssim(const MsSsimConfig& config, double max_db, double score,
                   const std::array<WindowMeans, kScales>& means, unsigned index,
                   FeatureWriter& out) {
  if (config.enable_db) score = to_db(score, max_db);
  out.write(0, index, score);
  if (config.enable_lcs) {
    for (int k = 0; k < kScales; ++k) {
      out.write(slot_l(k), index, static_cast<double>(means[k].l));
      out.write(slot_c(k), index, static_cast<double>(means[k].c));
      out.write(slot_s(k), index, static_cast<double>(means[k].s));
    }
  }
}

}  // namespace vqx::ssim
