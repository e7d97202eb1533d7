// open_scaled() (vqx/scaled_video.hpp): a reader that reads another's frames
// and scales them with libswscale, set up as FFmpeg 5.1's scale filter sets
// it up (libavfilter/vf_scale.c, config_props) for the same input, so that
// the samples are the ones `ffmpeg -vf scale=W:H` writes:
//  * sws_flags: the filter alone (FFmpeg's default, flags='', leaves the
//    flags 0 and libswscale then takes SWS_BICUBIC: the same context);
//  * param0 and param1: SWS_PARAM_DEFAULT (the filter's defaults);
//  * one thread (the filter's slices give the same rows; one is simplest);
//  * for 8-bit 4:2:0 (AV_PIX_FMT_YUV420P) only, the vertical chroma
//    position 128 (MPEG-2's, centred between two luma rows) on both sides,
//    which the filter sets for that format; libswscale's own default
//    (-513) elsewhere, which libswscale turns into the same 128 for a
//    halved axis (get_local_pos), so this only mirrors the filter;
//  * no range conversion: the samples stay in their range (the filter
//    would convert a frame tagged full range to limited; VQX compares
//    samples as they are, so it does not).
// When only the luma is read (read_planes(1): VMAF's features), the luma
// alone is scaled, by a second context for the gray format of the same
// depth: libswscale scales the luma of a YUV frame with the same filters
// as a gray frame, so its samples are the same (the --scale tests of
// tests/cli/batch_test.cpp compare both ways with FFmpeg's).
#include <algorithm>
#include <array>
#include <bit>
#include <cstdint>
#include <memory>
#include <string>
#include <utility>

#include "vqx/scaled_video.hpp"

#if defined(VQX_WITH_LIBAV) && VQX_WITH_LIBAV
#include "core/picture_internals.hpp"
#include "io/libav_api.hpp"
#include "io/reader_detail.hpp"
#endif

namespace vqx {

namespace {

struct FilterName {
  ScaleFilter filter;
  const char* name;
};

// The count is deduced from the list.
constexpr auto kFilters = std::to_array<FilterName>({
    {ScaleFilter::kFastBilinear, "fast_bilinear"},
    {ScaleFilter::kBilinear, "bilinear"},
    {ScaleFilter::kBicubic, "bicubic"},
    {ScaleFilter::kNeighbor, "neighbor"},
    {ScaleFilter::kArea, "area"},
    {ScaleFilter::kBicublin, "bicublin"},
    {ScaleFilter::kGauss, "gauss"},
    {ScaleFilter::kSinc, "sinc"},
    {ScaleFilter::kLanczos, "lanczos"},
    {ScaleFilter::kSpline, "spline"},
});

const FilterName& entry(ScaleFilter filter) {
  return *std::find_if(kFilters.begin(), kFilters.end(),
                       [filter](const FilterName& f) { return f.filter == filter; });
}

#if defined(VQX_WITH_LIBAV) && VQX_WITH_LIBAV
// libswscale's flag for each filter (SWS_POINT is FFmpeg's "neighbor").
int sws_flag(ScaleFilter filter) {
  switch (filter) {
    case ScaleFilter::kFastBilinear:
      return SWS_FAST_BILINEAR;
    case ScaleFilter::kBilinear:
      return SWS_BILINEAR;
    case ScaleFilter::kBicubic:
      return SWS_BICUBIC;
    case ScaleFilter::kNeighbor:
      return SWS_POINT;
    case ScaleFilter::kArea:
      return SWS_AREA;
    case ScaleFilter::kBicublin:
      return SWS_BICUBLIN;
    case ScaleFilter::kGauss:
      return SWS_GAUSS;
    case ScaleFilter::kSinc:
      return SWS_SINC;
    case ScaleFilter::kLanczos:
      return SWS_LANCZOS;
    case ScaleFilter::kSpline:
      return SWS_SPLINE;
  }
  return SWS_BICUBIC;
}

// FFmpeg's name of the planar, native-endian pixel format of `f`
// ("yuv420p", "yuv422p10le", "gray12le"); libswscale has some depths only.
std::string pixel_format_name(const PictureFormat& f) {
  std::string name;
  switch (f.chroma) {
    case ChromaFormat::k400:
      name = f.bpc == 8 ? "gray" : "gray" + std::to_string(f.bpc);
      break;
    case ChromaFormat::k420:
      name = "yuv420p";
      break;
    case ChromaFormat::k422:
      name = "yuv422p";
      break;
    case ChromaFormat::k444:
      name = "yuv444p";
      break;
  }
  if (f.chroma != ChromaFormat::k400 && f.bpc > 8) name += std::to_string(f.bpc);
  if (f.bpc > 8) name += std::endian::native == std::endian::little ? "le" : "be";
  return name;
}

// The gray format of `f`'s depth: its luma alone.
PictureFormat luma_of(const PictureFormat& f) {
  PictureFormat luma = f;
  luma.chroma = ChromaFormat::k400;
  return luma;
}

class ScaledReader final : public VideoReader {
 public:
  ScaledReader(std::unique_ptr<VideoReader> video, PictureFormat out, const libav::Api& av,
               const libav::SwscaleApi& sws)
      : video_(std::move(video)), out_(out), av_(av), sws_(sws) {}
  ~ScaledReader() override {
    sws_.sws_freeContext(ctx_);
    sws_.sws_freeContext(luma_ctx_);
  }

