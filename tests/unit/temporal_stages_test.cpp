// Temporal extractors in two stages (core/extractor.hpp, TemporalStages):
// the scheduler's promises to them, checked with a recording extractor on
// every thread count (each frame prepared once, with the right earlier
// pictures, on a lane no other running call has, into an entry not in use;
// finished once, in index order, none missing, the last one included; the
// per-frame stage of several frames at once), and the families' values
// through a context, identical for every thread count and subsampling and
// equal to extract() frame by frame. In the TSan set of scripts/test.sh.
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <cmath>
#include <condition_variable>
#include <cstdint>
#include <cstring>
#include <deque>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "engine/feature_collector.hpp"
#include "engine/registration.hpp"
#include "engine/scheduler.hpp"
#include "metrics/registry.hpp"
#include "vqx/vqx.hpp"

namespace vqx {
namespace {

// Marks a picture as frame `index`'s: its first luma sample.
void mark(Picture& p, unsigned index) {
  p.plane(0).row<std::uint8_t>(0)[0] = static_cast<std::uint8_t>(index % 251);
}
unsigned marker(const Picture& p) { return p.plane(0).row<std::uint8_t>(0)[0]; }

// A temporal extractor with stages that records what the scheduler does to
// it and fails the frame on any broken promise.
class RecordingStages final : public Extractor, public TemporalStages {
 public:
  RecordingStages(unsigned history, unsigned kept, long fail_at = -1)
      : history_(history), kept_(kept), fail_at_(fail_at) {}

  Status init(const PictureFormat& /*fmt*/) override { return Status::Ok(); }
  Status extract(const Picture&, const Picture&, unsigned, FeatureWriter&) override {
    return Error(Errc::kInternal, "extract() in a scheduler");
  }
  TemporalStages* stages() override { return this; }
  [[nodiscard]] unsigned history() const override { return history_; }
  [[nodiscard]] unsigned kept_entries() const override { return kept_; }

  Status reserve(unsigned entries, unsigned lanes) override {
    ring_ = std::vector<std::atomic<long>>(entries);
    for (auto& e : ring_) e = -1;
    lane_busy_ = std::vector<std::atomic<bool>>(lanes);
    prepared_ = std::vector<std::atomic<int>>(4096);
    return Status::Ok();
  }

  Status prepare(const FrameWindow& w, unsigned lane) override {
    if (static_cast<long>(w.index) == fail_at_) return fail(w.index, "planted error");
    if (lane >= lane_busy_.size() || lane_busy_[lane].exchange(true)) {
      return fail(w.index, "lane " + std::to_string(lane) + " in use twice");
    }
    ++prepared_[w.index];
    const int running = ++running_;
    int seen = max_running_.load();
    while (running > seen && !max_running_.compare_exchange_weak(seen, running)) {
    }
    if (marker(*w.ref[0]) != w.index % 251) return fail(w.index, "not its own picture");
    for (unsigned k = 1; k <= FrameWindow::kMaxHistory; ++k) {
      const bool expected = k <= history_ && k <= w.index;
      if (expected && (w.ref[k] == nullptr || w.dist[k] == nullptr)) {
        return fail(w.index, "frame -" + std::to_string(k) + " missing");
      }
      if (expected && marker(*w.ref[k]) != (w.index - k) % 251) {
        return fail(w.index, "frame -" + std::to_string(k) + " is another frame's picture");
      }
      if (k > w.index && w.ref[k] != nullptr) return fail(w.index, "a picture before frame 0");
    }
    // The entry's last reader, finish(index - size + kept), has returned.
    const long reuse_after = static_cast<long>(w.index) - static_cast<long>(ring_.size()) + kept_;
    if (reuse_after >= 0 && finished_.load() < reuse_after) {
      return fail(w.index, "entry still in use by frame " + std::to_string(reuse_after));
    }
    // Frames of different costs, so that they complete out of order.
    std::this_thread::sleep_for(std::chrono::microseconds((w.index * 37) % 5 * 150));
    ring_[w.index % ring_.size()] = w.index;
    --running_;
    lane_busy_[lane] = false;
    return Status::Ok();
  }

  Status finish(unsigned index, FeatureWriter& out) override {
    if (static_cast<long>(index) != finished_.load() + 1) {
      return fail(index, "finished after frame " + std::to_string(finished_.load()));
    }
    if (prepared_[index] != 1) return fail(index, "finished, not prepared once");
    for (unsigned k = 0; k <= kept_ && k <= index; ++k) {
      if (ring_[(index - k) % ring_.size()] != static_cast<long>(index - k)) {
        return fail(index, "entry of frame -" + std::to_string(k) + " overwritten");
      }
    }
    out.write(0, index, index);
    finished_ = index;
    return Status::Ok();
  }

