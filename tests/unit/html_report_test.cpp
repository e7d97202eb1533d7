// The HTML report (vqx/html_report.hpp): reading runs, the checks between
// them, the charts' axes and downsampling, the tables' values, escaping,
// and the JSON "settings" it reads back. The page in a browser:
// tests/report/browser_test.py.
#include <gtest/gtest.h>
#include <sys/resource.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <csignal>
#include <filesystem>
#include <fstream>
#include <limits>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "output/html/html_text.hpp"
#include "output/html/run_file.hpp"
#include "output/html/svg_chart.hpp"
#include "output/writers.hpp"
#include "vqx/html_report.hpp"

namespace vqx {
namespace {

namespace fs = std::filesystem;

// A run of `n` frames: "vmaf" (a dip to 10 at frame n/3) and "psnr_y".
Report MakeRun(unsigned n, double offset, bool with_settings) {
  Report r;
  r.version = "0.1.0";
  r.fps = 12.5;
  ReportMetric vmaf{"vmaf", {}};
  ReportMetric psnr{"psnr_y", {}};
  for (unsigned i = 0; i < n; ++i) {
    r.frame_numbers.push_back(i);
    vmaf.values.push_back(i == n / 3 ? 10.0 : 80.0 + offset + (i % 7));
    psnr.values.push_back(35.0 + offset + (i % 5) * 0.5);
  }
  r.metrics = {psnr, vmaf};  // the model score second: the settings say it is the main one
  r.pooled = {{"psnr_y", ReportPooled{1, 2, 3, 4}}, {"vmaf", ReportPooled{10, 90, 77.5, 70.25}}};
  if (with_settings) {
    ReportSettings s;
    s.version = "0.1.0";
    s.backend = "cpu";
    s.device = "cpu";
    s.models = {{"vmaf", "built-in model vmaf_v0.6.1"}};
    s.features = {"psnr", "adm", "vif", "motion"};
    r.settings = s;
  }
  return r;
}

// How many times `what` occurs in `text`.
std::size_t Count(const std::string& text, const std::string& what) {
  std::size_t n = 0;
  for (std::size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) {
    ++n;
  }
  return n;
}

class HtmlReportTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() /
           ("vqx_html_report_test_" + std::to_string(::getpid()) + "_" +
            ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(dir_);
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }

