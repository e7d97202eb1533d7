// A video brought to another size with FFmpeg's libswscale, as the CLI's
// --scale does for a distorted clip of another size than the reference (an
// encoding ladder's lower rungs). Implemented by src/io (scaled_reader.cpp).
//
//   auto dist = vqx::open_video("ladder_640x360.mp4", std::nullopt);
//   auto up = vqx::open_scaled(std::move(dist).value(), 1920, 1080, vqx::ScaleFilter::kBicubic);
//
// The scaled frames keep the video's chroma format and bit depth; only the
// size changes. They are the samples FFmpeg 5.1's scale filter gives for
// `-vf scale=W:H:flags=<filter>` on the same frames (docs/batch.md says
// which libswscale settings that takes, and why).
#pragma once

#include <memory>
#include <string_view>

#include "vqx/status.hpp"
#include "vqx/video_reader.hpp"

namespace vqx {

// libswscale's scalers, by FFmpeg's names (-vf scale=...:flags=NAME).
enum class ScaleFilter {
  kFastBilinear,
  kBilinear,
  kBicubic,  // the default: FFmpeg's and Netflix's for VMAF
  kNeighbor,
  kArea,
  kBicublin,
  kGauss,
  kSinc,
  kLanczos,
  kSpline,
};

// FFmpeg's name of the filter ("bicubic").
const char* to_string(ScaleFilter filter);
// The filter FFmpeg calls `name`, or an error listing the names.
Expected<ScaleFilter> parse_scale_filter(std::string_view name);

// `video`'s frames scaled to width x height. A video already of that size is
// returned as it is (no scaling, as FFmpeg's filter passes such frames
// through). Errors: a size out of bounds, a format libswscale has no
// planar format for (11, 13 and 15 bits), libswscale missing.
Expected<std::unique_ptr<VideoReader>> open_scaled(std::unique_ptr<VideoReader> video,
                                                   unsigned width, unsigned height,
                                                   ScaleFilter filter = ScaleFilter::kBicubic);

}  // namespace vqx
