#include "libvmaf_feature_names.hpp"

namespace vqx::test {

namespace {

// Collected from libvmaf 3.2.0: every extractor's provided-feature list
// (libvmaf/src/feature/*.c) and the alias table (feature/alias.c). A name
// without an alias keeps its own name as output base. Listed in libvmaf's
// extractor search order; no name is provided by two extractors.
constexpr LibvmafFeatureName kNames[] = {
    // float_psnr, float_ansnr
    {"float_psnr", "float_psnr", "float_psnr"},
    {"float_ansnr", "float_ansnr", "float_ansnr"},
    // float_adm
    {"VMAF_feature_adm2_score", "float_adm", "adm2"},
    {"VMAF_feature_aim_score", "float_adm", "aim"},
    {"VMAF_feature_adm3_score", "float_adm", "adm3"},
    {"VMAF_feature_adm_scale0_score", "float_adm", "adm_scale0"},
    {"VMAF_feature_adm_scale1_score", "float_adm", "adm_scale1"},
    {"VMAF_feature_adm_scale2_score", "float_adm", "adm_scale2"},
    {"VMAF_feature_adm_scale3_score", "float_adm", "adm_scale3"},
    {"adm_num", "float_adm", "adm_num"},
    {"adm_den", "float_adm", "adm_den"},
    {"adm_scale0", "float_adm", "adm_scale0"},
    {"adm_num_scale0", "float_adm", "adm_num_scale0"},
    {"adm_den_scale0", "float_adm", "adm_den_scale0"},
    {"adm_num_scale1", "float_adm", "adm_num_scale1"},
    {"adm_den_scale1", "float_adm", "adm_den_scale1"},
    {"adm_num_scale2", "float_adm", "adm_num_scale2"},
    {"adm_den_scale2", "float_adm", "adm_den_scale2"},
    {"adm_num_scale3", "float_adm", "adm_num_scale3"},
    {"adm_den_scale3", "float_adm", "adm_den_scale3"},
    // float_vif
    {"VMAF_feature_vif_scale0_score", "float_vif", "vif_scale0"},
    {"VMAF_feature_vif_scale1_score", "float_vif", "vif_scale1"},
    {"VMAF_feature_vif_scale2_score", "float_vif", "vif_scale2"},
    {"VMAF_feature_vif_scale3_score", "float_vif", "vif_scale3"},
    {"vif", "float_vif", "vif"},
    {"vif_num", "float_vif", "vif_num"},
    {"vif_den", "float_vif", "vif_den"},
    {"vif_num_scale0", "float_vif", "vif_num_scale0"},
    {"vif_den_scale0", "float_vif", "vif_den_scale0"},
    {"vif_num_scale1", "float_vif", "vif_num_scale1"},
    {"vif_den_scale1", "float_vif", "vif_den_scale1"},
    {"vif_num_scale2", "float_vif", "vif_num_scale2"},
    {"vif_den_scale2", "float_vif", "vif_den_scale2"},
    {"vif_num_scale3", "float_vif", "vif_num_scale3"},
    {"vif_den_scale3", "float_vif", "vif_den_scale3"},
    // float_motion
    {"VMAF_feature_motion_score", "float_motion", "motion"},
    {"VMAF_feature_motion2_score", "float_motion", "motion2"},
    {"VMAF_feature_motion3_score", "float_motion", "motion3"},
    // float_moment
    {"float_moment", "float_moment", "float_moment"},
    // speed_chroma, speed_temporal
    {"Speed_chroma_feature_speed_chroma_u_score", "speed_chroma", "speed_chroma_u"},
    {"Speed_chroma_feature_speed_chroma_v_score", "speed_chroma", "speed_chroma_v"},
    {"Speed_chroma_feature_speed_chroma_uv_score", "speed_chroma", "speed_chroma_uv"},
    {"Speed_temporal_feature_speed_temporal_score", "speed_temporal", "speed_temporal"},
    // float_ms_ssim, float_ssim, ciede, psnr, psnr_hvs
    {"float_ms_ssim", "float_ms_ssim", "float_ms_ssim"},
    {"float_ssim", "float_ssim", "float_ssim"},
    {"ciede2000", "ciede", "ciede2000"},
    {"psnr_y", "psnr", "psnr_y"},
    {"psnr_cb", "psnr", "psnr_cb"},
    {"psnr_cr", "psnr", "psnr_cr"},
    {"psnr_hvs_y", "psnr_hvs", "psnr_hvs_y"},
    {"psnr_hvs_cb", "psnr_hvs", "psnr_hvs_cb"},
    {"psnr_hvs_cr", "psnr_hvs", "psnr_hvs_cr"},
    {"psnr_hvs", "psnr_hvs", "psnr_hvs"},
    // integer adm
    {"VMAF_integer_feature_adm2_score", "adm", "integer_adm2"},
    {"VMAF_integer_feature_aim_score", "adm", "integer_aim"},
    {"VMAF_integer_feature_adm3_score", "adm", "integer_adm3"},
    {"integer_adm_scale0", "adm", "integer_adm_scale0"},
    {"integer_adm_scale1", "adm", "integer_adm_scale1"},
    {"integer_adm_scale2", "adm", "integer_adm_scale2"},
    {"integer_adm_scale3", "adm", "integer_adm_scale3"},
    {"integer_adm", "adm", "integer_adm"},
    {"integer_adm_num", "adm", "integer_adm_num"},
    {"integer_adm_den", "adm", "integer_adm_den"},
    {"integer_adm_num_scale0", "adm", "integer_adm_num_scale0"},
    {"integer_adm_den_scale0", "adm", "integer_adm_den_scale0"},
    {"integer_adm_num_scale1", "adm", "integer_adm_num_scale1"},
    {"integer_adm_den_scale1", "adm", "integer_adm_den_scale1"},
    {"integer_adm_num_scale2", "adm", "integer_adm_num_scale2"},
    {"integer_adm_den_scale2", "adm", "integer_adm_den_scale2"},
    {"integer_adm_num_scale3", "adm", "integer_adm_num_scale3"},
    {"integer_adm_den_scale3", "adm", "integer_adm_den_scale3"},
    // integer motion
    {"VMAF_integer_feature_motion_sad_score", "motion", "VMAF_integer_feature_motion_sad_score"},
    {"VMAF_integer_feature_motion_score", "motion", "integer_motion"},
    {"VMAF_integer_feature_motion2_score", "motion", "integer_motion2"},
    {"VMAF_integer_feature_motion3_score", "motion", "integer_motion3"},
    // integer vif
    {"VMAF_integer_feature_vif_scale0_score", "vif", "integer_vif_scale0"},
    {"VMAF_integer_feature_vif_scale1_score", "vif", "integer_vif_scale1"},
    {"VMAF_integer_feature_vif_scale2_score", "vif", "integer_vif_scale2"},
    {"VMAF_integer_feature_vif_scale3_score", "vif", "integer_vif_scale3"},
    {"integer_vif", "vif", "integer_vif"},
    {"integer_vif_num", "vif", "integer_vif_num"},
    {"integer_vif_den", "vif", "integer_vif_den"},
    {"integer_vif_num_scale0", "vif", "integer_vif_num_scale0"},
    {"integer_vif_den_scale0", "vif", "integer_vif_den_scale0"},
    {"integer_vif_num_scale1", "vif", "integer_vif_num_scale1"},
    {"integer_vif_den_scale1", "vif", "integer_vif_den_scale1"},
    {"integer_vif_num_scale2", "vif", "integer_vif_num_scale2"},
    {"integer_vif_den_scale2", "vif", "integer_vif_den_scale2"},
    {"integer_vif_num_scale3", "vif", "integer_vif_num_scale3"},
    {"integer_vif_den_scale3", "vif", "integer_vif_den_scale3"},
    // cambi
    {"Cambi_feature_cambi_score", "cambi", "cambi"},
};

}  // namespace

std::span<const LibvmafFeatureName> libvmaf_feature_names() { return kNames; }

}  // namespace vqx::test
