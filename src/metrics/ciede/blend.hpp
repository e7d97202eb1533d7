// pick(c, a, b) = c ? a : b, for loops the compiler must vectorise.
#pragma once

#include <cstdint>

#include "core/kernel_build.hpp"

namespace vqx::ciede {

// std::bit_cast's builtin, forced inline, constexpr (so that device code
// calls it too). GCC 12 (-O1 and above) miscompiles the batch loops when
// they call std::bit_cast, an ordinary function template it inlines late:
// its IPA analyses then lose the loop's stores, and the caller drops the
// whole call. The builtin is no call at all (memcpy, used before, is not
// constexpr).
template <typename To, typename From>
VQX_FORCE_INLINE constexpr To bits_as(const From& from) {
  static_assert(sizeof(To) == sizeof(From));
  return __builtin_bit_cast(To, from);
}

// c ? a : b as a blend of bits. Written as a conditional, GCC moves the
// computation of a value used on one side only into a branch, and a branch
// holding a float conversion or a division (which may raise flags) is not
// vectorised (except with AVX-512's masked instructions). pick_bit() takes
// the condition as an integer 0 or 1: an int turned into a bool is not
// vectorised either.
VQX_FORCE_INLINE constexpr float pick(bool c, float a, float b) {
  const std::uint32_t m = 0U - static_cast<std::uint32_t>(c);
  return bits_as<float>((bits_as<std::uint32_t>(a) & m) | (bits_as<std::uint32_t>(b) & ~m));
}

VQX_FORCE_INLINE constexpr double pick_bit(std::uint64_t bit, double a, double b) {
  const std::uint64_t m = 0U - bit;
  return bits_as<double>((bits_as<std::uint64_t>(a) & m) | (bits_as<std::uint64_t>(b) & ~m));
}

VQX_FORCE_INLINE constexpr double pick(bool c, double a, double b) {
  return pick_bit(static_cast<std::uint64_t>(c), a, b);
}

}  // namespace vqx::ciede
