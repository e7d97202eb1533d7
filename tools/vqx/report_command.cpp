#include "report_command.hpp"

#include <CLI/CLI.hpp>

#include <algorithm>
#include <charconv>
#include <string>
#include <vector>

#include "input_checks.hpp"
#include "signals.hpp"
#include "standard_output.hpp"
#include "vqx/html_report.hpp"

namespace vqx::cli {

namespace {

constexpr unsigned kMaxWorst = 100000;

int fail(const std::string& message) { return report_error("vqx report", message); }

// --worst: a whole number in decimal digits, 0 to kMaxWorst (no longer
// than kMaxWorst's digits, so that from_chars cannot overflow).
bool parse_worst(const std::string& text, unsigned& out) {
  if (text.empty() || text.size() > std::to_string(kMaxWorst).size() ||
      !std::all_of(text.begin(), text.end(), [](char c) { return c >= '0' && c <= '9'; })) {
    return false;
  }
  std::from_chars(text.data(), text.data() + text.size(), out);
  return out <= kMaxWorst;
}

}  // namespace

int run_report_command(int argc, const char* const* argv,
                       const std::shared_ptr<OutputFiles>& files) {
  CLI::App app{
      "vqx report: one self-contained HTML page comparing runs (the JSON files of "
      "vqx --json or of the reference vmaf tool): per-frame charts with the runs overlaid, "
      "histograms, pooled values, the worst frames and each run's settings",
      "vqx report"};
  app.set_help_flag("-h,--help", "Print this help and exit");
  std::vector<std::string> inputs;
  std::string output;
  HtmlReportOptions options;
  std::string worst = std::to_string(options.worst_frames);
  app.add_option("runs", inputs, "JSON files, one per run (vqx --json -o run.json)")
      ->required()
      ->type_name("RUN.json");
  app.add_option("-o,--output", output, "The HTML file to write (- for standard output)")
      ->required();
  app.add_option("--worst", worst,
                 "Frames listed per run in the worst-frames table (default " + worst + ")")
      ->type_name("N");
  // One value per --metric: the runs may follow it (`--metric vmaf b.json`).
  app.add_option("--metric", options.metrics,
                 "A metric to show (repeatable; default: every metric); the first is the main "
                 "one, whose lowest frames are listed")
      ->allow_extra_args(false);
  app.add_option("--title", options.title, "The page's title (default: VQX report)");
  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp&) {
    auto s = write_stdout(app.help());
    return s.ok() ? 0 : fail(s.message());
  } catch (const CLI::ParseError& e) {
    return fail(e.what());
  }
  if (output.empty()) return fail("-o/--output: the value is empty");
  if (!parse_worst(worst, options.worst_frames)) {
    return fail("--worst " + worst + ": expected a whole number from 0 to " +
                std::to_string(kMaxWorst));
  }
  std::vector<NamedInput> runs;
  for (const std::string& input : inputs) runs.push_back({"run", input});
  if (auto s = check_output_is_not_one_of(output, runs); !s.ok()) return fail(s.message());
  // The page waits under a temporary name until it is complete; on an
  // error or a signal nothing is left at the path (output_files.hpp).
  files->hold();
  if (auto s = write_html_report(inputs, output, options, files); !s.ok()) {
    files->discard();
    return fail(s.message());
  }
  // As the scoring run commits: not after a SIGINT (signals.hpp).
  if (auto s = commit_run(*files); !s.ok()) {
    files->discard();
    return fail(s.message());
  }
  return 0;
}

}  // namespace vqx::cli