  std::string WriteRun(const std::string& name, const Report& r) {
    std::ostringstream out;
    EXPECT_TRUE(write_report(r, OutputFormat::kJson, out).ok());
    return WriteText(name, out.str());
  }
  std::string WriteText(const std::string& name, const std::string& text) {
    const fs::path p = dir_ / name;
    std::ofstream(p, std::ios::binary) << text;
    return p.string();
  }
  fs::path dir_;
};

TEST(HtmlText, EscapesMarkupQuotesAndControlCharacters) {
  EXPECT_EQ(html::escape("<script>a&b</script>\"'"),
            "&lt;script&gt;a&amp;b&lt;/script&gt;&quot;&#39;");
  EXPECT_EQ(html::escape(std::string("a\x01z", 3)), "a&#xFFFD;z");
  EXPECT_EQ(html::escape("vmaf_v0.6.1 \xc3\xa9"), "vmaf_v0.6.1 \xc3\xa9");  // UTF-8 kept
}

TEST(HtmlText, Numbers) {
  EXPECT_EQ(html::number(76.6689051, 6), "76.668905");
  EXPECT_EQ(html::number(std::numeric_limits<double>::infinity(), 6), "inf");
  EXPECT_EQ(html::number(std::numeric_limits<double>::quiet_NaN(), 6), "n/a");
  EXPECT_EQ(html::number(-2.5, 0), "-2");  // printf rounds half to even
}

TEST(SvgChart, NiceTicks) {
  html::Ticks t = html::nice_ticks(12.3, 97.1, 5);
  EXPECT_EQ(t.step, 20);
  EXPECT_EQ(t.lo, 0);
  EXPECT_EQ(t.hi, 100);
  EXPECT_EQ(t.decimals, 0);
  t = html::nice_ticks(0.9123, 0.9871, 5);
  EXPECT_NEAR(t.step, 0.01, 1e-12);
  EXPECT_NEAR(t.lo, 0.91, 1e-12);
  EXPECT_NEAR(t.hi, 0.99, 1e-12);
  EXPECT_EQ(t.decimals, 2);
  t = html::nice_ticks(5, 5, 5);  // one value: widened around it
  EXPECT_LT(t.lo, 5);
  EXPECT_GT(t.hi, 5);
}

// Extreme and degenerate ranges: ticks that are finite, ordered and
// distinct, whatever the values (before, a range that overflowed or was
// denormal or zero gave NaN ticks and NaN coordinates).
TEST(SvgChart, NiceTicksOfExtremeRangesAreFinite) {
  const double big = std::numeric_limits<double>::max();
  const double tiny = std::numeric_limits<double>::denorm_min();
  const double inf = std::numeric_limits<double>::infinity();
  const struct {
    double min, max;
  } cases[] = {{-1e308, 1e308},  {-big, big},      {1e308, 1e308},   {-big, -big},
               {tiny, tiny},     {tiny, 2 * tiny}, {0, tiny},        {0, 0},
               {1e16, 1e16 + 2}, {-inf, inf},      {5, std::nan("")}};
  for (const auto& c : cases) {
    for (const int count : {0, 1, 5, -3, 1 << 30}) {
      SCOPED_TRACE(std::to_string(c.min) + " " + std::to_string(c.max) + " " +
                   std::to_string(count));
      const html::Ticks t = html::nice_ticks(c.min, c.max, count);
      EXPECT_TRUE(std::isfinite(t.lo) && std::isfinite(t.hi) && std::isfinite(t.step));
      EXPECT_GT(t.step, 0);
      EXPECT_LT(t.lo, t.hi);
      EXPECT_LE((t.hi - t.lo) / t.step, 101);  // a bounded number of ticks
      EXPECT_GE(t.decimals, 0);
      EXPECT_LE(t.decimals, 17);
    }
  }
  // Values within the axes' limit are inside the ticks.
  const html::Ticks t = html::nice_ticks(tiny, 2 * tiny, 5);
  EXPECT_LE(t.lo, tiny);
  EXPECT_GE(t.hi, 2 * tiny);
}

// The first run's path in `svg`.
std::string PathD(const std::string& svg) {
  const std::size_t at = svg.find(" d=\"");
  return svg.substr(at + 4, svg.find('"', at + 4) - at - 4);
}

// Every "x y" point of the first run's path in `svg`.
std::vector<std::pair<double, double>> PathPoints(const std::string& svg) {
  const std::string d = PathD(svg);
  std::vector<std::pair<double, double>> points;
  // Commands "M x y" and "L x y" (std::regex would do, but GCC 12's
  // -Wmaybe-uninitialized misfires inside it in the ASan build).
  std::istringstream in(d);
  char command = 0;
  double x = 0;
  double y = 0;
  while (in >> command >> x >> y) {
    EXPECT_TRUE(command == 'M' || command == 'L') << command;
    points.emplace_back(x, y);
  }
  return points;
}

TEST(SvgChart, ShortRunKeepsEveryFrame) {
  std::vector<unsigned> frames = {0, 1, 2, 3, 4};
  std::vector<double> values = {1, 2, 3, 2, 1};
  const std::string svg = html::line_chart("m", {{"a", &frames, &values}});
  EXPECT_EQ(PathPoints(svg).size(), 5U);
  EXPECT_NE(svg.find("data-metric=\"m\""), std::string::npos);
}

TEST(SvgChart, LongRunIsDownsampledKeepingItsExtremes) {
  // 100000 frames with one deep dip and one spike: at most two points per
  // pixel column, and both extremes drawn.
  std::vector<unsigned> frames(100000);
  std::vector<double> values(frames.size());
  for (unsigned i = 0; i < frames.size(); ++i) {
    frames[i] = i;
    values[i] = 50 + std::sin(i * 0.01) * 10;
  }
  values[31234] = 0;
  values[77777] = 100;
  const std::string svg = html::line_chart("m", {{"a", &frames, &values}});
  const auto points = PathPoints(svg);
  EXPECT_LE(points.size(), 2U * 700U);
  EXPECT_GE(points.size(), 600U);
  double top = 1e9;
  double bottom = -1e9;
  for (const auto& [x, y] : points) {
    top = std::min(top, y);
    bottom = std::max(bottom, y);
  }
  // The axis spans 0..100: the dip sits on the plot's bottom, the spike on its top.
  EXPECT_NEAR(top, 12.0, 0.05);      // kTop
  EXPECT_NEAR(bottom, 220.0, 0.05);  // kHeight - kBottom
  EXPECT_LT(svg.size(), 40000U);
}

TEST(SvgChart, GapsLiftThePenAndNoValuesDrawsNothing) {
  std::vector<unsigned> frames = {0, 1, 2, 3, 4};
  const double inf = std::numeric_limits<double>::infinity();
  std::vector<double> values = {1, 2, inf, 2, std::nan("")};
  const std::string svg = html::line_chart("m", {{"a", &frames, &values}});
  // Two segments in the one path: frames 0 and 1, then frame 3 alone (a dot).
  const std::string d = PathD(svg);
  EXPECT_EQ(std::count(d.begin(), d.end(), 'M'), 2);
  EXPECT_EQ(std::count(d.begin(), d.end(), 'L'), 1);
  EXPECT_EQ(d.substr(d.size() - 2), "h0");
  std::vector<double> none = {inf, inf, inf, inf, inf};
  const std::string empty = html::line_chart("m", {{"a", &frames, &none}});
  EXPECT_EQ(empty.find("<path"), std::string::npos);
  EXPECT_NE(empty.find("no finite values"), std::string::npos);
}

// The charts of extreme values: every coordinate a short finite number
// (append_coord prints at most its buffer; before, a NaN range gave "nan"
// coordinates), no "nan" or "inf" anywhere in the SVG.
TEST(SvgChart, ExtremeValuesGiveFiniteCoordinates) {
  const double big = std::numeric_limits<double>::max();
  const double tiny = std::numeric_limits<double>::denorm_min();
  std::vector<unsigned> frames = {0, 1, 2};
  const std::vector<std::vector<double>> sets = {
      {1e308, -1e308, 0}, {big, -big, big}, {tiny, tiny, tiny},   {tiny, 0, 2 * tiny},
      {0, 0, 0},          {7, 7, 7},        {1e308, 1e308, 1e308}};
  for (const auto& values : sets) {
    SCOPED_TRACE(std::to_string(values[0]) + " " + std::to_string(values[1]));
    for (const std::string& svg : {html::line_chart("m", {{"a", &frames, &values}}),
                                   html::histogram("m", {{"a", &frames, &values}})}) {
      EXPECT_EQ(svg.find("nan"), std::string::npos);
      EXPECT_EQ(svg.find("inf"), std::string::npos);
      const auto points = PathPoints(svg);
      EXPECT_GE(points.size(), 3U);
      for (const auto& [x, y] : points) {
        EXPECT_TRUE(std::isfinite(x) && std::isfinite(y));
        EXPECT_LE(std::abs(x), 1e6);
        EXPECT_LE(std::abs(y), 1e6);
      }
      // Every number of the path is short (no 1e308 printed in full).
      std::string token;
      for (const char ch : PathD(svg) + " ") {
        if (ch == ' ' || ch == 'M' || ch == 'L') {
          EXPECT_LE(token.size(), 12U) << token;
          token.clear();
        } else {
          token += ch;
        }
      }
    }
  }
  // Values within the axes' limits are drawn inside the plot (y from kTop
  // to kHeight - kBottom).
  for (const auto& values : {sets[2], sets[3], sets[4], sets[5]}) {
    for (const auto& [x, y] : PathPoints(html::line_chart("m", {{"a", &frames, &values}}))) {
      EXPECT_GE(y, 12.0);
      EXPECT_LE(y, 220.0);
    }
  }
}

TEST(SvgChart, HistogramSharesAddUpTo100Percent) {
  std::vector<unsigned> frames = {0, 1, 2, 3};
  std::vector<double> values = {1, 1, 1, 9};
  const std::string svg = html::histogram("m", {{"a", &frames, &values}});
  EXPECT_EQ(Count(svg, "<path class=\"run histogram\""), 1U);
  // 75% of the frames in the first bin: the y axis reaches 80.
  EXPECT_NE(svg.find(">80</text>"), std::string::npos);
  EXPECT_EQ(svg.find(">100</text>"), std::string::npos);
}

TEST_F(HtmlReportTest, JsonSettingsAreWrittenAndReadBack) {
  const std::string path = WriteRun("a.json", MakeRun(12, 0, true));
  std::ifstream in(path);
  const auto j = nlohmann::ordered_json::parse(in);
  ASSERT_TRUE(j.contains("settings"));
  EXPECT_EQ(j["settings"]["program"], "vqx");
  EXPECT_EQ(j["settings"]["subsample"], 1);
  EXPECT_FALSE(j["settings"].contains("threads"));  // outputs do not depend on it
  EXPECT_EQ(j["settings"]["models"][0]["origin"], "built-in model vmaf_v0.6.1");
  EXPECT_EQ(j["settings"]["features"].size(), 4U);
  // The reference's keys first, in the reference's order.
  std::vector<std::string> keys;
  for (const auto& [k, v] : j.items()) keys.push_back(k);
  EXPECT_EQ(keys, (std::vector<std::string>{"version", "fps", "frames", "pooled_metrics",
                                            "aggregate_metrics", "settings"}));
  auto run = html::read_run_file(path);
  ASSERT_TRUE(run.ok()) << run.status().message();
  ASSERT_TRUE(run->report.settings.has_value());
  EXPECT_EQ(run->report.settings->models[0].first, "vmaf");
  EXPECT_EQ(run->report.frame_numbers.size(), 12U);
  EXPECT_EQ(run->report.metrics[1].values[4], 10.0);  // the dip at frame 12 / 3
  EXPECT_EQ(run->report.metrics[1].values[5], 85.0);
}

TEST_F(HtmlReportTest, TablesHoldTheRunsValues) {
  const std::string a = WriteRun("a.json", MakeRun(30, 0, true));
  const std::string b = WriteRun("b.json", MakeRun(24, 5, false));
  auto page = html_report({a, b}, {.title = "Two encodes", .worst_frames = 3});
  ASSERT_TRUE(page.ok()) << page.status().message();
  const std::string& s = *page;
  EXPECT_NE(s.find("<title>Two encodes</title>"), std::string::npos);
  // A chart and a histogram per metric, a path per run in each.
  EXPECT_EQ(Count(s, "<svg class=\"chart line\""), 2U);
  EXPECT_EQ(Count(s, "<svg class=\"chart histogram\""), 2U);
  EXPECT_EQ(Count(s, "<path class=\"run line\""), 4U);
  // The main metric is the model score the settings name; three rows per
  // run, lowest first: the dip, then the lowest of 80 + offset + i % 7.
  EXPECT_NE(s.find("main metric vmaf."), std::string::npos);
  EXPECT_EQ(Count(s, "<table class=\"worst\""), 2U);
  EXPECT_NE(s.find("<tr><td>1</td><td>10</td><td>10.000000</td></tr>\n"
                   "<tr><td>2</td><td>0</td><td>80.000000</td></tr>\n"
                   "<tr><td>3</td><td>7</td><td>80.000000</td></tr>"),
            std::string::npos);
  EXPECT_NE(s.find("<tr><td>1</td><td>8</td><td>10.000000</td></tr>\n"
                   "<tr><td>2</td><td>0</td><td>85.000000</td></tr>"),
            std::string::npos);
  // Pooled: the file's own values.
  EXPECT_NE(s.find("<td>77.500000</td><td>70.250000</td><td>10.000000</td><td>90.000000</td>"),
            std::string::npos);
  // Settings: the first run's, and the second has none.
  EXPECT_NE(s.find("vmaf (built-in model vmaf_v0.6.1)"), std::string::npos);
  EXPECT_NE(s.find("not recorded in the file"), std::string::npos);
}

TEST_F(HtmlReportTest, PooledValuesMissingFromTheFileArePooledFromItsFrames) {
  Report r = MakeRun(4, 0, false);
  r.metrics = {{"m", {1, 3, 1, 3}}};
  r.pooled.clear();
  const std::string a = WriteRun("a.json", r);
  auto page = html_report({a}, {.worst_frames = 0});
  ASSERT_TRUE(page.ok()) << page.status().message();
  // mean 2, harmonic mean 4 / (1/2 + 1/4 + 1/2 + 1/4) - 1 = 1.666667
  EXPECT_NE(page->find("<td>2.000000</td><td>1.666667</td><td>1.000000</td><td>3.000000</td>"),
            std::string::npos);
  EXPECT_EQ(page->find("<table class=\"worst\""), std::string::npos);
}

// The writers write NaN, +inf and -inf alike as null: a null is unknown.
// It is not pooled, not listed among the worst frames and shows as "n/a"
// (before, every null was read as +inf: the pooled mean was inf).
TEST_F(HtmlReportTest, NullValuesAreUnknownNotInfinite) {
  const std::string a = WriteText("a.json", R"({"frames": [
    {"frameNum": 0, "metrics": {"vmaf": 1}},
    {"frameNum": 1, "metrics": {"vmaf": null}},
    {"frameNum": 2, "metrics": {"vmaf": 3}}],
    "pooled_metrics": {"other": {"min": null, "max": 1, "mean": 1, "harmonic_mean": 1}}})");
  auto run = html::read_run_file(a);
  ASSERT_TRUE(run.ok()) << run.status().message();
  EXPECT_TRUE(std::isnan(run->report.metrics[0].values[1]));
  auto page = html_report({a}, {.worst_frames = 5});
  ASSERT_TRUE(page.ok()) << page.status().message();
  // Pooled from the two finite values: mean 2, harmonic mean 2 / (1/2 + 1/4) - 1.
  EXPECT_NE(page->find("<td>2.000000</td><td>1.666667</td><td>1.000000</td><td>3.000000</td>"),
            std::string::npos);
  EXPECT_EQ(page->find(">inf<"), std::string::npos);
  // Two worst rows, not the null frame.
  EXPECT_NE(page->find("<tr><td>2</td><td>2</td><td>3.000000</td></tr>\n</tbody>"),
            std::string::npos);
  EXPECT_EQ(page->find("<tr><td>3</td>"), std::string::npos);
  // A file's own pooled null: read, shown as n/a.
  auto other = html::read_run_file(a);
  ASSERT_TRUE(other.ok());
  ASSERT_EQ(other->report.pooled.size(), 1U);
  EXPECT_TRUE(std::isnan(other->report.pooled[0].stats->min));
  EXPECT_EQ(html::number(other->report.pooled[0].stats->min, 6), "n/a");
}

