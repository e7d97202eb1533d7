#include "cli_options.hpp"

#include <CLI/CLI.hpp>

namespace vqx::cli {

namespace {

Expected<int> parse_precision(const std::string& text) {
  if (text == "max") return kPrecisionMax;
  int v = -1;
  try {
    std::size_t used = 0;
    v = std::stoi(text, &used);
    if (used != text.size()) v = -1;
  } catch (const std::exception&) {
    v = -1;
  }
  if (v < 0 || v > kPrecisionMax) {
    return Error(Errc::kInvalidArgument,
                 "--precision " + text + ": expected a number from 0 to 17, or max");
  }
  return v;
}

}  // namespace

Expected<CliOptions> parse_cli(int argc, const char* const* argv) {
  CliOptions o;
  CLI::App app{"vqx: video quality measurement (VMAF and its features) with the reference "
               "libvmaf's numbers"};
  app.set_help_flag("--help", "Print this help and exit");
  bool xml = false, json = false, csv = false, sub = false;
  std::string precision;
  std::string backend = "auto";
  app.add_option("-r,--reference", o.reference, "Reference video (.y4m, .yuv, or any file FFmpeg reads)");
  app.add_option("-d,--distorted", o.distorted, "Distorted video");
  app.add_option("-w,--width", o.width, "Width of raw .yuv input");
  app.add_option("-h,--height", o.height, "Height of raw .yuv input");
  app.add_option("-p,--pixel_format", o.pixel_format, "Pixel format of raw input: 420, 422, 444 or 400");
  app.add_option("-b,--bitdepth", o.bitdepth, "Bit depth of raw input: 8 to 16");
  app.add_option("-m,--model", o.models,
                 "Model: version=NAME or path=FILE, with :name=..., :disable_clip, "
                 ":enable_transform, :FEATURE.OPTION=VALUE (repeatable)");
  app.add_option("--feature", o.features, "Feature extractor: NAME[=OPTION=VALUE:...] (repeatable)");
  app.add_option("-o,--output", o.output, "Output file");
  app.add_flag("--xml", xml, "Write XML output (default)");
  app.add_flag("--json", json, "Write JSON output");
  app.add_flag("--csv", csv, "Write CSV output");
  app.add_flag("--sub", sub, "Write SUB (subtitle) output");
  app.add_option("--threads", o.threads, "Worker threads (frames in flight)");
  app.add_option("--backend", backend,
                 "Where to compute: auto (the GPU when one is present), cpu, cuda or hip")
      ->check(CLI::IsMember({"auto", "cpu", "cuda", "hip"}));
  app.add_option("--gpu", o.gpu, "Index of the GPU to use (default 0)");
  app.add_option("--subsample", o.subsample, "Score every N-th frame")->check(CLI::PositiveNumber);
  app.add_option("--frame_cnt", o.frame_cnt, "Score at most this many frames");
  app.add_option("--frame_skip_ref", o.frame_skip_ref, "Skip this many reference frames first");
  app.add_option("--frame_skip_dist", o.frame_skip_dist, "Skip this many distorted frames first");
  app.add_flag("--ignore_frame_rate", o.ignore_frame_rate,
               "Score reference and distorted of different frame rates, frame by frame");
  app.add_option("--precision", precision, "Decimals in the output: 0..17, or max (round-trip)");
  app.add_flag("-q,--quiet", o.quiet, "No progress line and no score summary");
  app.add_flag("-n,--no_prediction", o.no_prediction, "Compute features only, no model");
  app.add_flag("-v,--version", o.show_version, "Print the version and exit");
  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp&) {
    o.show_help = true;
    o.help_text = app.help();
    return o;
  } catch (const CLI::ParseError& e) {
    return Error(Errc::kInvalidArgument, e.what());
  }
  if (o.show_version) return o;
  if ((xml ? 1 : 0) + (json ? 1 : 0) + (csv ? 1 : 0) + (sub ? 1 : 0) > 1) {
    return Error(Errc::kInvalidArgument, "give at most one of --xml, --json, --csv, --sub");
  }
  if (json) o.format = OutputFormat::kJson;
  if (csv) o.format = OutputFormat::kCsv;
  if (sub) o.format = OutputFormat::kSub;
  if (backend == "cpu") o.backend = Backend::kCpu;
  if (backend == "cuda") o.backend = Backend::kCuda;
  if (backend == "hip") o.backend = Backend::kHip;
  if (!precision.empty()) {
    VQX_ASSIGN_OR_RETURN(o.precision, parse_precision(precision));
  }
  if (o.reference.empty()) return Error(Errc::kInvalidArgument, "--reference/-r is required");
  if (o.distorted.empty()) return Error(Errc::kInvalidArgument, "--distorted/-d is required");
  if (o.raw_input() &&
      (o.width == 0 || o.height == 0 || o.pixel_format.empty() || o.bitdepth == 0)) {
    return Error(Errc::kInvalidArgument,
                 "raw input needs all of --width, --height, --pixel_format and --bitdepth");
  }
  if (o.no_prediction && !o.models.empty()) {
    return Error(Errc::kInvalidArgument, "--no_prediction and --model contradict each other");
  }
  if (o.no_prediction && o.features.empty()) {
    return Error(Errc::kInvalidArgument, "--no_prediction needs at least one --feature");
  }
  return o;
}

}  // namespace vqx::cli
