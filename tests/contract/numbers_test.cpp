// The numbers rules ("every number once", numbers_check.hpp): the real GPU
// sources pass against the real params.hpp headers, the real headers are
// read (a GPU source that writes their numbers again is caught), and what
// the rules leave alone (trivial values, other families, comments, strings,
// static_asserts, names) stays alone. Planted violations: fixtures/numbers_*.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "constant_expr.hpp"
#include "numbers_check.hpp"

namespace vqx::contract {
namespace {

std::vector<std::string> rules_of(const std::vector<Violation>& v) {
  std::vector<std::string> r;
  for (const auto& x : v) r.push_back(x.rule);
  std::sort(r.begin(), r.end());
  return r;
}

bool has(const std::vector<Violation>& v, const std::string& rule, int line) {
  return std::any_of(v.begin(), v.end(),
                     [&](const Violation& x) { return x.rule == rule && x.line == line; });
}

std::vector<Violation> numbers_of(const std::string& gpu_path, const std::string& gpu,
                                  const std::string& params_path, const std::string& params) {
  const auto v = check_numbers({{gpu_path, gpu}}, {{params_path, params}});
  for (const auto& x : v) std::printf("  %s\n", format(x).c_str());
  return v;
}

TEST(Numbers, TheRealGpuSourcesWriteEveryNumberOnce) {
  const auto params = params_sources(VQX_SOURCE_DIR);
  std::vector<std::string> paths;
  for (const auto& p : params) paths.push_back(p.path);
  for (const char* fam : {"adm", "vif", "motion", "psnr", "float_psnr"}) {
    EXPECT_NE(
        std::find(paths.begin(), paths.end(), std::string("src/metrics/") + fam + "/params.hpp"),
        paths.end())
        << fam;
  }
  const auto v = check_numbers(gpu_sources(VQX_SOURCE_DIR), params);
  for (const auto& x : v) ADD_FAILURE() << format(x);
}

// A GPU source under a family's folder, checked against the real params.
std::vector<Violation> against_real_params(const std::string& path, const std::string& text) {
  const auto v = check_numbers({{path, text}}, params_sources(VQX_SOURCE_DIR));
  for (const auto& x : v) std::printf("  %s\n", format(x).c_str());
  return v;
}

TEST(Numbers, TheRealParamsAreRead) {
  // VIF: the epsilon, the log2 bias, the mean products' rounding and a
  // re-definition of the noise variance (kSigmaNsq = 2 * 65536).
  const auto vif = against_real_params("src/metrics/vif/gpu.cu", R"(
    __device__ double gain(int s12, int s11) { return s12 / (s11 + 65536 * 1.0e-10); }
    __device__ int bias() { return 2048 * 17; }
    __device__ unsigned round(unsigned long long v) { return (v + 2147483648ULL) >> 32; }
    constexpr int kNsq = 4 * 0x8000;
  )");
  EXPECT_TRUE(has(vif, "numbers-float", 2));
  EXPECT_TRUE(has(vif, "numbers-integer", 3));  // 2048 (kLogOne) and 17 (kLog2SigmaNsq)
  EXPECT_TRUE(has(vif, "numbers-integer", 4));
  EXPECT_TRUE(has(vif, "numbers-constexpr", 5));
  // ADM: the Q30 reciprocal's numerator, a DWT rounding table's entry and
  // the angle test's divisor.
  const auto adm = against_real_params("src/metrics/adm/gpu.cu", R"(
    __device__ int recip(int n) { return (1 << 30) / n; }
    constexpr long long kHorzAdd[3] = {16384, 32768, 16384};
    __device__ double angle(float d) { return d / 4096.0; }
  )");
  EXPECT_TRUE(has(adm, "numbers-integer", 2));
  EXPECT_TRUE(has(adm, "numbers-integer", 3));
  EXPECT_TRUE(has(adm, "numbers-float", 4));
  // Motion: the horizontal pass's rounding; float_psnr's noise floor seen
  // through an include, from another family's folder (as float_moment).
  const auto motion =
      against_real_params("src/metrics/motion/gpu.cu",
                          "__device__ long long r(long long a) { return (a + 32768) >> 16; }");
  EXPECT_TRUE(has(motion, "numbers-integer", 1));
  const auto moment =
      against_real_params("src/metrics/moment/gpu.cu",
                          "#include \"metrics/float_psnr/params.hpp\"\n"
                          "double floor_of(double x) { return x > 1e-10 ? x : 1e-10; }");
  EXPECT_TRUE(has(moment, "numbers-float", 2));
}

const char* kParams = R"(
  namespace vqx::fam {
  inline constexpr double kEps = 65536 * 1.0e-10;
  inline constexpr int kShift = 17;
  inline constexpr std::int32_t kOne = 1 << 15;
  inline constexpr std::int64_t kBias = -(std::int64_t{1} << 31);
  inline constexpr double kScaled = 3.0 * 1080;
  inline constexpr std::array<int, 3> kTable = {12345, 23456, 34567};
  inline constexpr int kSmall = 16, kBlock = 256;
  static_assert(kOne == 32768 && kShift * 2 == 34 && 99999 > 0);
  template <typename T>
  constexpr T round_up16(T v) { return (v + (T{1} << (kShift - 2))) >> (kShift - 1); }
  inline std::span<const OptionDef> option_defs() { static const double kNotConstexpr = 77777.0; }
  }  // namespace vqx::fam
)";

TEST(Numbers, EachRuleCatchesItsCase) {
  const auto v = numbers_of("src/metrics/fam/gpu.cu", R"(
    double a = 1e-10;
    double b = 3240.0;
    int c = 0x8000;
    int d = 32'768u;
    int e = 23456;
    int f = 17;
    long long g = (v + 65536) >> 17;
    constexpr std::int64_t kB = -(std::int64_t{1} << 31);
    constexpr int kTwice = 2 * 16384;
  )",
                            "src/metrics/fam/params.hpp", kParams);
  EXPECT_TRUE(has(v, "numbers-float", 2));       // a literal of kEps's definition
  EXPECT_TRUE(has(v, "numbers-float", 3));       // kScaled's value
  EXPECT_TRUE(has(v, "numbers-integer", 4));     // kOne in hex
  EXPECT_TRUE(has(v, "numbers-integer", 5));     // with a separator and a suffix
  EXPECT_TRUE(has(v, "numbers-integer", 6));     // a table entry
  EXPECT_TRUE(has(v, "numbers-integer", 7));     // kShift
  EXPECT_TRUE(has(v, "numbers-integer", 8));     // 65536: in kEps's definition; 17
  EXPECT_TRUE(has(v, "numbers-constexpr", 9));   // kBias again
  EXPECT_TRUE(has(v, "numbers-constexpr", 10));  // kOne again, from a literal not in params
  EXPECT_FALSE(has(v, "numbers-integer", 10));   // 16384 itself is nowhere in params...
}

