// A GPU twin: the device version of one feature extractor, giving its CPU
// twin's numbers (integer features bit for bit). Plain C++: the context and
// the families see this header, never a vendor one.
//
// The frame protocol (ARCHITECTURE.md invariant 3), driven by the pipeline
// that the context owns:
//   1. the pipeline uploads the frame's planes once, for every twin;
//   2. each twin queues its clears (clear());
//   3. each twin queues its kernels and the readback of its small results
//      into pinned memory (launch());
//   4. once that frame's work has finished, the host finishes the sums in
//      double and writes the values (collect()).
// A twin never uploads, and it clears its accumulators every frame in
// clear(), never once at allocation: a clear queued before an upload, or
// done only at allocation, lets a frame read what an earlier frame (or an
// earlier context's recycled allocation) left behind. tests/contract checks
// every GPU source for these rules.
#pragma once

#include <array>
#include <cstddef>
#include <functional>
#include <memory>
#include <vector>

#include "core/extractor.hpp"
#include "vqx/picture.hpp"
#include "vqx/status.hpp"

namespace vqx::gpu {

class Stream;

// One plane of the current frame, on the device, as the pipeline uploaded it.
struct DevicePlane {
  const void* data = nullptr;
  std::size_t pitch = 0;  // bytes from one row to the next
  unsigned width = 0;
  unsigned height = 0;
};

struct DeviceFrame {
  PictureFormat format;
  unsigned planes = 0;  // planes uploaded (1: luma only)
  std::array<DevicePlane, 3> ref{};
  std::array<DevicePlane, 3> dist{};
  // Frame index - 1, still on the device in its slot, for a twin that reads
  // it (Twin::reads_previous_frame); null at frame 0 and where the pipeline
  // does not keep it (a batch's shared reference, whose planes move).
  const DeviceFrame* previous = nullptr;
};

// A constant host table a twin needs on the device (e.g. VIF's log2
// table, SpEED's resampling taps for the context's picture size). The
// pipeline uploads it once per context, before the twins' init() (twins
// never upload); twins naming the same table share it, so a name stands
// for one content (a table that depends on the picture size names the
// size).
//
// A table too large to compute on the host (ciede's Lab colour of every
// 8-bit Y'CbCr triple: 2^24 of them) is built on the device instead: `host`
// is null and `build` queues the kernels that write all `bytes` of it on
// the stream it is given (the pipeline's, once, before the twins' init()).
// Such a table is optional: where it cannot be allocated (a small device),
// it is left out and constant() reports it missing, so the twin must work
// without it (the same numbers, computed per pixel).
struct ConstantTable {
  const char* name;
  const void* host;
  std::size_t bytes;
  Status (*build)(void* device, const Stream& s) = nullptr;
};

// What the pipeline offers a twin at init().
class Resources {
 public:
  virtual ~Resources() = default;
  // The device copy of a table the twin listed in constant_tables().
  [[nodiscard]] virtual Expected<const void*> constant(const char* name) const = 0;
};

class Twin {
 public:
  virtual ~Twin() = default;
  // Planes the twin reads: 1 (luma) or the picture's plane count.
  [[nodiscard]] virtual unsigned planes_needed(const PictureFormat& /*fmt*/) const { return 1; }
  // Constant tables the twin reads for pictures of `fmt` (uploaded by the
  // pipeline, before init()). The host memory they name belongs to the
  // twin and must stay valid until init() is called.
  [[nodiscard]] virtual std::vector<ConstantTable> constant_tables(const PictureFormat& /*fmt*/) {
    return {};
  }
  // Whether consecutive frames gain from running side by side (each on a
  // replica of its own: pipeline.cu) also on pictures larger than about
  // 1080p. On smaller ones every twin that is not temporal runs so (a
  // frame alone leaves most of the device idle); on larger ones most
  // kernels fill the device, and a second frame only competes for its
  // memory bandwidth and caches (integer VIF at 4K: 15 % slower), so only
  // twins whose frame is a chain of small, latency-bound steps say true.
  [[nodiscard]] virtual bool overlaps_large_frames() const { return false; }
  // Whether this temporal twin computes frame i from the planes of frames
  // i and i - 1 alone when launch() is given the frame before
  // (DeviceFrame::previous), keeping nothing of its own from frame to
  // frame: the pipeline then runs its frames side by side like other
  // twins' (on replicas; collected in order all the same). Where
  // `previous` is null past frame 0, it sees every frame, in order,
  // through one instance, and must keep what the next frame reads itself.
  [[nodiscard]] virtual bool reads_previous_frame() const { return false; }
  // Allocates every device and pinned buffer, once, for pictures of `fmt`
  // and `slots` frames in flight. The device is current on this thread.
  virtual Status init(const PictureFormat& fmt, unsigned slots, const Resources& resources) = 0;
  // Queues the per-frame clears on `s`.
  virtual Status clear(const Stream& s) = 0;
  // Queues the kernels on frame `index` and the readback of the results
  // into result slot `slot`, on `s`.
  // A twin that is not temporal queues the same work for every frame of a
  // slot: the pipeline records its clear() and launch() at the slot's
  // first frame and replays that recording for the slot's later frames
  // (pipeline.cu), so neither may depend on `index` or change what the
  // next call queues (set-up done at a first launch must be idempotent).
  virtual Status launch(const DeviceFrame& frame, unsigned index, unsigned slot,
                        const Stream& s) = 0;
  // Host side, after slot `slot`'s work has finished: writes frame
  // `index`'s values.
  virtual Status collect(unsigned slot, unsigned index, FeatureWriter& out) = 0;
  // After the last frame (temporal twins write what they held back).
  virtual Status flush(FeatureWriter& /*out*/) { return Status::Ok(); }
};

}  // namespace vqx::gpu
