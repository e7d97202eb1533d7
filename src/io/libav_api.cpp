// Loading FFmpeg's libraries for libav_api.hpp.
#include "io/libav_api.hpp"

#include <dlfcn.h>

#include <mutex>
#include <string>

#define VQX_LIBAV_STRINGIFY2(x) #x
#define VQX_LIBAV_STRINGIFY(x) VQX_LIBAV_STRINGIFY2(x)

namespace vqx::libav {

namespace {

// The sonames of the libraries the headers describe.
constexpr const char* kAvutil = "libavutil.so." VQX_LIBAV_STRINGIFY(LIBAVUTIL_VERSION_MAJOR);
constexpr const char* kAvcodec = "libavcodec.so." VQX_LIBAV_STRINGIFY(LIBAVCODEC_VERSION_MAJOR);
constexpr const char* kAvformat = "libavformat.so." VQX_LIBAV_STRINGIFY(LIBAVFORMAT_VERSION_MAJOR);
constexpr const char* kSwscale = "libswscale.so." VQX_LIBAV_STRINGIFY(LIBSWSCALE_VERSION_MAJOR);

std::string loader_message() {
  const char* m = dlerror();
  return m != nullptr ? m : "no message";
}

Status cannot_load(const char* library, const std::string& why) {
  if (std::string(library) == kSwscale) {
    return Error(Errc::kUnsupported, std::string("cannot load FFmpeg's ") + library +
                                         ", which VQX needs to scale (--scale) (" + why +
                                         "); install it (Debian: the " + library +
                                         " package of its major version)");
  }
  return Error(Errc::kUnsupported, std::string("cannot load FFmpeg's ") + library +
                                       ", which VQX needs to read files other than Y4M and raw "
                                       "video (" +
                                       why + "); install it (Debian: the " + library +
                                       " package of its major version), or give a .y4m file");
}

// Opens `library` and fills the pointers `fill` names; on failure the
// library is closed again.
template <typename Fill>
Status load(const char* library, Fill&& fill) {
  void* handle = dlopen(library, RTLD_NOW | RTLD_LOCAL);
  if (handle == nullptr) return cannot_load(library, loader_message());
  std::string missing;
  fill(handle, missing);
  if (!missing.empty()) {
    dlclose(handle);
    return cannot_load(library, "it has no function " + missing);
  }
  return Status::Ok();
}

// Sets `slot` to the function `name` of `handle`, or names it in `missing`.
template <typename Pointer>
void find(void* handle, const char* name, Pointer& slot, std::string& missing) {
  void* f = dlsym(handle, name);
  if (f == nullptr) {
    if (missing.empty()) missing = name;
    return;
  }
  slot = reinterpret_cast<Pointer>(f);
}

Status load_all(Api& api) {
#define VQX_LIBAV_FIND(name) find(handle, #name, api.name, missing);
  VQX_RETURN_IF_ERROR(load(kAvutil, [&](void* handle, std::string& missing) {
    VQX_LIBAVUTIL_FUNCTIONS(VQX_LIBAV_FIND)
  }));
  VQX_RETURN_IF_ERROR(load(kAvcodec, [&](void* handle, std::string& missing) {
    VQX_LIBAVCODEC_FUNCTIONS(VQX_LIBAV_FIND)
  }));
  VQX_RETURN_IF_ERROR(load(kAvformat, [&](void* handle, std::string& missing) {
    VQX_LIBAVFORMAT_FUNCTIONS(VQX_LIBAV_FIND)
  }));
#undef VQX_LIBAV_FIND
  return Status::Ok();
}

Status load_swscale(SwscaleApi& api) {
#define VQX_LIBAV_FIND(name) find(handle, #name, api.name, missing);
  return load(kSwscale,
              [&](void* handle, std::string& missing) { VQX_LIBSWSCALE_FUNCTIONS(VQX_LIBAV_FIND) });
#undef VQX_LIBAV_FIND
}

}  // namespace

Expected<const Api*> api() {
  static Api table;
  static Status loaded = Error(Errc::kInternal, "libav: not loaded");
  static std::once_flag once;
  std::call_once(once, [] { loaded = load_all(table); });
  if (!loaded.ok()) return loaded;
  return &table;
}

}  // namespace vqx::libav

namespace vqx::libav {

Expected<const SwscaleApi*> swscale_api() {
  if (auto base = api(); !base.ok()) return base.status();
  static SwscaleApi table;
  static Status loaded = Error(Errc::kInternal, "libswscale: not loaded");
  static std::once_flag once;
  std::call_once(once, [] { loaded = load_swscale(table); });
  if (!loaded.ok()) return loaded;
  return &table;
}

}  // namespace vqx::libav
