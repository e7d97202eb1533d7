// ANSNR on the CPU: the filtered signal and noise energies of one frame.
#pragma once

#include <array>
#include <cstddef>
#include <span>
#include <vector>

#include "metrics/ansnr/params.hpp"
#include "metrics/ansnr/scores.hpp"
#include "vqx/picture.hpp"

namespace vqx::ansnr {

// Computes Energies for pictures of one size with float arithmetic whose
// every operation is one of libvmaf's ansnr_filter2d_s() and ansnr_mse_s(),
// so the results are the reference's to the bit (cpu.cpp says how). Holds
// the row buffers: the constructor allocates, compute() does not. Pictures
// must be at least kMinDimension in both directions.
class EnergyKernel {
 public:
  EnergyKernel(unsigned width, unsigned height);

  // `ref` and `dist` are the lumas, `width` x `height`, of `bpc` bits.
  Energies compute(const Plane& ref, const Plane& dist, unsigned bpc);

 private:
  // The horizontal passes of a 2-D filter whose rows repeat symmetrically
  // (row k equals row Taps - 1 - k), so Taps / 2 + 1 distinct rows: for each
  // source row, each distinct filter row applied along it. Kept for the
  // last Taps source rows, in a ring keyed by row index.
  template <std::size_t Taps>
  class PassRing {
   public:
    static constexpr std::size_t kPasses = Taps / 2 + 1;
    using Filter = std::array<std::array<float, Taps>, Taps>;

    PassRing(unsigned width, const Filter& filter);
    // Empties the ring before a new picture, whose samples are converted to
    // 8-bit units by multiplying with `inv_scale`.
    void reset(float inv_scale) {
      cached_.fill(-1);
      inv_scale_ = inv_scale;
    }
    // Filter row `k` (0 <= k < Taps) applied along source row `y` (inside
    // the picture), computed when the row is not in the ring.
    const float* pass(const Plane& plane, int y, std::size_t k);

   private:
    void compute_row(const Plane& plane, int y, float* dst);

    const Filter& filter_;
    unsigned width_;
    std::vector<float> source_;  // one converted row with mirrored borders
    std::vector<float> passes_;  // [slot][pass][x]
    std::array<int, Taps> cached_{};
    float inv_scale_ = 1.0F;
  };

  // Output rows filtered before their energies are summed together.
  static constexpr unsigned kRowsAtOnce = 4;

  // Filters output row y of both pictures into row k of the buffers below.
  void filter_row(const Plane& ref, const Plane& dist, unsigned y, unsigned k);
  // The energies of buffer rows first .. first + Rows - 1.
  template <unsigned Rows>
  void row_energies(unsigned first, std::span<Energies> out) const;

  unsigned width_;
  unsigned height_;
  PassRing<3> ref_passes_;
  PassRing<5> dis_passes_;
  std::vector<float> ref_filtered_;  // kRowsAtOnce rows
  std::vector<float> dis_filtered_;  // kRowsAtOnce rows
};

}  // namespace vqx::ansnr
