// The lanes' shared part (read_lane.hpp): an item read into a picture.
#include "io/read_lane.hpp"

#include <exception>
#include <new>
#include <string>
#include <utility>

namespace vqx::io_detail {

LaneItem fill_item(const VideoReader& reader, const PictureSource& pictures,
                   const std::function<Expected<bool>(Picture&)>& fill) {
  LaneItem item;
  try {
    Expected<Picture> pic = pictures(reader.format());
    if (!pic.ok()) {
      item.status = pic.status();
      return item;
    }
    Expected<bool> got = fill(*pic);
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

LaneItem read_item(VideoReader& reader, const PictureSource& pictures) {
  return fill_item(reader, pictures, [&reader](Picture& pic) { return reader.read(pic); });
}

}  // namespace vqx::io_detail
