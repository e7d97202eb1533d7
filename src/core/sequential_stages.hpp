// extract() of a temporal extractor with stages (core/extractor.hpp,
// TemporalStages) outside a context: each frame prepared and finished at
// once on the calling thread. The scheduler holds the earlier frames'
// pictures for prepare(); here they are copies, kept from the earlier
// calls.
#pragma once

#include <vector>

#include "core/extractor.hpp"
#include "vqx/picture.hpp"
#include "vqx/status.hpp"

namespace vqx {

class SequentialStages {
 public:
  // In init(): copies for `history` frames of `fmt` (none for 0), and no
  // frame seen yet.
  Status init(const PictureFormat& fmt, unsigned history);
  // In reserve(): the scheduler gives prepare() the pictures themselves.
  void release();
  // Frame `index` (the frame after the last one run: the caller checks):
  // prepare() with the copies as history, finish(), then the frame's
  // pictures copied for the next frames.
  Status run(TemporalStages& stages, const Picture& ref, const Picture& dist, unsigned index,
             FeatureWriter& out);

 private:
  unsigned history_ = 0;
  std::vector<Picture> ref_;  // frame i's copies at i % history_
  std::vector<Picture> dist_;
};

}  // namespace vqx
