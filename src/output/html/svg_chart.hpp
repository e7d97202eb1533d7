// The report's charts as inline SVG: a metric's per-frame values with every
// run overlaid, and its histogram. Drawn here, not by a script in the page,
// so the file shows the same in any browser, with scripts off, and printed.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace vqx::html {

// One run's values of one metric: values[i] is frame frames[i]'s (NaN
// where absent; non-finite values are not drawn).
struct Series {
  std::string label;
  const std::vector<unsigned>* frames = nullptr;
  const std::vector<double>* values = nullptr;
};

// The colour of run i (a fixed palette, repeated past its end).
const char* run_colour(std::size_t i);

// Axis ticks: lo, lo + step, ..., hi, with step 1, 2 or 5 times a power of
// ten, lo <= min and hi >= max; a range of one value is widened around it,
// and so is a range too narrow for its labels (or below 1e-200). Every
// field is finite whatever the arguments: the axes span at most +-1e307
// (values beyond are drawn off the chart), target_count is taken as 1 to
// 50, and non-finite arguments give the ticks of 0 to 1.
struct Ticks {
  double lo = 0;
  double hi = 1;
  double step = 1;
  int decimals = 0;  // digits after the point that tell the ticks apart
};
Ticks nice_ticks(double min, double max, int target_count);

// The per-frame chart. Where a run has more frames than the plot has pixel
// columns, each column gets the lowest and the highest value of the frames
// that fall in it (in their order): every dip and peak stays visible and a
// path has at most two points per column, whatever the run's length.
std::string line_chart(std::string_view metric, const std::vector<Series>& runs);

// The distribution: each run's share of its frames in each of 30 bins
// spanning all runs' values, as an outlined step curve.
std::string histogram(std::string_view metric, const std::vector<Series>& runs);

}  // namespace vqx::html
