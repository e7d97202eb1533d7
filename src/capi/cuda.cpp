// The functions of include/libvmaf/libvmaf_cuda.h over VQX's CUDA backend
// (built in CUDA builds only: CMakeLists.txt). A state names a device; a
// context that imports it is made again on that device; preallocated
// pictures are pictures of the context's pool, in pinned memory.
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
    vmaf->cuda_device = cu_state->device;
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
    switch (f.chroma) {
      case vqx::ChromaFormat::k420:
        out.pix_fmt = VMAF_PIX_FMT_YUV420P;
        break;
      case vqx::ChromaFormat::k422:
        out.pix_fmt = VMAF_PIX_FMT_YUV422P;
        break;
      case vqx::ChromaFormat::k444:
        out.pix_fmt = VMAF_PIX_FMT_YUV444P;
        break;
      case vqx::ChromaFormat::k400:
        out.pix_fmt = VMAF_PIX_FMT_YUV400P;
        break;
    }
    for (unsigned c = 0; c < f.plane_count(); ++c) {
      vqx::Plane& plane = ref->held->plane(c);
      // libvmaf's chroma sizes (w >> 1) over VQX's planes ((w + 1) >> 1);
      // vmaf_read_pictures() completes an odd size's last column and row.
      out.w[c] = c == 0 || f.chroma == vqx::ChromaFormat::k444 ? f.width : f.width >> 1;
      out.h[c] = c == 0 || f.chroma != vqx::ChromaFormat::k420 ? f.height : f.height >> 1;
      out.stride[c] = static_cast<ptrdiff_t>(plane.stride_bytes());
      out.data[c] = plane.data();
    }
    out.ref = ref.release();
    *pic = out;
    return 0;
  });
}