  [[nodiscard]] long last_finished() const { return finished_.load(); }
  [[nodiscard]] int max_running() const { return max_running_.load(); }
  [[nodiscard]] unsigned entries() const { return static_cast<unsigned>(ring_.size()); }
  [[nodiscard]] int prepared(unsigned i) const { return prepared_[i].load(); }

 private:
  Status fail(unsigned index, const std::string& what) {
    return Error(Errc::kInternal, "frame " + std::to_string(index) + ": " + what);
  }

  unsigned history_;
  unsigned kept_;
  long fail_at_;                         // the frame whose prepare() fails; -1: none
  std::vector<std::atomic<long>> ring_;  // the frame whose entry it is
  std::vector<std::atomic<bool>> lane_busy_;
  std::vector<std::atomic<int>> prepared_;  // prepare() calls per frame
  std::atomic<long> finished_{-1};          // the last frame finished
  std::atomic<int> running_{0};
  std::atomic<int> max_running_{0};
};

struct SchedulerRun {
  FeatureCollector collector;
  std::deque<RegisteredExtractor> extractors;
  RecordingStages* stages = nullptr;
  std::unique_ptr<FrameScheduler> scheduler;

  SchedulerRun(unsigned threads, unsigned history, unsigned kept, long fail_at = -1) {
    RegisteredExtractor& r = extractors.emplace_back();
    r.spec.family = "recording";
    r.spec.temporal = true;
    auto inst = std::make_unique<RecordingStages>(history, kept, fail_at);
    stages = inst.get();
    r.temporal = std::move(inst);
    r.metric_ids = {collector.add_metric("recording")};
    scheduler = FrameScheduler::create(threads, extractors, collector,
                                       ExtractorEnv{std::make_shared<OutputFiles>()})
                    .value();
  }

  Status frames(unsigned n, unsigned subsample) {
    const PictureFormat fmt{16, 16, 8, ChromaFormat::k420};
    for (unsigned i = 0; i < n; ++i) {
      Picture ref = scheduler->fetch_picture(fmt).value();
      Picture dist = scheduler->fetch_picture(fmt).value();
      mark(ref, i);
      mark(dist, i);
      const Status s = scheduler->run(std::move(ref), std::move(dist), i, i % subsample == 0);
      if (!s.ok()) return s;
    }
    return scheduler->wait_idle();
  }
};

TEST(TemporalStages, EveryFrameFinishedOnceInOrderWithItsEarlierPictures) {
  for (unsigned threads : {0U, 1U, 2U, 4U, 8U}) {
    for (unsigned history : {0U, 1U, 2U}) {
      for (unsigned kept : {0U, 1U, 3U}) {
        for (unsigned frames : {1U, 2U, 3U, 61U}) {
          for (unsigned subsample : {1U, 3U}) {
            SchedulerRun run(threads, history, kept);
            const Status s = run.frames(frames, subsample);
            const std::string where = "threads " + std::to_string(threads) + ", history " +
                                      std::to_string(history) + ", kept " + std::to_string(kept) +
                                      ", " + std::to_string(frames) + " frames, subsample " +
                                      std::to_string(subsample);
            ASSERT_TRUE(s.ok()) << where << ": " << s.message();
            // The last frame too, and none twice.
            EXPECT_EQ(run.stages->last_finished(), static_cast<long>(frames) - 1) << where;
            for (unsigned i = 0; i < frames; ++i) {
              EXPECT_EQ(run.stages->prepared(i), 1) << where << ", frame " << i;
              EXPECT_EQ(run.collector.get(0, i), static_cast<double>(i)) << where;
            }
            // One entry per frame in flight (2 x threads, or 1, plus the
            // kept pictures' frames), plus those finish() reads back.
            const unsigned bound = (threads >= 2 ? 2 * threads : 1) + history;
            EXPECT_EQ(run.stages->entries(), bound + kept) << where;
          }
        }
      }
    }
  }
}

TEST(TemporalStages, AfterAnErrorNoFrameIsFinished) {
  for (unsigned threads : {0U, 4U}) {
    SchedulerRun run(threads, 1, 1, 5);
    const Status s = run.frames(40, 1);
    EXPECT_EQ(s.code(), Errc::kInternal) << threads;
    EXPECT_NE(s.message().find("frame 5: planted error"), std::string::npos) << s.message();
    // Frames 0-4 may have been finished; 5 and later never are, so none
    // of them sees the gap.
    EXPECT_LE(run.stages->last_finished(), 4) << threads;
    for (unsigned i = 5; i < 40; ++i) EXPECT_TRUE(std::isnan(run.collector.get(0, i))) << i;
  }
}

TEST(TemporalStages, RecycledPicturesStayBoundedWhileEarlierFramesAreKept) {
  SchedulerRun run(4, 2, 0);
  ASSERT_TRUE(run.frames(200, 1).ok());
  // 2 x (bound + 1) with bound = 2 x 4 + 2: the frames kept for a later
  // frame's prepare() count as in flight, so they are not extra.
  EXPECT_LE(run.scheduler->recycled_count(), 2U * (8 + 2 + 1));
}

// A temporal extractor whose per-frame stage waits until two frames are in
// it at once: it cannot happen when the stage is serial (it then gives up
// after a while and the frame fails).
class WaitsForCompany final : public Extractor, public TemporalStages {
 public:
  Status init(const PictureFormat& /*fmt*/) override { return Status::Ok(); }
  Status extract(const Picture&, const Picture&, unsigned, FeatureWriter&) override {
    return Status::Ok();
  }
  TemporalStages* stages() override { return this; }
  [[nodiscard]] unsigned history() const override { return 1; }
  Status reserve(unsigned /*entries*/, unsigned /*lanes*/) override { return Status::Ok(); }
  Status prepare(const FrameWindow& w, unsigned /*lane*/) override {
    if (w.index >= 2) return Status::Ok();
    std::unique_lock lock(mutex_);
    ++inside_;
    cv_.notify_all();
    if (!cv_.wait_for(lock, std::chrono::seconds(5), [&] { return inside_ >= 2; })) {
      return Error(Errc::kInternal, "frame " + std::to_string(w.index) + " prepared alone");
    }
    return Status::Ok();
  }
  Status finish(unsigned /*index*/, FeatureWriter& /*out*/) override { return Status::Ok(); }

