// The one implementation of reading and skipping frames for the readers of
// packed planar video, Y4M and raw .yuv (src/io only): each frame is an
// optional header (Y4M's "FRAME ...\n") then a payload of the planes Y, U,
// V (and Y4M 444alpha's alpha plane, which is dropped), rows without
// padding, samples above 8 bits as 16-bit little-endian. A reader says only
// how its frame header is read.
//
// The payload is read straight into the picture's rows (one read for a
// plane whose rows are contiguous, else readv() of the rows), with no frame
// buffer and no copy; 9..15-bit samples are checked against the depth in
// place, a few hundred KiB at a time, while they are still in the cache.
#pragma once

#include <sys/uio.h>

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "io/reader_detail.hpp"
#include "vqx/picture.hpp"
#include "vqx/status.hpp"
#include "vqx/video_reader.hpp"

namespace vqx::io_detail {

class PackedFrameReader : public VideoReader {
 public:
  // `headerless`: frames have no header, so that the end of the stream
  // comes where a payload would start (raw); otherwise the header reader
  // finds the end and a payload that is missing is a truncated frame.
  PackedFrameReader(std::string path, InputFile file, const PictureFormat& fmt, VideoInfo info,
                    std::size_t payload_bytes, bool headerless);

  [[nodiscard]] const PictureFormat& format() const final { return fmt_; }
  [[nodiscard]] const VideoInfo& info() const final { return info_; }
  [[nodiscard]] const std::string& path() const final { return path_; }
  [[nodiscard]] std::uint64_t frames_read() const final { return frames_; }
  Expected<bool> read(Picture& pic) final;
  Status skip(unsigned frames) final;
  void interrupt() final { file_.interrupt(); }
  [[nodiscard]] bool interruptible() const final { return true; }
  void read_planes(unsigned planes) final { planes_read_ = planes; }

 protected:
  // Reads what comes before the next frame's payload: true when a frame
  // follows, false at a clean end of the stream.
  virtual Expected<bool> read_frame_header() = 0;
  // "<path>: frame <n>: <what>", n the frame being read.
  [[nodiscard]] Status frame_error(Errc code, const std::string& what) const;
  InputFile& file() { return file_; }
  [[nodiscard]] const InputFile& file() const { return file_; }
  [[nodiscard]] std::size_t payload_bytes() const { return payload_bytes_; }
  VideoInfo& mutable_info() { return info_; }

  // For a regular file: walks the frame headers from the current position
  // to the end, seeking past the payloads, and returns the number of
  // frames; the first framing fault (a header that is not one, a frame cut
  // short) is returned as read() would return it at that frame. The file is
  // left where it was.
  Expected<std::int64_t> walk_frames();

 private:
  [[nodiscard]] Status truncated(std::size_t got) const;
  // Plane p's rows from the file into `plane`: the bytes read (fewer than
  // the plane's at end of file or on an error). `acc` gathers the OR of
  // 9..15-bit samples.
  std::size_t read_plane(Plane& plane, unsigned p, std::uint32_t& acc);
  // Reads past n bytes of the file (a seek where a regular file holds them):
  // the bytes passed, fewer at end of file or on an error.
  Expected<std::size_t> pass_over(std::size_t n);
  // After a payload read or passed over short of `got` bytes: the error, or
  // false for the clean end of a headerless stream.
  Expected<bool> short_payload(std::size_t got) const;

  std::string path_;
  InputFile file_;
  PictureFormat fmt_;
  VideoInfo info_;
  std::size_t payload_bytes_;
  bool headerless_;
  std::vector<iovec> rows_;                  // one per row, for rows that are not contiguous
  std::unique_ptr<std::uint8_t[]> scratch_;  // for what is passed over on a pipe
  std::uint64_t frames_ = 0;
  unsigned planes_read_ = 0;  // read_planes(): 0 for every plane
};

}  // namespace vqx::io_detail
