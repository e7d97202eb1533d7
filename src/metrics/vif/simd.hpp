// The row kernels of integer VIF (cpu.cpp), written with Highway's portable
// vectors (simd.cpp) and chosen at run time for the best target the CPU
// runs, once per call (one row). Each has a plain reference form of the
// same interface (simd_reference.cpp), the one every target is tested
// against (tests/unit/vif_simd_test.cpp); Highway's scalar target runs it.
//
// A row goes through three steps:
//   * the vertical pass of the scale's filter over the 2 * half + 1 source
//     rows about it: the means mu1, mu2 rounded to 16 bits and the second
//     moments xx, yy, xy rounded to 32 bits (as libvmaf rounds them), as
//     the 16-bit halves of kRowPlanes "row planes";
//   * (cpu.cpp) the row planes' borders mirrored;
//   * the horizontal pass, the local statistics and the log2 sums of the
//     row, added to a RowSums.
// The pyramid's downsampling (downsample_8bit, downsample_16bit) has row
// kernels of its own.
// Row planes hold each 16-bit value v as v - kBias in an int16, so that
// the targets' signed 16-bit multiply-adds (pmaddwd) take it; the filters'
// taps sum to 2^16, so a filtered sum comes back as the sum less 2^31.
#pragma once

#include <cstddef>
#include <cstdint>

#include "metrics/vif/params.hpp"

