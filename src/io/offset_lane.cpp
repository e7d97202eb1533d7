// The offset lane (read_lane.hpp): several threads read the frames of a
// Y4M or raw file at their fixed offsets at once, each claiming the next
// frame in turn, and take() hands them out in frame order.
//
// The threads only ever read what read() would read at a frame's offset
// (PackedFrameReader::read_fixed); at the first frame they do not read so
// (the end of the file, a damaged frame, another header), no later frame is
// claimed, and take(), once it gets to that frame, stops the threads, drops
// the frames read past it, moves the reader to it and reads on with read()
// on the caller's thread: the end and every error are then read()'s own,
// at their frame, with their message.
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <functional>
#include <limits>
#include <memory>
#include <mutex>
#include <thread>
#include <utility>
#include <vector>

#include "io/read_lane.hpp"

namespace vqx::io_detail {

namespace {

class OffsetLane final : public ReadLane {
 public:
  OffsetLane(PackedFrameReader& reader, const PictureSource& pictures, unsigned depth,
             std::function<void(std::uint64_t)> before_read)
      : reader_(reader),
        pictures_(pictures),
        depth_(depth),
        left_(reader.fixed_frames_left()),
        before_read_(std::move(before_read)) {}
  ~OffsetLane() override { stop(); }
  OffsetLane(const OffsetLane&) = delete;
  OffsetLane& operator=(const OffsetLane&) = delete;

  void start(unsigned readers) {
    for (unsigned i = 0; i < readers; ++i) threads_.emplace_back([this] { run(); });
  }

  LaneItem take() override {
    if (reading_on_) return read_item(reader_, pictures_);
    std::unique_lock lock(m_);
    cv_.wait(lock, [this] { return !slots_.empty() && slots_.front().done; });
    if (!slots_.front().read_on) {
      LaneItem item = std::move(slots_.front().item);
      slots_.pop_front();
      ++taken_;
      lock.unlock();
      cv_.notify_all();  // room for the next claim
      return item;
    }
    // The slot stays until stop() has joined the threads: a thread still
    // reading a later frame finds its slot at k - taken_ (popping this one
    // first put that index one past the end: TSan caught the write).
    const std::uint64_t k = taken_;
    lock.unlock();
    stop();
    reading_on_ = true;
    if (Status s = reader_.skip_fixed(k); !s.ok()) return LaneItem{s, false, {}};
    return read_item(reader_, pictures_);
  }

  void stop() override {
    {
      std::lock_guard lock(m_);
      stop_ = true;
    }
    cv_.notify_all();
    // Each thread finishes the frame it reads (a regular file's reads end).
    for (std::thread& t : threads_) {
      if (t.joinable()) t.join();
    }
    std::lock_guard lock(m_);
    slots_.clear();
  }

 private:
  // A frame claimed by a thread: being read, or done.
  struct Slot {
    bool done = false;
    // Not read at its offset: read() is to read it and what follows.
    bool read_on = false;
    LaneItem item;
  };

  void run() {
    for (;;) {
      std::uint64_t k = 0;
      {
        std::unique_lock lock(m_);
        // Up to depth_ pictures: frames read and not taken, and those being read.
        cv_.wait(lock, [this] {
          return stop_ || (slots_.size() < depth_ && taken_ + slots_.size() < claim_end_);
        });
        if (stop_) return;
        k = taken_ + slots_.size();
        slots_.emplace_back();
      }
      // Past the frames the file held when it was opened: read() says what
      // is there (the end, mostly), with no picture taken for it.
      bool read_on = k >= left_;
      LaneItem item;
      if (!read_on) {
        if (before_read_) before_read_(k);
        item = fill_item(reader_, pictures_, [&](Picture& pic) -> Expected<bool> {
          read_on = !reader_.read_fixed(k, pic);
          return !read_on;
        });
      }
      {
        std::lock_guard lock(m_);
        // No frame after the first that read() is to read, or after an error.
        if (read_on || !item.status.ok()) claim_end_ = std::min(claim_end_, k + 1);
        // Frames are taken in order once done, so k's slot is still there.
        Slot& slot = slots_[k - taken_];
        slot.done = true;
        slot.read_on = read_on;
        slot.item = std::move(item);
      }
      cv_.notify_all();
    }
  }

  PackedFrameReader& reader_;
  const PictureSource& pictures_;
  const unsigned depth_;
  const std::uint64_t left_;                              // frames at fixed offsets
  const std::function<void(std::uint64_t)> before_read_;  // tests only; may be empty
  std::mutex m_;
  std::condition_variable cv_;  // a frame taken or done, or stop_
  std::deque<Slot> slots_;      // under m_: frames taken_, taken_ + 1, ... claimed
  std::uint64_t taken_ = 0;     // under m_: frames handed out by take()
  // Under m_: frames from here on are not claimed.
  std::uint64_t claim_end_ = std::numeric_limits<std::uint64_t>::max();
  bool stop_ = false;  // under m_
  std::vector<std::thread> threads_;
  bool reading_on_ = false;  // take()'s own: read() reads from here on
};

}  // namespace

std::unique_ptr<ReadLane> start_offset_lane(PackedFrameReader& reader,
                                            const PictureSource& pictures, unsigned depth,
                                            unsigned readers,
                                            std::function<void(std::uint64_t)> before_read) {
  auto lane = std::make_unique<OffsetLane>(reader, pictures, depth, std::move(before_read));
  lane->start(readers);
  return lane;
}

}  // namespace vqx::io_detail
