#include "metrics/ssimulacra2/params.hpp"

namespace vqx::ssimulacra2 {

std::span<const OptionDef> option_defs() {
  static const std::array<OptionDef, 3> kDefs = {{
      {"matrix", nullptr, OptionValue{std::string(kDefaultMatrix)}, 0, 0, true},
      {"range", nullptr, OptionValue{std::string(kDefaultRange)}, 0, 0, true},
      {"transfer", nullptr, OptionValue{std::string(kDefaultTransfer)}, 0, 0, true},
  }};
  return kDefs;
}

}  // namespace vqx::ssimulacra2
