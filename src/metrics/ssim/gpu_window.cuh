// SSIM's window on the device, for both twins: window.cpp's arithmetic, in
// two kernels per picture pair.
//
//  * window_rows_kernel: one thread per input row and window column; the
//    11-tap horizontal filter of the five quantities (x, y, x*x, y*y, x*y),
//    each product tap * value rounded to float and added in double in tap
//    order from 0.0, the sum rounded to float (pointwise.hpp), into five
//    float maps: the CPU's horizontally filtered rows, bit for bit.
//  * window_terms_kernel: one block per row of window positions; each
//    thread filters its column of the five maps vertically (the same way),
//    then computes moments(), the float root and terms() (pointwise.hpp),
//    and the block sums the row's terms in the fixed order of params.hpp:
//    runs of kSumSegment positions (one thread per run and term, in order
//    from 0.0), the runs of each group of kSumGroup positions (one thread
//    per term, in order from 0.0), the groups (the same thread, in order
//    from 0.0). Exactly pointwise.hpp's row_sum(), which the CPU twin
//    calls. The row's four sums go to `row_sums`; the host adds the rows
//    in order (add_rows below), as the CPU does.
// No atomics: every sum has one fixed order, whatever the block scheduling.
#pragma once

#include <string>

#include "core/index_math.hpp"
#include "gpu/runtime.hpp"
#include "metrics/ssim/geometry.hpp"
#include "metrics/ssim/gpu_images.cuh"
#include "metrics/ssim/means.hpp"
#include "metrics/ssim/params.hpp"
#include "metrics/ssim/pointwise.hpp"

namespace vqx::ssim {

// The Gaussian's taps, passed to the kernels by value.
struct WindowTaps {
  float tap[kWindow];
};

inline WindowTaps window_taps() {
  WindowTaps t{};
  for (int i = 0; i < kWindow; ++i) t.tap[i] = kGaussian[static_cast<std::size_t>(i)];
  return t;
}

// The five horizontally filtered quantities, map k at maps + k * map_floats.
enum WindowMap { kMapRef, kMapCmp, kMapRefSq, kMapCmpSq, kMapCross, kWindowMaps };
struct MapsView {
  float* maps;
  std::size_t pitch;       // floats per row
  std::size_t map_floats;  // floats per map
};

// A row of window positions per block, one position per thread: a block is
// one group of the summation order.
inline constexpr unsigned kWindowThreads = kSumGroup;
inline constexpr int kSegments = kSumGroup / kSumSegment;  // runs per group
// Terms in shared memory, each run padded by one value so that the threads
// adding different runs read different banks.
inline constexpr int kPaddedGroup = kSumGroup + kSegments;
__device__ inline int padded(int i) { return i + i / kSumSegment; }

// The float root of a variances' product. IEEE square root, correctly
// rounded: CUDA's sqrtf with --prec-sqrt=true, HIP's with
// -fhip-fp32-correctly-rounded-divide-sqrt (cmake/Gpu.cmake). The CPU's
// _mm_sqrt_ps and std::sqrt(float) are correctly rounded too: equal bits.
__device__ inline float root(float v) { return sqrtf(v); }

template <typename Source>
__global__ void __launch_bounds__(kWindowThreads)
    window_rows_kernel(Source ref, Source cmp, WindowTaps taps, int positions, MapsView out) {
  __shared__ float s_ref[kSumGroup + kWindow - 1];
  __shared__ float s_cmp[kSumGroup + kWindow - 1];
  const int t = static_cast<int>(threadIdx.x);
  const int x0 = static_cast<int>(blockIdx.x) * kSumGroup;
  const int y = static_cast<int>(blockIdx.y);
  const int width = positions + kWindow - 1;
  for (int i = t; i < kSumGroup + kWindow - 1; i += kSumGroup) {
    if (x0 + i < width) {
      s_ref[i] = ref.at(x0 + i, y);
      s_cmp[i] = cmp.at(x0 + i, y);
    }
  }
  __syncthreads();
  const int x = x0 + t;
  if (x >= positions) return;
  double sum[kWindowMaps] = {0.0, 0.0, 0.0, 0.0, 0.0};
  for (int k = 0; k < kWindow; ++k) {
    const float a = s_ref[t + k];
    const float b = s_cmp[t + k];
    const float g = taps.tap[k];
    sum[kMapRef] += tap_term(a, g);
    sum[kMapCmp] += tap_term(b, g);
    sum[kMapRefSq] += tap_term(square(a), g);
    sum[kMapCmpSq] += tap_term(square(b), g);
    sum[kMapCross] += tap_term(product(a, b), g);
  }
  const std::size_t o = out.pitch * static_cast<std::size_t>(y) + static_cast<std::size_t>(x);
  for (int m = 0; m < kWindowMaps; ++m) {
    out.maps[out.map_floats * static_cast<std::size_t>(m) + o] = static_cast<float>(sum[m]);
  }
}

__global__ void __launch_bounds__(kWindowThreads)
    window_terms_kernel(MapsView in, WindowTaps taps, int positions, double* row_sums) {
  __shared__ double s_terms[kTerms][kPaddedGroup];
  __shared__ double s_runs[kTerms][kSegments];
  const int t = static_cast<int>(threadIdx.x);
  const int y = static_cast<int>(blockIdx.x);
  double row = 0.0;  // threads 0 .. kTerms - 1: term t's sum over the row
  for (int x0 = 0; x0 < positions; x0 += kSumGroup) {
    const int x = x0 + t;
    if (x < positions) {
      float f[kWindowMaps];
      for (int m = 0; m < kWindowMaps; ++m) {
        const float* col = in.maps + in.map_floats * static_cast<std::size_t>(m) +
                           in.pitch * static_cast<std::size_t>(y) + static_cast<std::size_t>(x);
        double sum = 0.0;
        for (int k = 0; k < kWindow; ++k) {
          sum += tap_term(col[in.pitch * static_cast<std::size_t>(k)], taps.tap[k]);
        }
        f[m] = static_cast<float>(sum);
      }
      const Moments mo = moments(f[kMapRef], f[kMapCmp], f[kMapRefSq], f[kMapCmpSq], f[kMapCross]);
      const Terms te = terms(f[kMapRef], f[kMapCmp], mo.var1, mo.var2, mo.cov, root(mo.product));
      s_terms[kTermSsim][padded(t)] = te.ssim;
      s_terms[kTermL][padded(t)] = te.l;
      s_terms[kTermC][padded(t)] = te.c;
      s_terms[kTermS][padded(t)] = te.s;
    }
    __syncthreads();
    // The group's positions: x0 .. x0 + n - 1.
    const int n = positions - x0 < kSumGroup ? positions - x0 : kSumGroup;
    if (t < kTerms * kSegments) {
      const int term = t / kSegments;
      const int first = (t % kSegments) * kSumSegment;
      if (first < n) {
        const int end = n < first + kSumSegment ? n : first + kSumSegment;
        double run = 0.0;
        for (int i = first; i < end; ++i) run += s_terms[term][padded(i)];
        s_runs[term][t % kSegments] = run;
      }
    }
    __syncthreads();
    if (t < kTerms) {
      const int runs = ceil_div(n, kSumSegment);
      double group = 0.0;
      for (int r = 0; r < runs; ++r) group += s_runs[t][r];
      row += group;
    }
    // No third barrier: the next group's writes of s_terms come after every
    // read of this group's (the barrier above), and its writes of s_runs
    // after the next group's first barrier, which threads 0 .. kTerms - 1
    // reach only once they have read this group's.
  }
  if (t < kTerms)
    row_sums[static_cast<std::size_t>(y) * kTerms + static_cast<std::size_t>(t)] = row;
}

// The device side of the window for one twin: the five maps, sized for the
// largest picture it filters (reused by every scale: the kernels of one
// stream run in order), and the sums of every row of positions of every
// scale it computes, kTerms per row, which the twin copies back.
class GpuWindow {
 public:
  // `largest`: the largest picture the window sees; `rows`: the rows of
  // positions of all its pictures together. `family` names launches.
  Status allocate(Size largest, int rows, const std::string& family) {
    rows_name_ = family + " window_rows_kernel";
    terms_name_ = family + " window_terms_kernel";
    taps_ = window_taps();
    const auto positions = static_cast<std::size_t>(window_positions(largest.width));
    pitch_ = round_up(positions, DeviceImage::kPitchFloats);
    map_floats_ = pitch_ * static_cast<std::size_t>(largest.height);
    VQX_ASSIGN_OR_RETURN(maps_, gpu::DeviceBuffer<float>::allocate(map_floats_ * kWindowMaps));
    VQX_ASSIGN_OR_RETURN(
        row_sums_, gpu::DeviceBuffer<double>::allocate(static_cast<std::size_t>(rows) * kTerms));
    return Status::Ok();
  }

