// The device side of SSIM's window for one twin (gpu_kernels.cuh's
// window_rows_kernel and window_terms_kernel): the five maps, sized for the
// largest picture it filters (reused by every scale: the kernels of one
// stream run in order), and the sums of every row of positions of every
// picture it filters, kTerms per row, which the twin copies back. Both are
// written in full by the kernels before they are read: nothing to clear.
#pragma once

#include <string>

#include "core/index_math.hpp"
#include "gpu/runtime.hpp"
#include "metrics/ssim/geometry.hpp"
#include "metrics/ssim/gpu_images.cuh"
#include "metrics/ssim/gpu_kernels.cuh"

namespace vqx::ssim {

class GpuWindow {
 public:
  // `largest`: the largest picture the window sees; `rows`: the rows of
  // positions of all its pictures together. `family` names launches.
  Status allocate(Size largest, int rows, const std::string& family) {
    rows_name_ = family + " window_rows_kernel";
    terms_name_ = family + " window_terms_kernel";
    taps_ = window_taps();
    const auto positions = static_cast<std::size_t>(window_positions(largest.width));
    pitch_ = round_up(positions * kWindowMaps, DeviceImage::kPitchFloats);
    VQX_ASSIGN_OR_RETURN(maps_, gpu::DeviceBuffer<float>::allocate(
                                    pitch_ * static_cast<std::size_t>(largest.height)));
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
    const MapsView maps{maps_.get(), pitch_};
    const dim3 rows_grid(ceil_div(static_cast<unsigned>(positions), kWindowThreads),
                         static_cast<unsigned>(size.height));
    window_rows_kernel<Source>
        <<<rows_grid, kWindowThreads, 0, s.handle()>>>(ref, cmp, taps_, positions, maps);
    VQX_RETURN_IF_ERROR(gpu::check_launch(rows_name_.c_str()));
    double* sums = row_sums_.get() + static_cast<std::size_t>(first_row) * kTerms;
    window_terms_kernel<kSumGroup>
        <<<static_cast<unsigned>(window_positions(size.height)), kWindowThreads, 0, s.handle()>>>(
            maps, taps_, positions, sums);
    return gpu::check_launch(terms_name_.c_str());
  }

  [[nodiscard]] const gpu::DeviceBuffer<double>& row_sums() const { return row_sums_; }

 private:
  WindowTaps taps_{};
  std::size_t pitch_ = 0;
  std::string rows_name_;
  std::string terms_name_;
  gpu::DeviceBuffer<float> maps_;
  gpu::DeviceBuffer<double> row_sums_;
};

}  // namespace vqx::ssim
