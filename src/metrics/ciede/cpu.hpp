// CIEDE2000 of one frame on the CPU: chroma brought to luma resolution the
// way libvmaf does it, every pixel's colour difference summed in raster
// order, the sum pooled into the frame score.
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "metrics/ciede/batch.hpp"
#include "metrics/ciede/caches.hpp"
#include "metrics/ciede/color.hpp"
#include "metrics/ciede/lab_batch.hpp"
#include "vqx/picture.hpp"
#include "vqx/status.hpp"

namespace vqx::ciede {

// The pictures ciede refuses (4:0:0; what validate() refuses), with both
// twins' messages.
Status check_format(const PictureFormat& fmt);

class FrameKernel {
 public:
  // Allocates the buffers and caches for pictures of `fmt` (3 planes, 8..16
  // bit).
  Status init(const PictureFormat& fmt);
  // The frame score 45 - 20 log10(mean colour difference); +inf when the
  // pictures are identical. Allocates nothing.
  [[nodiscard]] double score(const Picture& ref, const Picture& dist);

 private:
  template <typename Sample, typename Labs>
  double difference_sum(const Picture& ref, const Picture& dist, Labs& labs);
  template <typename Sample>
  void chroma_row(const Plane& plane, unsigned y, std::uint16_t* out) const;
  // Computes the differences of the pairs pending_[first, last) names,
  // stores them in the row's differences and the pair cache.
  template <typename Labs>
  void compute_pending(unsigned first, unsigned last, Labs& labs);

  // An unequal pixel pair of the current row: its colours' keys and its
  // pair cache slot.
  struct PixelPair {
    std::uint64_t ref_key;
    std::uint64_t dist_key;
    std::size_t slot;  // in the pair cache
  };

  PictureFormat fmt_;
  YuvScale scale_{};
  // Chroma at luma resolution for the current row: ref U, ref V, dist U, dist V.
  std::vector<std::uint16_t> rows_;
  // The colour differences of the current row's unequal pixels, in order.
  std::vector<float> differences_;
  // The current row's unequal pixels, and the indices among them of those
  // not in the pair cache.
  std::vector<PixelPair> unequal_;
  std::vector<unsigned> pending_;
  std::unique_ptr<PairBatch> batch_;
  std::unique_ptr<LabBatch> lab_batch_;
  // The colour cache: the narrow form for samples of up to 15 bits, else
  // the wide one (caches.hpp); only the one in use is allocated.
  LabCache<true> narrow_labs_;
  LabCache<false> wide_labs_;
  PairCache pairs_;
};

}  // namespace vqx::ciede
