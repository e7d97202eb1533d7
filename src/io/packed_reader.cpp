#include "io/packed_reader.hpp"

#include <algorithm>
#include <array>
#include <bit>
#include <span>
#include <string_view>
#include <utility>

#include "core/picture_internals.hpp"

namespace vqx::io_detail {

namespace {

// Bytes of 9..15-bit rows read per call, so that the depth check reads
// them while they are still in the cache.
constexpr std::size_t kCheckedChunkBytes = 256 * 1024;
// Bytes read per call into the scratch buffer, for what is passed over.
constexpr std::size_t kScratchBytes = 1024 * 1024;

// Rows [y0, y1) of a 16-bit plane as read from the file: made native-endian
// (a no-op on little-endian hosts), and the OR of their samples returned.
std::uint32_t settle_rows16(Plane& plane, unsigned row_samples, unsigned y0, unsigned y1) {
  std::uint16_t acc = 0;
  for (unsigned y = y0; y < y1; ++y) {
    std::uint16_t* row = plane.row<std::uint16_t>(y);
    if constexpr (std::endian::native == std::endian::big) {
      for (unsigned x = 0; x < row_samples; ++x) {
        row[x] = static_cast<std::uint16_t>((row[x] >> 8) | (row[x] << 8));
      }
    }
    for (unsigned x = 0; x < row_samples; ++x) acc = static_cast<std::uint16_t>(acc | row[x]);
  }
  return acc;
}

// Plane p of `fmt` from the file into `plane`, through `read` (a function
// that fills a span of iovec and returns the bytes it read: fewer at end of
// file or on an error): the bytes read. `rows` is scratch for the rows'
// iovecs; `acc` gathers the OR of 9..15-bit samples.
template <typename Read>
std::size_t fill_plane(const PictureFormat& fmt, unsigned p, Plane& plane, std::vector<iovec>& rows,
                       std::uint32_t& acc, Read&& read) {
  const unsigned width = fmt.plane_width(p);
  const unsigned height = fmt.plane_height(p);
  const std::size_t row_bytes = std::size_t{width} * fmt.bytes_per_sample();
  // 16-bit samples need a pass when they must be checked or byte-swapped.
  const bool settle = fmt.bpc > 8 && (fmt.bpc < 16 || std::endian::native == std::endian::big);
  const auto chunk_rows = static_cast<unsigned>(
      settle ? std::clamp<std::size_t>(kCheckedChunkBytes / row_bytes, 1, height) : height);
  const bool contiguous = plane.stride_bytes() == row_bytes;
  std::size_t total = 0;
  for (unsigned y0 = 0; y0 < height; y0 += chunk_rows) {
    const unsigned y1 = std::min(height, y0 + chunk_rows);
    const std::size_t want = row_bytes * (y1 - y0);
    std::size_t got = 0;
    if (contiguous) {
      iovec all{plane.row<std::uint8_t>(y0), want};
      got = read(std::span<iovec>(&all, 1));
    } else {
      rows.resize(y1 - y0);
      for (unsigned y = y0; y < y1; ++y)
        rows[y - y0] = iovec{plane.row<std::uint8_t>(y), row_bytes};
      got = read(std::span<iovec>(rows));
    }
    total += got;
    if (got < want) break;  // the caller tells the end of file from an error
    if (settle) acc |= settle_rows16(plane, width, y0, y1);
  }
  return total;
}

constexpr std::string_view kBareFrameHeader = "FRAME\n";

}  // namespace

PackedFrameReader::PackedFrameReader(std::string path, InputFile file, const PictureFormat& fmt,
                                     VideoInfo info, std::size_t payload_bytes, bool headerless)
    : path_(std::move(path)),
      file_(std::move(file)),
      fmt_(fmt),
      info_(std::move(info)),
      payload_bytes_(payload_bytes),
      headerless_(headerless) {}

Expected<std::size_t> PackedFrameReader::pass_over(std::size_t n) {
  // A regular file that holds the bytes: a seek (the size is the one at
  // open, so the bytes are there; a file that has grown since is read).
  const std::int64_t at = file_.size() >= 0 ? file_.position() : -1;
  if (at >= 0 && file_.size() - at >= static_cast<std::int64_t>(n)) {
    if (!file_.seek(at + static_cast<std::int64_t>(n))) return file_.read_error(path_);
    return n;
  }
  // Always the whole size: later passes (other planes left out, skip())
  // are longer than the first.
  if (!scratch_) {
    VQX_ASSIGN_OR_RETURN(scratch_, allocate_buffer(path_, kScratchBytes));
  }
  std::size_t done = 0;
  while (done < n) {
    const std::size_t want = std::min(n - done, kScratchBytes);
    const std::size_t got = file_.read(scratch_.get(), want);
    done += got;
    if (got < want) break;
  }
  return done;
}

Expected<bool> PackedFrameReader::short_payload(std::size_t got) const {
  if (file_.error()) return file_.read_error(path_);
  if (got == 0 && headerless_) return false;
  return truncated(got);
}

Expected<bool> PackedFrameReader::read(Picture& pic) {
  VQX_ASSIGN_OR_RETURN(const bool more, read_frame_header());
  if (!more) return false;
  VQX_RETURN_IF_ERROR(ensure_format(pic, fmt_));
  std::uint32_t acc = 0;
  std::size_t got = 0;
  std::size_t expected = 0;
  const unsigned filled = planes_filled();
  const bool luma_only = filled < fmt_.plane_count();
  const auto read_file = [this](std::span<iovec> v) { return file_.read_into(v); };
  for (unsigned p = 0; p < filled && got == expected; ++p) {
    expected += std::size_t{fmt_.plane_width(p)} * fmt_.plane_height(p) * fmt_.bytes_per_sample();
    got += fill_plane(fmt_, p, pic.plane(p), rows_, acc, read_file);
  }
  // The planes left out, and Y4M 444alpha's alpha plane, are passed over.
  if (got == expected && payload_bytes_ > expected) {
    VQX_ASSIGN_OR_RETURN(const std::size_t passed, pass_over(payload_bytes_ - expected));
    got += passed;
  }
  if (got != payload_bytes_) return short_payload(got);
  if (fmt_.bpc < 16 && (acc >> fmt_.bpc) != 0) {
    return Error(Errc::kParse, path_ + ": frame " + std::to_string(frames_) + " " +
                                   above_depth_message(fmt_.bpc));
  }
  detail::PictureInternals::mark_samples_checked(pic);  // the context need not check again
  if (luma_only) detail::PictureInternals::mark_luma_only(pic);
  ++frames_;
  return true;
}

unsigned PackedFrameReader::planes_filled() const {
  return planes_read_ == 1 ? 1 : fmt_.plane_count();
}

void PackedFrameReader::set_fixed_frames(std::int64_t first, std::size_t header_bytes) {
  fixed_first_ = first;
  fixed_header_ = header_bytes;
  const auto stride = static_cast<std::int64_t>(header_bytes + payload_bytes_);
  fixed_count_ =
      file_.size() > first ? static_cast<std::uint64_t>((file_.size() - first) / stride) : 0;
}

std::int64_t PackedFrameReader::fixed_offset(std::uint64_t n) const {
  return fixed_first_ + static_cast<std::int64_t>(n * (fixed_header_ + payload_bytes_));
}

std::uint64_t PackedFrameReader::fixed_frames_left() const {
  if (frames_ >= fixed_count_ || file_.position() != fixed_offset(frames_)) return 0;
  return fixed_count_ - frames_;
}

bool PackedFrameReader::read_fixed(std::uint64_t k, Picture& pic) const {
  // Only a whole frame within the file as it was opened.
  const std::uint64_t n = frames_ + k;
  if (n >= fixed_count_ || !ensure_format(pic, fmt_).ok()) return false;
  std::int64_t at = fixed_offset(n);
  if (fixed_header_ > 0) {
    std::array<char, kBareFrameHeader.size()> header{};
    iovec v{header.data(), header.size()};
    if (fixed_header_ != header.size() ||
        file_.read_at(at, std::span<iovec>(&v, 1)) != header.size() ||
        std::string_view(header.data(), header.size()) != kBareFrameHeader) {
      return false;
    }
    at += static_cast<std::int64_t>(header.size());
  }
  std::uint32_t acc = 0;
  std::vector<iovec> rows;  // this call's own: calls run at once
  const auto read_file = [&](std::span<iovec> v) {
    const std::size_t got = file_.read_at(at, v);
    at += static_cast<std::int64_t>(got);
    return got;
  };
  const unsigned filled = planes_filled();
  for (unsigned p = 0; p < filled; ++p) {
    const std::size_t want =
        std::size_t{fmt_.plane_width(p)} * fmt_.plane_height(p) * fmt_.bytes_per_sample();
    if (fill_plane(fmt_, p, pic.plane(p), rows, acc, read_file) != want) return false;
  }
  if (fmt_.bpc < 16 && (acc >> fmt_.bpc) != 0) return false;
  detail::PictureInternals::mark_samples_checked(pic);
  if (filled < fmt_.plane_count()) detail::PictureInternals::mark_luma_only(pic);
  return true;
}

Status PackedFrameReader::skip_fixed(std::uint64_t k) {
  if (!file_.seek(fixed_offset(frames_ + k))) return file_.read_error(path_);
  frames_ += k;
  return Status::Ok();
}

Status PackedFrameReader::skip(unsigned frames) {
  for (unsigned i = 0; i < frames; ++i) {
    VQX_ASSIGN_OR_RETURN(bool got, read_frame_header());
    if (got) {
      VQX_ASSIGN_OR_RETURN(const std::size_t passed, pass_over(payload_bytes_));
      if (passed != payload_bytes_) {
        VQX_ASSIGN_OR_RETURN(got, short_payload(passed));
      }
    }
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
