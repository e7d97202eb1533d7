// _vqx: the compiled half of the Python package vqx (python/vqx/ is the
// other, which users import). Thin: arguments in, results out as NumPy
// arrays; the work is in file_run, frame_context and setup_context.
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <chrono>
#include <optional>
#include <string>
#include <tuple>
#include <vector>

#include "bindings.hpp"
#include "errors.hpp"
#include "file_run.hpp"
#include "frame_context.hpp"
#include "python_observer.hpp"
#include "vqx/features.hpp"
#include "vqx/video_reader.hpp"
#include "vqx/vqx.hpp"

namespace py = pybind11;

namespace vqx::python {

Backend parse_backend(const std::string& name) {
  if (name == "auto") return Backend::kAuto;
  if (name == "cpu") return Backend::kCpu;
  if (name == "cuda") return Backend::kCuda;
  if (name == "hip") return Backend::kHip;
  throw py::value_error("backend '" + name + "': expected auto, cpu, cuda or hip");
}

ContextSettings settings(const std::string& backend, unsigned gpu, unsigned threads,
                         unsigned subsample) {
  return {
      .threads = threads, .subsample = subsample, .backend = parse_backend(backend), .gpu = gpu};
}

OutputFormat parse_format(const std::string& name) {
  if (name == "xml") return OutputFormat::kXml;
  if (name == "json") return OutputFormat::kJson;
  if (name == "csv") return OutputFormat::kCsv;
  if (name == "sub") return OutputFormat::kSub;
  throw py::value_error("format '" + name + "': expected xml, json, csv or sub");
}

std::optional<RawVideoParams> raw_params(
    const std::optional<std::tuple<unsigned, unsigned, std::string, unsigned>>& raw) {
  if (!raw) return std::nullopt;
  const auto& [width, height, pixel_format, bitdepth] = *raw;
  auto chroma = parse_pixel_format(pixel_format);
  if (!chroma.ok())
    throw Failure(Error(chroma.status().code(), "pixel_format " + chroma.status().message()));
  return RawVideoParams{width, height, bitdepth, *chroma};
}

namespace {

py::array_t<double> to_array(const std::vector<double>& v) {
  return py::array_t<double>(static_cast<py::ssize_t>(v.size()), v.data());
}

void bind_run(py::module_& m) {
  py::class_<ScoredRun>(m, "Run", "A scored run (vqx.Result wraps it)")
      .def_property_readonly("frames",
                             [](const ScoredRun& r) {
                               const std::vector<unsigned>& f = r.results.frames;
                               py::array_t<std::int64_t> a(static_cast<py::ssize_t>(f.size()));
                               auto out = a.mutable_unchecked<1>();
                               for (std::size_t i = 0; i < f.size(); ++i) {
                                 out(static_cast<py::ssize_t>(i)) = f[i];
                               }
                               return a;
                             })
      .def_property_readonly(
          "metrics",
          [](const ScoredRun& r) {
            py::list out;
            for (const MetricSeries& s : r.results.metrics) {
              out.append(py::make_tuple(s.name, to_array(s.values),
                                        py::make_tuple(s.mean, s.harmonic_mean, s.min, s.max),
                                        s.backend));
            }
            return out;
          })
      .def_property_readonly("aggregates",
                             [](const ScoredRun& r) { return py::cast(r.results.aggregates); })
      .def_property_readonly("models", [](const ScoredRun& r) { return r.results.models; })
      .def_property_readonly("device", [](const ScoredRun& r) { return r.results.device; })
      .def_property_readonly("fps", [](const ScoredRun& r) { return r.results.fps; })
      .def(
          "write",
          [](const ScoredRun& r, const std::string& path, const std::string& format, int precision,
             double fps) {
            const OutputFormat f = parse_format(format);
            const py::gil_scoped_release release;
            check(r.context->write_output(path, f, precision, fps));
          },
          py::arg("path"), py::arg("format"), py::arg("precision"), py::arg("fps"));
}

void bind_frame_context(py::module_& m) {
  py::class_<FrameContext>(m, "FrameContext", "vqx.Context's engine")
      .def(py::init([](const std::vector<std::string>& models,
                       const std::vector<std::string>& features, const std::string& backend,
                       unsigned gpu, unsigned threads, unsigned subsample,
                       std::optional<unsigned> bitdepth) {
             return std::make_unique<FrameContext>(settings(backend, gpu, threads, subsample),
                                                   models, features, bitdepth);
           }),
           py::arg("models"), py::arg("features"), py::arg("backend"), py::arg("gpu"),
           py::arg("threads"), py::arg("subsample"), py::arg("bitdepth"))
      .def("add", &FrameContext::add, py::arg("ref"), py::arg("dist"))
      .def("finish", &FrameContext::finish)
      .def_property_readonly("frames", &FrameContext::frames);
}

ScoredRun score_files_binding(
    const std::string& reference, const std::string& distorted,
    std::optional<std::tuple<unsigned, unsigned, std::string, unsigned>> raw,
    const std::vector<std::string>& models, const std::vector<std::string>& features,
    const std::string& backend, unsigned gpu, unsigned threads, unsigned subsample,
    unsigned frame_cnt, unsigned skip, bool ignore_frame_rate, py::object progress) {
  FileRequest request{.reference = reference,
                      .distorted = distorted,
                      .raw = std::nullopt,
                      .models = models,
                      .features = features,
                      .settings = settings(backend, gpu, threads, subsample),
                      .frame_cnt = frame_cnt,
                      .skip = skip,
                      .ignore_frame_rate = ignore_frame_rate};
  request.raw = raw_params(raw);
  PythonObserver observer(std::move(progress));
  const py::gil_scoped_release release;
  return score_files(request, observer);
}

}  // namespace
}  // namespace vqx::python

PYBIND11_MODULE(_vqx, m) {
  using namespace vqx::python;
  m.doc() = "The compiled core of vqx (import vqx instead)";
  // Never destroyed: a static Python object's destructor would run after
  // the interpreter has finalised.
  static auto* error = new py::exception<Failure>(m, "Error");
  py::register_exception_translator([](std::exception_ptr p) {
    try {
      if (p) std::rethrow_exception(p);
    } catch (const Failure& f) {
      py::object e = py::handle(error->ptr())(f.status().message());
      e.attr("code") = code_name(f.status().code());
      PyErr_SetObject(error->ptr(), e.ptr());
    }
  });
  m.def("version", [] { return std::string(vqx::version()); });
  m.attr("MAX_THREADS") = vqx::kMaxThreads;
  m.attr("DEFAULT_MODEL") = std::string(vqx::kDefaultModel);
  m.def("libav_available", &vqx::libav_available);
  m.def("score_files", &score_files_binding, py::arg("reference"), py::arg("distorted"),
        py::arg("raw"), py::arg("models"), py::arg("features"), py::arg("backend"), py::arg("gpu"),
        py::arg("threads"), py::arg("subsample"), py::arg("frame_cnt"), py::arg("skip"),
        py::arg("ignore_frame_rate"), py::arg("progress"));
  bind_run(m);
  bind_frame_context(m);
  bind_report(m);
  bind_run_values(m);
  bind_batch(m);
  bind_video_info(m);
}
