// Loading FFmpeg's libraries for libav_api.hpp.
#include "io/libav_api.hpp"

#include <dlfcn.h>

#include <mutex>
#include <string>

#define VQX_LIBAV_STRINGIFY2(x) #x
#define VQX_LIBAV_STRINGIFY(x) VQX_LIBAV_STRINGIFY2(x)

namespace vqx::libav {

namespace {

// A library the headers describe: its soname, Debian's package of it (the
// name carries the major version: libswscale6, not "libswscale.so.6"),
// what VQX needs it for, and what the user can do without it.
struct Library {
  const char* soname;
  const char* package;
  const char* purpose;
  const char* otherwise;  // "" or ", or ..."
};

#define VQX_LIBAV_LIBRARY(stem, major, purpose, otherwise)                                        \
  Library {                                                                                       \
    "lib" stem ".so." VQX_LIBAV_STRINGIFY(major), "lib" stem VQX_LIBAV_STRINGIFY(major), purpose, \
        otherwise                                                                                 \
  }

constexpr const char* kToRead = "to read files other than Y4M and raw video";
constexpr const char* kOrY4m = ", or give a .y4m file";
constexpr Library kAvutil = VQX_LIBAV_LIBRARY("avutil", LIBAVUTIL_VERSION_MAJOR, kToRead, kOrY4m);
constexpr Library kAvcodec =
    VQX_LIBAV_LIBRARY("avcodec", LIBAVCODEC_VERSION_MAJOR, kToRead, kOrY4m);
constexpr Library kAvformat =
    VQX_LIBAV_LIBRARY("avformat", LIBAVFORMAT_VERSION_MAJOR, kToRead, kOrY4m);
constexpr Library kSwscale =
    VQX_LIBAV_LIBRARY("swscale", LIBSWSCALE_VERSION_MAJOR, "to scale (--scale)", "");
#undef VQX_LIBAV_LIBRARY

std::string loader_message() {
  const char* m = dlerror();
  return m != nullptr ? m : "no message";
}

Status cannot_load(const Library& library, const std::string& why) {
  return Error(Errc::kUnsupported, std::string("cannot load FFmpeg's ") + library.soname +
                                       ", which VQX needs " + library.purpose + " (" + why +
                                       "); install it (Debian: the " + library.package +
                                       " package)" + library.otherwise);
}

// Opens `library` and fills the pointers `fill` names; on failure the
// library is closed again.
template <typename Fill>
Status load(const Library& library, Fill&& fill) {
  void* handle = dlopen(library.soname, RTLD_NOW | RTLD_LOCAL);
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
