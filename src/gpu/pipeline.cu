// The frame protocol on one device (see twin.hpp for the order and why).
//
// Frames rotate through S slots (frame_slots(): 8 for small pictures, 3
// above). A slot holds the frame's planes in pinned staging memory and on
// the device, and its events; frame i uses slot i % S, and every twin keeps
// its results for that frame in its result slot of the same number. Before
// frame i is staged, the frame that used the slot last (i - S) is waited
// for and collected, so up to S frames are in flight and collection
// happens in index order (which temporal twins rely on). Uploads go on
// their own stream, so the copy of frame i + 1 overlaps the kernels of
// frame i. Every twin has its own stream, which waits for the upload's
// event before the twin queues its clears: twins run side by side (their
// small late-scale kernels fill each other's gaps), and each twin's buffers
// are only ever touched on its stream.
//
// A twin that is not temporal has up to kMaxReplicas (3) instances
// ("replicas"), each with its buffers and its stream; slot k's frames go to
// replica k % replicas, so consecutive frames of one twin run side by side
// too. Many twins' kernels are small at 1080p (one thread per row of a
// recursive blur, a few blocks per late scale) and wait on each other's
// latency within a frame, not on the device: a frame alone leaves most of
// it idle. Above kSmallFramePixels only twins that say so
// (Twin::overlaps_large_frames) get replicas: there the others' kernels
// fill the device (docs/gpu.md, "Frames side by side"). Results are the
// same (each replica computes its frames as the one instance would, and
// values are still collected in frame order); only device memory grows, so
// a replica that cannot be set up (no memory left) is left out and the twin
// runs with fewer.
//
// A temporal twin that reads the previous frame's planes from its slot
// (Twin::reads_previous_frame) gets replicas too: frame i's launch is
// given slot (i - 1) % S's frame, and the upload of frame j into slot j % S
// waits (on the device) until frame j - S + 1, the last to read what the
// slot held, has been computed by those twins. Not with a shared
// reference, whose planes are let go of at the frame's collect.
//
// A replica of a twin that is not temporal queues the same work for every
// frame of a slot (twin.hpp), so its clears and kernels are recorded once
// per slot, as a graph, and replayed (queue_frame).
//
// Pictures in pinned memory (make_picture(): every picture the context's
// fetch_picture hands out) are not staged: their planes are uploaded
// straight from their rows, and the slot holds the pictures until its
// upload event has happened (polled at every submit, waited for at the
// slot's collect), so that they are not refilled while the copy runs. A
// plane in ordinary memory (Picture::make, the neutral chroma of a 4:0:0
// picture) is copied into the slot's staging memory first, as the upload
// of pageable memory would otherwise be synchronous and staged by the
// driver anyway.
//
// With a SharedReference (a batch's contexts on one device), a reference
// picture submitted with its batch frame number is uploaded once: the first
// pipeline to submit it copies its planes into a frame of the share (on its
// upload stream, then records the frame's event), and the others' twins
// wait for that event and read those planes; their slots hold the frame
// until collected. A frame's memory is reused only when no slot holds it,
// that is when every twin that read it has been collected.
#include <algorithm>
#include <cstring>
#include <mutex>
#include <type_traits>
#include <vector>

#include "core/fork_join.hpp"
#include "core/index_math.hpp"
#include "core/picture_internals.hpp"
#include "gpu/pipeline.hpp"
#include "gpu/runtime.hpp"

namespace vqx::gpu {

namespace {

// One reference frame on the device, in the layout of a slot's ref planes.
struct SharedFrame {
  std::uint64_t number = 0;  // the batch's frame number; 0 while being filled
  unsigned device = 0;
  PictureFormat format;
  unsigned planes = 0;
  DeviceBuffer<std::uint8_t> memory;
  Event uploaded;        // recorded after the planes' copies
  unsigned holders = 0;  // slots whose frame reads it
};

}  // namespace

class SharedReference {
 public:
  SharedReference() = default;
  SharedReference(const SharedReference&) = delete;
  SharedReference& operator=(const SharedReference&) = delete;
  // Each frame freed with its device current (the last pipeline to let go
  // may be another device's).
  ~SharedReference() {
    for (auto& f : frames) {
      (void)use_device(f->device);
      f.reset();
    }
  }