TEST_F(HtmlReportTest, ChosenMetricsOnly) {
  const std::string a = WriteRun("a.json", MakeRun(10, 0, true));
  Report other = MakeRun(10, 1, false);
  other.metrics.push_back({"extra", std::vector<double>(10, 1.0)});
  const std::string b = WriteRun("b.json", other);
  auto page = html_report({a, b}, {.worst_frames = 2, .metrics = {"psnr_y"}});
  ASSERT_TRUE(page.ok()) << page.status().message();
  EXPECT_EQ(Count(*page, "<svg class=\"chart line\""), 1U);
  EXPECT_NE(page->find("main metric psnr_y."), std::string::npos);
  // Without a choice the sets must agree.
  auto refused = html_report({a, b});
  ASSERT_FALSE(refused.ok());
  EXPECT_EQ(refused.status().message(),
            b + ": has a metric \"extra\", which " + a +
                " has not (the runs must have the same metrics, or choose metrics that every "
                "run has)");
}

TEST_F(HtmlReportTest, BadInputsNameTheFile) {
  const std::string good = WriteRun("good.json", MakeRun(5, 0, true));
  const std::string missing = (dir_ / "missing.json").string();
  const std::string text = WriteText("text.json", "vmaf: 76.2\n");
  const std::string no_frames = WriteText("no_frames.json", R"({"version": "3.2.0"})");
  const std::string empty_frames = WriteText("empty.json", R"({"frames": []})");
  const std::string bad_value =
      WriteText("bad_value.json", R"({"frames": [{"frameNum": 0, "metrics": {"vmaf": "x"}}]})");
  Report fewer = MakeRun(5, 0, false);
  fewer.metrics.pop_back();
  const std::string lacking = WriteRun("lacking.json", fewer);
  const struct {
    std::vector<std::string> paths;
    HtmlReportOptions options;
    std::string message;
  } cases[] = {
      {{good, missing}, {}, missing + ": cannot open: No such file or directory"},
      {{text},
       {},
       text + ": not JSON: parse error at line 1, column 1: syntax error while "
              "parsing value - invalid literal"},
      {{no_frames}, {}, no_frames + ": no \"frames\" array (not a JSON output of vqx or vmaf)"},
      {{empty_frames}, {}, empty_frames + ": no frames"},
      {{bad_value}, {}, bad_value + ": frames[0]: metric \"vmaf\" is not a number"},
      {{good, lacking},
       {},
       lacking + ": has no metric \"vmaf\", which " + good +
           " has (the runs must have the same metrics, or choose metrics that every run has)"},
      {{good}, {.metrics = {"vmaf", "ssim"}}, good + ": has no metric \"ssim\""},
      {{}, {}, "no JSON files to report on"},
  };
  for (const auto& c : cases) {
    auto page = html_report(c.paths, c.options);
    ASSERT_FALSE(page.ok()) << c.message;
    EXPECT_EQ(page.status().message(), c.message);
  }
}

