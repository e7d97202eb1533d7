// The fault-test hooks of faults.hpp on a real device.
#include <algorithm>
#include <array>
#include <atomic>
#include <vector>

#include "gpu/faults.hpp"
#include "gpu/runtime.hpp"

namespace vqx::gpu {

namespace {

// Per point: 0 none pending, otherwise the calls left until the fault.
std::array<std::atomic<unsigned>, 3> g_countdown{};

std::atomic<unsigned>& countdown(FaultPoint point) {
  return g_countdown[static_cast<std::size_t>(point)];
}

class DeviceMemoryHold final : public MemoryHold {
 public:
  std::vector<RawDeviceMemory> blocks;
  std::size_t held = 0;
  [[nodiscard]] std::size_t bytes() const override { return held; }
};

__global__ void write_through_null_kernel(int* p) { *p = 1; }

}  // namespace

Status poison_device(unsigned device) {
  VQX_RETURN_IF_ERROR(use_device(device));
  VQX_ASSIGN_OR_RETURN(Stream s, Stream::create());
  write_through_null_kernel<<<1, 1, 0, s.handle()>>>(nullptr);
  VQX_RETURN_IF_ERROR(check_launch("write_through_null_kernel"));
  return s.synchronize();
}

Expected<MemoryInfo> memory_info(unsigned device) {
  VQX_RETURN_IF_ERROR(use_device(device));
  MemoryInfo m;
  VQX_RETURN_IF_ERROR(
      check(vendor::memory_info(&m.free_bytes, &m.total_bytes), "reading free device memory"));
  return m;
}

Expected<std::unique_ptr<MemoryHold>> MemoryHold::take(unsigned device, std::size_t leave_free) {
  auto hold = std::make_unique<DeviceMemoryHold>();
  // Large blocks first, then smaller ones as the device fills up; an
  // allocation that does not fit only means a smaller block is next.
  constexpr std::size_t kMiB = std::size_t{1} << 20;
  for (std::size_t block = 1024 * kMiB; block >= kMiB;) {
    VQX_ASSIGN_OR_RETURN(MemoryInfo m, memory_info(device));
    if (m.free_bytes <= leave_free) break;
    const std::size_t want = std::min(block, m.free_bytes - leave_free);
    if (want < kMiB) break;
    auto mem = RawDeviceMemory::allocate(want);
    if (!mem.ok()) {
      block /= 2;
      continue;
    }
    hold->held += want;
    hold->blocks.push_back(std::move(mem).value());
  }
  return std::unique_ptr<MemoryHold>(std::move(hold));
}

void inject_fault(FaultPoint point, unsigned nth) { countdown(point).store(nth); }

void clear_faults() {
  for (auto& c : g_countdown) c.store(0);
}

bool take_fault(FaultPoint point) {
  auto& c = countdown(point);
  unsigned v = c.load();
  while (v != 0) {
    if (c.compare_exchange_weak(v, v - 1)) return v == 1;
  }
  return false;
}

}  // namespace vqx::gpu
