#include "metrics/cambi/preprocess.hpp"

#include <algorithm>
#include <string>

#include "metrics/cambi/params.hpp"
#include "metrics/cambi/pointwise.hpp"

namespace vqx::cambi {

namespace {

template <typename T>
std::uint32_t row_max(const T* row, unsigned n) {
  T m = 0;
  for (unsigned j = 0; j < n; ++j) m = std::max(m, row[j]);
  return m;
}

template <typename T>
Status convert(const Plane& luma, unsigned in_w, unsigned in_h, unsigned bpc,
               std::span<const unsigned> xs, std::span<const unsigned> ys, std::uint16_t* out,
               unsigned out_w, unsigned out_h) {
  const TenBit conv(bpc);
  const bool check = depth_can_overflow(bpc);
  const std::uint32_t limit = (1U << bpc) - 1;
  if (xs.empty()) {
    for (unsigned i = 0; i < out_h; ++i) {
      const T* src = luma.row<T>(i);
      if (check) {
        const std::uint32_t m = row_max(src, out_w);
        if (m > limit) return sample_above_depth(bpc, m);
      }
      std::uint16_t* dst = out + std::size_t{i} * out_w;
      for (unsigned j = 0; j < out_w; ++j) dst[j] = conv(src[j]);
    }
    return Status::Ok();
  }
  if (check) {
    for (unsigned i = 0; i < in_h; ++i) {
      const std::uint32_t m = row_max(luma.row<T>(i), in_w);
      if (m > limit) return sample_above_depth(bpc, m);
    }
  }
  for (unsigned i = 0; i < out_h; ++i) {
    const T* src = luma.row<T>(ys[i]);
    std::uint16_t* dst = out + std::size_t{i} * out_w;
    for (unsigned j = 0; j < out_w; ++j) dst[j] = conv(src[xs[j]]);
  }
  return Status::Ok();
}

}  // namespace

bool depth_can_overflow(unsigned bpc) { return bpc != 8 && bpc != 16; }

Status sample_above_depth(unsigned bpc, std::uint32_t seen) {
  return Error(Errc::kInvalidArgument,
               "cambi: the luma has a sample of " + std::to_string(seen) + ", above the maximum " +
                   std::to_string((1U << bpc) - 1) + " of " + std::to_string(bpc) + "-bit samples");
}

std::vector<unsigned> sample_positions(unsigned in_size, unsigned out_size) {
  // The arithmetic of libvmaf's decimate_generic_* (pointwise.hpp).
  const float ratio = position_ratio(in_size, out_size);
  std::vector<unsigned> pos(out_size);
  float x = position_start(ratio);
  for (unsigned j = 0; j < out_size; ++j) {
    pos[j] = position_index(x, in_size);
    x += ratio;
  }
  return pos;
}

Status to_10bit(const Plane& luma, unsigned in_w, unsigned in_h, unsigned bpc,
                std::span<const unsigned> xs, std::span<const unsigned> ys, std::uint16_t* out,
                unsigned out_w, unsigned out_h) {
  if (bpc == 8) {
    return convert<std::uint8_t>(luma, in_w, in_h, bpc, xs, ys, out, out_w, out_h);
  }
  return convert<std::uint16_t>(luma, in_w, in_h, bpc, xs, ys, out, out_w, out_h);
}

void anti_dither(std::uint16_t* img, unsigned w, unsigned h) {
  // Row i only reads rows i and i + 1, and row i + 1 is rewritten after it,
  // so working top-down in place reads original values only (as does the
  // left-to-right order within a row).
  for (unsigned i = 0; i + 1 < h; ++i) {
    std::uint16_t* row = img + std::size_t{i} * w;
    const std::uint16_t* below = row + w;
    for (unsigned j = 0; j + 1 < w; ++j) {
      row[j] = mean4(row[j], row[j + 1], below[j], below[j + 1]);
    }
    row[w - 1] = mean2(row[w - 1], below[w - 1]);
  }
  std::uint16_t* last = img + std::size_t{h - 1} * w;
  for (unsigned j = 0; j + 1 < w; ++j) {
    last[j] = mean2(last[j], last[j + 1]);
  }
}

}  // namespace vqx::cambi
