// YUV4MPEG2 (.y4m) input.
//
// Header: "YUV4MPEG2" then space-separated tags W<width> H<height>
// F<num>:<den> I<p|t|b|m|?> A<num>:<den> C<colour space> X<extension>...,
// ended by '\n'. W and H are required; the others are optional (C defaults to
// the X tag YSCSS= when present, as FFmpeg reads it, else to 420). Each frame
// is "FRAME" [params] '\n' then the planes Y, U, V (and A for 444alpha, which
// is dropped), samples above 8 bits as 16-bit little-endian.
//
// Colour spaces: those libvmaf's y4m_input.c opens and those FFmpeg writes:
// 420jpeg 420mpeg2 420paldv 420 422 444 444alpha mono, and 420/422/444
// p9 p10 p12 p14 p16, mono9 mono10 mono12 mono14 mono16 (also spelled monop10
// ...). Samples are read as stored: the chroma siting of 420mpeg2/420paldv is
// not resampled (libvmaf's CLI refuses to resample them and stops). 411 is
// refused (VQX has no 4:1:1 pictures). Unlike libvmaf, odd sizes are read
// (chroma rounds up) and interlaced streams are read frame by frame.
#include <array>
#include <charconv>
#include <cstdint>
#include <cstring>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "io/packed_reader.hpp"
#include "io/reader_detail.hpp"

namespace vqx {

namespace {

using io_detail::InputFile;

constexpr std::string_view kMagic = "YUV4MPEG2";
constexpr std::size_t kMaxHeaderBytes = 4096;  // libvmaf: 255, FFmpeg: 96
constexpr std::size_t kMaxFrameHeaderBytes = 1024;

struct ColourSpace {
  ChromaFormat chroma;
  unsigned bpc;
  bool alpha;
};

std::optional<ColourSpace> lookup_colour_space(std::string_view tag) {
  if (tag == "420" || tag == "420jpeg" || tag == "420mpeg2" || tag == "420paldv") {
    return ColourSpace{ChromaFormat::k420, 8, false};
  }
  if (tag == "422") return ColourSpace{ChromaFormat::k422, 8, false};
  if (tag == "444") return ColourSpace{ChromaFormat::k444, 8, false};
  if (tag == "444alpha") return ColourSpace{ChromaFormat::k444, 8, true};
  if (tag == "mono") return ColourSpace{ChromaFormat::k400, 8, false};
  // <prefix>p<depth> and mono<depth> / monop<depth>.
  struct Prefix {
    std::string_view text;
    ChromaFormat chroma;
  };
  static constexpr std::array<Prefix, 5> kPrefixes = {{{"420p", ChromaFormat::k420},
                                                       {"422p", ChromaFormat::k422},
                                                       {"444p", ChromaFormat::k444},
                                                       {"monop", ChromaFormat::k400},
                                                       {"mono", ChromaFormat::k400}}};
  for (const Prefix& pre : kPrefixes) {
    if (!tag.starts_with(pre.text)) continue;
    const std::string_view depth = tag.substr(pre.text.size());
    struct Depth {
      std::string_view text;
      unsigned bpc;
    };
    static constexpr std::array<Depth, 5> kDepths = {
        {{"9", 9}, {"10", 10}, {"12", 12}, {"14", 14}, {"16", 16}}};
    for (const Depth& d : kDepths) {
      if (depth == d.text) return ColourSpace{pre.chroma, d.bpc, false};
    }
  }
  return std::nullopt;
}

// The C tag FFmpeg's older XYSCSS= extension names (upper case), if any.
std::optional<std::string> yscss_to_colour_tag(std::string_view v) {
  std::string lower(v);
  for (char& c : lower) {
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
  }
  if (lookup_colour_space(lower) || lower == "411") return lower;
  return std::nullopt;
}

bool parse_uint(std::string_view text, std::uint64_t& out) {
  if (text.empty()) return false;
  const char* end = text.data() + text.size();
  auto [p, ec] = std::from_chars(text.data(), end, out);
  return ec == std::errc() && p == end;
}

// "n:d" with both parts unsigned decimals that fit in 32 bits.
bool parse_ratio(std::string_view text, unsigned& num, unsigned& den) {
  const auto colon = text.find(':');
  if (colon == std::string_view::npos) return false;
  std::uint64_t n = 0;
  std::uint64_t d = 0;
  if (!parse_uint(text.substr(0, colon), n) || !parse_uint(text.substr(colon + 1), d)) return false;
  if (n > 0xffffffffULL || d > 0xffffffffULL) return false;
  num = static_cast<unsigned>(n);
  den = static_cast<unsigned>(d);
  return true;
}

class Y4mReader final : public io_detail::PackedFrameReader {
 public:
  Y4mReader(std::string path, InputFile file, const PictureFormat& fmt, VideoInfo info,
            std::size_t payload_bytes)
      : PackedFrameReader(std::move(path), std::move(file), fmt, std::move(info), payload_bytes,
                          /*headerless=*/false) {}

