// Samples above the declared bit depth given through the API (issue 11,
// item 3): Context::read_pictures refuses them for every family, naming the
// frame, the picture, the plane and the depth, before any family reads
// them. Before, only CAMBI refused them; psnr_hvs overflowed a signed
// integer (UBSan) and the others returned plausible garbage.
#include <gtest/gtest.h>

#include <atomic>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <memory>
#include <optional>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include "context_run.hpp"
#include "core/family.hpp"
#include "core/picture_internals.hpp"
#include "engine/sample_range.hpp"
#include "metrics/registry.hpp"
#include "vqx/video_reader.hpp"
#include "vqx/vqx.hpp"

namespace vqx {
namespace {

bool contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

void set_sample(Picture& pic, unsigned p, unsigned x, unsigned y, std::uint32_t v) {
  Plane& pl = pic.plane(p);
  if (pl.bytes_per_sample() == 1) {
    pl.row<std::uint8_t>(y)[x] = static_cast<std::uint8_t>(v);
  } else {
    pl.row<std::uint16_t>(y)[x] = static_cast<std::uint16_t>(v);
  }
}

// The largest depth a family takes (psnr_hvs: 12, as libvmaf).
unsigned deepest(const ExtractorFamily& f) { return std::string(f.name) == "psnr_hvs" ? 12 : 15; }

TEST(SampleRange, EveryFamilyGetsAnErrorForASampleAboveTheDepth) {
  for (const ExtractorFamily* f : all_families()) {
    for (unsigned bpc : {9U, 10U, 12U, deepest(*f)}) {
      SCOPED_TRACE(std::string(f->name) + " at " + std::to_string(bpc) + " bits");
      const PictureFormat fmt{224, 224, bpc, ChromaFormat::k420};
      const testutil::FrameSource frames = testutil::noisy_frames(fmt, 5);
      auto ctx = Context::create({.backend = Backend::kCpu}).value();
      ASSERT_TRUE(ctx->use_feature(f->name).ok());
      auto [ref0, dist0] = frames(0);
      const Status first = ctx->read_pictures(std::move(ref0), std::move(dist0), 0);
      ASSERT_TRUE(first.ok()) << first.message();

      const std::uint32_t max = (1U << bpc) - 1;
      struct Bad {
        bool in_reference;
        unsigned plane, x, y;
        std::uint32_t value;
      };
      for (const Bad& bad : {Bad{false, 0, 17, 4, max + 1}, Bad{true, 1, 111, 0, 0xffff},
                             Bad{false, 2, 0, 111, max + 1}, Bad{true, 0, 223, 223, max + 1}}) {
        auto [ref, dist] = frames(1);
        set_sample(bad.in_reference ? ref : dist, bad.plane, bad.x, bad.y, bad.value);
        const Status s = ctx->read_pictures(std::move(ref), std::move(dist), 1);
        EXPECT_EQ(s.code(), Errc::kInvalidArgument) << s.message();
        const std::string where =
            std::string("frame 1: the ") + (bad.in_reference ? "reference" : "distorted") +
            " picture has a sample " + std::to_string(bad.value) + " at (" + std::to_string(bad.x) +
            ", " + std::to_string(bad.y) + ") of plane " + std::to_string(bad.plane) + " (";
        EXPECT_TRUE(contains(s.message(), where)) << s.message();
        EXPECT_TRUE(contains(s.message(), "above the " + std::to_string(bpc) + "-bit maximum " +
                                              std::to_string(max)))
            << s.message();
      }
      // Refused before any family saw it: the context goes on.
      auto [ref1, dist1] = frames(1);
      const Status good = ctx->read_pictures(std::move(ref1), std::move(dist1), 1);
      EXPECT_TRUE(good.ok()) << good.message();
      const Status flushed = ctx->flush();
      EXPECT_TRUE(flushed.ok()) << flushed.message();
    }
  }
}

TEST(SampleRange, EveryValueIsWithinEightAndSixteenBits) {
  for (unsigned bpc : {8U, 16U}) {
    const PictureFormat fmt{64, 48, bpc, ChromaFormat::k444};
    auto all_max = [&](unsigned) {
      Picture ref = Picture::make(fmt).value();
      Picture dist = Picture::make(fmt).value();
      for (unsigned p = 0; p < 3; ++p) {
        for (unsigned y = 0; y < fmt.height; ++y) {
          for (unsigned x = 0; x < fmt.width; ++x) set_sample(ref, p, x, y, (1U << bpc) - 1);
        }
      }
      return std::make_pair(std::move(ref), std::move(dist));
    };
    const auto v = testutil::run_context({"f psnr"}, all_max, 2);
    ASSERT_TRUE(v.ok()) << v.status().message();
    EXPECT_EQ(v->frames.at("psnr_y")[1], 0.0) << bpc;  // every sample off by the whole range
  }
}

TEST(SampleRange, AMonochromePictureNamesItsLuma) {
  const PictureFormat fmt{32, 16, 10, ChromaFormat::k400};
  auto ctx = Context::create({.backend = Backend::kCpu}).value();
  ASSERT_TRUE(ctx->use_feature("float_psnr").ok());
  Picture ref = Picture::make(fmt).value();
  Picture dist = Picture::make(fmt).value();
  set_sample(dist, 0, 31, 15, 1024);
  EXPECT_EQ(ctx->read_pictures(std::move(ref), std::move(dist), 0).message(),
            "frame 0: the distorted picture has a sample 1024 at (31, 15) of plane 0 (Y), above "
            "the 10-bit maximum 1023");
}

TEST(SampleRange, AReadersCheckIsKeptUntilThePictureIsWritten) {
  // A raw 10-bit file: the reader checks while copying and notes it on the
  // picture, so the context does not check again; writing to a plane
  // clears the note.
  const auto path = std::filesystem::temp_directory_path() / "vqx_sample_range_test.yuv";
  {
    std::FILE* f = std::fopen(path.c_str(), "wb");
    ASSERT_NE(f, nullptr);
    const std::uint16_t samples[8 * 2 + 4 * 2] = {};
    ASSERT_EQ(std::fwrite(samples, sizeof samples, 1, f), 1U);
    std::fclose(f);
  }
  auto reader = open_raw(path.string(), {8, 2, 10, ChromaFormat::k420});
  ASSERT_TRUE(reader.ok()) << reader.status().message();
  Picture pic;
  ASSERT_TRUE((*reader)->read(pic).value());
  EXPECT_TRUE(detail::PictureInternals::samples_checked(pic));
  const Picture& read_only = pic;
  EXPECT_EQ(read_only.plane(0).at(0, 0), 0U);
  EXPECT_TRUE(detail::PictureInternals::samples_checked(pic));  // reading keeps it
  Picture moved = std::move(pic);
  EXPECT_TRUE(detail::PictureInternals::samples_checked(moved));
  moved.plane(0).row<std::uint16_t>(0)[0] = 4000;
  EXPECT_FALSE(detail::PictureInternals::samples_checked(moved));
  EXPECT_FALSE(detail::PictureInternals::samples_checked(Picture::make(moved.format()).value()));
  std::filesystem::remove(path);
}

// Helpers as plain threads, counting the shares they ran.
class ThreadForkJoin final : public ForkJoin {
 public:
  explicit ThreadForkJoin(unsigned helpers) : helpers_(helpers) {}
  [[nodiscard]] unsigned helpers() const override { return helpers_; }
  void run(unsigned n, const std::function<void(unsigned)>& piece) const override {
    std::vector<std::thread> threads;
    for (unsigned j = 1; j <= n; ++j) threads.emplace_back(piece, j);
    piece(0);
    for (auto& t : threads) t.join();
    shares_ += n;
  }
  [[nodiscard]] unsigned shares() const { return shares_; }

