// VQX_GPU=off: the fault-test hooks of faults.hpp without a device.
#include "gpu/faults.hpp"

namespace vqx::gpu {

namespace {
Status no_backend() { return Error(Errc::kUnsupported, "this build of VQX has no GPU backend"); }
}  // namespace

Expected<MemoryInfo> memory_info(unsigned /*device*/) { return no_backend(); }
Expected<std::unique_ptr<MemoryHold>> MemoryHold::take(unsigned /*device*/,
                                                       std::size_t /*leave_free*/) {
  return no_backend();
}
Status poison_device(unsigned /*device*/) { return no_backend(); }
void inject_fault(FaultPoint /*point*/, unsigned /*nth*/) {}
void clear_faults() {}
bool take_fault(FaultPoint /*point*/) { return false; }

}  // namespace vqx::gpu
