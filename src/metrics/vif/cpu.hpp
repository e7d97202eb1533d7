// The integer VIF kernel on the CPU: for one frame pair it returns, for each
// of the four scales, the numerator and denominator that libvmaf's integer
// VIF computes (libvmaf src/feature/integer_vif.c), bit for bit.
//
// Outline, per scale s (scale 0 is the luma plane itself):
//   * moments: filter s (separable, vertical then horizontal, mirrored
//     borders) gives local means mu1, mu2 and second moments of ref and dist;
//     from them sigma1^2, sigma2^2 and sigma12 in fixed point;
//   * sums: each pixel adds log2 terms (Q11, from a 16-bit log2 table) or a
//     linear term for flat areas; the frame sums become num and den;
//   * pyramid: filter s + 1 on scale s, keeping every second row and column,
//     gives scale s + 1 as 16-bit samples.
// compute() runs the moments and sums row by row through the Highway
// kernels of simd.hpp; compute_reference() keeps the plain loops.
// All buffers are sized by init(); neither allocates anything.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <memory>

#include "metrics/vif/params.hpp"
#include "vqx/picture.hpp"
#include "vqx/status.hpp"

namespace vqx::vif {

// One scale's result, in float as libvmaf keeps it.
struct ScaleSums {
  float num = 0.0f;
  float den = 0.0f;
};
using FrameSums = std::array<ScaleSums, kScaleCount>;

struct KernelParams {
  double gain_limit = kDefaultGainLimit;  // vif_enhn_gain_limit, >= 1
  bool skip_scale0 = false;               // vif_skip_scale0: scale 0 left at 0/0
};

// The family's parameters: the kernel's, and whether the debug outputs are
// written.
struct Config {
  KernelParams kernel;
  bool debug = false;
};

struct Workspace;  // the preallocated buffers, defined in cpu.cpp

// Whether VIF takes luma planes of width x height at bpc bits (sides of at
// least kMinSide, kMinBpc to kMaxBpc bits), with the error both twins give.
[[nodiscard]] Status check_format(unsigned width, unsigned height, unsigned bpc);

class CpuKernel {
 public:
  CpuKernel();
  ~CpuKernel();
  CpuKernel(CpuKernel&&) noexcept;
  CpuKernel& operator=(CpuKernel&&) noexcept;
  CpuKernel(const CpuKernel&) = delete;
  CpuKernel& operator=(const CpuKernel&) = delete;

  // Sizes every buffer for luma planes of width x height at bpc bits.
  // Fails where check_format() does.
  Status init(unsigned width, unsigned height, unsigned bpc);

  // Whether `p` is a plane compute() can take: the size and depth given to
  // init(), rows padded to whole blocks of 16 samples (as Plane pads them).
  [[nodiscard]] Status check(const Plane& p) const;

  // ref and dist are luma planes that passed check(). Runs the row
  // kernels of simd.hpp, for the best Highway target the CPU has.
  void compute(const Plane& ref, const Plane& dist, const KernelParams& params, FrameSums& out);

  // The same sums from the plain loops of cpu.cpp, compiled for the
  // targets of VQX_CLONES: the form compute() is tested against.
  void compute_reference(const Plane& ref, const Plane& dist, const KernelParams& params,
                         FrameSums& out);

 private:
  unsigned width_ = 0;
  unsigned height_ = 0;
  unsigned bpc_ = 8;
  std::unique_ptr<Workspace> ws_;
};

// The Q11 log2 table of libvmaf (log_generate() in integer_vif.c): entry i,
// for 32767 <= i <= 65535, is round(2048 * log2f(i)); the others are 0.
const std::array<std::uint16_t, 65536>& log2_q11_table();

}  // namespace vqx::vif
