// Raw planar YUV (.yuv): frames of PictureFormat::packed_frame_bytes() back to
// back, planes Y, U, V, samples above 8 bits as 16-bit little-endian; read
// and skipped by PackedFrameReader (packed_reader.hpp).
#include <cstdint>
#include <memory>
#include <string>
#include <utility>

#include "io/packed_reader.hpp"
#include "io/reader_detail.hpp"

namespace vqx {

namespace {

using io_detail::InputFile;

class RawReader final : public io_detail::PackedFrameReader {
 public:
  RawReader(std::string path, InputFile file, const PictureFormat& fmt)
      : PackedFrameReader(std::move(path), std::move(file), fmt, raw_info(),
                          fmt.packed_frame_bytes(), /*headerless=*/true) {
    if (this->file().size() >= 0) {
      mutable_info().frame_count = this->file().size() / static_cast<std::int64_t>(payload_bytes());
      set_fixed_frames(this->file().position(), 0);
    }
  }

 private:
  static VideoInfo raw_info() {
    VideoInfo info;
    info.container = "raw";
    info.codec = "rawvideo";
    return info;
  }

  Expected<bool> read_frame_header() override { return true; }
};

}  // namespace

Expected<std::unique_ptr<VideoReader>> open_raw(const std::string& path,
                                                const RawVideoParams& params) {
  const PictureFormat fmt{params.width, params.height, params.bpc, params.chroma};
  if (Status s = validate(fmt); !s.ok()) {
    return Error(s.code(), path + ": raw video parameters: " + s.message());
  }
  VQX_ASSIGN_OR_RETURN(InputFile file, InputFile::open(path));
  return open_raw_file(path, params, std::move(file));
}

Expected<std::unique_ptr<VideoReader>> io_detail::open_raw_file(const std::string& path,
                                                                const RawVideoParams& params,
                                                                InputFile file) {
  const PictureFormat fmt{params.width, params.height, params.bpc, params.chroma};
  if (Status s = validate(fmt); !s.ok()) {
    return Error(s.code(), path + ": raw video parameters: " + s.message());
  }
  // A regular file's size is known: one that is not a whole number of
  // frames (wrong -w -h -p -b, or a file cut short) is refused now rather
  // than after scoring every whole frame.
  const auto frame_bytes = static_cast<std::int64_t>(fmt.packed_frame_bytes());
  if (file.size() >= 0 && file.size() % frame_bytes != 0) {
    return Error(Errc::kParse,
                 path + ": the file's " + std::to_string(file.size()) +
                     " bytes are not a whole number of " + std::to_string(fmt.width) + "x" +
                     std::to_string(fmt.height) + " " + to_string(fmt.chroma) + " " +
                     std::to_string(fmt.bpc) + "-bit frames of " + std::to_string(frame_bytes) +
                     " bytes (" + std::to_string(file.size() / frame_bytes) + " frames and " +
                     std::to_string(file.size() % frame_bytes) + " bytes): check -w -h -p -b");
  }
  return std::unique_ptr<VideoReader>(std::make_unique<RawReader>(path, std::move(file), fmt));
}

Expected<ChromaFormat> parse_pixel_format(std::string_view text) {
  if (text == "420") return ChromaFormat::k420;
  if (text == "422") return ChromaFormat::k422;
  if (text == "444") return ChromaFormat::k444;
  if (text == "400") return ChromaFormat::k400;
  return Error(Errc::kInvalidArgument,
               "unknown pixel format '" + std::string(text) + "' (expected 420, 422, 444 or 400)");
}

}  // namespace vqx
