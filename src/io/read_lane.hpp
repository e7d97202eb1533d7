// The read-ahead's lanes (src/io only; vqx/read_ahead.hpp): each reads one
// video ahead of the caller on threads of its own and hands out its items
// in frame order. An item is a frame, the video's end or its error; the
// lane reads no more after its last item, so that an error stays in its
// place in the stream and the caller meets it at that frame.
//
// Two kinds (one file each):
//  * stream_lane.cpp: one thread calls VideoReader::read() frame after
//    frame (every input: pipes, FIFOs, libav);
//  * offset_lane.cpp: several threads read frames of a file at their fixed
//    offsets at once (a Y4M or raw file: packed_reader.hpp), handed out in
//    frame order; from the first frame that is not where it should be (the
//    end of the file, a damaged frame, another header), read() reads on,
//    so that the end and every error are read()'s own.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>

#include "io/packed_reader.hpp"
#include "vqx/picture.hpp"
#include "vqx/read_ahead.hpp"
#include "vqx/status.hpp"
#include "vqx/video_reader.hpp"

namespace vqx::io_detail {

// One read of one video: a frame, the end of the video, or an error.
struct LaneItem {
  Status status;
  bool frame = false;
  Picture picture;

  // After it the lane reads no more.
  [[nodiscard]] bool last() const { return !status.ok() || !frame; }
};

// A picture of `reader`'s format from the source, filled by `fill` (which
// returns what read() returns: true, false at the end, or an error). On a
// reader's thread an exception has no caller to go to: it becomes the
// item's error.
LaneItem fill_item(const VideoReader& reader, const PictureSource& pictures,
                   const std::function<Expected<bool>(Picture&)>& fill);

// reader.read() into a picture from the source.
LaneItem read_item(VideoReader& reader, const PictureSource& pictures);

class ReadLane {
 public:
  virtual ~ReadLane() = default;
  ReadLane() = default;
  ReadLane(const ReadLane&) = delete;
  ReadLane& operator=(const ReadLane&) = delete;

  // The next item, waiting for it. Not to be called after the last.
  virtual LaneItem take() = 0;
  // Stops reading and joins the threads: a thread between two frames sees
  // the stop; one reading a regular file finishes its frame; one waiting
  // on a pipe is woken (VideoReader::interrupt). Idempotent; the items not
  // taken are freed.
  virtual void stop() = 0;
};

// One thread reading `reader` with read(), up to `depth` (>= 1) frames
// ahead of take(). Throws std::system_error when the thread cannot start.
std::unique_ptr<ReadLane> start_stream_lane(VideoReader& reader, const PictureSource& pictures,
                                            unsigned depth);

// `readers` threads reading the frames of `reader` (fixed_frames() true) at
// their offsets, up to `depth` (>= readers) frames ahead of take(), handed
// out in frame order. Throws std::system_error when a thread cannot start.
// `before_read(k)`, if given, is called on the reading thread before it
// reads frame k at its offset: the tests' way to order the threads' reads.
std::unique_ptr<ReadLane> start_offset_lane(PackedFrameReader& reader,
                                            const PictureSource& pictures, unsigned depth,
                                            unsigned readers,
                                            std::function<void(std::uint64_t)> before_read = {});

}  // namespace vqx::io_detail
