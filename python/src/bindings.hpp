// The module's parts beyond vqx.score and vqx.Context (module.cpp): each
// adds its functions and classes to the module _vqx.
#pragma once

#include <pybind11/pybind11.h>

#include <optional>
#include <string>
#include <tuple>

#include "vqx/video_reader.hpp"
#include "vqx/vqx.hpp"

namespace vqx::python {

// "auto", "cpu", "cuda", "hip" (ValueError otherwise).
Backend parse_backend(const std::string& name);
// "xml", "json", "csv", "sub" (ValueError otherwise).
OutputFormat parse_format(const std::string& name);
// (width, height, pixel format "420"..., bit depth) of raw input.
std::optional<RawVideoParams> raw_params(
    const std::optional<std::tuple<unsigned, unsigned, std::string, unsigned>>& raw);
ContextSettings settings(const std::string& backend, unsigned gpu, unsigned threads,
                         unsigned subsample);

// vqx.report(): the HTML report of JSON files (report_binding.cpp).
void bind_report(pybind11::module_& m);
// A run's values as plain Python data, written back without its context;
// pooling; a run's temporal reach (run_values_binding.cpp).
void bind_run_values(pybind11::module_& m);
// vqx.score_many(): the batch (batch_binding.cpp).
void bind_batch(pybind11::module_& m);
// A video's frame count (video_info_binding.cpp).
void bind_video_info(pybind11::module_& m);

}  // namespace vqx::python
