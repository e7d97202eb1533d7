// vqx_gpu_bench: frames per second of a model or feature set through the
// public API, with the frames already in host memory (docs/gpu.md).
//
//   vqx_gpu_bench [--backend auto|cpu|cuda|hip] [--threads N] [--frames N]
//                 [--size WxH]... [--bpc B] [--model SPEC]... [--feature SPEC]...
//                 [--input REF DIST] [--input-frames K] [--mean METRIC]
//
// Per size: a context with the given backend; warm-up frames filled from a
// few distinct synthetic frame pairs (with --input: the first K frame pairs
// of those two files, 8 unless --input-frames says, read into memory before
// anything is timed, in their own format, which replaces --size and --bpc:
// so that this API row scores the content the vqx command reads from the
// same files); then the timed frames, each a pair of pictures taken from the
// context's recycling pool (fetch_picture) and handed to read_pictures as
// they are (they still hold an earlier frame's content: no per-frame fill is
// timed; run_size says how the pairs are kept matched), then flush(). Prints
// one line per size: fps, wall ms a frame, the host CPU ms a frame of the
// process (every thread) and of the calling thread alone (the one that
// submits: when its figure nears the wall time, the host's submission
// bounds the rate, not the device), and how many timed pictures had to be
// filled; with --mean, a second line: the timed frames' mean of METRIC.
#include <sys/resource.h>

#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <map>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "vqx/video_reader.hpp"
#include "vqx/vqx.hpp"

