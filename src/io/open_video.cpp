// open_video(): picks the reader for a file; VideoReader's default skip().
#include <algorithm>
#include <array>
#include <cctype>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <string>

#include "io/reader_detail.hpp"

namespace vqx {

const char* to_string(ColorRange r) {
  switch (r) {
    case ColorRange::kUnknown:
      return "unknown";
    case ColorRange::kLimited:
      return "limited";
    case ColorRange::kFull:
      return "full";
  }
  return "?";
}

bool frame_rate_known(const VideoInfo& info) { return info.fps_num != 0 && info.fps_den != 0; }

bool same_frame_rate(const VideoInfo& a, const VideoInfo& b) {
  if (!frame_rate_known(a) || !frame_rate_known(b)) return false;
  // num_a / den_a vs num_b / den_b, cross-multiplied in 64 bits (exact for
  // 32-bit parts), then relative to the larger side.
  const auto lhs = static_cast<double>(std::uint64_t{a.fps_num} * b.fps_den);
  const auto rhs = static_cast<double>(std::uint64_t{b.fps_num} * a.fps_den);
  return std::abs(lhs - rhs) < 1e-4 * std::max(lhs, rhs);
}

std::string describe_frame_rate(const VideoInfo& info) {
  if (!frame_rate_known(info)) return "an unknown rate";
  if (info.fps_num % info.fps_den == 0) return std::to_string(info.fps_num / info.fps_den) + " fps";
  std::array<char, 32> decimal{};
  std::snprintf(decimal.data(), decimal.size(), "%.3f",
                static_cast<double>(info.fps_num) / info.fps_den);
  std::string d = decimal.data();
  while (d.back() == '0') d.pop_back();
  if (d.back() == '.') d.pop_back();
  return std::to_string(info.fps_num) + "/" + std::to_string(info.fps_den) + " fps (" + d + ")";
}

Status VideoReader::skip(unsigned frames) {
  Picture scratch;
  for (unsigned i = 0; i < frames; ++i) {
    VQX_ASSIGN_OR_RETURN(const bool got, read(scratch));
    if (!got) {
      return Error(Errc::kInvalidArgument, path() + ": cannot skip " + std::to_string(frames) +
                                               " frames: the file has only " +
                                               std::to_string(frames_read()));
    }
  }
  return Status::Ok();
}

#if !(defined(VQX_WITH_LIBAV) && VQX_WITH_LIBAV)
bool libav_available() { return false; }

Expected<std::unique_ptr<VideoReader>> open_libav(const std::string& path) {
  return Error(Errc::kUnsupported,
               path +
                   ": not a Y4M file, and this VQX was built without FFmpeg (libav) support: "
                   "give a .y4m file, or a raw .yuv file with -w -h -p -b");
}
#endif

namespace {

std::string lower_extension(const std::string& path) {
  std::string ext = std::filesystem::path(path).extension().string();
  std::transform(ext.begin(), ext.end(), ext.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return ext;
}

}  // namespace

Expected<std::unique_ptr<VideoReader>> open_video(const std::string& path,
                                                  const std::optional<RawVideoParams>& raw) {
  // Opening first gives every kind of input the same "cannot open" error.
  // The Y4M and raw readers take the file as opened here, with the magic
  // bytes only peeked at: a pipe (vqx -r <(ffmpeg ... -f yuv4mpegpipe -))
  // cannot be opened twice.
  VQX_ASSIGN_OR_RETURN(io_detail::InputFile file, io_detail::InputFile::open(path));
  const bool is_y4m = file.peek(9) == "YUV4MPEG2";
  if (file.error()) return file.read_error(path);
  const std::string ext = lower_extension(path);
  if (is_y4m || ext == ".y4m") return open_y4m_file(path, std::move(file));
  if (raw) return open_raw_file(path, *raw, std::move(file));
  if (file.size() < 0) {
    // libav opens the file itself, and would miss the bytes peeked at.
    return Error(Errc::kUnsupported,
                 path +
                     ": not a regular file (a pipe?) and not Y4M: from a pipe VQX reads Y4M, or "
                     "raw video with -w -h -p -b; give other formats as files");
  }
  if (ext == ".yuv") {
    return Error(Errc::kInvalidArgument,
                 path +
                     ": a raw .yuv file needs its width, height, pixel format and bit depth "
                     "(-w -h -p -b)");
  }
  return open_libav(path);
}

}  // namespace vqx
