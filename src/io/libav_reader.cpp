// Input through FFmpeg's libavformat/libavcodec: the first video stream of
// any file they read, decoded in the decoder's own planar format. No scaling
// or conversion: planar YUV/gray with 4:2:0, 4:2:2 or 4:4:4 chroma and 8 to
// 16 bits maps onto a Picture (an alpha plane is dropped); anything else (RGB,
// NV12, P010, packed, paletted, 4:1:1, ...) is an "unsupported pixel format".
//
// FFmpeg's functions are called through the table of libav_api.hpp, loaded
// when the first such file is opened. With libav_api.cpp and libav_log.cpp,
// the only files of VQX that include FFmpeg headers; left out of the build
// when VQX_WITH_LIBAV is off.
#include <sys/stat.h>

#include <algorithm>
#include <bit>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <memory>
#include <string>
#include <thread>

#include "core/picture_internals.hpp"
#include "io/libav_api.hpp"
#include "io/libav_log.hpp"
#include "io/reader_detail.hpp"

namespace vqx {

bool libav_available() { return true; }

namespace {

std::string av_error_text(const libav::Api& lib, int err) {
  char buf[AV_ERROR_MAX_STRING_SIZE] = {};
  if (lib.av_strerror(err, buf, sizeof buf) < 0) return "error " + std::to_string(err);
  return buf;
}

const char* pix_fmt_name(const libav::Api& lib, int fmt) {
  const char* name = lib.av_get_pix_fmt_name(static_cast<AVPixelFormat>(fmt));
  return name != nullptr ? name : "unknown";
}

// The PictureFormat an AVPixelFormat maps onto without conversion, if any.
bool map_pixel_format(const libav::Api& lib, AVPixelFormat pf, unsigned width, unsigned height,
                      PictureFormat& out) {
  const AVPixFmtDescriptor* d = lib.av_pix_fmt_desc_get(pf);
  if (d == nullptr) return false;
  constexpr std::uint64_t kRejected = AV_PIX_FMT_FLAG_PAL | AV_PIX_FMT_FLAG_BITSTREAM |
                                      AV_PIX_FMT_FLAG_HWACCEL | AV_PIX_FMT_FLAG_RGB |
                                      AV_PIX_FMT_FLAG_FLOAT | AV_PIX_FMT_FLAG_BAYER;
  if ((d->flags & kRejected) != 0) return false;
  // Samples must be in native byte order (Plane stores native uint16).
  const bool be = (d->flags & AV_PIX_FMT_FLAG_BE) != 0;
  if (be != (std::endian::native == std::endian::big) && d->comp[0].depth > 8) return false;
  const bool alpha = (d->flags & AV_PIX_FMT_FLAG_ALPHA) != 0;
  const unsigned colour = d->nb_components - (alpha ? 1U : 0U);
  ChromaFormat chroma{};
  if (colour == 1) {
    chroma = ChromaFormat::k400;
  } else if (colour == 3 && d->log2_chroma_w == 1 && d->log2_chroma_h == 1) {
    chroma = ChromaFormat::k420;
  } else if (colour == 3 && d->log2_chroma_w == 1 && d->log2_chroma_h == 0) {
    chroma = ChromaFormat::k422;
  } else if (colour == 3 && d->log2_chroma_w == 0 && d->log2_chroma_h == 0) {
    chroma = ChromaFormat::k444;
  } else {
    return false;
  }
  const int depth = d->comp[0].depth;
  if (depth < 8 || depth > 16) return false;
  const int bps = depth > 8 ? 2 : 1;
  for (unsigned c = 0; c < d->nb_components; ++c) {
    const AVComponentDescriptor& comp = d->comp[c];
    // One component per plane, in Y U V (A) order, samples tightly packed and
    // not shifted (this rules out NV12, P010, packed YUYV, YA8, ...).
    if (comp.plane != static_cast<int>(c) || comp.step != bps || comp.offset != 0 ||
        comp.shift != 0 || comp.depth != depth) {
      return false;
    }
  }
  out = PictureFormat{width, height, static_cast<unsigned>(depth), chroma};
  return true;
}

char field_order_char(AVFieldOrder f) {
  switch (f) {
    case AV_FIELD_PROGRESSIVE:
      return 'p';
    case AV_FIELD_TT:
    case AV_FIELD_TB:
      return 't';
    case AV_FIELD_BB:
    case AV_FIELD_BT:
      return 'b';
    default:
      return '?';
  }
}

class LibavReader final : public VideoReader {
 public:
  LibavReader(std::string path, const libav::Api& lib) : path_(std::move(path)), lib_(lib) {}

