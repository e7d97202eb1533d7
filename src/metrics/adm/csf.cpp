#include "metrics/adm/csf.hpp"

#include <cmath>
#include <string>

namespace vqx::adm {

namespace {

constexpr double kPi = 3.14159265358979323846;  // M_PI as libvmaf spells it

// Display visual resolution in pixels per degree, rounded to float as
// libvmaf does (about 56.55 at 3 x 1080).
float pixels_per_degree(double norm_view_dist, int display_height) {
  return static_cast<float>(norm_view_dist * display_height * kPi / 180.0);
}

// --- Watson et al. 1997 noise floor (integer_adm.h, dwt_7_9_YCbCr_threshold
// for luma, and dwt_7_9_basis_function_amplitudes). ---------------------------
constexpr double kWatsonA = 0.495;
constexpr double kWatsonK = 0.466;
constexpr double kWatsonF0 = 0.401;
constexpr std::array<double, 4> kWatsonG = {1.501, 1.0, 0.534, 1.0};
constexpr double kBasisAmplitude[6][4] = {
    {0.62171, 0.67234, 0.72709, 0.67234},     {0.34537, 0.41317, 0.49428, 0.41317},
    {0.18004, 0.22727, 0.28688, 0.22727},     {0.091401, 0.11792, 0.15214, 0.11792},
    {0.045943, 0.059758, 0.077727, 0.059758}, {0.023013, 0.030018, 0.039156, 0.030018}};

// libvmaf keeps these tables in float, initialised from double literals.
float f32(double v) { return static_cast<float>(v); }

// Quantisation step at which wavelet noise becomes visible, Watson's
// formula (9); theta 1 = horizontal/vertical, 2 = diagonal.
float watson_step(int scale, int theta, double norm_view_dist, int display_height) {
  const float r = pixels_per_degree(norm_view_dist, display_height);
  const float lg =
      f32(std::log10(std::pow(2.0, scale + 1) * f32(kWatsonF0) * f32(kWatsonG[theta]) / r));
  const float exponent = f32(kWatsonK) * lg * lg;  // float arithmetic, as in C
  return f32(2.0 * f32(kWatsonA) * std::pow(10.0, static_cast<double>(exponent)) /
             f32(kBasisAmplitude[scale][theta]));
}

// --- Barten CSF as in HDR-VDP-2 (barten_csf_tools.h). ------------------------
constexpr std::array<double, 6> kBartenLumAnchors = {0.002, 0.02, 0.2, 2.0, 20.0, 150.0};
constexpr double kBartenParams[6][5] = {{0.0160737, 0.991265, 3.74038, 0.50722, 4.46044},
                                        {0.383873, 0.800889, 3.54104, 0.682505, 4.94958},
                                        {0.929301, 0.476505, 4.37453, 0.750315, 5.28678},
                                        {1.29776, 0.405782, 4.40602, 0.935314, 5.61425},
                                        {1.49222, 0.334278, 3.79542, 1.07327, 6.4635},
                                        {1.46213, 0.394533, 2.7755, 1.16577, 7.45665}};
constexpr std::array<double, 4> kBartenSa = {30.162, 4.0627, 1.6596, 0.2712};
constexpr std::array<double, 4> kBartenMtfA = {0.424838596301290, 0.572435103936480,
                                               0.000167576239164937, 0.00255872352306433};
constexpr std::array<double, 4> kBartenMtfB = {0.028, 0.37, 37.0, 360.0};

float lerp_f(float x0, float y0, float x1, float y1, float x) {
  return y0 + ((y1 - y0) / (x1 - x0)) * (x - x0);
}

// Luminance-dependent gain (rod/cone sensitivity).
float barten_luminance_gain(float lum) {
  const float drop = f32(kBartenSa[1]);
  const float slope = f32(kBartenSa[2]);
  const float low = f32(kBartenSa[3]);
  const double inner = std::pow(static_cast<double>(drop / lum), static_cast<double>(slope)) + 1;
  return f32(f32(kBartenSa[0]) * std::pow(inner, static_cast<double>(-low)));
}

// Optical modulation transfer function of the eye.
float barten_mtf(float f) {
  float m = 0.0f;
  for (int i = 0; i < 4; ++i) {
    const float e = -f32(kBartenMtfB[i]) * f;
    m = f32(m + f32(kBartenMtfA[i]) * std::exp(static_cast<double>(e)));
  }
  return m;
}

float barten_weight(int scale, double norm_view_dist, int display_height, double lum, double gain) {
  const float r = pixels_per_degree(norm_view_dist, display_height);
  const float f = f32(r / std::pow(2, scale + 1));

  // Clamp the luminance to the measured anchors and find its bracket.
  double l = lum;
  if (l > f32(kBartenLumAnchors[5])) {
    l = f32(kBartenLumAnchors[5]);
  } else if (l < f32(kBartenLumAnchors[0])) {
    l = f32(kBartenLumAnchors[0]);
  }
  int lo = 0;
  int hi = 0;
  for (int i = 0; i < 5; ++i) {
    if (l >= f32(kBartenLumAnchors[i]) && l <= f32(kBartenLumAnchors[i + 1])) {
      lo = i;
      hi = i + 1;
      break;
    }
  }
  const float x0 = f32(std::log10(static_cast<double>(f32(kBartenLumAnchors[lo]))));
  const float x1 = f32(std::log10(static_cast<double>(f32(kBartenLumAnchors[hi]))));
  const float x = f32(std::log10(l));
  std::array<float, 4> p{};
  for (int k = 0; k < 4; ++k) {
    p[k] = lerp_f(x0, f32(kBartenParams[lo][k + 1]), x1, f32(kBartenParams[hi][k + 1]), x);
  }
  // Neural CSF: p3 / sqrt(a * b), evaluated in libvmaf's mix of float and double.
  const float a = f32(1.0f + std::pow(static_cast<double>(p[0] * f), static_cast<double>(p[1])));
  const double fr = static_cast<double>(f / 7);
  const float b = f32(1.0f / std::pow(1 - std::exp(-std::pow(fr, 2.0)), static_cast<double>(p[2])));
  const float neural = f32(p[3] / std::pow(static_cast<double>(a * b), 0.5));
  const float partial = neural * barten_mtf(f) * barten_luminance_gain(f32(lum));
  return f32(partial * gain);
}

// --- Barten/Watson blends: tabulated per viewing condition
// (barten_csf_tools.h, BLENDED_CSF_*). [0] = h/v, [1] = diagonal. -------------
using BlendTable = double[2][4];
constexpr BlendTable kBlend1080x3 = {{0.01183, 0.025026, 0.04295, 0.058621},
                                     {0.004302, 0.011778, 0.023918, 0.035901}};
constexpr BlendTable kBlend1080x5 = {{0.004212, 0.014809, 0.029642, 0.047464},
                                     {0.000984, 0.005852, 0.0146, 0.027574}};
constexpr BlendTable kBlend2160x3 = {{0.00226, 0.01183, 0.025026, 0.04295},
                                     {0.000479, 0.004302, 0.011778, 0.023918}};
constexpr BlendTable kBlend2160x5 = {{0.000092, 0.004212, 0.014809, 0.029642},
                                     {0.000050, 0.000984, 0.005852, 0.0146}};
constexpr BlendTable kBlend720x3 = {{0.018715, 0.035637, 0.052798, 0.061509},
                                    {0.007999, 0.018396, 0.031851, 0.037718}};
constexpr BlendTable kBlend720x5 = {{0.010144, 0.022561, 0.040309, 0.05672},
                                    {0.003463, 0.010282, 0.021839, 0.034641}};
constexpr BlendTable kBlend480x3 = {{0.027961, 0.045875, 0.060275, 0.056234},
                                    {0.013572, 0.026277, 0.036959, 0.034511}};
constexpr BlendTable kBlend480x5 = {{0.016781, 0.032822, 0.05032, 0.061594},
                                    {0.00691, 0.016545, 0.029917, 0.037777}};

constexpr BlendTable kMae1080x3 = {{0.011249, 0.022606, 0.035930, 0.045673},
                                   {0.004097, 0.010921, 0.021430, 0.031313}};
constexpr BlendTable kMae1080x5 = {{0.004052, 0.013939, 0.026298, 0.038833},
                                   {0.000927, 0.005544, 0.013415, 0.024515}};
constexpr BlendTable kMae2160x3 = {{0.002166, 0.011249, 0.022606, 0.035930},
                                   {0.000447, 0.004097, 0.010921, 0.021430}};
constexpr BlendTable kMae2160x5 = {{0.000077, 0.004052, 0.013939, 0.026298},
                                   {0.000045, 0.000927, 0.005544, 0.013415}};
constexpr BlendTable kMae720x3 = {{0.017329, 0.030870, 0.042134, 0.047410},
                                  {0.007509, 0.016707, 0.028072, 0.032722}};
constexpr BlendTable kMae720x5 = {{0.009689, 0.020577, 0.034162, 0.044523},
                                  {0.003302, 0.009579, 0.019661, 0.030318}};
constexpr BlendTable kMae480x3 = {{0.024969, 0.037825, 0.046676, 0.043974},
                                  {0.012511, 0.023424, 0.032139, 0.030166}};
constexpr BlendTable kMae480x5 = {{0.015665, 0.028766, 0.040612, 0.047483},
                                  {0.006514, 0.015107, 0.026476, 0.032776}};

struct BlendEntry {
  int height;
  double view_dist;
  const BlendTable* legacy;
  const BlendTable* mae;
};

// 2160 at 1.5 H has the pixels per degree of 1080 at 3 H and shares its table.
constexpr BlendEntry kBlendEntries[] = {
    {1080, 3.0, &kBlend1080x3, &kMae1080x3}, {1080, 5.0, &kBlend1080x5, &kMae1080x5},
    {2160, 1.5, &kBlend1080x3, &kMae1080x3}, {2160, 3.0, &kBlend2160x3, &kMae2160x3},
    {2160, 5.0, &kBlend2160x5, &kMae2160x5}, {720, 3.0, &kBlend720x3, &kMae720x3},
    {720, 5.0, &kBlend720x5, &kMae720x5},    {480, 3.0, &kBlend480x3, &kMae480x3},
    {480, 5.0, &kBlend480x5, &kMae480x5},
};

const BlendTable* find_blend(const AdmParams& p) {
  for (const BlendEntry& e : kBlendEntries) {
    if (p.ref_display_height == e.height && p.norm_view_dist == e.view_dist) {
      return p.csf_mode == CsfMode::kBartenWatsonBlend ? e.legacy : e.mae;
    }
  }
  return nullptr;
}

// libvmaf converts these products to unsigned integers with a plain C cast.
// Within range that truncates toward zero; out of range, x86-64 code goes
// through a signed conversion (32-bit for uint16_t, 64-bit for uint32_t)
// that yields the "integer indefinite" value, and keeps its low bits.
// Out of range happens in practice: the Barten weights (about 1.2 at scale
// 0 to 27 at scale 3 with the defaults) do not fit the Q21/Q23 16-bit and
// Q32 formats, so libvmaf's integer ADM with adm_csf_mode=1 computes with
// wrapped weights (and its AVX2/AVX-512 paths wrap differently from its C
// path, which is the one reproduced here).
std::uint16_t to_u16_like_c(double v) {
  if (!(v > -2147483649.0 && v < 2147483648.0)) return 0;
  return static_cast<std::uint16_t>(static_cast<std::int32_t>(v));
}

std::uint32_t to_u32_like_c(double v) {
  if (!(v > -9223372036854775808.0 && v < 9223372036854775808.0)) return 0;
  return static_cast<std::uint32_t>(static_cast<std::int64_t>(v));
}

}  // namespace

Expected<CsfWeights> make_csf_weights(const AdmParams& p) {
  CsfWeights w;
  const BlendTable* blend = nullptr;
  if (p.csf_mode == CsfMode::kBartenWatsonBlend || p.csf_mode == CsfMode::kBartenWatsonBlendMae) {
    blend = find_blend(p);
    if (blend == nullptr) {
      return Error(Errc::kInvalidArgument,
                   "adm: adm_csf_mode=" + std::to_string(static_cast<int>(p.csf_mode)) +
                       " has tables only for adm_ref_display_height 480, 720, 1080, 2160 with "
                       "adm_norm_view_dist 3 or 5 (and 2160 with 1.5)");
    }
  }
  for (int s = 0; s < kScales; ++s) {
    BandWeights& b = w.scale[s];
    switch (p.csf_mode) {
      case CsfMode::kBarten:
        b.hv =
            barten_weight(s, p.norm_view_dist, p.ref_display_height, kBartenLuminance, p.csf_scale);
        b.diag = barten_weight(s, p.norm_view_dist, p.ref_display_height, kBartenLuminance,
                               p.csf_diag_scale);
        break;
      case CsfMode::kBartenWatsonBlend:
      case CsfMode::kBartenWatsonBlendMae:
        b.hv = f32((*blend)[0][s]);
        b.diag = f32((*blend)[1][s]);
        break;
      case CsfMode::kWatson97:
        b.hv = 1.0f / watson_step(s, 1, p.norm_view_dist, p.ref_display_height);
        b.diag = 1.0f / watson_step(s, 2, p.norm_view_dist, p.ref_display_height);
        break;
    }
  }

  const bool default_view =
      std::fabs(p.norm_view_dist * p.ref_display_height - kMinViewDistTimesHeight) < 1.0e-8;
  if (default_view && p.csf_mode == CsfMode::kWatson97) {
    w.q_scale0 = kDefaultScale0Weights;
  } else {
    const double q21 = std::pow(2, 21);
    const double q23 = std::pow(2, 23);
    w.q_scale0 = {to_u16_like_c(w.scale[0].hv * q21), to_u16_like_c(w.scale[0].hv * q21),
                  to_u16_like_c(w.scale[0].diag * q23)};
  }
  const double q32 = std::pow(2, 32);
  for (int s = 1; s < kScales; ++s) {
    w.q[s] = {to_u32_like_c(w.scale[s].hv * q32), to_u32_like_c(w.scale[s].hv * q32),
              to_u32_like_c(w.scale[s].diag * q32)};
  }
  return w;
}

}  // namespace vqx::adm
