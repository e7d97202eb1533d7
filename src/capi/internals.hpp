// The libvmaf-compatible C API's objects (include/libvmaf/*.h) and the
// helpers its files share. The API is a user of VQX's public C++ API
// (include/vqx) like the CLI: nothing of src/ below it.
#pragma once

#include <atomic>
#include <cerrno>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <memory>
#include <mutex>
#include <new>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "libvmaf/libvmaf.h"
#include "vqx/status.hpp"
#include "vqx/vqx.hpp"

// Key/value pairs in the order they were set (a key set again keeps its
// place and takes the new value).
struct VmafFeatureDictionary {
  std::vector<std::pair<std::string, std::string>> entries;
};

// A model as VQX's model spec gives it ("version=vmaf_v0.6.1:name=vmaf"):
// the spec is checked when the model is loaded or overloaded, and given to
// each context that uses the model.
struct VmafModel {
  std::string name;
  std::string spec;
};

// A bootstrap collection: VQX loads a collection as one model whose scores
// are <name>, <name>_0001.., <name>_bagging, <name>_stddev,
// <name>_ci_p95_lo and <name>_ci_p95_hi.
struct VmafModelCollection {
  std::string name;
  std::string spec;
};

namespace vqx::capi {
struct PicturePool;
}  // namespace vqx::capi

// A picture's reference count. A picture of vmaf_picture_alloc() owns its
// block; one from a pool holds the pool and the pool's own picture, which
// goes back to the pool with the last reference; one of
// vmaf_cuda_fetch_preallocated_picture() holds a picture of its context's
// pool (`held`, whose planes it shows: pinned memory in a GPU context).
struct VmafRef {
  std::atomic<long> count{1};
  void* block = nullptr;
  std::shared_ptr<vqx::capi::PicturePool> pool;
  VmafPicture pooled{};
  std::unique_ptr<vqx::Picture> held;
};

namespace vqx::capi {

// The pictures of vmaf_preallocate_pictures(): made once, handed out by
// vmaf_fetch_preallocated_picture() and given back by their last
// vmaf_picture_unref(). Each picture handed out holds the pool, so a pool
// outlives its context until the last of them is back.
struct PicturePool {
  PicturePool() = default;
  PicturePool(const PicturePool&) = delete;
  PicturePool& operator=(const PicturePool&) = delete;
  ~PicturePool();  // frees the pictures (all are back by then)

  std::mutex lock;
  std::condition_variable available;
  std::vector<VmafPicture> free;  // each from vmaf_picture_alloc()
};

}  // namespace vqx::capi

struct VmafContext {
  VmafConfiguration cfg{};
  std::shared_ptr<vqx::capi::PicturePool> pool;  // vmaf_preallocate_pictures()
  std::unique_ptr<vqx::Context> ctx;
  // libvmaf_cuda.h: the format of vmaf_cuda_preallocate_pictures()'s
  // pictures (empty: none, or its method NONE).
  std::optional<vqx::PictureFormat> cuda_pictures;
  std::set<std::string> model_specs;  // registered, so that each counts once
  bool have_format = false;
  vqx::PictureFormat format;
  unsigned pictures_read = 0;
  bool flushed = false;
  std::chrono::steady_clock::time_point first_read;
  double seconds = 0;  // first picture to the flush, for the reports' fps
};

namespace vqx::capi {

// A Status as libvmaf's negative errno codes: -EINVAL for what the caller
// gave, -ENOMEM for a resource limit, -EIO for a device or internal error.
int to_errno(const Status& s);

// Logs `s` on stderr when the context's log level shows errors; returns
// to_errno(s).
int fail(const VmafContext* vmaf, const Status& s);

// std::bad_alloc and anything else thrown below stops here: a C caller
// gets an error code.
template <typename F>
int guarded(F&& f) {
  try {
    return f();
  } catch (const std::bad_alloc&) {
    return -ENOMEM;
  } catch (...) {
    return -EIO;
  }
}

// libvmaf's plane sizes of a w x h picture: chroma w >> 1 (h >> 1) where
// the format subsamples it (VQX's planes round up: format_of() allows both).
void libvmaf_plane_sizes(enum VmafPixelFormat pix_fmt, unsigned w, unsigned h, unsigned (&pw)[3],
                         unsigned (&ph)[3]);
// The VmafPixelFormat of a chroma format.
enum VmafPixelFormat libvmaf_pixel_format(ChromaFormat chroma);

// A picture format of libvmaf's terms, checked.
Expected<PictureFormat> picture_format(enum VmafPixelFormat pix_fmt, unsigned bpc, unsigned w,
                                       unsigned h);
// The format of a VmafPicture, checked (its planes' sizes and strides).
Expected<PictureFormat> format_of(const VmafPicture& p);
// The settings of a context made for `cfg`, on `cuda_device` when given.
ContextSettings context_settings(const VmafConfiguration& cfg, std::optional<unsigned> cuda_device);

// Checks a model spec by registering it with a throwaway CPU context.
Status check_model_spec(const std::string& spec);

}  // namespace vqx::capi
