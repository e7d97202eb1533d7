// vqx.score_many()'s binding: one entry per distorted file, in order:
// (run, None, None, offset) when it was scored, (None, message, code,
// offset) when it failed (vqx/_many.py makes the Results and vqx.Errors).
#include <pybind11/stl.h>

#include <optional>
#include <string>
#include <tuple>
#include <vector>

#include "batch_run.hpp"
#include "bindings.hpp"
#include "errors.hpp"
#include "python_observer.hpp"
#include "vqx/scaled_video.hpp"

namespace py = pybind11;

namespace vqx::python {

void bind_batch(py::module_& m) {
  m.def(
      "score_many",
      [](const std::string& reference, const std::vector<std::string>& distorted,
         const std::optional<std::tuple<unsigned, unsigned, std::string, unsigned>>& raw,
         const std::vector<std::string>& models, const std::vector<std::string>& features,
         const std::string& backend, unsigned gpu, unsigned threads, unsigned subsample,
         unsigned frame_cnt, bool ignore_frame_rate, const std::optional<std::string>& scale_filter,
         const std::vector<int>& dist_offsets, const std::optional<unsigned>& sync_window,
         py::object progress) {
        BatchRequest request{.reference = reference,
                             .distorted = distorted,
                             .raw = raw_params(raw),
                             .models = models,
                             .features = features,
                             .settings = settings(backend, gpu, threads, subsample),
                             .frame_cnt = frame_cnt,
                             .ignore_frame_rate = ignore_frame_rate,
                             .scale_filter = scale_filter,
                             .dist_offsets = dist_offsets,
                             .sync_window = sync_window};
        if (scale_filter) take(parse_scale_filter(*scale_filter));  // before any file is read
        std::vector<ClipOutcome> outcomes;
        {
          PythonObserver observer(std::move(progress));
          const py::gil_scoped_release release;
          outcomes = score_batch_files(request, observer);
        }
        py::list out;
        for (ClipOutcome& o : outcomes) {
          const py::object offset = o.offset ? py::cast(*o.offset) : py::none();
          if (o.run) {
            out.append(py::make_tuple(py::cast(std::move(*o.run)), py::none(), py::none(), offset));
          } else {
            out.append(
                py::make_tuple(py::none(), o.status.message(), code_name(o.status.code()), offset));
          }
        }
        return out;
      },
      py::arg("reference"), py::arg("distorted"), py::arg("raw"), py::arg("models"),
      py::arg("features"), py::arg("backend"), py::arg("gpu"), py::arg("threads"),
      py::arg("subsample"), py::arg("frame_cnt"), py::arg("ignore_frame_rate"),
      py::arg("scale_filter"), py::arg("dist_offsets"), py::arg("sync_window"),
      py::arg("progress"));
}

}  // namespace vqx::python
