// vqx.Context: frames the caller has, as NumPy arrays, scored one pair at a
// time (frame_input.hpp says what a frame may be). The pictures come from
// the context's pool; the GIL is released while a pair is copied and scored
// and while the context is flushed.
#pragma once

#include <pybind11/pybind11.h>

#include <atomic>
#include <chrono>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "file_run.hpp"
#include "vqx/vqx.hpp"

namespace vqx::python {

class FrameContext {
 public:
  FrameContext(const ContextSettings& settings, const std::vector<std::string>& models,
               const std::vector<std::string>& features, std::optional<unsigned> bitdepth);

  // One pair, the next frame. Errors: TypeError, ValueError (the arrays),
  // vqx.Error (the library's: a sample above the bit depth, ...); a pair
  // refused leaves the context as it was.
  void add(pybind11::handle ref, pybind11::handle dist);
  // Flushes and hands the results over; the context takes no more frames.
  ScoredRun finish();
  // Read without the mutex (another thread's add() may hold it with the
  // GIL released; waiting for it here, holding the GIL, could deadlock):
  // hence an atomic count, which add() alone increments, under the mutex.
  [[nodiscard]] unsigned frames() const { return frames_.load(); }

 private:
  // Held (with the GIL released) by every call: a context is used by one
  // thread at a time, and Python threads may share this object.
  std::mutex mutex_;
  std::optional<unsigned> bitdepth_;
  std::unique_ptr<Context> context_;
  unsigned subsample_ = 1;
  std::optional<PictureFormat> format_;  // the first frame's
  std::atomic<unsigned> frames_{0};
  std::chrono::steady_clock::time_point start_;
};

}  // namespace vqx::python
