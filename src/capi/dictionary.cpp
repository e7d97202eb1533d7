// vmaf_feature_dictionary_set/free (include/libvmaf/feature.h).
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <new>

#include "capi/internals.hpp"

namespace {

// libvmaf's rule: a value that is one float (white space around it allowed)
// is rounded to float and stored as "%g".
std::string normalize(const char* val) {
  float f = 0;
  char c = 0;
  if (std::sscanf(val, "%f %c", &f, &c) != 1) return val;
  char* end = nullptr;
  const double d = std::strtof(val, &end);
  char buf[64];
  std::snprintf(buf, sizeof buf, "%g", d);
  return buf;
}

}  // namespace

extern "C" int vmaf_feature_dictionary_set(VmafFeatureDictionary** dict, const char* key,
                                           const char* val) {
  if (dict == nullptr || key == nullptr || val == nullptr) return -EINVAL;
  try {
    std::string value = normalize(val);
    if (*dict == nullptr) *dict = new VmafFeatureDictionary;
    for (auto& [k, v] : (*dict)->entries) {
      if (k == key) {
        v = std::move(value);
        return 0;
      }
    }
    (*dict)->entries.emplace_back(key, std::move(value));
    return 0;
  } catch (const std::bad_alloc&) {
    return -ENOMEM;
  }
}

extern "C" int vmaf_feature_dictionary_free(VmafFeatureDictionary** dict) {
  if (dict == nullptr) return -EINVAL;
  delete *dict;
  *dict = nullptr;
  return 0;
}