  std::mutex mutex;
  std::vector<std::unique_ptr<SharedFrame>> frames;
};

std::shared_ptr<SharedReference> make_shared_reference() {
  return std::make_shared<SharedReference>();
}

const char* compiled_backend() { return vendor::kBackendName; }
unsigned available_devices() { return device_count(); }
Expected<unsigned> native_context_device(void* handle) {
  int device = -1;
  const vendor::Error e = vendor::device_of_native_context(handle, &device);
  if (e != vendor::kSuccess) {
    (void)vendor::last_error();
    return Error(Errc::kUnsupported, std::string("not a ") + vendor::kBackendName +
                                         " driver context (" + vendor::error_string(e) + ")");
  }
  return static_cast<unsigned>(device);
}

namespace {

// The most slots any format has (frame_slots()).
constexpr unsigned kMaxSlots = std::max(kSmallFrameSlots, kLargeFrameSlots);
// The most instances of a twin. More frames in flight pay at small sizes
// (8 slots), more instances beyond 3 did not (docs/gpu.md, "Frames in
// flight"): each costs the twin's device memory again.
constexpr unsigned kMaxReplicas = 3;
static_assert(kMaxReplicas <= kSmallFrameSlots && kMaxReplicas <= kLargeFrameSlots,
              "every replica computes frames");
constexpr std::size_t kDevicePitchAlign = 256;
// Rows per staging job: big enough that a job is worth a thread.
constexpr unsigned kRowsPerJob = 64;

// One instance of a twin, with its stream and, for a twin that is not
// temporal, its work on each slot's frame as recorded at that slot's first
// frame.
struct Replica {
  std::unique_ptr<Twin> twin;
  Stream stream;
  std::array<Graph, kMaxSlots> recorded{};
};

struct TwinEntry {
  Pipeline::TwinMaker make;
  std::vector<Replica> replicas;  // 1 .. kMaxReplicas (one: a temporal twin keeping its frames)
  std::string name;               // the feature family, for messages
  bool temporal = false;
  FeatureWriter* out = nullptr;
  // Whether its frames read the previous frame's slot (set at init).
  bool reads_previous = false;
  // The replica that computes the frames of slot k.
  [[nodiscard]] Replica& of_slot(unsigned k) { return replicas[k % replicas.size()]; }
};

// Where one plane lives in a slot's staging and device memory.
struct PlaneLayout {
  std::size_t row_bytes = 0;
  unsigned rows = 0;
  std::size_t staging_offset = 0;  // packed rows: pitch = row_bytes
  std::size_t device_offset = 0;
  std::size_t device_pitch = 0;
};

// Where the upload reads one plane from: the picture's rows when they are
// pinned, else the slot's staging memory.
struct UploadSource {
  const std::uint8_t* rows = nullptr;
  std::size_t pitch = 0;
};

// A slot's hold on a frame of a SharedReference: the frame's memory is not
// reused (nor the share freed) while held. Made under the share's mutex
// (the count is raised there); let go of without it.
class SharedHold {
 public:
  SharedHold() = default;
  SharedHold(std::shared_ptr<SharedReference> share, SharedFrame* frame)
      : share_(std::move(share)), frame_(frame) {}
  SharedHold(SharedHold&& o) noexcept
      : share_(std::move(o.share_)), frame_(std::exchange(o.frame_, nullptr)) {}
  SharedHold& operator=(SharedHold&& o) noexcept {
    if (this != &o) {
      reset();
      share_ = std::move(o.share_);
      frame_ = std::exchange(o.frame_, nullptr);
    }
    return *this;
  }
  ~SharedHold() { reset(); }
  void reset() {
    if (frame_ != nullptr) {
      const std::lock_guard<std::mutex> lock(share_->mutex);
      --frame_->holders;
      frame_ = nullptr;
    }
    share_.reset();
  }
  [[nodiscard]] SharedFrame* frame() const { return frame_; }

