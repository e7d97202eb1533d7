// Reading the two videos of a comparison ahead of the scoring: the reference
// and the distorted video each read on a thread of its own, several frames
// ahead, into pictures from a PictureSource (the context's pool, so that no
// picture is allocated in steady state), handed out as pairs in frame
// order. Implemented by src/io; the CLI's frame loop is built on it.
//
//   auto pairs = vqx::ReadAhead::start(*ref, *dist, vqx::ReadAhead::kDefaultDepth,
//       [&ctx](const vqx::PictureFormat& f) { return ctx.fetch_picture(f); });
//   vqx::Picture r, d;
//   for (unsigned i = 0; pairs.value()->next(r, d).value(); ++i) {
//     ctx.read_pictures(std::move(r), std::move(d), i);
//   }
//
// next() returns what reading the two videos in turn on the calling thread
// returns, whatever the depth: the same frames, the same end, the same
// error at the same frame. A reader's error is kept in its place in the
// stream: it ends the stream when the caller reaches that frame, with the
// reader's own message; the frames before it are delivered first, as a
// synchronous loop would deliver them. A video that ends before the other
// gives "<shorter> ended after N frames, before <longer>".
#pragma once

#include <functional>
#include <memory>

#include "vqx/picture.hpp"
#include "vqx/status.hpp"
#include "vqx/video_reader.hpp"

namespace vqx {

// Where the readers take the pictures they fill; called on the readers'
// threads. Context::fetch_picture may be called from them.
using PictureSource = std::function<Expected<Picture>(const PictureFormat&)>;

class ReadAhead {
 public:
  // Frames of each video queued ahead of the caller (the CLI's default).
  static constexpr unsigned kDefaultDepth = 4;

  // Starts reading `ref` and `dist`, which must outlive the ReadAhead and
  // are not to be used by anyone else until it has stopped. `depth`: up to
  // that many frames of each video are read and queued ahead of next(), on
  // one thread per video; 0 or 1 starts no thread: next() reads the pair
  // itself, the reference first (the synchronous loop, for comparison), as
  // it does whatever the depth when a video is not interruptible() (a pipe
  // into libav: its reads could not be stopped). An
  // error (kLimit) when a thread cannot start.
  static Expected<std::unique_ptr<ReadAhead>> start(VideoReader& ref, VideoReader& dist,
                                                    unsigned depth, PictureSource pictures);
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
  [[nodiscard]] unsigned depth() const;

 private:
  struct Impl;
  explicit ReadAhead(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl_;
};

}  // namespace vqx
