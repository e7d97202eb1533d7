// Reading the two videos of a comparison ahead of the scoring: the reference
// and the distorted video each read on threads of their own, frames ahead,
// into pictures from a PictureSource (the context's pool, so that no
// picture is allocated in steady state), handed out as pairs in frame
// order. Implemented by src/io; the CLI's frame loop is built on it.
//
//   auto pairs = vqx::ReadAhead::start(*ref, *dist, {.depth = 4},
//       [&ctx](const vqx::PictureFormat& f) { return ctx.fetch_picture(f); });
//   vqx::Picture r, d;
//   for (unsigned i = 0; pairs.value()->next(r, d).value(); ++i) {
//     ctx.read_pictures(std::move(r), std::move(d), i);
//   }
//
// next() returns what reading the two videos in turn on the calling thread
// returns, whatever the depth and the number of readers: the same frames,
// the same end, the same error at the same frame. A reader's error is kept
// in its place in the stream: it ends the stream when the caller reaches
// that frame, with the reader's own message; the frames before it are
// delivered first, as a synchronous loop would deliver them. A video that
// ends before the other gives "<shorter> ended after N frames, before
// <longer>".
#pragma once

#include <cstddef>
#include <functional>
#include <memory>
#include <utility>

#include "vqx/picture.hpp"
#include "vqx/status.hpp"
#include "vqx/video_reader.hpp"

namespace vqx {

// Where the readers take the pictures they fill; called on the readers'
// threads. Context::fetch_picture may be called from them.
using PictureSource = std::function<Expected<Picture>(const PictureFormat&)>;

class ReadAhead {
 public:
  struct Settings {
    // Frames of each video read ahead of next(), on threads of their own:
    // up to that many pictures each, those read and those being read. 0:
    // no thread; next() reads the pair itself, the reference first (the
    // synchronous loop).
    unsigned depth = 4;
    // Threads reading each video whose frames sit at fixed offsets in a
    // regular file (a Y4M file whose frame headers are a bare "FRAME\n", a
    // raw file), each reading whole frames at their offsets, at most
    // `depth`; every other video is read by one thread, frame after frame.
    unsigned readers = 1;
  };

  // What the run looks like to the automatic settings (the CLI's defaults).
  struct Load {
    unsigned cores = 1;            // the machine's (std::thread::hardware_concurrency())
    unsigned scoring_threads = 0;  // the context's workers (0 and 1: the calling thread)
    bool gpu = false;              // a GPU scores the frames
    PictureFormat format;          // the videos'
    unsigned planes_read = 0;      // Context::planes_read(): 1 for the luma alone
  };
  // A GPU's depth: reading is what limits the rate there.
  static constexpr unsigned kGpuDepth = 4;
  // At most this many automatic readers per video: one thread read 4-5
  // GB/s from the page cache on the 16-core device machine (470 4K pairs a
  // second of luma), so four per video should read faster than its GPU
  // scores (1200 fps at 4K), memory's bandwidth permitting.
  static constexpr unsigned kMaxAutoReaders = 4;
  // Frames smaller than this (bytes read per frame of one video) are read
  // by one thread: a frame's read costs less than handing it over.
  static constexpr std::size_t kReadersMinFrameBytes = std::size_t{1} << 20;
  // The depth `auto` picks: with a GPU, kGpuDepth (the GPU is fed by the
  // readers: frames queued ahead keep it busy). On the CPU, 1 when the
  // machine has a core for each video's reader besides the scoring
  // threads, else 0: the context's own queue of frames in flight already
  // lets reading run ahead of the scoring, so that the read-ahead adds
  // only reading on other cores, for which one frame is enough (each frame
  // is scored straight after it was read, its pictures still in the
  // cache); with no core to spare, threads reading ahead only compete
  // with the scoring threads, and the pictures they queue go cold.
  static unsigned auto_depth(const Load& load);
  // The readers `auto` picks: 1, unless the frames are large
  // (kReadersMinFrameBytes) and `depth` is 2 or more; then one for every
  // two cores left besides the scoring (the scoring threads on the CPU,
  // the calling thread with a GPU), at least 1, at most kMaxAutoReaders
  // and `depth`.
  static unsigned auto_readers(const Load& load, unsigned depth);

  // Starts reading `ref` and `dist`, which must outlive the ReadAhead and
  // are not to be used by anyone else until it has stopped (where they
  // then stand is unspecified). With depth 0, and whatever the depth when a
  // video is not interruptible() (a pipe into libav: its reads could not be
  // stopped), no thread starts: next() reads the pair itself. An error
  // (kLimit) when a thread cannot start.
  static Expected<std::unique_ptr<ReadAhead>> start(VideoReader& ref, VideoReader& dist,
                                                    Settings settings, PictureSource pictures);
  // One reader per video.
  static Expected<std::unique_ptr<ReadAhead>> start(VideoReader& ref, VideoReader& dist,
                                                    unsigned depth, PictureSource pictures) {
    return start(ref, dist, Settings{.depth = depth, .readers = 1}, std::move(pictures));
  }
  ~ReadAhead();  // stop()
  ReadAhead(const ReadAhead&) = delete;
  ReadAhead& operator=(const ReadAhead&) = delete;

  // The next pair: true with `ref` and `dist` set to it; false when both
  // videos ended after the same frame; or the error that ended the stream.
  // After false or an error, every later call returns the same.
  Expected<bool> next(Picture& ref, Picture& dist);
  // Stops reading and joins the threads, promptly even when a reader waits
  // on a stalled pipe (VideoReader::interrupt). Later next() calls return
  // an error unless the stream had already ended. Idempotent.
  void stop();
  // Pairs handed out by next() so far.
  [[nodiscard]] unsigned pairs() const;
  // The depth in effect (0 when no thread reads).
  [[nodiscard]] unsigned depth() const;
  // Threads reading the reference and the distorted video (0 for none).
  [[nodiscard]] unsigned ref_readers() const;
  [[nodiscard]] unsigned dist_readers() const;

 private:
  struct Impl;
  explicit ReadAhead(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl_;
};

}  // namespace vqx
