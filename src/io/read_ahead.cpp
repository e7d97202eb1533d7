// ReadAhead (vqx/read_ahead.hpp): a lane per video (read_lane.hpp: one
// thread reading frame after frame, or several reading frames of a file at
// their offsets), and next() that takes one item of each lane in turn; the
// automatic settings.
#include "vqx/read_ahead.hpp"

#include <algorithm>
#include <memory>
#include <optional>
#include <string>
#include <system_error>
#include <utility>

#include "io/packed_reader.hpp"
#include "io/read_lane.hpp"

namespace vqx {

namespace {

using io_detail::LaneItem;
using io_detail::ReadLane;

// Threads `settings` give the video read by `reader`: several only for
// frames at fixed offsets.
unsigned readers_for(VideoReader& reader, const ReadAhead::Settings& settings) {
  const auto* packed = dynamic_cast<const io_detail::PackedFrameReader*>(&reader);
  const bool fixed = packed != nullptr && packed->fixed_frames_left() > 0;
  return fixed ? std::clamp(settings.readers, 1U, settings.depth) : 1;
}

std::unique_ptr<ReadLane> start_lane(VideoReader& reader, const PictureSource& pictures,
                                     unsigned depth, unsigned readers) {
  if (readers >= 2) {
    return io_detail::start_offset_lane(dynamic_cast<io_detail::PackedFrameReader&>(reader),
                                        pictures, depth, readers);
  }
  return io_detail::start_stream_lane(reader, pictures, depth);
}

}  // namespace

struct ReadAhead::Impl {
  VideoReader& ref;
  VideoReader& dist;
  unsigned depth;
  PictureSource pictures;
  unsigned ref_readers = 0;
  unsigned dist_readers = 0;
  // Null when synchronous (depth 0).
  std::unique_ptr<ReadLane> ref_lane;
  std::unique_ptr<ReadLane> dist_lane;
  unsigned pairs = 0;
  std::optional<Expected<bool>> ended;  // false or the error that ended the stream
  bool stopped = false;

  Impl(VideoReader& r, VideoReader& d, unsigned n, PictureSource p)
      : ref(r), dist(d), depth(n), pictures(std::move(p)) {}

  Expected<bool> next_synchronously(Picture& r, Picture& d);
  Expected<bool> next_from_lanes(Picture& r, Picture& d);
  // The pair read as `got_ref` and `got_dist` say: handed out, the end, or
  // the error of a video that ended first.
  Expected<bool> pair(bool got_ref, bool got_dist, Picture ref_pic, Picture dist_pic, Picture& r,
                      Picture& d);
  Expected<bool> end(Expected<bool> result) {
    ended = result;
    stop_lanes();
    return result;
  }
  void stop_lanes() {
    if (ref_lane) ref_lane->stop();
    if (dist_lane) dist_lane->stop();
  }
};

Expected<bool> ReadAhead::Impl::pair(bool got_ref, bool got_dist, Picture ref_pic, Picture dist_pic,
                                     Picture& r, Picture& d) {
  if (!got_ref && !got_dist) return end(false);
  if (got_ref != got_dist) {
    const std::string& shorter = got_ref ? dist.path() : ref.path();
    const std::string& longer = got_ref ? ref.path() : dist.path();
    return end(Error(Errc::kMismatch, shorter + " ended after " + std::to_string(pairs) +
                                          " frames, before " + longer));
  }
  r = std::move(ref_pic);
  d = std::move(dist_pic);
  ++pairs;
  return true;
}

// The loop the CLI had before the read-ahead: two pictures, then the
// reference's frame, then the distorted one's.
Expected<bool> ReadAhead::Impl::next_synchronously(Picture& r, Picture& d) {
  Expected<Picture> rp = pictures(ref.format());
  if (!rp.ok()) return end(rp.status());
  Expected<Picture> dp = pictures(dist.format());
  if (!dp.ok()) return end(dp.status());
  const Expected<bool> got_ref = ref.read(*rp);
  if (!got_ref.ok()) return end(got_ref.status());
  const Expected<bool> got_dist = dist.read(*dp);
  if (!got_dist.ok()) return end(got_dist.status());
  return pair(*got_ref, *got_dist, std::move(*rp), std::move(*dp), r, d);
}

Expected<bool> ReadAhead::Impl::next_from_lanes(Picture& r, Picture& d) {
  LaneItem ri = ref_lane->take();
  if (!ri.status.ok()) return end(ri.status);
  LaneItem di = dist_lane->take();
  if (!di.status.ok()) return end(di.status);
  return pair(ri.frame, di.frame, std::move(ri.picture), std::move(di.picture), r, d);
}

ReadAhead::ReadAhead(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}

ReadAhead::~ReadAhead() { stop(); }

Expected<std::unique_ptr<ReadAhead>> ReadAhead::start(VideoReader& ref, VideoReader& dist,
                                                      Settings settings, PictureSource pictures) {
  // A reader that could wait forever in a read nothing can interrupt (a
  // pipe into libav) would make stop() wait for it too: no threads then.
  if (!ref.interruptible() || !dist.interruptible()) settings.depth = 0;
  auto impl = std::make_unique<Impl>(ref, dist, settings.depth, std::move(pictures));
  if (settings.depth >= 1) {
    impl->ref_readers = readers_for(ref, settings);
    impl->dist_readers = readers_for(dist, settings);
    try {
      impl->ref_lane = start_lane(ref, impl->pictures, settings.depth, impl->ref_readers);
      impl->dist_lane = start_lane(dist, impl->pictures, settings.depth, impl->dist_readers);
    } catch (const std::system_error& e) {
      impl->stop_lanes();
      return Error(Errc::kLimit,
                   std::string("cannot start the reader threads (out of memory?): ") + e.what());
    }
  }
  return std::unique_ptr<ReadAhead>(new ReadAhead(std::move(impl)));
}

Expected<bool> ReadAhead::next(Picture& ref, Picture& dist) {
  Impl& s = *impl_;
  if (s.ended) return *s.ended;
  if (s.stopped) return Error(Errc::kInvalidArgument, "next() after the read-ahead was stopped");
  return s.ref_lane ? s.next_from_lanes(ref, dist) : s.next_synchronously(ref, dist);
}

void ReadAhead::stop() {
  impl_->stopped = true;
  impl_->stop_lanes();
}

unsigned ReadAhead::pairs() const { return impl_->pairs; }

unsigned ReadAhead::depth() const { return impl_->depth; }

unsigned ReadAhead::ref_readers() const { return impl_->ref_readers; }

unsigned ReadAhead::dist_readers() const { return impl_->dist_readers; }

unsigned ReadAhead::auto_depth(const Load& load) {
  if (load.gpu) return kGpuDepth;
  const unsigned scoring = std::max(load.scoring_threads, 1U);
  return load.cores >= scoring + 2 ? 1 : 0;
}

unsigned ReadAhead::auto_readers(const Load& load, unsigned depth) {
  const PictureFormat& f = load.format;
  const std::size_t frame_bytes = load.planes_read == 1
                                      ? std::size_t{f.width} * f.height * f.bytes_per_sample()
                                      : f.packed_frame_bytes();
  if (depth < 2 || frame_bytes < kReadersMinFrameBytes) return 1;
  const unsigned busy = load.gpu ? 1 : std::max(load.scoring_threads, 1U);
  const unsigned left = load.cores > busy ? load.cores - busy : 0;
  return std::clamp(left / 2, 1U, std::min(kMaxAutoReaders, depth));
}

}  // namespace vqx
