// The HIP runtime, as VQX uses it. With cuda.hpp beside it, the only files
// that name a vendor function or type: everything else calls these wrappers,
// so one GPU source builds as CUDA or as HIP (ggml-cuda's one-header rule).
#pragma once

#include <hip/hip_runtime.h>

#include <cstddef>

namespace vqx::gpu::vendor {

using Error = hipError_t;
using StreamHandle = hipStream_t;
using EventHandle = hipEvent_t;
using GraphHandle = hipGraphExec_t;
inline constexpr Error kSuccess = hipSuccess;
inline constexpr Error kNotReady = hipErrorNotReady;
// What an allocation that does not fit, and a kernel that faults, report
// (the GPU fault tests inject them: docs/reliability.md).
inline constexpr Error kOutOfMemory = hipErrorOutOfMemory;
inline constexpr Error kLaunchFailure = hipErrorLaunchFailure;
inline constexpr const char* kBackendName = "hip";

inline const char* error_string(Error e) { return hipGetErrorString(e); }
inline Error last_error() { return hipGetLastError(); }

struct DeviceProps {
  char name[256];
  int warp_size;
  int multiprocessors;
  std::size_t global_memory;
  int major;
  int minor;
};

inline Error device_count(int* n) { return hipGetDeviceCount(n); }
inline Error set_device(int d) { return hipSetDevice(d); }
inline Error memory_info(std::size_t* free_bytes, std::size_t* total_bytes) {
  return hipMemGetInfo(free_bytes, total_bytes);
}
inline Error device_props(int d, DeviceProps* out) {
  hipDeviceProp_t p{};
  const Error e = hipGetDeviceProperties(&p, d);
  if (e != kSuccess) return e;
  for (std::size_t i = 0; i < sizeof(out->name); ++i) out->name[i] = p.name[i];
  out->name[sizeof(out->name) - 1] = '\0';
  out->warp_size = p.warpSize;
  out->multiprocessors = p.multiProcessorCount;
  out->global_memory = p.totalGlobalMem;
  out->major = p.major;
  out->minor = p.minor;
  return kSuccess;
}

// libvmaf's driver-context interface is CUDA's alone (libvmaf_cuda.h).
inline Error device_of_native_context(void* /*handle*/, int* /*device*/) {
  return hipErrorNotSupported;
}

inline Error malloc_device(void** p, std::size_t bytes) { return hipMalloc(p, bytes); }
inline Error free_device(void* p) { return hipFree(p); }
inline Error malloc_pinned(void** p, std::size_t bytes) {
  return hipHostMalloc(p, bytes, hipHostMallocDefault);
}
inline Error free_pinned(void* p) { return hipHostFree(p); }
// Pinned for every device of the process (a context's pictures, whichever
// device the context uses).
inline Error malloc_pinned_portable(void** p, std::size_t bytes) {
  return hipHostMalloc(p, bytes, hipHostMallocPortable);
}

inline Error stream_create(StreamHandle* s) {
  return hipStreamCreateWithFlags(s, hipStreamNonBlocking);
}
inline Error stream_destroy(StreamHandle s) { return hipStreamDestroy(s); }
inline Error stream_synchronize(StreamHandle s) { return hipStreamSynchronize(s); }
inline Error stream_wait_event(StreamHandle s, EventHandle e) {
  return hipStreamWaitEvent(s, e, 0);
}

inline Error event_create(EventHandle* e, bool timing) {
  // Waiting for an event without timing blocks the thread instead of
  // spinning: the pipeline's waits (a frame's twins, its upload) then leave
  // the core to the readers and the CPU's features, at the same frame rate
  // (docs/gpu.md, "Waiting without spinning").
  return hipEventCreateWithFlags(
      e, timing ? hipEventDefault : hipEventDisableTiming | hipEventBlockingSync);
}
inline Error event_destroy(EventHandle e) { return hipEventDestroy(e); }
inline Error event_record(EventHandle e, StreamHandle s) { return hipEventRecord(e, s); }
inline Error event_synchronize(EventHandle e) { return hipEventSynchronize(e); }
// kSuccess once the event has happened, kNotReady before.
inline Error event_query(EventHandle e) { return hipEventQuery(e); }
inline Error event_elapsed_ms(float* ms, EventHandle start, EventHandle stop) {
  return hipEventElapsedTime(ms, start, stop);
}

// Recording a stream's work as a graph: from this thread only (other
// threads' calls are not disturbed), nothing runs until it is launched.
inline Error begin_capture(StreamHandle s) {
  return hipStreamBeginCapture(s, hipStreamCaptureModeThreadLocal);
}
// Ends the recording on `s` and makes what it recorded launchable; *g stays
// null when either step fails.
inline Error end_capture(StreamHandle s, GraphHandle* g) {
  hipGraph_t recorded = nullptr;
  Error e = hipStreamEndCapture(s, &recorded);
  if (e == kSuccess) e = hipGraphInstantiate(g, recorded, nullptr, nullptr, 0);
  if (recorded != nullptr) (void)hipGraphDestroy(recorded);
  return e;
}
inline Error graph_launch(GraphHandle g, StreamHandle s) { return hipGraphLaunch(g, s); }
inline Error graph_destroy(GraphHandle g) { return hipGraphExecDestroy(g); }

// Host (pinned) to device, 2-D: the upload. Only the frame upload of the
// pipeline calls it.
inline Error copy_2d_host_to_device_async(void* dst, std::size_t dst_pitch, const void* src,
                                          std::size_t src_pitch, std::size_t row_bytes,
                                          std::size_t rows, StreamHandle s) {
  return hipMemcpy2DAsync(dst, dst_pitch, src, src_pitch, row_bytes, rows, hipMemcpyHostToDevice,
                          s);
}
inline Error copy_2d_device_to_device_async(void* dst, std::size_t dst_pitch, const void* src,
                                            std::size_t src_pitch, std::size_t row_bytes,
                                            std::size_t rows, StreamHandle s) {
  return hipMemcpy2DAsync(dst, dst_pitch, src, src_pitch, row_bytes, rows, hipMemcpyDeviceToDevice,
                          s);
}
inline Error copy_device_to_host_async(void* dst, const void* src, std::size_t bytes,
                                       StreamHandle s) {
  return hipMemcpyAsync(dst, src, bytes, hipMemcpyDeviceToHost, s);
}
// A clear: bytes set to `value` on a stream.
inline Error memset_async(void* p, int value, std::size_t bytes, StreamHandle s) {
  return hipMemsetAsync(p, value, bytes, s);
}

#if defined(__HIPCC__)
// Device side: the value `delta` lanes down the wavefront (all lanes take part).
__device__ inline unsigned long long shfl_down(unsigned long long v, int delta) {
  return __shfl_down(v, static_cast<unsigned>(delta));
}
#endif

}  // namespace vqx::gpu::vendor
