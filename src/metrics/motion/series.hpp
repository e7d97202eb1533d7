// Integer motion's temporal bookkeeping: which frame gets which value, from
// the per-frame SAD scores. Shared by the CPU extractor and the GPU twin, so
// that both write exactly the same values at the same moments (the rules are
// spelled out at the top of extractor.cpp).
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>

#include "core/extractor.hpp"
#include "metrics/motion/params.hpp"

namespace vqx::motion {

// Output slots in the order libvmaf first writes the names.
struct Slots {
  std::size_t sad = 0;
  std::size_t debug_motion = 0;  // only with debug
  std::size_t motion2 = 0;
  std::size_t motion3 = 0;
};
Slots slots_for(const Params& p);

// The SAD score of a frame from the kernel's sum (libvmaf:
// MIN((double)sad / 256. / (w * h) * fps_weight, max_val), w * h unsigned).
double sad_score(std::uint64_t sum, unsigned width, unsigned height, const Params& p);

class Series {
 public:
  explicit Series(const Params& params);
  // Before the first frame.
  void reset();
  // Frame `index` (0, 1, 2, ... in order) has SAD score `sad` (0 for the
  // first lag() frames): writes it and the values it completes.
  void add(unsigned index, double sad, FeatureWriter& out);
  // After the last frame.
  void flush(FeatureWriter& out);
  [[nodiscard]] unsigned frames() const { return frames_; }

 private:
  void finish_frame(unsigned t, double m2, FeatureWriter& out);

  Params params_;
  Slots slots_;
  unsigned lag_;
  unsigned frames_ = 0;                 // frames added so far
  std::array<double, 2> recent_sad_{};  // sad of the last and the one before it
  double prev_processed_ = 0.0;         // motion3 before averaging, of the last finished frame
  bool flushed_ = false;
};

}  // namespace vqx::motion
