// Integer ADM on the CPU: the four-scale pipeline that turns a reference and
// a distorted luma plane into libvmaf's ADM scores.
//
// Per scale, the wavelet transform, decoupling, CSF weighting, masking and
// the sums run row by row in one sweep, with only a three-row window of the
// intermediate bands kept, so that the working set stays in cache; the
// approximation band is kept whole as the next scale's input. Every
// arithmetic step, and the grouping of every sum, is libvmaf's.
#pragma once

#include <array>
#include <cstdint>
#include <vector>

#include "core/zeroed_memory.hpp"
#include "metrics/adm/csf.hpp"
#include "metrics/adm/decouple.hpp"
#include "metrics/adm/masking.hpp"
#include "metrics/adm/params.hpp"
#include "vqx/picture.hpp"
#include "vqx/status.hpp"

namespace vqx::adm {

struct AdmScores {
  double adm2 = 0;                          // integer_adm2 (= integer_adm)
  double aim = 0;                           // integer_aim
  double adm3 = 0;                          // integer_adm3
  double num = 0;                           // integer_adm_num
  double den = 0;                           // integer_adm_den
  std::array<double, kScales> num_scale{};  // integer_adm_num_scaleN
  std::array<double, kScales> den_scale{};  // integer_adm_den_scaleN
  std::array<double, kScales> scale{};      // integer_adm_scaleN
};

// Smallest luma size libvmaf's integer ADM handles without reading outside
// its buffers: every scale's input must be at least 5 samples across.
inline constexpr unsigned kMinSize = 33;

// [begin, end) in one dimension.
struct Range {
  int begin = 0;
  int end = 0;
  [[nodiscard]] bool contains(int i) const { return i >= begin && i < end; }
};

// Where each stage runs in the bands of one scale.
struct ScaleGeometry {
  int in_w = 0, in_h = 0;  // input size of this scale's transform
  int w = 0, h = 0;        // band size
  Range dec_x, dec_y;      // decoupling and CSF (the summed area plus the filter margin)
  Range sum_x, sum_y;      // numerator and denominator sums
};

ScaleGeometry scale_geometry(int in_w, int in_h);

// Per-scale constants of the sums (integer_adm.c: adm_cm, i4_adm_cm,
// adm_csf_den_scale, adm_csf_den_s123).
struct SumConsts {
  CubeRoundings cubes{};  // numerator, per band
  int row_shift = 0;      // each row's numerator sum is rounded by this
  std::int64_t row_add = 0;
  RefCubeRounding ref{};  // denominator (scales 1..3)
  int den_row_shift = 0;  // each row's denominator sum is rounded by this
  std::uint64_t den_row_add = 0;
};
SumConsts sum_consts(int scale, const ScaleGeometry& g);

// Per-scale integer sums, before the final float arithmetic (finish()).
struct ScaleSums {
  std::array<std::int64_t, 3> dlm{};   // numerator (detail loss), per band
  std::array<std::int64_t, 3> aim{};   // additive impairment, per band
  std::array<std::uint64_t, 3> den{};  // denominator, per band
};

class AdmCpu {
 public:
  // Validates the size and the options and allocates every buffer.
  // With allocate = false, only the checks and constants (what the GPU
  // twin needs: geometry, weights and finish()).
  static Expected<AdmCpu> create(const AdmParams& params, unsigned width, unsigned height,
                                 unsigned bpc, bool allocate = true);

  // Luma planes of the reference and the distorted picture, of the size and
  // depth given to create(). Does not allocate.
  void compute(const Plane& ref, const Plane& dis, AdmScores& out);

  // The scores from the per-scale sums (shared with the GPU twin).
  void finish(const std::array<ScaleSums, kScales>& sums, AdmScores& out) const;

  [[nodiscard]] const AdmParams& params() const { return params_; }
  [[nodiscard]] const CsfWeights& csf() const { return csf_; }
  [[nodiscard]] const DecoupleParams& decouple() const { return dec_; }
  [[nodiscard]] const ScaleGeometry& geometry(int scale) const { return geo_[scale]; }

 private:
  AdmCpu() = default;

  template <typename T>
  struct Window;  // band rows of one scale, see cpu.cpp

  template <typename Src>
  void run_scale0(const Plane& ref, const Plane& dis, ScaleSums& sums);
  void run_scale_n(int scale, ScaleSums& sums);

  template <typename T, typename Step>
  void sweep(int scale, Step&& transform_row, ScaleSums& sums);

  AdmParams params_;
  CsfWeights csf_;
  DecoupleParams dec_;
  unsigned width_ = 0, height_ = 0, bpc_ = 0;
  std::array<ScaleGeometry, kScales> geo_{};

  // Approximation bands feeding the next scale, for the reference and the
  // distorted: scale 0's as int16_t (it always fits: Dwt0Row::a16, half the
  // bytes to write and to read back from beyond the cache), scale 1's and 2's.
  // In one slab (core/zeroed_memory.hpp).
  ZeroedSlab bands_;
  std::int16_t *ref_a16_ = nullptr, *dis_a16_ = nullptr;
  std::int32_t *ref_a1_ = nullptr, *dis_a1_ = nullptr, *ref_a2_ = nullptr, *dis_a2_ = nullptr;
  // Vertical-pass scratch rows (index -1 .. w + 1).
  std::vector<std::int16_t> tmp16_;
  std::vector<std::int32_t> tmp32_;
  // Row storage for scale 0 (int16_t) and scales 1..3 (int32_t).
  std::vector<std::int16_t> rows16_;
  std::vector<std::int32_t> rows32_;
  // Masking-filter rows (3-row window, padded by one column each side),
  // column-sum and threshold scratch; shared by all scales.
  std::vector<std::int32_t> mask_rows_;
  std::vector<std::int32_t> col_scratch_;
  std::vector<std::int32_t> thr_;
  // Per-band division results of one row (decoupling).
  std::vector<std::int32_t> ratio_scratch_;
};

}  // namespace vqx::adm
