#include "cli_options.hpp"

#include <CLI/CLI.hpp>

#include <algorithm>
#include <charconv>
#include <cstdint>
#include <deque>
#include <limits>
#include <optional>
#include <string_view>
#include <system_error>

#include "vqx/picture.hpp"

namespace vqx::cli {

namespace {

constexpr unsigned kUnsignedMax = std::numeric_limits<unsigned>::max();
// Each frame read ahead is a picture per input (25 MB at 4K 10-bit): more
// than this buys no speed, only memory.
constexpr unsigned kMaxReadAhead = 64;
// Threads reading one input: past this, memory's bandwidth is the limit.
constexpr unsigned kMaxReadThreads = 16;
// Frames a clip may be shifted by (--dist-offset), and the --sync window:
// --sync holds SyncSettings::frames_needed() luma planes of the reference
// (the window and the frames compared) in memory.
constexpr unsigned kMaxOffset = 1000000;
constexpr unsigned kMaxSyncWindow = 1000;

// An option's value as messages show it: quoted when it is empty or holds
// a space or a byte that is not printable ASCII.
std::string shown(const std::string& text) {
  const bool plain = !text.empty() && std::all_of(text.begin(), text.end(), [](char c) {
    return c > ' ' && c < 0x7f && c != '\'';
  });
  if (plain) return text;
  std::string q = "'";
  for (const char c : text) {
    const auto u = static_cast<unsigned char>(c);
    if (u >= ' ' && u < 0x7f && c != '\'') {
      q += c;
    } else {
      static constexpr char kHex[] = "0123456789abcdef";
      q += "\\x";
      q += kHex[u >> 4];
      q += kHex[u & 15];
    }
  }
  return q + "'";
}

// A whole number from `min` to `max`, written in decimal digits only (no
// sign, space, 0x or exponent: "-1" must not wrap around to 4294967295,
// and "1e3" is not a count). `name` is the option as the user knows it.
Expected<unsigned> parse_whole(const std::string& name, const std::string& text, unsigned min,
                               unsigned max) {
  const auto expected = [&](const std::string& what) {
    return Error(Errc::kInvalidArgument, name + " " + shown(text) + ": " + what +
                                             "expected a whole number from " + std::to_string(min) +
                                             " to " + std::to_string(max));
  };
  const bool digits = !text.empty() && std::all_of(text.begin(), text.end(),
                                                   [](char c) { return c >= '0' && c <= '9'; });
  if (!digits) return expected("");
  std::uint64_t v = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
  if (ec != std::errc() || end != text.data() + text.size() || v > max || v < min) {
    return expected(v > max || ec == std::errc::result_out_of_range ? "too large: "
                                                                    : "too small: ");
  }
  return static_cast<unsigned>(v);
}

// `auto` (empty), or a whole number from `min` to `max`.
Expected<std::optional<unsigned>> parse_auto(const std::string& name, const std::string& text,
                                             unsigned min, unsigned max) {
  if (text == "auto") return std::optional<unsigned>();
  auto v = parse_whole(name, text, min, max);
  if (!v.ok()) {
    return Error(Errc::kInvalidArgument, name + " " + shown(text) +
                                             ": expected auto or a number from " +
                                             std::to_string(min) + " to " + std::to_string(max));
  }
  return std::optional<unsigned>(*v);
}

// --dist-offset: a whole number, optionally negative, within the bounds.
Expected<int> parse_offset(const std::string& text) {
  const bool negative = !text.empty() && text[0] == '-';
  auto v = parse_whole("--dist-offset", negative ? text.substr(1) : text, 0, kMaxOffset);
  if (!v.ok()) {
    return Error(Errc::kInvalidArgument,
                 "--dist-offset " + shown(text) + ": expected a whole number from -" +
                     std::to_string(kMaxOffset) + " to " + std::to_string(kMaxOffset));
  }
  return negative ? -static_cast<int>(*v) : static_cast<int>(*v);
}

Expected<int> parse_precision(const std::string& text) {
  if (text == "max") return kPrecisionMax;
  auto v = parse_whole("--precision", text, 0, kPrecisionMax);
  if (!v.ok()) {
    return Error(Errc::kInvalidArgument,
                 "--precision " + shown(text) + ": expected a number from 0 to 17, or max");
  }
  return static_cast<int>(*v);
}

// A numeric option: where its number goes, its bounds and its text.
struct Whole {
  const char* flags;  // as CLI11 takes them: "-w,--width"
  const char* name;   // as messages say it: "-w/--width"
  unsigned* target;
  unsigned min;
  unsigned max;
  std::string text;
};

}  // namespace

Expected<CliOptions> parse_cli(int argc, const char* const* argv) {
  CliOptions o;
  CLI::App app{
      "vqx: video quality measurement (VMAF and its features) with the reference "
      "libvmaf's numbers"};
  app.set_help_flag("--help", "Print this help and exit");
  app.footer(
      "Subcommand:\n  vqx report RUN.json [MORE.json ...] -o report.html   an HTML page "
      "comparing runs (vqx report --help)");
  bool xml = false, json = false, csv = false, sub = false;
  std::string precision;
  std::string backend = "auto";
  app.add_option("-r,--reference", o.reference,
                 "Reference video (.y4m, .yuv, or any file FFmpeg reads)");
  // One value per -d (CLI11 would take "-d a b" as two).
  app.add_option("-d,--distorted", o.distorted,
                 "Distorted video; repeat it to score several against the reference in one run "
                 "(-o DIR/ or -o 'PATTERN{name}.json' for their outputs)")
      ->allow_extra_args(false);
  // Every numeric option is taken as text and parsed after CLI11, with one
  // rule and one message for all (CLI11 wrapped "-1" to 4294967295 for
  // some, took "0x10" and "+3", and printed a 309-digit bound for
  // --subsample). A deque: CLI11 keeps a reference to each text.
  std::deque<Whole> wholes;
  const auto add_whole = [&](const char* flags, const char* name, unsigned* target, unsigned min,
                             unsigned max, const char* help) {
    Whole& w = wholes.emplace_back(Whole{flags, name, target, min, max, {}});
    app.add_option(flags, w.text, help)->type_name("UINT");
  };
  add_whole("-w,--width", "-w/--width", &o.width, 1, kMaxDimension, "Width of raw .yuv input");
  add_whole("-h,--height", "-h/--height", &o.height, 1, kMaxDimension, "Height of raw .yuv input");
  app.add_option("-p,--pixel_format", o.pixel_format,
                 "Pixel format of raw input: 420, 422, 444 or 400");
  add_whole("-b,--bitdepth", "-b/--bitdepth", &o.bitdepth, 8, 16,
            "Bit depth of raw input: 8 to 16");
  app.add_option("-m,--model", o.models,
                 "Model: version=NAME or path=FILE, with :name=..., :disable_clip, "
                 ":enable_transform, :FEATURE.OPTION=VALUE (repeatable)");
  app.add_option("--feature", o.features,
                 "Feature extractor: NAME[=OPTION=VALUE:...] (repeatable)");
  app.add_option("-o,--output", o.output, "Output file");
  app.add_flag("--xml", xml, "Write XML output (default)");
  app.add_flag("--json", json, "Write JSON output");
  app.add_flag("--csv", csv, "Write CSV output");
  app.add_flag("--sub", sub, "Write SUB (subtitle) output");
  add_whole("--threads", "--threads", &o.threads, 0, kUnsignedMax,
            "Worker threads (frames in flight)");
  app.add_option("--backend", backend,
                 "Where to compute: auto (the GPU when one is present), cpu, cuda or hip")
      ->check(CLI::IsMember({"auto", "cpu", "cuda", "hip"}));
  add_whole("--gpu", "--gpu", &o.gpu, 0, kUnsignedMax, "Index of the GPU to use (default 0)");
  add_whole("--subsample", "--subsample", &o.subsample, 1, kUnsignedMax, "Score every N-th frame");
  add_whole("--frame_cnt", "--frame_cnt", &o.frame_cnt, 0, kUnsignedMax,
            "Score at most this many frames (0: all)");
  add_whole("--frame_skip_ref", "--frame_skip_ref", &o.frame_skip_ref, 0, kUnsignedMax,
            "Skip this many reference frames first");
  add_whole("--frame_skip_dist", "--frame_skip_dist", &o.frame_skip_dist, 0, kUnsignedMax,
            "Skip this many distorted frames first");
  std::string read_ahead = "auto";
  std::string read_threads = "auto";
  app.add_option("--read_ahead", read_ahead,
                 "Frames of each input read ahead of the scoring, each input on threads of its "
                 "own; 0: read in turn on the main thread; auto (default): 4 with a GPU, on the "
                 "CPU 1 when a core is free for each input besides --threads, else 0")
      ->type_name("UINT|auto");
  app.add_option("--read_threads", read_threads,
                 "Threads reading each Y4M or raw file, whole frames at their offsets (pipes: "
                 "1), at most --read_ahead; auto (default): more than 1 only for frames of 1 MiB "
                 "and more, one per two cores left besides the scoring, at most 4")
      ->type_name("UINT|auto");
  app.add_flag("--ignore_frame_rate", o.ignore_frame_rate,
               "Score reference and distorted of different frame rates, frame by frame");
  std::string scale_filter;
  app.add_flag("--scale", o.scale,
               "Scale a distorted video of another size to the reference's (libswscale, as "
               "FFmpeg's scale filter; same chroma format and bit depth)");
  app.add_option("--scale-filter,--scale_filter", scale_filter,
                 "The --scale filter, by FFmpeg's name: bicubic (default), bilinear, lanczos, "
                 "spline, neighbor, area, fast_bilinear, bicublin, gauss, sinc");
  std::vector<std::string> offsets;
  app.add_option("--dist-offset,--dist_offset", offsets,
                 "The reference frame the distorted video's first frame shows: N > 0 passes over "
                 "the reference's first N frames, N < 0 the distorted video's first -N; once for "
                 "all clips or once per -d")
      ->type_name("INT")
      ->allow_extra_args(false);
  app.add_flag("--sync", o.sync,
               "Find each distorted video's offset (as --dist-offset) within --sync-window "
               "frames: the one whose first frames have the highest luma PSNR; reported on "
               "stderr");
  std::string sync_window;
  app.add_option(
         "--sync-window,--sync_window", sync_window,
         "Offsets --sync tries: -N to N (default " + std::to_string(SyncSettings{}.window) + ")")
      ->type_name("UINT");
  app.add_option("--precision", precision, "Decimals in the output: 0..17, or max (round-trip)");
  app.add_flag("-q,--quiet", o.quiet, "No progress line and no score summary");
  app.add_flag("-n,--no_prediction", o.no_prediction, "Compute features only, no model");
  app.add_flag("-v,--version", o.show_version, "Print the version and exit");
  app.add_flag("--list-features", o.list_features,
               "Print every feature (its options with defaults and bounds, its outputs, and "
               "the backends of this build that compute it) and exit; JSON with --json");
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
  // A value given empty ("-o ''", "--precision ''") is a mistake, never "the
  // default": before, -o '' wrote nothing and exited 0.
  for (const CLI::Option* opt : app.get_options()) {
    if (opt->get_type_size() == 0) continue;  // a flag
    for (const std::string& value : opt->results()) {
      if (value.empty()) {
        return Error(Errc::kInvalidArgument, opt->get_name() + ": the value is empty");
      }
    }
  }
  for (const Whole& w : wholes) {
    if (w.text.empty()) continue;
    VQX_ASSIGN_OR_RETURN(*w.target, parse_whole(w.name, w.text, w.min, w.max));
  }
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
  VQX_ASSIGN_OR_RETURN(o.read_ahead, parse_auto("--read_ahead", read_ahead, 0, kMaxReadAhead));
  VQX_ASSIGN_OR_RETURN(o.read_threads,
                       parse_auto("--read_threads", read_threads, 1, kMaxReadThreads));
  if (o.list_features) {  // needs no input
    if (xml || csv || sub) {
      return Error(Errc::kInvalidArgument,
                   "--list-features prints text, or JSON with --json: no other format");
    }
    return o;
  }
  if (o.reference.empty()) return Error(Errc::kInvalidArgument, "--reference/-r is required");
  if (o.distorted.empty()) return Error(Errc::kInvalidArgument, "--distorted/-d is required");
  if (o.batch()) {
    for (const std::string& f : o.features) {
      if (f.find("heatmaps_path") != std::string::npos) {
        return Error(Errc::kInvalidArgument,
                     "--feature " + f +
                         ": heatmaps_path names one folder, which every distorted video of a "
                         "batch would write: score them one -d at a time");
      }
    }
  }
  if (!scale_filter.empty()) {
    if (!o.scale) return Error(Errc::kInvalidArgument, "--scale-filter needs --scale");
    auto f = parse_scale_filter(scale_filter);
    if (!f.ok()) return Error(Errc::kInvalidArgument, "--scale-filter: " + f.status().message());
    o.scale_filter = *f;
  }
  for (const std::string& text : offsets) {
    VQX_ASSIGN_OR_RETURN(const int v, parse_offset(text));
    o.dist_offsets.push_back(v);
  }
  if (o.dist_offsets.size() > 1 && o.dist_offsets.size() != o.distorted.size()) {
    return Error(Errc::kInvalidArgument,
                 "--dist-offset given " + std::to_string(o.dist_offsets.size()) + " times for " +
                     std::to_string(o.distorted.size()) +
                     " distorted videos: give it once (for all) or once per -d");
  }
  if (o.sync && !o.dist_offsets.empty()) {
    return Error(Errc::kInvalidArgument, "--sync and --dist-offset contradict each other");
  }
  if (!sync_window.empty()) {
    if (!o.sync) return Error(Errc::kInvalidArgument, "--sync-window needs --sync");
    VQX_ASSIGN_OR_RETURN(o.sync_settings.window,
                         parse_whole("--sync-window", sync_window, 0, kMaxSyncWindow));
  }
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
