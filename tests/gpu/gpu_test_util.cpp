#include "gpu_test_util.hpp"
#include <filesystem>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <random>

#include "core/feature_spec.hpp"
#include "gpu/pipeline.hpp"
#include "metrics/registry.hpp"
#include "metrics/ssim/geometry.hpp"

namespace vqx::gputest {

bool gpu_available() { return gpu::compiled_backend() != nullptr && gpu::available_devices() > 0; }

std::string skip_reason() {
  if (gpu::compiled_backend() == nullptr) {
    return "no GPU backend in this build (VQX_GPU=off): GPU test skipped";
  }
  return std::string("no ") + gpu::compiled_backend() + " device present: GPU test skipped";
}

Backend gpu_backend() {
  const char* b = gpu::compiled_backend();
  if (b == nullptr) return Backend::kCpu;
  return std::string(b) == "hip" ? Backend::kHip : Backend::kCuda;
}

namespace {

template <typename T, typename F>
void fill(Picture& p, F&& value) {
  for (unsigned c = 0; c < p.plane_count(); ++c) {
    Plane& pl = p.plane(c);
    for (unsigned y = 0; y < pl.height(); ++y) {
      T* row = pl.row<T>(y);
      for (unsigned x = 0; x < pl.width(); ++x) row[x] = static_cast<T>(value(c, x, y));
    }
  }
}

template <typename F>
void fill_any(Picture& p, F&& value) {
  if (p.bpc() == 8) {
    fill<std::uint8_t>(p, value);
  } else {
    fill<std::uint16_t>(p, value);
  }
}

}  // namespace

Picture make_picture(const PictureFormat& fmt, Content c, unsigned frame, std::uint32_t seed) {
  Picture p = Picture::make(fmt).value();
  const std::uint32_t max = (1u << fmt.bpc) - 1;
  std::mt19937 rng(seed * 7919u + frame);
  std::uniform_int_distribution<std::uint32_t> any(0, max);
  std::uniform_int_distribution<int> fine(-static_cast<int>(max / 64), static_cast<int>(max / 64));
  const double t = 0.35 * frame + 0.01 * (seed % 100);
  fill_any(p, [&](unsigned plane, unsigned x, unsigned y) -> std::uint32_t {
    switch (c) {
      case Content::kNoise:
        return any(rng);
      case Content::kFlat:
        return max / 2 + (plane * 7) % 13;
      case Content::kMax:
        return max;
      case Content::kZero:
        return 0;
      case Content::kChecker:
        return ((x / 4 + y / 4) % 2) != 0 ? max : 0;
      case Content::kRamp: {
        const unsigned w = fmt.plane_width(plane);
        return static_cast<std::uint32_t>(std::uint64_t{max} * x / (w > 1 ? w - 1 : 1));
      }
      case Content::kSmooth: {
        const double v = 0.5 + 0.3 * std::sin(x / 13.0 + t) * std::cos(y / 17.0 - 0.7 * t) +
                         0.1 * std::sin((x + 2.0 * y) / 5.0 + 2 * t);
        const long s = std::lround(v * max) + fine(rng);
        return static_cast<std::uint32_t>(std::clamp<long>(s, 0, max));
      }
    }
    return 0;
  });
  return p;
}

Picture distort(const Picture& ref, unsigned amplitude, std::uint32_t seed) {
  Picture p = clone(ref);
  const long max = (1L << ref.bpc()) - 1;
  std::mt19937 rng(seed);
  std::uniform_int_distribution<int> noise(-static_cast<int>(amplitude),
                                           static_cast<int>(amplitude));
  fill_any(p, [&](unsigned plane, unsigned x, unsigned y) -> std::uint32_t {
    const long v = static_cast<long>(ref.plane(plane).at(x, y)) + noise(rng);
    return static_cast<std::uint32_t>(std::clamp<long>(v, 0, max));
  });
  return p;
}

void copy_samples(Picture& dst, const Picture& src) {
  for (unsigned c = 0; c < src.plane_count(); ++c) {
    const Plane& s = src.plane(c);
    Plane& d = dst.plane(c);
    const std::size_t bytes = std::size_t{s.width()} * s.bytes_per_sample();
    for (unsigned y = 0; y < s.height(); ++y) {
      std::memcpy(d.row<std::uint8_t>(y), s.row<std::uint8_t>(y), bytes);
    }
  }
}

Picture clone(const Picture& src) {
  Picture p = Picture::make(src.format()).value();
  copy_samples(p, src);
  return p;
}

Video make_video(const PictureFormat& fmt, Content ref_c, unsigned frames, unsigned amplitude,
                 std::uint32_t seed, std::optional<Content> dist_c) {
  Video v;
  for (unsigned i = 0; i < frames; ++i) {
    FramePair f;
    f.ref = make_picture(fmt, ref_c, i, seed);
    f.dist = dist_c ? make_picture(fmt, *dist_c, i, seed + 1)
                    : distort(f.ref, amplitude << (fmt.bpc - 8), seed * 31u + i);
    v.push_back(std::move(f));
  }
  return v;
}

Expected<std::unique_ptr<Context>> make_context(const RunOptions& o) {
  ContextSettings settings;
  settings.threads = o.threads;
  settings.backend = o.backend;
  VQX_ASSIGN_OR_RETURN(auto ctx, Context::create(settings));
  for (const auto& m : o.models) VQX_RETURN_IF_ERROR(ctx->use_features_from_model(m));
  for (const auto& f : o.features) VQX_RETURN_IF_ERROR(ctx->use_feature(f));
  return ctx;
}

Expected<Run> score(const RunOptions& o, const Video& video) {
  VQX_ASSIGN_OR_RETURN(auto ctx, make_context(o));
  for (unsigned i = 0; i < video.size(); ++i) {
    VQX_RETURN_IF_ERROR(ctx->read_pictures(clone(video[i].ref), clone(video[i].dist), i));
  }
  VQX_RETURN_IF_ERROR(ctx->flush());
  return read_run(*ctx);
}

Run read_run(const Context& ctx) {
  Run r;
  for (const auto& name : ctx.metric_names()) {
    auto& vals = r.values[name];
    for (unsigned i = 0; i < ctx.frame_count(); ++i) {
      auto v = ctx.score_at_index(name, i);
      vals.push_back(v.ok() ? *v : std::nan(""));
    }
    auto b = ctx.metric_backend(name);
    r.backends[name] = b.ok() ? *b : "?";
  }
  for (const char* name : {"apsnr_y", "apsnr_cb", "apsnr_cr"}) {  // whole-video values
    auto v = ctx.aggregate_score(name);
    if (v.ok()) {
      r.values[name] = {*v};
      r.backends[name] = r.backends.count("psnr_y") != 0 ? r.backends["psnr_y"] : "?";
    }
  }
  return r;
}

namespace {

bool starts_with(const std::string& s, const char* prefix) { return s.rfind(prefix, 0) == 0; }

// float_adm's, float_vif's and float_motion's outputs (libvmaf's names:
// adm2, aim, adm3, adm_*, vif_*, motion, motion2, motion3, with the
// options' suffixes).
bool float_vmaf_feature(const std::string& metric) {
  for (const char* p : {"adm", "aim", "vif", "motion"}) {
    if (starts_with(metric, p)) return true;
  }
  return false;
}

bool has_twin(const std::string& metric) {
  if (metric == "ssim") return true;  // integer SSIM
  for (const char* p :
       {"integer_", "VMAF_integer_feature_motion", "psnr_", "mse_", "apsnr_", "float_psnr",
        "float_moment", "float_ssim", "float_ms_ssim", "speed_chroma", "speed_temporal", "cambi",
        "ssimulacra2", "float_ansnr", "float_anpsnr", "ciede2000"}) {
    if (starts_with(metric, p)) return true;
  }
  return float_vmaf_feature(metric);
}

// float_adm with adm_p_norm other than 3: the terms' power is libm's powf
// on the CPU, the device's pow on the GPU (docs/gpu.md).
bool device_power(const std::string& metric) {
  return float_vmaf_feature(metric) && metric.find("_apn_") != std::string::npos;
}

// Float features whose twins are bit-identical (docs/gpu.md).
bool bit_identical_float(const std::string& metric) {
  return starts_with(metric, "float_ssim") || starts_with(metric, "float_ms_ssim") ||
         starts_with(metric, "speed_") || starts_with(metric, "cambi") ||
         starts_with(metric, "ssimulacra2") ||
         (float_vmaf_feature(metric) && !device_power(metric)) ||
         starts_with(metric, "float_ansnr") || starts_with(metric, "float_anpsnr") ||
         starts_with(metric, "psnr_hvs") || starts_with(metric, "ciede2000");
}

bool is_float_feature(const std::string& metric) {
  return (starts_with(metric, "float_") || device_power(metric)) && !bit_identical_float(metric);
}

std::uint64_t bits(double v) {
  std::uint64_t b = 0;
  std::memcpy(&b, &v, sizeof b);
  return b;
}

}  // namespace

void expect_twins_agree(const Run& cpu, const Run& gpu, const std::string& what) {
  ASSERT_EQ(cpu.values.size(), gpu.values.size()) << what;
  for (const auto& [name, cv] : cpu.values) {
    auto it = gpu.values.find(name);
    ASSERT_NE(it, gpu.values.end()) << what << ": GPU run lacks " << name;
    const auto& gv = it->second;
    ASSERT_EQ(cv.size(), gv.size()) << what << ": " << name;
    if (has_twin(name)) {
      EXPECT_NE(gpu.backends.at(name), "cpu") << what << ": " << name << " did not run on the GPU";
    }
    for (std::size_t i = 0; i < cv.size(); ++i) {
      if (bit_identical_float(name)) {
        EXPECT_EQ(bits(cv[i]), bits(gv[i]))
            << what << ": " << name << " frame " << i << " cpu " << cv[i] << " gpu " << gv[i]
            << " (difference " << gv[i] - cv[i] << ", relative "
            << (gv[i] - cv[i]) / std::max(std::abs(cv[i]), 1e-300) << ")";
      } else if (is_float_feature(name)) {
        const double tol = 1e-6 * std::max(std::abs(cv[i]), 1e-300);
        EXPECT_LE(std::abs(cv[i] - gv[i]), tol)
            << what << ": " << name << " frame " << i << " cpu " << cv[i] << " gpu " << gv[i];
      } else {
        EXPECT_EQ(bits(cv[i]), bits(gv[i]))
            << what << ": " << name << " frame " << i << " cpu " << cv[i] << " gpu " << gv[i];
      }
    }
  }
}

void expect_identical(const Run& a, const Run& b, const std::string& what) {
  ASSERT_EQ(a.values.size(), b.values.size()) << what;
  for (const auto& [name, av] : a.values) {
    const auto& bv = b.values.at(name);
    ASSERT_EQ(av.size(), bv.size()) << what << ": " << name;
    for (std::size_t i = 0; i < av.size(); ++i) {
      EXPECT_EQ(bits(av[i]), bits(bv[i])) << what << ": " << name << " frame " << i;
    }
  }
}

std::vector<std::string> twin_features() {
  return {"vif", "vif=vif_enhn_gain_limit=1.0:debug=true", "vif=vif_skip_scale0=true:debug=true",
          "adm=debug=true", "adm=adm_enhn_gain_limit=1.0",
          "adm=adm_csf_mode=1:adm_norm_view_dist=4.5",
          "adm=adm_skip_scale0=true:adm_skip_aim=true:debug=true", "motion=debug=true",
          "motion=motion_five_frame_window=true:motion_moving_average=true",
          "motion=motion_force_zero=true", "motion=motion_blend_factor=0.5:motion_fps_weight=2.0",
          "psnr", "psnr=enable_mse=true:enable_apsnr=true", "float_psnr", "float_moment",
          "float_ssim", "float_ssim=enable_lcs=true", "ssim", "float_ms_ssim",
          "float_ms_ssim=enable_lcs=true", "speed_chroma",
          // vmaf_v1.0.16_3d0h's options, then _3d0h_2160's prescale
          "speed_chroma=speed_kernelscale=1.0:speed_nn_floor=0.1:speed_sigma_nn=0.19:"
          "speed_weight_var_mode=5:speed_max_val=45.0",
          "speed_chroma=speed_prescale=0.5:speed_prescale_method=bilinear:speed_weight_var_mode=6",
          "speed_temporal",
          "speed_temporal=speed_use_ref_diff=true:speed_prescale=0.75:"
          "speed_prescale_method=bicubic",
          "cambi=full_ref=true", "cambi=max_log_contrast=3:topk=0.01", "ssimulacra2",
          "ssimulacra2=matrix=bt2020:range=full:transfer=bt1886",
          // float_adm, float_vif, float_motion: every option between them
          "float_adm=debug=true",
          "float_adm=adm_enhn_gain_limit=1.0:adm_csf_mode=1:"
          "adm_norm_view_dist=4.5:adm_csf_scale=2.0:adm_csf_diag_scale=0.5",
          "float_adm=adm_skip_scale0=true:adm_skip_aim_scale=1:adm_bypass_cm=1",
          "float_adm=adm_csf_mode=2:adm_ref_display_height=2160:adm_noise_weight=0.5:"
          "adm_f1s0=0.5:adm_f2s3=2.0:adm_min_val=0.2:adm_adm3_apply_hm=true:adm_dlm_weight=0.3",
          "float_adm=adm_p_norm=2.0", "float_vif=debug=true",
          "float_vif=vif_kernelscale=0.5:vif_enhn_gain_limit=1.0",
          "float_vif=vif_kernelscale=2.0:vif_scale1_min_val=0.9:vif_scale3_min_val=0.99",
          "float_vif=vif_prescale=0.5:vif_prescale_method=bicubic:vif_skip_scale0=true",
          "float_vif=vif_prescale=1.5:vif_prescale_method=lanczos4",
          "float_vif=vif_prescale=0.8:vif_prescale_method=bilinear:vif_sigma_nsq=1.0:"
          "vif_scale2_min_val=0.5",
          "float_vif=vif_prescale=1.25:vif_prescale_method=nearest", "float_motion=debug=true",
          "float_motion=motion_add_scale1=true:motion_filter_size=3:motion_fps_weight=2.0",
          "float_motion=motion_add_uv=true:motion_blend_factor=0.5:motion_blend_offset=10.0",
          "float_motion=motion_filter_size=1:motion_max_val=3.0",
          "float_motion=motion_force_zero=true", "float_ansnr", "psnr_hvs", "ciede"};
}

std::vector<std::vector<std::string>> speed_feature_groups() {
  // Every option of both families; each variant writes names of its own
  // (every SpEED option renames the outputs), so one context holds them.
  return {
      {"speed_chroma",
       "speed_chroma=speed_weight_var_mode=1:speed_max_val=0.5",
       "speed_chroma=speed_weight_var_mode=2:speed_sigma_nn=0.5",
       "speed_chroma=speed_weight_var_mode=3:speed_nn_floor=0.3",
       "speed_chroma=speed_weight_var_mode=4:speed_kernelscale=1.5",
       "speed_chroma=speed_kernelscale=1.0:speed_nn_floor=0.1:speed_sigma_nn=0.19:"
       "speed_weight_var_mode=5:speed_max_val=45.0",
       "speed_chroma=speed_weight_var_mode=6:speed_kernelscale=0.5",
       "speed_chroma=speed_prescale=0.5:speed_prescale_method=bilinear:speed_weight_var_mode=5",
       "speed_chroma=speed_prescale=0.6:speed_prescale_method=bilinear",
       "speed_chroma=speed_prescale=1.5:speed_prescale_method=nearest",
       "speed_chroma=speed_prescale=0.8:speed_prescale_method=bicubic",
       "speed_chroma=speed_prescale=1.25:speed_prescale_method=lanczos4",
       "speed_temporal",
       "speed_temporal=speed_use_ref_diff=true",
       "speed_temporal=speed_sigma_nn=1.0:speed_nn_floor=0.5:speed_max_val=2",
       "speed_temporal=speed_kernelscale=3",
       "speed_temporal=speed_prescale=0.5:speed_prescale_method=bilinear",
       "speed_temporal=speed_prescale=2.0:speed_prescale_method=nearest",
       "speed_temporal=speed_prescale=0.7:speed_prescale_method=bicubic:speed_use_ref_diff=true",
       "speed_temporal=speed_prescale=0.9:speed_prescale_method=lanczos4"},
  };
}

std::vector<std::string> ssimulacra2_variants() {
  // Every matrix, range and transfer together: each non-default value
  // renames the output, so one context holds all 24.
  std::vector<std::string> specs;
  for (const char* matrix : {"bt709", "bt601", "bt2020"}) {
    for (const char* range : {"limited", "full"}) {
      for (const char* transfer : {"srgb", "bt709", "bt1886", "linear"}) {
        specs.push_back(std::string("ssimulacra2=matrix=") + matrix + ":range=" + range +
                        ":transfer=" + transfer);
      }
    }
  }
  return specs;
}

std::vector<std::vector<std::string>> ssim_feature_groups() {
  return {
      // The defaults (automatic scale) beside enable_lcs: they share names.
      {"float_ssim", "float_ssim=enable_lcs=true", "float_ms_ssim",
       "float_ms_ssim=enable_lcs=true"},
      {"float_ssim=enable_db=true:enable_lcs=true", "float_ms_ssim=enable_db=true:enable_lcs=true"},
      {"float_ssim=enable_db=true:clip_db=true", "float_ms_ssim=enable_db=true:clip_db=true"},
      {"float_ssim=scale=1:enable_lcs=true"},  // full resolution
      {"float_ssim=scale=2"},
      {"float_ssim=scale=3:enable_lcs=true"},  // an odd box
      {"float_ssim=scale=10:enable_db=true:clip_db=true"},
  };
}

std::vector<std::vector<std::string>> twin_features_apart() {
  std::vector<std::vector<std::string>> groups = ssim_feature_groups();
  groups.erase(groups.begin());  // twin_features() has the first
  groups.front().push_back("psnr=enable_chroma=false:reduced_hbd_peak=true:min_sse=0.5");
  return groups;
}

bool fits(const std::string& spec, const PictureFormat& fmt) {
  if (starts_with(spec, "speed_") || starts_with(spec, "cambi") ||
      starts_with(spec, "ssimulacra2") || starts_with(spec, "float_adm") ||
      starts_with(spec, "float_vif") || starts_with(spec, "float_motion") ||
      starts_with(spec, "float_ansnr") || starts_with(spec, "psnr_hvs") ||
      starts_with(spec, "ciede")) {
    // The family's own check, on the format the family sees (a context
    // gives 4:0:0 pictures to a family that reads chroma as 4:2:0).
    PictureFormat seen = fmt;
    if (!starts_with(spec, "speed_temporal") && seen.chroma == ChromaFormat::k400) {
      seen.chroma = ChromaFormat::k420;
    }
    auto req = parse_feature_spec(spec);
    const ExtractorFamily* family = req.ok() ? find_family(req->name) : nullptr;
    if (family == nullptr) return false;
    auto s = family->make_spec(req->options);
    return s.ok() && s->make()->init(seen).ok();
  }
  if (starts_with(spec, "float_ms_ssim")) {
    return ssim::check_ms_ssim_size(fmt.width, fmt.height).ok();
  }
  if (starts_with(spec, "float_ssim")) {
    int scale = 0;
    const auto at = spec.find("scale=");
    if (at != std::string::npos) scale = std::atoi(spec.c_str() + at + 6);
    return ssim::ssim_geometry(scale, fmt.width, fmt.height).ok();
  }
  return true;
}

std::vector<RunOptions> twin_runs(Backend backend, unsigned threads, const PictureFormat& fmt) {
  auto fitting = [&](const std::vector<std::string>& specs) {
    std::vector<std::string> out;
    for (const auto& s : specs) {
      if (fits(s, fmt)) out.push_back(s);
    }
    return out;
  };
  std::vector<RunOptions> runs = {{backend, threads, fitting(twin_features()), twin_models()}};
  for (const auto& group : twin_features_apart()) {
    std::vector<std::string> specs = fitting(group);
    if (!specs.empty()) runs.push_back({backend, threads, std::move(specs), {}});
  }
  return runs;
}

std::vector<std::string> twin_models() {
  return {"version=vmaf_v0.6.1:name=vmaf", "version=vmaf_v0.6.1neg:name=vmaf_neg",
          "version=vmaf_4k_v0.6.1:name=vmaf_4k", "version=vmaf_float_v0.6.1:name=vmaf_float",
          "version=vmaf_b_v0.6.3:name=vmaf_b"};
}

void expect_same_refusal(RunOptions o, const Video& video, const std::string& what) {
  o.backend = Backend::kCpu;
  auto cpu = score(o, video);
  o.backend = gpu_backend();
  auto gpu = score(o, video);
  ASSERT_FALSE(cpu.ok()) << what << ": the CPU scored it";
  ASSERT_FALSE(gpu.ok()) << what << ": the GPU scored it";
  EXPECT_EQ(cpu.status().message(), gpu.status().message()) << what;
}

std::string describe(const PictureFormat& f, const std::string& what) {
  return std::to_string(f.width) + "x" + std::to_string(f.height) + " " + std::to_string(f.bpc) +
         "-bit " + to_string(f.chroma) + " " + what;
}

std::vector<std::pair<std::filesystem::path, std::filesystem::path>> corpus_pairs(
    const std::filesystem::path& dir) {
  namespace fs = std::filesystem;
  std::vector<fs::path> refs, dists;
  for (const auto& e : fs::directory_iterator(dir)) {
    if (e.path().extension() != ".y4m") continue;
    (e.path().filename().string().find("__") == std::string::npos ? refs : dists)
        .push_back(e.path());
  }
  std::vector<std::pair<fs::path, fs::path>> pairs;
  for (const fs::path& d : dists) {
    const std::string body = d.filename().string().substr(0, d.filename().string().find("__"));
    const std::string id = body.substr(0, body.find('_'));
    const std::string rest = body.substr(id.size());
    for (const fs::path& r : refs) {
      const std::string stem = r.stem().string();
      const std::string rid = stem.substr(0, stem.find('_'));
      if (stem.substr(rid.size()) == rest && id.rfind(rid, 0) == 0) pairs.emplace_back(r, d);
    }
  }
  std::sort(pairs.begin(), pairs.end());
  return pairs;
}

}  // namespace vqx::gputest
