// Output writers: exact text for each format, JSON validity and round trip,
// XML well-formedness, CSV shape, and (when the corpus is found: $VQX_CORPUS
// or VQX_CORPUS_DIR) byte-for-byte equality with the reference `vmaf` tool's
// JSON files in golden/ and golden_fullprec/.
#include <gtest/gtest.h>

#include <algorithm>
#include <cctype>
#include <clocale>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <limits>
#include <locale>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "output/number_format.hpp"
#include "output/writers.hpp"

namespace vqx {
namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();
constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

// 2 metrics, 3 subsampled frames; a missing value, a tiny value, a large
// value, an infinity, a value whose fractional part is tiny.
Report SmallReport() {
  Report r;
  r.version = "3.2.0";
  r.width = 576;
  r.height = 324;
  r.fps = 5.25;
  r.frame_numbers = {0, 2, 4};
  r.metrics = {{"psnr_y", {30.878388, kInf, 12345678901.5}},
               {"vmaf", {5e-7, kNaN, 100.00000000000001}}};
  r.pooled = {{"psnr_y", ReportPooled{30.878388, kInf, kInf, 61.756776}},
              {"vmaf", ReportPooled{5e-7, 100.00000000000001, 50.00000025, 1e-300}}};
  r.aggregate = {{"apsnr_y", 29.809982}, {"apsnr_cb", kNaN}};
  return r;
}

std::string Write(const Report& r, OutputFormat f) {
  std::ostringstream out;
  const Status st = write_report(r, f, out);
  EXPECT_TRUE(st.ok()) << st.message();
  return out.str();
}

// --- a minimal XML well-formedness check -----------------------------------
// Elements balance, one root, attributes are name="value" with unique names,
// only whitespace between tags. Enough for what the writer produces.
bool IsNameChar(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '-' || c == '.' ||
         c == ':';
}

::testing::AssertionResult WellFormedXml(const std::string& x) {
  std::vector<std::string> open;
  int roots = 0;
  std::size_t i = 0;
  auto fail = [&](const std::string& why) {
    return ::testing::AssertionFailure() << why << " at offset " << i;
  };
  while (i < x.size()) {
    if (x[i] != '<') {
      if (!std::isspace(static_cast<unsigned char>(x[i]))) {
        return fail("text outside tags");
      }
      ++i;
      continue;
    }
    ++i;
    const bool closing = i < x.size() && x[i] == '/';
    if (closing) {
      ++i;
    }
    const std::size_t name_start = i;
    while (i < x.size() && IsNameChar(x[i])) {
      ++i;
    }
    const std::string name = x.substr(name_start, i - name_start);
    if (name.empty()) {
      return fail("empty tag name");
    }
    if (closing) {
      if (i >= x.size() || x[i] != '>') {
        return fail("bad closing tag");
      }
      ++i;
      if (open.empty() || open.back() != name) {
        return fail("unbalanced </" + name + ">");
      }
      open.pop_back();
      continue;
    }
    if (open.empty() && ++roots > 1) {
      return fail("second root element");
    }
    std::set<std::string> attrs;
    for (;;) {
      while (i < x.size() && x[i] == ' ') {
        ++i;
      }
      if (i >= x.size()) {
        return fail("unterminated tag");
      }
      if (x.compare(i, 2, "/>") == 0) {
        i += 2;
        break;
      }
      if (x[i] == '>') {
        ++i;
        open.push_back(name);
        break;
      }
      const std::size_t a = i;
      while (i < x.size() && IsNameChar(x[i])) {
        ++i;
      }
      const std::string attr = x.substr(a, i - a);
      if (attr.empty() || x.compare(i, 2, "=\"") != 0) {
        return fail("bad attribute");
      }
      if (!attrs.insert(attr).second) {
        return fail("duplicate attribute " + attr);
      }
      const std::size_t end = x.find('"', i + 2);
      if (end == std::string::npos) {
        return fail("unterminated value");
      }
      if (x.substr(i + 2, end - i - 2).find('<') != std::string::npos) {
        return fail("'<' in value");
      }
      i = end + 1;
    }
  }
  if (!open.empty()) {
    return ::testing::AssertionFailure() << "unclosed <" << open.back() << ">";
  }
  if (roots != 1) {
    return ::testing::AssertionFailure() << "no root element";
  }
  return ::testing::AssertionSuccess();
}

std::vector<std::string> Split(const std::string& s, char sep) {
  std::vector<std::string> parts;
  std::string cur;
  for (const char c : s) {
    if (c == sep) {
      parts.push_back(cur);
      cur.clear();
    } else {
      cur += c;
    }
  }
  parts.push_back(cur);
  return parts;
}

// --- exact text -------------------------------------------------------------

TEST(OutputXml, ExactText) {
  EXPECT_EQ(
      Write(SmallReport(), OutputFormat::kXml),
      "<VMAF version=\"3.2.0\">\n"
      "  <params qualityWidth=\"576\" qualityHeight=\"324\" />\n"
      "  <fyi fps=\"5.25\" />\n"
      "  <frames>\n"
      "    <frame frameNum=\"0\" psnr_y=\"30.878388\" vmaf=\"0.0000005000000000\" />\n"
      "    <frame frameNum=\"2\" psnr_y=\"inf\" />\n"
      "    <frame frameNum=\"4\" psnr_y=\"12345678901.500000\" vmaf=\"100.0000000000000142\" />\n"
      "  </frames>\n"
      "  <pooled_metrics>\n"
      "    <metric name=\"psnr_y\" min=\"30.878388\" max=\"inf\" mean=\"inf\" "
      "harmonic_mean=\"61.756776\" />\n"
      "    <metric name=\"vmaf\" min=\"0.0000005000000000\" max=\"100.0000000000000142\" "
      "mean=\"50.0000002499999994\" harmonic_mean=\"0.0000000000000000\" />\n"
      "  </pooled_metrics>\n"
      "  <aggregate_metrics apsnr_y=\"29.809982\" apsnr_cb=\"nan\" />\n"
      "</VMAF>\n");
}

TEST(OutputJson, ExactText) {
  // Note the reference's missing newline after a null frame value.
  EXPECT_EQ(Write(SmallReport(), OutputFormat::kJson),
            "{\n"
            "  \"version\": \"3.2.0\",\n"
            "  \"fps\": 5.25,\n"
            "  \"frames\": [\n"
            "    {\n"
            "      \"frameNum\": 0,\n"
            "      \"metrics\": {\n"
            "        \"psnr_y\": 30.878388,\n"
            "        \"vmaf\": 0.0000005000000000\n"
            "      }\n"
            "    },\n"
            "    {\n"
            "      \"frameNum\": 2,\n"
            "      \"metrics\": {\n"
            "        \"psnr_y\": null      }\n"
            "    },\n"
            "    {\n"
            "      \"frameNum\": 4,\n"
            "      \"metrics\": {\n"
            "        \"psnr_y\": 12345678901.500000,\n"
            "        \"vmaf\": 100.0000000000000142\n"
            "      }\n"
            "    }\n"
            "  ],\n"
            "  \"pooled_metrics\": {\n"
            "    \"psnr_y\": {\n"
            "      \"min\": 30.878388,\n"
            "      \"max\": null,\n"
            "      \"mean\": null,\n"
            "      \"harmonic_mean\": 61.756776\n"
            "    },\n"
            "    \"vmaf\": {\n"
            "      \"min\": 0.0000005000000000,\n"
            "      \"max\": 100.0000000000000142,\n"
            "      \"mean\": 50.0000002499999994,\n"
            "      \"harmonic_mean\": 0.0000000000000000\n"
            "    }\n"
            "  },\n"
            "  \"aggregate_metrics\": {\n"
            "    \"apsnr_y\": 29.809982,\n"
            "    \"apsnr_cb\": null\n"
            "  }\n"
            "}\n");
}

TEST(OutputCsv, ExactText) {
  EXPECT_EQ(Write(SmallReport(), OutputFormat::kCsv),
            "Frame,psnr_y,vmaf,\n"
            "0,30.878388,0.0000005000000000,\n"
            "2,inf,,\n"
            "4,12345678901.500000,100.0000000000000142,\n");
}

TEST(OutputSub, ExactText) {
  EXPECT_EQ(Write(SmallReport(), OutputFormat::kSub),
            "{0}{1}frame: 0|psnr_y: 30.878388|vmaf: 0.0000005000000000|\n"
            "{2}{3}frame: 2|psnr_y: inf|\n"
            "{4}{5}frame: 4|psnr_y: 12345678901.500000|vmaf: 100.0000000000000142|\n");
}

TEST(OutputJson, EmptyReport) {
  Report r;
  r.version = "3.2.0";
  EXPECT_EQ(Write(r, OutputFormat::kJson),
            "{\n  \"version\": \"3.2.0\",\n  \"fps\": 0.00,\n  \"frames\": [\n  ],\n"
            "  \"pooled_metrics\": {\n  },\n  \"aggregate_metrics\": {\n  }\n}\n");
  EXPECT_TRUE(nlohmann::json::accept(Write(r, OutputFormat::kJson)));
}

TEST(OutputXml, EmptyReport) {
  Report r;
  r.version = "3.2.0";
  r.fps = kNaN;
  const std::string x = Write(r, OutputFormat::kXml);
  EXPECT_EQ(x,
            "<VMAF version=\"3.2.0\">\n  <params qualityWidth=\"0\" qualityHeight=\"0\" />\n"
            "  <fyi fps=\"nan\" />\n  <frames>\n  </frames>\n  <pooled_metrics>\n"
            "  </pooled_metrics>\n  <aggregate_metrics />\n</VMAF>\n");
  EXPECT_TRUE(WellFormedXml(x));
}

// --- structure checks ---------------------------------------------------------

TEST(OutputXml, WellFormed) {
  EXPECT_TRUE(WellFormedXml(Write(SmallReport(), OutputFormat::kXml)));
  Report r = SmallReport();
  r.version = "1.0 \"<beta>\" & co";
  const std::string x = Write(r, OutputFormat::kXml);
  EXPECT_NE(x.find("version=\"1.0 &quot;&lt;beta&gt;&quot; &amp; co\""), std::string::npos);
  EXPECT_TRUE(WellFormedXml(x));
  // The checker itself catches breakage.
  EXPECT_FALSE(WellFormedXml("<a><b></a></b>"));
  EXPECT_FALSE(WellFormedXml("<a x=\"1\" x=\"2\" />"));
  EXPECT_FALSE(WellFormedXml("<a>"));
}

TEST(OutputJson, ParsesAndKeepsStructure) {
  const auto j = nlohmann::json::parse(Write(SmallReport(), OutputFormat::kJson));
  EXPECT_EQ(j["version"], "3.2.0");
  EXPECT_DOUBLE_EQ(j["fps"].get<double>(), 5.25);
  ASSERT_EQ(j["frames"].size(), 3u);
  EXPECT_EQ(j["frames"][1]["frameNum"], 2);
  EXPECT_TRUE(j["frames"][1]["metrics"]["psnr_y"].is_null());  // infinity
  EXPECT_FALSE(j["frames"][1]["metrics"].contains("vmaf"));    // absent
  EXPECT_TRUE(j["pooled_metrics"]["psnr_y"]["max"].is_null());
  EXPECT_TRUE(j["aggregate_metrics"]["apsnr_cb"].is_null());
}

TEST(OutputJson, RoundTripsAtMaxPrecision) {
  Report r = SmallReport();
  r.precision = kPrecisionMax;
  r.metrics[0].values[1] = 0.1;
  r.metrics.push_back({"odd", {1.0 / 3.0, -2.5e-300, 1.7976931348623157e308}});
  const std::string text = Write(r, OutputFormat::kJson);
  const auto j = nlohmann::json::parse(text);
  for (std::size_t f = 0; f < r.frame_numbers.size(); ++f) {
    for (const ReportMetric& m : r.metrics) {
      const double v = m.values[f];
      const auto& got = j["frames"][f]["metrics"];
      if (std::isnan(v)) {
        EXPECT_FALSE(got.contains(m.name));
      } else if (std::isinf(v)) {
        EXPECT_TRUE(got[m.name].is_null());
      } else {
        EXPECT_EQ(got[m.name].get<double>(), v) << m.name << " frame " << f;
      }
    }
  }
  EXPECT_EQ(j["pooled_metrics"]["vmaf"]["mean"].get<double>(), 50.00000025);
  EXPECT_EQ(j["pooled_metrics"]["vmaf"]["harmonic_mean"].get<double>(), 1e-300);
  EXPECT_NE(text.find("\"psnr_y\": 0.10000000000000001,"), std::string::npos);
  EXPECT_NE(text.find("\"harmonic_mean\": 1e-300\n"), std::string::npos);
}

TEST(OutputCsv, HeaderAndAlignedRows) {
  const std::string csv = Write(SmallReport(), OutputFormat::kCsv);
  std::vector<std::string> lines = Split(csv, '\n');
  ASSERT_EQ(lines.back(), "");
  lines.pop_back();
  ASSERT_EQ(lines.size(), 4u);
  EXPECT_EQ(lines[0], "Frame,psnr_y,vmaf,");
  for (const std::string& line : lines) {
    const std::vector<std::string> fields = Split(line, ',');
    EXPECT_EQ(fields.size(), 4u) << line;  // 3 columns and the trailing comma
    EXPECT_EQ(fields.back(), "") << line;
  }
  EXPECT_EQ(Split(lines[2], ',')[0], "2");
}

TEST(OutputCsv, QuotesAwkwardNames) {
  Report r;
  r.frame_numbers = {7};
  r.metrics = {{"a,b", {1}}, {"say \"hi\"", {2}}};
  EXPECT_EQ(Write(r, OutputFormat::kCsv),
            "Frame,\"a,b\",\"say \"\"hi\"\"\",\n7,1.000000,2.000000,\n");
}

// --- precision -----------------------------------------------------------------

TEST(OutputPrecision, FixedDecimals) {
  Report r = SmallReport();
  r.precision = 3;
  EXPECT_EQ(Write(r, OutputFormat::kSub),
            "{0}{1}frame: 0|psnr_y: 30.878|vmaf: 0.000|\n"
            "{2}{3}frame: 2|psnr_y: inf|\n"
            "{4}{5}frame: 4|psnr_y: 12345678901.500|vmaf: 100.000|\n");
  r.precision = 0;
  EXPECT_EQ(Write(r, OutputFormat::kCsv),
            "Frame,psnr_y,vmaf,\n0,31,0,\n2,inf,,\n4,12345678902,100,\n");
  // fps keeps two decimals whatever the precision.
  EXPECT_NE(Write(r, OutputFormat::kJson).find("\"fps\": 5.25,"), std::string::npos);
}

TEST(OutputPrecision, OutOfRangeIsRejected) {
  for (const int p : {-2, 18}) {
    Report r = SmallReport();
    r.precision = p;
    std::ostringstream out;
    const Status st = write_report(r, OutputFormat::kJson, out);
    EXPECT_EQ(st.code(), Errc::kInvalidArgument) << p;
    EXPECT_TRUE(out.str().empty());
  }
}

TEST(OutputNumbers, ReferenceRule) {
  using output_detail::append_value;
  auto fmt = [](double v) {
    std::string s;
    append_value(s, v, kPrecisionReference);
    return s;
  };
  EXPECT_EQ(fmt(0.0), "0.000000");
  EXPECT_EQ(fmt(-0.0), "-0.000000");
  EXPECT_EQ(fmt(1e-6), "0.000001");  // reaches 1 after 6 multiplications
  EXPECT_EQ(fmt(9.9e-7), "0.0000009900000000");
  EXPECT_EQ(fmt(-9.9e-7), "-0.0000009900000000");
  EXPECT_EQ(fmt(3.0000009), "3.0000008999999999");  // fractional part decides, not magnitude
  EXPECT_EQ(fmt(3.000001), "3.000001");
  EXPECT_EQ(fmt(14400.000000000005), "14400.0000000000054570");
  EXPECT_EQ(fmt(1e-300), "0.0000000000000000");
  EXPECT_EQ(fmt(2147483648.0000002), "2147483648.000000");  // beyond int: always 6
  EXPECT_EQ(fmt(kInf), "inf");
  EXPECT_EQ(fmt(-kInf), "-inf");
  EXPECT_EQ(fmt(kNaN), "nan");
}

// --- misc ---------------------------------------------------------------------

TEST(OutputFormatName, Parse) {
  EXPECT_EQ(parse_output_format("xml").value(), OutputFormat::kXml);
  EXPECT_EQ(parse_output_format("json").value(), OutputFormat::kJson);
  EXPECT_EQ(parse_output_format("csv").value(), OutputFormat::kCsv);
  EXPECT_EQ(parse_output_format("sub").value(), OutputFormat::kSub);
  EXPECT_EQ(parse_output_format("yaml").status().code(), Errc::kInvalidArgument);
  EXPECT_FALSE(parse_output_format("").ok());
}

TEST(OutputReport, MismatchedValueCountIsRejected) {
  Report r = SmallReport();
  r.metrics[1].values.pop_back();
  std::ostringstream out;
  EXPECT_EQ(write_report(r, OutputFormat::kXml, out).code(), Errc::kInvalidArgument);
  EXPECT_TRUE(out.str().empty());
}

TEST(OutputReport, StreamFailureIsIoError) {
  std::ostringstream out;
  out.setstate(std::ios::badbit);
  EXPECT_EQ(write_report(SmallReport(), OutputFormat::kCsv, out).code(), Errc::kIo);
}

TEST(OutputReport, FrameWithoutValuesIsSkippedAndPoolFailureIsEmpty) {
  Report r;
  r.version = "v";
  r.frame_numbers = {0, 1};
  r.metrics = {{"m", {kNaN, 2.0}}};
  r.pooled = {{"m", std::nullopt}};
  const std::string json = Write(r, OutputFormat::kJson);
  EXPECT_EQ(json,
            "{\n  \"version\": \"v\",\n  \"fps\": 0.00,\n  \"frames\": [\n"
            "    {\n      \"frameNum\": 1,\n      \"metrics\": {\n        \"m\": 2.000000\n"
            "      }\n    }\n  ],\n  \"pooled_metrics\": {\n    \"m\": {\n    }\n  },\n"
            "  \"aggregate_metrics\": {\n  }\n}\n");
  EXPECT_TRUE(nlohmann::json::accept(json));
  const std::string xml = Write(r, OutputFormat::kXml);
  EXPECT_EQ(xml.find("frameNum=\"0\""), std::string::npos);
  EXPECT_NE(xml.find("    <metric name=\"m\" />\n"), std::string::npos);
  EXPECT_TRUE(WellFormedXml(xml));
  EXPECT_EQ(Write(r, OutputFormat::kCsv), "Frame,m,\n1,2.000000,\n");
  EXPECT_EQ(Write(r, OutputFormat::kSub), "{1}{2}frame: 1|m: 2.000000|\n");
}

TEST(OutputReport, NoMetricsWritesNoFrames) {
  Report r;
  r.frame_numbers = {0, 1, 2};
  EXPECT_EQ(Write(r, OutputFormat::kCsv), "Frame,\n");
  EXPECT_EQ(Write(r, OutputFormat::kSub), "");
}

TEST(OutputJson, EscapesStrings) {
  Report r;
  r.version = "a\"b\\c\n\x01";
  r.frame_numbers = {0};
  r.metrics = {{"q\"m", {1}}};
  const auto j = nlohmann::json::parse(Write(r, OutputFormat::kJson));
  EXPECT_EQ(j["version"], "a\"b\\c\n\x01");
  EXPECT_EQ(j["frames"][0]["metrics"]["q\"m"], 1.0);
}

// A decimal comma in the stream's locale or the C locale changes nothing.
struct CommaPunct : std::numpunct<char> {
  char do_decimal_point() const override { return ','; }
};

TEST(OutputLocale, StreamLocaleIgnored) {
  std::ostringstream out;
  out.imbue(std::locale(std::locale::classic(), new CommaPunct));
  ASSERT_TRUE(write_report(SmallReport(), OutputFormat::kCsv, out).ok());
  EXPECT_EQ(out.str(), Write(SmallReport(), OutputFormat::kCsv));
}

TEST(OutputLocale, CLocaleIgnored) {
  const std::string expected = Write(SmallReport(), OutputFormat::kXml);
  const std::string saved = std::setlocale(LC_NUMERIC, nullptr);  // NOLINT(concurrency-mt-unsafe)
  const char* got = nullptr;
  for (const char* name :
       {"de_DE.UTF-8", "de_DE.utf8", "fr_FR.UTF-8", "fr_FR.utf8", "ru_RU.UTF-8"}) {
    if ((got = std::setlocale(LC_NUMERIC, name)) != nullptr) {  // NOLINT(concurrency-mt-unsafe)
      break;
    }
  }
  if (got == nullptr) {
    GTEST_SKIP() << "no locale with a decimal comma is installed";
  }
  const std::string text = Write(SmallReport(), OutputFormat::kXml);
  std::setlocale(LC_NUMERIC, saved.c_str());  // NOLINT(concurrency-mt-unsafe)
  EXPECT_EQ(text, expected);
}

// --- the reference's own output -----------------------------------------------
// Rebuilds a Report from each golden JSON file of the reference tool and checks
// that writing it again gives the same bytes.

Report ReportFromJson(const nlohmann::ordered_json& j) {
  Report r;
  r.version = j["version"].get<std::string>();
  r.fps = j["fps"].is_null() ? kNaN : j["fps"].get<double>();
  auto number = [](const nlohmann::ordered_json& v) {
    return v.is_null() ? kInf : v.get<double>();
  };
  std::vector<std::string> names;
  for (const auto& frame : j["frames"]) {
    for (const auto& [name, v] : frame["metrics"].items()) {
      if (std::find(names.begin(), names.end(), name) == names.end()) {
        names.push_back(name);
      }
    }
  }
  for (const std::string& name : names) {
    r.metrics.push_back({name, {}});
  }
  for (const auto& frame : j["frames"]) {
    r.frame_numbers.push_back(frame["frameNum"].get<unsigned>());
    for (ReportMetric& m : r.metrics) {
      m.values.push_back(frame["metrics"].contains(m.name) ? number(frame["metrics"][m.name])
                                                           : kNaN);
    }
  }
  for (const auto& [name, p] : j["pooled_metrics"].items()) {
    if (p.empty()) {
      r.pooled.push_back({name, std::nullopt});
    } else {
      r.pooled.push_back({name, ReportPooled{number(p["min"]), number(p["max"]), number(p["mean"]),
                                             number(p["harmonic_mean"])}});
    }
  }
  for (const auto& [name, v] : j["aggregate_metrics"].items()) {
    r.aggregate.emplace_back(name, number(v));
  }
  return r;
}

// The corpus folder: $VQX_CORPUS, else the build's VQX_CORPUS_DIR; empty if
// neither names a folder.
std::filesystem::path CorpusDir() {
  const char* dir = std::getenv("VQX_CORPUS");  // NOLINT(concurrency-mt-unsafe)
#ifdef VQX_CORPUS_DIR
  if (dir == nullptr) dir = VQX_CORPUS_DIR;
#endif
  if (dir == nullptr || !std::filesystem::is_directory(dir)) {
    return {};
  }
  return dir;
}

// Equal, or a failure quoting the first line that differs (the files are long).
::testing::AssertionResult SameText(const std::string& got, const std::string& want) {
  if (got == want) {
    return ::testing::AssertionSuccess();
  }
  const auto [g, w] = std::mismatch(got.begin(), got.end(), want.begin(), want.end());
  const std::size_t at = static_cast<std::size_t>(g - got.begin());
  const std::size_t line_start = got.rfind('\n', at == 0 ? 0 : at - 1);
  const std::size_t from = line_start == std::string::npos ? 0 : line_start + 1;
  auto line = [from](const std::string& s) { return s.substr(from, s.find('\n', from) - from); };
  return ::testing::AssertionFailure()
         << "first difference at byte " << at << " (line " << std::count(got.begin(), g, '\n') + 1
         << ")\n  written: " << line(got) << "\n  golden:  " << line(want);
}

// Number of files in `dir` checked.
int CheckGoldenJson(const std::filesystem::path& dir, int precision) {
  int files = 0;
  if (!std::filesystem::is_directory(dir)) {
    return 0;
  }
  for (const auto& entry : std::filesystem::directory_iterator(dir)) {
    if (entry.path().extension() != ".json") {
      continue;
    }
    std::ifstream in(entry.path(), std::ios::binary);
    const std::string golden((std::istreambuf_iterator<char>(in)),
                             std::istreambuf_iterator<char>());
    const auto j = nlohmann::ordered_json::parse(golden, nullptr, /*allow_exceptions=*/false);
    if (j.is_discarded() || !j.contains("frames") || !j.contains("pooled_metrics")) {
      continue;
    }
    ++files;
    Report r = ReportFromJson(j);
    r.precision = precision;
    EXPECT_TRUE(SameText(Write(r, OutputFormat::kJson), golden)) << entry.path();
  }
  return files;
}

// golden/: the reference's default formatting.
TEST(OutputGolden, JsonBytesMatchReference) {
  const std::filesystem::path corpus = CorpusDir();
  if (corpus.empty()) {
    GTEST_SKIP() << "corpus not found (set VQX_CORPUS)";
  }
  if (CheckGoldenJson(corpus / "golden", kPrecisionReference) == 0) {
    GTEST_SKIP() << "no golden JSON";
  }
}

// golden_fullprec/: the same runs from a reference build printing "%.17g".
TEST(OutputGolden, JsonBytesMatchFullPrecisionReference) {
  const std::filesystem::path corpus = CorpusDir();
  if (corpus.empty()) {
    GTEST_SKIP() << "corpus not found (set VQX_CORPUS)";
  }
  if (CheckGoldenJson(corpus / "golden_fullprec", kPrecisionMax) == 0) {
    GTEST_SKIP() << "no golden JSON";
  }
}

}  // namespace
}  // namespace vqx
