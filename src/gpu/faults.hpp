// Hooks for the GPU fault tests (tests/gpu/faults_test.cpp,
// docs/reliability.md): device memory as the runtime reports it, a holder
// that fills a device, and injected faults. Plain C++ (the tests see no
// vendor header); without a GPU backend the holder and the memory query
// return an error and injection does nothing.
#pragma once

#include <cstddef>
#include <memory>

#include "vqx/status.hpp"

namespace vqx::gpu {

struct MemoryInfo {
  std::size_t free_bytes = 0;
  std::size_t total_bytes = 0;
};
Expected<MemoryInfo> memory_info(unsigned device);

// Device memory held until destroyed: everything but about `leave_free`
// bytes of what was free, in blocks.
class MemoryHold {
 public:
  static Expected<std::unique_ptr<MemoryHold>> take(unsigned device, std::size_t leave_free);
  virtual ~MemoryHold() = default;
  [[nodiscard]] virtual std::size_t bytes() const = 0;
};

// Where a fault can be injected: an allocation (as if the device were full),
// a kernel launch (as if it had failed) and a wait for the device's work (as
// if a kernel had faulted while running, reported at the next wait).
enum class FaultPoint { kAllocation, kLaunch, kWait };

// From now on, in this process, the `nth` call (1: the next one) at `point`
// fails with the vendor's error for it and "(injected)" in the message.
// One pending fault per point; nth 0 clears that point.
void inject_fault(FaultPoint point, unsigned nth);
void clear_faults();

// Makes a kernel on `device` write through a null pointer: a real fault,
// which (unlike the injected ones) poisons the device for the rest of the
// process. Returns the error it caused. Its own test process only.
Status poison_device(unsigned device);

// For the runtime wrappers: whether this call at `point` is the injected
// fault (counts the call down).
bool take_fault(FaultPoint point);

}  // namespace vqx::gpu
