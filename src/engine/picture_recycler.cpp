#include "engine/picture_recycler.hpp"

#include <new>
#include <utility>

namespace vqx {

std::shared_ptr<PictureRecycler> PictureRecycler::create(std::size_t room) {
  std::shared_ptr<PictureRecycler> r(new PictureRecycler(room));
  r->pictures_.reserve(room);
  return r;
}

std::optional<Picture> PictureRecycler::take(const PictureFormat& fmt) {
  std::lock_guard lock(mutex_);
  for (auto it = pictures_.begin(); it != pictures_.end(); ++it) {
    if (it->format() == fmt) {
      Picture p = std::move(*it);
      pictures_.erase(it);
      return p;
    }
  }
  return std::nullopt;
}

Expected<Picture> PictureRecycler::fetch(const PictureFormat& fmt) {
  if (std::optional<Picture> p = take(fmt)) return std::move(*p);
  return maker_ ? maker_(fmt) : Picture::make(fmt);
}

void PictureRecycler::give(Picture p) {
  Picture dropped;  // freed after the lock is released
  {
    std::lock_guard lock(mutex_);
    const bool foreign =
        maker_ && p.plane_count() > 0 && std::as_const(p).plane(0).memory() != memory_;
    if (pictures_.size() < room_ && !foreign) {
      pictures_.push_back(std::move(p));
    } else {
      dropped = std::move(p);
    }
  }
}

Status PictureRecycler::add_room(std::size_t pictures) {
  std::lock_guard lock(mutex_);
  try {
    pictures_.reserve(room_ + pictures);
  } catch (const std::bad_alloc&) {
    return Error(Errc::kLimit, "out of memory reserving room for pictures");
  }
  room_ += pictures;
  return Status::Ok();
}

std::size_t PictureRecycler::count() {
  std::lock_guard lock(mutex_);
  return pictures_.size();
}

std::shared_ptr<FramePictures> PictureRecycler::share(Picture ref, Picture dist) {
  // The deleter holds the pool, so a frame let go after the scheduler has
  // gone still has somewhere to go (and is freed with the pool).
  return std::shared_ptr<FramePictures>(new FramePictures{std::move(ref), std::move(dist)},
                                        [pool = shared_from_this()](FramePictures* f) {
                                          pool->give(std::move(f->ref));
                                          pool->give(std::move(f->dist));
                                          delete f;
                                        });
}

}  // namespace vqx
