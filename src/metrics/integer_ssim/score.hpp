// Integer SSIM's finish, on the host: the pixels' W * ssim terms added in
// the reference's order (the CPU twin, cpu.cpp, adds each row of terms as
// it makes it; the GPU twin, gpu.cu, forms the same chain's exact result on
// the device with gpu/chain_sums.cuh), and the frame score from that sum
// (one compiled copy for both twins).
#pragma once

#include <cstddef>

namespace vqx::integer_ssim {

// `sum` + terms[0] + terms[1] + ... + terms[n - 1], one double addition
// after another, in that order: integer_ssim.c adds every pixel's term to
// one double in row-major order, and only that chain gives its bits.
[[nodiscard]] double add_in_order(double sum, const double* terms, std::size_t n);

// The frame's score from the sum of every pixel's term, in row-major order
// from 0.0: sum / sum(W) (params.hpp, weight_total).
[[nodiscard]] double frame_score(double sum, int width, int height);

}  // namespace vqx::integer_ssim
