#include "batch_run.hpp"

#include <unistd.h>

#include <algorithm>
#include <array>
#include <cstdio>
#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "input_checks.hpp"
#include "progress.hpp"
#include "run_setup.hpp"
#include "signals.hpp"
#include "standard_output.hpp"
#include "vqx/batch.hpp"

namespace vqx::cli {

namespace {

namespace fs = std::filesystem;

const char* extension(OutputFormat f) {
  switch (f) {
    case OutputFormat::kXml:
      return ".xml";
    case OutputFormat::kJson:
      return ".json";
    case OutputFormat::kCsv:
      return ".csv";
    case OutputFormat::kSub:
      return ".sub";
  }
  return ".xml";
}

// A clip's name in output paths: its file name without the extension.
std::string clip_name(const std::string& path) { return fs::path(path).stem().string(); }

// Each clip's output path: -o with {name} replaced, or DIR/<name>.<format>
// for a folder (a path ending in '/' or an existing folder). Empty strings
// when there is no -o.
Expected<std::vector<std::string>> output_paths(const CliOptions& o) {
  std::vector<std::string> paths(o.distorted.size());
  if (o.output.empty()) return paths;
  if (report_on_stdout(o.output)) {
    return Error(Errc::kInvalidArgument, "-o " + o.output +
                                             ": several -d write one report each: give a folder "
                                             "(-o DIR/) or a pattern with {name}");
  }
  const bool pattern = o.output.find("{name}") != std::string::npos;
  std::error_code ec;
  const bool folder = !pattern && (o.output.back() == '/' || fs::is_directory(o.output, ec));
  if (!pattern && !folder) {
    return Error(Errc::kInvalidArgument,
                 "-o " + o.output +
                     ": several -d write one report each: give a folder (-o DIR/) or a pattern "
                     "with {name} (-o 'out/{name}.json')");
  }
  std::map<std::string, std::string> taken;  // output path -> clip
  for (std::size_t i = 0; i < paths.size(); ++i) {
    const std::string name = clip_name(o.distorted[i]);
    std::string p;
    if (pattern) {
      p = o.output;
      for (std::size_t at = p.find("{name}"); at != std::string::npos; at = p.find("{name}", at)) {
        p.replace(at, 6, name);
        at += name.size();
      }
    } else {
      p = (fs::path(o.output) / (name + extension(o.format))).string();
    }
    if (auto [it, fresh] = taken.emplace(p, o.distorted[i]); !fresh) {
      return Error(Errc::kInvalidArgument, "-d " + it->second + " and -d " + o.distorted[i] +
                                               " would both write " + p +
                                               " (the same {name}: " + name + ")");
    }
    paths[i] = p;
  }
  return paths;
}

struct Clip {
  std::string path;
  std::string output;
  std::unique_ptr<VideoReader> reader;
  std::unique_ptr<Context> context;
  std::optional<int> synced;  // --sync's offset
  Status status;              // a failure before or during the run
};

// Opens clip `i`, checks it against the reference, finds its offset and
// positions it. A failure is the clip's own.
Status prepare_clip(const CliOptions& o, std::size_t i, Clip& c, const VideoReader& ref,
                    const std::optional<RawVideoParams>& raw, const LumaFrames& sync_frames,
                    const Context& model_of, BatchClip& batch) {
  VQX_ASSIGN_OR_RETURN(c.reader, open_distorted(o, c.path, raw, ref.format()));
  VQX_RETURN_IF_ERROR(check_same_format(ref, *c.reader));
  VQX_RETURN_IF_ERROR(check_frame_rates(ref, *c.reader, o));
  int offset = o.dist_offset(i);
  if (o.sync) {
    VQX_ASSIGN_OR_RETURN(offset, sync_clip(o, sync_frames, c.path, raw, ref.format()));
    c.synced = offset;
  }
  VQX_RETURN_IF_ERROR(check_frame_counts(ref, *c.reader, o, offset));
  c.reader->read_planes(model_of.planes_read());
  const OffsetSkips shift = offset_skips(offset);
  VQX_RETURN_IF_ERROR(c.reader->skip(o.frame_skip_dist + shift.dist));
  batch.dist = c.reader.get();
  batch.context = c.context.get();
  batch.ref_offset = shift.ref;
  return Status::Ok();
}

std::string format_score(double v) {
  std::array<char, 64> text{};
  std::snprintf(text.data(), text.size(), "%f", v);
  return text.data();
}

// The summary: one row per clip (its path, frames, each model's pooled
// mean, as the one-clip run prints it), columns aligned.
std::string summary_table(const CliOptions& o, const std::vector<Clip>& clips,
                          const std::vector<BatchClip>& batch) {
  std::vector<std::string> models;
  for (const Clip& c : clips) {
    if (c.context) {
      models = c.context->model_names();
      break;
    }
  }
  std::vector<std::vector<std::string>> rows;
  std::vector<std::string> head = {"clip", "frames"};
  if (o.sync) head.emplace_back("offset");
  head.insert(head.end(), models.begin(), models.end());
  rows.push_back(head);
  for (std::size_t i = 0; i < clips.size(); ++i) {
    const Clip& c = clips[i];
    std::vector<std::string> row = {c.path};
    const bool ok = c.status.ok();
    row.push_back(ok ? std::to_string(batch[i].frames) : "-");
    if (o.sync) row.push_back(c.synced ? std::to_string(*c.synced) : "-");
    for (const std::string& m : models) {
      if (!ok) {
        row.emplace_back("failed");
        continue;
      }
      auto score = c.context->pooled_score(m, PoolMethod::kMean);
      row.push_back(score.ok() ? format_score(*score) : "-");
    }
    rows.push_back(row);
  }
  std::vector<std::size_t> width(head.size(), 0);
  for (const auto& r : rows) {
    for (std::size_t k = 0; k < r.size(); ++k) width[k] = std::max(width[k], r[k].size());
  }
  std::string text;
  for (const auto& r : rows) {
    for (std::size_t k = 0; k < r.size(); ++k) {
      text += r[k];
      if (k + 1 < r.size()) text += std::string(width[k] - r[k].size() + 2, ' ');
    }
    text += "\n";
  }
  return text;
}

}  // namespace

int run_batch(const CliOptions& o, const std::shared_ptr<OutputFiles>& files) {
  files->hold();
  if (!o.quiet && stdout_closed()) return fail("standard output is closed");
  auto outputs = output_paths(o);
  if (!outputs.ok()) return fail(outputs.status());
  // Every output is checked (and its temporary made) before any frame.
  for (const std::string& p : *outputs) {
    if (p.empty()) continue;
    if (auto s = check_output_is_not_an_input(p, o); !s.ok()) return fail(s);
    if (auto s = files->prepare(p); !s.ok()) return fail(s);
  }
  auto raw = raw_params(o);
  if (!raw.ok()) return fail(raw.status());
  auto ref = open_video(o.reference, *raw);
  if (!ref.ok()) return fail(ref.status());
  LumaFrames sync_frames;
  if (o.sync) {
    auto frames = sync_reference_frames(o, *raw);
    if (!frames.ok()) return fail(frames.status());
    sync_frames = std::move(*frames);
  }

  std::vector<Clip> clips(o.distorted.size());
  std::vector<BatchClip> batch;
  std::vector<std::size_t> scored;  // clips[scored[k]] is batch[k]
  for (std::size_t i = 0; i < clips.size(); ++i) {
    Clip& c = clips[i];
    c.path = o.distorted[i];
    c.output = (*outputs)[i];
    // A context per clip; its models and features are the run's, so that
    // an error there is the run's, not the clip's.
    auto created = create_context(o, files);
    if (!created.ok()) return fail(created.status());
    c.context = std::move(*created);
    BatchClip b;
    c.status = prepare_clip(o, i, c, **ref, *raw, sync_frames, *c.context, b);
    if (!c.status.ok()) {
      fail(c.status);
      continue;
    }
    batch.push_back(b);
    scored.push_back(i);
  }

  // The progress counts reference frames, those a positive offset passes
  // over included: the total is --frame_cnt past the largest offset.
  unsigned largest_offset = 0;
  for (const BatchClip& b : batch) largest_offset = std::max(largest_offset, b.ref_offset);
  const bool tty = ::isatty(STDERR_FILENO) != 0;
  Progress progress(tty && !o.quiet, o.frame_cnt
                                         ? std::optional<unsigned>(o.frame_cnt + largest_offset)
                                         : std::nullopt);
  unsigned ref_frames = 0;
  if (!batch.empty()) {
    Context& first = *batch.front().context;
    (*ref)->read_planes(first.planes_read());
    if (auto s = (*ref)->skip(o.frame_skip_ref); !s.ok()) return fail(s);
    const unsigned depth = read_ahead_settings(o, first, (*ref)->format()).depth;
    for (const BatchClip& b : batch) {
      if (auto s = b.context->reserve_pictures(2 * depth); !s.ok()) return fail(s);
    }
    const Status run = score_batch(
        **ref, batch, {.frame_cnt = o.frame_cnt, .depth = depth, .on_frame = [&](unsigned n) {
                         ref_frames = n;
                         progress.update(n);
                         return !stop_requested();
                       }});
    if (stop_requested()) {
      return fail("interrupted after " + std::to_string(ref_frames) + " frames; no output written");
    }
    if (!run.ok()) return fail(run);  // the reference's error ends every clip
  }
  const double fps = progress.fps(ref_frames);
  progress.finish(ref_frames);

  unsigned failed = 0;
  for (std::size_t k = 0; k < batch.size(); ++k) {
    Clip& c = clips[scored[k]];
    c.status = batch[k].status;
    if (c.status.ok() && !c.output.empty()) {
      c.status = c.context->write_output(c.output, o.format, o.precision, fps);
    }
    if (!c.status.ok()) fail(c.status);
  }
  for (const Clip& c : clips) failed += c.status.ok() ? 0 : 1;
  if (!o.quiet) {
    std::vector<BatchClip> rows(clips.size());
    for (std::size_t k = 0; k < batch.size(); ++k) rows[scored[k]] = batch[k];
    if (auto s = write_stdout(summary_table(o, clips, rows)); !s.ok()) return fail(s);
  }
  if (auto s = commit_run(*files); !s.ok()) return fail(s);
  if (failed != 0) {
    return fail(std::to_string(failed) + " of " + std::to_string(clips.size()) +
                " distorted videos failed (named above); the others' outputs are written");
  }
  return 0;
}

}  // namespace vqx::cli
