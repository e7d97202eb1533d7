// The device runtime as VQX's GPU code sees it: errors turned into statuses,
// owning (RAII, move-only) streams, events and buffers, device selection and
// information, and the three stream operations the frame protocol is made
// of: upload (host to device, only the pipeline's frame upload), clear
// (memset on a stream) and readback (device to host). Included by GPU
// sources only; the rest of VQX sees src/gpu/pipeline.hpp.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <utility>

#include "gpu/vendor.hpp"
#include "vqx/picture.hpp"
#include "vqx/status.hpp"

namespace vqx::gpu {

// Ok, or a kDevice status: `what` and the vendor's message (the pipeline
// adds the device and the step).
Status check(vendor::Error e, const char* what);
// The last launch's error, if any, as a status naming `kernel`.
Status check_launch(const char* kernel);

struct DeviceInfo {
  unsigned index = 0;
  std::string name;
  unsigned warp_size = 32;  // 32 on NVIDIA, 64 on most AMD parts
  unsigned multiprocessors = 0;
  std::size_t memory_bytes = 0;
  int major = 0;
  int minor = 0;
};

// Devices visible to this process (0 when the runtime finds none).
unsigned device_count();
// Makes `index` the calling thread's device and describes it.
Expected<DeviceInfo> select_device(unsigned index);
// Makes `index` the calling thread's device (cheap; called at every entry
// point, since the current device is per thread and contexts may be used
// from any thread).
Status use_device(unsigned index);

class Stream {
 public:
  Stream() = default;
  static Expected<Stream> create();
  ~Stream();
  Stream(Stream&& o) noexcept : h_(std::exchange(o.h_, nullptr)) {}
  Stream& operator=(Stream&& o) noexcept;
  Stream(const Stream&) = delete;
  Stream& operator=(const Stream&) = delete;
  [[nodiscard]] vendor::StreamHandle handle() const { return h_; }
  Status synchronize() const;

 private:
  vendor::StreamHandle h_ = nullptr;
};

class Event {
 public:
  Event() = default;
  static Expected<Event> create(bool timing = false);
  ~Event();
  Event(Event&& o) noexcept : h_(std::exchange(o.h_, nullptr)) {}
  Event& operator=(Event&& o) noexcept;
  Event(const Event&) = delete;
  Event& operator=(const Event&) = delete;
  [[nodiscard]] vendor::EventHandle handle() const { return h_; }
  Status record(const Stream& s) const;
  Status synchronize() const;
  // Whether the event has happened (without waiting).
  Expected<bool> happened() const;
  // `s` waits (on the device) until this event has happened.
  Status make_wait(const Stream& s) const;

 private:
  vendor::EventHandle h_ = nullptr;
};

// A stream's work recorded once and replayed (a CUDA or HIP graph): one
// launch queues what took dozens of calls, and the device runs the
// recorded kernels back to back. The pipeline records each slot's frame of
// a twin that is not temporal (pipeline.cu).
class Graph {
 public:
  Graph() = default;
  // Records what `queue` queues on `s` from this thread; none of it runs.
  // `s` is out of recording again whatever happens; an error from `queue`
  // is returned as it is.
  static Expected<Graph> record(const Stream& s, const std::function<Status()>& queue);
  ~Graph();
  Graph(Graph&& o) noexcept : h_(std::exchange(o.h_, nullptr)) {}
  Graph& operator=(Graph&& o) noexcept;
  Graph(const Graph&) = delete;
  Graph& operator=(const Graph&) = delete;
  [[nodiscard]] explicit operator bool() const { return h_ != nullptr; }
  // Queues the recorded work on `s` (a launch, for the fault injection).
  Status launch(const Stream& s) const;

 private:
  vendor::GraphHandle h_ = nullptr;
};

// Untyped owning allocations; the typed views below add element counts.
class RawDeviceMemory {
 public:
  RawDeviceMemory() = default;
  static Expected<RawDeviceMemory> allocate(std::size_t bytes);
  ~RawDeviceMemory();
  RawDeviceMemory(RawDeviceMemory&& o) noexcept
      : p_(std::exchange(o.p_, nullptr)), bytes_(std::exchange(o.bytes_, 0)) {}
  RawDeviceMemory& operator=(RawDeviceMemory&& o) noexcept;
  RawDeviceMemory(const RawDeviceMemory&) = delete;
  RawDeviceMemory& operator=(const RawDeviceMemory&) = delete;
  [[nodiscard]] void* get() const { return p_; }
  [[nodiscard]] std::size_t bytes() const { return bytes_; }

