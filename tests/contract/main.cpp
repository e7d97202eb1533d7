// vqx_contract_check [repo_root]: prints every violation of the frame
// protocol and of "every number once" (numbers_check.hpp) in the
// checkout's GPU sources, and of the layering rule in its include/, src/ and
// tools/ sources; exits 1 if there is one.
#include <cstdio>

#include "contract_check.hpp"
#include "layering_check.hpp"
#include "numbers_check.hpp"

int main(int argc, char** argv) {
  const std::string root = argc > 1 ? argv[1] : ".";
  const auto gpu = vqx::contract::gpu_sources(root);
  auto protocol = vqx::contract::check(gpu);
  const auto numbers = vqx::contract::check_numbers(gpu, vqx::contract::params_sources(root));
  protocol.insert(protocol.end(), numbers.begin(), numbers.end());
  const auto placement =
      vqx::contract::check_device_code_placement(vqx::contract::other_sources(root));
  protocol.insert(protocol.end(), placement.begin(), placement.end());
  for (const auto& x : protocol) std::printf("%s\n", vqx::contract::format(x).c_str());
  std::printf("%zu GPU source files, %zu violations\n", gpu.size(), protocol.size());
  const auto all = vqx::contract::layered_sources(root);
  const auto layering = vqx::contract::check_layering(all);
  for (const auto& x : layering) std::printf("%s\n", vqx::contract::format(x).c_str());
  std::printf("%zu include/src/tools files, %zu layering violations\n", all.size(),
              layering.size());
  return protocol.empty() && layering.empty() ? 0 : 1;
}
