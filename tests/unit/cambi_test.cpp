// Unit tests of the CAMBI extractor ("cambi"): its building blocks against
// hand-computed values, the window counts and the whole score against a
// from-the-definition reference (direct counting in every window, sorting
// for the pooling), options, names and refusals.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <filesystem>
#include <map>
#include <random>
#include <string>
#include <vector>

#include "metrics/cambi/contrast.hpp"
#include "metrics/cambi/luminance.hpp"
#include "metrics/cambi/params.hpp"
#include "metrics/cambi/pooling.hpp"
#include "metrics/cambi/preprocess.hpp"
#include "metrics/cambi/runs.hpp"
#include "metrics/cambi/scorer.hpp"
#include "metrics/cambi/spatial.hpp"
#include "metrics/cambi/window.hpp"
#include "metrics/families.hpp"
#include "test_util.hpp"

namespace vqx {
namespace {

using cambi::Eotf;

// ---------------------------------------------------------------------------
// Helpers

using testutil::format;
using testutil::MapWriter;
using testutil::grey_chroma::make_picture;

ExtractorSpec spec_for(const OptionMap& options) {
  return testutil::spec_for(cambi_family(), options);
}

// A slow diagonal gradient quantised to the depth (the bands CAMBI looks
// for), with a little noise in places so that not every pixel is flat.
Picture banded_picture(const PictureFormat& fmt, unsigned seed, double base = 60.0,
                       double span = 40.0) {
  std::mt19937 rng(seed);
  const double scale = static_cast<double>(1U << (fmt.bpc - 8));
  const double w = fmt.width;
  const double h = fmt.height;
  return make_picture(fmt, [&](unsigned x, unsigned y) {
    double level = base + span * (x / w + y / h) / 2.0;
    if ((x / 17 + y / 13) % 5 == 0) level += static_cast<double>(rng() % 5) - 2.0;
    return static_cast<std::uint32_t>(std::lround(level * scale));
  });
}

// Runs one frame through the extractor; the values by output name.
std::map<std::string, double> run_frame(const OptionMap& options, const Picture& ref,
                                        const Picture& dist, Status* status = nullptr) {
  const ExtractorSpec spec = spec_for(options);
  auto ex = spec.make();
  Status s = ex->init(dist.format());
  MapWriter out;
  if (s.ok()) s = ex->extract(ref, dist, 0, out);
  if (s.ok()) s = ex->flush(out);
  if (status != nullptr) {
    *status = s;
  } else {
    EXPECT_TRUE(s.ok()) << s.message();
  }
  std::map<std::string, double> named;
  for (const auto& [key, v] : out.values) named[spec.outputs[key.first].name] = v;
  return named;
}

// ---------------------------------------------------------------------------
// The from-the-definition reference: the library's preprocessing, mask, mode
// filter and decimation (tested on their own below), then every window count
// by direct summation, the contrast values straight from the formula and
// the pooling by sorting.

struct Scale {
  std::vector<std::uint16_t> img;
  std::vector<std::uint8_t> mask;
  unsigned w = 0;
  unsigned h = 0;
};

double reference_scale(const Scale& s, unsigned radius, const cambi::Params& p, double topk) {
  const int nd = static_cast<int>(p.num_diffs());
  const std::vector<float> reciprocal = cambi::reciprocal_table();
  std::vector<int> threshold(static_cast<std::size_t>(nd));
  for (int d = 0; d < nd; ++d) {
    threshold[d] = cambi::visibility_threshold(d + 1, p.tvi_threshold, p.eotf).value();
  }
  const int floor = cambi::visible_luma_floor(p.vis_lum_threshold, p.eotf).value();
  const int w = static_cast<int>(s.w);
  const int h = static_cast<int>(s.h);
  const int r = static_cast<int>(radius);
  auto count = [&](int i, int c, int level) {
    int n = 0;
    for (int y = std::max(i - r, 0); y <= std::min(i + r, h - 1); ++y) {
      for (int x = std::max(c - r, 0); x <= std::min(c + r, w - 1); ++x) {
        const std::size_t at = static_cast<std::size_t>(y) * s.w + static_cast<std::size_t>(x);
        n += s.mask[at] != 0 && s.img[at] == level;
      }
    }
    return n;
  };
  std::vector<float> values;
  for (int i = 0; i < h; ++i) {
    for (int c = 0; c < w; ++c) {
      const std::size_t at = static_cast<std::size_t>(i) * s.w + static_cast<std::size_t>(c);
      float best = 0.0f;
      if (s.mask[at] != 0) {
        const int v = s.img[at];
        for (int d = 0; d < nd; ++d) {
          // libvmaf compares v + num_diffs with the shifted thresholds.
          if (v > threshold[d] || v + nd + d + 1 <= floor) continue;
          const int own = count(i, c, v);
          const int other =
              std::max(count(i, c, v + d + 1), v - d - 1 >= 0 ? count(i, c, v - d - 1) : 0);
          const float value = static_cast<float>(cambi::kContrastWeights[d] * own * other) *
                              reciprocal[own + other];
          best = std::max(best, value);
        }
      }
      values.push_back(best);
    }
  }
  std::sort(values.begin(), values.end(), std::greater<>());
  const std::size_t k = cambi::topk_count(values.size(), topk);
  double sum = 0;
  for (std::size_t i = 0; i < k; ++i) sum += values[i];
  return sum / static_cast<double>(k);
}

double reference_score(const Plane& luma, unsigned w, unsigned h, unsigned bpc,
                       const cambi::Params& p) {
  Scale s;
  s.w = w;
  s.h = h;
  s.img.resize(std::size_t{w} * h);
  s.mask.resize(std::size_t{w} * h);
  EXPECT_TRUE(cambi::to_10bit(luma, w, h, bpc, {}, {}, s.img.data(), w, h).ok());
  if (bpc < 10) cambi::anti_dither(s.img.data(), w, h);
  std::vector<std::uint8_t> scratch(8 * std::size_t{w} + 8);
  cambi::flatness_mask(s.img.data(), w, h, cambi::flat_threshold(w, h), s.mask.data(),
                       {scratch.data(), scratch.data() + 7 * std::size_t{w}});
  const unsigned window = cambi::adjusted_window(p.window_size, w, h, false);
  std::vector<std::uint16_t> rows(3 * std::size_t{w});
  double weighted = 0;
  for (unsigned scale = 0; scale < cambi::kScaleCount; ++scale) {
    cambi::mode_filter(s.img.data(), s.w, s.h, rows.data(), [](unsigned, const std::uint16_t*) {});
    weighted += reference_scale(s, window / 2, p, p.topk) * cambi::kScaleWeights[scale];
    cambi::decimate(s.img.data(), s.w, s.h, s.img.data());
    cambi::decimate(s.mask.data(), s.w, s.h, s.mask.data());
    s.w = (s.w + 1) / 2;
    s.h = (s.h + 1) / 2;
  }
  return weighted / (window * window);
}

// ---------------------------------------------------------------------------
// Building blocks

TEST(CambiLuminance, Bt1886AndPqEnds) {
  EXPECT_NEAR(cambi::luminance(64, Eotf::kBt1886), 0.01, 1e-15);
  EXPECT_NEAR(cambi::luminance(940, Eotf::kBt1886), 300.0, 1e-12);
  EXPECT_EQ(cambi::luminance(0, Eotf::kBt1886), cambi::luminance(64, Eotf::kBt1886));  // clipped
  EXPECT_EQ(cambi::luminance(64, Eotf::kPq), 0.0);
  EXPECT_NEAR(cambi::luminance(940, Eotf::kPq), 10000.0, 1e-9);
}

TEST(CambiLuminance, VisibilityThresholds) {
  // The default tvi_threshold 0.019: a step of d levels stops being visible
  // above these 10-bit levels (what libvmaf stores, less num_diffs).
  const int expected[] = {178, 305, 432, 559, 686, 813, 1023};
  for (int d = 1; d <= 7; ++d) {
    EXPECT_EQ(cambi::visibility_threshold(d, 0.019, Eotf::kBt1886).value(), expected[d - 1]);
  }
  EXPECT_EQ(cambi::visibility_threshold(1, 0.019, Eotf::kPq).value(), 233);
  EXPECT_EQ(cambi::visibility_threshold(2, 0.019, Eotf::kPq).value(), 1023);
  // A threshold of 100%: a step of one level is invisible even at black
  // (libvmaf's answer 0), one of 8 levels visible up to level 75.
  EXPECT_EQ(cambi::visibility_threshold(1, 1.0, Eotf::kBt1886).value(), 0);
  EXPECT_EQ(cambi::visibility_threshold(8, 1.0, Eotf::kBt1886).value(), 75);
}

TEST(CambiLuminance, VisibleLumaFloor) {
  EXPECT_EQ(cambi::visible_luma_floor(0.0, Eotf::kBt1886).value(), 0);
  EXPECT_EQ(cambi::visible_luma_floor(0.06, Eotf::kBt1886).value(), 78);
  EXPECT_EQ(cambi::visible_luma_floor(10.0, Eotf::kBt1886).value(), 268);
  EXPECT_EQ(cambi::visible_luma_floor(300.0, Eotf::kBt1886).value(), 940);
  EXPECT_EQ(cambi::visible_luma_floor(0.06, Eotf::kPq).value(), 108);
  EXPECT_FALSE(cambi::visible_luma_floor(300.5, Eotf::kBt1886).ok());
}

TEST(CambiTables, ReciprocalsAsLibvmafWroteThem) {
  const std::vector<float> lut = cambi::reciprocal_table();
  ASSERT_EQ(lut.size(), 4226U);
  EXPECT_EQ(lut[0], 0.0f);
  EXPECT_EQ(lut[1], 1.0f);
  EXPECT_EQ(lut[4], 0.25f);
  // libvmaf's table holds 1/i to 9 significant digits, read as float: at
  // 82 that is 0.012195122f, one ulp above 1.0f / 82.
  EXPECT_EQ(lut[82], 0.012195122f);
  EXPECT_NE(lut[82], 1.0f / 82.0f);
  EXPECT_EQ(lut[4224], 0.000236742424f);
  int differ = 0;
  for (int i = 1; i < 4226; ++i) differ += lut[i] != 1.0f / static_cast<float>(i);
  EXPECT_EQ(differ, 42);
}

TEST(CambiTables, BandAndFirstDifference) {
  cambi::Params p;
  const auto t = cambi::make_contrast_tables(p).value();
  EXPECT_EQ(t.num_diffs, 4U);
  EXPECT_EQ(t.band_base, 0);
  EXPECT_EQ(t.band_size, 559U + 4 + 1);
  EXPECT_EQ(t.first_diff[178], 0);  // 178 + 4 <= 178 + 4
  EXPECT_EQ(t.first_diff[179], 1);
  EXPECT_EQ(t.first_diff[559], 3);
  p.vis_lum_threshold = 0.06;  // floor 78: the band starts at 78 - 12 + 1
  const auto v = cambi::make_contrast_tables(p).value();
  EXPECT_EQ(v.band_base, 67);
  // Code q is level 67 + q; d applies when 67 + q + 4 + d + 1 > 78.
  EXPECT_EQ(v.first_diff[0], 4);  // none
  EXPECT_EQ(v.first_diff[3], 4);
  EXPECT_EQ(v.first_diff[4], 3);
  EXPECT_EQ(v.first_diff[6], 1);
  EXPECT_EQ(v.first_diff[7], 0);
  p.vis_lum_threshold = 100.0;  // above every threshold: no level counts
  EXPECT_EQ(cambi::make_contrast_tables(p).value().band_size, 0U);
}

TEST(CambiSizes, WindowAndFlatThreshold) {
  EXPECT_EQ(cambi::adjusted_window(65, 3840, 2160, false), 65U);
  EXPECT_EQ(cambi::adjusted_window(65, 3840, 2160, true), 33U);
  EXPECT_EQ(cambi::adjusted_window(65, 1920, 1080, false), 33U);
  EXPECT_EQ(cambi::adjusted_window(65, 1920, 1080, true), 17U);
  EXPECT_EQ(cambi::adjusted_window(65, 576, 324, false), 9U);
  EXPECT_EQ(cambi::adjusted_window(65, 216, 216, false), 5U);
  EXPECT_EQ(cambi::flat_threshold(1920, 1080), 21);  // 30 * 16 blocks: ceil log2 = 9
  EXPECT_EQ(cambi::flat_threshold(3840, 2160), 24);
  EXPECT_EQ(cambi::flat_threshold(176, 144), 10);
  EXPECT_EQ(cambi::flat_threshold(63, 63), 7);  // no whole 64x64 block
}

TEST(CambiPreprocess, TenBitLevelsAtEveryDepth) {
  struct Case {
    unsigned bpc;
    std::uint32_t in;
    std::uint16_t out;
  };
  const Case cases[] = {{8, 255, 1020},    {8, 1, 4},         {9, 511, 1022},   {10, 1023, 1023},
                        {11, 2047, 1024},  {12, 4093, 1023},  {12, 4094, 1024}, {12, 6, 2},
                        {16, 65535, 1024}, {16, 65503, 1023}, {16, 31, 0},      {16, 32, 1}};
  for (const Case& c : cases) {
    Picture pic = make_picture(format(4, 2, c.bpc), [&](unsigned, unsigned) { return c.in; });
    std::vector<std::uint16_t> out(8);
    ASSERT_TRUE(cambi::to_10bit(pic.plane(0), 4, 2, c.bpc, {}, {}, out.data(), 4, 2).ok());
    EXPECT_EQ(out[5], c.out) << c.bpc << "-bit " << c.in;
  }
}

TEST(CambiPreprocess, RefusesSamplesAboveTheDepth) {
  Picture pic =
      make_picture(format(4, 2, 10), [](unsigned x, unsigned) { return x == 3 ? 1024U : 5U; });
  std::vector<std::uint16_t> out(8);
  const Status s = cambi::to_10bit(pic.plane(0), 4, 2, 10, {}, {}, out.data(), 4, 2);
  EXPECT_FALSE(s.ok());
  EXPECT_NE(s.message().find("1024"), std::string::npos) << s.message();
}

TEST(CambiPreprocess, NearestSamplePositions) {
  // 6 -> 4: ratio 1.5, positions 0.25 + 1.5 j rounded.
  EXPECT_EQ(cambi::sample_positions(6, 4), (std::vector<unsigned>{0, 2, 3, 5}));
  EXPECT_EQ(cambi::sample_positions(5, 5), (std::vector<unsigned>{0, 1, 2, 3, 4}));
  // Upsampling 2 -> 5: ratio 0.4 from -0.3.
  EXPECT_EQ(cambi::sample_positions(2, 5), (std::vector<unsigned>{0, 0, 1, 1, 1}));
}

TEST(CambiPreprocess, AntiDitherByHand) {
  std::vector<std::uint16_t> img = {0, 4, 8,   //
                                    4, 8, 13,  //
                                    1, 2, 3};
  cambi::anti_dither(img.data(), 3, 3);
  EXPECT_EQ(img, (std::vector<std::uint16_t>{4, 8, 10,    // (0+4+4+8)/4, (4+8+8+13)/4, (8+13)/2
                                             3, 6, 8,     // (4+8+1+2)/4, (8+13+2+3)/4, (13+3)/2
                                             1, 2, 3}));  // (1+2)/2, (2+3)/2, unchanged
}

TEST(CambiSpatial, ModeFilterByHand) {
  std::vector<std::uint16_t> img = {5, 1, 5, 9,  //
                                    2, 3, 4, 4,  //
                                    7, 7, 1, 8,  //
                                    6, 6, 6, 6};
  std::vector<std::uint16_t> rows(12);
  std::vector<unsigned> order;
  cambi::mode_filter(img.data(), 4, 4, rows.data(), [&](unsigned i, const std::uint16_t* row) {
    EXPECT_EQ(row, img.data() + 4 * i);
    order.push_back(i);
  });
  EXPECT_EQ(order, (std::vector<unsigned>{0, 1, 2, 3}));
  // Horizontal modes (ends kept): 5 5 1 9 | 2 2 4 4 | 7 7 1 8 | 6 6 6 6;
  // vertical modes of those on the middle rows, first and last rows kept.
  EXPECT_EQ(img, (std::vector<std::uint16_t>{5, 1, 5, 9,  //
                                             2, 2, 1, 4,  //
                                             2, 2, 1, 4,  //
                                             6, 6, 6, 6}));
}

TEST(CambiSpatial, FlatnessMask) {
  // A constant picture is flat everywhere (the corners see 16 flat pixels
  // of their 7x7 neighbourhood, more than 7).
  const unsigned w = 20;
  const unsigned h = 12;
  std::vector<std::uint16_t> img(w * h, 100);
  std::vector<std::uint8_t> mask(w * h, 9);
  std::vector<std::uint8_t> scratch(8 * w + 8);
  const cambi::MaskScratch ms{scratch.data(), scratch.data() + 7 * w};
  cambi::flatness_mask(img.data(), w, h, 7, mask.data(), ms);
  EXPECT_TRUE(std::all_of(mask.begin(), mask.end(), [](std::uint8_t m) { return m == 1; }));
  // In a checkerboard only the bottom-right pixel has zero derivative (it
  // has neither neighbour): with threshold 0 the 4x4 pixels that see it
  // are flat, with any other none.
  for (unsigned y = 0; y < h; ++y) {
    for (unsigned x = 0; x < w; ++x) img[y * w + x] = static_cast<std::uint16_t>((x + y) % 2);
  }
  cambi::flatness_mask(img.data(), w, h, 1, mask.data(), ms);
  EXPECT_TRUE(std::all_of(mask.begin(), mask.end(), [](std::uint8_t m) { return m == 0; }));
  cambi::flatness_mask(img.data(), w, h, 0, mask.data(), ms);
  for (unsigned y = 0; y < h; ++y) {
    for (unsigned x = 0; x < w; ++x) {
      EXPECT_EQ(mask[y * w + x], x + 4 >= w && y + 4 >= h ? 1 : 0) << x << "," << y;
    }
  }
}

TEST(CambiSpatial, Decimate) {
  std::vector<std::uint16_t> img = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15};  // 5x3
  cambi::decimate(img.data(), 5, 3, img.data());
  EXPECT_EQ(std::vector<std::uint16_t>(img.begin(), img.begin() + 6),
            (std::vector<std::uint16_t>{1, 3, 5, 11, 13, 15}));
}

TEST(CambiWindow, CountsMatchDirectCounting) {
  // Random rows of a few codes (and uncoded pixels), slid through a window:
  // after every step the counts equal a direct count.
  std::mt19937 rng(3);
  for (unsigned w : {1U, 7U, 40U, 67U}) {
    for (unsigned radius : {1U, 3U, 8U}) {
      const unsigned h = 30;
      const unsigned band = 5;
      std::vector<std::uint16_t> codes(std::size_t{w} * h);
      for (auto& c : codes) {
        const unsigned pick = rng() % 8;
        c = pick < band ? static_cast<std::uint16_t>(pick) : cambi::kNoCode;
        if (rng() % 3 != 0 && &c != codes.data()) c = *(&c - 1);  // runs
      }
      std::vector<cambi::Run> runs(codes.size());
      std::vector<std::uint32_t> offsets(h + 1);
      std::vector<std::uint16_t> row_codes(w);
      std::vector<std::uint8_t> starts((w + 7) / 8 * 8);
      // Runs from levels and a mask that reproduce the codes.
      std::vector<std::uint16_t> levels(codes.size());
      std::vector<std::uint8_t> mask(codes.size());
      for (std::size_t i = 0; i < codes.size(); ++i) {
        mask[i] = codes[i] != cambi::kNoCode;
        levels[i] = mask[i] ? codes[i] : 0;
      }
      cambi::ContrastTables t;
      t.band_base = 0;
      t.band_size = band;
      std::uint32_t n = 0;
      for (unsigned i = 0; i < h; ++i) {
        offsets[i] = n;
        n +=
            cambi::append_runs(levels.data() + std::size_t{i} * w, mask.data() + std::size_t{i} * w,
                               w, t, row_codes.data(), starts.data(), runs.data() + n);
      }
      offsets[h] = n;
      const cambi::CountsLayout layout = cambi::counts_layout(w, radius, band, 1);
      std::vector<std::uint16_t> buffer(layout.size());
      std::uint16_t* counts = buffer.data() + layout.origin();
      auto row = [&](unsigned i) { return cambi::row_runs(runs.data(), offsets.data(), i, w); };
      for (unsigned r = 0; r < radius && r < h; ++r) {
        cambi::update_counts<true>(counts, layout, radius, row(r));
      }
      for (unsigned i = 0; i < h; ++i) {
        const bool leaves = i > radius;
        const bool enters = i + radius < h;
        if (leaves && enters) {
          cambi::replace_counts(counts, layout, radius, row(i - radius - 1), row(i + radius));
        } else if (enters) {
          cambi::update_counts<true>(counts, layout, radius, row(i + radius));
        } else if (leaves) {
          cambi::update_counts<false>(counts, layout, radius, row(i - radius - 1));
        }
        for (unsigned q = 0; q < band; ++q) {
          for (unsigned c = 0; c < w; ++c) {
            int direct = 0;
            for (unsigned y = i > radius ? i - radius : 0; y <= std::min(i + radius, h - 1); ++y) {
              for (unsigned x = c > radius ? c - radius : 0; x <= std::min(c + radius, w - 1);
                   ++x) {
                direct += codes[std::size_t{y} * w + x] == q;
              }
            }
            ASSERT_EQ(counts[q * layout.stride + c], direct)
                << "w " << w << " radius " << radius << " row " << i << " code " << q << " col "
                << c;
          }
        }
      }
    }
  }
}

TEST(CambiPooling, TopkCountAndSums) {
  EXPECT_EQ(cambi::topk_count(10, 0.6), 6U);
  EXPECT_EQ(cambi::topk_count(10, 0.0001), 1U);
  EXPECT_EQ(cambi::topk_count(2073600, 0.6), 1244160U);
  std::mt19937 rng(11);
  std::vector<std::uint32_t> low(cambi::kLowCounts);
  for (int trial = 0; trial < 20; ++trial) {
    std::vector<float> values(1000 + rng() % 3000);
    for (float& v : values) {
      // Zeros, and floats of at least 0.5 with many ties, as contrast values are.
      v = rng() % 3 == 0 ? 0.0f
                         : static_cast<float>(1 + rng() % 9) * static_cast<float>(1 + rng() % 500) *
                               (1.0f / static_cast<float>(2 + rng() % 300));
      v = std::max(v, 0.5f);
    }
    const std::size_t k = 1 + rng() % values.size();
    std::vector<float> sorted = values;
    std::sort(sorted.begin(), sorted.end(), std::greater<>());
    double expected = 0;
    for (std::size_t i = 0; i < k; ++i) expected += sorted[i];
    EXPECT_EQ(cambi::largest_sum(values, k, low), expected);
    std::vector<float> selected = values;
    cambi::select_largest(selected, k);
    std::vector<float> first(selected.begin(), selected.begin() + static_cast<std::ptrdiff_t>(k));
    std::sort(first.begin(), first.end(), std::greater<>());
    EXPECT_TRUE(std::equal(first.begin(), first.end(), sorted.begin()));
  }
}

// ---------------------------------------------------------------------------
// The extractor

TEST(Cambi, ConstantPictureScoresZero) {
  const Picture pic = make_picture(format(320, 240, 8), [](unsigned, unsigned) { return 90U; });
  EXPECT_EQ(run_frame({}, pic, pic).at("cambi"), 0.0);
}

TEST(Cambi, MatchesTheDefinition) {
  struct Case {
    unsigned w, h, bpc;
    ChromaFormat chroma;
    OptionMap options;
    double base = 60.0;  // of the gradient, in 8-bit levels
  };
  const Case cases[] = {
      {240, 136, 8, ChromaFormat::k420, {}},
      {231, 217, 8, ChromaFormat::k444, {}},  // odd sizes
      {240, 136, 10, ChromaFormat::k422, {}},
      {240, 136, 12, ChromaFormat::k420, {}},
      {240, 136, 16, ChromaFormat::k400, {}},
      {240, 136, 9, ChromaFormat::k420, {{"max_log_contrast", "4"}}},
      // One level apart: visible below level 178 only.
      {240, 136, 10, ChromaFormat::k420, {{"max_log_contrast", "0"}, {"topk", "1"}}, 30.0},
      {240, 136, 10, ChromaFormat::k420, {{"cambi_vis_lum_threshold", "0.06"}, {"eotf", "pq"}}},
      // tvi 0.1: steps are visible below level 150 (10-bit) only.
      {300, 120, 8, ChromaFormat::k420, {{"window_size", "127"}, {"tvi_threshold", "0.1"}}, 20.0},
  };
  unsigned seed = 1;
  for (const Case& c : cases) {
    const PictureFormat fmt = format(c.w, c.h, c.bpc, c.chroma);
    const Picture pic = banded_picture(fmt, seed++, c.base);
    cambi::Params p;
    if (c.options.count("max_log_contrast") != 0) {
      p.max_log_contrast = static_cast<unsigned>(std::stoi(c.options.at("max_log_contrast")));
    }
    if (c.options.count("topk") != 0) p.topk = std::stod(c.options.at("topk"));
    if (c.options.count("cambi_vis_lum_threshold") != 0) {
      p.vis_lum_threshold = std::stod(c.options.at("cambi_vis_lum_threshold"));
    }
    if (c.options.count("eotf") != 0) p.eotf = Eotf::kPq;
    if (c.options.count("window_size") != 0) {
      p.window_size = static_cast<unsigned>(std::stoi(c.options.at("window_size")));
    }
    if (c.options.count("tvi_threshold") != 0)
      p.tvi_threshold = std::stod(c.options.at("tvi_threshold"));
    const double expected = reference_score(pic.plane(0), c.w, c.h, c.bpc, p);
    const auto got = run_frame(c.options, pic, pic);
    ASSERT_EQ(got.size(), 1U);
    EXPECT_EQ(got.begin()->second, expected) << c.w << "x" << c.h << " " << c.bpc << "-bit";
    EXPECT_GT(expected, 0.0) << c.w << "x" << c.h << " " << c.bpc << "-bit";
  }
}

TEST(Cambi, FullReferenceOutputs) {
  const PictureFormat fmt = format(240, 136, 8);
  const Picture banded = banded_picture(fmt, 5);
  const Picture smooth = make_picture(fmt, [](unsigned, unsigned) { return 120U; });
  const auto same = run_frame({{"full_ref", "true"}}, banded, banded);
  EXPECT_EQ(same.at("cambi_source"), same.at("cambi"));
  EXPECT_EQ(same.at("cambi_full_reference"), 0.0);
  const auto worse = run_frame({{"full_ref", "true"}}, smooth, banded);
  EXPECT_EQ(worse.at("cambi_source"), 0.0);
  EXPECT_EQ(worse.at("cambi_full_reference"), worse.at("cambi"));
  const auto better = run_frame({{"full_ref", "true"}}, banded, smooth);
  EXPECT_EQ(better.at("cambi_full_reference"), 0.0);  // max(0, dist - source)
  // cambi_max_val clips every output.
  const auto clipped =
      run_frame({{"full_ref", "true"}, {"cambi_max_val", "0.001"}}, smooth, banded);
  EXPECT_EQ(clipped.at("cambi_cmxv_0.001"), 0.001);
  EXPECT_EQ(clipped.at("cambi_full_reference"), 0.001);
}

TEST(Cambi, EncodingSizeAndDepth) {
  // enc_width/enc_height smaller than the picture: the picture is sampled
  // down to it first; larger: ignored. enc_bitdepth below 10 averages away
  // dither.
  const PictureFormat fmt = format(480, 272, 10);
  const Picture pic = banded_picture(fmt, 9);
  const double full = run_frame({}, pic, pic).at("cambi");
  const double down = run_frame({{"enc_width", "240"}, {"enc_height", "180"}}, pic, pic)
                          .at("cambi_ench_180_encw_240");
  const double up = run_frame({{"enc_width", "960"}, {"enc_height", "544"}}, pic, pic)
                        .at("cambi_ench_544_encw_960");
  EXPECT_EQ(up, full);
  EXPECT_NE(down, full);
  const double dithered = run_frame({{"enc_bitdepth", "8"}}, pic, pic).at("cambi_encbd_8");
  EXPECT_NE(dithered, full);
}

TEST(Cambi, Heatmaps) {
  const auto dir = std::filesystem::temp_directory_path() / "vqx_cambi_heatmaps_test" / "sub";
  std::filesystem::remove_all(dir.parent_path());
  const PictureFormat fmt = format(240, 136, 8);
  const Picture pic = banded_picture(fmt, 2);
  const ExtractorSpec spec = spec_for({{"heatmaps_path", dir.string()}});
  EXPECT_TRUE(spec.temporal);  // one instance owns the files
  EXPECT_EQ(spec.outputs.at(0).name, "cambi");
  auto ex = spec.make();
  ASSERT_TRUE(ex->init(fmt).ok());
  MapWriter out;
  ASSERT_TRUE(ex->extract(pic, pic, 0, out).ok());
  ASSERT_TRUE(ex->extract(pic, pic, 1, out).ok());
  ASSERT_TRUE(ex->flush(out).ok());
  const char* names[] = {
      "cambi_heatmap_scale_0_240x136_16b.gray", "cambi_heatmap_scale_1_120x68_16b.gray",
      "cambi_heatmap_scale_2_60x34_16b.gray", "cambi_heatmap_scale_3_30x17_16b.gray",
      "cambi_heatmap_scale_4_15x9_16b.gray"};
  unsigned w = 240;
  unsigned h = 136;
  for (const char* name : names) {
    const auto file = dir / name;
    ASSERT_TRUE(std::filesystem::exists(file)) << file;
    EXPECT_EQ(std::filesystem::file_size(file), 2U * 2 * w * h) << name;  // 2 frames
    w = (w + 1) / 2;
    h = (h + 1) / 2;
  }
  std::filesystem::remove_all(dir.parent_path());
}

TEST(Cambi, RefusesWhatLibvmafCannotCompute) {
  Status s;
  // Both sides below 216 (the corpus's 176x144 pair): libvmaf writes nothing.
  const Picture tiny = make_picture(format(176, 144, 8), [](unsigned, unsigned) { return 60U; });
  run_frame({}, tiny, tiny, &s);
  EXPECT_FALSE(s.ok());
  EXPECT_NE(s.message().find("176x144"), std::string::npos) << s.message();
  EXPECT_NE(s.message().find("216"), std::string::npos) << s.message();
  // One side of 216 is enough.
  const Picture wide = make_picture(format(216, 100, 8), [](unsigned, unsigned) { return 60U; });
  run_frame({}, wide, wide, &s);
  EXPECT_TRUE(s.ok()) << s.message();
  // So thin that the smallest scale is narrower than half the window.
  const Picture strip = make_picture(format(1920, 100, 8), [](unsigned, unsigned) { return 60U; });
  run_frame({}, strip, strip, &s);
  EXPECT_FALSE(s.ok());
  EXPECT_NE(s.message().find("1920x100"), std::string::npos) << s.message();
  // A window too large for libvmaf's reciprocal table: 127 scaled to
  // (2400 + 900) / 6000 is 69 pixels (35 with the speed-up).
  const Picture pic = make_picture(format(2400, 900, 8), [](unsigned, unsigned) { return 60U; });
  run_frame({{"window_size", "127"}}, pic, pic, &s);
  EXPECT_FALSE(s.ok());
  run_frame({{"window_size", "127"}, {"cambi_high_res_speedup", "1080"}}, pic, pic, &s);
  EXPECT_TRUE(s.ok()) << s.message();
  // A sample out of range for the depth.
  const Picture bad =
      make_picture(format(240, 136, 10), [](unsigned x, unsigned) { return x == 7 ? 1500U : 60U; });
  run_frame({}, bad, bad, &s);
  EXPECT_FALSE(s.ok());
}

TEST(CambiSpec, NamesAndFlags) {
  const ExtractorSpec plain = spec_for({});
  EXPECT_EQ(plain.family, "cambi");
  EXPECT_FALSE(plain.temporal);  // no state from frame to frame
  ASSERT_EQ(plain.outputs.size(), 1U);
  EXPECT_EQ(plain.outputs[0].base, "cambi");
  EXPECT_EQ(plain.outputs[0].name, "cambi");
  // The vmaf_v1.0.16 models' options, by name and by alias.
  const ExtractorSpec model = spec_for({{"cambi_high_res_speedup", "1080"},
                                        {"cambi_max_val", "17"},
                                        {"cambi_vis_lum_threshold", "0.06"}});
  EXPECT_EQ(model.outputs[0].name, "cambi_hrs_1080_cmxv_17_vlt_0.06");
  EXPECT_EQ(spec_for({{"hrs", "1080"}, {"cmxv", "17.0"}, {"vlt", "0.06"}}).key, model.key);
  // full_ref adds two outputs that libvmaf names without the suffix.
  const ExtractorSpec full = spec_for({{"full_ref", "true"}, {"topk", "0.5"}, {"eotf", "pq"}});
  ASSERT_EQ(full.outputs.size(), 3U);
  EXPECT_EQ(full.outputs[0].name, "cambi_eotf_pq_topk_0.5");
  EXPECT_EQ(full.outputs[1].name, "cambi_source");
  EXPECT_EQ(full.outputs[2].name, "cambi_full_reference");
  EXPECT_EQ(spec_for({{"window_size", "33"}, {"max_log_contrast", "3"}, {"tvi_threshold", "0.02"}})
                .outputs[0]
                .name,
            "cambi_mlc_3_tvit_0.02_ws_33");
  ASSERT_EQ(cambi_family().provides.size(), 1U);
  EXPECT_STREQ(cambi_family().provides[0].model_name, "Cambi_feature_cambi_score");
  EXPECT_STREQ(cambi_family().provides[0].base, "cambi");
}

TEST(CambiSpec, OptionPrecedence) {
  // A non-default topk wins over cambi_topk, a non-default cambi_eotf over eotf.
  const PictureFormat fmt = format(240, 136, 8);
  const Picture pic = banded_picture(fmt, 4);
  const double topk = run_frame({{"topk", "0.2"}}, pic, pic).at("cambi_topk_0.2");
  EXPECT_EQ(
      run_frame({{"topk", "0.2"}, {"cambi_topk", "0.9"}}, pic, pic).at("cambi_ctpk_0.9_topk_0.2"),
      topk);
  EXPECT_EQ(run_frame({{"cambi_topk", "0.2"}}, pic, pic).at("cambi_ctpk_0.2"), topk);
  const double pq = run_frame({{"eotf", "pq"}}, pic, pic).at("cambi_eotf_pq");
  EXPECT_EQ(run_frame({{"cambi_eotf", "pq"}, {"eotf", "bt1886"}}, pic, pic).at("cambi_ceot_pq"),
            pq);
}

TEST(CambiSpec, RejectsBadOptions) {
  const OptionMap bad[] = {
      {{"enc_width", "100"}},      {{"enc_height", "0"}},
      {{"window_size", "13"}},     {{"topk", "0"}},
      {{"max_log_contrast", "6"}}, {{"cambi_max_val", "1001"}},
      {{"eotf", "hlg"}},           {{"cambi_eotf", "srgb"}},
      {{"full_ref", "yes"}},       {{"cambi_vis_lum_threshold", "301"}},
      {{"no_such_option", "1"}},
  };
  for (const OptionMap& o : bad) {
    EXPECT_FALSE(cambi_family().make_spec(o).ok()) << o.begin()->first;
  }
}

}  // namespace
}  // namespace vqx