 private:
  std::mutex mutex_;
  std::condition_variable cv_;
  int inside_ = 0;
};

TEST(TemporalStages, FramesArePreparedSeveralAtOnce) {
  FeatureCollector collector;
  std::deque<RegisteredExtractor> extractors;
  RegisteredExtractor& r = extractors.emplace_back();
  r.spec.family = "waits";
  r.spec.temporal = true;
  r.temporal = std::make_unique<WaitsForCompany>();
  auto scheduler = FrameScheduler::create(4, extractors, collector,
                                          ExtractorEnv{std::make_shared<OutputFiles>()})
                       .value();
  const PictureFormat fmt{16, 16, 8, ChromaFormat::k420};
  for (unsigned i = 0; i < 6; ++i) {
    ASSERT_TRUE(
        scheduler->run(Picture::make(fmt).value(), Picture::make(fmt).value(), i, true).ok());
  }
  const Status s = scheduler->wait_idle();
  EXPECT_TRUE(s.ok()) << s.message();
}

// The temporal families through a context.
void fill(Picture& pic, unsigned frame, unsigned salt) {
  const unsigned max = (1U << pic.bpc()) - 1;
  for (unsigned p = 0; p < pic.plane_count(); ++p) {
    Plane& pl = pic.plane(p);
    for (unsigned y = 0; y < pl.height(); ++y) {
      for (unsigned x = 0; x < pl.width(); ++x) {
        const std::uint32_t v = ((x * 7 + y * 3 + frame * 5 + p * 11) * 2654435761U) >> 13;
        const unsigned s = ((x + frame * 3 + salt) * max / (pl.width() + 8) + (v & 31)) & max;
        if (pic.bpc() > 8) {
          pl.row<std::uint16_t>(y)[x] = static_cast<std::uint16_t>(s);
        } else {
          pl.row<std::uint8_t>(y)[x] = static_cast<std::uint8_t>(s);
        }
      }
    }
  }
}

constexpr const char* kTemporalFeatures[] = {
    "motion",
    "motion=motion_five_frame_window=true:motion_moving_average=true",
    "float_motion=motion_add_scale1=true:motion_add_uv=true",
    "speed_temporal",
    "psnr=enable_apsnr=true:enable_mse=true",
};

// Every value of every frame and the aggregates, as bits.
std::vector<double> context_values(const PictureFormat& fmt, unsigned frames, unsigned threads,
                                   unsigned subsample) {
  auto created =
      Context::create({.threads = threads, .subsample = subsample, .backend = Backend::kCpu});
  EXPECT_TRUE(created.ok());
  if (!created.ok()) return {};
  Context& ctx = **created;
  for (const char* f : kTemporalFeatures) EXPECT_TRUE(ctx.use_feature(f).ok()) << f;
  for (unsigned i = 0; i < frames; ++i) {
    Picture ref = ctx.fetch_picture(fmt).value();
    Picture dist = ctx.fetch_picture(fmt).value();
    fill(ref, i, 0);
    fill(dist, i, 1 + i % 4);
    const Status s = ctx.read_pictures(std::move(ref), std::move(dist), i);
    EXPECT_TRUE(s.ok()) << s.message();
  }
  const Status s = ctx.flush();
  EXPECT_TRUE(s.ok()) << s.message();
  std::vector<double> values;
  for (const std::string& name : ctx.metric_names()) {
    for (unsigned i = 0; i < frames; ++i) {
      auto v = ctx.score_at_index(name, i);
      values.push_back(v.ok() ? *v : -12345.0);
    }
  }
  for (const char* a : {"apsnr_y", "apsnr_cb", "apsnr_cr"}) {
    values.push_back(ctx.aggregate_score(a).value());
  }
  return values;
}

bool same_bits(const std::vector<double>& a, const std::vector<double>& b) {
  return a.size() == b.size() && std::memcmp(a.data(), b.data(), a.size() * sizeof(double)) == 0;
}

TEST(TemporalStages, FamiliesGiveTheSameBitsForEveryThreadCountAndSubsampling) {
  const PictureFormat fmt{160, 96, 10, ChromaFormat::k420};
  for (unsigned frames : {1U, 2U, 3U, 13U}) {
    for (unsigned subsample : {1U, 3U}) {
      const std::vector<double> alone = context_values(fmt, frames, 0, subsample);
      ASSERT_GT(alone.size(), 3U);
      for (unsigned threads : {2U, 3U, 8U}) {
        EXPECT_TRUE(same_bits(alone, context_values(fmt, frames, threads, subsample)))
            << frames << " frames, threads " << threads << ", subsample " << subsample;
      }
    }
  }
}

// The same values as extract() frame after frame, outside any context.
TEST(TemporalStages, ContextGivesWhatExtractAloneGives) {
  const PictureFormat fmt{160, 96, 8, ChromaFormat::k420};
  constexpr unsigned kFrames = 9;
  for (const char* feature : kTemporalFeatures) {
    const std::string spec_text = feature;
    const std::size_t eq = spec_text.find('=');
    const std::string family = spec_text.substr(0, eq);
    std::map<std::string, std::string> options;
    if (eq != std::string::npos) {
      std::string rest = spec_text.substr(eq + 1);
      while (!rest.empty()) {
        const std::size_t colon = rest.find(':');
        const std::string kv = rest.substr(0, colon);
        options[kv.substr(0, kv.find('='))] = kv.substr(kv.find('=') + 1);
        rest = colon == std::string::npos ? "" : rest.substr(colon + 1);
      }
    }
    const ExtractorFamily* fam = find_family(family);
    ASSERT_NE(fam, nullptr) << family;
    auto spec = fam->make_spec(options);
    ASSERT_TRUE(spec.ok()) << feature << ": " << spec.status().message();
    std::unique_ptr<Extractor> ex = spec->make();
    ASSERT_TRUE(ex->init(fmt).ok());
    FeatureCollector alone;
    std::vector<std::size_t> ids;
    for (const ExtractorOutput& o : spec->outputs) ids.push_back(alone.add_metric(o.name));
    struct Writer final : FeatureWriter {
      FeatureCollector& to;
      const std::vector<std::size_t>& metric;
      Writer(FeatureCollector& c, const std::vector<std::size_t>& m) : to(c), metric(m) {}
      void write(std::size_t slot, unsigned frame, double value) override {
        to.write(metric[slot], frame, value);
      }
    } w(alone, ids);
    for (unsigned i = 0; i < kFrames; ++i) {
      Picture ref = Picture::make(fmt).value();
      Picture dist = Picture::make(fmt).value();
      fill(ref, i, 0);
      fill(dist, i, 1 + i % 4);
      ASSERT_TRUE(ex->extract(ref, dist, i, w).ok()) << feature;
    }
    ASSERT_TRUE(ex->flush(w).ok());

    auto ctx = Context::create({.threads = 4, .backend = Backend::kCpu}).value();
    ASSERT_TRUE(ctx->use_feature(feature).ok());
    for (unsigned i = 0; i < kFrames; ++i) {
      Picture ref = ctx->fetch_picture(fmt).value();
      Picture dist = ctx->fetch_picture(fmt).value();
      fill(ref, i, 0);
      fill(dist, i, 1 + i % 4);
      ASSERT_TRUE(ctx->read_pictures(std::move(ref), std::move(dist), i).ok());
    }
    ASSERT_TRUE(ctx->flush().ok());
    for (std::size_t slot = 0; slot < spec->outputs.size(); ++slot) {
      for (unsigned i = 0; i < kFrames; ++i) {
        const double a = alone.get(ids[slot], i);
        const double b = ctx->score_at_index(spec->outputs[slot].name, i).value();
        EXPECT_EQ(std::memcmp(&a, &b, sizeof a), 0)
            << feature << " " << spec->outputs[slot].name << " frame " << i << ": " << a
            << " alone, " << b << " in a context";
      }
    }
  }
}

}  // namespace
}  // namespace vqx
