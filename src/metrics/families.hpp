// One accessor per extractor family, defined in src/metrics/<family>/extractor.cpp;
// src/metrics/registry.cpp lists the ones that are built.
#pragma once

#include "core/family.hpp"

namespace vqx {

// Integer VMAF features (bit-exact with libvmaf).
const ExtractorFamily& integer_vif_family();     // "vif"
const ExtractorFamily& integer_adm_family();     // "adm"
const ExtractorFamily& integer_motion_family();  // "motion"
const ExtractorFamily& integer_ssim_family();    // "ssim" (libvmaf's source, not registered there)

// The other features of libvmaf, and SSIMULACRA2.
const ExtractorFamily& psnr_family();            // "psnr"
const ExtractorFamily& float_psnr_family();      // "float_psnr"
const ExtractorFamily& float_moment_family();    // "float_moment"
const ExtractorFamily& float_ansnr_family();     // "float_ansnr"
const ExtractorFamily& float_ssim_family();      // "float_ssim"
const ExtractorFamily& float_ms_ssim_family();   // "float_ms_ssim"
const ExtractorFamily& ciede_family();           // "ciede"
const ExtractorFamily& psnr_hvs_family();        // "psnr_hvs"
const ExtractorFamily& cambi_family();           // "cambi"
const ExtractorFamily& float_adm_family();       // "float_adm"
const ExtractorFamily& float_vif_family();       // "float_vif"
const ExtractorFamily& float_motion_family();    // "float_motion"
const ExtractorFamily& speed_chroma_family();    // "speed_chroma"
const ExtractorFamily& speed_temporal_family();  // "speed_temporal"
const ExtractorFamily& ssimulacra2_family();     // "ssimulacra2"

}  // namespace vqx
