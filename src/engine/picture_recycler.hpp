// The context's picture pool: the pictures of finished frames wait here to
// be fetched again (Context::fetch_picture), so that a run allocates only
// while it starts. New pictures come from the maker: Picture::make, or in a
// GPU context the pipeline's pinned pictures (gpu/pipeline.hpp), whose
// allocation is slow (milliseconds), so recycling them matters.
//
// A frame's two pictures are shared (FramePictures) by what reads them: the
// frame's CPU extractors and, in a GPU context, the upload that reads
// pinned rows straight from them. The last holder to let go gives them back
// here, so that no reader refills a picture that is still being read. The
// pool lives as long as its last holder (a shared_ptr each), whatever the
// order the scheduler and the pipeline are destroyed in. Thread-safe.
#pragma once

#include <cstddef>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <vector>

#include "vqx/picture.hpp"
#include "vqx/status.hpp"

namespace vqx {

struct FramePictures {
  Picture ref;
  Picture dist;
};

class PictureRecycler : public std::enable_shared_from_this<PictureRecycler> {
 public:
  using Maker = std::function<Expected<Picture>(const PictureFormat&)>;

  // Keeps at most `room` pictures; others given back are freed.
  static std::shared_ptr<PictureRecycler> create(std::size_t room);

  // Where new pictures come from (Picture::make until set), and the memory
  // its planes come from: pictures given back whose luma is in other
  // memory (a caller's own Picture::make pictures) are then freed, not
  // kept, so that a fetch hands out only what the maker would have made.
  // Set before the first fetch: not synchronised with fetch().
  void set_maker(Maker maker, const PlaneMemory* memory) {
    maker_ = std::move(maker);
    memory_ = memory;
  }

  // A recycled picture of `fmt` when one is free, else a new one.
  Expected<Picture> fetch(const PictureFormat& fmt);
  // A recycled picture of `fmt`, if one is free.
  std::optional<Picture> take(const PictureFormat& fmt);
  // Keeps `p` for a later fetch, or frees it when the pool is full.
  void give(Picture p);
  [[nodiscard]] std::size_t count();
  // Keeps `pictures` more: a caller that fetches ahead (a read-ahead)
  // holds that many besides the frames in flight, and gives them back in
  // turn. A kLimit error when the room cannot be reserved.
  Status add_room(std::size_t pictures);

  // `ref` and `dist` as one frame's shared pictures: given back here when
  // the last holder lets go.
  std::shared_ptr<FramePictures> share(Picture ref, Picture dist);

 private:
  explicit PictureRecycler(std::size_t room) : room_(room) {}

  std::size_t room_;  // under mutex_
  Maker maker_;
  const PlaneMemory* memory_ = nullptr;  // with maker_: what give() keeps
  std::mutex mutex_;
  std::vector<Picture> pictures_;  // reserved to room_: give() never allocates
};

}  // namespace vqx
