/* libvmaf_cuda.h as a libvmaf CUDA program uses it (FFmpeg's libvmaf_cuda
 * filter is one): a state from the program's own CUcontext, imported into a
 * context, pictures preallocated with the DEVICE method and filled by a
 * driver-API copy from device memory (CU_MEMORYTYPE_DEVICE, as that filter
 * copies its frames), and the scores against a CPU context given the same
 * samples through vmaf_picture_alloc(): equal, the integer features and
 * the model bit for bit. Odd sizes (177 x 145) exercise libvmaf's chroma
 * sizes. Exit 0: passed, 1: failed, 77: no CUDA driver or device
 * (skipped). The driver is opened at run time, not linked, so the test
 * also starts (and skips) where libcuda.so.1 is absent, as in CI. */
#include <cuda.h>
#include <dlfcn.h>
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "libvmaf/libvmaf.h"
#include "libvmaf/libvmaf_cuda.h"

static int checks = 0;
static int failures = 0;

#define CHECK(cond, ...)                           \
  do {                                             \
    ++checks;                                      \
    if (!(cond)) {                                 \
      ++failures;                                  \
      fprintf(stderr, "FAIL line %d: ", __LINE__); \
      fprintf(stderr, __VA_ARGS__);                \
      fprintf(stderr, "\n");                       \
    }                                              \
  } while (0)
