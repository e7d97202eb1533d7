// How far in time a frame's values look: the frames before and after it
// whose pictures they depend on. Segments of one video scored apart give
// every frame the whole video's values when each segment is read from
// `before` frames ahead of its first frame to `after` frames past its last
// (docs/scale-out.md).
#pragma once

namespace vqx {

struct TemporalReach {
  unsigned before = 0;
  unsigned after = 0;
};

}  // namespace vqx
