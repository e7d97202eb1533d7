// The watcher of a run started from Python (vqx.score, vqx.score_many):
// about every 50 ms (and at the first frame) it takes the GIL to let Python
// handle a pending signal (Ctrl-C raises KeyboardInterrupt out of the run)
// and to call the progress callback.
#pragma once

#include <pybind11/pybind11.h>

#include <chrono>
#include <optional>
#include <utility>

#include "file_run.hpp"

namespace vqx::python {

class PythonObserver final : public RunObserver {
 public:
  explicit PythonObserver(pybind11::object progress) : progress_(std::move(progress)) {}

  void frames_done(unsigned done, std::optional<unsigned> total) override {
    const auto now = std::chrono::steady_clock::now();
    if (done > 1 && now - last_ < std::chrono::milliseconds(50)) return;
    last_ = now;
    const pybind11::gil_scoped_acquire gil;
    if (PyErr_CheckSignals() != 0) throw pybind11::error_already_set();
    if (!progress_.is_none()) {
      progress_(done, total ? pybind11::cast(*total) : pybind11::none());
    }
  }

 private:
  pybind11::object progress_;
  std::chrono::steady_clock::time_point last_;
};

}  // namespace vqx::python
