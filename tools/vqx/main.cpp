// vqx: the command-line front end. It parses, reads, calls the library and
// writes; no metric logic lives here.
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cstdio>
#include <memory>
#include <string>
#include <thread>

#include "cli_options.hpp"
#include "feature_list.hpp"
#include "input_checks.hpp"
#include "progress.hpp"
#include "report_command.hpp"
#include "signals.hpp"
#include "standard_output.hpp"
#include "vqx/features.hpp"
#include "vqx/output_files.hpp"
#include "vqx/read_ahead.hpp"
#include "vqx/video_reader.hpp"
#include "vqx/vqx.hpp"

namespace {

int fail(const std::string& message) {
  std::fprintf(stderr, "vqx: %s\n", message.c_str());
  return 1;
}

int fail(const vqx::Status& s) { return fail(s.message()); }

// --read_ahead and --read_threads, `auto` as the read-ahead picks it for
// this machine and run; --read_threads N alone reads at least N ahead.
vqx::ReadAhead::Settings read_ahead_settings(const vqx::cli::CliOptions& o, const vqx::Context& ctx,
                                             const vqx::PictureFormat& format) {
  const vqx::ReadAhead::Load load{.cores = std::max(std::thread::hardware_concurrency(), 1U),
                                  .scoring_threads = o.threads,
                                  .gpu = ctx.device_description() != "cpu",
                                  .format = format,
                                  .planes_read = ctx.planes_read()};
  const unsigned depth =
      o.read_ahead.value_or(std::max(vqx::ReadAhead::auto_depth(load), o.read_threads.value_or(0)));
  return {.depth = depth,
          .readers = o.read_threads.value_or(vqx::ReadAhead::auto_readers(load, depth))};
}

// `files`: the run's files (the output, CAMBI's heatmaps), one result.
int run(const vqx::cli::CliOptions& o, const std::shared_ptr<vqx::OutputFiles>& files) {
  // They wait under temporary names until the run has succeeded, and
  // main() discards them on any failure (signals.hpp for the signals).
  files->hold();
  // An output that cannot be written is found now, with the reason, not
  // after the whole run.
  const bool report_on_stdout = vqx::cli::report_on_stdout(o.output);
  const bool scores_on_stdout = !o.quiet && !o.no_prediction && !report_on_stdout;
  if ((report_on_stdout || scores_on_stdout) && vqx::cli::stdout_closed()) {
    return fail("standard output is closed");
  }
  if (auto s = vqx::cli::check_output_is_not_an_input(o); !s.ok()) return fail(s);
  if (!o.output.empty()) {
    if (auto s = files->prepare(o.output); !s.ok()) return fail(s);
  }
  std::optional<vqx::RawVideoParams> raw;
  if (o.raw_input()) {
    auto chroma = vqx::parse_pixel_format(o.pixel_format);
    if (!chroma.ok()) return fail(chroma.status());
    raw = vqx::RawVideoParams{o.width, o.height, o.bitdepth, *chroma};
  }
  auto ref = vqx::open_video(o.reference, raw);
  if (!ref.ok()) return fail(ref.status());
  auto dist = vqx::open_video(o.distorted, raw);
  if (!dist.ok()) return fail(dist.status());
  if (auto s = vqx::cli::check_same_format(**ref, **dist); !s.ok()) return fail(s);
  if (auto s = vqx::cli::check_frame_rates(**ref, **dist, o); !s.ok()) return fail(s);
  if (auto s = vqx::cli::check_frame_counts(**ref, **dist, o); !s.ok()) return fail(s);

  auto created = vqx::Context::create({.threads = o.threads,
                                       .subsample = o.subsample,
                                       .backend = o.backend,
                                       .gpu = o.gpu,
                                       .output_files = files});
  if (!created.ok()) {
    // The library bounds the thread count; say which option it was.
    const std::string& m = created.status().message();
    if (m.rfind("threads ", 0) == 0) {
      return fail("--threads " + std::to_string(o.threads) + ": " + m);
    }
    return fail(created.status());
  }
  vqx::Context& ctx = **created;

  std::vector<std::string> models = o.models;
  if (models.empty() && !o.no_prediction) models.emplace_back("version=vmaf_v0.6.1:name=vmaf");
  for (const auto& m : models) {
    if (auto s = ctx.use_features_from_model(m); !s.ok())
      return fail("--model " + m + ": " + s.message());
  }
  for (const auto& f : o.features) {
    if (auto s = ctx.use_feature(f); !s.ok()) return fail("--feature " + f + ": " + s.message());
  }

  // Only the planes the features read are read: the luma alone for VMAF.
  (*ref)->read_planes(ctx.planes_read());
  (*dist)->read_planes(ctx.planes_read());
  if (auto s = (*ref)->skip(o.frame_skip_ref); !s.ok()) return fail(s);
  if (auto s = (*dist)->skip(o.frame_skip_dist); !s.ok()) return fail(s);

  const bool tty = ::isatty(STDERR_FILENO) != 0;
  vqx::cli::Progress progress(tty && !o.quiet,
                              o.frame_cnt ? std::optional<unsigned>(o.frame_cnt) : std::nullopt);
  // Both inputs are read ahead, each on threads of its own, into pictures
  // from the context's pool (which keeps those they hold for reuse); pairs,
  // ends and errors come out in frame order.
  const vqx::ReadAhead::Settings reading = read_ahead_settings(o, ctx, (*ref)->format());
  if (auto s = ctx.reserve_pictures(2 * reading.depth); !s.ok()) return fail(s);
  auto pairs = vqx::ReadAhead::start(
      **ref, **dist, reading, [&ctx](const vqx::PictureFormat& f) { return ctx.fetch_picture(f); });
  if (!pairs.ok()) return fail(pairs.status());
  unsigned n = 0;
  for (; o.frame_cnt == 0 || n < o.frame_cnt; ++n) {
    if (vqx::cli::stop_requested()) {
      return fail("interrupted after " + std::to_string(n) + " frames; no output written");
    }
    vqx::Picture rp;
    vqx::Picture dp;
    auto got = (*pairs)->next(rp, dp);
    if (!got.ok()) return fail(got.status());
    if (!*got) break;
    if (auto s = ctx.read_pictures(std::move(rp), std::move(dp), n); !s.ok()) return fail(s);
    progress.update(n + 1);
  }
  (*pairs)->stop();  // --frame_cnt reached: the readers stop before the flush
  if (n == 0) return fail(o.reference + ": no frames to score");
  if (auto s = ctx.flush(); !s.ok()) return fail(s);
  const double fps = progress.fps(n);
  progress.finish(n);
  if (vqx::cli::stop_requested()) return fail("interrupted; no output written");

  if (!o.output.empty()) {
    if (auto s = ctx.write_output(o.output, o.format, o.precision, fps); !s.ok()) return fail(s);
  }
  // The pooled scores, before the commit: a failure to print them is a
  // failure of the run (standard_output.hpp says where they go).
  if (!o.quiet) {
    std::string scores;
    for (const auto& name : ctx.model_names()) {
      auto score = ctx.pooled_score(name, vqx::PoolMethod::kMean);
      if (!score.ok()) continue;
      std::array<char, 64> value{};
      std::snprintf(value.data(), value.size(), "%f", *score);
      scores += name + ": " + value.data() + "\n";
    }
    if (report_on_stdout) {
      std::fputs(scores.c_str(), stderr);
    } else if (auto s = vqx::cli::write_stdout(scores); !s.ok()) {
      return fail(s);
    }
  }
  if (auto s = vqx::cli::commit_run(*files); !s.ok()) return fail(s);
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  vqx::cli::secure_standard_descriptors();
  // The run's files; the signal thread closes the set when a signal ends
  // the process.
  const auto files = std::make_shared<vqx::OutputFiles>();
  vqx::cli::start_signal_thread(files);
  // `vqx report ...`: the HTML report of earlier runs (report_command.hpp).
  if (argc > 1 && std::string(argv[1]) == "report") {
    try {
      return vqx::cli::run_report_command(argc - 1, argv + 1, files);
    } catch (const std::exception& e) {
      files->discard();
      return fail(std::string("report: internal error: ") + e.what());
    }
  }
  auto parsed = vqx::cli::parse_cli(argc, argv);
  if (!parsed.ok()) return fail(parsed.status());
  if (parsed->show_help) {
    auto s = vqx::cli::write_stdout(parsed->help_text);
    return s.ok() ? 0 : fail(s);
  }
  if (parsed->list_features) {
    const auto features = vqx::list_features();
    auto s = vqx::cli::write_stdout(parsed->format == vqx::OutputFormat::kJson
                                        ? vqx::cli::features_json(features)
                                        : vqx::cli::features_text(features));
    return s.ok() ? 0 : fail(s);
  }
  if (parsed->show_version) {
    auto s = vqx::cli::write_stdout(std::string("vqx ") + vqx::version() + "\n");
    return s.ok() ? 0 : fail(s);
  }
  int rc = 1;
  try {
    rc = run(*parsed, files);
  } catch (const std::exception& e) {
    rc = fail(std::string("internal error: ") + e.what());
  }
  if (rc != 0) files->discard();  // no file of a failed run is left
  return rc;
}