namespace {

using Clock = std::chrono::steady_clock;

// CPU seconds of the whole process and of the calling thread.
double process_cpu_seconds() {
  rusage u{};
  getrusage(RUSAGE_SELF, &u);
  return static_cast<double>(u.ru_utime.tv_sec + u.ru_stime.tv_sec) +
         1e-6 * static_cast<double>(u.ru_utime.tv_usec + u.ru_stime.tv_usec);
}
double thread_cpu_seconds() {
  timespec t{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
  return static_cast<double>(t.tv_sec) + 1e-9 * static_cast<double>(t.tv_nsec);
}

struct Options {
  vqx::Backend backend = vqx::Backend::kAuto;
  unsigned threads = 8;
  unsigned frames = 300;
  unsigned bpc = 8;
  std::vector<std::pair<unsigned, unsigned>> sizes;
  std::vector<std::string> models;
  std::vector<std::string> features;
  std::string label;
  std::string input_ref, input_dist;  // --input: the source pairs from these files
  unsigned input_frames = 8;
  std::string mean;  // --mean METRIC: print the timed frames' mean of it
};

using Sources = std::vector<vqx::Picture>;

// Smooth content with texture, moving with `t` (so that motion moves).
void fill(vqx::Picture& p, unsigned t, unsigned seed) {
  const unsigned max = (1u << p.bpc()) - 1;
  std::uint32_t state = seed * 2654435761u + t;
  for (unsigned c = 0; c < p.plane_count(); ++c) {
    vqx::Plane& pl = p.plane(c);
    for (unsigned y = 0; y < pl.height(); ++y) {
      for (unsigned x = 0; x < pl.width(); ++x) {
        state = state * 1664525u + 1013904223u;
        const double v = 0.5 + 0.3 * std::sin(x / 13.0 + 0.3 * t) * std::cos(y / 17.0 - 0.2 * t);
        long s = std::lround(v * max) + static_cast<long>((state >> 24) % 9) - 4;
        s = s < 0 ? 0 : (s > static_cast<long>(max) ? static_cast<long>(max) : s);
        if (p.bpc() == 8) {
          pl.row<std::uint8_t>(y)[x] = static_cast<std::uint8_t>(s);
        } else {
          pl.row<std::uint16_t>(y)[x] = static_cast<std::uint16_t>(s);
        }
      }
    }
  }
}

void copy(const vqx::Picture& src, vqx::Picture& dst) {
  for (unsigned c = 0; c < src.plane_count(); ++c) {
    const std::size_t bytes = std::size_t{src.plane(c).width()} * src.plane(c).bytes_per_sample();
    for (unsigned y = 0; y < src.plane(c).height(); ++y) {
      std::memcpy(dst.plane(c).row<std::uint8_t>(y), src.plane(c).row<std::uint8_t>(y), bytes);
    }
  }
}

int fail(const std::string& m) {
  std::fprintf(stderr, "vqx_gpu_bench: %s\n", m.c_str());
  return 1;
}

// kSynthetic distinct synthetic pairs of size w x h.
constexpr unsigned kSynthetic = 4;
void synthetic_sources(const Options& o, unsigned w, unsigned h, Sources& ref, Sources& dist) {
  const vqx::PictureFormat fmt{w, h, o.bpc, vqx::ChromaFormat::k420};
  for (unsigned k = 0; k < kSynthetic; ++k) {
    ref.push_back(vqx::Picture::make(fmt).value());
    dist.push_back(vqx::Picture::make(fmt).value());
    fill(ref.back(), k, 1);
    fill(dist.back(), k, 2);
  }
}

// The first o.input_frames pairs of the --input files (fewer if they are
// shorter); an error message, or empty.
std::string input_sources(const Options& o, Sources& ref, Sources& dist) {
  auto r = vqx::open_video(o.input_ref, std::nullopt);
  if (!r.ok()) return r.status().message();
  auto d = vqx::open_video(o.input_dist, std::nullopt);
  if (!d.ok()) return d.status().message();
  if ((*r)->format() != (*d)->format()) {
    return o.input_dist + ": not in " + o.input_ref + "'s format";
  }
  for (unsigned k = 0; k < o.input_frames; ++k) {
    vqx::Picture rp = vqx::Picture::make((*r)->format()).value();
    vqx::Picture dp = vqx::Picture::make((*d)->format()).value();
    auto got_r = (*r)->read(rp);
    if (!got_r.ok()) return got_r.status().message();
    auto got_d = (*d)->read(dp);
    if (!got_d.ok()) return got_d.status().message();
    if (!*got_r || !*got_d) break;
    ref.push_back(std::move(rp));
    dist.push_back(std::move(dp));
  }
  if (ref.empty()) return o.input_ref + ": no frame pair to read";
  return {};
}

int run_size(const Options& o, const Sources& ref_src, const Sources& dist_src) {
  vqx::ContextSettings s;
  s.backend = o.backend;
  s.threads = o.threads;
  auto ctx = vqx::Context::create(s);
  if (!ctx.ok()) return fail(ctx.status().message());
  for (const auto& m : o.models) {
    if (auto st = (*ctx)->use_features_from_model(m); !st.ok()) return fail(st.message());
  }
  for (const auto& f : o.features) {
    if (auto st = (*ctx)->use_feature(f); !st.ok()) return fail(st.message());
  }
  const vqx::PictureFormat fmt = ref_src.front().format();
  const std::size_t sources = ref_src.size();
  // What each picture holds, by the address of its luma: the source pair
  // and the side the warm-up (or a timed refill) copied into it.
  struct Content {
    std::size_t pair;
    bool dist;
  };
  std::unordered_map<const void*, Content> content;
  const auto key = [](const vqx::Picture& p) -> const void* {
    return p.plane(0).row<std::uint8_t>(0);
  };
  const auto fill_as = [&](vqx::Picture& p, Content c) {
    copy(c.dist ? dist_src[c.pair] : ref_src[c.pair], p);
    content[key(p)] = c;
  };
  // Warm-up: fills the recycling pool with real content.
  const unsigned warm = 2 * o.threads + 8;
  unsigned index = 0;
  for (; index < warm; ++index) {
    auto r = (*ctx)->fetch_picture(fmt);
    auto d = (*ctx)->fetch_picture(fmt);
    fill_as(*r, {index % sources, false});
    fill_as(*d, {index % sources, true});
    if (auto st = (*ctx)->read_pictures(std::move(*r), std::move(*d), index); !st.ok()) {
      return fail(st.message());
    }
  }
  // The timed frames hand over pictures as the pool gives them back, with
  // the content they hold (no per-frame fill is timed), as matched pairs.
  // The pool returns pictures in no set order: a frame's two need not come
  // back side by side, and a fetch from an empty pool makes a new one. So
  // each picture is held until the other side of its pair comes, and a new
  // picture is filled (a copy; in the timed frames counted as "refilled")
  // as what the held ones lack. Until the forty-second session the timed
  // frames paired whatever came back: with 8 or 16 threads, most of them
  // the distortion of one frame against the reference of another, or new
  // pictures never filled (docs/performance.md).
  std::map<std::size_t, std::vector<vqx::Picture>> held[2];  // [dist][pair]
  unsigned refilled = 0;
  const auto matched_pair = [&]() -> vqx::Expected<std::pair<vqx::Picture, vqx::Picture>> {
    for (;;) {
      for (auto& [pair, refs] : held[0]) {
        auto dists = held[1].find(pair);
        if (refs.empty() || dists == held[1].end() || dists->second.empty()) continue;
        std::pair<vqx::Picture, vqx::Picture> out{std::move(refs.back()),
                                                  std::move(dists->second.back())};
        refs.pop_back();
        dists->second.pop_back();
        return out;
      }
      auto p = (*ctx)->fetch_picture(fmt);
      if (!p.ok()) return p.status();
      Content c{index % sources, false};
      if (auto known = content.find(key(*p)); known != content.end()) {
        c = known->second;
      } else {
        // New: the other side of a held picture, or a reference.
        for (bool side : {false, true}) {
          for (auto& [pair, pictures] : held[side ? 1 : 0]) {
            if (!pictures.empty()) c = {pair, !side};
          }
        }
        fill_as(*p, c);
        ++refilled;
      }
      held[c.dist ? 1 : 0][c.pair].push_back(std::move(*p));
    }
  };
  const auto submit_matched = [&]() -> vqx::Status {
    auto pair = matched_pair();
    if (!pair.ok()) return pair.status();
    return (*ctx)->read_pictures(std::move(pair->first), std::move(pair->second), index);
  };
  // As many frames again of matched pairs before the clock starts: the
  // pictures that the held ones keep out of circulation are made (and
  // filled) here, not in the timed frames.
  const unsigned first_timed = 2 * warm;
  for (; index < first_timed; ++index) {
    if (auto st = submit_matched(); !st.ok()) return fail(st.message());
  }
  refilled = 0;
  const auto t0 = Clock::now();
  const double process0 = process_cpu_seconds();
  const double thread0 = thread_cpu_seconds();
  for (unsigned n = 0; n < o.frames; ++n, ++index) {
    if (auto st = submit_matched(); !st.ok()) return fail(st.message());
  }
  if (auto st = (*ctx)->flush(); !st.ok()) return fail(st.message());
  const double secs = std::chrono::duration<double>(Clock::now() - t0).count();
  const double process_ms = 1000.0 * (process_cpu_seconds() - process0) / o.frames;
  const double thread_ms = 1000.0 * (thread_cpu_seconds() - thread0) / o.frames;
  const auto names = (*ctx)->metric_names();
  std::string backend = "cpu";
  for (const auto& n : names) {
    auto b = (*ctx)->metric_backend(n);
    if (b.ok() && *b != "cpu") backend = *b;
  }
  std::printf(
      "%-24s %5ux%-5u %2u-bit backend=%-4s threads=%-2u frames=%-5u %9.1f fps %8.3f ms/frame "
      "cpu %7.3f ms/frame (caller %.3f) refilled %u\n",
      o.label.c_str(), fmt.width, fmt.height, fmt.bpc, backend.c_str(), o.threads, o.frames,
      o.frames / secs, 1000.0 * secs / o.frames, process_ms, thread_ms, refilled);
  if (!o.mean.empty()) {
    // The timed frames' mean of one metric: of the source pairs' own scores
    // when the frames are matched pairs (bench/speed_test.sh).
    double sum = 0.0;
    for (unsigned i = first_timed; i < index; ++i) {
      auto v = (*ctx)->score_at_index(o.mean, i);
      if (!v.ok()) return fail(v.status().message());
      sum += *v;
    }
    std::printf("mean %s %.6f\n", o.mean.c_str(), sum / (index - first_timed));
  }
  std::fflush(stdout);
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  Options o;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    const char* v = i + 1 < argc ? argv[i + 1] : nullptr;
    if (v == nullptr) return fail(a + " needs a value");
    ++i;
    if (a == "--backend") {
      const std::string b = v;
      o.backend = b == "cpu"    ? vqx::Backend::kCpu
                  : b == "cuda" ? vqx::Backend::kCuda
                  : b == "hip"  ? vqx::Backend::kHip
                                : vqx::Backend::kAuto;
    } else if (a == "--threads") {
      o.threads = static_cast<unsigned>(std::atoi(v));
    } else if (a == "--frames") {
      o.frames = static_cast<unsigned>(std::atoi(v));
    } else if (a == "--bpc") {
      o.bpc = static_cast<unsigned>(std::atoi(v));
    } else if (a == "--size") {
      unsigned w = 0, h = 0;
      if (std::sscanf(v, "%ux%u", &w, &h) != 2) return fail("--size WxH");
      o.sizes.emplace_back(w, h);
    } else if (a == "--model") {
      o.models.emplace_back(v);
    } else if (a == "--feature") {
      o.features.emplace_back(v);
    } else if (a == "--label") {
      o.label = v;
    } else if (a == "--input") {
      if (i + 1 >= argc) return fail("--input REF DIST");
      o.input_ref = v;
      o.input_dist = argv[++i];
    } else if (a == "--mean") {
      o.mean = v;
    } else if (a == "--input-frames") {
      o.input_frames = static_cast<unsigned>(std::atoi(v));
      if (o.input_frames == 0) return fail("--input-frames needs a positive count");
    } else {
      return fail("unknown option " + a);
    }
  }
  if (o.models.empty() && o.features.empty()) {
    o.models.emplace_back("version=vmaf_v0.6.1:name=vmaf");
  }
  if (o.sizes.empty()) o.sizes = {{3840, 2160}, {1920, 1080}, {576, 324}};
  if (o.label.empty()) o.label = o.features.empty() ? o.models.front() : o.features.front();
  if (!o.input_ref.empty()) {
    Sources ref, dist;
    if (std::string e = input_sources(o, ref, dist); !e.empty()) return fail(e);
    return run_size(o, ref, dist);
  }
  for (auto [w, h] : o.sizes) {
    Sources ref, dist;
    synthetic_sources(o, w, h, ref, dist);
    if (run_size(o, ref, dist) != 0) return 1;
  }
  return 0;
}
