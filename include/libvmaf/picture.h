/* libvmaf 3.x-compatible C API (VQX): pictures.
 *
 * The declarations, enum values and struct layout follow libvmaf 3.2.0's
 * public header libvmaf/picture.h (docs/capi.md); this file is VQX's own. */
#ifndef VQX_LIBVMAF_PICTURE_H
#define VQX_LIBVMAF_PICTURE_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

enum VmafPixelFormat {
  VMAF_PIX_FMT_UNKNOWN,
  VMAF_PIX_FMT_YUV420P,
  VMAF_PIX_FMT_YUV422P,
  VMAF_PIX_FMT_YUV444P,
  VMAF_PIX_FMT_YUV400P,
};

/* The reference count of a picture's buffer (opaque). */
typedef struct VmafRef VmafRef;

/* A planar picture: plane p has w[p] x h[p] samples, rows stride[p] bytes
 * apart, from data[p]. Samples of 8 bits are bytes, deeper ones uint16_t in
 * native byte order. Chroma planes have w >> 1 (h >> 1) samples where the
 * format subsamples them; a 4:0:0 picture has no chroma planes. */
typedef struct VmafPicture {
  enum VmafPixelFormat pix_fmt;
  unsigned bpc;
  unsigned w[3], h[3];
  ptrdiff_t stride[3];
  void* data[3];
  VmafRef* ref;
  void* priv;
} VmafPicture;

/* Allocates the planes of a w x h picture (samples zeroed) with a reference
 * count of one. bpc is 8 to 16. Returns 0, or -EINVAL (NULL pic, unknown
 * format, bad bpc or size), -ENOMEM. */
int vmaf_picture_alloc(VmafPicture* pic, enum VmafPixelFormat pix_fmt, unsigned bpc, unsigned w,
                       unsigned h);

/* Drops one reference; the last frees the planes. The struct is zeroed.
 * Returns 0, or -EINVAL when pic is NULL or holds no reference. */
int vmaf_picture_unref(VmafPicture* pic);

#ifdef __cplusplus
}
#endif

#endif /* VQX_LIBVMAF_PICTURE_H */
