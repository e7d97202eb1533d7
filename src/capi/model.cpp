// Models and bootstrap collections (include/libvmaf/model.h) as VQX model
// specs, checked when loaded.
#include <cerrno>
#include <new>
#include <string>

#include "capi/internals.hpp"

namespace vqx::capi {

Status check_model_spec(const std::string& spec) {
  VQX_ASSIGN_OR_RETURN(auto ctx, Context::create({.threads = 0, .backend = Backend::kCpu}));
  return ctx->use_features_from_model(spec);
}

}  // namespace vqx::capi

namespace {

using vqx::Errc;
using vqx::Status;

// ':' separates the items of a spec; a value that holds one cannot be said.
bool sayable(const std::string& s) { return s.find(':') == std::string::npos; }

// "version=V:name=N[:disable_clip][:enable_transform]" (or path=P).
int make_spec(const VmafModelConfig* cfg, const char* source_key, const char* source,
              std::string& name, std::string& spec) {
  if (cfg == nullptr || source == nullptr || *source == '\0') return -EINVAL;
  // VMAF_MODEL_FLAG_DISABLE_TRANSFORM and unknown bits: libvmaf 3.2.0's
  // loading reads only DISABLE_CLIP and ENABLE_TRANSFORM from the
  // configuration (the other flag is for its own bootstrap arithmetic), so
  // they change nothing here either.
  name = cfg->name != nullptr ? cfg->name : "vmaf";
  const std::string src = source;
  if (name.empty() || !sayable(name) || !sayable(src)) return -EINVAL;
  spec = std::string(source_key) + "=" + src + ":name=" + name;
  if ((cfg->flags & VMAF_MODEL_FLAG_DISABLE_CLIP) != 0) spec += ":disable_clip";
  if ((cfg->flags & VMAF_MODEL_FLAG_ENABLE_TRANSFORM) != 0) spec += ":enable_transform";
  return 0;
}

template <typename T>
int load(T** out, VmafModelConfig* cfg, const char* source_key, const char* source) {
  if (out == nullptr) return -EINVAL;
  try {
    std::string name, spec;
    if (int err = make_spec(cfg, source_key, source, name, spec); err != 0) return err;
    if (Status s = vqx::capi::check_model_spec(spec); !s.ok()) return vqx::capi::to_errno(s);
    *out = new T{std::move(name), std::move(spec)};
    return 0;
  } catch (const std::bad_alloc&) {
    return -ENOMEM;
  }
}

// The spec with ":feature.key=value" for each entry of the dictionary, if
// VQX accepts it (a feature the model does not compute is an error).
int overload(std::string& spec, const char* feature_name, const VmafFeatureDictionary* dict) {
  if (feature_name == nullptr || *feature_name == '\0' || dict == nullptr) return -EINVAL;
  std::string out = spec;
  for (const auto& [key, value] : dict->entries) {
    if (!sayable(key) || !sayable(value) || key.empty() || value.empty()) return -EINVAL;
    // An option given again replaces the earlier value (libvmaf's merge).
    const std::string item = std::string(feature_name) + "." + key + "=";
    std::size_t at = 0;
    while ((at = out.find(":" + item, at)) != std::string::npos) {
      const std::size_t end = out.find(':', at + 1);
      out.erase(at, end == std::string::npos ? std::string::npos : end - at);
    }
    out += ":" + item + value;
  }
  if (Status s = vqx::capi::check_model_spec(out); !s.ok()) return vqx::capi::to_errno(s);
  spec = std::move(out);
  return 0;
}

}  // namespace

extern "C" int vmaf_model_load(VmafModel** model, VmafModelConfig* cfg, const char* version) {
  return load(model, cfg, "version", version);
}

extern "C" int vmaf_model_load_from_path(VmafModel** model, VmafModelConfig* cfg,
                                         const char* path) {
  return load(model, cfg, "path", path);
}

extern "C" int vmaf_model_feature_overload(VmafModel* model, const char* feature_name,
                                           VmafFeatureDictionary* opts_dict) {
  int err = -EINVAL;
  if (model != nullptr) {
    try {
      err = overload(model->spec, feature_name, opts_dict);
    } catch (const std::bad_alloc&) {
      err = -ENOMEM;
    }
  }
  if (opts_dict != nullptr) vmaf_feature_dictionary_free(&opts_dict);
  return err;
}

extern "C" void vmaf_model_destroy(VmafModel* model) { delete model; }

extern "C" int vmaf_model_collection_load(VmafModel** model, VmafModelCollection** model_collection,
                                          VmafModelConfig* cfg, const char* version) {
  if (model_collection == nullptr) return -EINVAL;
  if (int err = load(model, cfg, "version", version); err != 0) return err;
  *model_collection = new (std::nothrow) VmafModelCollection{(*model)->name, (*model)->spec};
  if (*model_collection == nullptr) {
    vmaf_model_destroy(*model);
    *model = nullptr;
    return -ENOMEM;
  }
  return 0;
}

extern "C" int vmaf_model_collection_load_from_path(VmafModel** model,
                                                    VmafModelCollection** model_collection,
                                                    VmafModelConfig* cfg, const char* path) {
  if (model_collection == nullptr) return -EINVAL;
  if (int err = load(model, cfg, "path", path); err != 0) return err;
  *model_collection = new (std::nothrow) VmafModelCollection{(*model)->name, (*model)->spec};
  if (*model_collection == nullptr) {
    vmaf_model_destroy(*model);
    *model = nullptr;
    return -ENOMEM;
  }
  return 0;
}

extern "C" int vmaf_model_collection_feature_overload(VmafModel* model,
                                                      VmafModelCollection** model_collection,
                                                      const char* feature_name,
                                                      VmafFeatureDictionary* opts_dict) {
  int err = -EINVAL;
  if (model != nullptr && model_collection != nullptr && *model_collection != nullptr) {
    try {
      std::string model_spec = model->spec;
      std::string collection_spec = (*model_collection)->spec;
      err = overload(model_spec, feature_name, opts_dict);
      if (err == 0) err = overload(collection_spec, feature_name, opts_dict);
      if (err == 0) {
        model->spec = std::move(model_spec);
        (*model_collection)->spec = std::move(collection_spec);
      }
    } catch (const std::bad_alloc&) {
      err = -ENOMEM;
    }
  }
  if (opts_dict != nullptr) vmaf_feature_dictionary_free(&opts_dict);
  return err;
}

extern "C" void vmaf_model_collection_destroy(VmafModelCollection* model_collection) {
  delete model_collection;
}
