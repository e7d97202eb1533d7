#include "engine/backend.hpp"

#include <string>

namespace vqx {

Expected<std::unique_ptr<gpu::Pipeline>> open_backend(const ContextSettings& settings) {
  const char* compiled = gpu::compiled_backend();
  const std::string have = compiled == nullptr ? "" : compiled;
  switch (settings.backend) {
    case Backend::kCpu:
      return std::unique_ptr<gpu::Pipeline>();
    case Backend::kAuto:
      if (have.empty() || gpu::available_devices() == 0) return std::unique_ptr<gpu::Pipeline>();
      return gpu::Pipeline::open(settings.gpu);
    case Backend::kCuda:
    case Backend::kHip: {
      const std::string want = settings.backend == Backend::kCuda ? "cuda" : "hip";
      if (have != want) {
        return Error(
            Errc::kUnsupported,
            "backend " + want + " was asked for, but this build of VQX has " +
                (have.empty() ? std::string("no GPU backend") : "only the " + have + " backend"));
      }
      if (gpu::available_devices() == 0) {
        return Error(Errc::kDevice,
                     "backend " + want + " was asked for, but no " + want + " device is present");
      }
      return gpu::Pipeline::open(settings.gpu);
    }
  }
  return Error(Errc::kInvalidArgument, "unknown backend");
}

Expected<unsigned> gpu_device_of_native_context(void* native_context) {
  if (native_context == nullptr)
    return Error(Errc::kInvalidArgument, "no native GPU context given");
  return gpu::native_context_device(native_context);
}

Status init_extractors(std::deque<RegisteredExtractor>& extractors, gpu::Pipeline* gpu,
                       const ExtractorEnv& env, FeatureCollector& collector, Aggregates& aggregates,
                       const PictureFormat& fmt) {
  for (auto& r : extractors) {
    if (gpu != nullptr && r.spec.make_twin) {
      r.on_gpu = true;
      r.gpu_writer =
          std::make_unique<SlotWriter>(collector, r.metric_ids, &r.aggregate_names, &aggregates);
      gpu->add([&make = r.spec.make_twin, env] { return make(env); }, r.spec.family,
               r.spec.temporal, *r.gpu_writer);
      continue;
    }
    auto inst = r.spec.make_cpu(env);
    VQX_RETURN_IF_ERROR(inst->init(fmt));
    if (r.spec.temporal) {
      r.temporal = std::move(inst);
    } else {
      r.idle.push_back(std::move(inst));
    }
  }
  if (gpu != nullptr && !gpu->empty()) VQX_RETURN_IF_ERROR(gpu->init(fmt));
  return Status::Ok();
}

}  // namespace vqx
