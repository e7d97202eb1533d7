// vqx: the command-line front end. It parses, reads, calls the library and
// writes; no metric logic lives here.
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cstdio>
#include <memory>
#include <string>

#include "batch_run.hpp"
#include "cli_options.hpp"
#include "feature_list.hpp"
#include "input_checks.hpp"
#include "progress.hpp"
#include "report_command.hpp"
#include "run_setup.hpp"
#include "signals.hpp"
#include "standard_output.hpp"
#include "vqx/features.hpp"
#include "vqx/output_files.hpp"
#include "vqx/read_ahead.hpp"
#include "vqx/video_reader.hpp"
#include "vqx/vqx.hpp"

namespace {

using vqx::cli::fail;

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
  auto raw = vqx::cli::raw_params(o);
  if (!raw.ok()) return fail(raw.status());
  const std::string& dist_path = o.distorted.front();
  auto ref = vqx::open_video(o.reference, *raw);
  if (!ref.ok()) return fail(ref.status());
  auto dist = vqx::cli::open_distorted(o, dist_path, *raw, (*ref)->format());
  if (!dist.ok()) return fail(dist.status());
  if (auto s = vqx::cli::check_same_format(**ref, **dist); !s.ok()) return fail(s);
  if (auto s = vqx::cli::check_frame_rates(**ref, **dist, o); !s.ok()) return fail(s);
  // The reference frame the distorted video's first frame shows: given, or
  // found by --sync on readers of their own (these two stay unread).
  int offset = o.dist_offset(0);
  if (o.sync) {
    auto found = vqx::cli::sync_reference_frames(o, *raw);
    if (!found.ok()) return fail(found.status());
    auto synced = vqx::cli::sync_clip(o, *found, dist_path, *raw, (*ref)->format());
    if (!synced.ok()) return fail(synced.status());
    offset = *synced;
  }
  if (auto s = vqx::cli::check_frame_counts(**ref, **dist, o, offset); !s.ok()) return fail(s);

  auto created = vqx::cli::create_context(o, files);
  if (!created.ok()) return fail(created.status());
  vqx::Context& ctx = **created;

  // Only the planes the features read are read: the luma alone for VMAF.
  (*ref)->read_planes(ctx.planes_read());
  (*dist)->read_planes(ctx.planes_read());
  const vqx::OffsetSkips shift = vqx::offset_skips(offset);
  if (auto s = (*ref)->skip(o.frame_skip_ref + shift.ref); !s.ok()) return fail(s);
  if (auto s = (*dist)->skip(o.frame_skip_dist + shift.dist); !s.ok()) return fail(s);

  const bool tty = ::isatty(STDERR_FILENO) != 0;
  vqx::cli::Progress progress(tty && !o.quiet,
                              o.frame_cnt ? std::optional<unsigned>(o.frame_cnt) : std::nullopt);
  // Both inputs are read ahead, each on threads of its own, into pictures
  // from the context's pool (which keeps those they hold for reuse); pairs,
  // ends and errors come out in frame order.
  const vqx::ReadAhead::Settings reading = vqx::cli::read_ahead_settings(o, ctx, (*ref)->format());
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
    rc = parsed->batch() ? vqx::cli::run_batch(*parsed, files) : run(*parsed, files);
  } catch (const std::exception& e) {
    rc = fail(std::string("internal error: ") + e.what());
  }
  if (rc != 0) files->discard();  // no file of a failed run is left
  return rc;
}