 private:
  std::shared_ptr<SharedReference> share_;
  SharedFrame* frame_ = nullptr;
};

struct Slot {
  PinnedBuffer<std::uint8_t> staging;
  std::array<UploadSource, 6> sources{};  // per layout_ entry, this frame's
  // The frame's pictures while the upload reads them directly; let go once
  // `uploaded` has happened.
  std::shared_ptr<const void> pictures;
  DeviceBuffer<std::uint8_t> planes;
  DeviceFrame frame;
  // This frame's reference in a SharedReference (its planes are read from
  // there), and whether another pipeline uploaded it (the twins then wait
  // for its event besides `uploaded`).
  SharedHold shared_ref;
  bool ref_elsewhere = false;
  Event uploaded;
  std::vector<Event> done;  // per twin
  bool busy = false;
  unsigned index = 0;
  bool sampled = false;
};

class DevicePipeline final : public Pipeline, private Resources {
 public:
  DevicePipeline(DeviceInfo info)
      : info_(std::move(info)),
        where_(std::string(vendor::kBackendName) + ":" + std::to_string(info_.index) + " (" +
               info_.name + ")") {}

  Status create_streams() {
    return step("opening the device", [&]() -> Status {
      VQX_ASSIGN_OR_RETURN(upload_stream_, Stream::create());
      return Status::Ok();
    });
  }

  ~DevicePipeline() override { wait_all(); }

  [[nodiscard]] std::string backend() const override { return vendor::kBackendName; }

  [[nodiscard]] std::string description() const override {
    return std::string(vendor::kBackendName) + ":" + std::to_string(info_.index) + " " +
           info_.name + ", " + std::to_string(info_.multiprocessors) + " multiprocessors, warp " +
           std::to_string(info_.warp_size);
  }

  void add(const TwinMaker& make, std::string name, bool temporal, FeatureWriter& out) override {
    TwinEntry t{make, {}, std::move(name), temporal, &out};
    t.replicas.push_back({make(), Stream(), {}});
    twins_.push_back(std::move(t));
  }

  [[nodiscard]] bool empty() const override { return twins_.empty(); }

  void share_reference(std::shared_ptr<SharedReference> share) override {
    share_ = std::move(share);
  }

  [[nodiscard]] Expected<Picture> make_picture(const PictureFormat& fmt) const override {
    // The device current on this thread for the allocation (so that no
    // other device's runtime context is started for it); the memory is
    // pinned for every device. Nothing of the pipeline's state is touched:
    // the readers' threads call this while the context's thread submits.
    if (use_device(info_.index).ok()) {
      auto pinned = detail::PictureInternals::make_in(fmt, pinned_plane_memory());
      if (pinned.ok() || pinned.status().code() != Errc::kLimit) return pinned;
    }
    // No pinned memory to be had (the process's limit, or a failing
    // device): an ordinary picture, staged at its submit. Slower, the same
    // numbers; a device error shows at the next submit.
    return Picture::make(fmt);
  }

  [[nodiscard]] const PlaneMemory* picture_memory() const override {
    return &pinned_plane_memory();
  }

  [[nodiscard]] UploadStats upload_stats() const override { return stats_; }

  Status init(const PictureFormat& fmt) override {
    VQX_RETURN_IF_ERROR(step("selecting the device", [&] { return use_device(info_.index); }));
    const std::string size = std::to_string(fmt.width) + "x" + std::to_string(fmt.height);
    VQX_RETURN_IF_ERROR(step("allocating the frame slots for " + size + " pictures",
                             [&] { return init_slots(fmt); }));
    // Batches share the reference before the first frame (batch.cpp), so
    // whether the slots keep the previous frame is known here.
    keep_previous_ = !share_;
    for (auto& t : twins_) {
      VQX_RETURN_IF_ERROR(step("setting up " + t.name + " for " + size + " pictures",
                               [&] { return init_replica(t.replicas.front(), fmt); }));
      t.reads_previous =
          t.temporal && keep_previous_ && t.replicas.front().twin->reads_previous_frame();
    }
    // The other replicas last, once every twin has its first: the first
    // ones are what the context needs, these only add speed.
    for (auto& t : twins_) {
      const bool overlap =
          (!t.temporal || t.reads_previous) &&
          (is_small_frame(fmt) || t.replicas.front().twin->overlaps_large_frames());
      while (overlap && t.replicas.size() < kMaxReplicas) {
        Replica r{t.make(), Stream(), {}};
        if (!r.twin || !init_replica(r, fmt).ok()) {
          (void)vendor::last_error();  // e.g. out of memory: not a failed pipeline
          break;
        }
        t.replicas.push_back(std::move(r));
      }
    }
    return Status::Ok();
  }