  // For a file whose size is known, finds a fault of framing (a frame cut
  // short, a FRAME header that is not one) now rather than after scoring
  // every frame before it, and counts the frames. Files whose frame headers
  // are all a bare "FRAME\n" (what FFmpeg and most tools write) are checked
  // by their size and two headers, and their frames are taken to sit at
  // fixed offsets (a header found otherwise in between is read() then:
  // packed_reader.hpp); others are checked by walking every frame header.
  Status check_framing() {
    if (file().size() < 0) return Status::Ok();
    const std::int64_t start = file().position();
    const auto per_frame = static_cast<std::int64_t>(kBareFrameHeader.size() + payload_bytes());
    const std::int64_t data = file().size() - start;
    if (start >= 0 && data % per_frame == 0) {
      const std::int64_t frames = data / per_frame;
      const bool bare = frames == 0 || (bare_header_at(start) &&
                                        bare_header_at(start + ((frames - 1) * per_frame)));
      if (!file().seek(start)) return file().read_error(path());
      if (bare) {
        mutable_info().frame_count = frames;
        set_fixed_frames(start, kBareFrameHeader.size());
        return Status::Ok();
      }
    }
    VQX_ASSIGN_OR_RETURN(mutable_info().frame_count, walk_frames());
    return Status::Ok();
  }

 private:
  static constexpr std::string_view kBareFrameHeader = "FRAME\n";

  bool bare_header_at(std::int64_t pos) {
    std::array<char, kBareFrameHeader.size()> got{};
    return file().seek(pos) && file().read(got.data(), got.size()) == got.size() &&
           std::string_view(got.data(), got.size()) == kBareFrameHeader;
  }

