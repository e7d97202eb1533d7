#include "metrics/psnr_hvs/cpu.hpp"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdlib>
#include <cstring>

// The block loops run over kLanes blocks side by side, which the compiler
// vectorises, cloned for AVX2 and AVX-512 (core/kernel_build.hpp).
#include "core/kernel_build.hpp"
// Loops over the lanes are kept as loops until the vectoriser turns each into
// whole vectors: unrolled first, they are left to the SLP vectoriser, which
// handles these bodies badly.
#if defined(__clang__)
#define VQX_HVS_LANE_LOOP _Pragma("clang loop unroll(disable)")
#elif defined(__GNUC__)
#define VQX_HVS_LANE_LOOP _Pragma("GCC unroll 1")
#else
#define VQX_HVS_LANE_LOOP
#endif

#include "metrics/psnr_hvs/dct.hpp"

namespace vqx::psnr_hvs {

// Everything one chunk of kLanes blocks needs, [coefficient][lane].
struct Scratch {
  alignas(64) LaneRow ref[kBlockArea];
  alignas(64) LaneRow dist[kBlockArea];
  alignas(64) LaneRow tmp[kBlockArea];
  alignas(64) float terms[kBlockArea][kLanes];
};

void ScratchDeleter::operator()(Scratch* s) const { delete s; }

ScratchPtr make_scratch() { return ScratchPtr(new Scratch); }

Weights make_weights(const Table& csf) {
  Weights w{};
  for (int i = 0; i < kBlock; ++i) {
    for (int j = 0; j < kBlock; ++j) {
      const double scaled = static_cast<double>(csf[i][j]) * kMaskScale;
      w.csf[i * kBlock + j] = csf[i][j];
      w.mask[i * kBlock + j] = static_cast<float>(scaled * scaled);
    }
  }
  return w;
}

namespace {

using LaneFloats = float[kLanes];

// Copies the 8x8 blocks whose left columns are x[lane], rows y..y+7. Each
// block row (8 samples, 64 or 128 bits) is read as whole 64-bit words, and
// the samples are then taken out of all the lanes' words at once, which
// the compiler vectorises (a lane-by-lane copy is a slow gather).
template <typename Sample>
VQX_FORCE_INLINE void gather(const PlaneView<Sample>& v, unsigned y, const int* x, LaneRow* out) {
  static_assert(std::endian::native == std::endian::little, "samples are unpacked from words");
  constexpr int kPerWord = 8 / static_cast<int>(sizeof(Sample));
  constexpr int kWords = kBlock / kPerWord;
  constexpr int kBits = 8 * static_cast<int>(sizeof(Sample));
  constexpr std::uint64_t kSampleMask = (std::uint64_t{1} << kBits) - 1;
  for (int i = 0; i < kBlock; ++i) {
    const Sample* row = v.data + static_cast<std::ptrdiff_t>(y + i) * v.stride;
    for (int w = 0; w < kWords; ++w) {
      std::uint64_t words[kLanes];
      for (int b = 0; b < kLanes; ++b) {
        std::memcpy(&words[b], row + x[b] + w * kPerWord, sizeof(std::uint64_t));
      }
      for (int j = 0; j < kPerWord; ++j) {
        LaneRow& dst = out[i * kBlock + w * kPerWord + j];
        for (int b = 0; b < kLanes; ++b) {
          dst[b] = static_cast<std::int32_t>((words[b] >> (j * kBits)) & kSampleMask);
        }
      }
    }
  }
}

// How much of each block's variance lies within its quadrants: the sum of
// the four 4x4 quadrant variances over the block variance (left at 0 for a
// flat block). Float arithmetic in libvmaf's order (each sum in raster
// order); the means are exact because the integer sums fit a float's
// mantissa. The same operations as pointwise.hpp's variance_ratio (the GPU
// twin's, one block at a time), here for kLanes blocks at once, with
// pointwise.hpp's deviation and ratio_of. Quadrants are numbered as libvmaf does: ((i & 12) >> 2) +
// ((j & 12) >> 1) for row i, column j.
VQX_FORCE_INLINE void variance_ratio(const LaneRow* blk, LaneFloats& ratio) {
  std::int32_t sum[kLanes] = {};
  for (int k = 0; k < kBlockArea; ++k) {
    VQX_HVS_LANE_LOOP
    for (int b = 0; b < kLanes; ++b) {
      sum[b] += blk[k][b];
    }
  }
  float var[kLanes] = {};
  for (int k = 0; k < kBlockArea; ++k) {
    VQX_HVS_LANE_LOOP
    for (int b = 0; b < kLanes; ++b) {
      const float d = deviation(blk[k][b], sum[b], kBlockCount);
      var[b] += d * d;
    }
  }
  float quadrant_var[4][kLanes];
  for (int qi = 0; qi < 2; ++qi) {
    for (int qj = 0; qj < 2; ++qj) {
      const LaneRow* q =
          blk + (std::ptrdiff_t{qi} * kQuadrant * kBlock + std::ptrdiff_t{qj} * kQuadrant);
      std::int32_t qsum[kLanes] = {};
      for (int i = 0; i < kQuadrant; ++i) {
        for (int j = 0; j < kQuadrant; ++j) {
          VQX_HVS_LANE_LOOP
          for (int b = 0; b < kLanes; ++b) {
            qsum[b] += q[i * kBlock + j][b];
          }
        }
      }
      float acc[kLanes] = {};
      for (int i = 0; i < kQuadrant; ++i) {
        for (int j = 0; j < kQuadrant; ++j) {
          VQX_HVS_LANE_LOOP
          for (int b = 0; b < kLanes; ++b) {
            const float d = deviation(q[i * kBlock + j][b], qsum[b], kQuadrantCount);
            acc[b] += d * d;
          }
        }
      }
      VQX_HVS_LANE_LOOP
      for (int b = 0; b < kLanes; ++b) {
        quadrant_var[qi + 2 * qj][b] = acc[b];
      }
    }
  }
  VQX_HVS_LANE_LOOP
  for (int b = 0; b < kLanes; ++b) {
    ratio[b] = ratio_of(var[b], quadrant_var[0][b], quadrant_var[1][b], quadrant_var[2][b],
                        quadrant_var[3][b]);
  }
}

// Each block's masking level from its DCT coefficients: sqrt(AC energy
// weighted by the mask table * variance ratio) / 32, the square root taken
// in double as libvmaf does.
VQX_FORCE_INLINE void masking_level(const LaneRow* coef, const LaneFloats& ratio, const Weights& w,
                                    LaneFloats& level) {
  float energy[kLanes] = {};
  for (int k = 1; k < kBlockArea; ++k) {
    const float m = w.mask[k];
    VQX_HVS_LANE_LOOP
    for (int b = 0; b < kLanes; ++b) {
      energy[b] += energy_term(coef[k][b], m);
    }
  }
  VQX_HVS_LANE_LOOP
  for (int b = 0; b < kLanes; ++b) {
    level[b] = level_of_root(std::sqrt(level_radicand(energy[b], ratio[b])));
  }
}

// The squared, masked, CSF-weighted coefficient differences of kLanes blocks.
VQX_FORCE_INLINE void chunk_terms(Scratch& s, const Weights& w) {
  LaneFloats ref_ratio;
  LaneFloats dist_ratio;
  variance_ratio(s.ref, ref_ratio);
  variance_ratio(s.dist, dist_ratio);
  fdct8x8_lanes(s.ref, s.tmp);
  fdct8x8_lanes(s.dist, s.tmp);
  LaneFloats ref_level;
  LaneFloats dist_level;
  masking_level(s.ref, ref_ratio, w, ref_level);
  masking_level(s.dist, dist_ratio, w, dist_level);
  LaneFloats level;
  VQX_HVS_LANE_LOOP
  for (int b = 0; b < kLanes; ++b) {
    level[b] = dist_level[b] > ref_level[b] ? dist_level[b] : ref_level[b];
  }
  // The DC coefficient is not masked.
  VQX_HVS_LANE_LOOP
  for (int b = 0; b < kLanes; ++b) {
    s.terms[0][b] = dc_term(s.ref[0][b], s.dist[0][b], w.csf[0]);
  }
  for (int k = 1; k < kBlockArea; ++k) {
    const float csf = w.csf[k];
    const float mask = w.mask[k];
    VQX_HVS_LANE_LOOP
    for (int b = 0; b < kLanes; ++b) {
      s.terms[k][b] = ac_term(s.ref[k][b], s.dist[k][b], level[b], mask, csf);
    }
  }
}

// Adds the terms of the first `count` lanes to `sum` in libvmaf's order
// (block by block, coefficients in raster order), one float addition at a
// time. Zero terms leave a float sum unchanged, so only the others are
// visited: a bit mask of them is built for every lane at once, then walked.
VQX_FORCE_INLINE float accumulate(const Scratch& s, int count, float sum) {
  std::uint64_t nonzero[kLanes] = {};
  for (int k = 0; k < kBlockArea; ++k) {
    VQX_HVS_LANE_LOOP
    for (int b = 0; b < kLanes; ++b) {
      // Terms are squares: +0 or positive.
      nonzero[b] |= static_cast<std::uint64_t>(s.terms[k][b] > 0.0f) << k;
    }
  }
  for (int b = 0; b < count; ++b) {
    for (std::uint64_t m = nonzero[b]; m != 0; m &= m - 1) {
      sum += s.terms[std::countr_zero(m)][b];
    }
  }
  return sum;
}

template <typename Sample>
VQX_FORCE_INLINE float plane_error_impl(const PlaneView<Sample>& ref, const PlaneView<Sample>& dist,
                                        unsigned bpc, const Weights& w, Scratch& s) {
  // Block origins x, y = 0, 7, 14, ... while the block fits.
  const unsigned blocks_x = blocks_along(ref.width);
  const unsigned blocks_y = blocks_along(ref.height);
  float sum = 0.0f;
  for (unsigned by = 0; by < blocks_y; ++by) {
    const unsigned y = by * kStep;
    for (unsigned first = 0; first < blocks_x; first += kLanes) {
      // Lanes past the last block repeat it; their terms are not summed.
      int x[kLanes];
      VQX_HVS_LANE_LOOP
      for (int b = 0; b < kLanes; ++b) {
        x[b] = static_cast<int>(std::min(first + static_cast<unsigned>(b), blocks_x - 1) * kStep);
      }
      gather(ref, y, x, s.ref);
      gather(dist, y, x, s.dist);
      chunk_terms(s, w);
      sum = accumulate(s, static_cast<int>(std::min<unsigned>(kLanes, blocks_x - first)), sum);
    }
  }
  return plane_error_of(sum, blocks_x * blocks_y, bpc);
}

VQX_CLONES float plane_error_8(const PlaneView<std::uint8_t>& ref,
                               const PlaneView<std::uint8_t>& dist, const Weights& w, Scratch& s) {
  return plane_error_impl(ref, dist, 8, w, s);
}

VQX_CLONES float plane_error_16(const PlaneView<std::uint16_t>& ref,
                                const PlaneView<std::uint16_t>& dist, unsigned bpc,
                                const Weights& w, Scratch& s) {
  return plane_error_impl(ref, dist, bpc, w, s);
}

}  // namespace

float plane_error(PlaneView<std::uint8_t> ref, PlaneView<std::uint8_t> dist, const Weights& weights,
                  Scratch& scratch) {
  return plane_error_8(ref, dist, weights, scratch);
}

float plane_error(PlaneView<std::uint16_t> ref, PlaneView<std::uint16_t> dist, unsigned bpc,
                  const Weights& weights, Scratch& scratch) {
  return plane_error_16(ref, dist, bpc, weights, scratch);
}

}  // namespace vqx::psnr_hvs
