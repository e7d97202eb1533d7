#include "metrics/cambi/window.hpp"

#include <algorithm>

#include "core/index_math.hpp"

namespace vqx::cambi {

namespace {

constexpr int kBlock = 8;

// Adds (or removes) pixels at columns first .. last of one code: column x
// receives the number of them within `radius` of it, which is
// max(0, min(x - (first - radius) + 1, (last + radius) - x + 1, run, window)):
// a trapezoid, 0 outside the reach. 16-bit lanes: every term is at most the
// picture width plus the margin.
template <bool kAdd>
void add_run(std::uint16_t* row, int radius, int first, int last) {
  const int lo = first - radius;
  const int hi = last + radius;
  const auto peak = static_cast<std::int16_t>(std::min(last - first + 1, 2 * radius + 1));
  // Whole blocks of 8 columns, aligned on multiples of 8 (lo may be
  // negative: & rounds down).
  const int begin = lo & -kBlock;
  const int n = ((hi - begin) / kBlock + 1) * kBlock;
  std::uint16_t* out = row + begin;
  const auto rise = static_cast<std::int16_t>(begin - lo + 1);  // at begin
  const auto fall = static_cast<std::int16_t>(hi - begin + 1);  // at begin
  for (int i = 0; i < n; ++i) {
    const auto up = static_cast<std::int16_t>(rise + i);
    const auto down = static_cast<std::int16_t>(fall - i);
    const std::int16_t tri = std::min(std::min(up, down), peak);
    const auto step = static_cast<std::uint16_t>(std::max<std::int16_t>(tri, 0));
    out[i] = static_cast<std::uint16_t>(kAdd ? out[i] + step : out[i] - step);
  }
}

}  // namespace

CountsLayout counts_layout(unsigned w, unsigned radius, unsigned band_size, unsigned num_diffs) {
  CountsLayout l;
  // A run's reach ends `radius` columns past the picture, and its blocks up
  // to 7 more.
  l.margin = round_up(std::size_t{radius + kBlock}, kBlock);
  l.stride = round_up(std::size_t{w}, kBlock) + 2 * l.margin;
  l.spare = num_diffs;
  l.codes = band_size;
  return l;
}

template <bool kAdd>
void update_counts(std::uint16_t* counts, const CountsLayout& layout, unsigned radius,
                   const RowRuns& row) {
  const auto r = static_cast<int>(radius);
  for (const Run* run = row.begin; run != row.end; ++run) {
    if (run->code == kNoCode) continue;
    add_run<kAdd>(counts + run->code * layout.stride, r, run->start,
                  static_cast<int>(row.end_of(run)) - 1);
  }
}

template void update_counts<true>(std::uint16_t*, const CountsLayout&, unsigned, const RowRuns&);
template void update_counts<false>(std::uint16_t*, const CountsLayout&, unsigned, const RowRuns&);

void replace_counts(std::uint16_t* counts, const CountsLayout& layout, unsigned radius,
                    const RowRuns& leaving, const RowRuns& entering) {
  const auto r = static_cast<int>(radius);
  const unsigned w = leaving.width;
  // Walk both rows' runs together, piece by piece: within a piece both
  // codes are constant.
  const Run* out = leaving.begin;
  const Run* in = entering.begin;
  unsigned pos = 0;
  while (pos < w) {
    const unsigned out_end = leaving.end_of(out);
    const unsigned in_end = entering.end_of(in);
    const unsigned end = out_end < in_end ? out_end : in_end;
    if (out->code != in->code) {
      const int first = static_cast<int>(pos);
      const int last = static_cast<int>(end) - 1;
      if (out->code != kNoCode) add_run<false>(counts + out->code * layout.stride, r, first, last);
      if (in->code != kNoCode) add_run<true>(counts + in->code * layout.stride, r, first, last);
    }
    pos = end;
    if (end == out_end) ++out;
    if (end == in_end) ++in;
  }
}

}  // namespace vqx::cambi
