// vmaf_picture_alloc/unref (include/libvmaf/picture.h): one zeroed block
// for the planes, rows of 32-sample multiples as libvmaf lays them out, and
// a reference count; and the preallocated pictures of libvmaf.h
// (vmaf_preallocate_pictures, vmaf_fetch_preallocated_picture).
#include <atomic>
#include <cerrno>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <mutex>
#include <new>

#include "capi/internals.hpp"

namespace vqx::capi {

PicturePool::~PicturePool() {
  for (VmafPicture& p : free) vmaf_picture_unref(&p);
}

}  // namespace vqx::capi

namespace {

constexpr std::size_t kAlign = 32;
// VQX's own bound on a side (vqx/picture.hpp's kMaxDimension).
constexpr unsigned kMaxSide = vqx::kMaxDimension;

std::size_t round_up(std::size_t n) { return (n + kAlign - 1) / kAlign * kAlign; }

}  // namespace

extern "C" int vmaf_picture_alloc(VmafPicture* pic, enum VmafPixelFormat pix_fmt, unsigned bpc,
                                  unsigned w, unsigned h) {
  if (pic == nullptr) return -EINVAL;
  if (pix_fmt != VMAF_PIX_FMT_YUV420P && pix_fmt != VMAF_PIX_FMT_YUV422P &&
      pix_fmt != VMAF_PIX_FMT_YUV444P && pix_fmt != VMAF_PIX_FMT_YUV400P) {
    return -EINVAL;
  }
  if (bpc < 8 || bpc > 16) return -EINVAL;
  if (w == 0 || h == 0 || w > kMaxSide || h > kMaxSide) return -EINVAL;

  std::memset(pic, 0, sizeof(*pic));
  pic->pix_fmt = pix_fmt;
  pic->bpc = bpc;
  const bool chroma = pix_fmt != VMAF_PIX_FMT_YUV400P;
  vqx::capi::libvmaf_plane_sizes(pix_fmt, w, h, pic->w, pic->h);
  const std::size_t bytes = bpc > 8 ? 2 : 1;
  // libvmaf rounds the samples of a row up to 32, then takes their bytes.
  const std::size_t luma_stride = round_up(pic->w[0]) * bytes;
  const std::size_t chroma_stride = round_up(pic->w[1]) * bytes;
  const std::size_t luma_size = luma_stride * pic->h[0];
  const std::size_t chroma_size = chroma_stride * pic->h[1];
  const std::size_t total = luma_size + 2 * chroma_size;

  auto* block = static_cast<std::uint8_t*>(std::aligned_alloc(kAlign, round_up(total)));
  if (block == nullptr) return -ENOMEM;
  std::memset(block, 0, total);
  VmafRef* ref = new (std::nothrow) VmafRef;
  if (ref == nullptr) {
    std::free(block);
    return -ENOMEM;
  }
  ref->block = block;
  pic->ref = ref;
  pic->stride[0] = static_cast<ptrdiff_t>(luma_stride);
  pic->data[0] = block;
  if (chroma) {
    pic->stride[1] = pic->stride[2] = static_cast<ptrdiff_t>(chroma_stride);
    pic->data[1] = block + luma_size;
    pic->data[2] = block + luma_size + chroma_size;
  }
  return 0;
}

extern "C" int vmaf_picture_unref(VmafPicture* pic) {
  if (pic == nullptr || pic->ref == nullptr) return -EINVAL;
  VmafRef* ref = pic->ref;
  if (ref->count.fetch_sub(1, std::memory_order_acq_rel) == 1) {
    if (ref->held) {
      ref->held.reset();  // a context's picture never handed back to it
    } else if (ref->pool) {
      {
        std::lock_guard lock(ref->pool->lock);
        ref->pool->free.push_back(ref->pooled);
      }
      ref->pool->available.notify_one();
    } else {
      std::free(ref->block);
    }
    delete ref;
  }
  std::memset(pic, 0, sizeof(*pic));
  return 0;
}

extern "C" int vmaf_preallocate_pictures(VmafContext* vmaf, VmafPictureConfiguration cfg) {
  if (vmaf == nullptr || cfg.pic_cnt == 0 || vmaf->pool) return -EINVAL;
  try {
    auto pool = std::make_shared<vqx::capi::PicturePool>();
    pool->free.reserve(cfg.pic_cnt);
    for (unsigned i = 0; i < cfg.pic_cnt; ++i) {
      VmafPicture p;
      const auto& pp = cfg.pic_params;
      if (int err = vmaf_picture_alloc(&p, pp.pix_fmt, pp.bpc, pp.w, pp.h); err != 0) return err;
      pool->free.push_back(p);
    }
    vmaf->pool = std::move(pool);
    return 0;
  } catch (const std::bad_alloc&) {
    return -ENOMEM;
  }
}

extern "C" int vmaf_fetch_preallocated_picture(VmafContext* vmaf, VmafPicture* pic) {
  if (vmaf == nullptr || pic == nullptr || !vmaf->pool) return -EINVAL;
  auto* ref = new (std::nothrow) VmafRef;
  if (ref == nullptr) return -ENOMEM;
  vqx::capi::PicturePool& pool = *vmaf->pool;
  {
    // As libvmaf's pool: wait until a picture is given back.
    std::unique_lock lock(pool.lock);
    pool.available.wait(lock, [&] { return !pool.free.empty(); });
    ref->pooled = pool.free.back();
    pool.free.pop_back();
  }
  ref->pool = vmaf->pool;
  *pic = ref->pooled;
  pic->ref = ref;
  return 0;
}