  ~LibavReader() override {
    lib_.av_packet_free(&pkt_);
    lib_.av_frame_free(&frame_);
    lib_.avcodec_free_context(&dec_);
    lib_.avformat_close_input(&fmt_ctx_);
  }

  const PictureFormat& format() const override { return fmt_; }
  const VideoInfo& info() const override { return info_; }
  const std::string& path() const override { return path_; }
  // libav's blocking reads of a pipe cannot be interrupted; a regular
  // file's always end.
  [[nodiscard]] bool interruptible() const override {
    struct stat st {};
    return ::stat(path_.c_str(), &st) == 0 && S_ISREG(st.st_mode);
  }
  std::uint64_t frames_read() const override { return frames_; }

  Status open();

  Expected<bool> read(Picture& pic) override {
    VQX_ASSIGN_OR_RETURN(const bool got, next_frame());
    if (!got) return false;
    VQX_RETURN_IF_ERROR(io_detail::ensure_format(pic, fmt_));
    std::uint32_t acc = 0;
    for (unsigned p = 0; p < fmt_.plane_count(); ++p) {
      acc |= io_detail::copy_plane(frame_->data[p], frame_->linesize[p], fmt_.plane_width(p),
                                   fmt_.plane_height(p), fmt_.bpc, pic.plane(p));
    }
    lib_.av_frame_unref(frame_);
    if (fmt_.bpc < 16 && (acc >> fmt_.bpc) != 0) {
      return error(Errc::kParse, "frame " + std::to_string(frames_) +
                                     " has sample values above the " + std::to_string(fmt_.bpc) +
                                     "-bit maximum");
    }
    detail::PictureInternals::mark_samples_checked(pic);  // the context need not check again
    ++frames_;
    return true;
  }

  Status skip(unsigned frames) override {
    for (unsigned i = 0; i < frames; ++i) {
      VQX_ASSIGN_OR_RETURN(const bool got, next_frame());
      if (!got) {
        return error(Errc::kInvalidArgument, "cannot skip " + std::to_string(frames) +
                                                 " frames: the file has only " +
                                                 std::to_string(frames_));
      }
      lib_.av_frame_unref(frame_);
      ++frames_;
    }
    return Status::Ok();
  }

 private:
  // Errors name the file and end with FFmpeg's first error message, if it
  // logged one (which says more than its error codes).
  Status error(Errc code, const std::string& what) const {
    return Error(code, path_ + ": " + what + ffmpeg_said());
  }
  Status av_error(Errc code, const std::string& what, int err) const {
    return Error(code, path_ + ": " + what + ": " + av_error_text(lib_, err) + ffmpeg_said());
  }
  std::string ffmpeg_said() const {
    const std::string said = log_.first_error();
    return said.empty() ? std::string() : " (FFmpeg: " + said + ")";
  }

  // A decoder that logged an error has concealed damage (FFV1 slice CRC
  // mismatches are reported no other way): the frames are not scored.
  Status check_decoder_log() const {
    if (log_.decoder_errors() == 0) return Status::Ok();
    return error(Errc::kParse, "the decoder reported damaged data by frame " +
                                   std::to_string(frames_) + "; damaged frames are not scored");
  }