 private:
  unsigned helpers_;
  mutable std::atomic<unsigned> shares_{0};
};

TEST(SampleRange, TheCheckSharedWithHelpersFindsWhatTheCallersFinds) {
  // 1920x1080 at 10 bits: 12 MB a pair, four shares of rows with three
  // helpers. Bad samples on the shares' first and last rows, in every
  // plane of either picture: the same error as the caller's check alone.
  const PictureFormat fmt{1920, 1080, 10, ChromaFormat::k420};
  const testutil::FrameSource frames = testutil::noisy_frames(fmt, 5);
  const ThreadForkJoin helpers(3);
  {
    auto [ref, dist] = frames(0);
    EXPECT_TRUE(check_sample_range(ref, dist, 0, &helpers).ok());
    EXPECT_EQ(helpers.shares(), 3U);
  }
  struct Bad {
    bool in_reference;
    unsigned plane, x, y;
  };
  for (const Bad& bad : {Bad{true, 0, 0, 0}, Bad{false, 0, 1919, 269}, Bad{false, 0, 5, 270},
                         Bad{true, 1, 959, 539}, Bad{false, 2, 3, 135}, Bad{true, 2, 7, 134}}) {
    auto [ref, dist] = frames(1);
    set_sample(bad.in_reference ? ref : dist, bad.plane, bad.x, bad.y, 1024);
    const Status alone = check_sample_range(ref, dist, 1);
    const Status shared = check_sample_range(ref, dist, 1, &helpers);
    EXPECT_EQ(alone.code(), Errc::kInvalidArgument);
    EXPECT_TRUE(contains(alone.message(), "(" + std::to_string(bad.x) + ", " +
                                              std::to_string(bad.y) + ") of plane " +
                                              std::to_string(bad.plane)))
        << alone.message();
    EXPECT_EQ(shared.message(), alone.message());
  }
  // Both pictures bad: the reference is named, as the caller's check does.
  auto [ref, dist] = frames(1);
  set_sample(dist, 0, 1, 1, 1024);
  set_sample(ref, 2, 900, 500, 2000);
  EXPECT_TRUE(contains(check_sample_range(ref, dist, 1, &helpers).message(),
                       "the reference picture has a sample 2000 at (900, 500) of plane 2"));
}

}  // namespace
}  // namespace vqx
