// Where SpEED's pictures come from: float rows produced on demand, so that
// only the rows the decimating filter needs are ever converted (and, with a
// prescale, resampled).
#pragma once

#include <cstddef>
#include <cstdint>

namespace vqx::speed {

class RowSource {
 public:
  virtual ~RowSource() = default;
  // Writes row `y` (of the source's height) as `width` floats to `out`.
  virtual void row(unsigned y, float* out) = 0;
};

// One plane of samples, `stride` in bytes.
struct PlaneRef {
  const std::uint8_t* data = nullptr;
  std::size_t stride = 0;
};

// A plane (or, with `minus`, the difference of two planes) as libvmaf's
// picture_copy() turns samples into floats: v / 2^(bpc - 8) - 128, computed
// in float; the difference is taken of those floats (speed.c,
// subtract_image()). picture_copy() divides by 4, 16 or 256 only for 10, 12
// and 16 bits (other deep depths are read there as if they were 8-bit bytes);
// here every depth from 9 to 16 bits uses its power of two.
class PlaneRows final : public RowSource {
 public:
  void init(unsigned width, unsigned bpc);
  void set(PlaneRef plane) {
    plane_ = plane;
    minus_ = {};
  }
  void set(PlaneRef plane, PlaneRef minus) {
    plane_ = plane;
    minus_ = minus;
  }
  void row(unsigned y, float* out) override;

 private:
  unsigned width_ = 0;
  bool wide_ = false;  // uint16_t samples
  float inv_scale_ = 1.0F;
  PlaneRef plane_;
  PlaneRef minus_;
};

}  // namespace vqx::speed
