#include "frame_input.hpp"

#include <cstring>
#include <string>
#include <vector>

namespace py = pybind11;

namespace vqx::python {

namespace {

std::string size_text(unsigned w, unsigned h) {
  return std::to_string(w) + "x" + std::to_string(h);
}

// The sample type of one array, as a bit depth: 8 for uint8, 16 for uint16.
unsigned sample_bits(const py::array& a, const std::string& what) {
  if (py::isinstance<py::array_t<std::uint8_t>>(a)) return 8;
  if (py::isinstance<py::array_t<std::uint16_t>>(a)) return 16;
  throw py::type_error(what + " has dtype " + std::string(py::str(a.dtype())) +
                       ": expected uint8 (8-bit samples) or native-endian uint16 (9 to 16 bits)");
}

py::array as_array(py::handle h, const std::string& what) {
  if (!py::isinstance<py::array>(h)) {
    throw py::type_error(
        what + " is a " + std::string(py::str(h.get_type().attr("__name__"))) +
        ": expected a NumPy array, or a sequence of 1 or 3 NumPy arrays (Y, U, V)");
  }
  return py::reinterpret_borrow<py::array>(h);
}

// The planes of a frame as arrays, each 2-D.
std::vector<std::pair<py::array, PlaneView>> planes_of(py::handle frame, const std::string& which) {
  std::vector<std::pair<py::array, PlaneView>> planes;
  const auto add_plane = [&](const py::array& a, const std::uint8_t* data, py::ssize_t h_dim,
                             py::ssize_t w_dim) {
    planes.emplace_back(
        a, PlaneView{data, static_cast<unsigned>(a.shape(w_dim)),
                     static_cast<unsigned>(a.shape(h_dim)), a.strides(h_dim), a.strides(w_dim)});
  };
  if (py::isinstance<py::array>(frame)) {
    py::array a = py::reinterpret_borrow<py::array>(frame);
    const auto* data = static_cast<const std::uint8_t*>(a.data());
    if (a.ndim() == 2) {
      add_plane(a, data, 0, 1);
    } else if (a.ndim() == 3 && (a.shape(0) == 1 || a.shape(0) == 3)) {
      for (py::ssize_t p = 0; p < a.shape(0); ++p) add_plane(a, data + p * a.strides(0), 1, 2);
    } else {
      std::string shape;
      for (py::ssize_t d = 0; d < a.ndim(); ++d) {
        shape += (d ? ", " : "") + std::to_string(a.shape(d));
      }
      throw py::value_error(which + " frame has shape (" + shape +
                            "): expected (height, width) for the luma alone, (3, height, width) "
                            "for 4:4:4, or a sequence of 1 or 3 planes (Y, U, V)");
    }
    return planes;
  }
  if (!py::isinstance<py::sequence>(frame) || py::isinstance<py::str>(frame)) {
    as_array(frame, which + " frame");  // throws, naming the type
  }
  const auto seq = py::reinterpret_borrow<py::sequence>(frame);
  if (seq.size() != 1 && seq.size() != 3) {
    throw py::value_error(which + " frame has " + std::to_string(seq.size()) +
                          " planes: expected 1 (Y) or 3 (Y, U, V)");
  }
  static const char* const kNames[] = {"Y", "U", "V"};
  for (std::size_t p = 0; p < seq.size(); ++p) {
    const std::string what = which + " plane " + kNames[p];
    py::array a = as_array(seq[p], what);
    if (a.ndim() != 2) {
      throw py::value_error(what + " has " + std::to_string(a.ndim()) +
                            " dimensions: expected 2 (height, width)");
    }
    add_plane(a, static_cast<const std::uint8_t*>(a.data()), 0, 1);
  }
  return planes;
}

ChromaFormat chroma_of(const PlaneView& y, const PlaneView& u, const PlaneView& v,
                       const std::string& which) {
  if (u.width != v.width || u.height != v.height) {
    throw py::value_error(which + " frame's chroma planes differ: U is " +
                          size_text(u.width, u.height) + ", V is " + size_text(v.width, v.height));
  }
  const unsigned half_w = (y.width + 1) / 2;
  const unsigned half_h = (y.height + 1) / 2;
  if (u.width == y.width && u.height == y.height) return ChromaFormat::k444;
  if (u.width == half_w && u.height == y.height) return ChromaFormat::k422;
  if (u.width == half_w && u.height == half_h) return ChromaFormat::k420;
  throw py::value_error(which + " frame's chroma planes are " + size_text(u.width, u.height) +
                        ", which fits no chroma format of a " + size_text(y.width, y.height) +
                        " luma plane (4:2:0: " + size_text(half_w, half_h) +
                        ", 4:2:2: " + size_text(half_w, y.height) +
                        ", 4:4:4: " + size_text(y.width, y.height) + ")");
}

}  // namespace

FrameView view_frame(py::handle frame, const char* which_c, std::optional<unsigned> bitdepth) {
  const std::string which = which_c;
  auto planes = planes_of(frame, which);
  FrameView view;
  const unsigned bits = sample_bits(planes[0].first, which + " frame");
  for (std::size_t p = 0; p < planes.size(); ++p) {
    if (sample_bits(planes[p].first, which + " frame") != bits) {
      throw py::type_error(which + " frame mixes uint8 and uint16 planes");
    }
    if (planes[p].second.width == 0 || planes[p].second.height == 0) {
      throw py::value_error(which + " frame has an empty plane (" +
                            size_text(planes[p].second.width, planes[p].second.height) + ")");
    }
    view.arrays[p] = planes[p].first;
    view.planes[p] = planes[p].second;
  }
  unsigned bpc = 8;
  if (bits == 16) {
    if (!bitdepth || *bitdepth < 9) {
      throw py::value_error(which +
                            " frame has uint16 samples: give the context their bit depth, "
                            "vqx.Context(..., bitdepth=N) with N from 9 to 16");
    }
    bpc = *bitdepth;
  } else if (bitdepth && *bitdepth != 8) {
    throw py::type_error(which + " frame has uint8 samples but the context's bit depth is " +
                         std::to_string(*bitdepth) + ": give uint16 arrays");
  }
  const PlaneView& y = view.planes[0];
  view.format =
      PictureFormat{y.width, y.height, bpc,
                    planes.size() == 1 ? ChromaFormat::k400
                                       : chroma_of(y, view.planes[1], view.planes[2], which)};
  return view;
}

void copy_frame(const FrameView& view, Picture& pic) {
  const std::size_t bps = view.format.bytes_per_sample();
  for (unsigned p = 0; p < view.format.plane_count(); ++p) {
    const PlaneView& src = view.planes[p];
    Plane& dst = pic.plane(p);
    for (unsigned y = 0; y < src.height; ++y) {
      const std::uint8_t* in = src.data + (static_cast<std::ptrdiff_t>(y) * src.row_stride);
      std::uint8_t* out = dst.row<std::uint8_t>(y);
      if (src.sample_stride == static_cast<std::ptrdiff_t>(bps)) {
        std::memcpy(out, in, src.width * bps);
      } else {  // a view with a step, or transposed: sample by sample
        for (unsigned x = 0; x < src.width; ++x) {
          std::memcpy(out + (x * bps), in + (static_cast<std::ptrdiff_t>(x) * src.sample_stride),
                      bps);
        }
      }
    }
  }
}

}  // namespace vqx::python