  // Decodes the next frame into frame_: true on a frame, false once the
  // decoder is drained at the end of the stream.
  Expected<bool> next_frame() {
    const libav_log::Sink::OnThisThread scope(log_);
    if (pending_) {
      pending_ = false;
      return true;
    }
    for (;;) {
      int r = lib_.avcodec_receive_frame(dec_, frame_);
      if (r == 0) {
        VQX_RETURN_IF_ERROR(check_frame());
        return true;
      }
      if (r == AVERROR_EOF) {
        VQX_RETURN_IF_ERROR(check_decoder_log());
        VQX_RETURN_IF_ERROR(check_complete());
        return false;
      }
      if (r != AVERROR(EAGAIN)) {
        return av_error(Errc::kParse, "cannot decode frame " + std::to_string(frames_), r);
      }
      // The decoder wants input.
      r = lib_.av_read_frame(fmt_ctx_, pkt_);
      if (r == AVERROR_EOF) {
        r = lib_.avcodec_send_packet(dec_, nullptr);  // drain
        if (r < 0 && r != AVERROR_EOF) return av_error(Errc::kParse, "cannot flush the decoder", r);
        continue;
      }
      if (r < 0) {
        return av_error(Errc::kParse, "cannot read a packet after frame " + std::to_string(frames_),
                        r);
      }
      if (pkt_->stream_index != stream_index_) {
        lib_.av_packet_unref(pkt_);
        continue;
      }
      if ((pkt_->flags & AV_PKT_FLAG_CORRUPT) != 0) {
        lib_.av_packet_unref(pkt_);
        return error(Errc::kParse,
                     "corrupt or truncated packet after frame " + std::to_string(frames_));
      }
      r = lib_.avcodec_send_packet(dec_, pkt_);
      lib_.av_packet_unref(pkt_);
      if (r < 0) {
        return av_error(Errc::kParse, "cannot decode frame " + std::to_string(frames_), r);
      }
    }
  }

  // Demuxers end a file cut short with a plain end of stream (Matroska logs
  // "File ended prematurely", and so does `ffmpeg -i`, which then carries on
  // with the frames it got). Where the container states how long the video
  // stream lasts (Matroska's per-track DURATION tag, written by FFmpeg and
  // mkvmerge), a stream that stops more than half a frame short of that is an
  // error instead of a clean end. The check can only miss a truncation (a
  // start offset makes the frames look later), never invent one.
  Status check_complete() const {
    if (declared_end_us_ < 0 || last_end_us_ < 0) return Status::Ok();
    if (last_end_us_ + (frame_us_ / 2) >= declared_end_us_) return Status::Ok();
    return error(Errc::kParse, "the video ends after " + std::to_string(frames_) + " frames at " +
                                   seconds(last_end_us_) + " s but the file says it lasts " +
                                   seconds(declared_end_us_) + " s (truncated file?)");
  }

  static std::string seconds(std::int64_t us) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.3f", static_cast<double>(us) / 1e6);
    return buf;
  }

  // The frame just decoded must be intact and in the stream's format.
  Status check_frame() {
    if (frame_->best_effort_timestamp != AV_NOPTS_VALUE) {
#if LIBAVUTIL_VERSION_MAJOR >= 58
      const std::int64_t duration = frame_->duration;
#else
      const std::int64_t duration = frame_->pkt_duration;
#endif
      const AVRational us{1, 1000000};
      const std::int64_t start_us =
          lib_.av_rescale_q(frame_->best_effort_timestamp, time_base_, us);
      const std::int64_t length_us =
          std::max(frame_us_, duration > 0 ? lib_.av_rescale_q(duration, time_base_, us) : 0);
      last_end_us_ = std::max(last_end_us_, start_us + length_us);
    }
    VQX_RETURN_IF_ERROR(check_decoder_log());
    if ((frame_->flags & AV_FRAME_FLAG_CORRUPT) != 0 || frame_->decode_error_flags != 0) {
      return error(Errc::kParse, "frame " + std::to_string(frames_) +
                                     " was decoded with errors (corrupt stream)");
    }
    if (have_format_ &&
        (frame_->format != format_id_ || static_cast<unsigned>(frame_->width) != fmt_.width ||
         static_cast<unsigned>(frame_->height) != fmt_.height)) {
      return error(Errc::kUnsupported,
                   "frame " + std::to_string(frames_) + " changes format from " +
                       std::to_string(fmt_.width) + "x" + std::to_string(fmt_.height) + " " +
                       pix_fmt_name(lib_, format_id_) + " to " + std::to_string(frame_->width) +
                       "x" + std::to_string(frame_->height) + " " +
                       pix_fmt_name(lib_, frame_->format));
    }
    return Status::Ok();
  }