  // Uploads a replica's constant tables (once per name), makes its stream
  // and sets it up.
  Status init_replica(Replica& r, const PictureFormat& fmt) {
    for (const ConstantTable& table : r.twin->constant_tables(fmt)) {
      VQX_RETURN_IF_ERROR(upload_constant(table));
    }
    VQX_ASSIGN_OR_RETURN(r.stream, Stream::create());
    return r.twin->init(fmt, static_cast<unsigned>(slots_.size()), *this);
  }

  // Resources: the constant tables uploaded by init().
  Expected<const void*> constant(const char* name) const override {
    for (const auto& c : constants_) {
      if (c.name == name) return static_cast<const void*>(c.memory.get());
    }
    return Error(Errc::kInternal, std::string("no constant table named ") + name);
  }

  Status submit(const Picture& ref, const Picture& dist, unsigned index, bool sampled,
                const ForkJoin* staging, std::shared_ptr<const void> pictures,
                std::uint64_t reference_frame) override {
    const auto frame = [index] { return "frame " + std::to_string(index); };
    VQX_RETURN_IF_ERROR(step(frame, [&] { return use_device(info_.index); }));
    const unsigned k = index % static_cast<unsigned>(slots_.size());
    Slot& slot = slots_[k];
    if (slot.busy) VQX_RETURN_IF_ERROR(collect(k));
    VQX_RETURN_IF_ERROR(step(frame, [&] { return release_uploaded(); }));
    const std::uint64_t shared_number = share_ ? reference_frame : 0;
    if (shared_number != 0) {
      VQX_RETURN_IF_ERROR(step([&] { return frame() + ", the shared reference"; },
                               [&] { return hold_shared(shared_number, slot); }));
    } else {
      slot.shared_ref.reset();
      slot.ref_elsewhere = false;
    }
    point_ref_planes(slot);
    VQX_RETURN_IF_ERROR(step(frame, [&] { return link_previous(slot, index, k); }));
    const bool direct = stage(ref, dist, slot, staging);
    // Held from before the upload is queued, which reads the pictures' rows
    // (also when queueing a later plane fails: the slot goes only after
    // the stream is synchronised).
    if (direct) slot.pictures = std::move(pictures);
    VQX_RETURN_IF_ERROR(step([&] { return frame() + ", upload"; },
                             [&] { return upload_frame(slot, shared_number); }));
    if (slot.ref_elsewhere) ++stats_.refs_shared;
    for (std::size_t n = 0; n < twins_.size(); ++n) {
      TwinEntry& t = twins_[n];
      if (!t.temporal && !sampled) continue;
      VQX_RETURN_IF_ERROR(step([&] { return frame() + ", " + t.name; },
                               [&]() -> Status {
                                 Replica& r = t.of_slot(k);
                                 VQX_RETURN_IF_ERROR(slot.uploaded.make_wait(r.stream));
                                 if (slot.ref_elsewhere) {
                                   VQX_RETURN_IF_ERROR(
                                       slot.shared_ref.frame()->uploaded.make_wait(r.stream));
                                 }
                                 VQX_RETURN_IF_ERROR(queue_frame(t, r, slot, index, k));
                                 return slot.done[n].record(r.stream);
                               }));
    }
    slot.busy = true;
    slot.index = index;
    slot.sampled = sampled;
    return Status::Ok();
  }

  Status finish() override {
    VQX_RETURN_IF_ERROR(step("finishing", [&] { return use_device(info_.index); }));
    for (;;) {  // the busy slots, oldest frame first
      Slot* oldest = nullptr;
      for (auto& s : slots_) {
        if (s.busy && (oldest == nullptr || s.index < oldest->index)) oldest = &s;
      }
      if (oldest == nullptr) break;
      VQX_RETURN_IF_ERROR(collect(static_cast<unsigned>(oldest - slots_.data())));
    }
    share_.reset();  // every frame collected: no more uploads to share
    for (auto& t : twins_) {
      for (auto& r : t.replicas) {
        VQX_RETURN_IF_ERROR(step("finishing " + t.name, [&] { return r.twin->flush(*t.out); }));
      }
    }
    return Status::Ok();
  }

