// Video input: Y4M, raw planar YUV and (when built with FFmpeg) anything
// libavformat/libavcodec read, delivered as VQX Pictures in the file's own
// planar format (no scaling, no conversion of bit depth or chroma).
// Implemented by src/io; the CLI reads its inputs through this header.
//
//   auto reader = vqx::open_video("ref.y4m", std::nullopt);
//   vqx::Picture pic;  // reallocated to reader.value()->format() on the first read
//   while (reader.value()->read(pic).value()) { ... }
//
// Errors are one-line Status messages that start with the file's path, e.g.
//   "ref.y4m: frame 3 is truncated (got 1234 of 155520 bytes)".
// Frame numbers in messages count from 0, like libvmaf's frameNum.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "vqx/picture.hpp"
#include "vqx/status.hpp"

namespace vqx {

// What the CLI's -w -h -p -b describe for a headerless .yuv file.
struct RawVideoParams {
  unsigned width = 0, height = 0;
  unsigned bpc = 8;
  ChromaFormat chroma = ChromaFormat::k420;
};

enum class ColorRange { kUnknown, kLimited, kFull };
const char* to_string(ColorRange r);

// Facts about a stream besides its PictureFormat. VQX's scores do not depend
// on any of these; they are kept for reporting and for warnings.
struct VideoInfo {
  std::string container;  // "y4m", "raw" or the libavformat demuxer ("matroska,webm")
  std::string codec;      // "rawvideo" for y4m/raw, else the libavcodec decoder ("ffv1")
  unsigned fps_num = 0, fps_den = 0;  // 0/0 when unknown
  unsigned sar_num = 0, sar_den = 0;  // pixel aspect ratio, 0/0 when unknown
  // Scan type: 'p' progressive, 't' top field first, 'b' bottom field first,
  // 'm' mixed (per frame), '?' unknown. Interlaced frames are read as frames.
  char interlace = '?';
  ColorRange range = ColorRange::kUnknown;  // Y4M XCOLORRANGE, or libav's color_range
  std::string y4m_colorspace;               // the Y4M C tag as written ("420jpeg"); empty otherwise
  std::vector<std::string> y4m_extensions;  // Y4M X tags without the 'X' ("COLORRANGE=LIMITED")
  bool has_alpha = false;                   // an alpha plane is present in the file and dropped
  std::int64_t frame_count = -1;            // frames in the file when known up front, else -1
};

class VideoReader {
 public:
  virtual ~VideoReader() = default;
  VideoReader() = default;
  VideoReader(const VideoReader&) = delete;
  VideoReader& operator=(const VideoReader&) = delete;

  [[nodiscard]] virtual const PictureFormat& format() const = 0;
  [[nodiscard]] virtual const VideoInfo& info() const = 0;
  // Reads the next frame into `pic`. `pic` should have format() (allocate it
  // once with Picture::make(format()) and reuse it); a Picture of any other
  // format, a default-constructed one included, is reallocated first.
  // Returns true on a frame, false at a clean end of stream, or an error
  // (truncated frame, decode error, ...) whose message names the file.
  virtual Expected<bool> read(Picture& pic) = 0;
  // Later reads fill only the first `planes` planes of each picture (1: the
  // luma alone, when nothing reads the chroma: Context::planes_read()),
  // passing over the others in the file; the planes not read keep what
  // they held, and the picture is marked as holding its luma alone, so
  // that a context which reads chroma refuses it. 0 or 3 and more: every
  // plane (the default). Readers that cannot leave planes out (libav's
  // decoders write every plane) read them all, which is always correct.
  virtual void read_planes(unsigned /*planes*/) {}
  // Skips `frames` frames. Running out of frames before that is an error.
  // The base version reads into a scratch Picture.
  virtual Status skip(unsigned frames);
  [[nodiscard]] virtual const std::string& path() const = 0;
  // Frames delivered (or skipped) so far.
  [[nodiscard]] virtual std::uint64_t frames_read() const = 0;
  // Callable from any thread, while another is in read() or skip(): a read
  // that waits for data which may never come (from a pipe, a FIFO, a
  // terminal) returns an error at once, and so does every later one. This
  // is how a thread reading ahead is stopped (vqx/read_ahead.hpp); the
  // reader is of no further use. Reads of regular files always end, and
  // the base version does nothing.
  virtual void interrupt() {}
  // True when a thread reading ahead can always be stopped: interrupt()
  // ends any read that waits, or the reads can never wait (a regular
  // file's). ReadAhead reads in turn on the caller's thread, with no
  // thread of its own, when either video says false. The base: false.
  [[nodiscard]] virtual bool interruptible() const { return false; }
};

// Chooses the reader:
//  * Y4M when the file starts with "YUV4MPEG2" (any extension), or when its
//    extension is .y4m (so a damaged .y4m gets a Y4M error, not a libav one);
//    `raw`, if given, is ignored since the header describes the frames;
//  * raw planar YUV when `raw` is given (any extension);
//  * a .yuv file without `raw` is an error asking for -w -h -p -b;
//  * anything else goes to libav (an error when VQX is built without it).
Expected<std::unique_ptr<VideoReader>> open_video(const std::string& path,
                                                  const std::optional<RawVideoParams>& raw);

Expected<std::unique_ptr<VideoReader>> open_y4m(const std::string& path);
Expected<std::unique_ptr<VideoReader>> open_raw(const std::string& path,
                                                const RawVideoParams& params);
// Errc::kUnsupported when VQX is built without libav.
Expected<std::unique_ptr<VideoReader>> open_libav(const std::string& path);
// True when this build can read through libavformat/libavcodec.
bool libav_available();

// Frame rates. A rate is known when fps_num and fps_den are both non-zero
// (Y4M's F tag, a libav stream's rate; raw files have none). Two known
// rates are the same when they differ by less than 1 part in 10^4: the
// same rate stored through different time bases (30000/1001 and 2997/100)
// counts as one, 29.97 and 30 do not.
bool frame_rate_known(const VideoInfo& info);
bool same_frame_rate(const VideoInfo& a, const VideoInfo& b);
// "25 fps", "30000/1001 fps (29.97)", or "an unknown rate".
std::string describe_frame_rate(const VideoInfo& info);

// libvmaf CLI pixel format strings: "420", "422", "444" (what libvmaf's -p
// accepts) and "400" (monochrome, a VQX extension).
Expected<ChromaFormat> parse_pixel_format(std::string_view text);

}  // namespace vqx
