#include "progress.hpp"

#include <cstdio>

namespace vqx::cli {

using Clock = std::chrono::steady_clock;

Progress::Progress(bool enabled, std::optional<unsigned> total)
    : enabled_(enabled), total_(total), start_(Clock::now()), last_draw_(start_) {}

double Progress::fps(unsigned frames_done) const {
  const double s = std::chrono::duration<double>(Clock::now() - start_).count();
  return s > 0 ? frames_done / s : 0.0;
}

void Progress::update(unsigned frames_done) {
  if (!enabled_) return;
  const auto now = Clock::now();
  if (now - last_draw_ < std::chrono::milliseconds(200)) return;
  last_draw_ = now;
  const double rate = fps(frames_done);
  if (total_ && *total_ > frames_done && rate > 0) {
    const auto left = static_cast<unsigned>((*total_ - frames_done) / rate);
    std::fprintf(stderr, "\r%u/%u frames, %.1f fps, ETA %u:%02u\033[K", frames_done, *total_,
                 rate, left / 60, left % 60);
  } else {
    std::fprintf(stderr, "\r%u frames, %.1f fps\033[K", frames_done, rate);
  }
  std::fflush(stderr);
}

void Progress::finish(unsigned frames_done) {
  if (!enabled_) return;
  std::fprintf(stderr, "\r%u frames, %.1f fps\033[K\n", frames_done, fps(frames_done));
}

}  // namespace vqx::cli