 private:
  // Runs one step of the protocol. The first failure is kept; a device
  // error is named by the device and the step (other errors, such as a
  // picture too small for a feature, read as they do on the CPU). The
  // pipeline then frees its device memory at once and every later call
  // returns that same error: no half-set-up pipeline is used again, and a
  // failed context holds no device memory.
  // `name` is the step's text or, on the per-frame paths, a function giving
  // it (built only on failure).
  template <typename N, typename F>
  Status step(const N& name, F&& f) {
    if (failed_code_ != Errc::kOk) return Error(failed_code_, failed_message_);
    Status s = f();
    if (s.ok()) return s;
    failed_code_ = s.code();
    if (s.code() != Errc::kDevice) {
      failed_message_ = s.message();
    } else if constexpr (std::is_invocable_v<const N&>) {
      failed_message_ = where_ + ": " + name() + ": " + s.message();
    } else {
      failed_message_ = where_ + ": " + std::string(name) + ": " + s.message();
    }
    wait_all();
    for (auto& t : twins_) t.replicas = std::vector<Replica>();
    slots_ = std::vector<Slot>();
    share_.reset();  // a failed context holds no device memory, shared or not
    // Not constants_.clear(): the contract check would read a queued clear.
    constants_ = std::vector<Constant>();
    return Error(failed_code_, failed_message_);
  }

  // Nothing may still run on memory about to be freed. Errors are ignored:
  // this runs on the way out.
  void wait_all() {
    if (!use_device(info_.index).ok()) return;
    (void)upload_stream_.synchronize();
    for (const auto& t : twins_) {
      for (const auto& r : t.replicas) (void)r.stream.synchronize();
    }
  }

  // The slots' staging and device memory, events and plane views.
  Status init_slots(const PictureFormat& fmt) {
    fmt_ = fmt;
    planes_ = 1;
    for (const auto& t : twins_) {
      planes_ = std::max(planes_, t.replicas.front().twin->planes_needed(fmt));
    }
    planes_ = std::min(planes_, fmt.plane_count());

    // Layout: ref planes then dist planes, in one allocation per slot.
    std::size_t staging = 0;
    std::size_t device = 0;
    layout_ = std::vector<PlaneLayout>();
    for (unsigned side = 0; side < 2; ++side) {
      for (unsigned p = 0; p < planes_; ++p) {
        PlaneLayout l;
        l.row_bytes = std::size_t{fmt.plane_width(p)} * fmt.bytes_per_sample();
        l.rows = fmt.plane_height(p);
        l.staging_offset = staging;
        l.device_pitch = round_up(l.row_bytes, kDevicePitchAlign);
        l.device_offset = device;
        staging += l.row_bytes * l.rows;
        device += l.device_pitch * l.rows;
        layout_.push_back(l);
      }
    }
    slots_ = std::vector<Slot>(frame_slots(fmt));
    for (auto& s : slots_) {
      VQX_ASSIGN_OR_RETURN(s.staging, PinnedBuffer<std::uint8_t>::allocate(staging));
      VQX_ASSIGN_OR_RETURN(s.planes, DeviceBuffer<std::uint8_t>::allocate(device));
      VQX_ASSIGN_OR_RETURN(s.uploaded, Event::create());
      s.done = std::vector<Event>();
      for (std::size_t t = 0; t < twins_.size(); ++t) {
        VQX_ASSIGN_OR_RETURN(auto e, Event::create());
        s.done.push_back(std::move(e));
      }
      s.frame.format = fmt;
      s.frame.planes = planes_;
      for (unsigned side = 0; side < 2; ++side) {
        for (unsigned p = 0; p < planes_; ++p) {
          const PlaneLayout& l = layout_[side * planes_ + p];
          DevicePlane dp{s.planes.get() + l.device_offset, l.device_pitch, fmt.plane_width(p),
                         fmt.plane_height(p)};
          (side == 0 ? s.frame.ref : s.frame.dist)[p] = dp;
        }
      }
      s.busy = false;
    }
    return Status::Ok();
  }

