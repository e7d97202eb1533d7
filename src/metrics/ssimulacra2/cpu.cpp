#include "metrics/ssimulacra2/cpu.hpp"

#include <string>

#include "metrics/ssimulacra2/downsample.hpp"
#include "metrics/ssimulacra2/xyb.hpp"

namespace vqx::ssimulacra2 {

Status check_format(const PictureFormat& fmt) {
  VQX_RETURN_IF_ERROR(validate(fmt));
  constexpr unsigned kMin = kMinDimension;
  if (fmt.width < kMin || fmt.height < kMin) {
    return Error(Errc::kUnsupported, "ssimulacra2: picture " + std::to_string(fmt.width) + "x" +
                                         std::to_string(fmt.height) + " is too small (at least " +
                                         std::to_string(kMin) + "x" + std::to_string(kMin) +
                                         " is needed)");
  }
  return Status::Ok();
}

unsigned scale_count(unsigned width, unsigned height) {
  unsigned count = 0;
  for (int s = 0; s < kNumScales; ++s) {
    // libjxl checks the size before halving: scale s > 0 needs scale s - 1
    // (scale 0 itself) to be at least kMinDimension in both directions.
    if (width < kMinDimension || height < kMinDimension) {
      break;
    }
    ++count;
    if (s > 0) {
      width = (width + 1) / 2;
      height = (height + 1) / 2;
    }
  }
  return count;
}

void FrameKernel::init(const PictureFormat& fmt, const Params& params) {
  converter_.init(fmt, params);
  kernel_.init(fmt.width);
  const unsigned count = scale_count(fmt.width, fmt.height);
  levels_.assign(count, Level{});
  unsigned w = fmt.width;
  unsigned h = fmt.height;
  for (unsigned s = 0; s < count; ++s) {
    levels_[s].width = w;
    levels_[s].height = h;
    if (s > 0) {
      for (auto& planes : levels_[s].linear) {
        planes.assign(std::size_t{3} * w * h, 0.0f);
      }
    }
    w = (w + 1) / 2;
    h = (h + 1) / 2;
  }
  plane_size_ = std::size_t{fmt.width} * fmt.height;
  for (auto& planes : xyb_) {
    planes.assign(3 * plane_size_, 0.0f);
  }
  rows_.assign(std::size_t{6} * fmt.width, 0.0f);
  norms_.assign(count, ScaleNorms{});
}

double FrameKernel::score(const Picture& ref, const Picture& dist) {
  for (unsigned s = 0; s < levels_.size(); ++s) {
    const Level& level = levels_[s];
    for (unsigned which = 0; which < 2; ++which) {
      if (s == 0) {
        first_level(which == 0 ? ref : dist, which);
      } else {
        next_level(s, which);
      }
    }
    norms_[s] = kernel_.run(xyb_planes(0, level.width), xyb_planes(1, level.width), level.width,
                            level.height);
  }
  return final_score(norms_);
}

void FrameKernel::first_level(const Picture& pic, unsigned which) {
  const unsigned w = levels_[0].width;
  const unsigned h = levels_[0].height;
  const bool has_next = levels_.size() > 1;
  float* next = has_next ? levels_[1].linear[which].data() : nullptr;
  const std::size_t next_plane = has_next ? std::size_t{levels_[1].width} * levels_[1].height : 0;
  const std::size_t next_w = has_next ? levels_[1].width : 0;
  for (unsigned y = 0; y < h; ++y) {
    float* rgb = rows_.data() + std::size_t{y % 2} * 3 * w;
    converter_.convert_row(pic, y, rgb, rgb + w, rgb + 2 * w);
    const std::size_t off = std::size_t{y} * w;
    linear_to_xyb(rgb, rgb + w, rgb + 2 * w, w, xyb_plane(which, 0) + off,
                  xyb_plane(which, 1) + off, xyb_plane(which, 2) + off);
    // A pair of rows (or an odd last row taken twice) makes a row of level 1.
    if (has_next && (y % 2 == 1 || y == h - 1)) {
      const float* upper = y % 2 == 1 ? rows_.data() : rgb;
      for (unsigned c = 0; c < 3; ++c) {
        downsample_row(upper + c * w, rgb + c * w, w,
                       next + c * next_plane + std::size_t{y / 2} * next_w);
      }
    }
  }
}

void FrameKernel::next_level(unsigned s, unsigned which) {
  const Level& level = levels_[s];
  const unsigned w = level.width;
  const unsigned h = level.height;
  const std::size_t plane = std::size_t{w} * h;
  const float* lin = level.linear[which].data();
  for (unsigned y = 0; y < h; ++y) {
    const std::size_t off = std::size_t{y} * w;
    linear_to_xyb(lin + off, lin + plane + off, lin + 2 * plane + off, w, xyb_plane(which, 0) + off,
                  xyb_plane(which, 1) + off, xyb_plane(which, 2) + off);
  }
  if (s + 1 >= levels_.size()) {
    return;
  }
  const Level& down = levels_[s + 1];
  const std::size_t down_plane = std::size_t{down.width} * down.height;
  float* out = levels_[s + 1].linear[which].data();
  for (unsigned oy = 0; oy < down.height; ++oy) {
    const unsigned y0 = 2 * oy;
    const unsigned y1 = y0 + 1 < h ? y0 + 1 : y0;
    for (unsigned c = 0; c < 3; ++c) {
      const float* p = lin + c * plane;
      downsample_row(p + std::size_t{y0} * w, p + std::size_t{y1} * w, w,
                     out + c * down_plane + std::size_t{oy} * down.width);
    }
  }
}

PlaneSet FrameKernel::xyb_planes(unsigned which, unsigned width) const {
  const float* base = xyb_[which].data();
  return {{base, base + plane_size_, base + 2 * plane_size_}, width};
}

}  // namespace vqx::ssimulacra2
