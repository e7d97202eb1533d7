#include "run_setup.hpp"

#include <sys/stat.h>

#include <algorithm>
#include <array>
#include <cstdio>

#include "standard_output.hpp"
#include "vqx/run_checks.hpp"
#include "vqx/scaled_video.hpp"

namespace vqx::cli {

int fail(const std::string& message) { return report_error("vqx", message); }

int fail(const Status& s) { return fail(s.message()); }

Expected<std::optional<RawVideoParams>> raw_params(const CliOptions& o) {
  if (!o.raw_input()) return std::optional<RawVideoParams>();
  VQX_ASSIGN_OR_RETURN(const ChromaFormat chroma, parse_pixel_format(o.pixel_format));
  return std::optional<RawVideoParams>(RawVideoParams{o.width, o.height, o.bitdepth, chroma});
}

Expected<std::unique_ptr<Context>> create_context(const CliOptions& o,
                                                  const std::shared_ptr<OutputFiles>& files) {
  std::vector<std::string> models = o.models;
  if (models.empty() && !o.no_prediction) models.emplace_back(kDefaultModel);
  RunCheckNames names;
  names.model = "--model";
  names.feature = "--feature";
  auto created = vqx::create_context({.threads = o.threads,
                                      .subsample = o.subsample,
                                      .backend = o.backend,
                                      .gpu = o.gpu,
                                      .output_files = files},
                                     models, o.features, names);
  // The library bounds the thread count; say which option it was.
  if (!created.ok() && created.status().message().rfind("threads ", 0) == 0) {
    return Error(created.status().code(),
                 "--threads " + std::to_string(o.threads) + ": " + created.status().message());
  }
  return created;
}

ReadAhead::Settings read_ahead_settings(const CliOptions& o, const Context& ctx,
                                        const PictureFormat& format) {
  return vqx::read_ahead_settings(
      ctx, format,
      {.scoring_threads = o.threads, .depth = o.read_ahead, .readers = o.read_threads});
}

Expected<std::unique_ptr<VideoReader>> open_distorted(const CliOptions& o, const std::string& path,
                                                      const std::optional<RawVideoParams>& raw,
                                                      const PictureFormat& reference) {
  VQX_ASSIGN_OR_RETURN(std::unique_ptr<VideoReader> dist, open_video(path, raw));
  if (!o.scale) return dist;
  return open_scaled(std::move(dist), reference.width, reference.height, o.scale_filter);
}

namespace {

// --sync reads a video twice (once to find the offset, once to score).
Status readable_twice(const std::string& path) {
  struct stat st {};
  if (::stat(path.c_str(), &st) == 0 && S_ISREG(st.st_mode)) return Status::Ok();
  return Error(Errc::kInvalidArgument,
               path + ": --sync reads the video twice: give a file, not a pipe or a device");
}

}  // namespace

Expected<LumaFrames> sync_reference_frames(const CliOptions& o,
                                           const std::optional<RawVideoParams>& raw) {
  VQX_RETURN_IF_ERROR(readable_twice(o.reference));
  VQX_ASSIGN_OR_RETURN(std::unique_ptr<VideoReader> ref, open_video(o.reference, raw));
  VQX_RETURN_IF_ERROR(ref->skip(o.frame_skip_ref));
  return read_luma_frames(*ref, o.sync_settings.frames_needed());
}

namespace {

std::string describe_sync(const CliOptions& o, const std::string& path, const SyncResult& r) {
  std::array<char, 32> psnr{};
  std::snprintf(psnr.data(), psnr.size(), "%.2f", r.psnr);
  std::string text = path + ": --sync: offset " + std::to_string(r.offset) + " (luma PSNR " +
                     psnr.data() + " dB over " + std::to_string(r.pairs) + " pairs";
  const int window = static_cast<int>(o.sync_settings.window);
  if (r.first_compared != -window || r.last_compared != window) {
    text += "; offsets " + std::to_string(r.first_compared) + " to " +
            std::to_string(r.last_compared) + " compared, the clips are too short for the others";
  }
  return text + ")";
}

}  // namespace

Expected<int> sync_clip(const CliOptions& o, const LumaFrames& reference, const std::string& path,
                        const std::optional<RawVideoParams>& raw,
                        const PictureFormat& reference_format) {
  VQX_RETURN_IF_ERROR(readable_twice(path));
  VQX_ASSIGN_OR_RETURN(std::unique_ptr<VideoReader> dist,
                       open_distorted(o, path, raw, reference_format));
  VQX_RETURN_IF_ERROR(dist->skip(o.frame_skip_dist));
  VQX_ASSIGN_OR_RETURN(const SyncResult found, find_offset(reference, *dist, o.sync_settings));
  if (!o.quiet) std::fprintf(stderr, "vqx: %s\n", describe_sync(o, path, found).c_str());
  return found.offset;
}

}  // namespace vqx::cli
