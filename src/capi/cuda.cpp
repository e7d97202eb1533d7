// The functions of include/libvmaf/libvmaf_cuda.h over VQX's CUDA backend
// (built in CUDA builds only: CMakeLists.txt). A state names a device; a
// context that imports it is made again on that device; preallocated
// pictures are pictures of the context's pool, in pinned memory, which
// vmaf_read_pictures() hands back to the context without a copy.
#include "libvmaf/libvmaf_cuda.h"

#include <cerrno>
#include <cstdlib>
#include <memory>
#include <new>

#include "capi/internals.hpp"

struct VmafCudaState {
  unsigned device;
};

namespace {

using vqx::Errc;
using vqx::capi::fail;
using vqx::capi::guarded;

}  // namespace

extern "C" int vmaf_cuda_state_init(VmafCudaState** cu_state, VmafCudaConfiguration cfg) {
  if (cu_state == nullptr) return -EINVAL;
  *cu_state = nullptr;
  return guarded([&] {
    unsigned device = 0;
    if (cfg.cu_ctx != nullptr) {
      auto d = vqx::gpu_device_of_native_context(cfg.cu_ctx);
      if (!d.ok()) return fail(nullptr, d.status());
      device = *d;
    }
    // The device is there and usable: a context opens on it.
    vqx::ContextSettings probe;
    probe.backend = vqx::Backend::kCuda;
    probe.gpu = device;
    if (auto ctx = vqx::Context::create(probe); !ctx.ok()) return fail(nullptr, ctx.status());
    auto* state = static_cast<VmafCudaState*>(std::malloc(sizeof(VmafCudaState)));
    if (state == nullptr) return -ENOMEM;
    state->device = device;
    *cu_state = state;
    return 0;
  });
}

extern "C" int vmaf_cuda_import_state(VmafContext* vmaf, VmafCudaState* cu_state) {
  if (vmaf == nullptr || cu_state == nullptr) return -EINVAL;
  return guarded([&] {
    // The context is made again on the device: nothing may be registered yet.
    if (!vmaf->ctx->metric_names().empty() || vmaf->pictures_read != 0 || vmaf->flushed) {
      return fail(vmaf, vqx::Error(Errc::kInvalidArgument,
                                   "vmaf_cuda_import_state after features, models or pictures "
                                   "were given: import the CUDA state first"));
    }
    auto ctx = vqx::Context::create(vqx::capi::context_settings(vmaf->cfg, cu_state->device));
    if (!ctx.ok()) return fail(vmaf, ctx.status());
    vmaf->ctx = std::move(*ctx);
    return 0;
  });
}

extern "C" int vmaf_cuda_preallocate_pictures(VmafContext* vmaf, VmafCudaPictureConfiguration cfg) {
  if (vmaf == nullptr) return -EINVAL;
  return guarded([&] {
    switch (cfg.pic_prealloc_method) {
      case VMAF_CUDA_PICTURE_PREALLOCATION_METHOD_NONE:
        vmaf->cuda_pictures.reset();
        return 0;
      case VMAF_CUDA_PICTURE_PREALLOCATION_METHOD_DEVICE:
      case VMAF_CUDA_PICTURE_PREALLOCATION_METHOD_HOST:
      case VMAF_CUDA_PICTURE_PREALLOCATION_METHOD_HOST_PINNED:
        break;
      default:
        return fail(vmaf, vqx::Error(Errc::kInvalidArgument,
                                     "unknown CUDA picture preallocation method"));
    }
    const auto& pp = cfg.pic_params;
    auto f = vqx::capi::picture_format(pp.pix_fmt, pp.bpc, pp.w, pp.h);
    if (!f.ok()) return fail(vmaf, f.status());
    vmaf->cuda_pictures = *f;
    return 0;
  });
}

extern "C" int vmaf_cuda_fetch_preallocated_picture(VmafContext* vmaf, VmafPicture* pic) {
  if (vmaf == nullptr || pic == nullptr || !vmaf->cuda_pictures) return -EINVAL;
  return guarded([&] {
    const vqx::PictureFormat f = *vmaf->cuda_pictures;
    auto p = vmaf->ctx->fetch_picture(f);
    if (!p.ok()) return fail(vmaf, p.status());
    auto ref = std::make_unique<VmafRef>();
    ref->held = std::make_unique<vqx::Picture>(std::move(*p));
    VmafPicture out{};
    out.bpc = f.bpc;
    out.pix_fmt = vqx::capi::libvmaf_pixel_format(f.chroma);
    // libvmaf's chroma sizes (w >> 1) over VQX's planes ((w + 1) >> 1);
    // vmaf_read_pictures() completes an odd size's last column and row.
    vqx::capi::libvmaf_plane_sizes(out.pix_fmt, f.width, f.height, out.w, out.h);
    for (unsigned c = 0; c < f.plane_count(); ++c) {
      vqx::Plane& plane = ref->held->plane(c);
      out.stride[c] = static_cast<ptrdiff_t>(plane.stride_bytes());
      out.data[c] = plane.data();
    }
    out.ref = ref.release();
    *pic = out;
    return 0;
  });
}
