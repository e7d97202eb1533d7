// Decoupling of the distorted detail bands into the part that restores the
// reference (r = clamp(t/o, 0, 1) * o, i.e. detail that survived) and the
// additive impairment (a = t - r), with libvmaf's fixed-point division and
// its "enhancement" rule for nearly parallel (h, v) vectors.
#pragma once

#include <cstdint>

namespace vqx::adm {

// The three detail bands of one row (h, v, d).
template <typename T>
struct DetailRow {
  const T* h;
  const T* v;
  const T* d;
};

template <typename T>
struct DetailOut {
  T* h;
  T* v;
  T* d;
};

struct DecoupleParams {
  double enhn_gain_limit;  // adm_enhn_gain_limit
  float cos_1deg_sq;       // cos(1 degree)^2, rounded to float
};

DecoupleParams make_decouple_params(double enhn_gain_limit);

// Columns [begin, end) of one band row. Scale 0 works on int16_t bands,
// scales 1..3 on int32_t bands (whose division first rounds denominators of
// 2^15 and more to 15 significant bits). `scratch` holds 3 * end int32_t.
// Explicit SIMD (decouple_simd.cpp, Highway, chosen at run time per row);
// the same bits as the reference forms below.
void decouple_row(DetailRow<std::int16_t> ref, DetailRow<std::int16_t> dis, int begin, int end,
                  const DecoupleParams& p, std::int32_t* scratch, DetailOut<std::int16_t> restored,
                  DetailOut<std::int16_t> additive);
void decouple_row(DetailRow<std::int32_t> ref, DetailRow<std::int32_t> dis, int begin, int end,
                  const DecoupleParams& p, std::int32_t* scratch, DetailOut<std::int32_t> restored,
                  DetailOut<std::int32_t> additive);

// The plain loops (decouple.cpp): the scalar reference every SIMD target is
// tested against, and what the SIMD kernels run for a row's last columns.
namespace reference {
void decouple_row(DetailRow<std::int16_t> ref, DetailRow<std::int16_t> dis, int begin, int end,
                  const DecoupleParams& p, std::int32_t* scratch, DetailOut<std::int16_t> restored,
                  DetailOut<std::int16_t> additive);
void decouple_row(DetailRow<std::int32_t> ref, DetailRow<std::int32_t> dis, int begin, int end,
                  const DecoupleParams& p, std::int32_t* scratch, DetailOut<std::int32_t> restored,
                  DetailOut<std::int32_t> additive);
// The parallel test of one pixel at scales 1..3 (|angle| < 1 degree between
// (oh, ov) and (th, tv)), which the SIMD kernel leaves to scalar code: its
// int64 dot products are rounded to float, which AVX2 cannot vectorise.
bool within_one_degree_n(std::int32_t oh, std::int32_t ov, std::int32_t th, std::int32_t tv,
                         double cos_sq);
}  // namespace reference

}  // namespace vqx::adm