TEST_F(HtmlReportTest, NamesFromTheInputAreEscaped) {
  Report r = MakeRun(6, 0, true);
  r.metrics[0].name = "<b>psnr</b>";
  r.pooled[0].name = "<b>psnr</b>";
  r.settings->features.push_back("x\"><script>alert(2)</script>");
  const std::string path = WriteRun("<script>alert(1)<\\script>.json", r);
  auto page = html_report({path});
  ASSERT_TRUE(page.ok()) << page.status().message();
  EXPECT_EQ(page->find("<script"), std::string::npos);
  EXPECT_EQ(page->find("<b>"), std::string::npos);
  EXPECT_NE(page->find("&lt;script&gt;alert(1)&lt;\\script&gt;.json"), std::string::npos);
  EXPECT_NE(page->find("data-metric=\"&lt;b&gt;psnr&lt;/b&gt;\""), std::string::npos);
  EXPECT_NE(page->find("x&quot;&gt;&lt;script&gt;"), std::string::npos);
}

TEST_F(HtmlReportTest, LongRunsMakeAPageOfReasonableSize) {
  // 100000 frames, two metrics: the charts hold at most two points per
  // pixel column, so the page stays far below the data's size.
  const std::string a = WriteRun("a.json", MakeRun(100000, 0, true));
  auto page = html_report({a});
  ASSERT_TRUE(page.ok()) << page.status().message();
  EXPECT_LT(page->size(), 150000U);
  EXPECT_GT(fs::file_size(a), 5000000U);
}

