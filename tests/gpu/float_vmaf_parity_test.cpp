// (a) for float_adm, float_vif and float_motion: every option of each
// (float_vmaf_groups(): the CSF modes and their scales, the gain limits,
// bypass_cm, skip_scale0, skip_aim_scale, the f1/f2 overrides, the kernel
// scales, the four prescale methods up and down, sigma_nsq, the minimum
// values, motion's filter sizes, add_scale1, add_uv, the blend, fps weight
// and max_val, force_zero, and every debug output) on pictures of every
// depth from 8 to 16 bits, 4:0:0 to 4:4:4, the smallest each takes, odd
// sizes, 1080p and 4K, flat, all-max, zero against max, noise; four frames
// (float_motion compares consecutive frames), and frames of different
// contents in turn (a cut); bit-identical to the CPU twin (docs/gpu.md),
// but adm_p_norm other than 3 (the device's pow: within 1e-6). With them
// the models vmaf_float_v0.6.1 and vmaf_b_v0.6.3, every feature of which
// runs on the GPU, and whose scores must be equal to the bit. The corpus
// pairs and GpuParity's other cases include the twins too (parity_test.cpp,
// twin_features()).
#include "gpu_test_util.hpp"

namespace vqx::gputest {
namespace {

struct Case {
  unsigned w, h, bpc;
  ChromaFormat chroma;
  Content ref;
  std::optional<Content> dist;  // else ref + noise of `amplitude`
  unsigned amplitude;
};

std::string describe(const PictureFormat& f, const std::string& content) {
  return std::to_string(f.width) + "x" + std::to_string(f.height) + " " + std::to_string(f.bpc) +
         "-bit chroma " + std::to_string(static_cast<int>(f.chroma)) + " " + content;
}

std::vector<std::string> float_models() {
  return {"version=vmaf_float_v0.6.1:name=vmaf_float", "version=vmaf_b_v0.6.3:name=vmaf_b"};
}

// Every float_adm, float_vif and float_motion variant, in contexts that
// take them together (each variant writes names of its own, but the debug
// outputs "adm", "vif" and "motion" of one request each).
std::vector<std::vector<std::string>> float_vmaf_groups() {
  return {
      {"float_adm=debug=true",
       "float_vif=debug=true",
       "float_motion=debug=true",
       "float_adm=adm_enhn_gain_limit=1.0:adm_csf_mode=1:adm_norm_view_dist=4.5:"
       "adm_csf_scale=2.0:adm_csf_diag_scale=0.5",
       "float_adm=adm_skip_scale0=true:adm_skip_aim_scale=1:adm_bypass_cm=1",
       "float_adm=adm_csf_mode=2:adm_ref_display_height=2160:adm_noise_weight=0.5:adm_f1s0=0.5:"
       "adm_f2s3=2.0:adm_min_val=0.2:adm_adm3_apply_hm=true:adm_dlm_weight=0.3",
       "float_adm=adm_f1s1=1.5:adm_f1s2=0.0:adm_f1s3=3.0:adm_f2s0=0.25:adm_f2s1=0.0:adm_f2s2=4.0:"
       "adm_skip_aim_scale=0",
       "float_adm=adm_csf_mode=5",
       "float_adm=adm_p_norm=2.0",
       "float_adm=adm_p_norm=4.5:adm_bypass_cm=1",
       "float_vif=vif_kernelscale=0.5:vif_enhn_gain_limit=1.0",
       "float_vif=vif_kernelscale=2.0:vif_scale1_min_val=0.9:vif_scale3_min_val=0.99",
       "float_vif=vif_kernelscale=1.5:vif_sigma_nsq=4.0",
       "float_vif=vif_prescale=0.5:vif_prescale_method=bicubic:vif_skip_scale0=true",
       "float_vif=vif_prescale=1.5:vif_prescale_method=lanczos4",
       "float_vif=vif_prescale=0.8:vif_prescale_method=bilinear:vif_sigma_nsq=1.0:"
       "vif_scale2_min_val=0.5",
       "float_vif=vif_prescale=1.25:vif_prescale_method=nearest",
       "float_vif=vif_prescale=0.6:vif_prescale_method=lanczos4",
       "float_motion=motion_add_scale1=true:motion_filter_size=3:motion_fps_weight=2.0",
       "float_motion=motion_add_uv=true:motion_blend_factor=0.5:motion_blend_offset=10.0",
       "float_motion=motion_add_uv=true:motion_add_scale1=true:motion_max_val=1.0",
       "float_motion=motion_filter_size=1:motion_max_val=3.0",
       "float_motion=motion_filter_size=7",
       "float_motion=motion_force_zero=true"},
      // The debug outputs of other variants (one request each writes
      // "adm", "vif", "motion").
      {"float_adm=adm_p_norm=2.5:debug=true", "float_vif=vif_skip_scale0=true:debug=true",
       "float_motion=motion_add_uv=true:motion_add_scale1=true:debug=true"},
  };
}

// Every float variant that takes the pictures, group by group, on the CPU
// and on the GPU; with the float models in the first group.
void check_float_vmaf(const Video& v, const std::string& what) {
  const PictureFormat fmt = v.front().ref.format();
  bool first = true;
  for (const auto& group : float_vmaf_groups()) {
    RunOptions o;
    for (const auto& spec : group) {
      if (fits(spec, fmt)) o.features.push_back(spec);
    }
    // vmaf_b_v0.6.3 reads integer ADM, which needs 33x33.
    if (first && fits("float_vif", fmt) && fmt.width >= 33 && fmt.height >= 33) {
      o.models = float_models();
    }
    first = false;
    if (o.features.empty()) continue;
    o.threads = 4;
    auto cpu = score(o, v);
    o.backend = gpu_backend();
    auto gpu = score(o, v);
    ASSERT_TRUE(cpu.ok()) << what << ": " << cpu.status().message();
    ASSERT_TRUE(gpu.ok()) << what << ": " << gpu.status().message();
    expect_twins_agree(*cpu, *gpu, what);
  }
}

TEST(GpuParity, FloatVmafTwinsAtEveryDepthSizeAndContent) {
  VQX_REQUIRE_GPU();
  using C = Content;
  const std::vector<Case> cases = {
      {17, 17, 8, ChromaFormat::k444, C::kNoise, std::nullopt, 40},  // float_adm's smallest
      {33, 35, 9, ChromaFormat::k420, C::kSmooth, std::nullopt, 5},
      {161, 80, 10, ChromaFormat::k422, C::kNoise, std::nullopt, 20},
      {177, 145, 11, ChromaFormat::k444, C::kChecker, std::nullopt, 30},
      {333, 251, 12, ChromaFormat::k420, C::kRamp, std::nullopt, 6},
      {641, 359, 13, ChromaFormat::k400, C::kSmooth, std::nullopt, 9},  // neutral chroma
      {720, 481, 14, ChromaFormat::k422, C::kSmooth, std::nullopt, 4},
      {1001, 563, 15, ChromaFormat::k420, C::kNoise, std::nullopt, 100},
      {1283, 719, 16, ChromaFormat::k420, C::kSmooth, std::nullopt, 3},
      {320, 240, 8, ChromaFormat::k420, C::kFlat, C::kFlat, 0},
      {320, 240, 16, ChromaFormat::k420, C::kMax, C::kMax, 0},
      {321, 241, 8, ChromaFormat::k444, C::kZero, C::kMax, 0},
      {321, 241, 10, ChromaFormat::k420, C::kMax, C::kZero, 0},
      {400, 300, 12, ChromaFormat::k420, C::kFlat, C::kNoise, 0},
      {1920, 1080, 8, ChromaFormat::k420, C::kSmooth, std::nullopt, 5},
      {3840, 2160, 10, ChromaFormat::k420, C::kSmooth, std::nullopt, 7},
  };
  std::uint32_t seed = 1300;
  for (const Case& c : cases) {
    const PictureFormat fmt{c.w, c.h, c.bpc, c.chroma};
    const Video v = make_video(fmt, c.ref, 4, c.amplitude, seed++, c.dist);
    check_float_vmaf(v, describe(fmt, "content " + std::to_string(static_cast<int>(c.ref))));
  }
}

// float_motion's kept frame is always the one before: frames of six
// contents in turn.
TEST(GpuParity, FloatMotionAcrossCuts) {
  VQX_REQUIRE_GPU();
  for (const PictureFormat& fmt : {PictureFormat{640, 360, 8, ChromaFormat::k420},
                                   PictureFormat{1280, 720, 12, ChromaFormat::k422}}) {
    Video v;
    const Content order[] = {Content::kSmooth,  Content::kNoise, Content::kRamp,
                             Content::kChecker, Content::kFlat,  Content::kMax};
    for (unsigned i = 0; i < 12; ++i) {
      const Video one = make_video(fmt, order[i % 6], 1, 4, 40 + i);
      v.push_back({clone(one[0].ref), clone(one[0].dist)});
    }
    RunOptions o;
    o.features = {"float_motion=debug=true",
                  "float_motion=motion_add_uv=true:motion_add_scale1=true:motion_filter_size=3"};
    o.models = {"version=vmaf_float_v0.6.1:name=vmaf_float"};
    auto cpu = score(o, v);
    o.backend = gpu_backend();
    auto gpu = score(o, v);
    ASSERT_TRUE(cpu.ok()) << cpu.status().message();
    ASSERT_TRUE(gpu.ok()) << gpu.status().message();
    expect_twins_agree(*cpu, *gpu, describe(fmt, "cuts"));
  }
}

// vmaf_float_v0.6.1 and vmaf_b_v0.6.3 alone: every feature they read runs
// on the GPU, only the models' scores (SVM, bootstrap) on the host; the
// scores equal the CPU's to the bit.
TEST(GpuParity, FloatVmafModelsComputeEveryFeatureOnTheGpu) {
  VQX_REQUIRE_GPU();
  for (const PictureFormat& fmt : {PictureFormat{1920, 1080, 8, ChromaFormat::k420},
                                   PictureFormat{576, 324, 10, ChromaFormat::k420}}) {
    const Video v = make_video(fmt, Content::kSmooth, 3, 6, 77);
    RunOptions o;
    o.models = float_models();
    auto cpu = score(o, v);
    o.backend = gpu_backend();
    auto gpu = score(o, v);
    ASSERT_TRUE(cpu.ok()) << cpu.status().message();
    ASSERT_TRUE(gpu.ok()) << gpu.status().message();
    expect_twins_agree(*cpu, *gpu, describe(fmt, "models"));
    for (const auto& [name, backend] : gpu->backends) {
      const bool model = name.rfind("vmaf_float", 0) == 0 || name.rfind("vmaf_b", 0) == 0;
      if (model) {
        EXPECT_EQ(backend, "cpu") << name;
      } else {
        EXPECT_NE(backend, "cpu") << name << " did not run on the GPU";
      }
    }
  }
}

}  // namespace
}  // namespace vqx::gputest
