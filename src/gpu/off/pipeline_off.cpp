// VQX_GPU=off: no backend, no device. Asking for one is a clear error.
#include "gpu/pipeline.hpp"

namespace vqx::gpu {

const char* compiled_backend() { return nullptr; }
unsigned available_devices() { return 0; }
Expected<unsigned> native_context_device(void* /*handle*/) {
  return Error(Errc::kUnsupported, "this build of VQX has no GPU backend");
}

std::shared_ptr<SharedReference> make_shared_reference() { return nullptr; }

Expected<std::unique_ptr<Pipeline>> Pipeline::open(unsigned /*device*/) {
  return Error(Errc::kUnsupported,
               "this build of VQX has no GPU backend (configure with -DVQX_GPU=cuda or hip)");
}

}  // namespace vqx::gpu
