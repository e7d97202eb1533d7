// The page of vqx/html_report.hpp: one HTML file with its style inline and
// its charts as inline SVG (svg_chart.hpp), no script and nothing fetched.
// Every text that comes from the input goes through escape().
#include <algorithm>
#include <cmath>
#include <numeric>
#include <ostream>

#include "output/atomic_file.hpp"
#include "output/html/html_text.hpp"
#include "output/html/run_set.hpp"
#include "output/html/svg_chart.hpp"
#include "vqx/html_report.hpp"
#include "vqx/vqx.hpp"

namespace vqx {

namespace html {

namespace {

constexpr int kDecimals = 6;  // as the reference's outputs

constexpr const char* kStyle = R"(
body{font:14px/1.4 system-ui,sans-serif;margin:16px 24px;color:#222;max-width:1200px}
h1{font-size:22px;margin:0 0 4px}h2{font-size:18px;margin:24px 0 8px;border-bottom:1px solid #ddd}
h3{font-size:15px;margin:16px 0 4px}
table{border-collapse:collapse;margin:4px 0 12px}th,td{padding:2px 10px;text-align:right}
th{background:#f2f2f2}td.name,th.name{text-align:left}tbody tr:nth-child(even){background:#fafafa}
.swatch{display:inline-block;width:12px;height:12px;margin-right:6px;vertical-align:-1px}
.legend span.item{margin-right:16px;white-space:nowrap}
.charts{display:flex;gap:12px;align-items:flex-start}
svg.chart{height:auto}svg.line{width:66%}svg.histogram{width:33%}
svg .grid{stroke:#e6e6e6}svg .tick{stroke:#888}svg .frame{fill:none;stroke:#888}
svg text{font-size:11px;fill:#444}svg .ytick{text-anchor:end}svg .xtick,svg .xtitle,
svg .ytitle,svg .empty{text-anchor:middle}
svg path.run{stroke-width:1.3;stroke-linejoin:round;stroke-linecap:round}
svg path.histogram{fill-opacity:.12}
.worst{display:inline-block;vertical-align:top;margin-right:24px}
dl{display:grid;grid-template-columns:max-content auto;gap:2px 12px;margin:4px 0 12px}
dt{color:#666}dd{margin:0}.note{color:#666}
)";

std::string swatch(std::size_t run) {
  return std::string("<span class=\"swatch\" style=\"background:") + run_colour(run) + "\"></span>";
}

// The file's pooled values of `metric`, else pooled here from its frames
// (as libvmaf pools: the finite values, as a null (NaN) is unknown; the
// harmonic mean of v + 1, less 1).
ReportPooled pooled_of(const RunFile& r, const std::string& metric) {
  for (const ReportPooledMetric& p : r.report.pooled) {
    if (p.name == metric && p.stats) return *p.stats;
  }
  ReportPooled out{NAN, NAN, NAN, NAN};
  double n = 0;
  double sum = 0;
  double inverse_sum = 0;
  for (const double v : values_of(r, metric)) {
    if (!std::isfinite(v)) continue;
    out.min = n == 0 ? v : std::min(out.min, v);
    out.max = n == 0 ? v : std::max(out.max, v);
    sum += v;
    inverse_sum += 1.0 / (v + 1.0);
    n += 1;
  }
  if (n > 0) {
    out.mean = sum / n;
    out.harmonic_mean = n / inverse_sum - 1.0;
  }
  return out;
}

void append_runs(std::string& s, const RunSet& set) {
  s += "<section id=\"runs\"><h2>Runs</h2>\n<table class=\"runs\"><thead><tr>"
       "<th class=\"name\">run</th><th>frames</th><th>fps</th><th class=\"name\">version</th>"
       "<th>" +
       escape(set.main_metric) + " (mean)</th></tr></thead><tbody>\n";
  for (std::size_t i = 0; i < set.runs.size(); ++i) {
    const Report& r = set.runs[i].report;
    s += "<tr><td class=\"name\">" + swatch(i) + escape(set.labels[i]) + "</td><td>" +
         std::to_string(r.frame_numbers.size()) + "</td><td>" + number(r.fps, 2) +
         "</td><td class=\"name\">" +
         escape(r.settings ? r.settings->program + " " + r.version : r.version) + "</td><td>" +
         number(pooled_of(set.runs[i], set.main_metric).mean, kDecimals) + "</td></tr>\n";
  }
  s += "</tbody></table></section>\n";
}

void append_pooled(std::string& s, const RunSet& set) {
  s += "<section id=\"pooled\"><h2>Pooled</h2>\n<table class=\"pooled\"><thead><tr>"
       "<th class=\"name\">metric</th><th class=\"name\">run</th><th>mean</th>"
       "<th>harmonic mean</th><th>min</th><th>max</th></tr></thead><tbody>\n";
  for (const std::string& metric : set.metrics) {
    for (std::size_t i = 0; i < set.runs.size(); ++i) {
      const ReportPooled p = pooled_of(set.runs[i], metric);
      s += "<tr><td class=\"name\">" + (i == 0 ? escape(metric) : std::string()) +
           "</td><td class=\"name\">" + swatch(i) + escape(set.labels[i]) + "</td><td>" +
           number(p.mean, kDecimals) + "</td><td>" + number(p.harmonic_mean, kDecimals) +
           "</td><td>" + number(p.min, kDecimals) + "</td><td>" + number(p.max, kDecimals) +
           "</td></tr>\n";
    }
  }
  s += "</tbody></table></section>\n";
}

void append_charts(std::string& s, const RunSet& set) {
  s += "<section id=\"charts\"><h2>Per frame</h2>\n<div class=\"legend\">";
  for (std::size_t i = 0; i < set.runs.size(); ++i) {
    s += "<span class=\"item\">" + swatch(i) + escape(set.labels[i]) + "</span>";
  }
  s += "</div>\n";
  for (const std::string& metric : set.metrics) {
    std::vector<Series> series;
    for (std::size_t i = 0; i < set.runs.size(); ++i) {
      series.push_back(
          {set.labels[i], &set.runs[i].report.frame_numbers, &values_of(set.runs[i], metric)});
    }
    s += "<section class=\"metric\" data-metric=\"" + escape(metric) + "\"><h3>" + escape(metric) +
         "</h3>\n<div class=\"charts\">\n" + line_chart(metric, series) +
         histogram(metric, series) + "</div></section>\n";
  }
  s += "</section>\n";
}

void append_worst(std::string& s, const RunSet& set, unsigned count) {
  if (count == 0) return;
  s += "<section id=\"worst\"><h2>Worst frames</h2>\n<p class=\"note\">Each run's " +
       std::to_string(count) + " frames with the lowest " + escape(set.main_metric) +
       ", lowest first.</p>\n";
  for (std::size_t i = 0; i < set.runs.size(); ++i) {
    const std::vector<unsigned>& frames = set.runs[i].report.frame_numbers;
    const std::vector<double>& values = values_of(set.runs[i], set.main_metric);
    std::vector<std::size_t> order;
    for (std::size_t f = 0; f < frames.size(); ++f) {
      if (std::isfinite(values[f])) order.push_back(f);
    }
    const std::size_t shown = std::min<std::size_t>(count, order.size());
    // Lowest first; equal values in frame order.
    std::partial_sort(order.begin(), order.begin() + static_cast<std::ptrdiff_t>(shown),
                      order.end(), [&](std::size_t a, std::size_t b) {
                        return values[a] < values[b] || (values[a] == values[b] && a < b);
                      });
    s += "<table class=\"worst\" data-run=\"" + std::to_string(i) + "\"><caption>" + swatch(i) +
         escape(set.labels[i]) + "</caption><thead><tr><th>rank</th><th>frame</th><th>" +
         escape(set.main_metric) + "</th></tr></thead><tbody>\n";
    for (std::size_t k = 0; k < shown; ++k) {
      s += "<tr><td>" + std::to_string(k + 1) + "</td><td>" + std::to_string(frames[order[k]]) +
           "</td><td>" + number(values[order[k]], kDecimals) + "</td></tr>\n";
    }
    s += "</tbody></table>\n";
  }
  s += "</section>\n";
}

void append_entry(std::string& s, std::string_view term, const std::string& escaped_value) {
  s += "<dt>";
  s += term;
  s += "</dt><dd>" + escaped_value + "</dd>";
}

void append_settings(std::string& s, const RunSet& set) {
  s += "<section id=\"settings\"><h2>Settings</h2>\n";
  for (std::size_t i = 0; i < set.runs.size(); ++i) {
    const Report& r = set.runs[i].report;
    s += "<h3>" + swatch(i) + escape(set.labels[i]) + "</h3>\n<dl class=\"settings\">";
    append_entry(s, "file", escape(set.runs[i].path));
    append_entry(s, "version", escape(r.version));
    append_entry(s, "frames",
                 std::to_string(r.frame_numbers.size()) + " (" +
                     std::to_string(r.frame_numbers.front()) + " to " +
                     std::to_string(r.frame_numbers.back()) + ")");
    if (r.settings) {
      const ReportSettings& st = *r.settings;
      append_entry(s, "program", escape(st.program + " " + st.version));
      append_entry(s, "backend", escape(st.backend));
      append_entry(s, "device", escape(st.device));
      append_entry(s, "subsample", std::to_string(st.subsample));
      std::string models;
      for (const auto& [name, origin] : st.models) {
        models += (models.empty() ? "" : "<br>") + escape(name) + " (" + escape(origin) + ")";
      }
      append_entry(s, "models", models.empty() ? "none" : models);
      std::string features;
      for (const std::string& f : st.features) {
        features += (features.empty() ? "" : "<br>") + escape(f);
      }
      append_entry(s, "features", features.empty() ? "none" : features);
    } else {
      append_entry(s, "settings",
                   "not recorded in the file (the reference vmaf tool's JSON has none)");
    }
    if (!r.backends.empty()) {
      std::size_t on_cpu = 0;
      for (const auto& b : r.backends) on_cpu += b.second == "cpu" ? 1 : 0;
      append_entry(s, "computed",
                   std::to_string(r.backends.size() - on_cpu) + " metrics on " + escape(r.device) +
                       ", " + std::to_string(on_cpu) + " on the CPU");
    }
    s += "</dl>\n";
  }
  s += "</section>\n";
}

}  // namespace

}  // namespace html

Expected<std::string> html_report(const std::vector<std::string>& json_paths,
                                  const HtmlReportOptions& options) {
  VQX_ASSIGN_OR_RETURN(const html::RunSet set, html::read_run_set(json_paths, options));
  const std::string title = html::escape(options.title.empty() ? "VQX report" : options.title);
  std::string s;
  s += "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n"
       "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
       "<meta name=\"generator\" content=\"vqx report " +
       std::string(version()) + "\">\n<title>" + title + "</title>\n<style>" + html::kStyle +
       "</style></head>\n<body>\n<h1>" + title + "</h1>\n<p class=\"note\">" +
       std::to_string(set.runs.size()) + (set.runs.size() == 1 ? " run, " : " runs, ") +
       std::to_string(set.metrics.size()) + (set.metrics.size() == 1 ? " metric" : " metrics") +
       "; main metric " + html::escape(set.main_metric) + ".</p>\n";
  html::append_runs(s, set);
  html::append_pooled(s, set);
  html::append_charts(s, set);
  html::append_worst(s, set, options.worst_frames);
  html::append_settings(s, set);
  s += "<p class=\"note\">Made by vqx report " + std::string(version()) +
       ". Charts with more frames than pixel columns show each column's lowest and highest "
       "value; frames without a finite value (absent, or infinite as JSON null) are not "
       "drawn.</p>\n</body></html>\n";
  return s;
}

Status write_html_report(const std::vector<std::string>& json_paths, const std::string& output_path,
                         const HtmlReportOptions& options,
                         const std::shared_ptr<OutputFiles>& files) {
  VQX_ASSIGN_OR_RETURN(const std::string page, html_report(json_paths, options));
  const std::shared_ptr<OutputFiles> set = files ? files : std::make_shared<OutputFiles>();
  return write_file_atomically(*set, output_path, [&page](std::ostream& out) {
    out << page;
    out.flush();
    return out ? Status::Ok() : Status(Errc::kIo, "could not write the report");
  });
}

}  // namespace vqx
