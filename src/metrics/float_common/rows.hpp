// Read access to the rows of a float picture, for the kernels that read it
// top to bottom through a window of neighbouring rows (float_vif's filters,
// float_adm's wavelet, float_motion's blur): either a FloatImage's own rows,
// or a picture plane's rows converted to float (plane_row_to_float) when
// first asked for, into a ring of rows. A plane read this way needs no float copy
// of the whole picture, which at 3840x2160 is 33 MB a picture, per
// instance, mostly first touched (so zeroed by the kernel) once per
// instance, and read back from memory by every pass over it.
#pragma once

#include <vector>

#include "metrics/float_common/image.hpp"
#include "vqx/picture.hpp"

namespace vqx::float_common {

class FloatRows {
 public:
  // Allocates a ring of `window` rows of up to `width` floats, for
  // read_plane(). Call from init().
  void reserve(unsigned width, unsigned window);

  // From now on, the top-left width x height samples of `plane` (8-bit when
  // bpc == 8, else 16-bit of depth bpc; width at most reserve()'s). Its
  // rows are read as the kernels ask for them: the plane must outlive
  // their reading.
  void read_plane(const Plane& plane, unsigned bpc, unsigned width, unsigned height);
  // From now on, `image`'s rows as they are.
  void read_image(const FloatImage& image);

  [[nodiscard]] unsigned width() const { return width_; }
  [[nodiscard]] unsigned height() const { return height_; }

  // Row y (< height()). A plane's row is converted into the ring unless it
  // is there, and stays there until a row `window` rows away is asked for:
  // every row of a window of at most `window` neighbouring rows can be
  // held at once.
  [[nodiscard]] const float* row(unsigned y) {
    if (image_ != nullptr) return image_->row(y);
    const unsigned slot = y % window_;
    if (tags_[slot] != y) convert(y, slot);
    return ring_.row(slot);
  }

 private:
  void convert(unsigned y, unsigned slot);

  const FloatImage* image_ = nullptr;
  const Plane* plane_ = nullptr;
  unsigned bpc_ = 8;
  unsigned width_ = 0;
  unsigned height_ = 0;
  unsigned window_ = 1;
  FloatImage ring_;             // window_ rows
  std::vector<unsigned> tags_;  // the plane row each ring row holds
};

}  // namespace vqx::float_common
