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
//
// Frames at fixed offsets: in a regular file whose frames all take the same
// bytes (raw; Y4M whose frame headers are a bare "FRAME\n"), frame n starts
// at a known offset, so that several threads can read frames at once with
// positioned reads (read_fixed(), for the read-ahead's offset lanes:
// read_lane.hpp). Those reads only ever read what read() would read there;
// anything else (the end of the file, another header, an error) they leave
// to read(), which says what it is with its own message.
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

  // Frames from the next one read() would read that sit at fixed offsets
  // (see the top of this file) within the file as it was opened: those
  // read_fixed() may read. 0 for a pipe and for other files.
  [[nodiscard]] std::uint64_t fixed_frames_left() const;
  // Frame frames_read() + k, read at its offset into `pic` as read() would
  // read it there, without using or moving the file's position (positioned
  // reads): callable from several threads at once while nothing else uses
  // the reader. True when the frame was read; false when read() is to say
  // what is there (the end of the file, a header that is not a bare
  // "FRAME\n", a read cut short, a read error, a sample above the depth):
  // the caller then moves past the frames before it (skip_fixed()) and
  // goes on with read().
  bool read_fixed(std::uint64_t k, Picture& pic) const;
  // Moves past k frames that read_fixed() read: a seek.
  Status skip_fixed(std::uint64_t k);

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

  // Frames of a regular file sit at fixed offsets: frame n's header (of
  // `header_bytes`, 0 for raw) at first + n * (header_bytes + payload).
  void set_fixed_frames(std::int64_t first, std::size_t header_bytes);

  // For a regular file: walks the frame headers from the current position
  // to the end, seeking past the payloads, and returns the number of
  // frames; the first framing fault (a header that is not one, a frame cut
  // short) is returned as read() would return it at that frame. The file is
  // left where it was.
  Expected<std::int64_t> walk_frames();

 private:
  [[nodiscard]] Status truncated(std::size_t got) const;
  // The planes filled (1 when reading the luma alone, else every plane).
  [[nodiscard]] unsigned planes_filled() const;
  // Offset of frame n (with fixed frames).
  [[nodiscard]] std::int64_t fixed_offset(std::uint64_t n) const;
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
  // Fixed frames: none while fixed_count_ is 0.
  std::int64_t fixed_first_ = 0;
  std::size_t fixed_header_ = 0;
  std::uint64_t fixed_count_ = 0;  // frames whose bytes the file held when opened
};

}  // namespace vqx::io_detail