  // Reads "FRAME[ params]\n". True when a frame follows, false at a clean
  // end of file (no byte after the previous frame).
  Expected<bool> read_frame_header() override {
    std::array<char, 5> magic{};
    const std::size_t got_magic = file().read(magic.data(), magic.size());
    if (got_magic == 0) {
      if (file().error()) return file().read_error(path());
      return false;
    }
    const std::string_view seen(magic.data(), got_magic);
    if (seen != std::string_view("FRAME", got_magic)) {
      return frame_error(Errc::kParse, "expected a FRAME header, found " +
                                           io_detail::quote_bytes(seen) + " (loss of framing)");
    }
    if (got_magic < magic.size()) {
      if (file().error()) return file().read_error(path());
      return frame_error(Errc::kParse, "FRAME header cut short at end of file");
    }
    // Either '\n' or ' ' followed by parameters, then '\n'.
    int c = file().getc();
    if (c != '\n') {
      if (c != ' ') {
        if (c == EOF) {
          if (file().error()) return file().read_error(path());
          return frame_error(Errc::kParse, "FRAME header cut short at end of file");
        }
        return frame_error(Errc::kParse,
                           "garbled FRAME header: 'FRAME' followed by " +
                               io_detail::quote_bytes(std::string(1, static_cast<char>(c))));
      }
      std::size_t n = 0;
      while ((c = file().getc()) != '\n') {
        if (c == EOF) {
          if (file().error()) return file().read_error(path());
          return frame_error(Errc::kParse, "FRAME header cut short at end of file");
        }
        if (++n > kMaxFrameHeaderBytes) {
          return frame_error(Errc::kParse, "FRAME header has no newline within " +
                                               std::to_string(kMaxFrameHeaderBytes) + " bytes");
        }
      }
    }
    return true;
  }
};

}  // namespace

Expected<std::unique_ptr<VideoReader>> open_y4m(const std::string& path) {
  VQX_ASSIGN_OR_RETURN(InputFile file, InputFile::open(path));
  return open_y4m_file(path, std::move(file));
}

Expected<std::unique_ptr<VideoReader>> io_detail::open_y4m_file(const std::string& path,
                                                                InputFile file) {
  const auto header_error = [&](Errc code, const std::string& what) {
    return Error(code, path + ": Y4M header: " + what);
  };

  // The header line, without its '\n'.
  std::string line;
  for (;;) {
    const int c = file.getc();
    if (c == EOF) {
      if (file.error()) return file.read_error(path);
      if (line.empty()) return header_error(Errc::kParse, "the file is empty");
      if (!line.starts_with(kMagic)) {
        return Error(Errc::kParse, path + ": not a Y4M file (does not start with YUV4MPEG2)");
      }
      return header_error(Errc::kParse, "not terminated by a newline");
    }
    if (c == '\n') break;
    line += static_cast<char>(c);
    if (line.size() == kMagic.size() && !line.starts_with(kMagic)) {
      return Error(Errc::kParse, path + ": not a Y4M file (does not start with YUV4MPEG2, found " +
                                     io_detail::quote_bytes(line) + ")");
    }
    if (line.size() > kMaxHeaderBytes) {
      return header_error(Errc::kParse,
                          "no newline within " + std::to_string(kMaxHeaderBytes) + " bytes");
    }
  }
  if (!line.starts_with(kMagic)) {
    return Error(Errc::kParse, path + ": not a Y4M file (does not start with YUV4MPEG2, found " +
                                   io_detail::quote_bytes(line) + ")");
  }
  std::string_view rest = std::string_view(line).substr(kMagic.size());
  if (!rest.empty() && rest.front() != ' ') {
    return header_error(Errc::kParse,
                        "bad magic " + io_detail::quote_bytes(line.substr(0, kMagic.size() + 1)) +
                            " (expected 'YUV4MPEG2 ')");
  }
  for (const char ch : rest) {
    const auto u = static_cast<unsigned char>(ch);
    if (u < 0x20 || u >= 0x7f) {
      return header_error(Errc::kParse, "contains the non-printable byte " +
                                            io_detail::quote_bytes(std::string(1, ch)));
    }
  }

  VideoInfo info;
  info.container = "y4m";
  info.codec = "rawvideo";
  std::optional<std::uint64_t> width;
  std::optional<std::uint64_t> height;
  std::optional<std::string> colour_tag;
  std::optional<std::string> yscss_tag;

  while (!rest.empty()) {
    while (!rest.empty() && rest.front() == ' ') rest.remove_prefix(1);
    if (rest.empty()) break;
    const std::size_t end = std::min(rest.find(' '), rest.size());
    const std::string_view tok = rest.substr(0, end);
    rest.remove_prefix(end);
    const std::string_view val = tok.substr(1);
    const std::string qtok = io_detail::quote_bytes(tok);
    switch (tok.front()) {
      case 'W':
      case 'H': {
        std::uint64_t v = 0;
        if (!parse_uint(val, v)) {
          return header_error(Errc::kParse, std::string("bad ") +
                                                (tok.front() == 'W' ? "width " : "height ") + qtok);
        }
        if (v == 0) {
          return header_error(Errc::kParse,
                              std::string(tok.front() == 'W' ? "width" : "height") + " is 0");
        }
        (tok.front() == 'W' ? width : height) = v;
        break;
      }
      case 'F':
        if (!parse_ratio(val, info.fps_num, info.fps_den)) {
          return header_error(Errc::kParse, "bad frame rate " + qtok + " (expected Fnum:den)");
        }
        break;
      case 'A':
        if (!parse_ratio(val, info.sar_num, info.sar_den)) {
          return header_error(Errc::kParse,
                              "bad pixel aspect ratio " + qtok + " (expected Anum:den)");
        }
        break;
      case 'I':
        if (val.size() != 1 || std::string_view("ptbm?").find(val[0]) == std::string_view::npos) {
          return header_error(Errc::kParse,
                              "bad interlacing tag " + qtok + " (expected Ip, It, Ib, Im or I?)");
        }
        info.interlace = val[0];
        break;
      case 'C':
        colour_tag = std::string(val);
        break;
      case 'X':
        info.y4m_extensions.emplace_back(val);
        if (val.starts_with("COLORRANGE=")) {
          const std::string_view r = val.substr(11);
          if (r == "LIMITED") info.range = ColorRange::kLimited;
          if (r == "FULL") info.range = ColorRange::kFull;
        } else if (val.starts_with("YSCSS=")) {
          if (auto t = yscss_to_colour_tag(val.substr(6))) yscss_tag = *t;
        }
        break;
      default:
        // Unknown tags are ignored, as libvmaf and FFmpeg do.
        break;
    }
  }
  if (!width || !height) {
    return header_error(Errc::kParse, std::string("no ") + (!width ? "width (W)" : "height (H)") +
                                          " tag in " + io_detail::quote_bytes(line));
  }
  if (!colour_tag) colour_tag = yscss_tag ? *yscss_tag : std::string("420");
  info.y4m_colorspace = *colour_tag;
  const std::optional<ColourSpace> cs = lookup_colour_space(*colour_tag);
  if (!cs) {
    if (*colour_tag == "411") {
      return header_error(Errc::kUnsupported, "colour space C411 (4:1:1) is not supported");
    }
    return header_error(Errc::kUnsupported,
                        "unsupported colour space " + io_detail::quote_bytes("C" + *colour_tag));
  }
  info.has_alpha = cs->alpha;

  PictureFormat fmt;
  // Values above 32 bits fail validate() through the clamp, like any other
  // oversized dimension.
  fmt.width = static_cast<unsigned>(std::min<std::uint64_t>(*width, 0xffffffffULL));
  fmt.height = static_cast<unsigned>(std::min<std::uint64_t>(*height, 0xffffffffULL));
  fmt.bpc = cs->bpc;
  fmt.chroma = cs->chroma;
  if (Status s = validate(fmt); !s.ok()) {
    if (*width > 0xffffffffULL || *height > 0xffffffffULL) {
      return header_error(Errc::kLimit, "picture size " + std::to_string(*width) + "x" +
                                            std::to_string(*height) + " exceeds the limit of " +
                                            std::to_string(kMaxDimension) + " per side");
    }
    return header_error(s.code(), s.message());
  }
  std::size_t payload = fmt.packed_frame_bytes();
  if (cs->alpha) payload += std::size_t{fmt.width} * fmt.height * fmt.bytes_per_sample();
  auto reader = std::make_unique<Y4mReader>(path, std::move(file), fmt, std::move(info), payload);
  VQX_RETURN_IF_ERROR(reader->check_framing());
  return std::unique_ptr<VideoReader>(std::move(reader));
}

}  // namespace vqx
