// Every extractor family at once, in several contexts of different sizes on
// several threads, each context with its own worker threads: each context
// gives, bit for bit, what it gives alone on one thread. Written for the
// TSan run of scripts/test.sh (docs/reliability.md), which checks that no
// extractor shares mutable state across instances or contexts.
#include <gtest/gtest.h>

#include <condition_variable>
#include <cstdint>
#include <cstring>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "metrics/registry.hpp"
#include "vqx/vqx.hpp"

namespace vqx {
namespace {

constexpr unsigned kFrames = 5;

void fill(Picture& pic, unsigned frame, unsigned salt) {
  const unsigned max = (1U << pic.bpc()) - 1;
  for (unsigned p = 0; p < pic.plane_count(); ++p) {
    Plane& pl = pic.plane(p);
    for (unsigned y = 0; y < pl.height(); ++y) {
      for (unsigned x = 0; x < pl.width(); ++x) {
        std::uint32_t v = (x * 5 + y * 3 + frame * 7 + p * 11) * 2654435761U;
        v = ((v >> 13) ^ (salt * 97)) & max;
        const unsigned smooth = ((x + frame * 2) * max / (pl.width() + 8) + (v & 15)) & max;
        if (pic.bpc() > 8) {
          pl.row<std::uint16_t>(y)[x] = static_cast<std::uint16_t>(smooth);
        } else {
          pl.row<std::uint8_t>(y)[x] = static_cast<std::uint8_t>(smooth);
        }
      }
    }
  }
}

// Every metric of every frame, with every family and the default model.
std::vector<double> score(const PictureFormat& fmt, unsigned threads) {
  auto created = Context::create({.threads = threads, .backend = Backend::kCpu});
  EXPECT_TRUE(created.ok());
  if (!created.ok()) return {};
  Context& ctx = **created;
  EXPECT_TRUE(ctx.use_features_from_model("version=vmaf_v0.6.1").ok());
  for (const ExtractorFamily* f : all_families()) {
    Status s = ctx.use_feature(f->name);
    EXPECT_TRUE(s.ok()) << f->name << ": " << s.message();
  }
  for (unsigned i = 0; i < kFrames; ++i) {
    auto ref = ctx.fetch_picture(fmt);
    auto dist = ctx.fetch_picture(fmt);
    EXPECT_TRUE(ref.ok() && dist.ok());
    if (!ref.ok() || !dist.ok()) return {};
    fill(*ref, i, 0);
    fill(*dist, i, 1 + i % 3);
    Status s = ctx.read_pictures(std::move(*ref), std::move(*dist), i);
    EXPECT_TRUE(s.ok()) << s.message();
    if (!s.ok()) return {};
  }
  Status s = ctx.flush();
  EXPECT_TRUE(s.ok()) << s.message();
  std::vector<double> values;
  for (const auto& name : ctx.metric_names()) {
    for (unsigned i = 0; i < kFrames; ++i) {
      auto v = ctx.score_at_index(name, i);
      values.push_back(v.ok() ? *v : -12345.0);
    }
  }
  EXPECT_GT(values.size(), 40U * kFrames);
  return values;
}

bool same_bits(const std::vector<double>& a, const std::vector<double>& b) {
  return a.size() == b.size() && std::memcmp(a.data(), b.data(), a.size() * sizeof(double)) == 0;
}

TEST(Concurrency, EveryFamilyInConcurrentContextsGivesItsSoloResult) {
  // (SpEED needs chroma planes of 80x80 at least, CAMBI a side of 216.)
  const PictureFormat small{224, 176, 8, ChromaFormat::k420};
  const PictureFormat large{256, 216, 10, ChromaFormat::k444};
  const std::vector<double> small_solo = score(small, 0);
  const std::vector<double> large_solo = score(large, 0);
  ASSERT_FALSE(small_solo.empty());
  ASSERT_FALSE(large_solo.empty());

  std::vector<double> results[4];
  std::thread t0([&] { results[0] = score(large, 2); });
  std::thread t1([&] { results[1] = score(small, 3); });
  std::thread t2([&] { results[2] = score(small, 1); });
  std::thread t3([&] { results[3] = score(large, 4); });
  t0.join();
  t1.join();
  t2.join();
  t3.join();
  EXPECT_TRUE(same_bits(results[0], large_solo));
  EXPECT_TRUE(same_bits(results[1], small_solo));
  EXPECT_TRUE(same_bits(results[2], small_solo));
  EXPECT_TRUE(same_bits(results[3], large_solo));
}

// Context::fetch_picture() on other threads while this one scores: two
// threads fetch and fill the reference and distorted pictures (as the
// readers of vqx/read_ahead.hpp do) and hand them over through a queue.
// 4:0:0 with a feature that reads chroma, so that the pool's pictures go
// through the context's neutral chroma on both sides. Same bits as the
// pictures fetched on the scoring thread; for TSan, no race.
TEST(Concurrency, FetchPictureOnOtherThreadsWhileScoring) {
  const PictureFormat gray{96, 64, 8, ChromaFormat::k400};
  constexpr unsigned kPairs = 24;
  const auto run = [&](bool fetch_elsewhere, unsigned threads) {
    auto created = Context::create({.threads = threads, .backend = Backend::kCpu});
    EXPECT_TRUE(created.ok());
    Context& ctx = **created;
    EXPECT_TRUE(ctx.use_feature("psnr").ok());
    std::vector<Picture> queue[2];
    std::mutex m;
    std::condition_variable cv;
    const auto produce = [&](unsigned side) {
      for (unsigned i = 0; i < kPairs; ++i) {
        {  // at most 3 ahead, so that pictures come back to the pool
          std::unique_lock lock(m);
          cv.wait(lock, [&] { return queue[side].size() < 3; });
        }
        auto pic = ctx.fetch_picture(gray);
        EXPECT_TRUE(pic.ok());
        fill(*pic, i, side * 2);
        std::lock_guard lock(m);
        queue[side].push_back(std::move(*pic));
        cv.notify_all();
      }
    };
    std::vector<std::thread> producers;
    if (fetch_elsewhere) {
      producers.emplace_back(produce, 0U);
      producers.emplace_back(produce, 1U);
    }
    for (unsigned i = 0; i < kPairs; ++i) {
      Picture pics[2];
      if (fetch_elsewhere) {
        std::unique_lock lock(m);
        cv.wait(lock, [&] { return !queue[0].empty() && !queue[1].empty(); });
        for (unsigned side = 0; side < 2; ++side) {
          pics[side] = std::move(queue[side].front());
          queue[side].erase(queue[side].begin());
        }
        cv.notify_all();
      } else {
        for (unsigned side = 0; side < 2; ++side) {
          pics[side] = ctx.fetch_picture(gray).value();
          fill(pics[side], i, side * 2);
        }
      }
      Status s = ctx.read_pictures(std::move(pics[0]), std::move(pics[1]), i);
      EXPECT_TRUE(s.ok()) << s.message();
    }
    for (auto& t : producers) t.join();
    EXPECT_TRUE(ctx.flush().ok());
    std::vector<double> values;
    for (const char* name : {"psnr_y", "psnr_cb", "psnr_cr"}) {
      for (unsigned i = 0; i < kPairs; ++i) values.push_back(ctx.score_at_index(name, i).value());
    }
    return values;
  };
  const std::vector<double> alone = run(false, 0);
  EXPECT_TRUE(same_bits(run(true, 0), alone));
  EXPECT_TRUE(same_bits(run(true, 3), alone));
}

}  // namespace
}  // namespace vqx
