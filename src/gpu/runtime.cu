// The device runtime wrappers: every vendor call's error becomes a Status.
#include "gpu/runtime.hpp"

#include "gpu/faults.hpp"

namespace vqx::gpu {

Status check(vendor::Error e, const char* what) {
  if (e == vendor::kSuccess) return Status::Ok();
  // A failed call also leaves its error as the thread's "last error"; left
  // there, the next launch check (perhaps another context's) would report
  // it as its own. Errors that poison the device stay reported anyway.
  (void)vendor::last_error();
  return Error(Errc::kDevice, std::string(what) + ": " + vendor::error_string(e));
}

namespace {
// An injected fault (faults.hpp): the vendor's message for `e`, marked.
Status injected(vendor::Error e, const std::string& what) {
  return Error(Errc::kDevice, what + ": " + vendor::error_string(e) + " (injected)");
}
}  // namespace

Status check_launch(const char* kernel) {
  if (take_fault(FaultPoint::kLaunch)) {
    return injected(vendor::kLaunchFailure, std::string("launching ") + kernel);
  }
  const vendor::Error e = vendor::last_error();
  if (e == vendor::kSuccess) return Status::Ok();
  return Error(Errc::kDevice, std::string("launching ") + kernel + ": " + vendor::error_string(e));
}

unsigned device_count() {
  int n = 0;
  if (vendor::device_count(&n) != vendor::kSuccess) {
    (void)vendor::last_error();  // "no device" must not linger as a sticky error
    return 0;
  }
  return n < 0 ? 0U : static_cast<unsigned>(n);
}

Status use_device(unsigned index) {
  return check(vendor::set_device(static_cast<int>(index)), "selecting the device");
}

Expected<DeviceInfo> select_device(unsigned index) {
  const unsigned n = device_count();
  if (index >= n) {
    return Error(Errc::kDevice, "device " + std::to_string(index) + " does not exist (" +
                                    std::to_string(n) + " present)");
  }
  VQX_RETURN_IF_ERROR(use_device(index));
  vendor::DeviceProps p{};
  VQX_RETURN_IF_ERROR(
      check(vendor::device_props(static_cast<int>(index), &p), "reading the device's properties"));
  DeviceInfo info;
  info.index = index;
  info.name = p.name;
  info.warp_size = static_cast<unsigned>(p.warp_size);
  info.multiprocessors = static_cast<unsigned>(p.multiprocessors);
  info.memory_bytes = p.global_memory;
  info.major = p.major;
  info.minor = p.minor;
  return info;
}

Expected<Stream> Stream::create() {
  Stream s;
  VQX_RETURN_IF_ERROR(check(vendor::stream_create(&s.h_), "creating a stream"));
  return Expected<Stream>(std::move(s));
}
Stream::~Stream() {
  if (h_ != nullptr) (void)vendor::stream_destroy(h_);
}
Stream& Stream::operator=(Stream&& o) noexcept {
  if (this != &o) {
    if (h_ != nullptr) (void)vendor::stream_destroy(h_);
    h_ = std::exchange(o.h_, nullptr);
  }
  return *this;
}
Status Stream::synchronize() const {
  if (take_fault(FaultPoint::kWait))
    return injected(vendor::kLaunchFailure, "waiting for a stream");
  return check(vendor::stream_synchronize(h_), "waiting for a stream");
}

Expected<Event> Event::create(bool timing) {
  Event e;
  VQX_RETURN_IF_ERROR(check(vendor::event_create(&e.h_, timing), "creating an event"));
  return Expected<Event>(std::move(e));
}
Event::~Event() {
  if (h_ != nullptr) (void)vendor::event_destroy(h_);
}
Event& Event::operator=(Event&& o) noexcept {
  if (this != &o) {
    if (h_ != nullptr) (void)vendor::event_destroy(h_);
    h_ = std::exchange(o.h_, nullptr);
  }
  return *this;
}
Status Event::record(const Stream& s) const {
  return check(vendor::event_record(h_, s.handle()), "recording an event");
}
Status Event::synchronize() const {
  if (take_fault(FaultPoint::kWait))
    return injected(vendor::kLaunchFailure, "waiting for an event");
  return check(vendor::event_synchronize(h_), "waiting for an event");
}
Expected<bool> Event::happened() const {
  const vendor::Error e = vendor::event_query(h_);
  if (e == vendor::kNotReady) {
    (void)vendor::last_error();  // not an error: must not linger as one
    return false;
  }
  VQX_RETURN_IF_ERROR(check(e, "asking whether an event has happened"));
  return true;
}
Status Event::make_wait(const Stream& s) const {
  return check(vendor::stream_wait_event(s.handle(), h_), "ordering two streams");
}

Expected<Graph> Graph::record(const Stream& s, const std::function<Status()>& queue) {
  VQX_RETURN_IF_ERROR(check(vendor::begin_capture(s.handle()), "recording a graph"));
  const Status queued = queue();
  Graph g;
  const vendor::Error e = vendor::end_capture(s.handle(), &g.h_);
  if (!queued.ok()) {
    if (e != vendor::kSuccess) (void)vendor::last_error();
    return queued;
  }
  VQX_RETURN_IF_ERROR(check(e, "recording a graph"));
  return Expected<Graph>(std::move(g));
}
Graph::~Graph() {
  if (h_ != nullptr) (void)vendor::graph_destroy(h_);
}
Graph& Graph::operator=(Graph&& o) noexcept {
  if (this != &o) {
    if (h_ != nullptr) (void)vendor::graph_destroy(h_);
    h_ = std::exchange(o.h_, nullptr);
  }
  return *this;
}
Status Graph::launch(const Stream& s) const {
  if (take_fault(FaultPoint::kLaunch)) {
    return injected(vendor::kLaunchFailure, "launching a recorded frame");
  }
  return check(vendor::graph_launch(h_, s.handle()), "launching a recorded frame");
}

Expected<RawDeviceMemory> RawDeviceMemory::allocate(std::size_t bytes) {
  RawDeviceMemory m;
  if (bytes == 0) return Expected<RawDeviceMemory>(std::move(m));
  const std::string what = "allocating " + std::to_string(bytes) + " bytes of device memory";
  if (take_fault(FaultPoint::kAllocation)) return injected(vendor::kOutOfMemory, what);
  VQX_RETURN_IF_ERROR(check(vendor::malloc_device(&m.p_, bytes), what.c_str()));
  m.bytes_ = bytes;
  return Expected<RawDeviceMemory>(std::move(m));
}
RawDeviceMemory::~RawDeviceMemory() {
  if (p_ != nullptr) (void)vendor::free_device(p_);
}
RawDeviceMemory& RawDeviceMemory::operator=(RawDeviceMemory&& o) noexcept {
  if (this != &o) {
    if (p_ != nullptr) (void)vendor::free_device(p_);
    p_ = std::exchange(o.p_, nullptr);
    bytes_ = std::exchange(o.bytes_, 0);
  }
  return *this;
}

Expected<RawPinnedMemory> RawPinnedMemory::allocate(std::size_t bytes) {
  RawPinnedMemory m;
  if (bytes == 0) return Expected<RawPinnedMemory>(std::move(m));
  VQX_RETURN_IF_ERROR(
      check(vendor::malloc_pinned(&m.p_, bytes),
            ("allocating " + std::to_string(bytes) + " bytes of pinned memory").c_str()));
  m.bytes_ = bytes;
  return Expected<RawPinnedMemory>(std::move(m));
}
RawPinnedMemory::~RawPinnedMemory() {
  if (p_ != nullptr) (void)vendor::free_pinned(p_);
}
RawPinnedMemory& RawPinnedMemory::operator=(RawPinnedMemory&& o) noexcept {
  if (this != &o) {
    if (p_ != nullptr) (void)vendor::free_pinned(p_);
    p_ = std::exchange(o.p_, nullptr);
    bytes_ = std::exchange(o.bytes_, 0);
  }
  return *this;
}

namespace {
// Stateless, so one constant object serves every context and thread, and
// needs no destructor at exit (a picture may be freed after main returns).
class PinnedPlaneMemory final : public PlaneMemory {
 public:
  void* allocate(std::size_t bytes) const override {
    void* p = nullptr;
    if (vendor::malloc_pinned_portable(&p, bytes) != vendor::kSuccess) {
      (void)vendor::last_error();  // the caller reports it; nothing may linger
      return nullptr;
    }
    return p;
  }
  void release(void* p) const override {
    // A failure (after a device fault) must not linger as the next call's.
    if (vendor::free_pinned(p) != vendor::kSuccess) (void)vendor::last_error();
  }
};
const PinnedPlaneMemory kPinnedPlaneMemory;
}  // namespace

const PlaneMemory& pinned_plane_memory() { return kPinnedPlaneMemory; }

Status clear_async(void* device_ptr, std::size_t bytes, const Stream& s) {
  return check(vendor::memset_async(device_ptr, 0, bytes, s.handle()), "queueing a clear");
}

Status copy_to_host_async(void* host_dst, const void* device_src, std::size_t bytes,
                          const Stream& s) {
  return check(vendor::copy_device_to_host_async(host_dst, device_src, bytes, s.handle()),
               "queueing a readback");
}

Status copy_rows_on_device_async(void* dst, std::size_t dst_pitch, const void* src,
                                 std::size_t src_pitch, std::size_t row_bytes, std::size_t rows,
                                 const Stream& s) {
  return check(vendor::copy_2d_device_to_device_async(dst, dst_pitch, src, src_pitch, row_bytes,
                                                      rows, s.handle()),
               "queueing a device-to-device copy");
}

Status upload_rows_async(void* dst, std::size_t dst_pitch, const void* pinned_src,
                         std::size_t src_pitch, std::size_t row_bytes, std::size_t rows,
                         const Stream& s) {
  return check(vendor::copy_2d_host_to_device_async(dst, dst_pitch, pinned_src, src_pitch,
                                                    row_bytes, rows, s.handle()),
               "queueing an upload");
}

}  // namespace vqx::gpu
