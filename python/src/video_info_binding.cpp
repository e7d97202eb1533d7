// _vqx.frame_count(): how many frames a video has (vqx.dask splits a video
// into segments by it): what the file tells (Y4M, raw), else counted by
// decoding the luma to the end (a container that does not tell its count).
#include <pybind11/stl.h>

#include <cstdint>
#include <optional>
#include <string>
#include <tuple>

#include "bindings.hpp"
#include "errors.hpp"

namespace py = pybind11;

namespace vqx::python {

void bind_video_info(py::module_& m) {
  m.def(
      "frame_count",
      [](const std::string& path,
         const std::optional<std::tuple<unsigned, unsigned, std::string, unsigned>>& raw) {
        const std::optional<RawVideoParams> geometry = raw_params(raw);
        const py::gil_scoped_release release;
        std::unique_ptr<VideoReader> video = take(open_video(path, geometry));
        if (video->info().frame_count >= 0)
          return static_cast<std::uint64_t>(video->info().frame_count);
        video->read_planes(1);
        Picture scratch;
        while (take(video->read(scratch))) {
        }
        return video->frames_read();
      },
      py::arg("path"), py::arg("raw"));
}

}  // namespace vqx::python