// A write that fails part-way (the file size limit, RLIMIT_FSIZE, stops it
// after its first bytes; SIGXFSZ ignored so that write() fails with EFBIG)
// leaves no file and no temporary, and what was at the path stays; the
// same call without the limit writes the page. (Before, the failure came
// from a missing input, before any file was opened.)
TEST_F(HtmlReportTest, WrittenAtomically) {
  const std::string a = WriteRun("a.json", MakeRun(8, 0, true));
  const std::string out = WriteText("report.html", "old");
  auto page = html_report({a});
  ASSERT_TRUE(page.ok());
  constexpr rlim_t kLimit = 4096;
  ASSERT_GT(page->size(), 2 * kLimit);
  rlimit saved{};
  ASSERT_EQ(::getrlimit(RLIMIT_FSIZE, &saved), 0);
  ASSERT_TRUE(saved.rlim_max == RLIM_INFINITY || saved.rlim_max > kLimit);
  const rlimit limited{kLimit, saved.rlim_max};
  const auto old_handler = std::signal(SIGXFSZ, SIG_IGN);
  ASSERT_EQ(::setrlimit(RLIMIT_FSIZE, &limited), 0);
  const Status cut = write_html_report({a}, out);
  ::setrlimit(RLIMIT_FSIZE, &saved);
  std::signal(SIGXFSZ, old_handler);
  ASSERT_FALSE(cut.ok());
  EXPECT_EQ(cut.code(), Errc::kIo) << cut.message();
  EXPECT_NE(cut.message().find("File too large"), std::string::npos) << cut.message();
  std::ifstream kept(out);
  EXPECT_EQ(std::string(std::istreambuf_iterator<char>(kept), {}), "old");
  std::vector<std::string> names;
  for (const auto& e : fs::directory_iterator(dir_)) names.push_back(e.path().filename().string());
  std::sort(names.begin(), names.end());
  EXPECT_EQ(names, (std::vector<std::string>{"a.json", "report.html"}));

  ASSERT_TRUE(write_html_report({a}, out).ok());
  std::ifstream written(out);
  EXPECT_EQ(std::string(std::istreambuf_iterator<char>(written), {}), *page);
  for (const auto& e : fs::directory_iterator(dir_)) {
    EXPECT_EQ(e.path().filename().string().find(".tmp."), std::string::npos) << e.path();
  }
}

}  // namespace
}  // namespace vqx