  std::string path_;
  const libav::Api& lib_;
  // Before the contexts: it outlives them (the destructor frees them first).
  libav_log::Sink log_;
  PictureFormat fmt_;
  VideoInfo info_;
  AVFormatContext* fmt_ctx_ = nullptr;
  AVCodecContext* dec_ = nullptr;
  AVPacket* pkt_ = nullptr;
  AVFrame* frame_ = nullptr;
  int stream_index_ = -1;
  int format_id_ = AV_PIX_FMT_NONE;
  bool have_format_ = false;
  bool pending_ = false;  // frame_ holds a decoded frame not yet delivered
  std::uint64_t frames_ = 0;
  AVRational time_base_{1, 1};
  std::int64_t frame_us_ = 0;          // one frame at the average frame rate, 0 if unknown
  std::int64_t declared_end_us_ = -1;  // the stream's declared duration, -1 if unknown
  std::int64_t last_end_us_ = -1;      // latest end time of a decoded frame
};

Status LibavReader::open() {
  libav_log::install(lib_);
  const libav_log::Sink::OnThisThread scope(log_);
  fmt_ctx_ = lib_.avformat_alloc_context();
  if (fmt_ctx_ == nullptr) return error(Errc::kLimit, "out of memory opening the file");
  fmt_ctx_->opaque = &log_;
  // (On failure avformat_open_input frees the context and sets it to null.)
  int r = lib_.avformat_open_input(&fmt_ctx_, path_.c_str(), nullptr, nullptr);
  if (r < 0) {
    const Errc code = r == AVERROR_INVALIDDATA ? Errc::kUnsupported : Errc::kIo;
    return av_error(code, "cannot open as a video file (libavformat)", r);
  }
  r = lib_.avformat_find_stream_info(fmt_ctx_, nullptr);
  if (r < 0) return av_error(Errc::kParse, "cannot read the stream parameters", r);

  // The first video stream that is not cover art.
  for (unsigned i = 0; i < fmt_ctx_->nb_streams; ++i) {
    const AVStream* st = fmt_ctx_->streams[i];
    if (stream_index_ < 0 && st->codecpar->codec_type == AVMEDIA_TYPE_VIDEO &&
        (st->disposition & AV_DISPOSITION_ATTACHED_PIC) == 0) {
      stream_index_ = static_cast<int>(i);
    } else {
      fmt_ctx_->streams[i]->discard = AVDISCARD_ALL;
    }
  }
  if (stream_index_ < 0) return error(Errc::kUnsupported, "has no video stream");
  AVStream* st = fmt_ctx_->streams[stream_index_];

  const AVCodec* codec = lib_.avcodec_find_decoder(st->codecpar->codec_id);
  if (codec == nullptr) {
    return error(Errc::kUnsupported, std::string("no decoder for the video codec ") +
                                         lib_.avcodec_get_name(st->codecpar->codec_id));
  }
  dec_ = lib_.avcodec_alloc_context3(codec);
  pkt_ = lib_.av_packet_alloc();
  frame_ = lib_.av_frame_alloc();
  if (dec_ == nullptr || pkt_ == nullptr || frame_ == nullptr) {
    return error(Errc::kLimit, "out of memory setting up the decoder");
  }
  r = lib_.avcodec_parameters_to_context(dec_, st->codecpar);
  if (r < 0) return av_error(Errc::kInternal, "cannot set up the decoder", r);
  dec_->pkt_timebase = st->time_base;
  dec_->opaque = &log_;  // its messages, and its threads' copies', go to log_
  // Decoder threads: FFmpeg's decoders give bit-identical output whatever the
  // thread count (FATE checks this), so threading keeps results
  // deterministic; it costs a few frames of latency and memory per thread and
  // gives ~1.6x on FFV1 even on 2 cores. Capped at 8 so that two readers of
  // 4K video on a big machine do not hold dozens of frames each.
  dec_->thread_count = static_cast<int>(std::clamp(std::thread::hardware_concurrency(), 1U, 8U));
  // Verify the checksums a stream carries even in decoders that check them
  // only when asked. (FFV1 always checks its slice CRCs, but on a mismatch it
  // conceals the slice and only logs "slice CRC mismatch", as `ffmpeg -i`
  // does too: no frame flag or return code reports it; log_ catches it.)
  dec_->err_recognition |= AV_EF_CRCCHECK;
  r = lib_.avcodec_open2(dec_, codec, nullptr);
  if (r < 0)
    return av_error(Errc::kUnsupported, std::string("cannot open the ") + codec->name + " decoder",
                    r);

  info_.container = fmt_ctx_->iformat->name;
  info_.codec = codec->name;
  AVRational fps = st->avg_frame_rate.num > 0 ? st->avg_frame_rate : st->r_frame_rate;
  if (fps.num > 0 && fps.den > 0) {
    info_.fps_num = static_cast<unsigned>(fps.num);
    info_.fps_den = static_cast<unsigned>(fps.den);
  }
  AVRational sar =
      st->sample_aspect_ratio.num > 0 ? st->sample_aspect_ratio : st->codecpar->sample_aspect_ratio;
  if (sar.num > 0 && sar.den > 0) {
    info_.sar_num = static_cast<unsigned>(sar.num);
    info_.sar_den = static_cast<unsigned>(sar.den);
  }
  info_.interlace = field_order_char(st->codecpar->field_order);
  if (st->nb_frames > 0) info_.frame_count = st->nb_frames;
  time_base_ = st->time_base;
  if (fps.num > 0 && fps.den > 0) frame_us_ = lib_.av_rescale(1000000, fps.den, fps.num);
  if (const AVDictionaryEntry* e = lib_.av_dict_get(st->metadata, "DURATION", nullptr, 0)) {
    std::int64_t us = 0;
    if (lib_.av_parse_time(&us, e->value, 1) == 0 && us > 0) declared_end_us_ = us;
  }

  // The format is what the decoder actually outputs: decode the first frame.
  VQX_ASSIGN_OR_RETURN(const bool got, next_frame());
  if (!got) return error(Errc::kParse, "the video stream has no frames");
  const auto pf = static_cast<AVPixelFormat>(frame_->format);
  if (frame_->width <= 0 || frame_->height <= 0) {
    return error(Errc::kParse, "the decoder gave a frame of size " + std::to_string(frame_->width) +
                                   "x" + std::to_string(frame_->height));
  }
  const auto w = static_cast<unsigned>(frame_->width);
  const auto h = static_cast<unsigned>(frame_->height);
  if (!map_pixel_format(lib_, pf, w, h, fmt_)) {
    return error(Errc::kUnsupported,
                 std::string("unsupported pixel format ") + pix_fmt_name(lib_, pf) +
                     " (VQX reads planar YUV or gray, 4:2:0/4:2:2/4:4:4, 8 to 16 bits; "
                     "convert with ffmpeg -pix_fmt yuv420p or similar)");
  }
  if (Status s = validate(fmt_); !s.ok()) return error(s.code(), s.message());
  const AVPixFmtDescriptor* d = lib_.av_pix_fmt_desc_get(pf);
  info_.has_alpha = (d->flags & AV_PIX_FMT_FLAG_ALPHA) != 0;
  const AVColorRange range = frame_->color_range != AVCOL_RANGE_UNSPECIFIED
                                 ? frame_->color_range
                                 : st->codecpar->color_range;
  if (range == AVCOL_RANGE_MPEG) info_.range = ColorRange::kLimited;
  if (range == AVCOL_RANGE_JPEG) info_.range = ColorRange::kFull;
  if (pf == AV_PIX_FMT_YUVJ420P || pf == AV_PIX_FMT_YUVJ422P || pf == AV_PIX_FMT_YUVJ444P) {
    info_.range = ColorRange::kFull;
  }
  format_id_ = frame_->format;
  have_format_ = true;
  pending_ = true;
  return Status::Ok();
}

}  // namespace

Expected<std::unique_ptr<VideoReader>> open_libav(const std::string& path) {
  Expected<const libav::Api*> lib = libav::api();
  if (!lib.ok()) return Error(lib.status().code(), path + ": " + lib.status().message());
  auto reader = std::make_unique<LibavReader>(path, **lib);
  VQX_RETURN_IF_ERROR(reader->open());
  return std::unique_ptr<VideoReader>(std::move(reader));
}

}  // namespace vqx
