// ReadAhead (vqx/read_ahead.hpp): one Lane per video, each a thread that
// reads frames into a bounded queue, and next() that takes one item of
// each queue in turn. An item is a frame, the video's end or its error;
// a lane's thread ends after its last item, so that an error stays in its
// place in the stream and the caller meets it at that frame.
#include "vqx/read_ahead.hpp"

#include <condition_variable>
#include <deque>
#include <exception>
#include <mutex>
#include <new>
#include <optional>
#include <string>
#include <system_error>
#include <thread>
#include <utility>

namespace vqx {

namespace {

// One read of one video: a frame, the end of the video, or an error.
struct Item {
  Status status;
  bool frame = false;
  Picture picture;
};

// A picture from the source, filled by the reader. On a reader's thread an
// exception has no caller to go to: it becomes the item's error.
Item read_item(VideoReader& reader, const PictureSource& pictures) {
  Item item;
  try {
    Expected<Picture> pic = pictures(reader.format());
    if (!pic.ok()) {
      item.status = pic.status();
      return item;
    }
    Expected<bool> got = reader.read(*pic);
    if (!got.ok()) {
      item.status = got.status();
    } else if (*got) {
      item.frame = true;
      item.picture = std::move(*pic);
    }
  } catch (const std::bad_alloc&) {
    item.status = Error(Errc::kLimit, reader.path() + ": out of memory reading a frame");
  } catch (const std::exception& e) {
    item.status = Error(Errc::kInternal, reader.path() + ": internal error: " + e.what());
  }
  return item;
}

// One video: its reader, its thread, and the items read ahead.
class Lane {
 public:
  Lane(VideoReader& reader, const PictureSource& pictures, unsigned depth)
      : reader_(reader), pictures_(pictures), depth_(depth) {}
  ~Lane() { stop(); }
  Lane(const Lane&) = delete;
  Lane& operator=(const Lane&) = delete;

  // Throws std::system_error when the thread cannot start.
  void start() {
    thread_ = std::thread([this] { run(); });
  }

  // The next item, waiting for it. Not to be called after the last.
  Item take() {
    std::unique_lock lock(m_);
    cv_.wait(lock, [this] { return !items_.empty(); });
    Item item = std::move(items_.front());
    items_.pop_front();
    lock.unlock();
    cv_.notify_all();  // room for the next read
    return item;
  }

  void stop() {
    bool running = false;
    {
      std::lock_guard lock(m_);
      stop_ = true;
      running = !finished_;
    }
    cv_.notify_all();
    // A thread between two frames sees stop_; one in a read of a regular
    // file finishes that frame; one waiting on a pipe is woken here.
    if (running) reader_.interrupt();
    if (thread_.joinable()) thread_.join();
    std::lock_guard lock(m_);
    items_.clear();
  }

 private:
  void run() {
    for (;;) {
      {
        std::unique_lock lock(m_);
        cv_.wait(lock, [this] { return stop_ || items_.size() < depth_; });
        if (stop_) break;
      }
      Item item = read_item(reader_, pictures_);
      const bool last = !item.status.ok() || !item.frame;
      {
        std::lock_guard lock(m_);
        items_.push_back(std::move(item));
        finished_ = last;
      }
      cv_.notify_all();
      if (last) return;
    }
    std::lock_guard lock(m_);
    finished_ = true;
  }

  VideoReader& reader_;
  const PictureSource& pictures_;
  const unsigned depth_;
  std::mutex m_;
  std::condition_variable cv_;  // an item taken or queued, or stop_
  std::deque<Item> items_;      // under m_
  bool stop_ = false;           // under m_
  bool finished_ = false;       // under m_: the thread reads no more
  std::thread thread_;
};

}  // namespace

struct ReadAhead::Impl {
  VideoReader& ref;
  VideoReader& dist;
  unsigned depth;
  PictureSource pictures;
  // Null when synchronous (depth 0 or 1).
  std::unique_ptr<Lane> ref_lane;
  std::unique_ptr<Lane> dist_lane;
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
  Item ri = ref_lane->take();
  if (!ri.status.ok()) return end(ri.status);
  Item di = dist_lane->take();
  if (!di.status.ok()) return end(di.status);
  return pair(ri.frame, di.frame, std::move(ri.picture), std::move(di.picture), r, d);
}

ReadAhead::ReadAhead(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}

ReadAhead::~ReadAhead() { stop(); }

Expected<std::unique_ptr<ReadAhead>> ReadAhead::start(VideoReader& ref, VideoReader& dist,
                                                      unsigned depth, PictureSource pictures) {
  // A reader that could wait forever in a read nothing can interrupt (a
  // pipe into libav) would make stop() wait for it too: no threads then.
  if (!ref.interruptible() || !dist.interruptible()) depth = 0;
  auto impl = std::make_unique<Impl>(ref, dist, depth, std::move(pictures));
  if (depth >= 2) {
    impl->ref_lane = std::make_unique<Lane>(ref, impl->pictures, depth);
    impl->dist_lane = std::make_unique<Lane>(dist, impl->pictures, depth);
    try {
      impl->ref_lane->start();
      impl->dist_lane->start();
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

}  // namespace vqx
