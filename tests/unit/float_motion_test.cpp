// Unit tests of the float motion extractor ("float_motion") and of the
// shared float convolution it uses: the blur on hand-checkable pictures,
// the extractor's scores and which frame gets which value, bit depths,
// options, names and errors.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "core/zeroed_memory.hpp"
#include "metrics/families.hpp"
#include "metrics/float_common/convert.hpp"
#include "metrics/float_common/convolve.hpp"
#include "metrics/float_motion/params.hpp"
#include "test_util.hpp"

namespace vqx {
namespace {

using float_common::FloatImage;

// ---------------------------------------------------------------------------
// Helpers

using testutil::format;
using testutil::make_picture_per_plane;
using testutil::RecordingWriter;
using testutil::resident_bytes;
using testutil::set_sample;
using testutil::slot_of;
using testutil::grey_chroma::flat_picture;
using testutil::grey_chroma::make_picture;

ExtractorSpec spec_for(const OptionMap& options) {
  return testutil::spec_for(float_motion_family(), options);
}

// Runs an extractor over `frames` (as reference and distorted) and flushes.
RecordingWriter run(const ExtractorSpec& spec, const std::vector<Picture>& frames) {
  RecordingWriter out;
  auto ex = spec.make();
  EXPECT_TRUE(ex->init(frames.at(0).format()).ok());
  for (unsigned i = 0; i < frames.size(); ++i) {
    const Status st = ex->extract(frames[i], frames[i], i, out);
    EXPECT_TRUE(st.ok()) << st.message();
  }
  EXPECT_TRUE(ex->flush(out).ok());
  return out;
}

// A flat plane of value c after the 5-tap blur: each pass a float sum
// from 0 of tap * value, as libvmaf computes it.
float blurred_flat(float c) {
  float v = 0;
  for (float t : float_motion::kFilter5) v += t * c;
  float h = 0;
  for (float t : float_motion::kFilter5) h += t * v;
  return h;
}

// ---------------------------------------------------------------------------
// The shared convolution

TEST(FloatCommonConvolution, ReflectMirrorsWithoutRepeatingTheEdge) {
  EXPECT_EQ(float_common::reflect(-1, 5), 1);
  EXPECT_EQ(float_common::reflect(-2, 5), 2);
  EXPECT_EQ(float_common::reflect(0, 5), 0);
  EXPECT_EQ(float_common::reflect(4, 5), 4);
  EXPECT_EQ(float_common::reflect(5, 5), 3);
  EXPECT_EQ(float_common::reflect(6, 5), 2);
  EXPECT_EQ(float_common::min_side_for_taps(5), 3U);
  EXPECT_EQ(float_common::min_side_for_taps(17), 9U);
}

TEST(FloatCommonConvolution, ImpulseGivesTheOuterProductOfTheTaps) {
  const std::vector<float> taps = {0.25f, 0.5f, 0.25f};
  FloatImage src;
  FloatImage dst;
  src.resize(7, 6);
  dst.resize(7, 6);
  for (unsigned y = 0; y < 6; ++y) {
    for (unsigned x = 0; x < 7; ++x) src.row(y)[x] = 0.0f;
  }
  src.row(3)[3] = 16.0f;
  std::vector<float> scratch(float_common::filter_scratch_size(7, 3));
  float_common::filter_image(taps, src, dst, scratch);
  for (unsigned y = 0; y < 6; ++y) {
    for (unsigned x = 0; x < 7; ++x) {
      const int dy = std::abs(static_cast<int>(y) - 3);
      const int dx = std::abs(static_cast<int>(x) - 3);
      const float expect = (dy > 1 || dx > 1) ? 0.0f : 16.0f * taps[1 + dy] * taps[1 + dx];
      EXPECT_EQ(dst.row(y)[x], expect) << x << "," << y;
    }
  }
}

TEST(FloatCommonConvolution, EdgesAreMirrored) {
  // An impulse in the corner: the mirror puts its image at -1 -> 1, so
  // sample (1, 0) collects the tap at distance 1 from both sides.
  const std::vector<float> taps = {0.25f, 0.5f, 0.25f};
  FloatImage src;
  FloatImage dst;
  src.resize(5, 4);
  dst.resize(5, 4);
  for (unsigned y = 0; y < 4; ++y) {
    for (unsigned x = 0; x < 5; ++x) src.row(y)[x] = 0.0f;
  }
  src.row(0)[1] = 8.0f;
  std::vector<float> scratch(float_common::filter_scratch_size(5, 3));
  float_common::filter_image(taps, src, dst, scratch);
  EXPECT_EQ(dst.row(0)[0], 8.0f * 0.5f * (0.25f + 0.25f));
  EXPECT_EQ(dst.row(1)[1], 8.0f * 0.25f * 0.5f);
  EXPECT_EQ(dst.row(0)[1], 8.0f * 0.5f * 0.5f);
  // Row -1 mirrors to row 1, so an impulse on row 1 reaches row 0 twice.
  src.row(0)[1] = 0.0f;
  src.row(1)[0] = 8.0f;
  float_common::filter_image(taps, src, dst, scratch);
  EXPECT_EQ(dst.row(0)[0], 8.0f * (0.25f + 0.25f) * 0.5f);
}

TEST(FloatCommonConvolution, SamplesAreCentredAndScaledTo8Bits) {
  for (unsigned bpc : {8U, 9U, 10U, 12U, 16U}) {
    const PictureFormat fmt = format(3, 2, bpc);
    const std::uint32_t scale = 1U << (bpc - 8);
    Picture pic = make_picture(fmt, [&](unsigned x, unsigned y) { return (x + 10 * y) * scale; });
    FloatImage out;
    out.resize(3, 2);
    float_common::plane_to_float(pic.plane(0), bpc, out);
    EXPECT_EQ(out.row(0)[0], -128.0f) << bpc;
    EXPECT_EQ(out.row(1)[2], 12.0f - 128.0f) << bpc;
  }
}

// ---------------------------------------------------------------------------
// Scores

TEST(FloatMotion, FlatFramesScoreTheirBlurredDifference) {
  const PictureFormat fmt = format(16, 12, 8);
  std::vector<Picture> frames;
  for (std::uint32_t v : {100U, 110U, 130U, 135U}) frames.push_back(flat_picture(fmt, v));
  const ExtractorSpec spec = spec_for({});
  const RecordingWriter out = run(spec, frames);
  const std::size_t m = slot_of(spec, "motion");
  const std::size_t m2 = slot_of(spec, "motion2");
  const std::size_t m3 = slot_of(spec, "motion3");

  // s(t), the mean of |blur(v_t) - blur(v_{t-1})| over a flat plane, is
  // the step (to float rounding).
  const double s1 = out.get(m, 1);
  const double s2 = out.get(m, 2);
  const double s3 = out.get(m, 3);
  const double d1 = std::fabs(blurred_flat(110 - 128) - blurred_flat(100 - 128));
  EXPECT_NEAR(s1, d1, 1e-5 * d1);
  EXPECT_NEAR(s1, 10.0, 1e-4);
  EXPECT_NEAR(s2, 20.0, 1e-4);
  EXPECT_NEAR(s3, 5.0, 1e-4);
  EXPECT_EQ(out.get(m, 0), 0.0);

  // motion2: the smaller of a frame's score and the next frame's; 0 for
  // the first frame, the last frame's own score at the end.
  EXPECT_EQ(out.get(m2, 0), 0.0);
  EXPECT_EQ(out.get(m2, 1), s1);
  EXPECT_EQ(out.get(m2, 2), s3);
  EXPECT_EQ(out.get(m2, 3), s3);
  // motion3 with the default blend (factor 1): motion2, except frame 0,
  // which gets s(1).
  EXPECT_EQ(out.get(m3, 0), s1);
  EXPECT_EQ(out.get(m3, 1), s1);
  EXPECT_EQ(out.get(m3, 2), s3);
  EXPECT_EQ(out.get(m3, 3), s3);
}

TEST(FloatMotion, IdenticalFramesScoreZero) {
  const PictureFormat fmt = format(20, 10, 8);
  std::mt19937 rng(7);
  Picture a = make_picture(fmt, [&](unsigned, unsigned) { return rng() % 256; });
  std::vector<Picture> frames;
  for (int i = 0; i < 3; ++i) {
    Picture p = Picture::make(fmt).value();
    for (unsigned y = 0; y < fmt.height; ++y) {
      for (unsigned x = 0; x < fmt.width; ++x) set_sample(p.plane(0), x, y, a.plane(0).at(x, y));
    }
    frames.push_back(std::move(p));
  }
  const ExtractorSpec spec = spec_for({});
  const RecordingWriter out = run(spec, frames);
  for (const auto& e : out.entries) EXPECT_EQ(e.value, 0.0);
  EXPECT_EQ(out.entries.size(), 9U);
}

TEST(FloatMotion, NoOpFilterGivesTheMeanAbsoluteSampleDifference) {
  const PictureFormat fmt = format(9, 7, 8);
  std::mt19937 rng(3);
  std::vector<std::uint32_t> a(63);
  std::vector<std::uint32_t> b(63);
  for (auto& v : a) v = rng() % 256;
  for (auto& v : b) v = rng() % 256;
  std::vector<Picture> frames;
  frames.push_back(make_picture(fmt, [&](unsigned x, unsigned y) { return a[y * 9 + x]; }));
  frames.push_back(make_picture(fmt, [&](unsigned x, unsigned y) { return b[y * 9 + x]; }));
  const ExtractorSpec spec = spec_for({{"motion_filter_size", "1"}});
  const RecordingWriter out = run(spec, frames);
  double sum = 0;
  for (int i = 0; i < 63; ++i) sum += std::abs(static_cast<int>(a[i]) - static_cast<int>(b[i]));
  EXPECT_NEAR(out.get(slot_of(spec, "motion"), 1), sum / 63, 1e-5);
}

TEST(FloatMotion, DeeperSamplesOfTheSameValuesScoreTheSame) {
  // 8-bit v and (v << (bpc - 8)) are the same float sample.
  std::mt19937 rng(11);
  std::vector<std::uint32_t> base(3 * 30 * 20);
  for (auto& v : base) v = rng() % 256;
  std::vector<double> first;
  for (unsigned bpc : {8U, 9U, 10U, 12U, 16U}) {
    const PictureFormat fmt = format(30, 20, bpc);
    std::vector<Picture> frames;
    for (unsigned t = 0; t < 3; ++t) {
      frames.push_back(make_picture(
          fmt, [&](unsigned x, unsigned y) { return base[t * 600 + y * 30 + x] << (bpc - 8); }));
    }
    const RecordingWriter out = run(spec_for({}), frames);
    std::vector<double> values;
    for (const auto& e : out.entries) values.push_back(e.value);
    if (first.empty()) {
      first = values;
    } else {
      EXPECT_EQ(values, first) << bpc;
    }
  }
}

TEST(FloatMotion, OneFrameAndTwoFrames) {
  const PictureFormat fmt = format(8, 8, 8);
  const ExtractorSpec spec = spec_for({});
  {
    std::vector<Picture> frames;
    frames.push_back(flat_picture(fmt, 50));
    const RecordingWriter out = run(spec, frames);
    EXPECT_EQ(out.get(slot_of(spec, "motion2"), 0), 0.0);
    EXPECT_EQ(out.get(slot_of(spec, "motion3"), 0), 0.0);
    EXPECT_EQ(out.get(slot_of(spec, "motion"), 0), 0.0);
  }
  {
    std::vector<Picture> frames;
    frames.push_back(flat_picture(fmt, 50));
    frames.push_back(flat_picture(fmt, 60));
    const RecordingWriter out = run(spec, frames);
    const double s1 = out.get(slot_of(spec, "motion"), 1);
    EXPECT_NEAR(s1, 10.0, 1e-4);
    EXPECT_EQ(out.get(slot_of(spec, "motion2"), 1), s1);
    EXPECT_EQ(out.get(slot_of(spec, "motion3"), 1), s1);
    EXPECT_EQ(out.get(slot_of(spec, "motion3"), 0), s1);
  }
}

TEST(FloatMotion, WeightBlendAndClip) {
  const PictureFormat fmt = format(8, 8, 8);
  std::vector<Picture> frames;
  for (std::uint32_t v : {100U, 110U, 120U}) frames.push_back(flat_picture(fmt, v));
  const RecordingWriter base = run(spec_for({}), frames);
  const ExtractorSpec plain = spec_for({});
  const double s1 = base.get(slot_of(plain, "motion"), 1);
  const double s2 = base.get(slot_of(plain, "motion"), 2);

  const ExtractorSpec spec = spec_for({{"motion_fps_weight", "2"},
                                       {"motion_blend_factor", "0.5"},
                                       {"motion_blend_offset", "4"},
                                       {"motion_max_val", "15"}});
  const RecordingWriter out = run(spec, frames);
  const double m2 = s1 < s2 ? s1 : s2;
  EXPECT_EQ(out.get(slot_of(spec, "motion"), 1), 2 * s1 < 15 ? 2 * s1 : 15);
  EXPECT_EQ(out.get(slot_of(spec, "motion2"), 1), 2 * m2 < 15 ? 2 * m2 : 15);
  // blend(x) = 0.5 x + 0.5 min(4, x) of the weighted score: about 12.
  EXPECT_EQ(out.get(slot_of(spec, "motion3"), 1), 2 * m2 * 0.5 + (1 - 0.5) * 4);
  EXPECT_NEAR(out.get(slot_of(spec, "motion3"), 1), 12.0, 1e-3);
}

TEST(FloatMotion, ForceZeroWritesZerosForEveryFrame) {
  const PictureFormat fmt = format(8, 8, 8);
  std::vector<Picture> frames;
  for (std::uint32_t v : {0U, 255U, 0U}) frames.push_back(flat_picture(fmt, v));
  const ExtractorSpec spec = spec_for({{"motion_force_zero", "true"}});
  const RecordingWriter out = run(spec, frames);
  EXPECT_EQ(out.entries.size(), 9U);
  for (const auto& e : out.entries) EXPECT_EQ(e.value, 0.0);
}

TEST(FloatMotion, ChromaAddsItsScores) {
  const PictureFormat fmt = format(12, 10, 8, ChromaFormat::k444);
  std::vector<Picture> frames;
  for (std::uint32_t v : {100U, 110U}) {
    frames.push_back(make_picture_per_plane(
        fmt, [v](unsigned p, unsigned, unsigned) { return p == 0 ? v : v / 2; }));
  }
  const ExtractorSpec spec = spec_for({{"motion_add_uv", "true"}});
  const RecordingWriter out = run(spec, frames);
  // Luma moves by 10, each chroma plane by 5.
  EXPECT_NEAR(out.get(slot_of(spec, "motion"), 1), 20.0, 1e-4);
}

TEST(FloatMotion, HalfScaleAddsItsScore) {
  const PictureFormat fmt = format(12, 10, 8);
  std::vector<Picture> frames;
  for (std::uint32_t v : {100U, 110U}) frames.push_back(flat_picture(fmt, v));
  const ExtractorSpec spec = spec_for({{"motion_add_scale1", "true"}});
  const RecordingWriter out = run(spec, frames);
  EXPECT_NEAR(out.get(slot_of(spec, "motion"), 1), 20.0, 1e-4);
}

TEST(FloatMotion, OddSizesAndTheSmallestPicture) {
  for (unsigned w : {3U, 4U, 5U, 17U}) {
    const PictureFormat fmt = format(w, 3, 8);
    std::vector<Picture> frames;
    frames.push_back(flat_picture(fmt, 10));
    frames.push_back(flat_picture(fmt, 20));
    const ExtractorSpec spec = spec_for({});
    const RecordingWriter out = run(spec, frames);
    EXPECT_NEAR(out.get(slot_of(spec, "motion"), 1), 10.0, 1e-4) << w;
  }
}

// ---------------------------------------------------------------------------
// Names, options and errors

TEST(FloatMotion, OutputNames) {
  const ExtractorSpec spec = spec_for({});
  ASSERT_EQ(spec.outputs.size(), 3U);
  EXPECT_EQ(spec.outputs[0].name, "motion");
  EXPECT_EQ(spec.outputs[1].name, "motion2");
  EXPECT_EQ(spec.outputs[2].name, "motion3");
  EXPECT_TRUE(spec.temporal);

  const ExtractorSpec quiet = spec_for({{"debug", "false"}});
  ASSERT_EQ(quiet.outputs.size(), 2U);
  EXPECT_EQ(quiet.outputs[0].name, "motion2");

  const ExtractorSpec named = spec_for({{"motion_fps_weight", "2"}, {"motion_add_uv", "true"}});
  EXPECT_EQ(named.outputs[1].name, "motion2_mau_mfw_2");
  EXPECT_NE(named.key, spec.key);
}

TEST(FloatMotion, BadOptionsAreRefused) {
  const OptionMap bad[] = {
      {{"motion_filter_size", "10"}},
      {{"motion_fps_weight", "-1"}},
      {{"motion_blend_factor", "x"}},
      {{"no_such_option", "1"}},
  };
  for (const OptionMap& o : bad) {
    const auto spec = float_motion_family().make_spec(o);
    ASSERT_FALSE(spec.ok());
    EXPECT_NE(spec.status().message().find("float_motion"), std::string::npos);
  }
}

TEST(FloatMotion, TooSmallPicturesAndMissingChromaAreRefused) {
  {
    auto ex = spec_for({}).make();
    const Status st = ex->init(format(2, 8, 8));
    ASSERT_FALSE(st.ok());
    EXPECT_NE(st.message().find("float_motion"), std::string::npos);
  }
  {
    auto ex = spec_for({{"motion_filter_size", "3"}}).make();
    EXPECT_TRUE(ex->init(format(2, 2, 8, ChromaFormat::k400)).ok());
  }
  {
    auto ex = spec_for({{"motion_add_uv", "true"}}).make();
    const Status st = ex->init(format(16, 16, 8, ChromaFormat::k400));
    ASSERT_FALSE(st.ok());
    EXPECT_NE(st.message().find("4:0:0"), std::string::npos);
  }
}

TEST(FloatMotion, FramesMustArriveInOrder) {
  const PictureFormat fmt = format(8, 8, 8);
  Picture p = flat_picture(fmt, 1);
  auto ex = spec_for({}).make();
  ASSERT_TRUE(ex->init(fmt).ok());
  RecordingWriter out;
  ASSERT_TRUE(ex->extract(p, p, 0, out).ok());
  EXPECT_FALSE(ex->extract(p, p, 2, out).ok());
}

TEST(FloatMotion, ARunTouchesOnlyTheRingEntriesItHoldsAtOnce) {
  // A context with 16 threads reserves 33 ring entries (2 x threads + the
  // kept one), a blurred float frame each: 274 MB at 1080p, 1.1 GB at 4K.
  // Frames taken one at a time hold two. Before, frame t's entry was t %
  // 33, so 40 frames touched all 33 (the kernel zeroing each on first
  // touch: 3.3 GB and 5.9 s of system time for vmaf_float_v0.6.1 at 4K
  // with 16 threads on a 2-core machine); now the most recently freed
  // entry is taken again.
  if (!large_buffers_are_mapped()) {
    GTEST_SKIP() << "no transparent huge pages here (or an AddressSanitizer build): large buffers "
                    "come from malloc and are zeroed when sized";
  }
  const PictureFormat fmt = format(1920, 1080, 8, ChromaFormat::k400);
  const ExtractorSpec spec = spec_for({});
  auto ex = spec.make();
  ASSERT_TRUE(ex->init(fmt).ok());
  TemporalStages* stages = ex->stages();
  ASSERT_NE(stages, nullptr);
  ASSERT_TRUE(stages->reserve(33, 1).ok());
  const Picture a = flat_picture(fmt, 20);
  const Picture b = flat_picture(fmt, 90);
  RecordingWriter out;
  const std::size_t before = resident_bytes();
  for (unsigned t = 0; t < 40; ++t) {
    FrameWindow w;
    w.index = t;
    w.ref[0] = t % 2 == 0 ? &a : &b;
    w.dist[0] = w.ref[0];
    ASSERT_TRUE(stages->prepare(w, 0).ok());
    ASSERT_TRUE(stages->finish(t, out).ok());
  }
  const double grown_mb = static_cast<double>(resident_bytes() - before) / 1e6;
  // Two entries: 17 MB (8.3 MB a frame).
  EXPECT_LT(grown_mb, 80.0) << "40 frames, one at a time, touched " << grown_mb
                            << " MB of the ring";
  // And the values: the flat frames' blurred difference, 70 for every frame
  // after the first (to float rounding), each frame against its own
  // previous one.
  const std::size_t m = slot_of(spec, "motion");
  EXPECT_EQ(out.get(m, 0), 0.0);
  for (unsigned t : {1U, 2U, 33U, 34U, 39U}) EXPECT_NEAR(out.get(m, t), 70.0, 1e-4) << t;
}

}  // namespace
}  // namespace vqx
