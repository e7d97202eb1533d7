// Float motion ("float_motion" in libvmaf): the numbers and options.
//
// The measure (libvmaf/src/feature/float_motion.c, motion.c): the luma of
// each reference frame, as float samples minus 128, is blurred with a
// separable 5-tap filter (mirrored borders); a frame's motion score is the
// mean absolute difference between its blurred luma and that of the frame
// before, optionally plus the same at half size (bilinear) and plus the
// chroma planes' scores. motion2 of a frame is the smaller of its score and
// the next frame's; motion3 is motion2 blended and clipped. See
// extractor.cpp for which frame gets which value.
#pragma once

#include <array>
#include <span>

#include "core/family.hpp"
#include "core/options.hpp"

namespace vqx::float_motion {

// Blur filters (libvmaf motion_tools.h: FILTER_5_s, FILTER_3_s and
// FILTER_5_NO_OP_s; float arrays initialised from these double literals).
inline constexpr std::array<float, 5> kFilter5 = {
    static_cast<float>(0.054488685), static_cast<float>(0.244201342),
    static_cast<float>(0.402619947), static_cast<float>(0.244201342),
    static_cast<float>(0.054488685)};
inline constexpr std::array<float, 3> kFilter3 = {static_cast<float>(0.166378498),
                                                  static_cast<float>(0.667243004),
                                                  static_cast<float>(0.166378498)};
inline constexpr std::array<float, 5> kFilterNoOp = {0.0f, 0.0f, 1.0f, 0.0f, 0.0f};

// motion_filter_size: 1 selects the no-op filter, 3 the 3-tap one, any
// other value the 5-tap one (float_motion.c, extract()).
inline std::span<const float> blur_filter(int filter_size) {
  if (filter_size == 1) return kFilterNoOp;
  if (filter_size == 3) return kFilter3;
  return kFilter5;
}

// Option names as libvmaf spells them (float_motion.c, options[]).
inline constexpr const char* kOptDebug = "debug";
inline constexpr const char* kOptForceZero = "motion_force_zero";
inline constexpr const char* kOptFpsWeight = "motion_fps_weight";
inline constexpr const char* kOptBlendFactor = "motion_blend_factor";
inline constexpr const char* kOptBlendOffset = "motion_blend_offset";
inline constexpr const char* kOptAddScale1 = "motion_add_scale1";
inline constexpr const char* kOptFilterSize = "motion_filter_size";
inline constexpr const char* kOptAddUv = "motion_add_uv";
inline constexpr const char* kOptMaxVal = "motion_max_val";

// The parsed options, with libvmaf's defaults (DEFAULT_MOTION_MAX_VAL,
// DEFAULT_MOTION_FILTER_SIZE; note debug defaults to true here).
struct Params {
  bool debug = true;
  bool force_zero = false;
  double fps_weight = 1.0;
  double blend_factor = 1.0;
  double blend_offset = 40.0;
  bool add_scale1 = false;
  int filter_size = 5;
  bool add_uv = false;
  double max_val = 10000.0;
};

// libvmaf float_motion.c, options[]: name, alias, default, min, max and
// whether a non-default value renames the outputs.
inline std::span<const OptionDef> option_defs() {
  static const Params d;
  static const std::array<OptionDef, 9> kDefs = {{
      {kOptDebug, nullptr, OptionValue{d.debug}, 0, 0, false, kSelectsOutputs},
      {kOptForceZero, "force_0", OptionValue{d.force_zero}, 0, 0, true},
      {kOptFpsWeight, "mfw", OptionValue{d.fps_weight}, 0.0, 5.0, true},
      {kOptBlendFactor, "mbf", OptionValue{d.blend_factor}, 0.0, 1.0, true},
      {kOptBlendOffset, "mbo", OptionValue{d.blend_offset}, 0.0, 1000.0, true},
      {kOptAddScale1, "mdc", OptionValue{d.add_scale1}, 0, 0, true},
      {kOptFilterSize, "mfs", OptionValue{d.filter_size}, 0, 9, true},
      {kOptAddUv, "mau", OptionValue{d.add_uv}, 0, 0, true},
      {kOptMaxVal, "mmxv", OptionValue{d.max_val}, 0.0, 10000.0, true},
  }};
  return kDefs;
}

// Outputs in slot order (float_motion.c provided_features, renamed by
// alias.c): motion (debug only), motion2, motion3.
inline constexpr std::array<OutputDef, 3> kOutputs = {{
    {.base = "motion", .when = {kOptDebug}},
    {"motion2"},
    {"motion3"},
}};

// The feature names models use, with their output names.
inline constexpr std::array<FeatureAlias, 3> kProvides = {{
    {"VMAF_feature_motion_score", "motion"},
    {"VMAF_feature_motion2_score", "motion2"},
    {"VMAF_feature_motion3_score", "motion3"},
}};

}  // namespace vqx::float_motion