  // Queues a replica's clears and kernels on the frame in slot k. A twin
  // that is not temporal queues the same work for every frame of a slot
  // (twin.hpp), so that work is recorded at the slot's first frame and
  // replayed after: one launch instead of the dozens of calls that made
  // the host's queueing about half of a frame of the 18 features at 1080p
  // (docs/gpu.md, "Recorded frames"). Not with a shared reference, whose
  // frames' reference planes move from frame to frame.
  Status queue_frame(const TwinEntry& t, Replica& r, const Slot& slot, unsigned index, unsigned k) {
    const auto queue = [&]() -> Status {
      VQX_RETURN_IF_ERROR(r.twin->clear(r.stream));
      return r.twin->launch(slot.frame, index, k, r.stream);
    };
    if (t.temporal || share_) return queue();
    Graph& recorded = r.recorded[k];
    if (!recorded) {
      VQX_ASSIGN_OR_RETURN(recorded, Graph::record(r.stream, queue));
    }
    return recorded.launch(r.stream);
  }

  // Points frame `index` (in slot k) at the frame before it, and keeps the
  // upload into slot k from overwriting frame index - S while frame index
  // - S + 1 (slot k + 1) may still read it.
  Status link_previous(Slot& slot, unsigned index, unsigned k) {
    slot.frame.previous = nullptr;
    if (!keep_previous_) return Status::Ok();
    const auto count = static_cast<unsigned>(slots_.size());
    const Slot& before = slots_[(k + count - 1) % count];
    if (index > 0) {
      if (before.index + 1 != index) {
        return Error(Errc::kInternal, "frame " + std::to_string(index) + " submitted after frame " +
                                          std::to_string(before.index));
      }
      slot.frame.previous = &before.frame;
    }
    const Slot& after = slots_[(k + 1) % count];
    for (std::size_t n = 0; n < twins_.size(); ++n) {
      // An event never recorded (no such frame yet) is no wait.
      if (twins_[n].reads_previous) VQX_RETURN_IF_ERROR(after.done[n].make_wait(upload_stream_));
    }
    return Status::Ok();
  }

  // Lets go of the pictures of every slot whose upload has happened.
  Status release_uploaded() {
    for (auto& s : slots_) {
      if (!s.pictures) continue;
      VQX_ASSIGN_OR_RETURN(const bool happened, s.uploaded.happened());
      if (happened) s.pictures.reset();
    }
    return Status::Ok();
  }

  // Waits for the slot's frame and hands its results to the twins.
  Status collect(unsigned k) {
    Slot& slot = slots_[k];
    slot.busy = false;
    const auto frame = [&slot] { return "frame " + std::to_string(slot.index); };
    // The upload is done before the slot's staging memory is written again
    // or its pictures are let go (a frame that no twin computed, not
    // sampled, was uploaded all the same, and no twin's event covers it).
    VQX_RETURN_IF_ERROR(
        step([&] { return frame() + ", upload"; }, [&] { return slot.uploaded.synchronize(); }));
    slot.pictures.reset();
    for (std::size_t n = 0; n < twins_.size(); ++n) {
      TwinEntry& t = twins_[n];
      if (!t.temporal && !slot.sampled) continue;
      VQX_RETURN_IF_ERROR(step([&] { return frame() + ", " + t.name; },
                               [&]() -> Status {
                                 VQX_RETURN_IF_ERROR(slot.done[n].synchronize());
                                 return t.of_slot(k).twin->collect(k, slot.index, *t.out);
                               }));
    }
    // Every twin that read the shared reference frame has finished.
    slot.shared_ref.reset();
    return Status::Ok();
  }

