// The context's GPU side: one device, its streams and the frame protocol
// (see twin.hpp). Plain C++, so that the context compiles the same with or
// without a GPU backend (src/gpu/off/ stands in for VQX_GPU=off).
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>

#include "core/extractor.hpp"
#include "core/fork_join.hpp"
#include "gpu/twin.hpp"
#include "vqx/picture.hpp"
#include "vqx/status.hpp"

namespace vqx::gpu {

// "cuda" or "hip" for the backend this build has, nullptr for none.
const char* compiled_backend();
// Devices of that backend visible to this process; 0 without a backend.
unsigned available_devices();
// The device index of a context made through the vendor's driver API (a
// CUcontext in a CUDA build); kUnsupported without CUDA.
Expected<unsigned> native_context_device(void* handle);

// Pictures up to this size (1920x1200 and a little more) are small: many
// twins' kernels on one such frame leave most of the device idle.
inline constexpr std::uint64_t kSmallFramePixels = 2'500'000;
[[nodiscard]] constexpr bool is_small_frame(const PictureFormat& fmt) {
  return std::uint64_t{fmt.width} * fmt.height <= kSmallFramePixels;
}
// Frames in flight on the device (the pipeline's slots) for pictures of a
// format: for small ones, enough that the next frames' kernels fill what
// one frame's leave idle; above kSmallFramePixels the kernels fill the
// device and more frames only compete for its memory and caches
// (docs/gpu.md, "Frames in flight").
inline constexpr unsigned kSmallFrameSlots = 8;
inline constexpr unsigned kLargeFrameSlots = 3;
[[nodiscard]] constexpr unsigned frame_slots(const PictureFormat& fmt) {
  return is_small_frame(fmt) ? kSmallFrameSlots : kLargeFrameSlots;
}

// How the frames' planes reached the device (a debug statistic: the GPU
// tests read it through engine/context_internals.hpp). A plane in this
// backend's pinned memory is uploaded straight from the picture; any other
// is staged (copied into pinned memory) first.
struct UploadStats {
  std::uint64_t planes_direct = 0;
  std::uint64_t planes_staged = 0;
  std::uint64_t frames_direct = 0;  // every needed plane uploaded directly
  std::uint64_t frames_staged = 0;  // at least one plane staged
  // Frames whose reference planes another pipeline had uploaded (a shared
  // reference: not uploaded, nor staged, here; not counted above).
  std::uint64_t refs_shared = 0;
};

// The reference frames of a batch (vqx::score_batch: one reference, N
// clips, a context each) uploaded once for the pipelines of all its
// contexts on one device. The batch hands each context its reference
// pictures with their frame number in the reference
// (detail::ContextInternals::read_batch_pictures); a pipeline sharing
// uploads uploads such a picture's planes into memory of the share, or,
// when another pipeline already has, makes its twins wait for that copy
// and uploads only the distorted planes. Frames are matched by their
// number, device, format and planes uploaded; a frame's memory is reused
// once no pipeline's frame in flight reads it. Defined by the backend.
class SharedReference;
// A share for the pipelines of one batch; null in a build without a GPU
// backend.
std::shared_ptr<SharedReference> make_shared_reference();

class Pipeline {
 public:
  // Opens device `device` of the compiled backend, with its own streams.
  static Expected<std::unique_ptr<Pipeline>> open(unsigned device);
  virtual ~Pipeline() = default;

  // "cuda" or "hip".
  [[nodiscard]] virtual std::string backend() const = 0;
  // E.g. "cuda:0 NVIDIA H200, 132 multiprocessors, warp 32".
  [[nodiscard]] virtual std::string description() const = 0;

  // Before init(): a twin (what makes one), its feature's name (for
  // messages) and where its values go (`out` outlives the pipeline).
  // Temporal twins see every frame, in order, through one instance; the
  // others only the sampled frames, and the pipeline may make several
  // instances of such a twin, each on a stream of its own, so that
  // consecutive frames run side by side (their values are collected in
  // frame order all the same). `make` is called before add() returns and
  // during init(), not later.
  using TwinMaker = std::function<std::unique_ptr<Twin>()>;
  virtual void add(const TwinMaker& make, std::string name, bool temporal, FeatureWriter& out) = 0;
  [[nodiscard]] virtual bool empty() const = 0;
  // Before the first submit(): reference pictures submitted with their
  // frame number are uploaded through `share` (see SharedReference).
  virtual void share_reference(std::shared_ptr<SharedReference> share) = 0;
  // Errors name the device and the step ("cuda:0 (NVIDIA H200): frame 12,
  // adm: launching ..."). After the first error the pipeline has freed its
  // device memory and every later call returns that error again.
  //
  // Allocates everything, once, for pictures of `fmt`.
  virtual Status init(const PictureFormat& fmt) = 0;
  // Runs the protocol for one frame; the device work finishes later. A
  // needed plane in this backend's pinned memory (make_picture()) is
  // uploaded straight from its rows, and the pipeline then holds
  // `pictures` (what keeps ref and dist from being reused) until that copy
  // has completed; the other planes are copied to pinned staging memory
  // before this returns. When every plane was staged, `pictures` is let go
  // before this returns. `staging`, if any, shares the staging copy among
  // its threads (the pipeline schedules nothing itself). `reference_frame`:
  // `ref`'s frame number in a batch's reference (1-based; see
  // SharedReference), or 0.
  virtual Status submit(const Picture& ref, const Picture& dist, unsigned index, bool sampled,
                        const ForkJoin* staging, std::shared_ptr<const void> pictures,
                        std::uint64_t reference_frame) = 0;
  // Waits for every frame, collects the values and flushes the twins.
  virtual Status finish() = 0;

  // A new picture whose planes are in this backend's pinned host memory
  // (rows 64-byte aligned and zero-padded, as Picture::make's), or an
  // ordinary one when no pinned memory is to be had. Callable from any
  // thread, at any time (also while another calls submit()); slow
  // (milliseconds): the context recycles them.
  [[nodiscard]] virtual Expected<Picture> make_picture(const PictureFormat& fmt) const = 0;
  // The memory make_picture()'s planes come from when it can.
  [[nodiscard]] virtual const PlaneMemory* picture_memory() const = 0;
  [[nodiscard]] virtual UploadStats upload_stats() const = 0;
};

}  // namespace vqx::gpu
