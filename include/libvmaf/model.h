/* libvmaf 3.x-compatible C API (VQX): models and model collections.
 *
 * The declarations, enum values and struct layouts follow libvmaf 3.2.0's
 * public header libvmaf/model.h (docs/capi.md); this file is VQX's own. */
#ifndef VQX_LIBVMAF_MODEL_H
#define VQX_LIBVMAF_MODEL_H

#include <stdint.h>

#include "libvmaf/feature.h"

#ifdef __cplusplus
extern "C" {
#endif

/* A VMAF model (opaque): a built-in version or a JSON file, with a name. */
typedef struct VmafModel VmafModel;

enum VmafModelFlags {
  VMAF_MODEL_FLAGS_DEFAULT = 0,
  VMAF_MODEL_FLAG_DISABLE_CLIP = (1 << 0),
  VMAF_MODEL_FLAG_ENABLE_TRANSFORM = (1 << 1),
  VMAF_MODEL_FLAG_DISABLE_TRANSFORM = (1 << 2),
};

/* name: the name of the model's scores (NULL: "vmaf"). flags: a set of
 * enum VmafModelFlags. Loading reads DISABLE_CLIP (ignore the model's
 * score clip) and ENABLE_TRANSFORM (apply its score transform even if the
 * file does not enable it); as in libvmaf 3.2.0, DISABLE_TRANSFORM has no
 * effect at loading. */
typedef struct VmafModelConfig {
  const char* name;
  uint64_t flags;
} VmafModelConfig;

/* Loads the built-in model `version` (e.g. "vmaf_v0.6.1"). Returns 0, or a
 * negative errno code (-EINVAL: an unknown version or a bad argument). */
int vmaf_model_load(VmafModel** model, VmafModelConfig* cfg, const char* version);

/* Loads a model from a JSON model file. Returns 0, or a negative errno code. */
int vmaf_model_load_from_path(VmafModel** model, VmafModelConfig* cfg, const char* path);

/* Sets options (opts_dict) on the model's features that the extractor
 * feature_name computes, e.g. "vif" with vif_enhn_gain_limit. Takes
 * ownership of opts_dict (freed on success and on failure). Returns 0, or a
 * negative errno code. */
int vmaf_model_feature_overload(VmafModel* model, const char* feature_name,
                                VmafFeatureDictionary* opts_dict);

/* Frees a model (NULL is ignored). */
void vmaf_model_destroy(VmafModel* model);

/* A bootstrap model collection (opaque). */
typedef struct VmafModelCollection VmafModelCollection;

enum VmafModelCollectionScoreType {
  VMAF_MODEL_COLLECTION_SCORE_UNKNOWN = 0,
  VMAF_MODEL_COLLECTION_SCORE_BOOTSTRAP,
};

typedef struct VmafModelCollectionScore {
  enum VmafModelCollectionScoreType type;
  struct {
    double bagging_score;
    double stddev;
    struct {
      struct {
        double lo, hi;
      } p95;
    } ci;
  } bootstrap;
} VmafModelCollectionScore;

/* Loads the built-in bootstrap collection `version` (e.g. "vmaf_b_v0.6.3"):
 * *model is its main model, *model_collection the collection; each is
 * destroyed with its own function. Returns 0, or a negative errno code. */
int vmaf_model_collection_load(VmafModel** model, VmafModelCollection** model_collection,
                               VmafModelConfig* cfg, const char* version);

/* As vmaf_model_collection_load(), from a JSON model collection file. */
int vmaf_model_collection_load_from_path(VmafModel** model, VmafModelCollection** model_collection,
                                         VmafModelConfig* cfg, const char* path);

/* vmaf_model_feature_overload() on the model and on every model of the
 * collection. Takes ownership of opts_dict. */
int vmaf_model_collection_feature_overload(VmafModel* model, VmafModelCollection** model_collection,
                                           const char* feature_name,
                                           VmafFeatureDictionary* opts_dict);

/* Frees a collection (NULL is ignored). */
void vmaf_model_collection_destroy(VmafModelCollection* model_collection);

#ifdef __cplusplus
}
#endif

#endif /* VQX_LIBVMAF_MODEL_H */