TEST(Numbers, ARoundingHelpersDerivedValueIsDefined) {
  // ... but the value of a parenthesised constant expression in a constexpr
  // function is: round_up16's (T{1} << (kShift - 2)) is 32768.
  const auto v = numbers_of("src/metrics/fam/gpu.cu",
                            "__device__ unsigned r(unsigned a) { return a + 32768; }",
                            "src/metrics/fam/params.hpp",
                            "inline constexpr int kShift = 17;\n"
                            "template <typename T> constexpr T round_up16(T v) {\n"
                            "  return (v + (T{1} << (kShift - 2))) >> (kShift - 1);\n}\n");
  EXPECT_EQ(rules_of(v), std::vector<std::string>{"numbers-integer"});
}

TEST(Numbers, WhatTheRulesLeaveAlone) {
  const auto v = numbers_of("src/metrics/fam/gpu.cu", R"(
    // 65536 * 1.0e-10 and 17 in a comment, /* 12345 */ here too
    const char* s = "1.0e-10 17 12345";
    static_assert(kShift == 17);
    int trivial[] = {0, 1, 2, 3, 15, 16, -16, 32, 64, 128, 256, 512, 1024};
    float halves[] = {0.0f, 0.5f, 1.0f, 2.0, -1.0};
    double by_name = kEps * kScaled + kShift;
    constexpr double kAlias = kEps;      // a name, not a number written again
    constexpr int kOther = 1 << 20;      // a value params does not define
    int not_defined = 99999 + 77777;     // only in a static_assert / a non-constexpr function
    for (const int r : {kSmall, kBlock}) {}
  )",
                            "src/metrics/fam/params.hpp", kParams);
  EXPECT_TRUE(v.empty());
}

TEST(Numbers, OnlyTheParamsASourceSees) {
  const std::string params = "inline constexpr int kMagic = 12345;";
  // Another family's params.hpp is not seen...
  EXPECT_TRUE(numbers_of("src/metrics/mine/gpu.cu", "int x = 12345;",
                         "src/metrics/other/params.hpp", params)
                  .empty());
  // ... unless included, nor by src/gpu/ code.
  EXPECT_EQ(rules_of(numbers_of("src/metrics/mine/gpu.cu",
                                "#include \"metrics/other/params.hpp\"\nint x = 12345;",
                                "src/metrics/other/params.hpp", params)),
            std::vector<std::string>{"numbers-integer"});
  EXPECT_TRUE(
      numbers_of("src/gpu/plane_sums.cuh", "int x = 12345;", "src/metrics/other/params.hpp", params)
          .empty());
  // A macro body is code.
  EXPECT_EQ(rules_of(numbers_of("src/metrics/other/gpu.cu", "#define MAGIC 12345\n",
                                "src/metrics/other/params.hpp", params)),
            std::vector<std::string>{"numbers-integer"});
}

TEST(Numbers, LiteralSpellings) {
  using numbers::literal_value;
  EXPECT_EQ(literal_value("32768")->i, 32768);
  EXPECT_EQ(literal_value("0x8000")->i, 32768);
  EXPECT_EQ(literal_value("0b1000000000000000")->i, 32768);
  EXPECT_EQ(literal_value("0100000")->i, 32768);  // octal
  EXPECT_EQ(literal_value("32'768ULL")->i, 32768);
  EXPECT_EQ(literal_value("2147483648ULL")->i, 2147483648LL);
  EXPECT_TRUE(literal_value("1.0e-10")->is_float);
  EXPECT_EQ(literal_value("1.0e-10")->f, 1e-10);
  EXPECT_EQ(literal_value("1e-10f")->f, 1e-10);  // the spelling's value, not float's
  EXPECT_EQ(literal_value("0x1p52")->f, 4503599627370496.0);
  EXPECT_EQ(literal_value(".5")->f, 0.5);
  EXPECT_FALSE(literal_value("12abc").has_value());
  // The tokenizer keeps a literal whole.
  const auto lx = numbers::lex_source("x = 65536 * 1.0e-10 + 0x1p-3 - 1'000;");
  std::vector<std::string> nums;
  for (const auto& t : lx.tokens) {
    if (t.kind == numbers::TokKind::kNumber) nums.push_back(t.text);
  }
  EXPECT_EQ(nums, (std::vector<std::string>{"65536", "1.0e-10", "0x1p-3", "1'000"}));
}

}  // namespace
}  // namespace vqx::contract
