// vqx_contract_check [repo_root]: prints every violation of the frame
// protocol and of "every number once" (numbers_check.hpp) in the checkout's
// GPU sources; exits 1 if there is one.
#include <cstdio>

#include "contract_check.hpp"
#include "numbers_check.hpp"

int main(int argc, char** argv) {
  const std::string root = argc > 1 ? argv[1] : ".";
  const auto files = vqx::contract::gpu_sources(root);
  auto v = vqx::contract::check(files);
  const auto numbers = vqx::contract::check_numbers(files, vqx::contract::params_sources(root));
  v.insert(v.end(), numbers.begin(), numbers.end());
  for (const auto& x : v) std::printf("%s\n", vqx::contract::format(x).c_str());
  std::printf("%zu GPU source files, %zu violations\n", files.size(), v.size());
  return v.empty() ? 0 : 1;
}
