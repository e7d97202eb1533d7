// The device side of the float twins' shared steps: owned float images,
// views of the uploaded planes, the resampler's tables (constant tables the
// pipeline uploads once per context) and the launches of
// float_common/gpu_kernels.cuh's kernels.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "core/index_math.hpp"
#include "gpu/runtime.hpp"
#include "gpu/twin.hpp"
#include "metrics/float_common/gpu_kernels.cuh"
#include "metrics/float_common/resample.hpp"

namespace vqx::float_common {

// The uploaded plane as the kernels read it.
template <typename Sample>
PlaneSource<Sample> plane_source(const gpu::DevicePlane& p, unsigned bpc) {
  return {static_cast<const std::uint8_t*>(p.data), p.pitch, sample_unit(bpc)};
}

// An owned float image: rows of `width` floats, `pitch` apart (a multiple
// of 64 floats, so that every row starts on a 256-byte boundary). Written
// in full by the kernel that makes it before any kernel reads it: nothing
// to clear.
class DeviceImage {
 public:
  static constexpr std::size_t kPitchFloats = 64;

  Status allocate(unsigned width, unsigned height) {
    width_ = width;
    height_ = height;
    pitch_ = round_up(std::size_t{width == 0 ? 1U : width}, kPitchFloats);
    VQX_ASSIGN_OR_RETURN(buf_,
                         gpu::DeviceBuffer<float>::allocate(pitch_ * (height == 0 ? 1U : height)));
    return Status::Ok();
  }
  [[nodiscard]] ImageSource source() const { return {buf_.get(), pitch_}; }
  [[nodiscard]] ImageTarget target() const {
    return {buf_.get(), pitch_, static_cast<int>(width_), static_cast<int>(height_)};
  }
  [[nodiscard]] float* data() const { return buf_.get(); }
  [[nodiscard]] std::size_t pitch() const { return pitch_; }
  [[nodiscard]] unsigned width() const { return width_; }
  [[nodiscard]] unsigned height() const { return height_; }

 private:
  unsigned width_ = 0;
  unsigned height_ = 0;
  std::size_t pitch_ = 0;
  gpu::DeviceBuffer<float> buf_;
};

// A resampler's axes as one constant table: the columns' indices, weights
// and fractions, then the rows', each array of 4-byte words. The table
// depends on the method and the sizes alone, and its name says them: twins
// of one context with equal ones share it.
class ResampleTable {
 public:
  // The table for `r` (kept here until the pipeline has uploaded it).
  gpu::ConstantTable table(const Resampler& r, unsigned src_w, unsigned src_h, unsigned dst_w,
                           unsigned dst_h) {
    name_ = name(r, src_w, src_h, dst_w, dst_h);
    // (Emptied by assignment: the contract check reads any call named
    // clear as a device clear.)
    bytes_ = {};
    offsets_ = {};
    for (const Resampler::Axis* a : {&r.columns(), &r.rows()}) {
      append(a->index.data(), a->index.size());
      append(a->weight.data(), a->weight.size());
      append(a->frac.data(), a->frac.size());
    }
    return {name_.c_str(), bytes_.data(), bytes_.size()};
  }

  // The axes on the device, from the uploaded table.
  Status bind(const Resampler& r, unsigned src_w, unsigned src_h, unsigned dst_w, unsigned dst_h,
              const gpu::Resources& res) {
    table(r, src_w, src_h, dst_w, dst_h);  // the offsets
    VQX_ASSIGN_OR_RETURN(const void* t, res.constant(name_.c_str()));
    const auto* base = static_cast<const std::uint8_t*>(t);
    auto at = [&](std::size_t k) { return base + offsets_[k]; };
    cols_ = {reinterpret_cast<const int*>(at(0)), reinterpret_cast<const float*>(at(1)),
             reinterpret_cast<const float*>(at(2))};
    rows_ = {reinterpret_cast<const int*>(at(3)), reinterpret_cast<const float*>(at(4)),
             reinterpret_cast<const float*>(at(5))};
    bytes_ = {};  // the host copy is no longer needed
    return Status::Ok();
  }

  [[nodiscard]] AxisView columns() const { return cols_; }
  [[nodiscard]] AxisView rows() const { return rows_; }

 private:
  static std::string name(const Resampler& r, unsigned src_w, unsigned src_h, unsigned dst_w,
                          unsigned dst_h) {
    static const char* const kMethods[] = {"nearest", "bilinear", "bicubic", "lanczos4"};
    return std::string("float resample ") + kMethods[static_cast<int>(r.method())] + " " +
           std::to_string(src_w) + "x" + std::to_string(src_h) + " to " + std::to_string(dst_w) +
           "x" + std::to_string(dst_h);
  }

  template <typename T>
  void append(const T* data, std::size_t count) {
    static_assert(sizeof(T) == 4);
    offsets_.push_back(bytes_.size());
    const std::size_t at = bytes_.size();
    bytes_.resize(at + 4 * (count == 0 ? 1 : count), 0);  // never an empty array
    if (count != 0) std::memcpy(bytes_.data() + at, data, 4 * count);
  }

  std::string name_;
  std::vector<std::uint8_t> bytes_;
  std::vector<std::size_t> offsets_;
  AxisView cols_{};
  AxisView rows_{};
};

// The launches (kernels of gpu_kernels.cuh) on stream `s`; `what` names
// the kernel in an error.

template <int Step, typename Source>
Status launch_filter(const Source& src, unsigned src_w, unsigned src_h, const FilterTaps& taps,
                     const ImageTarget& out, const gpu::Stream& s, const char* what) {
  const dim3 grid(ceil_div(static_cast<unsigned>(out.width), kFilterX),
                  ceil_div(static_cast<unsigned>(out.height), kFilterY));
  with_tap_count(taps.count, [&]<int kCount>() {
    filter_kernel<Step, Source, kCount><<<grid, dim3(kFilterX, kFilterY), 0, s.handle()>>>(
        src, static_cast<int>(src_w), static_cast<int>(src_h), taps, out);
  });
  return gpu::check_launch(what);
}

template <typename Source>
Status launch_resample(const Source& src, ScaleMethod method, const ResampleTable& table,
                       const ImageTarget& out, const gpu::Stream& s, const char* what) {
  const dim3 grid(ceil_div(static_cast<unsigned>(out.width), kResampleX),
                  ceil_div(static_cast<unsigned>(out.height), kResampleY));
  resample_kernel<Source><<<grid, dim3(kResampleX, kResampleY), 0, s.handle()>>>(
      src, method, table.columns(), table.rows(), out);
  return gpu::check_launch(what);
}

template <typename Source>
Status launch_row_abs_difference(const Source& a, const Source& b, unsigned width, unsigned height,
                                 float* row_sums, const gpu::Stream& s, const char* what) {
  const unsigned grid = ceil_div(height, static_cast<unsigned>(kSadRows));
  row_abs_difference_kernel<Source><<<grid, kSadThreads, 0, s.handle()>>>(
      a, b, static_cast<int>(width), static_cast<int>(height), row_sums);
  return gpu::check_launch(what);
}

}  // namespace vqx::float_common
