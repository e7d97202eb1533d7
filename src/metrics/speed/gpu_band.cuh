// The device side that speed_chroma's and speed_temporal's twins share
// (gpu_band.cu): for each frame, for up to four pictures, the band-pass
// picture, the sums of its covariance matrix, the QR decomposition of that
// and every block's variance estimate (gpu_kernels.cuh), read back into a
// result slot with the pivots' verdicts; then, on the host, the CPU twin's
// own code finishes each picture's fit (gsm.cpp: GsmFit::fit_solved: the
// eigenvalues and the entropies) and scores the pairs (score.cpp:
// pair_score).
//
// Buffers: the decimated and band-pass pictures, the sums, the factors, the
// verdicts and the variances on the device, each written in full by its
// kernel before any kernel reads it (so there is nothing to clear); what the
// host reads back is in one device buffer, copied with one readback into
// pinned memory, one copy per result slot. The prescale's taps are a constant table
// (rescale.cpp's axis_taps() for the columns and the rows), which the pipeline uploads before
// init().
#pragma once

#include <array>
#include <cstddef>
#include <string>
#include <vector>

#include "gpu/runtime.hpp"
#include "gpu/twin.hpp"
#include "metrics/speed/geometry.hpp"
#include "metrics/speed/gpu_kernels.cuh"
#include "metrics/speed/gsm.hpp"
#include "metrics/speed/params.hpp"

namespace vqx::speed {

// One picture of a launch: `plane`, or with `minus` the difference
// plane - minus; device rows `pitch` bytes apart.
struct PictureOnDevice {
  const void* plane = nullptr;
  std::size_t pitch = 0;
  const void* minus = nullptr;
  std::size_t minus_pitch = 0;
};

using FramePictures = std::array<PictureOnDevice, kMaxPictures>;

class GpuBand {
 public:
  // The prescale's table for pictures of geometry `g` (none without a
  // prescale): Twin::constant_tables(). The host memory stays in this
  // object.
  std::vector<gpu::ConstantTable> tables(const Geometry& g, const Params& p);

  // Allocates everything for `pictures` pictures a frame of geometry `g`,
  // samples of `bpc` bits, and `slots` result slots; `family` names the
  // launches in errors.
  Status allocate(const Geometry& g, const Params& p, unsigned bpc, unsigned pictures,
                  unsigned slots, const gpu::Resources& res, const std::string& family);

  // Queues the kernels on the frame's pictures and the readback of the
  // band-pass pictures and the sums into result slot `slot`.
  Status launch(const FramePictures& pictures, unsigned slot, const gpu::Stream& s);

  // Host, once slot `slot`'s work has finished: fits picture `k` of it.
  // False when its covariance matrix is singular (gsm.hpp).
  bool fit(unsigned slot, unsigned k, BlockStats& out);

 private:
  template <typename Sample>
  Status launch_as(const FramePictures& pictures, unsigned slot, const gpu::Stream& s);
  [[nodiscard]] bool resampled() const;
  [[nodiscard]] std::string table_name() const;

  Geometry g_;
  Params p_;
  unsigned bpc_ = 8;
  unsigned pictures_ = 0;
  std::size_t picture_floats_ = 0;  // op_w * op_h
  std::string family_;
  std::string decimate_name_;
  std::string band_name_;
  std::string stats_name_;
  std::string qr_name_;
  std::string solve_name_;
  FilterTaps antialias_{};  // taps.cpp's filters, as kernel arguments
  FilterTaps blur_{};
  // The prescale's table: its name and host bytes (tables()), then its
  // device copy (allocate()).
  std::string table_;
  std::vector<unsigned char> table_bytes_;
  const unsigned char* table_on_device_ = nullptr;
  // What the host reads back, in one buffer (one copy a frame): the sums
  // (doubles, first), the band-pass pictures, the variances, the verdicts;
  // byte offsets.
  struct Results {
    std::size_t band = 0;
    std::size_t variance = 0;
    std::size_t verdicts = 0;
    std::size_t bytes = 0;
  };
  template <typename T>
  static T* part(unsigned char* base, std::size_t offset) {
    return reinterpret_cast<T*>(base + offset);
  }

  gpu::DeviceBuffer<float> decimated_;
  gpu::DeviceBuffer<float> factors_;
  Results layout_;
  gpu::DeviceBuffer<unsigned char> results_;
  gpu::PinnedBuffer<unsigned char> readback_;  // layout_.bytes per result slot
  GsmFit gsm_;                                 // the host's finish
};

}  // namespace vqx::speed