 private:
  void* p_ = nullptr;
  std::size_t bytes_ = 0;
};

class RawPinnedMemory {
 public:
  RawPinnedMemory() = default;
  static Expected<RawPinnedMemory> allocate(std::size_t bytes);
  ~RawPinnedMemory();
  RawPinnedMemory(RawPinnedMemory&& o) noexcept
      : p_(std::exchange(o.p_, nullptr)), bytes_(std::exchange(o.bytes_, 0)) {}
  RawPinnedMemory& operator=(RawPinnedMemory&& o) noexcept;
  RawPinnedMemory(const RawPinnedMemory&) = delete;
  RawPinnedMemory& operator=(const RawPinnedMemory&) = delete;
  [[nodiscard]] void* get() const { return p_; }
  [[nodiscard]] std::size_t bytes() const { return bytes_; }

 private:
  void* p_ = nullptr;
  std::size_t bytes_ = 0;
};

// A device array of `count` T.
template <typename T>
class DeviceBuffer {
 public:
  DeviceBuffer() = default;
  static Expected<DeviceBuffer> allocate(std::size_t count) {
    auto m = RawDeviceMemory::allocate(count * sizeof(T));
    if (!m.ok()) return m.status();
    DeviceBuffer b;
    b.mem_ = std::move(m).value();
    b.count_ = count;
    return Expected<DeviceBuffer>(std::move(b));
  }
  [[nodiscard]] T* get() const { return static_cast<T*>(mem_.get()); }
  [[nodiscard]] std::size_t size() const { return count_; }
  [[nodiscard]] std::size_t bytes() const { return count_ * sizeof(T); }

 private:
  RawDeviceMemory mem_;
  std::size_t count_ = 0;
};

// A page-locked host array of `count` T (the staging and readback memory).
template <typename T>
class PinnedBuffer {
 public:
  PinnedBuffer() = default;
  static Expected<PinnedBuffer> allocate(std::size_t count) {
    auto m = RawPinnedMemory::allocate(count * sizeof(T));
    if (!m.ok()) return m.status();
    PinnedBuffer b;
    b.mem_ = std::move(m).value();
    b.count_ = count;
    return Expected<PinnedBuffer>(std::move(b));
  }
  [[nodiscard]] T* get() const { return static_cast<T*>(mem_.get()); }
  [[nodiscard]] std::size_t size() const { return count_; }
  [[nodiscard]] std::size_t bytes() const { return count_ * sizeof(T); }
  T& operator[](std::size_t i) const { return get()[i]; }

 private:
  RawPinnedMemory mem_;
  std::size_t count_ = 0;
};

// This backend's pinned host memory for picture planes, pinned for every
// device (PlaneMemory, vqx/picture.hpp): one object for the process, whose
// address marks a plane the upload may read directly.
const PlaneMemory& pinned_plane_memory();

// The clear: `bytes` of device memory set to zero on `s`. A twin queues its
// clears in Twin::clear(), every frame, after the frame's upload.
Status clear_async(void* device_ptr, std::size_t bytes, const Stream& s);
template <typename T>
Status clear_async(const DeviceBuffer<T>& b, const Stream& s) {
  return clear_async(b.get(), b.bytes(), s);
}

// The readback: device to pinned host memory on `s`.
Status copy_to_host_async(void* host_dst, const void* device_src, std::size_t bytes,
                          const Stream& s);

// A device-to-device copy of rows (a twin keeping a frame's plane for the
// next one: no host memory is involved, so it is not an upload).
Status copy_rows_on_device_async(void* dst, std::size_t dst_pitch, const void* src,
                                 std::size_t src_pitch, std::size_t row_bytes, std::size_t rows,
                                 const Stream& s);

// The upload: pinned host rows to device rows on `s`. Only the pipeline's
// frame upload calls it (ARCHITECTURE.md invariant 3).
Status upload_rows_async(void* dst, std::size_t dst_pitch, const void* pinned_src,
                         std::size_t src_pitch, std::size_t row_bytes, std::size_t rows,
                         const Stream& s);

}  // namespace vqx::gpu
