#include "core/extractor.hpp"

namespace vqx {

std::vector<ExtractorOutput> outputs_with_suffix(std::span<const char* const> bases,
                                                 const std::string& suffix) {
  std::vector<ExtractorOutput> out;
  out.reserve(bases.size());
  for (const char* b : bases) out.push_back({b, std::string(b) + suffix});
  return out;
}

}  // namespace vqx
