/* libvmaf 3.x-compatible C API (VQX): feature option dictionaries.
 *
 * The declarations follow libvmaf 3.2.0's public header libvmaf/feature.h
 * (docs/capi.md); this file is VQX's own. */
#ifndef VQX_LIBVMAF_FEATURE_H
#define VQX_LIBVMAF_FEATURE_H

#ifdef __cplusplus
extern "C" {
#endif

/* Options for one feature extractor: key/value pairs, both text. */
typedef struct VmafFeatureDictionary VmafFeatureDictionary;

/* Sets `key` to `val`, creating the dictionary when *dict is NULL. A value
 * that reads as one number is stored in "%g" form ("1.0" becomes "1"), as
 * libvmaf does; setting a key again replaces its value.
 * Returns 0, or -EINVAL (a NULL argument), -ENOMEM. */
int vmaf_feature_dictionary_set(VmafFeatureDictionary** dict, const char* key, const char* val);

/* Frees the dictionary (*dict NULL: nothing to free) and sets *dict to
 * NULL. Returns 0, or -EINVAL when dict is NULL. */
int vmaf_feature_dictionary_free(VmafFeatureDictionary** dict);

#ifdef __cplusplus
}
#endif

#endif /* VQX_LIBVMAF_FEATURE_H */
