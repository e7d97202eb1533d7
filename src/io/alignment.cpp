// find_offset() and read_luma_frames() (vqx/alignment.hpp): the luma's
// squared error between frame pairs at each offset of a window.
#include "vqx/alignment.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <vector>

#include "core/picture_internals.hpp"

namespace vqx {

namespace {

template <typename T>
std::uint64_t sum_squared_error(const Plane& a, const Plane& b) {
  std::uint64_t sse = 0;
  for (unsigned y = 0; y < a.height(); ++y) {
    const T* ra = a.row<T>(y);
    const T* rb = b.row<T>(y);
    std::uint64_t row = 0;  // at most 65535^2 * 16384 per row: fits
    for (unsigned x = 0; x < a.width(); ++x) {
      const std::int64_t d = std::int64_t{ra[x]} - std::int64_t{rb[x]};
      row += static_cast<std::uint64_t>(d * d);
    }
    sse += row;
  }
  return sse;
}

std::uint64_t sse(const Plane& a, const Plane& b) {
  return a.bytes_per_sample() == 1 ? sum_squared_error<std::uint8_t>(a, b)
                                   : sum_squared_error<std::uint16_t>(a, b);
}

}  // namespace

Expected<LumaFrames> read_luma_frames(VideoReader& video, unsigned count) {
  video.read_planes(1);
  LumaFrames frames{.bpc = video.format().bpc, .planes = {}};
  Picture pic;
  while (frames.planes.size() < count) {
    VQX_ASSIGN_OR_RETURN(const bool got, video.read(pic));
    if (!got) break;
    frames.planes.push_back(detail::PictureInternals::take_plane(pic, 0));
    pic = Picture();
  }
  return frames;
}

Expected<SyncResult> find_offset(const LumaFrames& reference_frames, VideoReader& dist,
                                 const SyncSettings& settings) {
  VQX_ASSIGN_OR_RETURN(const LumaFrames distorted_frames,
                       read_luma_frames(dist, settings.frames_needed()));
  const std::vector<Plane>& reference = reference_frames.planes;
  const std::vector<Plane>& distorted = distorted_frames.planes;
  if (reference.empty())
    return Error(Errc::kInvalidArgument, "--sync: the reference has no frames");
  if (distorted.empty()) return Error(Errc::kInvalidArgument, dist.path() + ": no frames to sync");
  if (settings.frames == 0) return Error(Errc::kInvalidArgument, "--sync: 0 pairs to compare");
  const Plane& r0 = reference.front();
  const Plane& d0 = distorted.front();
  if (r0.width() != d0.width() || r0.height() != d0.height() ||
      r0.bytes_per_sample() != d0.bytes_per_sample()) {
    return Error(Errc::kMismatch, dist.path() + ": --sync needs frames of the reference's size");
  }
  // 10-bit and 12-bit samples share a size but not a scale (nor a peak).
  if (reference_frames.bpc != distorted_frames.bpc) {
    return Error(Errc::kMismatch, dist.path() +
                                      ": --sync needs frames of the reference's bit "
                                      "depth (" +
                                      std::to_string(distorted_frames.bpc) + "-bit, not " +
                                      std::to_string(reference_frames.bpc) + "-bit)");
  }
  const int window = static_cast<int>(settings.window);
  const auto available = [&](int offset) {
    const std::size_t r =
        reference.size() - std::min<std::size_t>(reference.size(), std::max(offset, 0));
    const std::size_t d =
        distorted.size() - std::min<std::size_t>(distorted.size(), std::max(-offset, 0));
    return static_cast<unsigned>(std::min({r, d, std::size_t{settings.frames}}));
  };
  // Each offset is compared on the pairs it has (short clips give the far
  // ones fewer): leaving out those with fewer than the most would leave the
  // true offset out when it is one of them.
  const unsigned min_pairs = std::clamp(settings.min_pairs, 1U, settings.frames);
  const double peak = std::ldexp(1.0, static_cast<int>(reference_frames.bpc)) - 1;
  bool found = false;
  SyncResult best;
  int first = 0;
  int last = 0;
  for (int o = -window; o <= window; ++o) {
    const unsigned pairs = available(o);
    if (pairs < min_pairs) continue;
    if (!found) first = o;
    last = o;
    std::uint64_t total = 0;
    for (unsigned k = 0; k < pairs; ++k) {
      const std::size_t ri = static_cast<std::size_t>(std::max(o, 0)) + k;
      const std::size_t di = static_cast<std::size_t>(std::max(-o, 0)) + k;
      total += sse(reference[ri], distorted[di]);
    }
    const double samples = static_cast<double>(r0.width()) * r0.height() * pairs;
    const double mse = static_cast<double>(total) / samples;
    const double psnr =
        mse == 0 ? kSyncMaxPsnr : std::min(kSyncMaxPsnr, 10 * std::log10(peak * peak / mse));
    const bool nearer = std::abs(o) < std::abs(best.offset) ||
                        (std::abs(o) == std::abs(best.offset) && o > best.offset);
    if (!found || psnr > best.psnr || (psnr == best.psnr && nearer)) {
      best = SyncResult{.offset = o, .psnr = psnr, .pairs = pairs};
      found = true;
    }
  }
  if (!found) {
    return Error(Errc::kInvalidArgument,
                 dist.path() + ": too short for --sync: " + std::to_string(distorted.size()) +
                     " frames against the reference's " + std::to_string(reference.size()) +
                     "; no offset gives " + std::to_string(min_pairs) + " pairs to compare");
  }
  best.first_compared = first;
  best.last_compared = last;
  return best;
}

}  // namespace vqx