  // Holds the share's frame `number` for `slot`: one already uploaded (or
  // being uploaded) by another pipeline, or a free one (or a new one) that
  // this pipeline's upload fills (numbered once queued: upload_frame).
  Status hold_shared(std::uint64_t number, Slot& slot) {
    slot.shared_ref.reset();  // (none here: collected or never held) not under the lock
    const std::lock_guard<std::mutex> lock(share_->mutex);
    SharedFrame* reuse = nullptr;
    for (const auto& f : share_->frames) {
      if (f->device != info_.index || !(f->format == fmt_) || f->planes != planes_) continue;
      if (f->number == number) {
        ++f->holders;
        slot.shared_ref = SharedHold(share_, f.get());
        slot.ref_elsewhere = true;
        return Status::Ok();
      }
      if (f->holders == 0 && (reuse == nullptr || f->number < reuse->number)) reuse = f.get();
    }
    if (reuse == nullptr) {
      auto f = std::make_unique<SharedFrame>();
      f->device = info_.index;
      f->format = fmt_;
      f->planes = planes_;
      VQX_ASSIGN_OR_RETURN(f->memory,
                           DeviceBuffer<std::uint8_t>::allocate(layout_[planes_].device_offset));
      VQX_ASSIGN_OR_RETURN(f->uploaded, Event::create());
      share_->frames.push_back(std::move(f));
      reuse = share_->frames.back().get();
    }
    reuse->number = 0;  // not to be found until its copy is queued
    ++reuse->holders;
    slot.shared_ref = SharedHold(share_, reuse);
    slot.ref_elsewhere = false;
    return Status::Ok();
  }

  // The slot's frame reads its reference planes from the shared frame it
  // holds, else from its own memory.
  void point_ref_planes(Slot& slot) {
    std::uint8_t* base =
        slot.shared_ref.frame() ? slot.shared_ref.frame()->memory.get() : slot.planes.get();
    for (unsigned p = 0; p < planes_; ++p) slot.frame.ref[p].data = base + layout_[p].device_offset;
  }

  // Chooses where the upload reads each needed plane from: a plane in this
  // backend's pinned memory straight from the picture, any other from the
  // slot's staging memory, after a host copy of its rows there (shared
  // among the fork-join's helpers when there are any). True when a plane
  // is read straight from a picture (the slot must then hold them).
  bool stage(const Picture& ref, const Picture& dist, Slot& slot, const ForkJoin* fork_join) {
    struct Part {
      const Plane* plane;
      const PlaneLayout* layout;
    };
    std::array<Part, 6> parts{};  // the planes to stage
    unsigned part_count = 0;
    std::uint8_t* base = slot.staging.get();
    for (unsigned side = slot.ref_elsewhere ? 1 : 0; side < 2; ++side) {
      for (unsigned p = 0; p < planes_; ++p) {
        const unsigned i = side * planes_ + p;
        const Plane& plane = (side == 0 ? ref : dist).plane(p);
        const PlaneLayout& l = layout_[i];
        if (plane.memory() == &pinned_plane_memory()) {
          slot.sources[i] = {plane.data(), plane.stride_bytes()};
        } else {
          slot.sources[i] = {base + l.staging_offset, l.row_bytes};
          parts[part_count++] = {&plane, &l};
        }
      }
    }
    const unsigned needed = (slot.ref_elsewhere ? 1 : 2) * planes_;
    stats_.planes_direct += needed - part_count;
    stats_.planes_staged += part_count;
    ++(part_count == 0 ? stats_.frames_direct : stats_.frames_staged);

    auto copy_rows = [&](unsigned part, unsigned y0, unsigned y1) {
      const Part& pt = parts[part];
      std::uint8_t* dst = base + pt.layout->staging_offset;
      for (unsigned y = y0; y < y1; ++y) {
        std::memcpy(dst + y * pt.layout->row_bytes, pt.plane->row<std::uint8_t>(y),
                    pt.layout->row_bytes);
      }
    };
    const unsigned helpers = fork_join == nullptr ? 0 : fork_join->helpers();
    std::size_t total_rows = 0;
    for (unsigned i = 0; i < part_count; ++i) total_rows += parts[i].layout->rows;
    const unsigned jobs =
        static_cast<unsigned>(std::min<std::size_t>(helpers, total_rows / (2 * kRowsPerJob)));
    if (jobs == 0) {
      for (unsigned i = 0; i < part_count; ++i) copy_rows(i, 0, parts[i].layout->rows);
    } else {
      // jobs + 1 shares (the caller takes one), each a fixed range of every part.
      const unsigned shares = jobs + 1;
      auto run_share = [&](unsigned share) {
        for (unsigned i = 0; i < part_count; ++i) {
          const unsigned rows = parts[i].layout->rows;
          copy_rows(i, rows * share / shares, rows * (share + 1) / shares);
        }
      };
      fork_join->run(jobs, run_share);
    }
    return part_count < needed;
  }

