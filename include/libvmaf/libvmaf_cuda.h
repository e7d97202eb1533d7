/* libvmaf 3.x-compatible C API (VQX): contexts on a CUDA device.
 *
 * The declarations, enum values and struct layouts follow libvmaf 3.2.0's
 * public header libvmaf/libvmaf_cuda.h (docs/capi.md); this file is VQX's
 * own. Installed, and its functions built, in CUDA builds only (VQX_GPU=cuda
 * with VQX_LIBVMAF_COMPAT=ON), as libvmaf installs it in its CUDA builds. */
#ifndef VQX_LIBVMAF_CUDA_H
#define VQX_LIBVMAF_CUDA_H

#include "libvmaf/libvmaf.h"

#ifdef __cplusplus
extern "C" {
#endif

/* A CUDA device to compute on (opaque; allocated with malloc(): the caller
 * frees it with free() once the contexts that imported it are closed). */
typedef struct VmafCudaState VmafCudaState;

/* cu_ctx: a CUcontext of the caller's, whose device the contexts use; NULL
 * for device 0. */
typedef struct VmafCudaConfiguration {
  void* cu_ctx;
} VmafCudaConfiguration;

/* Makes *cu_state for cfg's device. Returns 0, or -EINVAL (NULL cu_state,
 * a cu_ctx that is not a CUDA context), -EIO (no usable CUDA device). */
int vmaf_cuda_state_init(VmafCudaState** cu_state, VmafCudaConfiguration cfg);

/* The context computes on the state's device from now on: features with a
 * GPU twin there, the others on the CPU, with the same scores. Before any
 * feature or model is registered; -EINVAL after. */
int vmaf_cuda_import_state(VmafContext* vmaf, VmafCudaState* cu_state);

enum VmafCudaPicturePreallocationMethod {
  VMAF_CUDA_PICTURE_PREALLOCATION_METHOD_NONE = 0,
  VMAF_CUDA_PICTURE_PREALLOCATION_METHOD_DEVICE,
  VMAF_CUDA_PICTURE_PREALLOCATION_METHOD_HOST,
  VMAF_CUDA_PICTURE_PREALLOCATION_METHOD_HOST_PINNED,
};

typedef struct VmafCudaPictureConfiguration {
  struct {
    unsigned w, h;
    unsigned bpc;
    enum VmafPixelFormat pix_fmt;
  } pic_params;
  enum VmafCudaPicturePreallocationMethod pic_prealloc_method;
} VmafCudaPictureConfiguration;

/* Pictures of cfg.pic_params for vmaf_cuda_fetch_preallocated_picture().
 * DEVICE, HOST and HOST_PINNED all give pictures of the context's own pool
 * in pinned host memory, which a CUDA copy or kernel can write as device
 * memory (unified addressing) and the context uploads without staging;
 * NONE gives none. Returns 0, -EINVAL (an unknown method or pixel format, a
 * bit depth outside 8..16, a side of 0) or -ENOMEM (a side above 16384). */
int vmaf_cuda_preallocate_pictures(VmafContext* vmaf, VmafCudaPictureConfiguration cfg);

/* One of those pictures, to fill and hand to vmaf_read_pictures(), which
 * takes it without a copy (or to release with vmaf_picture_unref()).
 * -EINVAL without a preallocation. */
int vmaf_cuda_fetch_preallocated_picture(VmafContext* vmaf, VmafPicture* pic);

#ifdef __cplusplus
}
#endif

#endif /* VQX_LIBVMAF_CUDA_H */
