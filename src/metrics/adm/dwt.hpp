// One level of ADM's integer 2-D Daubechies-2 wavelet transform, produced one
// output row at a time. Output row i filters input rows 2i-1 .. 2i+2 and
// output column j input columns 2j-1 .. 2j+2, with libvmaf's boundary rule:
// index -1 reads 1, index n reads n-1 and n+1 reads n-2
// (reflect101_repeat_end, core/index_math.hpp).
//
// Band naming follows libvmaf: a = low/low, v = vertical low-pass then
// horizontal high-pass, h = vertical high-pass then horizontal low-pass,
// d = high/high.
#pragma once

#include <cstdint>

namespace vqx::adm {

// Scratch rows for the vertical pass: `w + 2` elements usable from index -1.
// Scale 0 keeps them as int16_t, the deeper scales as int32_t.
template <typename T>
struct DwtScratch {
  T* lo;
  T* hi;
};

// Scale 0 outputs: the approximation band widened to int32_t (the next
// scale's input) and the three detail bands. v, h and d may all be null
// when only the approximation is wanted (adm_skip_scale0). Where a16 is set,
// the approximation band goes there as int16_t instead, and `a` is not
// written: it always fits (at most 54822 * 2^15 / 2^16 = 27411 in
// magnitude), and half the bytes written and read back a scale later.
struct Dwt0Row {
  std::int32_t* a;
  std::int16_t* v;
  std::int16_t* h;
  std::int16_t* d;
  std::int16_t* a16 = nullptr;
};

// Scales 1..3. `a` may be null when nobody reads it (the last scale).
struct DwtNRow {
  std::int32_t* a;
  std::int32_t* v;
  std::int32_t* h;
  std::int32_t* d;
};

// Scale 0 from picture samples (uint8_t or uint16_t, `bpc` bits). `rows` are
// the four input rows after the boundary rule, `w` the input width.
// Explicit SIMD (dwt_simd.cpp, Highway, chosen at run time per row); the
// same bits as the reference forms below.
void dwt_scale0_row(const std::uint8_t* const rows[4], int w, int bpc, DwtScratch<std::int16_t> tmp,
                    const Dwt0Row& out);
void dwt_scale0_row(const std::uint16_t* const rows[4], int w, int bpc,
                    DwtScratch<std::int16_t> tmp, const Dwt0Row& out);

// Scales 1..3 from the previous scale's approximation band.
void dwt_scale_n_row(const std::int32_t* const rows[4], int w, int scale,
                     DwtScratch<std::int32_t> tmp, const DwtNRow& out);
// Scale 1 from scale 0's approximation band kept as int16_t (Dwt0Row::a16):
// the same as dwt_scale_n_row(rows widened to int32_t, w, 1, ...).
void dwt_scale1_row(const std::int16_t* const rows[4], int w, DwtScratch<std::int32_t> tmp,
                    const DwtNRow& out);

// The plain loops (dwt.cpp): the scalar reference every SIMD target is
// tested against, and what runs where a row is narrower than a vector.
namespace reference {
void dwt_scale0_row(const std::uint8_t* const rows[4], int w, int bpc, DwtScratch<std::int16_t> tmp,
                    const Dwt0Row& out);
void dwt_scale0_row(const std::uint16_t* const rows[4], int w, int bpc,
                    DwtScratch<std::int16_t> tmp, const Dwt0Row& out);
void dwt_scale_n_row(const std::int32_t* const rows[4], int w, int scale,
                     DwtScratch<std::int32_t> tmp, const DwtNRow& out);
void dwt_scale1_row(const std::int16_t* const rows[4], int w, DwtScratch<std::int32_t> tmp,
                    const DwtNRow& out);
}  // namespace reference

}  // namespace vqx::adm
