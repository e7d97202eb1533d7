#include "metrics/cambi/runs.hpp"

#include <algorithm>
#include <bit>
#include <cstring>

namespace vqx::cambi {

std::uint32_t append_runs(const std::uint16_t* levels, const std::uint8_t* flat, unsigned w,
                          const ContrastTables& t, std::uint16_t* row_codes, std::uint8_t* starts,
                          Run* runs) {
  const auto base = static_cast<std::uint16_t>(t.band_base);
  const auto size = static_cast<std::uint16_t>(t.band_size);
  for (unsigned c = 0; c < w; ++c) row_codes[c] = code_of(levels[c], flat[c], base, size);
  // starts[c] = 1 where a run starts; then the starts are found 8 at a time
  // (most words of a row hold none).
  const unsigned words = (w + 7) / 8;
  starts[0] = 1;
  for (unsigned c = 1; c < w; ++c) starts[c] = row_codes[c] != row_codes[c - 1];
  std::fill(starts + w, starts + words * 8, std::uint8_t{0});
  std::uint32_t n = 0;
  for (unsigned k = 0; k < words; ++k) {
    std::uint64_t eight = 0;
    std::memcpy(&eight, starts + 8 * k, sizeof eight);
    while (eight != 0) {
      const unsigned c = 8 * k + static_cast<unsigned>(std::countr_zero(eight)) / 8;
      runs[n++] = {static_cast<std::uint16_t>(c), row_codes[c]};
      eight &= eight - 1;
    }
  }
  return n;
}

}  // namespace vqx::cambi
