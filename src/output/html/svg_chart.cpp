#include "output/html/svg_chart.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>

#include "output/html/html_text.hpp"
#include "output/number_format.hpp"

namespace vqx::html {

namespace {

// Sizes in SVG units (the page scales the charts to its width).
constexpr double kLineWidth = 760;
constexpr double kHistWidth = 380;
constexpr double kHeight = 260;
constexpr double kLeft = 62;  // room for the value labels
constexpr double kRight = 14;
constexpr double kTop = 12;
constexpr double kBottom = 40;  // tick labels and the axis title
constexpr int kBins = 30;
// nice_ticks()'s bounds (svg_chart.hpp).
constexpr double kValueLimit = 1e307;
constexpr double kLeastSpan = 1e-200;
constexpr int kMaxTicks = 50;
// Decimals in a tick label: %.17f tells any two doubles of the span apart
// that a label can (kLeastSpan's ticks then read alike, not as garbage).
constexpr int kMaxDecimals = 17;

// A plot area and the values its edges stand for.
struct Plot {
  double left = kLeft;
  double top = kTop;
  double width = 0;
  double height = kHeight - kTop - kBottom;
  Ticks x;
  Ticks y;
  [[nodiscard]] double px(double v) const { return left + (v - x.lo) / (x.hi - x.lo) * width; }
  [[nodiscard]] double py(double v) const {
    return top + height - (v - y.lo) / (y.hi - y.lo) * height;
  }
};

// Coordinates are kept within this many units of the origin: a value far
// off the axes (beyond kValueLimit) lands off the chart, never at a
// coordinate too long to print or not a number.
constexpr double kCoordLimit = 1e6;

// A coordinate, to a tenth of a unit (finer is invisible and costs bytes).
void append_coord(std::string& s, double v) {
  v = std::isnan(v) ? 0 : std::clamp(v, -kCoordLimit, kCoordLimit);
  output_detail::append_fixed(s, v, 1);  // the C locale's "%.1f", whatever the locale
}

void append_point(std::string& s, char command, double x, double y) {
  s += command;
  append_coord(s, x);
  s += ' ';
  append_coord(s, y);
}

// The tick values of `t`, lo to hi.
std::vector<double> tick_values(const Ticks& t) {
  std::vector<double> v;
  for (int k = 0;; ++k) {
    const double at = t.lo + k * t.step;
    if (at > t.hi + t.step * 1e-6 || k > 100) break;
    v.push_back(std::abs(at) < t.step * 1e-9 ? 0.0 : at);  // no "-0.00"
  }
  return v;
}

void open_svg(std::string& s, const char* kind, std::string_view metric, double width) {
  s += "<svg class=\"chart ";
  s += kind;
  s += "\" data-metric=\"" + escape(metric) + "\" viewBox=\"0 0 ";
  append_coord(s, width);
  s += ' ';
  append_coord(s, kHeight);
  s += "\" role=\"img\" aria-label=\"" + escape(metric) + " (" + kind + ")\">\n";
}

// Grid lines and value labels at the y ticks, ticks and labels along x,
// the frame and the axis titles.
void append_axes(std::string& s, const Plot& p, std::string_view x_title,
                 std::string_view y_title) {
  s += "<g class=\"axes\">\n";
  for (const double v : tick_values(p.y)) {
    const double y = p.py(v);
    s += "<line class=\"grid\" x1=\"";
    append_coord(s, p.left);
    s += "\" x2=\"";
    append_coord(s, p.left + p.width);
    s += "\" y1=\"";
    append_coord(s, y);
    s += "\" y2=\"";
    append_coord(s, y);
    s += "\"/><text class=\"ytick\" x=\"";
    append_coord(s, p.left - 6);
    s += "\" y=\"";
    append_coord(s, y + 4);
    s += "\">" + number(v, p.y.decimals) + "</text>\n";
  }
  const double bottom = p.top + p.height;
  for (const double v : tick_values(p.x)) {
    const double x = p.px(v);
    s += "<line class=\"tick\" x1=\"";
    append_coord(s, x);
    s += "\" x2=\"";
    append_coord(s, x);
    s += "\" y1=\"";
    append_coord(s, bottom);
    s += "\" y2=\"";
    append_coord(s, bottom + 5);
    s += "\"/><text class=\"xtick\" x=\"";
    append_coord(s, x);
    s += "\" y=\"";
    append_coord(s, bottom + 18);
    s += "\">" + number(v, p.x.decimals) + "</text>\n";
  }
  s += "<rect class=\"frame\" x=\"";
  append_coord(s, p.left);
  s += "\" y=\"";
  append_coord(s, p.top);
  s += "\" width=\"";
  append_coord(s, p.width);
  s += "\" height=\"";
  append_coord(s, p.height);
  s += "\"/>\n<text class=\"xtitle\" x=\"";
  append_coord(s, p.left + p.width / 2);
  s += "\" y=\"";
  append_coord(s, kHeight - 4);
  s += "\">" + escape(x_title) + "</text>\n";
  s += "<text class=\"ytitle\" transform=\"translate(12 ";
  append_coord(s, p.top + p.height / 2);
  s += ") rotate(-90)\">" + escape(y_title) + "</text>\n</g>\n";
}

void append_run_path(std::string& s, const char* kind, std::size_t run, const Series& series,
                     const std::string& d) {
  s += "<path class=\"run ";
  s += kind;
  s += "\" data-run=\"" + std::to_string(run) + "\" stroke=\"";
  s += run_colour(run);
  s += "\" fill=\"";
  s += std::string_view(kind) == "line" ? "none" : run_colour(run);
  s += "\" d=\"" + d + "\"><title>" + escape(series.label) + "</title></path>\n";
}

// The smallest and largest finite value over every run (false: none).
bool value_range(const std::vector<Series>& runs, double& lo, double& hi) {
  lo = std::numeric_limits<double>::infinity();
  hi = -lo;
  for (const Series& r : runs) {
    for (const double v : *r.values) {
      if (std::isfinite(v)) {
        lo = std::min(lo, v);
        hi = std::max(hi, v);
      }
    }
  }
  return lo <= hi;
}

std::string no_values(const char* kind, std::string_view metric, double width) {
  std::string s;
  open_svg(s, kind, metric, width);
  s += "<text class=\"empty\" x=\"";
  append_coord(s, width / 2);
  s += "\" y=\"";
  append_coord(s, kHeight / 2);
  s += "\">no finite values</text>\n</svg>\n";
  return s;
}

// One run's per-frame path, at most two points per pixel column (the
// column's lowest and highest value, in frame order). A frame without a
// finite value lifts the pen; a lone point is drawn as a dot.
std::string line_path(const Series& series, const Plot& p) {
  const std::vector<unsigned>& frames = *series.frames;
  const std::vector<double>& values = *series.values;
  std::string d;
  std::size_t in_segment = 0;
  // The column being gathered: its lowest and highest value's frames.
  long column = -1;
  std::size_t lo_i = 0;
  std::size_t hi_i = 0;
  const auto emit = [&](std::size_t i) {
    append_point(d, in_segment == 0 ? 'M' : 'L', p.px(frames[i]), p.py(values[i]));
    ++in_segment;
  };
  const auto flush_column = [&] {
    if (column < 0) return;
    emit(std::min(lo_i, hi_i));
    if (lo_i != hi_i) emit(std::max(lo_i, hi_i));
    column = -1;
  };
  const auto lift_pen = [&] {
    flush_column();
    if (in_segment == 1) d += "h0";
    in_segment = 0;
  };
  for (std::size_t i = 0; i < frames.size(); ++i) {
    if (!std::isfinite(values[i])) {
      lift_pen();
      continue;
    }
    const auto col = static_cast<long>(std::floor(p.px(frames[i]) - p.left));
    if (col != column) {
      flush_column();
      column = col;
      lo_i = hi_i = i;
    } else {
      if (values[i] < values[lo_i]) lo_i = i;
      if (values[i] > values[hi_i]) hi_i = i;
    }
  }
  lift_pen();
  return d;
}

}  // namespace

const char* run_colour(std::size_t i) {
  // Distinct on white and for the common colour-vision deficiencies.
  static constexpr std::array<const char*, 8> kPalette = {
      "#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd", "#17becf", "#8c564b", "#e377c2"};
  return kPalette[i % kPalette.size()];
}

Ticks nice_ticks(double min, double max, int target_count) {
  if (!std::isfinite(min) || !std::isfinite(max) || min > max) {
    min = 0;
    max = 1;
  }
  // The axes span at most +-kValueLimit, so that max - min, the step and
  // the ticks stay finite (a value beyond is drawn off the chart).
  min = std::clamp(min, -kValueLimit, kValueLimit);
  max = std::clamp(max, -kValueLimit, kValueLimit);
  // The narrowest span the tick labels can tell apart (about 7 significant
  // digits), never below kLeastSpan: its step's power of ten stays a
  // normal number (denormal or equal values would make it 0 and the
  // coordinates NaN).
  const double least = std::max(std::max(std::abs(min), std::abs(max)) * 1e-6, kLeastSpan);
  if (max == min) {  // one value: widened around it
    const double pad = std::max(min == 0 ? 1 : std::abs(min) * 0.05, least);
    min -= pad;
    max += pad;
  } else if (max - min < least) {
    const double middle = min / 2 + max / 2;
    min = middle - least / 2;
    max = middle + least / 2;
  }
  const int count = std::clamp(target_count, 1, kMaxTicks);
  const double raw = (max - min) / count;
  const double magnitude = std::pow(10.0, std::floor(std::log10(raw)));
  const double r = raw / magnitude;
  const double step = (r < 1.5 ? 1 : r < 3 ? 2 : r < 7 ? 5 : 10) * magnitude;
  Ticks t;
  t.step = step;
  t.lo = std::floor(min / step + 1e-9) * step;
  t.hi = std::ceil(max / step - 1e-9) * step;
  if (t.hi <= t.lo) t.hi = t.lo + step;
  t.decimals = std::clamp(static_cast<int>(-std::floor(std::log10(step) + 1e-9)), 0, kMaxDecimals);
  return t;
}

std::string line_chart(std::string_view metric, const std::vector<Series>& runs) {
  double lo = 0;
  double hi = 0;
  if (!value_range(runs, lo, hi)) return no_values("line", metric, kLineWidth);
  Plot p;
  p.width = kLineWidth - kLeft - kRight;
  p.y = nice_ticks(lo, hi, 5);
  unsigned first = std::numeric_limits<unsigned>::max();
  unsigned last = 0;
  for (const Series& r : runs) {
    if (r.frames->empty()) continue;
    first = std::min(first, r.frames->front());
    last = std::max(last, r.frames->back());
  }
  p.x = nice_ticks(first, last, 8);
  if (p.x.step < 1) p.x = {std::floor(p.x.lo), std::ceil(p.x.hi), 1, 0};  // whole frames

  std::string s;
  open_svg(s, "line", metric, kLineWidth);
  append_axes(s, p, "frame", metric);
  for (std::size_t i = 0; i < runs.size(); ++i) {
    append_run_path(s, "line", i, runs[i], line_path(runs[i], p));
  }
  s += "</svg>\n";
  return s;
}

std::string histogram(std::string_view metric, const std::vector<Series>& runs) {
  double lo = 0;
  double hi = 0;
  if (!value_range(runs, lo, hi)) return no_values("histogram", metric, kHistWidth);
  Plot p;
  p.width = kHistWidth - kLeft - kRight;
  p.x = nice_ticks(lo, hi, 4);
  const double bin_width = (p.x.hi - p.x.lo) / kBins;

  // Each run's share of its finite values per bin, in percent.
  std::vector<std::array<double, kBins>> shares(runs.size());
  double top = 0;
  for (std::size_t r = 0; r < runs.size(); ++r) {
    std::array<double, kBins> counts{};
    double n = 0;
    for (const double v : *runs[r].values) {
      if (!std::isfinite(v)) continue;
      // Clamped as a double: a value beyond the axes (kValueLimit) would
      // overflow the cast.
      const double bin = std::clamp(std::floor((v - p.x.lo) / bin_width), 0.0, kBins - 1.0);
      counts[static_cast<std::size_t>(bin)] += 1;
      n += 1;
    }
    for (int b = 0; b < kBins; ++b) {
      shares[r][b] = n > 0 ? 100 * counts[b] / n : 0;
      top = std::max(top, shares[r][b]);
    }
  }
  p.y = nice_ticks(0, top, 4);
  p.y.lo = 0;

  std::string s;
  open_svg(s, "histogram", metric, kHistWidth);
  append_axes(s, p, metric, "% of frames");
  for (std::size_t r = 0; r < runs.size(); ++r) {
    std::string d;
    append_point(d, 'M', p.px(p.x.lo), p.py(0));
    for (int b = 0; b < kBins; ++b) {
      append_point(d, 'L', p.px(p.x.lo + b * bin_width), p.py(shares[r][b]));
      append_point(d, 'L', p.px(p.x.lo + (b + 1) * bin_width), p.py(shares[r][b]));
    }
    append_point(d, 'L', p.px(p.x.hi), p.py(0));
    d += 'Z';
    append_run_path(s, "histogram", r, runs[r], d);
  }
  s += "</svg>\n";
  return s;
}

}  // namespace vqx::html