  // Every plane, and the luma alone when the video has chroma: both
  // contexts are made now, so that read_planes() cannot fail.
  Status open(ScaleFilter filter) {
    VQX_RETURN_IF_ERROR(make_context(video_->format(), filter, ctx_));
    if (video_->format().chroma == ChromaFormat::k400) return Status::Ok();
    return make_context(luma_of(video_->format()), filter, luma_ctx_);
  }

  Status make_context(const PictureFormat& in, ScaleFilter filter, SwsContext*& ctx) {
    const std::string name = pixel_format_name(in);
    const AVPixelFormat pf = av_.av_get_pix_fmt(name.c_str());
    if (pf == AV_PIX_FMT_NONE) {
      return Error(Errc::kUnsupported, video_->path() + ": libswscale cannot scale " +
                                           std::to_string(in.bpc) + "-bit " + to_string(in.chroma) +
                                           " video (it has no format " + name + ")");
    }
    ctx = sws_.sws_alloc_context();
    if (ctx == nullptr)
      return Error(Errc::kLimit, video_->path() + ": out of memory for libswscale");
    const std::pair<const char*, std::int64_t> options[] = {
        {"srcw", in.width},
        {"srch", in.height},
        {"src_format", pf},
        {"dstw", out_.width},
        {"dsth", out_.height},
        {"dst_format", pf},
        {"sws_flags", sws_flag(filter)},
        {"param0", SWS_PARAM_DEFAULT},
        {"param1", SWS_PARAM_DEFAULT},
        {"threads", 1},
    };
    const std::pair<const char*, std::int64_t> chroma_positions[] = {
        {"src_v_chr_pos", 128},
        {"dst_v_chr_pos", 128},
    };
    const auto set = [&](const auto& list) {
      for (const auto& [key, value] : list) {
        if (av_.av_opt_set_int(ctx, key, value, 0) < 0) {
          return Error(Errc::kInternal, video_->path() + ": libswscale refused its option " + key);
        }
      }
      return Status::Ok();
    };
    VQX_RETURN_IF_ERROR(set(options));
    // As vf_scale.c does for this format alone.
    if (pf == AV_PIX_FMT_YUV420P) VQX_RETURN_IF_ERROR(set(chroma_positions));
    if (sws_.sws_init_context(ctx, nullptr, nullptr) < 0) {
      return Error(Errc::kUnsupported,
                   video_->path() + ": libswscale cannot scale " + name + " from " +
                       std::to_string(in.width) + "x" + std::to_string(in.height) + " to " +
                       std::to_string(out_.width) + "x" + std::to_string(out_.height));
    }
    return Status::Ok();
  }