  // Queues the window over `ref` and `cmp` (size.width x size.height); its
  // row sums go to rows first_row, first_row + 1, ... of row_sums().
  template <typename Source>
  Status launch(const Source& ref, const Source& cmp, Size size, int first_row,
                const gpu::Stream& s) const {
    const int positions = window_positions(size.width);
    const MapsView maps{maps_.get(), pitch_, map_floats_};
    const dim3 rows_grid(ceil_div(static_cast<unsigned>(positions), kWindowThreads),
                         static_cast<unsigned>(size.height));
    window_rows_kernel<Source>
        <<<rows_grid, kWindowThreads, 0, s.handle()>>>(ref, cmp, taps_, positions, maps);
    VQX_RETURN_IF_ERROR(gpu::check_launch(rows_name_.c_str()));
    double* sums = row_sums_.get() + static_cast<std::size_t>(first_row) * kTerms;
    window_terms_kernel<<<static_cast<unsigned>(window_positions(size.height)), kWindowThreads, 0,
                          s.handle()>>>(maps, taps_, positions, sums);
    return gpu::check_launch(terms_name_.c_str());
  }

  [[nodiscard]] const gpu::DeviceBuffer<double>& row_sums() const { return row_sums_; }

 private:
  WindowTaps taps_{};
  std::size_t pitch_ = 0;
  std::size_t map_floats_ = 0;
  std::string rows_name_;
  std::string terms_name_;
  gpu::DeviceBuffer<float> maps_;
  gpu::DeviceBuffer<double> row_sums_;
};

// The sums of the terms over `rows` rows of positions (kTerms per row, as
// window_terms_kernel wrote them): the rows added in order from 0.0, as
// window.cpp adds them.
inline TermSums add_rows(const double* row_sums, int rows) {
  TermSums sums{};
  for (int r = 0; r < rows; ++r) {
    for (int k = 0; k < kTerms; ++k) sums[k] += row_sums[static_cast<std::size_t>(r) * kTerms + k];
  }
  return sums;
}

}  // namespace vqx::ssim
