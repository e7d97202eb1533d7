#include "metrics/ciede/cpu.hpp"

#include <algorithm>
#include <cmath>
#include <memory>
#include <new>
#include <string>

#include "metrics/ciede/params.hpp"
#include "metrics/ciede/pointwise.hpp"

namespace vqx::ciede {

Status check_format(const PictureFormat& fmt) {
  VQX_RETURN_IF_ERROR(validate(fmt));
  if (fmt.chroma == ChromaFormat::k400) {
    return Error(Errc::kUnsupported,
                 "ciede: a 4:0:0 (luma-only) picture has no colour to compare; CIEDE2000 needs "
                 "4:2:0, 4:2:2 or 4:4:4");
  }
  return Status::Ok();
}

Status FrameKernel::init(const PictureFormat& fmt) {
  VQX_RETURN_IF_ERROR(check_format(fmt));
  fmt_ = fmt;
  scale_ = yuv_scale(fmt.bpc);
  try {
    rows_.assign(std::size_t{4} * fmt.width, 0);
    differences_.assign(fmt.width, 0.0f);
    unequal_.assign(fmt.width, PixelPair{});
    pending_.assign(fmt.width, 0U);
    batch_ = std::make_unique<PairBatch>();
    lab_batch_ = std::make_unique<LabBatch>();
    if (fmt.bpc <= LabCache<true>::kNarrowDepth) {
      narrow_labs_.reset();
    } else {
      wide_labs_.reset();
    }
    pairs_.reset();
  } catch (const std::bad_alloc&) {
    return Error(Errc::kLimit, "ciede: out of memory for a " + std::to_string(fmt.width) +
                                   "-sample row and the colour caches");
  }
  return Status::Ok();
}

// Chroma row `y` of the 4:4:4 picture libvmaf builds, as pointwise.hpp's
// chroma_source() addresses it.
template <typename Sample>
void FrameKernel::chroma_row(const Plane& plane, unsigned y, std::uint16_t* out) const {
  const unsigned w = fmt_.width;
  switch (fmt_.chroma) {
    case ChromaFormat::k444: {
      const Sample* src = plane.row<Sample>(y);
      for (unsigned x = 0; x < w; ++x) {
        out[x] = src[x];
      }
      break;
    }
    case ChromaFormat::k420: {
      const Sample* src = plane.row<Sample>(y / 2);
      for (unsigned x = 0; x < w; ++x) {
        out[x] = src[x / 2];
      }
      break;
    }
    case ChromaFormat::k422: {
      for (unsigned x = 0; x < w; ++x) {
        const ChromaSource s =
            chroma_source(ChromaFormat::k422, x, y, plane.width(), plane.height());
        out[x] = s.inside ? plane.row<Sample>(s.row)[s.col] : 0;
      }
      break;
    }
    case ChromaFormat::k400:
      break;
  }
}

// Each pair reserves at most two colours.
static_assert(LabBatch::kCapacity >= 2 * PairBatch::kCapacity);

template <typename Labs>
void FrameKernel::compute_pending(unsigned first, unsigned last, Labs& cache) {
  PairBatch& pairs = *batch_;
  LabBatch& labs = *lab_batch_;
  pairs.count = 0;
  labs.count = 0;
  // Pairs between a prefetch and its use: the table is in L3 or memory;
  // 24 took 8-11 % less CPU time for ciede than 8 on a Zen 4 EPYC (16 and
  // 32 alike: docs/performance.md).
  constexpr unsigned kAhead = 24;
  for (unsigned j = first; j < last; ++j) {
    if (j + kAhead < last) {
      const PixelPair& ahead = unequal_[pending_[j + kAhead]];
      cache.prefetch(ahead.ref_key);
      cache.prefetch(ahead.dist_key);
    }
    const PixelPair& p = unequal_[pending_[j]];
    const int i = pairs.count++;
    // The colours go straight into the batch's columns (known ones) or are
    // reserved in `labs` (the sources, for resolve()).
    pairs.source1[i] =
        cache.find_or_reserve(p.ref_key, labs, pairs.l1[i], pairs.a1[i], pairs.b1[i]);
    pairs.source2[i] =
        cache.find_or_reserve(p.dist_key, labs, pairs.l2[i], pairs.a2[i], pairs.b2[i]);
  }
  // After the first frames nearly every colour is known.
  if (labs.count > 0) {
    compute_labs(labs, scale_);
    cache.fill(labs);
    pairs.resolve(labs);
  }
  compute_differences(pairs);
  for (int i = 0; i < pairs.count; ++i) {
    const unsigned at = pending_[first + static_cast<unsigned>(i)];
    const PixelPair& p = unequal_[at];
    differences_[at] = pairs.difference[i];
    pairs_.store(p.slot, p.ref_key, p.dist_key, pairs.difference[i]);
  }
}

template <typename Sample, typename Labs>
double FrameKernel::difference_sum(const Picture& ref, const Picture& dist, Labs& labs) {
  const unsigned w = fmt_.width;
  std::uint16_t* ru = rows_.data();
  std::uint16_t* rv = ru + w;
  std::uint16_t* du = rv + w;
  std::uint16_t* dv = du + w;
  // Pixels between a pair cache slot's prefetch and its lookup: the table
  // (393 KB) is read in no order, so a lookup without it waits for L2 or L3
  // (docs/performance.md).
  constexpr unsigned kAhead = 16;
  double sum = 0.0;
  for (unsigned y = 0; y < fmt_.height; ++y) {
    // In 4:2:0 two luma rows share a chroma row: the odd one reuses it.
    if (fmt_.chroma != ChromaFormat::k420 || y % 2 == 0) {
      chroma_row<Sample>(ref.plane(1), y, ru);
      chroma_row<Sample>(ref.plane(2), y, rv);
      chroma_row<Sample>(dist.plane(1), y, du);
      chroma_row<Sample>(dist.plane(2), y, dv);
    }
    const Sample* ry = ref.plane(0).row<Sample>(y);
    const Sample* dy = dist.plane(0).row<Sample>(y);
    // The row's unequal pixels (equal samples give equal colours, whose
    // difference is exactly 0 and leaves the sum as it is), in order, with
    // their pair cache slots.
    unsigned n = 0;
    for (unsigned x = 0; x < w; ++x) {
      const std::uint64_t rk = pack_yuv(ry[x], ru[x], rv[x]);
      const std::uint64_t dk = pack_yuv(dy[x], du[x], dv[x]);
      unequal_[n] = PixelPair{rk, dk, PairCache::slot(rk, dk)};
      n += rk != dk ? 1U : 0U;
    }
    // Cached pairs are filled in at once, the others kept pending and
    // computed in batches. A pair not in the cache has its difference read
    // from the cache's slot all the same (compute_pending() overwrites it):
    // every pair is written, the missing ones counted, without a branch.
    unsigned pending = 0;
    for (unsigned i = 0; i < n; ++i) {
      if (i + kAhead < n) pairs_.prefetch(unequal_[i + kAhead].slot);
      const PixelPair& p = unequal_[i];
      const bool found = pairs_.find(p.slot, p.ref_key, p.dist_key, differences_[i]);
      pending_[pending] = i;
      pending += found ? 0U : 1U;
    }
    for (unsigned first = 0; first < pending; first += PairBatch::kCapacity) {
      compute_pending(first, std::min(pending, first + PairBatch::kCapacity), labs);
    }
    // libvmaf adds the float differences to a double in raster order.
    for (unsigned i = 0; i < n; ++i) {
      sum += static_cast<double>(differences_[i]);
    }
  }
  return sum;
}

double FrameKernel::score(const Picture& ref, const Picture& dist) {
  double sum = 0.0;
  if (fmt_.bpc == 8) {
    sum = difference_sum<std::uint8_t>(ref, dist, narrow_labs_);
  } else if (fmt_.bpc <= LabCache<true>::kNarrowDepth) {
    sum = difference_sum<std::uint16_t>(ref, dist, narrow_labs_);
  } else {
    sum = difference_sum<std::uint16_t>(ref, dist, wide_labs_);
  }
  return score_of(sum, fmt_.width * fmt_.height);
}

}  // namespace vqx::ciede