#define CHECK_EQ_INT(expr, want)                                             \
  do {                                                                       \
    const int got_ = (expr);                                                 \
    CHECK(got_ == (want), "%s = %d, expected %d", #expr, got_, (int)(want)); \
  } while (0)

/* The driver API functions the test calls, looked up under the names
 * cuda.h maps them to (cuMemAlloc is cuMemAlloc_v2, ...). */
// clang-format off
#define DRIVER_FUNCTIONS(X)                                                        \
  X(cuInit) X(cuDeviceGetCount) X(cuDeviceGet) X(cuDevicePrimaryCtxRetain)         \
  X(cuDevicePrimaryCtxRelease) X(cuCtxPushCurrent) X(cuCtxPopCurrent)              \
  X(cuMemAlloc) X(cuMemFree) X(cuMemcpyHtoD) X(cuMemcpy2D)
// clang-format on
#define DRIVER_FIELD(f) __typeof__(f)* f;
static struct { DRIVER_FUNCTIONS(DRIVER_FIELD) } drv;
#define NAME_OF(f) #f
#define MACRO_NAME_OF(f) NAME_OF(f)

/* 0 when every function was found in libcuda.so.1. */
static int open_driver(void) {
  void* lib = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
  if (!lib) return -1;
#define DRIVER_LOOKUP(f)                          \
  *(void**)&drv.f = dlsym(lib, MACRO_NAME_OF(f)); \
  if (!drv.f) return -1;
  DRIVER_FUNCTIONS(DRIVER_LOOKUP)
  return 0;
}

enum { kW = 177, kH = 145, kFrames = 3 };
static const VmafConfiguration kQuiet = {.log_level = VMAF_LOG_LEVEL_NONE, .n_threads = 2};

/* Sample (x, y) of plane c of frame i: a textured reference, and a
 * distorted one with a few levels of deterministic noise. */
static uint8_t sample(int dist, unsigned c, unsigned x, unsigned y, unsigned i) {
  unsigned v = (x * 3 + y * 5 + i * 7 + ((x * y) >> 3) + c * 40) & 255;
  if (dist) {
    const unsigned h = (x * 2654435761u) ^ (y * 40503u) ^ (i * 97u) ^ c;
    const int n = (int)((h >> 7) % 9) - 4;
    const int d = (int)v + n;
    v = d < 0 ? 0 : (d > 255 ? 255 : (unsigned)d);
  }
  return (uint8_t)v;
}

/* Fills a host picture directly. */
static void fill_host(VmafPicture* p, int dist, unsigned i) {
  for (unsigned c = 0; c < 3; ++c) {
    for (unsigned y = 0; y < p->h[c]; ++y) {
      uint8_t* row = (uint8_t*)p->data[c] + (size_t)y * (size_t)p->stride[c];
      for (unsigned x = 0; x < p->w[c]; ++x) row[x] = sample(dist, c, x, y, i);
    }
  }
}

/* Fills a preallocated picture as FFmpeg's CUDA filter does: the samples
 * are in device memory, copied with cuMemcpy2D to the picture's planes
 * given as device memory. */
static int fill_from_device(VmafPicture* p, int dist, unsigned i) {
  for (unsigned c = 0; c < 3; ++c) {
    const size_t pitch = p->w[c];
    uint8_t* host = malloc(pitch * p->h[c]);
    if (!host) return -1;
    for (unsigned y = 0; y < p->h[c]; ++y) {
      for (unsigned x = 0; x < p->w[c]; ++x) host[y * pitch + x] = sample(dist, c, x, y, i);
    }
    CUdeviceptr src = 0;
    int err = drv.cuMemAlloc(&src, pitch * p->h[c]) != CUDA_SUCCESS;
    err |= !err && drv.cuMemcpyHtoD(src, host, pitch * p->h[c]) != CUDA_SUCCESS;
    CUDA_MEMCPY2D copy;
    memset(&copy, 0, sizeof copy);
    copy.srcMemoryType = CU_MEMORYTYPE_DEVICE;
    copy.srcDevice = src;
    copy.srcPitch = pitch;
    copy.dstMemoryType = CU_MEMORYTYPE_DEVICE;
    copy.dstDevice = (CUdeviceptr)p->data[c];
    copy.dstPitch = (size_t)p->stride[c];
    copy.WidthInBytes = pitch;
    copy.Height = p->h[c];
    err |= !err && drv.cuMemcpy2D(&copy) != CUDA_SUCCESS;
    if (src) drv.cuMemFree(src);
    free(host);
    if (err) return -1;
  }
  return 0;
}

static const char* const kFeatures[] = {"integer_adm2", "integer_vif_scale0", "integer_motion2",
                                        "psnr_y", "psnr_cb"};

int main(void) {
  if (open_driver() != 0 || drv.cuInit(0) != CUDA_SUCCESS) {
    printf("SKIP: no CUDA driver or device\n");
    return 77;
  }
  int devices = 0;
  if (drv.cuDeviceGetCount(&devices) != CUDA_SUCCESS || devices == 0) {
    printf("SKIP: no CUDA device\n");
    return 77;
  }
  CUdevice dev;
  CUcontext cu_ctx = NULL;
  if (drv.cuDeviceGet(&dev, 0) != CUDA_SUCCESS ||
      drv.cuDevicePrimaryCtxRetain(&cu_ctx, dev) != CUDA_SUCCESS ||
      drv.cuCtxPushCurrent(cu_ctx) != CUDA_SUCCESS) {
    fprintf(stderr, "FAIL: the program's own CUDA context\n");
    return 1;
  }

  VmafCudaState* state = NULL;
  CHECK_EQ_INT(vmaf_cuda_state_init(NULL, (VmafCudaConfiguration){0}), -EINVAL);
  CHECK_EQ_INT(vmaf_cuda_state_init(&state, (VmafCudaConfiguration){.cu_ctx = cu_ctx}), 0);
  if (!state) return 1;

  VmafModel* model = NULL;
  VmafModelConfig mcfg = {.name = "vmaf"};
  CHECK_EQ_INT(vmaf_model_load(&model, &mcfg, "vmaf_v0.6.1"), 0);
  if (!model) return 1;

  /* Errors: NULLs, an import after a registration, no preallocation. */
  VmafContext* late = NULL;
  CHECK_EQ_INT(vmaf_init(&late, kQuiet), 0);
  VmafPicture pic;
  CHECK_EQ_INT(vmaf_cuda_import_state(NULL, state), -EINVAL);
  CHECK_EQ_INT(vmaf_cuda_import_state(late, NULL), -EINVAL);
  CHECK_EQ_INT(vmaf_cuda_fetch_preallocated_picture(late, &pic), -EINVAL);
  VmafCudaPictureConfiguration none = {
      .pic_params = {.w = kW, .h = kH, .bpc = 8, .pix_fmt = VMAF_PIX_FMT_YUV420P},
      .pic_prealloc_method = VMAF_CUDA_PICTURE_PREALLOCATION_METHOD_NONE};
  CHECK_EQ_INT(vmaf_cuda_preallocate_pictures(late, none), 0);
  CHECK_EQ_INT(vmaf_cuda_fetch_preallocated_picture(late, &pic), -EINVAL);
  VmafCudaPictureConfiguration unknown = none;
  unknown.pic_prealloc_method = (enum VmafCudaPicturePreallocationMethod)9;
  CHECK_EQ_INT(vmaf_cuda_preallocate_pictures(late, unknown), -EINVAL);
  VmafCudaPictureConfiguration zero = none;
  zero.pic_prealloc_method = VMAF_CUDA_PICTURE_PREALLOCATION_METHOD_DEVICE;
  zero.pic_params.w = 0;
  CHECK_EQ_INT(vmaf_cuda_preallocate_pictures(late, zero), -EINVAL);
  CHECK_EQ_INT(vmaf_use_feature(late, "psnr", NULL), 0);
  CHECK_EQ_INT(vmaf_cuda_import_state(late, state), -EINVAL);
  CHECK_EQ_INT(vmaf_close(late), 0);

  /* A preallocated picture refused by the read (samples above the bit
   * depth) stays the caller's, with planes it may write and release. */
  VmafContext* refused = NULL;
  CHECK_EQ_INT(vmaf_init(&refused, kQuiet), 0);
  CHECK_EQ_INT(vmaf_cuda_import_state(refused, state), 0);
  VmafCudaPictureConfiguration ten = {
      .pic_params = {.w = 64, .h = 48, .bpc = 10, .pix_fmt = VMAF_PIX_FMT_YUV420P},
      .pic_prealloc_method = VMAF_CUDA_PICTURE_PREALLOCATION_METHOD_HOST_PINNED};
  CHECK_EQ_INT(vmaf_cuda_preallocate_pictures(refused, ten), 0);
  CHECK_EQ_INT(vmaf_use_feature(refused, "psnr", NULL), 0);
  VmafPicture hr, hd;
  CHECK_EQ_INT(vmaf_cuda_fetch_preallocated_picture(refused, &hr), 0);
  CHECK_EQ_INT(vmaf_cuda_fetch_preallocated_picture(refused, &hd), 0);
  ((uint16_t*)hr.data[0])[0] = 2000;
  CHECK_EQ_INT(vmaf_read_pictures(refused, &hr, &hd, 0), -EINVAL);
  CHECK(hr.ref != NULL && hr.data[0] != NULL && hd.data[0] != NULL,
        "refused pictures keep their planes");
  if (hr.data[0] && hd.data[0]) {
    ((uint16_t*)hr.data[0])[0] = 100;
    ((uint16_t*)hd.data[1])[0] = 100;
  }
  CHECK_EQ_INT(vmaf_picture_unref(&hr), 0);
  CHECK_EQ_INT(vmaf_picture_unref(&hd), 0);
  CHECK_EQ_INT(vmaf_close(refused), 0);

  /* The CUDA context and the CPU one, same samples. */
  VmafContext* gpu = NULL;
  VmafContext* cpu = NULL;
  CHECK_EQ_INT(vmaf_init(&gpu, kQuiet), 0);
  CHECK_EQ_INT(vmaf_init(&cpu, kQuiet), 0);
  if (!gpu || !cpu) return 1;
  CHECK_EQ_INT(vmaf_cuda_import_state(gpu, state), 0);
  VmafCudaPictureConfiguration device = none;
  device.pic_prealloc_method = VMAF_CUDA_PICTURE_PREALLOCATION_METHOD_DEVICE;
  CHECK_EQ_INT(vmaf_cuda_preallocate_pictures(gpu, device), 0);
  VmafContext* both[2] = {gpu, cpu};
  for (int k = 0; k < 2; ++k) {
    CHECK_EQ_INT(vmaf_use_features_from_model(both[k], model), 0);
    CHECK_EQ_INT(vmaf_use_feature(both[k], "psnr", NULL), 0);
  }
  for (unsigned i = 0; i < kFrames; ++i) {
    VmafPicture gr, gd, cr, cd;
    CHECK_EQ_INT(vmaf_cuda_fetch_preallocated_picture(gpu, &gr), 0);
    CHECK_EQ_INT(vmaf_cuda_fetch_preallocated_picture(gpu, &gd), 0);
    CHECK(gr.w[0] == kW && gr.h[0] == kH && gr.w[1] == kW / 2 && gr.h[1] == kH / 2 &&
              gr.pix_fmt == VMAF_PIX_FMT_YUV420P && gr.bpc == 8 && gr.data[0] != gd.data[0],
          "preallocated pictures of the configured format");
    CHECK_EQ_INT(fill_from_device(&gr, 0, i), 0);
    CHECK_EQ_INT(fill_from_device(&gd, 1, i), 0);
    CHECK_EQ_INT(vmaf_read_pictures(gpu, &gr, &gd, i), 0);
    CHECK_EQ_INT(vmaf_picture_alloc(&cr, VMAF_PIX_FMT_YUV420P, 8, kW, kH), 0);
    CHECK_EQ_INT(vmaf_picture_alloc(&cd, VMAF_PIX_FMT_YUV420P, 8, kW, kH), 0);
    fill_host(&cr, 0, i);
    fill_host(&cd, 1, i);
    CHECK_EQ_INT(vmaf_read_pictures(cpu, &cr, &cd, i), 0);
  }
  /* A fetched picture not used: released by its unref. */
  CHECK_EQ_INT(vmaf_cuda_fetch_preallocated_picture(gpu, &pic), 0);
  CHECK_EQ_INT(vmaf_picture_unref(&pic), 0);
  CHECK_EQ_INT(vmaf_read_pictures(gpu, NULL, NULL, 0), 0);
  CHECK_EQ_INT(vmaf_read_pictures(cpu, NULL, NULL, 0), 0);

  for (unsigned i = 0; i < kFrames; ++i) {
    double g = -1, c = -2;
    CHECK_EQ_INT(vmaf_score_at_index(gpu, model, &g, i), 0);
    CHECK_EQ_INT(vmaf_score_at_index(cpu, model, &c, i), 0);
    CHECK(g == c && g > 0 && g <= 100, "frame %u vmaf: cuda %.17g, cpu %.17g", i, g, c);
    for (size_t f = 0; f < sizeof kFeatures / sizeof kFeatures[0]; ++f) {
      CHECK_EQ_INT(vmaf_feature_score_at_index(gpu, kFeatures[f], &g, i), 0);
      CHECK_EQ_INT(vmaf_feature_score_at_index(cpu, kFeatures[f], &c, i), 0);
      CHECK(g == c, "frame %u %s: cuda %.17g, cpu %.17g", i, kFeatures[f], g, c);
    }
  }
  /* The context computed on the device: its output's settings say so. */
  CHECK_EQ_INT(vmaf_write_output(gpu, "capi_cuda_test.json", VMAF_OUTPUT_FORMAT_JSON), 0);
  FILE* json = fopen("capi_cuda_test.json", "rb");
  char text[1 << 16];
  const size_t got = json ? fread(text, 1, sizeof text - 1, json) : 0;
  if (json) fclose(json);
  text[got] = '\0';
  CHECK(strstr(text, "\"backend\": \"cuda\"") != NULL, "the JSON's settings name the cuda backend");
  double pooled = 0;
  CHECK_EQ_INT(vmaf_score_pooled(gpu, model, VMAF_POOL_METHOD_MEAN, &pooled, 0, kFrames - 1), 0);
  printf("vmaf_v0.6.1 on the CUDA context: %.6f (pooled over %d frames of %dx%d)\n", pooled,
         kFrames, kW, kH);

  vmaf_model_destroy(model);
  CHECK_EQ_INT(vmaf_close(gpu), 0);
  CHECK_EQ_INT(vmaf_close(cpu), 0);
  free(state); /* the program's, as with libvmaf */
  drv.cuCtxPopCurrent(NULL);
  drv.cuDevicePrimaryCtxRelease(dev);
  printf("%d checks, %d failed\n", checks, failures);
  return failures == 0 ? 0 : 1;
}
