// Unit tests of core/index_math.hpp: round_up and ceil_div at their edges,
// and each border rule against its definition (the periodic extension of
// the side) over every valid index of sides of 1 to 40 samples, plus the
// values that the families' own rules had, written out.
#include "core/index_math.hpp"

#include <gtest/gtest.h>

#include <cstddef>
#include <cstdint>
#include <limits>
#include <vector>

namespace vqx {
namespace {

// Usable in constant expressions (the GPU twins need that).
static_assert(round_up(17, 16) == 32);
static_assert(ceil_div(33U, 32U) == 2U);
static_assert(reflect101(-1, 5) == 1);
static_assert(reflect_repeat(-1, 5) == 0);
static_assert(reflect101_repeat_end(5, 5) == 4);

TEST(IndexMath, RoundUpToAMultiple) {
  EXPECT_EQ(round_up(std::size_t{0}, 16), 0U);
  EXPECT_EQ(round_up(std::size_t{1}, 16), 16U);
  EXPECT_EQ(round_up(std::size_t{15}, 16), 16U);
  EXPECT_EQ(round_up(std::size_t{16}, 16), 16U);
  EXPECT_EQ(round_up(std::size_t{17}, 16), 32U);
  EXPECT_EQ(round_up(std::size_t{3840 * 2}, 256), 7680U);  // a 16-bit 4K row's pitch
  EXPECT_EQ(round_up(std::size_t{1918 * 2}, 256), 3840U);  // and of an odd width
  EXPECT_EQ(round_up(7U, 1U), 7U);
  EXPECT_EQ(round_up(5, 3), 6);  // not only powers of two
  EXPECT_EQ(round_up(6, 3), 6);
  // In the first argument's type: no narrowing of a 64-bit size.
  const std::size_t big = std::size_t{1} << 40;
  EXPECT_EQ(round_up(big + 1, 64), big + 64);
  EXPECT_EQ(round_up(std::numeric_limits<std::uint32_t>::max() - 15, 16U),
            std::numeric_limits<std::uint32_t>::max() - 15);
}

TEST(IndexMath, CeilDivCountsCoveringBlocks) {
  EXPECT_EQ(ceil_div(0U, 32U), 0U);
  EXPECT_EQ(ceil_div(1U, 32U), 1U);
  EXPECT_EQ(ceil_div(32U, 32U), 1U);
  EXPECT_EQ(ceil_div(33U, 32U), 2U);
  EXPECT_EQ(ceil_div(3840U, 128U), 30U);
  EXPECT_EQ(ceil_div(2160U, 8U), 270U);
  EXPECT_EQ(ceil_div(7, 1), 7);
  for (unsigned m = 1; m < 40; ++m) {
    for (unsigned n = 0; n < 200; ++n) {
      ASSERT_EQ(ceil_div(n, m) * m, round_up(n, m)) << n << " " << m;
      ASSERT_GE(ceil_div(n, m) * m, n);
      ASSERT_LT(ceil_div(n, m) * m, n + m);
    }
  }
}

// The periodic extension that defines a rule: `period` indices that walk
// 0 .. n - 1 and back, starting at index 0.
std::vector<int> one_period(int n, bool repeat_start, bool repeat_end) {
  std::vector<int> p;
  for (int i = 0; i < n; ++i) p.push_back(i);
  for (int i = repeat_end ? n - 1 : n - 2; i >= (repeat_start ? 0 : 1); --i) p.push_back(i);
  return p;
}

int by_definition(int i, int n, bool repeat_start, bool repeat_end) {
  const std::vector<int> p = one_period(n, repeat_start, repeat_end);
  const int len = static_cast<int>(p.size());
  return p[static_cast<std::size_t>(((i % len) + len) % len)];
}

TEST(IndexMath, Reflect101MatchesItsDefinition) {
  for (int n = 2; n <= 40; ++n) {
    for (int i = -n + 1; i < 2 * n - 1; ++i) {
      ASSERT_EQ(reflect101(i, n), by_definition(i, n, false, false)) << i << " in " << n;
    }
  }
  EXPECT_EQ(reflect101(0, 1), 0);  // a single sample reflects onto itself
  // The edge is not repeated on either side.
  EXPECT_EQ(reflect101(-1, 10), 1);
  EXPECT_EQ(reflect101(-9, 10), 9);
  EXPECT_EQ(reflect101(9, 10), 9);
  EXPECT_EQ(reflect101(10, 10), 8);
  EXPECT_EQ(reflect101(17, 10), 1);
  EXPECT_EQ(reflect101(18, 10), 0);
}

TEST(IndexMath, ReflectRepeatMatchesItsDefinition) {
  for (int n = 1; n <= 40; ++n) {
    for (int i = -n; i < 2 * n; ++i) {
      ASSERT_EQ(reflect_repeat(i, n), by_definition(i, n, true, true)) << i << " in " << n;
    }
  }
  EXPECT_EQ(reflect_repeat(-1, 10), 0);
  EXPECT_EQ(reflect_repeat(-10, 10), 9);
  EXPECT_EQ(reflect_repeat(10, 10), 9);
  EXPECT_EQ(reflect_repeat(19, 10), 0);
}

TEST(IndexMath, Reflect101RepeatEndMatchesItsDefinition) {
  for (int n = 2; n <= 40; ++n) {
    for (int i = -n + 1; i < 2 * n; ++i) {
      ASSERT_EQ(reflect101_repeat_end(i, n), by_definition(i, n, false, true)) << i << " in " << n;
    }
  }
  // libvmaf's ADM wavelet rule: -1 reads 1, n reads n - 1, n + 1 reads n - 2.
  EXPECT_EQ(reflect101_repeat_end(-1, 10), 1);
  EXPECT_EQ(reflect101_repeat_end(10, 10), 9);
  EXPECT_EQ(reflect101_repeat_end(11, 10), 8);
  EXPECT_EQ(reflect101_repeat_end(19, 10), 0);
}

TEST(IndexMath, PaddingFillsTheMarginsByTheRule) {
  for (int n = 3; n <= 12; ++n) {
    for (int margin = 0; margin < n; ++margin) {
      std::vector<int> buf(static_cast<std::size_t>(n + 2 * margin), -1);
      int* row = buf.data() + margin;
      for (int i = 0; i < n; ++i) row[i] = 100 + i;
      pad_reflect101(row, n, margin);
      for (int i = -margin; i < n + margin; ++i) {
        ASSERT_EQ(row[i], 100 + reflect101(i, n)) << i << " of " << n << ", margin " << margin;
      }
    }
    for (int before = 0; before < n; ++before) {
      for (int after = 0; after <= n; ++after) {
        std::vector<int> buf(static_cast<std::size_t>(n + before + after + 2), -1);
        int* row = buf.data() + before + 1;
        for (int i = 0; i < n; ++i) row[i] = 100 + i;
        pad_reflect101_repeat_end(row, n, before, after);
        for (int i = -before; i < n + after; ++i) {
          ASSERT_EQ(row[i], 100 + reflect101_repeat_end(i, n)) << i << " of " << n;
        }
        EXPECT_EQ(row[-before - 1], -1);  // nothing written past the margins
        EXPECT_EQ(row[n + after], -1);
      }
    }
  }
}

}  // namespace
}  // namespace vqx
