#include "io/packed_reader.hpp"

#include <algorithm>
#include <utility>

namespace vqx::io_detail {

PackedFrameReader::PackedFrameReader(std::string path, InputFile file, const PictureFormat& fmt,
                                     VideoInfo info, std::size_t payload_bytes, bool headerless)
    : path_(std::move(path)),
      file_(std::move(file)),
      fmt_(fmt),
      info_(std::move(info)),
      payload_bytes_(payload_bytes),
      headerless_(headerless) {}

Expected<bool> PackedFrameReader::read(Picture& pic) {
  VQX_ASSIGN_OR_RETURN(const bool got, read_payload());
  if (!got) return false;
  VQX_RETURN_IF_ERROR(ensure_format(pic, fmt_));
  if (Status s = unpack_frame(buf_.get(), fmt_, pic); !s.ok()) {
    return Error(s.code(), path_ + ": frame " + std::to_string(frames_) + " " + s.message());
  }
  ++frames_;
  return true;
}

Status PackedFrameReader::skip(unsigned frames) {
  for (unsigned i = 0; i < frames; ++i) {
    VQX_ASSIGN_OR_RETURN(const bool got, read_payload());
    if (!got) {
      return Error(Errc::kInvalidArgument, path_ + ": cannot skip " + std::to_string(frames) +
                                               " frames: the file has only " +
                                               std::to_string(frames_));
    }
    ++frames_;
  }
  return Status::Ok();
}

Status PackedFrameReader::frame_error(Errc code, const std::string& what) const {
  return Error(code, path_ + ": frame " + std::to_string(frames_) + ": " + what);
}

Expected<bool> PackedFrameReader::read_payload() {
  VQX_ASSIGN_OR_RETURN(const bool more, read_frame_header());
  if (!more) return false;
  if (!buf_) {
    VQX_ASSIGN_OR_RETURN(buf_, allocate_buffer(path_, payload_bytes_));
  }
  const std::size_t got = file_.read(buf_.get(), payload_bytes_);
  if (got == payload_bytes_) return true;
  if (file_.error()) return file_.read_error(path_);
  if (got == 0 && headerless_) return false;
  return truncated(got);
}

Status PackedFrameReader::truncated(std::size_t got) const {
  return Error(Errc::kParse, path_ + ": frame " + std::to_string(frames_) + " is truncated (got " +
                                 std::to_string(got) + " of " + std::to_string(payload_bytes_) +
                                 " bytes)");
}

Expected<std::int64_t> PackedFrameReader::walk_frames() {
  const std::int64_t start = file_.position();
  const std::uint64_t frames_before = frames_;
  const auto payload = static_cast<std::int64_t>(payload_bytes_);
  Status fault = Status::Ok();
  std::int64_t n = 0;
  for (;;) {
    Expected<bool> more = read_frame_header();
    if (!more.ok()) {
      fault = more.status();
      break;
    }
    if (!*more) break;
    const std::int64_t at = file_.position();
    const std::int64_t left = file_.size() - at;
    if (left < payload) {
      if (left == 0 && headerless_) break;
      fault = truncated(static_cast<std::size_t>(std::max<std::int64_t>(left, 0)));
      break;
    }
    if (!file_.seek(at + payload)) {
      fault = file_.read_error(path_);
      break;
    }
    ++frames_;
    ++n;
  }
  frames_ = frames_before;
  if (!file_.seek(start) && fault.ok()) fault = file_.read_error(path_);
  if (!fault.ok()) return fault;
  return n;
}

}  // namespace vqx::io_detail
