// The vqx command line: the reference `vmaf` tool's flags, plus VQX's own.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "vqx/alignment.hpp"
#include "vqx/scaled_video.hpp"
#include "vqx/status.hpp"
#include "vqx/vqx.hpp"

namespace vqx::cli {

struct CliOptions {
  std::string reference;
  // One distorted clip (the reference tool's run), or several: a batch
  // against the one reference (docs/batch.md).
  std::vector<std::string> distorted;
  unsigned width = 0;
  unsigned height = 0;
  std::string pixel_format;
  unsigned bitdepth = 0;
  std::vector<std::string> models;
  std::vector<std::string> features;
  std::string output;
  OutputFormat format = OutputFormat::kXml;
  unsigned threads = 0;
  unsigned subsample = 1;
  Backend backend = Backend::kAuto;
  unsigned gpu = 0;
  unsigned frame_cnt = 0;  // 0: all
  unsigned frame_skip_ref = 0;
  unsigned frame_skip_dist = 0;
  // Frames of each input read ahead on threads of its own
  // (vqx/read_ahead.hpp; 0: read in turn on the main thread), and the
  // threads reading each input; empty: auto (ReadAhead::auto_depth,
  // ReadAhead::auto_readers).
  std::optional<unsigned> read_ahead;
  std::optional<unsigned> read_threads;
  bool quiet = false;
  bool no_prediction = false;
  bool ignore_frame_rate = false;
  // --scale: a distorted clip of another size is scaled to the reference's
  // (libswscale, vqx/scaled_video.hpp) with this filter.
  bool scale = false;
  ScaleFilter scale_filter = ScaleFilter::kBicubic;
  // --dist-offset: the reference frame each distorted clip's first frame
  // shows (vqx/alignment.hpp); one for all clips or one per clip; empty: 0.
  std::vector<int> dist_offsets;
  // --sync: find each clip's offset within +-sync_window frames.
  bool sync = false;
  SyncSettings sync_settings;
  int precision = kPrecisionDefault;
  bool show_version = false;
  // Print every feature of this build (options, outputs, backends) and exit:
  // text, or JSON with --json.
  bool list_features = false;
  bool show_help = false;
  std::string help_text;

  [[nodiscard]] bool batch() const { return distorted.size() > 1; }
  // The --dist-offset of clip `i` (0 when none was given).
  [[nodiscard]] int dist_offset(std::size_t i) const {
    if (dist_offsets.empty()) return 0;
    return dist_offsets.size() == 1 ? dist_offsets[0] : dist_offsets[i];
  }
  [[nodiscard]] bool raw_input() const {
    return width != 0 || height != 0 || !pixel_format.empty() || bitdepth != 0;
  }
};

// Parses argv. Errors are one line naming the option and the problem.
Expected<CliOptions> parse_cli(int argc, const char* const* argv);

}  // namespace vqx::cli
