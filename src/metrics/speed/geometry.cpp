#include "metrics/speed/geometry.hpp"

namespace vqx::speed {

namespace {

// speed.c: (int)(side * speed_prescale + 0.5). When the prescale is within
// kPrescaleIdentityTolerance of 1 the picture is not rescaled, and its size
// is kept: libvmaf still rounds side * prescale there, which for sides above
// ~500 can exceed the picture it filters (it then reads samples it never
// wrote); VQX stays on the picture instead.
unsigned scaled_side(unsigned side, const Params& p) {
  if (!p.rescales()) {
    return side;
  }
  // The reference's truncating round, kept on purpose (not lround).
  // NOLINTNEXTLINE(bugprone-incorrect-roundings)
  return static_cast<unsigned>(static_cast<int>(static_cast<double>(side) * p.prescale + 0.5));
}

unsigned blocks_along(unsigned scaled_side) { return (scaled_side >> kScales) / kBlock; }

}  // namespace

unsigned min_side(const Params& p) {
  // The scaled side must reach 16 * 5 = 80; scaled_side() is monotonic.
  unsigned side = 1;
  while (blocks_along(scaled_side(side, p)) == 0) {
    ++side;
  }
  return side;
}

Expected<Geometry> make_geometry(unsigned width, unsigned height, const Params& p,
                                 const std::string& what) {
  Geometry g;
  g.width = width;
  g.height = height;
  g.scaled_w = scaled_side(width, p);
  g.scaled_h = scaled_side(height, p);
  g.op_w = g.scaled_w >> kScales;
  g.op_h = g.scaled_h >> kScales;
  g.blocks_x = g.op_w / kBlock;
  g.blocks_y = g.op_h / kBlock;
  if (g.blocks_x == 0 || g.blocks_y == 0) {
    const std::string m = std::to_string(min_side(p));
    const std::string prescaled =
        p.rescales() ? " with speed_prescale=" + format_g(p.prescale) + " (80x80 once prescaled)"
                     : "";
    return Error(Errc::kUnsupported,
                 what + " (" + std::to_string(width) + "x" + std::to_string(height) +
                     ") are too small: SpEED needs at least " + m + "x" + m + " samples" +
                     prescaled + ", so that the plane decimated by 16 holds one 5x5 block");
  }
  g.trunc_w = g.blocks_x * kBlock;
  g.trunc_h = g.blocks_y * kBlock;
  g.sub_w = g.trunc_w - kBlock + 1;
  g.sub_h = g.trunc_h - kBlock + 1;
  return g;
}

Expected<Geometry> chroma_geometry(const PictureFormat& fmt, const Params& p) {
  VQX_RETURN_IF_ERROR(validate(fmt));
  if (fmt.chroma == ChromaFormat::k400) {
    return Error(Errc::kUnsupported,
                 "speed_chroma: the input is 4:0:0 (luma only); SpEED chroma needs U and V "
                 "planes");
  }
  const bool sub_x = fmt.chroma != ChromaFormat::k444;
  const bool sub_y = fmt.chroma == ChromaFormat::k420;
  const unsigned w = sub_x ? fmt.width / 2 : fmt.width;
  const unsigned h = sub_y ? fmt.height / 2 : fmt.height;
  return make_geometry(w, h, p, "speed_chroma: the U and V planes");
}

Expected<Geometry> temporal_geometry(const PictureFormat& fmt, const Params& p) {
  VQX_RETURN_IF_ERROR(validate(fmt));
  return make_geometry(fmt.width, fmt.height, p, "speed_temporal: the luma planes");
}

}  // namespace vqx::speed
