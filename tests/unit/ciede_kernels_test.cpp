// The ciede twin's GPU kernels (src/metrics/ciede/gpu_kernels.cuh and the
// chain sums of src/gpu/chain_sum.cuh), run here on the CPU, without a
// device (tests/unit/gpu_on_host.hpp). The kernels' own source is compiled,
// so their indexing, chroma addressing and sums are the GPU twin's; only
// the arithmetic is the CPU's IEEE arithmetic instead of the device's
// (equal by docs/gpu.md's argument). Their results, through the twin's host
// finish, must equal the CPU twin's (with its colour caches and batches)
// bit for bit: every chroma format (4:2:2 with libvmaf's addressing past
// the chroma width and the last row), 8 to 16 bits, odd sizes, more than
// one chunk of terms, equal, flat and extreme pictures.
#include <gtest/gtest.h>

#include <array>
#include <cstdint>
#include <cstring>
#include <limits>
#include <random>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "metrics/ciede/color.hpp"
#include "metrics/ciede/pointwise.hpp"
#include "metrics/families.hpp"
#include "test_util.hpp"
// What nvcc and hipcc provide, before the kernels.
#include "gpu_on_host.hpp"
// The kernels, and the chain sums' launches on the host.
#include "chain_on_host.hpp"
#include "metrics/ciede/gpu_kernels.cuh"

#undef __shared__

