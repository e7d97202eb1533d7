// The stream lane (read_lane.hpp): one thread reads the video with read(),
// frame after frame, into a bounded queue; take() waits for the next item.
#include <condition_variable>
#include <deque>
#include <memory>
#include <mutex>
#include <thread>
#include <utility>

#include "io/read_lane.hpp"

namespace vqx::io_detail {

namespace {

class StreamLane final : public ReadLane {
 public:
  StreamLane(VideoReader& reader, const PictureSource& pictures, unsigned depth)
      : reader_(reader), pictures_(pictures), depth_(depth) {}
  ~StreamLane() override { stop(); }
  StreamLane(const StreamLane&) = delete;
  StreamLane& operator=(const StreamLane&) = delete;

  void start() {
    thread_ = std::thread([this] { run(); });
  }

  LaneItem take() override {
    std::unique_lock lock(m_);
    cv_.wait(lock, [this] { return !items_.empty(); });
    LaneItem item = std::move(items_.front());
    items_.pop_front();
    lock.unlock();
    cv_.notify_all();  // room for the next read
    return item;
  }

  void stop() override {
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
        // Up to depth_ pictures: those queued and the one being read.
        cv_.wait(lock, [this] { return stop_ || items_.size() < depth_; });
        if (stop_) break;
      }
      LaneItem item = read_item(reader_, pictures_);
      const bool last = item.last();
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
  std::deque<LaneItem> items_;  // under m_
  bool stop_ = false;           // under m_
  bool finished_ = false;       // under m_: the thread reads no more
  std::thread thread_;
};

}  // namespace

std::unique_ptr<ReadLane> start_stream_lane(VideoReader& reader, const PictureSource& pictures,
                                            unsigned depth) {
  auto lane = std::make_unique<StreamLane>(reader, pictures, depth);
  lane->start();
  return lane;
}

}  // namespace vqx::io_detail
