/* libvmaf 3.x-compatible C API over the VQX engine.
 *
 * A program written against libvmaf 3.x (FFmpeg's libvmaf filter among
 * them) builds and runs against this library unchanged, for the functions
 * declared here. The declarations, enum values and struct layouts follow
 * libvmaf 3.2.0's public header libvmaf/libvmaf.h; this file is VQX's own.
 * docs/capi.md lists what is implemented and what is not yet.
 *
 *   VmafContext *vmaf;
 *   VmafConfiguration cfg = {.log_level = VMAF_LOG_LEVEL_ERROR, .n_threads = 2};
 *   vmaf_init(&vmaf, cfg);
 *   VmafModel *model;
 *   VmafModelConfig mcfg = {.name = "vmaf"};
 *   vmaf_model_load(&model, &mcfg, "vmaf_v0.6.1");
 *   vmaf_use_features_from_model(vmaf, model);
 *   for (i = 0; ...; i++) {   // ref, dist: from vmaf_picture_alloc(), filled
 *     vmaf_read_pictures(vmaf, &ref, &dist, i);  // takes both pictures
 *   }
 *   vmaf_read_pictures(vmaf, NULL, NULL, 0);      // flush
 *   vmaf_score_pooled(vmaf, model, VMAF_POOL_METHOD_MEAN, &score, 0, n - 1);
 *   vmaf_model_destroy(model);
 *   vmaf_close(vmaf);
 *
 * Every function returns 0 on success or a negative errno code (-EINVAL for
 * bad arguments, as libvmaf does); none aborts on bad input. */
#ifndef VQX_LIBVMAF_LIBVMAF_H
#define VQX_LIBVMAF_LIBVMAF_H

#include <stdint.h>
#include <stdio.h>

#include "libvmaf/feature.h"
#include "libvmaf/model.h"
#include "libvmaf/picture.h"