namespace vqx {
namespace {

class Value final : public FeatureWriter {
 public:
  void write(std::size_t /*slot*/, unsigned /*frame*/, double value) override { v = value; }
  double v = -1.0;
};

using testutil::bits;

double cpu_value(const Picture& ref, const Picture& dist) {
  auto spec = ciede_family().make_spec({});
  EXPECT_TRUE(spec.ok());
  auto ex = spec.value().make();
  const Status init = ex->init(ref.format());
  EXPECT_TRUE(init.ok()) << init.message();
  Value out;
  EXPECT_TRUE(ex->extract(ref, dist, 0, out).ok());
  return out.v;
}

template <typename Sample>
ciede::YuvPlanes<Sample> planes(const Picture& p) {
  ciede::YuvPlanes<Sample> v{};
  for (unsigned k = 0; k < 3; ++k) {
    v.data[k] = p.plane(k).row<std::uint8_t>(0);
    v.pitch[k] = p.plane(k).stride_bytes();
  }
  return v;
}

// The 8-bit Lab table as the twin builds it (lab_table_kernel), but only
// the blocks (chroma pairs) that `pictures` read; every other entry is NaN,
// so that a lookup of an entry the kernel would not have written there
// shows in the result. Filled blocks stay: their content never changes.
const ciede::Lab* lab_table_for(const std::vector<const Picture*>& pictures) {
  constexpr float kNaN = std::numeric_limits<float>::quiet_NaN();
  static std::vector<ciede::Lab> table(ciede::kLabTableEntries, ciede::Lab{kNaN, kNaN, kNaN});
  static std::set<std::pair<unsigned, unsigned>> built;  // (u, v)
  for (const Picture* p : pictures) {
    const PictureFormat fmt = p->format();
    const ciede::Layout layout{fmt.chroma, fmt.width, fmt.height, fmt.plane_width(1),
                               fmt.plane_height(1)};
    const auto planes8 = planes<std::uint8_t>(*p);
    for (unsigned y = 0; y < fmt.height; ++y) {
      for (unsigned x = 0; x < fmt.width; ++x) {
        std::int32_t yuv[3];
        ciede::samples_at(planes8, layout, x, y, yuv);
        const auto chroma =
            std::make_pair(static_cast<unsigned>(yuv[1]), static_cast<unsigned>(yuv[2]));
        if (!built.insert(chroma).second) continue;
        gpu_on_host::run_block({chroma.second, chroma.first}, {ciede::kValues8},
                               [&] { ciede::lab_table_kernel(ciede::yuv_scale(8), table.data()); });
      }
    }
  }
  return table.data();
}

// The twin's launches (gpu.cu) and host finish; with the 8-bit Lab table
// if `table`.
template <typename Sample>
double gpu_value(const Picture& ref, const Picture& dist, bool table) {
  const PictureFormat fmt = ref.format();
  const ciede::Layout layout{fmt.chroma, fmt.width, fmt.height, fmt.plane_width(1),
                             fmt.plane_height(1)};
  std::vector<std::vector<float>> terms(1);
  terms[0].assign(std::size_t{fmt.width} * fmt.height, -1.0F);
  const auto r = planes<Sample>(ref);
  const auto d = planes<Sample>(dist);
  const ciede::YuvScale scale = ciede::yuv_scale(fmt.bpc);
  const ciede::Lab* labs = table ? lab_table_for({&ref, &dist}) : nullptr;
  float* out = terms[0].data();
  gpu_on_host::run_each(
      {ceil_div(fmt.width, ciede::kPixelsX), ceil_div(fmt.height, ciede::kPixelsY)},
      {ciede::kPixelsX, ciede::kPixelsY},
      [&] { ciede::differences_kernel<Sample>(r, d, layout, scale, labs, out); });
  const std::vector<double> sums = chain_on_host::kernel_sums<double>(terms);
  return ciede::score_of(sums[0], fmt.width * fmt.height);
}

void expect_twins_equal(const Picture& ref, const Picture& dist, const std::string& what) {
  const double cpu = cpu_value(ref, dist);
  if (ref.bpc() == 8) {
    // The twin's two ways for 8-bit pictures: the Lab table, and lab_of per
    // pixel where the device had no room for the table.
    const double table = gpu_value<std::uint8_t>(ref, dist, true);
    EXPECT_EQ(bits(cpu), bits(table)) << what << " (Lab table): cpu " << cpu << " gpu " << table;
    const double direct = gpu_value<std::uint8_t>(ref, dist, false);
    EXPECT_EQ(bits(cpu), bits(direct)) << what << ": cpu " << cpu << " gpu " << direct;
  } else {
    const double gpu = gpu_value<std::uint16_t>(ref, dist, false);
    EXPECT_EQ(bits(cpu), bits(gpu)) << what << ": cpu " << cpu << " gpu " << gpu;
  }
}

Picture textured(const PictureFormat& fmt, std::uint32_t seed) {
  std::mt19937 rng(seed);
  return testutil::textured_picture(fmt, rng, 0.05, 0.11, 0.07);
}

Picture distorted(const Picture& base, std::uint32_t seed, double noise) {
  std::mt19937 rng(seed);
  return testutil::distorted(base, rng, noise);
}

TEST(CiedeKernels, EqualTheCpuTwinBitForBit) {
  struct Case {
    unsigned w, h, bpc;
    ChromaFormat chroma;
  };
  for (const Case& c : std::vector<Case>{{16, 16, 8, ChromaFormat::k420},
                                         {37, 29, 10, ChromaFormat::k444},
                                         {80, 8, 10, ChromaFormat::k422},  // chroma 40, stride 64
                                         {96, 5, 8, ChromaFormat::k422},
                                         {130, 1, 12, ChromaFormat::k422},  // past the last row
                                         {70, 70, 9, ChromaFormat::k420},   // two chunks
                                         {33, 7, 13, ChromaFormat::k444},
                                         {45, 17, 16, ChromaFormat::k420},
                                         {23, 30, 11, ChromaFormat::k422}}) {
    const PictureFormat fmt = testutil::format(c.w, c.h, c.bpc, c.chroma);
    const std::string what = std::to_string(c.w) + "x" + std::to_string(c.h) + " " +
                             std::to_string(c.bpc) + "-bit " + to_string(c.chroma);
    const Picture ref = textured(fmt, c.w * 3 + c.h);
    expect_twins_equal(ref, distorted(ref, c.w + c.bpc, 0.01), what + " lightly distorted");
    expect_twins_equal(ref, distorted(ref, c.h + c.bpc, 0.3), what + " heavily distorted");
  }
}

// 15 bits: the widest samples of the CPU's narrow colour cache (caches.hpp).
TEST(CiedeKernels, EqualFlatAndExtremePicturesEqualTheCpuTwin) {
  for (const unsigned bpc : {8U, 10U, 15U, 16U}) {
    const PictureFormat fmt = testutil::format(30, 22, bpc, ChromaFormat::k420);
    const std::uint32_t max = (1U << bpc) - 1;
    const Picture zero = testutil::flat_picture(fmt, 0, 0);
    const Picture full = testutil::flat_picture(fmt, max, max);
    const Picture mid = testutil::flat_picture(fmt, max / 2, max / 3);
    const Picture tex = textured(fmt, bpc);
    expect_twins_equal(tex, tex, "equal pictures (+infinity)");
    expect_twins_equal(zero, full, "zero vs max");
    expect_twins_equal(full, zero, "max vs zero");
    expect_twins_equal(mid, tex, "flat vs textured");
  }
}

}  // namespace
}  // namespace vqx
