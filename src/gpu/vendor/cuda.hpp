// The CUDA runtime, as VQX uses it. With hip.hpp beside it, the only files
// that name a vendor function or type: everything else calls these wrappers,
// so one GPU source builds as CUDA or as HIP (ggml-cuda's one-header rule).
#pragma once

#include <cuda.h>  // the driver API's types (device_of_native_context)
#include <cuda_runtime.h>

#include <cstddef>

namespace vqx::gpu::vendor {

using Error = cudaError_t;
using StreamHandle = cudaStream_t;
using EventHandle = cudaEvent_t;
using GraphHandle = cudaGraphExec_t;
inline constexpr Error kSuccess = cudaSuccess;
inline constexpr Error kNotReady = cudaErrorNotReady;
// What an allocation that does not fit, and a kernel that faults, report
// (the GPU fault tests inject them: docs/reliability.md).
inline constexpr Error kOutOfMemory = cudaErrorMemoryAllocation;
inline constexpr Error kLaunchFailure = cudaErrorLaunchFailure;
inline constexpr const char* kBackendName = "cuda";

inline const char* error_string(Error e) { return cudaGetErrorString(e); }
inline Error last_error() { return cudaGetLastError(); }

struct DeviceProps {
  char name[256];
  int warp_size;
  int multiprocessors;
  std::size_t global_memory;
  int major;
  int minor;
};

inline Error device_count(int* n) { return cudaGetDeviceCount(n); }
inline Error set_device(int d) { return cudaSetDevice(d); }
inline Error memory_info(std::size_t* free_bytes, std::size_t* total_bytes) {
  return cudaMemGetInfo(free_bytes, total_bytes);
}
inline Error device_props(int d, DeviceProps* out) {
  cudaDeviceProp p{};
  const Error e = cudaGetDeviceProperties(&p, d);
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

// The device of a driver API context (a CUcontext: what programs that drive
// CUDA themselves hold, libvmaf_cuda.h's cu_ctx). The driver's functions
// are looked up through the runtime, so that VQX does not link the driver
// library (a CUDA build still loads on a machine without the driver).
inline Error device_of_native_context(void* handle, int* device) {
  void* push = nullptr;
  void* get = nullptr;
  void* pop = nullptr;
  const struct {
    const char* name;
    void** fn;
  } wanted[] = {{"cuCtxPushCurrent", &push}, {"cuCtxGetDevice", &get}, {"cuCtxPopCurrent", &pop}};
  for (const auto& w : wanted) {
    cudaDriverEntryPointQueryResult found{};
    const Error e = cudaGetDriverEntryPointByVersion(w.name, w.fn, 12000, cudaEnableDefault, &found);
    if (e != cudaSuccess) return e;
    if (found != cudaDriverEntryPointSuccess) return cudaErrorSymbolNotFound;
  }
  if (reinterpret_cast<CUresult (*)(CUcontext)>(push)(static_cast<CUcontext>(handle)) !=
      CUDA_SUCCESS) {
    return cudaErrorInvalidValue;
  }
  CUdevice d = 0;
  const CUresult got = reinterpret_cast<CUresult (*)(CUdevice*)>(get)(&d);
  CUcontext popped = nullptr;
  (void)reinterpret_cast<CUresult (*)(CUcontext*)>(pop)(&popped);
  if (got != CUDA_SUCCESS) return cudaErrorInvalidValue;
  *device = d;
  return cudaSuccess;
}

inline Error malloc_device(void** p, std::size_t bytes) { return cudaMalloc(p, bytes); }
inline Error free_device(void* p) { return cudaFree(p); }
inline Error malloc_pinned(void** p, std::size_t bytes) {
  return cudaHostAlloc(p, bytes, cudaHostAllocDefault);
}
inline Error free_pinned(void* p) { return cudaFreeHost(p); }
// Pinned for every device of the process (a context's pictures, whichever
// device the context uses).
inline Error malloc_pinned_portable(void** p, std::size_t bytes) {
  return cudaHostAlloc(p, bytes, cudaHostAllocPortable);
}

inline Error stream_create(StreamHandle* s) {
  return cudaStreamCreateWithFlags(s, cudaStreamNonBlocking);
}
inline Error stream_destroy(StreamHandle s) { return cudaStreamDestroy(s); }
inline Error stream_synchronize(StreamHandle s) { return cudaStreamSynchronize(s); }
inline Error stream_wait_event(StreamHandle s, EventHandle e) {
  return cudaStreamWaitEvent(s, e, 0);
}

inline Error event_create(EventHandle* e, bool timing) {
  // Waiting for an event without timing blocks the thread instead of
  // spinning: the pipeline's waits (a frame's twins, its upload) then leave
  // the core to the readers and the CPU's features, at the same frame rate
  // (docs/gpu.md, "Waiting without spinning").
  return cudaEventCreateWithFlags(
      e, timing ? cudaEventDefault : cudaEventDisableTiming | cudaEventBlockingSync);
}
inline Error event_destroy(EventHandle e) { return cudaEventDestroy(e); }
inline Error event_record(EventHandle e, StreamHandle s) { return cudaEventRecord(e, s); }
inline Error event_synchronize(EventHandle e) { return cudaEventSynchronize(e); }
// kSuccess once the event has happened, kNotReady before.
inline Error event_query(EventHandle e) { return cudaEventQuery(e); }
inline Error event_elapsed_ms(float* ms, EventHandle start, EventHandle stop) {
  return cudaEventElapsedTime(ms, start, stop);
}

// Recording a stream's work as a graph: from this thread only (other
// threads' calls are not disturbed), nothing runs until it is launched.
inline Error begin_capture(StreamHandle s) {
  return cudaStreamBeginCapture(s, cudaStreamCaptureModeThreadLocal);
}
// Ends the recording on `s` and makes what it recorded launchable; *g stays
// null when either step fails.
inline Error end_capture(StreamHandle s, GraphHandle* g) {
  cudaGraph_t recorded = nullptr;
  Error e = cudaStreamEndCapture(s, &recorded);
  if (e == kSuccess) e = cudaGraphInstantiate(g, recorded, 0);
  if (recorded != nullptr) (void)cudaGraphDestroy(recorded);
  return e;
}
inline Error graph_launch(GraphHandle g, StreamHandle s) { return cudaGraphLaunch(g, s); }
inline Error graph_destroy(GraphHandle g) { return cudaGraphExecDestroy(g); }

// Host (pinned) to device, 2-D: the upload. Only the frame upload of the
// pipeline calls it.
inline Error copy_2d_host_to_device_async(void* dst, std::size_t dst_pitch, const void* src,
                                          std::size_t src_pitch, std::size_t row_bytes,
                                          std::size_t rows, StreamHandle s) {
  return cudaMemcpy2DAsync(dst, dst_pitch, src, src_pitch, row_bytes, rows, cudaMemcpyHostToDevice,
                           s);
}
inline Error copy_2d_device_to_device_async(void* dst, std::size_t dst_pitch, const void* src,
                                            std::size_t src_pitch, std::size_t row_bytes,
                                            std::size_t rows, StreamHandle s) {
  return cudaMemcpy2DAsync(dst, dst_pitch, src, src_pitch, row_bytes, rows,
                           cudaMemcpyDeviceToDevice, s);
}
inline Error copy_device_to_host_async(void* dst, const void* src, std::size_t bytes,
                                       StreamHandle s) {
  return cudaMemcpyAsync(dst, src, bytes, cudaMemcpyDeviceToHost, s);
}
// A clear: bytes set to `value` on a stream.
inline Error memset_async(void* p, int value, std::size_t bytes, StreamHandle s) {
  return cudaMemsetAsync(p, value, bytes, s);
}

#if defined(__CUDACC__)
// Device side: the value `delta` lanes down the warp (all lanes take part).
__device__ inline unsigned long long shfl_down(unsigned long long v, int delta) {
  return __shfl_down_sync(0xffffffffu, v, delta);
}
#endif

}  // namespace vqx::gpu::vendor
