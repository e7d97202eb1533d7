#include "metrics/psnr_hvs/scores.hpp"

#include <cmath>
#include <string>

#include "metrics/psnr_hvs/params.hpp"

namespace vqx::psnr_hvs {

namespace {

// libvmaf convert_score_db(score, 1.0): 10 * (-1 * log10(1.0 * score)).
double to_db(double error) { return 10.0 * (-1.0 * std::log10(1.0 * error)); }

}  // namespace

Status check_format(const PictureFormat& fmt) {
  if (fmt.chroma == ChromaFormat::k400) {
    return Error(Errc::kUnsupported,
                 "psnr_hvs: a 4:0:0 (luma-only) picture is not supported (psnr_hvs weighs in "
                 "both chroma planes; libvmaf refuses it too)");
  }
  if (fmt.bpc > kMaxBpc) {
    return Error(Errc::kUnsupported, "psnr_hvs: bit depth " + std::to_string(fmt.bpc) +
                                         " is not supported (at most " + std::to_string(kMaxBpc) +
                                         ", as in libvmaf: its integer DCT is sized for it)");
  }
  for (unsigned p = 0; p < fmt.plane_count(); ++p) {
    if (fmt.plane_width(p) < kBlock || fmt.plane_height(p) < kBlock) {
      return Error(Errc::kUnsupported,
                   "psnr_hvs: picture " + std::to_string(fmt.width) + "x" +
                       std::to_string(fmt.height) + " " + to_string(fmt.chroma) +
                       " is too small: plane " + std::to_string(p) + " is " +
                       std::to_string(fmt.plane_width(p)) + "x" +
                       std::to_string(fmt.plane_height(p)) + ", smaller than one 8x8 block");
    }
  }
  return Status::Ok();
}

void write_scores(const std::array<float, 3>& errors, unsigned index, FeatureWriter& out) {
  double error[3];
  for (unsigned p = 0; p < 3; ++p) {
    error[p] = static_cast<double>(errors[p]);
    out.write(p, index, to_db(error[p]));
  }
  const double combined = error[0] * kWeightY + kWeightC * (error[1] + error[2]);
  out.write(3, index, to_db(combined));
}

}  // namespace vqx::psnr_hvs