  // Uploads (or builds) a constant table once per context (before any frame).
  Status upload_constant(const ConstantTable& table) {
    for (const auto& c : constants_) {
      if (c.name == table.name) return Status::Ok();
    }
    Constant c;
    c.name = table.name;
    if (table.host == nullptr) {
      // Built on the device, and optional (twin.hpp): left out where there
      // is no memory for it.
      auto memory = DeviceBuffer<std::uint8_t>::allocate(table.bytes);
      if (!memory.ok()) {
        (void)vendor::last_error();
        return Status::Ok();
      }
      c.memory = std::move(memory).value();
      VQX_RETURN_IF_ERROR(table.build(c.memory.get(), upload_stream_));
      VQX_RETURN_IF_ERROR(upload_stream_.synchronize());
      constants_.push_back(std::move(c));
      return Status::Ok();
    }
    VQX_ASSIGN_OR_RETURN(c.memory, DeviceBuffer<std::uint8_t>::allocate(table.bytes));
    VQX_ASSIGN_OR_RETURN(auto staging, PinnedBuffer<std::uint8_t>::allocate(table.bytes));
    std::memcpy(staging.get(), table.host, table.bytes);
    VQX_RETURN_IF_ERROR(upload_rows_async(c.memory.get(), table.bytes, staging.get(), table.bytes,
                                          table.bytes, 1, upload_stream_));
    VQX_RETURN_IF_ERROR(upload_stream_.synchronize());
    constants_.push_back(std::move(c));
    return Status::Ok();
  }

  // The upload: every needed plane of ref and dist, once, for all twins,
  // from where stage() chose (pinned memory either way). The reference
  // planes go to the shared frame the slot holds, if any (none when another
  // pipeline uploaded it), which is then numbered `shared_number`.
  Status upload_frame(Slot& slot, std::uint64_t shared_number) {
    SharedFrame* shared = slot.shared_ref.frame();
    for (std::size_t i = slot.ref_elsewhere ? planes_ : 0; i < layout_.size(); ++i) {
      const PlaneLayout& l = layout_[i];
      const UploadSource& src = slot.sources[i];
      std::uint8_t* base = i < planes_ && shared ? shared->memory.get() : slot.planes.get();
      VQX_RETURN_IF_ERROR(upload_rows_async(base + l.device_offset, l.device_pitch, src.rows,
                                            src.pitch, l.row_bytes, l.rows, upload_stream_));
      if (i + 1 == planes_ && shared) {
        VQX_RETURN_IF_ERROR(shared->uploaded.record(upload_stream_));
        const std::lock_guard<std::mutex> lock(share_->mutex);
        shared->number = shared_number;
      }
    }
    return slot.uploaded.record(upload_stream_);
  }

  struct Constant {
    std::string name;
    DeviceBuffer<std::uint8_t> memory;
  };

  DeviceInfo info_;
  std::string where_;  // "cuda:0 (NVIDIA H200)": every error starts with it
  // The first failure; every later call returns it. (Not a Status member:
  // nvcc warns on assigning a [[nodiscard]] class.)
  Errc failed_code_ = Errc::kOk;
  std::string failed_message_;
  std::vector<Constant> constants_;  // before the twins: they use them
  Stream upload_stream_;
  std::vector<TwinEntry> twins_;  // each with its replicas' compute streams
  PictureFormat fmt_;
  unsigned planes_ = 1;
  std::vector<PlaneLayout> layout_;
  std::shared_ptr<SharedReference> share_;
  // Whether frames are given the one before (DeviceFrame::previous): no
  // shared reference (init()).
  bool keep_previous_ = false;
  std::vector<Slot> slots_;  // frame_slots() of the format, from init()
  UploadStats stats_;
};

}  // namespace

Expected<std::unique_ptr<Pipeline>> Pipeline::open(unsigned device) {
  auto info = select_device(device);
  if (!info.ok()) {
    return Error(info.status().code(), std::string(vendor::kBackendName) + ":" +
                                           std::to_string(device) +
                                           ": opening the device: " + info.status().message());
  }
  auto p = std::make_unique<DevicePipeline>(std::move(info).value());
  VQX_RETURN_IF_ERROR(p->create_streams());
  return std::unique_ptr<Pipeline>(std::move(p));
}

}  // namespace vqx::gpu
