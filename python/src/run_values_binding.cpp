// A run's values as plain Python data (vqx::RunValues, include/vqx/
// run_values.hpp): what a vqx.Result pickles, so that a result that came
// back from another process (vqx.dask) or was merged from segments still
// writes the bytes Context::write_output() writes. The per-frame arrays
// travel in the Result itself; the rest is this dict:
//   {"version", "width", "height", "gpu_device", "aggregates": [(name, v)],
//    "settings": {"backend", "device", "subsample", "models": [(name, origin)],
//                 "features": [...]}}
#include <pybind11/numpy.h>
#include <pybind11/stl.h>

#include <string>
#include <utility>
#include <vector>

#include "bindings.hpp"
#include "errors.hpp"
#include "file_run.hpp"
#include "setup_context.hpp"
#include "vqx/run_values.hpp"

namespace py = pybind11;

namespace vqx::python {

namespace {

py::dict header_of(const RunValues& v) {
  py::dict settings;
  settings["backend"] = v.settings_backend;
  settings["device"] = v.settings_device;
  settings["subsample"] = v.subsample;
  settings["models"] = v.models;
  settings["features"] = v.features;
  py::dict d;
  d["version"] = v.version;
  d["width"] = v.width;
  d["height"] = v.height;
  d["gpu_device"] = v.gpu_device;
  d["aggregates"] = v.aggregates;
  d["settings"] = settings;
  return d;
}

using Values = py::array_t<double, py::array::c_style | py::array::forcecast>;

// The header dict back, with the frames and each metric's (name, values,
// backend): a ValueError names what is missing or of the wrong kind.
RunValues values_of(const py::dict& header, const std::vector<unsigned>& frames,
                    const std::vector<std::tuple<std::string, Values, std::string>>& metrics) {
  RunValues v;
  try {
    v.version = header["version"].cast<std::string>();
    v.width = header["width"].cast<unsigned>();
    v.height = header["height"].cast<unsigned>();
    v.gpu_device = header["gpu_device"].cast<std::string>();
    v.aggregates = header["aggregates"].cast<std::vector<std::pair<std::string, double>>>();
    const py::dict settings = header["settings"].cast<py::dict>();
    v.settings_backend = settings["backend"].cast<std::string>();
    v.settings_device = settings["device"].cast<std::string>();
    v.subsample = settings["subsample"].cast<unsigned>();
    v.models = settings["models"].cast<std::vector<std::pair<std::string, std::string>>>();
    v.features = settings["features"].cast<std::vector<std::string>>();
  } catch (const py::error_already_set& e) {
    throw py::value_error(std::string("a result's run header is damaged: ") + e.what());
  } catch (const py::cast_error& e) {
    throw py::value_error(std::string("a result's run header is damaged: ") + e.what());
  }
  v.frames = frames;
  for (const auto& [name, values, backend] : metrics) {
    if (values.ndim() != 1) throw py::value_error("metric " + name + ": values must be 1-D");
    const double* data = values.data();
    v.metrics.push_back({name, std::vector<double>(data, data + values.shape(0)), backend});
  }
  return v;
}

}  // namespace

void bind_run_values(py::module_& m) {
  m.def(
      "run_header", [](const ScoredRun& run) { return header_of(take(run.context->run_values())); },
      py::arg("run"), "The run's values besides its frames and per-frame arrays");
  m.def(
      "write_values",
      [](const py::dict& header, const std::vector<unsigned>& frames,
         const std::vector<std::tuple<std::string, Values, std::string>>& metrics,
         const std::string& path, const std::string& format, int precision, double fps) {
        const RunValues v = values_of(header, frames, metrics);
        const OutputFormat f = parse_format(format);
        const py::gil_scoped_release release;
        check(write_run_values(v, path, f, precision, fps));
      },
      py::arg("header"), py::arg("frames"), py::arg("metrics"), py::arg("path"), py::arg("format"),
      py::arg("precision"), py::arg("fps"));
  m.def(
      "pool",
      [](const Values& values) {
        const PooledValues p = pool_values(
            std::span<const double>(values.data(), static_cast<std::size_t>(values.size())));
        return py::make_tuple(p.mean, p.harmonic_mean, p.min, p.max);
      },
      py::arg("values"), "(mean, harmonic_mean, min, max) over the values that are not NaN");
  m.def(
      "temporal_reach",
      [](const std::vector<std::string>& models,
         const std::vector<std::string>& features) -> py::object {
        const std::unique_ptr<Context> ctx =
            make_context({.backend = Backend::kCpu}, models, features);
        const std::optional<TemporalReach> reach = ctx->temporal_reach();
        if (!reach) return py::none();
        return py::make_tuple(reach->before, reach->after);
      },
      py::arg("models"), py::arg("features"),
      "(before, after): the frames a frame's values depend on; None: the whole video");
}

}  // namespace vqx::python
