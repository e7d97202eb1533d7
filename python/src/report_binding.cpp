// vqx.report(): vqx::write_html_report (include/vqx/html_report.hpp), the
// page `vqx report` writes.
#include <pybind11/stl.h>

#include <string>
#include <vector>

#include "bindings.hpp"
#include "errors.hpp"
#include "vqx/html_report.hpp"

namespace py = pybind11;

namespace vqx::python {

void bind_report(py::module_& m) {
  m.def(
      "html_report",
      [](const std::vector<std::string>& json_paths, const std::string& output_path,
         unsigned worst_frames, const std::vector<std::string>& metrics, const std::string& title) {
        const HtmlReportOptions options{
            .title = title, .worst_frames = worst_frames, .metrics = metrics};
        const py::gil_scoped_release release;
        check(write_html_report(json_paths, output_path, options));
      },
      py::arg("json_paths"), py::arg("output_path"), py::arg("worst_frames"), py::arg("metrics"),
      py::arg("title"));
}

}  // namespace vqx::python
