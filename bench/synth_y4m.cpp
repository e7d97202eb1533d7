// vqx_synth_y4m W H BITS FRAMES REF.y4m DIST.y4m: a synthetic 4:2:0 Y4M pair
// for the speed benchmark (bench/speed.sh), made from nothing outside this
// file, as the device machine has no FFmpeg and no test clips.
//
// The content is not trivial, so that the features do the work they do on
// real video: the reference is a window panning over a larger textured
// image (smooth waves plus a fixed grain), a few pixels a frame, so motion
// is never zero; the distorted is the reference plus noise taken from a
// second, independently panning noise field, so VIF and ADM see a real
// difference on every frame. Both fields are computed once; a frame is
// then row copies and a saturating add, so writing 8 GB takes seconds.
// The two files are written by two threads at once.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <string>
#include <thread>
#include <vector>

namespace {

// How far the windows pan: the fields are this much larger than a plane
// (luma; half for chroma), and the offsets run over it and wrap.
constexpr unsigned kMargin = 96;

struct Field {
  unsigned width = 0, height = 0;  // a plane plus the margin on each axis
  std::vector<std::int32_t> v;
  std::int32_t at(unsigned x, unsigned y) const { return v[std::size_t{y} * width + x]; }
};

struct PlaneFields {
  unsigned width = 0, height = 0, margin = 0;
  Field texture;  // the reference's samples
  Field noise;    // what the distorted adds, centred on zero
};

// A small linear congruential generator: the same file on every machine.
struct Lcg {
  std::uint32_t state;
  std::uint32_t next() {
    state = state * 1664525u + 1013904223u;
    return state >> 8;
  }
};

PlaneFields make_fields(unsigned width, unsigned height, unsigned margin, unsigned bits,
                        unsigned seed) {
  PlaneFields f;
  f.width = width;
  f.height = height;
  f.margin = margin;
  const unsigned fw = width + 2 * margin, fh = height + 2 * margin;
  const double max = static_cast<double>((1u << bits) - 1);
  const std::int32_t scale = 1 << (bits - 8);
  f.texture = {fw, fh, std::vector<std::int32_t>(std::size_t{fw} * fh)};
  f.noise = {fw, fh, std::vector<std::int32_t>(std::size_t{fw} * fh)};
  Lcg grain{seed}, noise{seed * 7919u + 1u};
  for (unsigned y = 0; y < fh; ++y) {
    for (unsigned x = 0; x < fw; ++x) {
      const double wave = 0.5 + 0.22 * std::sin(x / 13.0) * std::cos(y / 17.0) +
                          0.12 * std::sin((x + 2.0 * y) / 53.0) +
                          0.06 * std::cos((3.0 * x - y) / 7.0);
      const std::int32_t g = static_cast<std::int32_t>(grain.next() % 13) - 6;
      const std::int32_t s = static_cast<std::int32_t>(std::lround(wave * max)) + g * scale;
      f.texture.v[std::size_t{y} * fw + x] = std::clamp(s, 0, static_cast<std::int32_t>(max));
      f.noise.v[std::size_t{y} * fw + x] =
          (static_cast<std::int32_t>(noise.next() % 17) - 8) * scale;
    }
  }
  return f;
}

// Where frame t's window starts in a field: a pan that wraps inside the margin.
unsigned pan(unsigned t, unsigned step, unsigned margin) { return (t * step) % (2 * margin); }

template <typename Sample>
void write_file(const std::string& path, const std::string& header,
                const std::vector<PlaneFields>& planes, unsigned bits, unsigned frames, bool dist,
                int* status) {
  std::unique_ptr<std::FILE, int (*)(std::FILE*)> out(std::fopen(path.c_str(), "wb"), &std::fclose);
  if (!out) {
    std::fprintf(stderr, "vqx_synth_y4m: %s: cannot open for writing\n", path.c_str());
    *status = 1;
    return;
  }
  const std::int32_t max = static_cast<std::int32_t>((1u << bits) - 1);
  std::size_t frame_samples = 0;
  for (const auto& p : planes) frame_samples += std::size_t{p.width} * p.height;
  std::vector<Sample> frame(frame_samples);
  std::fputs(header.c_str(), out.get());
  for (unsigned t = 0; t < frames; ++t) {
    Sample* o = frame.data();
    for (const auto& p : planes) {
      const unsigned tx = pan(t, 3, p.margin), ty = pan(t, 2, p.margin);
      const unsigned nx = pan(t, 7, p.margin), ny = pan(t, 5, p.margin);
      for (unsigned y = 0; y < p.height; ++y) {
        const std::int32_t* tex = &p.texture.v[std::size_t{ty + y} * p.texture.width + tx];
        const std::int32_t* noise = &p.noise.v[std::size_t{ny + y} * p.noise.width + nx];
        for (unsigned x = 0; x < p.width; ++x) {
          const std::int32_t s = dist ? std::clamp(tex[x] + noise[x], 0, max) : tex[x];
          o[x] = static_cast<Sample>(s);  // 16-bit samples: little-endian, as on x86
        }
        o += p.width;
      }
    }
    std::fputs("FRAME\n", out.get());
    if (std::fwrite(frame.data(), sizeof(Sample), frame.size(), out.get()) != frame.size()) {
      std::fprintf(stderr, "vqx_synth_y4m: %s: write failed (disk full?)\n", path.c_str());
      *status = 1;
      return;
    }
  }
  if (std::fflush(out.get()) != 0) {
    std::fprintf(stderr, "vqx_synth_y4m: %s: write failed\n", path.c_str());
    *status = 1;
  }
}

unsigned whole(const char* text, unsigned min, unsigned max, const char* what) {
  char* end = nullptr;
  const unsigned long v = std::strtoul(text, &end, 10);
  if (end == text || *end != '\0' || v < min || v > max) {
    std::fprintf(stderr, "vqx_synth_y4m: %s must be %u..%u, not '%s'\n", what, min, max, text);
    std::exit(2);
  }
  return static_cast<unsigned>(v);
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 7) {
    std::fprintf(stderr, "usage: vqx_synth_y4m WIDTH HEIGHT BITS FRAMES REF.y4m DIST.y4m\n");
    return 2;
  }
  const unsigned width = whole(argv[1], 16, 16384, "WIDTH");
  const unsigned height = whole(argv[2], 16, 16384, "HEIGHT");
  const unsigned bits = whole(argv[3], 8, 16, "BITS");
  const unsigned frames = whole(argv[4], 1, 1000000, "FRAMES");
  const unsigned cw = (width + 1) / 2, ch = (height + 1) / 2;
  std::vector<PlaneFields> planes;
  planes.push_back(make_fields(width, height, kMargin, bits, 1));
  planes.push_back(make_fields(cw, ch, kMargin / 2, bits, 2));
  planes.push_back(make_fields(cw, ch, kMargin / 2, bits, 3));
  const std::string chroma = bits == 8 ? "420jpeg" : "420p" + std::to_string(bits);
  const std::string header = "YUV4MPEG2 W" + std::to_string(width) + " H" + std::to_string(height) +
                             " F25:1 Ip A1:1 C" + chroma + "\n";
  int ref_status = 0, dist_status = 0;
  const auto write = [&](const char* path, bool dist, int* status) {
    if (bits == 8) {
      write_file<std::uint8_t>(path, header, planes, bits, frames, dist, status);
    } else {
      write_file<std::uint16_t>(path, header, planes, bits, frames, dist, status);
    }
  };
  std::thread ref_thread(write, argv[5], false, &ref_status);
  write(argv[6], true, &dist_status);
  ref_thread.join();
  return ref_status != 0 || dist_status != 0 ? 1 : 0;
}