#ifdef __cplusplus
extern "C" {
#endif

enum VmafLogLevel {
  VMAF_LOG_LEVEL_NONE = 0,
  VMAF_LOG_LEVEL_ERROR,
  VMAF_LOG_LEVEL_WARNING,
  VMAF_LOG_LEVEL_INFO,
  VMAF_LOG_LEVEL_DEBUG,
};

enum VmafOutputFormat {
  VMAF_OUTPUT_FORMAT_NONE = 0,
  VMAF_OUTPUT_FORMAT_XML,
  VMAF_OUTPUT_FORMAT_JSON,
  VMAF_OUTPUT_FORMAT_CSV,
  VMAF_OUTPUT_FORMAT_SUB,
};

enum VmafPoolingMethod {
  VMAF_POOL_METHOD_UNKNOWN = 0,
  VMAF_POOL_METHOD_MIN,
  VMAF_POOL_METHOD_MAX,
  VMAF_POOL_METHOD_MEAN,
  VMAF_POOL_METHOD_HARMONIC_MEAN,
  VMAF_POOL_METHOD_NB
};

/* log_level: which of the context's messages go to stderr.
 * n_threads: worker threads (0: the calling thread computes each frame).
 * n_subsample: compute the non-temporal features and the model scores of
 *   every n-th frame only (0 and 1: every frame).
 * cpumask: libvmaf's mask of instruction sets to leave unused; accepted,
 *   and without effect here (VQX's kernels give the same scores on every
 *   instruction set).
 * gpumask: with a CUDA state imported (libvmaf_cuda.h, CUDA builds), a
 *   non-zero mask keeps the context on the CPU, as in libvmaf; otherwise
 *   without effect. */
typedef struct VmafConfiguration {
  enum VmafLogLevel log_level;
  unsigned n_threads;
  unsigned n_subsample;
  uint64_t cpumask;
  uint64_t gpumask;
} VmafConfiguration;

typedef struct VmafContext VmafContext;

/* Creates a context; close it with vmaf_close(). */
int vmaf_init(VmafContext** vmaf, VmafConfiguration cfg);

/* Registers the features a model needs, and the model's scores. May be
 * called for several models (give them different names); a model (or a
 * collection's main model) registered twice counts once. */
int vmaf_use_features_from_model(VmafContext* vmaf, VmafModel* model);

/* vmaf_use_features_from_model() for a bootstrap collection: registers its
 * models' features and the collection's scores. */
int vmaf_use_features_from_model_collection(VmafContext* vmaf,
                                            VmafModelCollection* model_collection);

/* Registers a feature extractor by its libvmaf name ("psnr", "float_ssim",
 * "vif", ...) with options (NULL: the defaults). On success the context
 * takes opts_dict (do not free it); on failure the caller still owns it. */
int vmaf_use_feature(VmafContext* vmaf, const char* feature_name, VmafFeatureDictionary* opts_dict);

/* A feature's value at one frame, computed elsewhere: reported, pooled and
 * written as the context's own features are. Before the flush only; a name
 * a registered feature or model writes, or a second value for a frame, is
 * -EINVAL. */
int vmaf_import_feature_score(VmafContext* vmaf, const char* feature_name, double value,
                              unsigned index);

/* Hands a pair of pictures (index 0, 1, 2, ... in order) to the context,
 * which takes both: they are unreferenced before this returns 0. On an
 * error they stay the caller's. ref and dist both NULL flushes: waits for
 * every frame and computes the temporal features and the model scores;
 * pictures are refused after that. */
int vmaf_read_pictures(VmafContext* vmaf, VmafPicture* ref, VmafPicture* dist, unsigned index);

/* A model's score at one frame (after the flush). */
int vmaf_score_at_index(VmafContext* vmaf, VmafModel* model, double* score, unsigned index);

/* A bootstrap collection's scores at one frame (after the flush). */
int vmaf_score_at_index_model_collection(VmafContext* vmaf, VmafModelCollection* model_collection,
                                         VmafModelCollectionScore* score, unsigned index);

/* A feature's value at one frame, by its output name (e.g.
 * "integer_adm2", "psnr_y"), after the flush. */
int vmaf_feature_score_at_index(VmafContext* vmaf, const char* feature_name, double* score,
                                unsigned index);

/* A model's score pooled over frames index_low..index_high (inclusive;
 * with n_subsample, over the computed frames among them). */
int vmaf_score_pooled(VmafContext* vmaf, VmafModel* model, enum VmafPoolingMethod pool_method,
                      double* score, unsigned index_low, unsigned index_high);

/* A collection's scores, each pooled as vmaf_score_pooled() pools. */
int vmaf_score_pooled_model_collection(VmafContext* vmaf, VmafModelCollection* model_collection,
                                       enum VmafPoolingMethod pool_method,
                                       VmafModelCollectionScore* score, unsigned index_low,
                                       unsigned index_high);

/* A feature's value pooled as vmaf_score_pooled() pools. */
int vmaf_feature_score_pooled(VmafContext* vmaf, const char* feature_name,
                              enum VmafPoolingMethod pool_method, double* score, unsigned index_low,
                              unsigned index_high);

/* The pictures of vmaf_preallocate_pictures(). */
typedef struct VmafPictureConfiguration {
  struct {
    unsigned w, h;
    unsigned bpc;
    enum VmafPixelFormat pix_fmt;
  } pic_params;
  unsigned pic_cnt;
} VmafPictureConfiguration;

/* Allocates pic_cnt pictures of the given format once, for
 * vmaf_fetch_preallocated_picture(). Once per context. Returns 0, or
 * -EINVAL (no pictures, a bad format, a pool already made), -ENOMEM. */
int vmaf_preallocate_pictures(VmafContext* vmaf, VmafPictureConfiguration cfg);

/* One of the preallocated pictures (its samples are what they were when it
 * was last given back; zero at first). Waits, as libvmaf does, while all
 * of them are out: a picture returns to the pool with its last
 * vmaf_picture_unref(), which vmaf_read_pictures() does before it returns.
 * A picture may outlive its context. Returns 0, or -EINVAL (no pool). */
int vmaf_fetch_preallocated_picture(VmafContext* vmaf, VmafPicture* pic);

/* Frees the context (NULL: -EINVAL). */
int vmaf_close(VmafContext* vmaf);

/* Writes every feature and score, per frame and pooled, in libvmaf's
 * schemas (after the flush). The file appears only when it is complete. */
int vmaf_write_output(VmafContext* vmaf, const char* output_path, enum VmafOutputFormat fmt);

/* The libvmaf version this library answers: "3.2.0". */
const char* vmaf_version(void);

#ifdef __cplusplus
}
#endif

#endif /* VQX_LIBVMAF_LIBVMAF_H */
