// ciede on the GPU, bit for bit the CPU twin (cpu.cpp): each pixel's colour
// difference (gpu_kernels.cuh), their sum as libvmaf's double chain
// (gpu/chain_sums.cuh: the chain's exact result), read back; the host
// writes the score with the CPU's own function (pointwise.hpp's score_of).
// docs/gpu.md, "The ciede twin", says why every step gives the CPU's bits.
#include <array>
#include <cstdint>
#include <memory>
#include <vector>

#include "core/index_math.hpp"
#include "gpu/chain_sums.cuh"
#include "gpu/runtime.hpp"
#include "metrics/ciede/color.hpp"
#include "metrics/ciede/cpu.hpp"
#include "metrics/ciede/gpu.hpp"
#include "metrics/ciede/gpu_kernels.cuh"
#include "metrics/ciede/pointwise.hpp"

namespace vqx::ciede {

namespace {

class CiedeTwin final : public gpu::Twin {
 public:
  // Latency-bound also at 4K: its chain sums are walked by one thread per chain: 4K 809 -> 859 fps
  // side by side (docs/gpu.md).
  [[nodiscard]] bool overlaps_large_frames() const override { return true; }

  [[nodiscard]] unsigned planes_needed(const PictureFormat& fmt) const override {
    return fmt.plane_count();
  }

  // 8-bit pictures: every colour's Lab value, built on the device once per
  // context (192 MiB; left out where the device lacks the memory).
  std::vector<gpu::ConstantTable> constant_tables(const PictureFormat& fmt) override {
    if (fmt.bpc != 8) return {};
    return {{kLabTableName, nullptr, std::size_t{kLabTableEntries} * sizeof(Lab), &build_table}};
  }

  Status init(const PictureFormat& fmt, unsigned slots, const gpu::Resources& res) override {
    VQX_RETURN_IF_ERROR(check_format(fmt));
    fmt_ = fmt;
    if (fmt.bpc == 8) {
      auto table = res.constant(kLabTableName);
      table_ = table.ok() ? static_cast<const Lab*>(table.value()) : nullptr;
    }
    scale_ = yuv_scale(fmt.bpc);
    layout_ = {fmt.chroma, fmt.width, fmt.height, fmt.plane_width(1), fmt.plane_height(1)};
    const std::array<std::size_t, 1> lengths = {std::size_t{fmt.width} * fmt.height};
    VQX_RETURN_IF_ERROR(sums_.allocate(lengths, "ciede"));
    VQX_ASSIGN_OR_RETURN(results_, gpu::PinnedBuffer<double>::allocate(slots));
    return Status::Ok();
  }

  // No accumulator: the terms and every buffer of the sums are written in
  // full every frame before they are read.
  Status clear(const gpu::Stream& /*s*/) override { return Status::Ok(); }

  Status launch(const gpu::DeviceFrame& f, unsigned /*index*/, unsigned slot,
                const gpu::Stream& s) override {
    if (fmt_.bpc == 8) {
      VQX_RETURN_IF_ERROR(differences_of<std::uint8_t>(f, s));
    } else {
      VQX_RETURN_IF_ERROR(differences_of<std::uint16_t>(f, s));
    }
    VQX_RETURN_IF_ERROR(sums_.launch(s));
    return gpu::copy_to_host_async(&results_[slot], sums_.sums().get(), sizeof(double), s);
  }

  Status collect(unsigned slot, unsigned index, FeatureWriter& out) override {
    out.write(0, index, score_of(results_[slot], fmt_.width * fmt_.height));
    return Status::Ok();
  }

 private:
  static constexpr const char* kLabTableName = "ciede: Lab of every 8-bit colour";

  static Status build_table(void* device, const gpu::Stream& s) {
    lab_table_kernel<<<dim3(kValues8, kValues8), kValues8, 0, s.handle()>>>(
        yuv_scale(8), static_cast<Lab*>(device));
    return gpu::check_launch("ciede lab_table_kernel");
  }

  template <typename Sample>
  static YuvPlanes<Sample> planes(const std::array<gpu::DevicePlane, 3>& p) {
    YuvPlanes<Sample> v{};
    for (int k = 0; k < 3; ++k) {
      v.data[k] = static_cast<const std::uint8_t*>(p[k].data);
      v.pitch[k] = p[k].pitch;
    }
    return v;
  }

  template <typename Sample>
  Status differences_of(const gpu::DeviceFrame& f, const gpu::Stream& s) {
    const dim3 grid(ceil_div(fmt_.width, kPixelsX), ceil_div(fmt_.height, kPixelsY));
    differences_kernel<Sample><<<grid, dim3(kPixelsX, kPixelsY), 0, s.handle()>>>(
        planes<Sample>(f.ref), planes<Sample>(f.dist), layout_, scale_, table_, sums_.terms(0));
    return gpu::check_launch("ciede differences_kernel");
  }

  PictureFormat fmt_;
  YuvScale scale_{};
  Layout layout_{};
  const Lab* table_ = nullptr;  // 8-bit pictures: lab_table_kernel's, if the device had room
  chain::ChainSums<double> sums_;
  gpu::PinnedBuffer<double> results_;  // per result slot: the frame's sum
};

}  // namespace

std::unique_ptr<gpu::Twin> make_twin() { return std::make_unique<CiedeTwin>(); }

}  // namespace vqx::ciede