  const PictureFormat& format() const override { return out_; }
  const VideoInfo& info() const override { return video_->info(); }
  const std::string& path() const override { return video_->path(); }
  std::uint64_t frames_read() const override { return video_->frames_read(); }
  Status skip(unsigned frames) override { return video_->skip(frames); }
  void interrupt() override { video_->interrupt(); }
  [[nodiscard]] bool interruptible() const override { return video_->interruptible(); }
  // 1: the luma alone is read and scaled; else every plane.
  void read_planes(unsigned planes) override {
    luma_only_ = planes == 1 && luma_ctx_ != nullptr;
    video_->read_planes(planes);
  }

  Expected<bool> read(Picture& pic) override {
    VQX_ASSIGN_OR_RETURN(const bool got, video_->read(source_));
    if (!got) return false;
    VQX_RETURN_IF_ERROR(io_detail::ensure_format(pic, out_));
    SwsContext* const ctx = luma_only_ ? luma_ctx_ : ctx_;
    const unsigned planes = luma_only_ ? 1 : out_.plane_count();
    std::array<const std::uint8_t*, 4> src{};
    std::array<int, 4> src_stride{};
    std::array<std::uint8_t*, 4> dst{};
    std::array<int, 4> dst_stride{};
    for (unsigned p = 0; p < planes; ++p) {
      const Plane& s = std::as_const(source_).plane(p);
      src[p] = s.data();
      src_stride[p] = static_cast<int>(s.stride_bytes());
      Plane& d = pic.plane(p);
      dst[p] = d.data();
      dst_stride[p] = static_cast<int>(d.stride_bytes());
    }
    const int rows =
        sws_.sws_scale(ctx, src.data(), src_stride.data(), 0,
                       static_cast<int>(video_->format().height), dst.data(), dst_stride.data());
    if (rows != static_cast<int>(out_.height)) {
      return Error(Errc::kInternal, video_->path() + ": libswscale failed on frame " +
                                        std::to_string(video_->frames_read() - 1));
    }
    if (luma_only_) detail::PictureInternals::mark_luma_only(pic);
    return true;
  }

 private:
  std::unique_ptr<VideoReader> video_;
  PictureFormat out_;
  const libav::Api& av_;
  const libav::SwscaleApi& sws_;
  SwsContext* ctx_ = nullptr;       // every plane
  SwsContext* luma_ctx_ = nullptr;  // the luma alone (none for a gray video)
  bool luma_only_ = false;          // read_planes(1)
  Picture source_;                  // the frame as read, before scaling
};
#endif  // VQX_WITH_LIBAV

}  // namespace

const char* to_string(ScaleFilter filter) { return entry(filter).name; }

Expected<ScaleFilter> parse_scale_filter(std::string_view name) {
  std::string names;
  for (const FilterName& f : kFilters) {
    if (name == f.name) return f.filter;
    names += names.empty() ? "" : ", ";
    names += f.name;
  }
  return Error(Errc::kInvalidArgument,
               "unknown scale filter '" + std::string(name) + "' (one of " + names + ")");
}

Expected<std::unique_ptr<VideoReader>> open_scaled(std::unique_ptr<VideoReader> video,
                                                   unsigned width, unsigned height,
                                                   ScaleFilter filter) {
  PictureFormat out = video->format();
  if (out.width == width && out.height == height) return video;
  out.width = width;
  out.height = height;
  if (auto s = validate(out); !s.ok()) return Error(s.code(), video->path() + ": " + s.message());
#if !(defined(VQX_WITH_LIBAV) && VQX_WITH_LIBAV)
  (void)filter;
  return Error(Errc::kUnsupported,
               "--scale needs FFmpeg's libswscale: this VQX is built without "
               "FFmpeg (VQX_WITH_LIBAV=OFF)");
#else
  VQX_ASSIGN_OR_RETURN(const libav::Api* av, libav::api());
  VQX_ASSIGN_OR_RETURN(const libav::SwscaleApi* sws, libav::swscale_api());
  auto reader = std::make_unique<ScaledReader>(std::move(video), out, *av, *sws);
  VQX_RETURN_IF_ERROR(reader->open(filter));
  return std::unique_ptr<VideoReader>(std::move(reader));
#endif
}

}  // namespace vqx
