// The progress line on stderr: frames done, frames per second and, when the
// total is known, the time left. Shown only on a terminal.
#pragma once

#include <chrono>
#include <optional>

namespace vqx::cli {

class Progress {
 public:
  Progress(bool enabled, std::optional<unsigned> total);
  void update(unsigned frames_done);
  void finish(unsigned frames_done);
  [[nodiscard]] double fps(unsigned frames_done) const;

 private:
  bool enabled_;
  std::optional<unsigned> total_;
  std::chrono::steady_clock::time_point start_;
  std::chrono::steady_clock::time_point last_draw_;
};

}  // namespace vqx::cli
