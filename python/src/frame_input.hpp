// NumPy frames: what a Python caller hands vqx.Context.add(), checked with
// the GIL held (TypeError, ValueError naming the culprit), then copied into
// a picture of the context's pool with the GIL released: one copy, row by
// row, from whatever strides the arrays have.
//
// A frame is a 2-D array (the luma alone: 4:0:0), a 3-D array of 1 or 3
// planes of one size (4:0:0, 4:4:4), or a sequence of 1 or 3 2-D arrays
// (Y, U, V), whose chroma planes' size gives the chroma format: 4:2:0
// ((w+1)/2 x (h+1)/2), 4:2:2 ((w+1)/2 x h) or 4:4:4. Samples are uint8
// (8-bit) or native uint16 (the context's bit depth, 9 to 16).
#pragma once

#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>

#include "vqx/picture.hpp"

namespace vqx::python {

struct PlaneView {
  const std::uint8_t* data = nullptr;
  unsigned width = 0;
  unsigned height = 0;
  std::ptrdiff_t row_stride = 0;     // bytes
  std::ptrdiff_t sample_stride = 0;  // bytes
};

struct FrameView {
  PictureFormat format;
  std::array<PlaneView, 3> planes;
  std::array<pybind11::array, 3> arrays;  // keep the samples alive while they are copied
};

// `which`: "reference" or "distorted", for the messages; `bitdepth`: the
// context's (required for uint16 samples). Throws pybind11::type_error or
// pybind11::value_error.
FrameView view_frame(pybind11::handle frame, const char* which, std::optional<unsigned> bitdepth);

// Copies the samples into `pic`, which has `view.format`; needs no GIL.
void copy_frame(const FrameView& view, Picture& pic);

}  // namespace vqx::python