namespace vqx::vif::simd {

enum RowPlane : int { kMu1, kMu2, kXxHi, kXxLo, kYyHi, kYyLo, kXyHi, kXyLo, kRowPlanes };
inline constexpr std::int32_t kBias = 32768;

// The kernels take columns [0, n) in whole vectors (of at most 32 int16,
// AVX-512's), so rows are read and written up to round_up(n, 32) samples:
// source rows must be padded to 64 bytes (as Plane's are, and the
// pyramid's rows to kBlock samples), row planes to kBlock samples with kPad
// columns before column 0 and after the last block.
inline constexpr std::size_t kBlock = 64;
// The horizontal pass reads a whole vector before and after the columns it
// filters.
inline constexpr std::size_t kPad = 32;
static_assert(kPad > kMaxHalf);

// The integer sums of one scale (integer_vif.c's accumulators).
struct RowSums {
  std::int64_t num_log = 0;  // Q11 log2 terms of the numerator
  std::int64_t den_log = 0;  // Q11 log2 terms of the denominator
  std::int64_t num_lin = 0;  // sigma2^2 summed where sigma1^2 is below the noise
  std::int64_t den_lin = 0;  // count of those pixels
};

// The source rows of one output row of scale `scale`: rows[k] is the row
// of tap k (k = 0 .. 2 * half, mirrored at the picture's top and bottom).
struct Taps8 {
  const std::uint8_t* ref[2 * kMaxHalf + 1];
  const std::uint8_t* dis[2 * kMaxHalf + 1];
};

// The prepared planes of 16-bit source rows (prepare_16bit): x, y and the
// 32-bit products x*x, y*y, x*y as high and low halves, biased as row
// planes are; rows[p][k] is plane p of the row of tap k.
inline constexpr int kSourcePlanes = 8;
struct Taps16 {
  const std::int16_t* rows[kSourcePlanes][2 * kMaxHalf + 1];
};

// Vertical pass of scale 0's filter on 8-bit samples, columns [0, n):
// out[p] is row plane p.
void vertical_8bit(const Taps8& taps, std::size_t n, std::int16_t* const* out);

// One 16-bit source row (ref and dist) split into its kSourcePlanes planes,
// columns [0, n).
void prepare_16bit(const std::uint16_t* ref, const std::uint16_t* dis, std::size_t n,
                   std::int16_t* const* out);

// Vertical pass of scale `scale`'s filter on prepared 16-bit rows, with
// the scale's roundings (params.hpp: mean_rounding, square_rounding), for
// `rows` output rows at once (1 .. kVerticalRows): taps[r] are row r's,
// out[r * kRowPlanes + p] its row plane p. The rows of one call are filtered
// side by side, a block of columns at a time, so that each prepared row
// read from L2 for one of them is in L1 for the others (the pass is bound
// by those reads, docs/performance.md).
inline constexpr int kVerticalRows = 4;
void vertical_16bit(int scale, const Taps16* taps, int rows, std::size_t n, Rounding means,
                    Rounding squares, std::int16_t* const* out);

// Horizontal pass of scale `scale`'s filter over row planes whose borders
// are mirrored (half columns either side of [0, w)), then the statistics
// of the w pixels of the row, added to `sums`, kStatsChunk columns at a
// time. lut: log2_q11_table(); scratch: row_stats_scratch(w) samples the
// kernel may overwrite.
inline constexpr std::size_t kStatsChunk = 512;
[[nodiscard]] constexpr std::size_t row_stats_scratch(std::size_t w) {
  // The log2 table indices of the row (3 rows of uint32), then the
  // horizontal sums of a chunk (kRowPlanes rows of uint32), in samples.
  return 2 * (3 * ((w + kBlock - 1) / kBlock * kBlock) + kRowPlanes * kStatsChunk);
}
void row_stats(int scale, const std::int16_t* const* planes, unsigned w, double gain_limit,
               const std::uint16_t* lut, std::uint16_t* scratch, RowSums& sums);

// One row of the pyramid: filter `filter` (1 .. 3) applied to the scale
// below (8-bit samples for the 8-bit form, scale 0 only), then every
// second row and column. rows[k] (k = 0 .. 2 * half) are the source rows
// of the filter's vertical taps about source row 2i (mirrored); w the
// source width. The vertical sums rounded by `vertical` to 16 bits go to
// conv, biased as row planes are (columns [0, w), kPad margins either
// side, padded to kBlock; the kernel's scratch); the horizontal sums at the even
// columns, rounded by kTapBits, to out[0 .. w / 2) (written up to whole
// vectors: out padded to kBlock samples).
void downsample_8bit(const std::uint8_t* const* rows, unsigned w, Rounding vertical,
                     std::int16_t* conv, std::uint16_t* out);
void downsample_16bit(int filter, const std::uint16_t* const* rows, unsigned w, Rounding vertical,
                      std::int16_t* conv, std::uint16_t* out);

// The log2 table's entries of a row's indices, summed (the last step of
// row_stats, but on AVX-512, which computes the entries; in plain code,
// compiled once: 16-bit entries have no gather, and 32-bit gathers are
// slower than plain loads). den: the entries of n indices; num: those of
// n signal indices less those of n noise indices (n even).
[[nodiscard]] std::int32_t den_table_sum(const std::uint16_t* lut, const std::uint32_t* index,
                                         std::size_t n);
[[nodiscard]] std::int32_t num_table_sum(const std::uint16_t* lut, const std::uint32_t* signal,
                                         const std::uint32_t* noise, std::size_t n);

// The Q11 log2s of n doubles holding integers of at least 2^16, 2048 *
// log2(v) less 2048 * 15, as row_stats takes them: the whole part from the
// exponent, the fraction from lut's entry of the top 16 significant bits
// (on AVX-512 the entries are computed, not loaded). n a multiple of 16.
void log2_q11(const std::uint16_t* lut, const double* v, std::size_t n, std::int32_t* out);

// Whether the CPU has AVX512_VNNI, and so whether, where Highway grants
// AVX3 but not AVX3_DL, the kernels run AVX3 with vpdpwssd
// (simd_avx3_vnni.cpp; on by default). Tests turn it off to run plain
// AVX3 too.
[[nodiscard]] bool avx3_vnni_available();
void set_avx3_vnni_enabled(bool on);

// The plain forms of the same kernels, which every target must match.
namespace reference {
void vertical_8bit(const Taps8& taps, std::size_t n, std::int16_t* const* out);
void prepare_16bit(const std::uint16_t* ref, const std::uint16_t* dis, std::size_t n,
                   std::int16_t* const* out);
void vertical_16bit(int scale, const Taps16* taps, int rows, std::size_t n, Rounding means,
                    Rounding squares, std::int16_t* const* out);
void row_stats(int scale, const std::int16_t* const* planes, unsigned w, double gain_limit,
               const std::uint16_t* lut, RowSums& sums);  // needs no scratch
void downsample_8bit(const std::uint8_t* const* rows, unsigned w, Rounding vertical,
                     std::int16_t* conv, std::uint16_t* out);
void downsample_16bit(int filter, const std::uint16_t* const* rows, unsigned w, Rounding vertical,
                      std::int16_t* conv, std::uint16_t* out);
void log2_q11(const std::uint16_t* lut, const double* v, std::size_t n, std::int32_t* out);
}  // namespace reference

}  // namespace vqx::vif::simd
