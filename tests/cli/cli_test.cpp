// The vqx command as a user runs it: outputs in every format, and one test
// per kind of bad input (one-line error naming the culprit, non-zero exit,
// no output file).
#include <gtest/gtest.h>
#include <sys/wait.h>

#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>

#include "cli_run.hpp"

namespace {

namespace fs = std::filesystem;

const fs::path kSubset = fs::path(VQX_TEST_DATA_DIR) / "corpus_subset";
const std::string kRef = (kSubset / "P9_tiny_176x144_420p8.y4m").string();
const std::string kDist = (kSubset / "P9_tiny_176x144_420p8__x264-crf45.y4m").string();

using vqx::cli_test::CliRun;
using vqx::cli_test::slurp;

class CliTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() /
           ("vqx_cli_" + std::string(::testing::UnitTest::GetInstance()->current_test_info()->name()) +
            "_" + std::to_string(::getpid()));
    fs::remove_all(dir_);
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }

  CliRun vqx(const std::string& args) { return vqx::cli_test::run_vqx(args, dir_); }

  // The contract for bad input: exit 1 (not a crash), one line on stderr
  // that names `culprit`, and no output file.
  void expect_clean_failure(const CliRun& r, const std::string& culprit) {
    EXPECT_EQ(r.code, 1) << r.err;
    EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
    EXPECT_NE(r.err.find(culprit), std::string::npos) << "error does not name " << culprit << ": " << r.err;
    EXPECT_FALSE(fs::exists(dir_ / "out.json"));
    for (const auto& e : fs::directory_iterator(dir_)) {
      EXPECT_EQ(e.path().string().find("out.json"), std::string::npos) << e.path();
    }
  }

  std::string write_file(const std::string& name, const std::string& bytes) {
    const fs::path p = dir_ / name;
    std::ofstream(p, std::ios::binary) << bytes;
    return p.string();
  }

  // A Y4M with `frames` frames of a ramp; header fields as given.
  std::string write_y4m(const std::string& name, const std::string& header, std::size_t frame_bytes,
                        int frames) {
    std::string s = header + "\n";
    for (int f = 0; f < frames; ++f) {
      s += "FRAME\n";
      for (std::size_t i = 0; i < frame_bytes; ++i) s.push_back(static_cast<char>((i * 7 + f) & 0xff));
    }
    return write_file(name, s);
  }

  std::string out_json() const { return (dir_ / "out.json").string(); }
  fs::path dir_;
};

TEST_F(CliTest, HelpAndVersion) {
  const CliRun h = vqx("--help");
  EXPECT_EQ(h.code, 0);
  EXPECT_NE(h.out.find("--reference"), std::string::npos);
  EXPECT_NE(h.out.find("--frame_skip_dist"), std::string::npos);
  const CliRun v = vqx("--version");
  EXPECT_EQ(v.code, 0);
  EXPECT_EQ(v.out.rfind("vqx ", 0), 0U);
}

TEST_F(CliTest, JsonAtMaxPrecisionCarriesTheGoldenNumbers) {
  const CliRun r = vqx("-r " + kRef + " -d " + kDist + " -m version=vmaf_v0.6.1:name=vmaf_v0.6.1 --json --precision max -q -o " + out_json());
  ASSERT_EQ(r.code, 0) << r.err;
  const auto ours = nlohmann::json::parse(slurp(out_json()));
  const auto golden = nlohmann::json::parse(slurp(kSubset / "P9.models.json"));
  ASSERT_EQ(ours.at("frames").size(), golden.at("frames").size());
  std::size_t compared = 0;
  for (std::size_t f = 0; f < golden.at("frames").size(); ++f) {
    const auto& om = ours["frames"][f]["metrics"];
    for (const char* name : {"integer_adm2", "integer_motion2", "integer_vif_scale0", "integer_vif_scale3"}) {
      EXPECT_EQ(om.at(name).get<double>(), golden["frames"][f]["metrics"].at(name).get<double>()) << name;
      ++compared;
    }
    EXPECT_NEAR(om.at("vmaf_v0.6.1").get<double>(),
                golden["frames"][f]["metrics"].at("vmaf_v0.6.1").get<double>(), 1e-9);
  }
  EXPECT_NEAR(ours["pooled_metrics"]["vmaf_v0.6.1"]["mean"].get<double>(),
              golden["pooled_metrics"]["vmaf_v0.6.1"]["mean"].get<double>(), 1e-9);
  EXPECT_EQ(compared, 40U);
}

TEST_F(CliTest, DefaultModelIsNamedVmafAndPrintedOnStdout) {
  const CliRun r = vqx("-r " + kRef + " -d " + kDist);
  ASSERT_EQ(r.code, 0) << r.err;
  const auto golden = nlohmann::json::parse(slurp(kSubset / "P9.models.json"));
  const double mean = golden["pooled_metrics"]["vmaf_v0.6.1"]["mean"].get<double>();
  char expected[64];
  std::snprintf(expected, sizeof expected, "vmaf: %f\n", mean);
  EXPECT_EQ(r.out, expected);
}

TEST_F(CliTest, EveryFormatCarriesTheSameNumbers) {
  const auto golden = nlohmann::json::parse(slurp(kSubset / "P9.models.json"));
  const double frame3 = golden["frames"][3]["metrics"]["vmaf_v0.6.1"].get<double>();
  char six[32];
  std::snprintf(six, sizeof six, "%.6f", frame3);
  for (const char* fmt : {"xml", "json", "csv", "sub"}) {
    const fs::path out = dir_ / (std::string("out.") + fmt);
    const CliRun r = vqx("-r " + kRef + " -d " + kDist + " -m version=vmaf_v0.6.1:name=vmaf_v0.6.1 --" + fmt + " -q -o " + out.string());
    ASSERT_EQ(r.code, 0) << fmt << ": " << r.err;
    const std::string text = slurp(out);
    EXPECT_NE(text.find(six), std::string::npos) << fmt << " lacks frame 3's score " << six;
    EXPECT_NE(text.find("integer_vif_scale0"), std::string::npos) << fmt;
  }
}

TEST_F(CliTest, ThreadCountDoesNotChangeTheOutput) {
  const fs::path a = dir_ / "t1.json";
  const fs::path b = dir_ / "t2.json";
  ASSERT_EQ(vqx("-r " + kRef + " -d " + kDist + " --threads 1 --json --precision max -q -o " + a.string()).code, 0);
  ASSERT_EQ(vqx("-r " + kRef + " -d " + kDist + " --threads 2 --json --precision max -q -o " + b.string()).code, 0);
  auto ja = nlohmann::json::parse(slurp(a));
  auto jb = nlohmann::json::parse(slurp(b));
  ja.erase("fps");
  jb.erase("fps");
  EXPECT_EQ(ja, jb);
}

TEST_F(CliTest, FrameCountAndSubsample) {
  const CliRun r = vqx("-r " + kRef + " -d " + kDist + " --frame_cnt 4 --subsample 2 --json -q -o " + out_json());
  ASSERT_EQ(r.code, 0) << r.err;
  const auto j = nlohmann::json::parse(slurp(out_json()));
  ASSERT_EQ(j["frames"].size(), 2U);
  EXPECT_EQ(j["frames"][0]["frameNum"], 0);
  EXPECT_EQ(j["frames"][1]["frameNum"], 2);
}

TEST_F(CliTest, RawYuvInput) {
  // The same P9 frames as raw planar 4:2:0: strip the Y4M headers.
  auto strip = [&](const std::string& y4m, const std::string& name) {
    std::string s = slurp(y4m);
    std::string raw;
    std::size_t pos = s.find('\n') + 1;
    const std::size_t frame = 176 * 144 * 3 / 2;
    while (pos < s.size()) {
      pos = s.find('\n', pos) + 1;
      raw += s.substr(pos, frame);
      pos += frame;
    }
    return write_file(name, raw);
  };
  const std::string r = strip(kRef, "ref.yuv");
  const std::string d = strip(kDist, "dist.yuv");
  const CliRun run = vqx("-r " + r + " -d " + d + " -w 176 -h 144 -p 420 -b 8 --json --precision max -q -o " + out_json());
  ASSERT_EQ(run.code, 0) << run.err;
  const auto j = nlohmann::json::parse(slurp(out_json()));
  const auto golden = nlohmann::json::parse(slurp(kSubset / "P9.models.json"));
  EXPECT_EQ(j["frames"][5]["metrics"]["integer_adm2"].get<double>(),
            golden["frames"][5]["metrics"]["integer_adm2"].get<double>());
}

// --- bad input, one test each ---

TEST_F(CliTest, Y4mCutMidFrame) {
  std::string s = slurp(kDist);
  const std::string cut = write_file("cut.y4m", s.substr(0, s.size() - 1000));
  expect_clean_failure(vqx("-r " + kRef + " -d " + cut + " -q -o " + out_json()), "cut.y4m");
}

TEST_F(CliTest, GarbageHeader) {
  const std::string g = write_file("garbage.y4m", "this is not a video at all\n");
  expect_clean_failure(vqx("-r " + g + " -d " + kDist + " -q -o " + out_json()), "garbage.y4m");
}

TEST_F(CliTest, UnsupportedColourSpaceTag) {
  const std::string y = write_y4m("tag.y4m", "YUV4MPEG2 W16 H16 F25:1 Ip C410", 16 * 16 * 2, 1);
  expect_clean_failure(vqx("-r " + y + " -d " + y + " -q -o " + out_json()), "tag.y4m");
}

TEST_F(CliTest, DifferentSizes) {
  const std::string a = write_y4m("a.y4m", "YUV4MPEG2 W16 H16 F25:1 Ip C420jpeg", 16 * 16 * 3 / 2, 2);
  const std::string b = write_y4m("b.y4m", "YUV4MPEG2 W32 H16 F25:1 Ip C420jpeg", 32 * 16 * 3 / 2, 2);
  expect_clean_failure(vqx("-r " + a + " -d " + b + " -q -o " + out_json()), "b.y4m");
}

TEST_F(CliTest, DifferentBitDepths) {
  const std::string a = write_y4m("a8.y4m", "YUV4MPEG2 W16 H16 F25:1 Ip C420jpeg", 16 * 16 * 3 / 2, 2);
  const std::string b = write_y4m("b10.y4m", "YUV4MPEG2 W16 H16 F25:1 Ip C420p10", 16 * 16 * 3, 2);
  expect_clean_failure(vqx("-r " + a + " -d " + b + " -q -o " + out_json()), "b10.y4m");
}

TEST_F(CliTest, DifferentFrameCounts) {
  // 64x64: large enough for every extractor, so the only fault is the count.
  const std::string a = write_y4m("three.y4m", "YUV4MPEG2 W64 H64 F25:1 Ip C420jpeg", 64 * 64 * 3 / 2, 3);
  const std::string b = write_y4m("two.y4m", "YUV4MPEG2 W64 H64 F25:1 Ip C420jpeg", 64 * 64 * 3 / 2, 2);
  expect_clean_failure(vqx("-r " + a + " -d " + b + " -q -o " + out_json()), "two.y4m");
}

// What a file's size tells is checked before any frame is scored (issue 11,
// item 10): before, a raw file one byte short of whole frames was scored to
// its end (a 4 GiB file: 86 frames, 44 s) and only then refused, and so was
// a pair whose frame counts differ. Sparse files: no disk space.
TEST_F(CliTest, RawSizeThatIsNotWholeFramesIsRefusedAtOpen) {
  const fs::path raw = dir_ / "long.yuv";
  { std::ofstream touch(raw); }
  fs::resize_file(raw, 100000ULL * (64 * 64 * 3 / 2) + 7);
  const CliRun r = vqx("-r " + raw.string() + " -d " + raw.string() +
                       " -w 64 -h 64 -p 420 -b 8 -q -o " + out_json());
  expect_clean_failure(r,
                       "long.yuv: the file's 614400007 bytes are not a whole number of 64x64 "
                       "420 8-bit frames of 6144 bytes (100000 frames and 7 bytes): check -w "
                       "-h -p -b");
}

TEST_F(CliTest, FrameCountsThatDifferAreRefusedAtOpen) {
  const fs::path ref = dir_ / "ref.yuv";
  const fs::path dist = dir_ / "dist.yuv";
  { std::ofstream touch(ref); }
  { std::ofstream touch(dist); }
  fs::resize_file(ref, 100000ULL * (64 * 64 * 3 / 2));
  fs::resize_file(dist, 99999ULL * (64 * 64 * 3 / 2));
  const std::string raw = " -w 64 -h 64 -p 420 -b 8 -q -o ";
  expect_clean_failure(vqx("-r " + ref.string() + " -d " + dist.string() + raw + out_json()),
                       "dist.yuv has 99999 frames but " + ref.string() + " has 100000");
  // Skipping makes them agree; --frame_cnt within both is fine too: only
  // the first frames are scored (2 here, to keep the test short).
  const CliRun skipped =
      vqx("-r " + ref.string() + " -d " + dist.string() + " --frame_skip_ref 1 --frame_cnt 2" +
          raw + (dir_ / "ok.json").string());
  EXPECT_EQ(skipped.code, 0) << skipped.err;
  fs::remove(dir_ / "ok.json");
  // A skip past the end is refused before anything is read.
  expect_clean_failure(vqx("-r " + ref.string() + " -d " + dist.string() +
                           " --frame_skip_dist 100000" + raw + out_json()),
                       "dist.yuv: cannot skip 100000 frames: the file has only 99999");
}

// Frames are paired by number, so streams at different rates would be
// scored moment against wrong moment (issue 11, item 9): before, the rates
// were never compared; with --frame_cnt a wrong score was printed.
TEST_F(CliTest, DifferentFrameRatesAreRefused) {
  const std::size_t frame = 64 * 64 * 3 / 2;
  const std::string a = write_y4m("a25.y4m", "YUV4MPEG2 W64 H64 F25:1 Ip C420jpeg", frame, 3);
  const std::string b = write_y4m("b30.y4m", "YUV4MPEG2 W64 H64 F30:1 Ip C420jpeg", frame, 3);
  for (const std::string extra : {"", " --frame_cnt 2"}) {
    SCOPED_TRACE(extra);
    const CliRun r = vqx("-r " + a + " -d " + b + extra + " -q -o " + out_json());
    expect_clean_failure(r, "reference " + a + " is 25 fps but distorted " + b + " is 30 fps");
    EXPECT_NE(r.err.find("--ignore_frame_rate"), std::string::npos) << r.err;
  }
  const CliRun ntsc =
      vqx("-r " + write_y4m("n.y4m", "YUV4MPEG2 W64 H64 F30000:1001 C420jpeg", frame, 3) + " -d " +
          b + " -q -o " + out_json());
  expect_clean_failure(ntsc, "is 30000/1001 fps (29.97) but distorted " + b + " is 30 fps");
  // Asked for knowingly: scored.
  const CliRun knowingly =
      vqx("-r " + a + " -d " + b + " --ignore_frame_rate --json -q -o " + out_json());
  EXPECT_EQ(knowingly.code, 0) << knowingly.err;
  EXPECT_EQ(nlohmann::json::parse(slurp(out_json()))["frames"].size(), 3U);
}

// The same rate written through different time bases is one rate; a raw
// file has none to compare.
TEST_F(CliTest, SameFrameRateInAnotherFormIsAccepted) {
  const std::size_t frame = 64 * 64 * 3 / 2;
  const std::string a = write_y4m("a.y4m", "YUV4MPEG2 W64 H64 F30000:1001 C420jpeg", frame, 2);
  const std::string b = write_y4m("b.y4m", "YUV4MPEG2 W64 H64 F2997:100 C420jpeg", frame, 2);
  const CliRun r = vqx("-r " + a + " -d " + b + " -q");
  EXPECT_EQ(r.code, 0) << r.err;
  std::string raw(2 * frame, '\x10');
  const std::string yuv = write_file("b.yuv", raw);
  const CliRun mixed = vqx("-r " + a + " -d " + yuv + " -w 64 -h 64 -p 420 -b 8 -q");
  EXPECT_EQ(mixed.code, 0) << mixed.err;
}

// -o naming one of the inputs: the successful run's rename would replace
// the video with the report. Refused under any spelling of the path.
TEST_F(CliTest, OutputThatIsAnInputIsRefused) {
  const std::string ref = write_file("ref.y4m", slurp(kRef));
  fs::create_symlink(ref, dir_ / "link.y4m");
  for (const std::string& out :
       {ref, (dir_ / "link.y4m").string(), (dir_ / "." / "ref.y4m").string()}) {
    SCOPED_TRACE(out);
    const CliRun r = vqx("-r " + ref + " -d " + kDist + " --json -q -o " + out);
    expect_clean_failure(r, "--output " + out + " is the reference video " + ref);
    EXPECT_EQ(slurp(ref), slurp(kRef));
  }
  const CliRun d = vqx("-r " + kRef + " -d " + ref + " --json -q -o " + ref);
  expect_clean_failure(d, "is the distorted video");
  EXPECT_EQ(slurp(ref), slurp(kRef));
}

TEST_F(CliTest, PictureTooSmallForTheFeatures) {
  const std::string a = write_y4m("small.y4m", "YUV4MPEG2 W16 H16 F25:1 Ip C420jpeg", 16 * 16 * 3 / 2, 2);
  expect_clean_failure(vqx("-r " + a + " -d " + a + " -q -o " + out_json()), "too small");
}

TEST_F(CliTest, MissingFile) {
  expect_clean_failure(vqx("-r " + kRef + " -d /nonexistent/nothing.y4m -q -o " + out_json()), "nothing.y4m");
}

TEST_F(CliTest, UnknownFeature) {
  expect_clean_failure(vqx("-r " + kRef + " -d " + kDist + " --feature no_such_thing -q -o " + out_json()),
                       "no_such_thing");
}

TEST_F(CliTest, UnknownFeatureOption) {
  expect_clean_failure(vqx("-r " + kRef + " -d " + kDist + " --feature adm=bogus_opt=1 -q -o " + out_json()),
                       "bogus_opt");
}

TEST_F(CliTest, UnknownCommandLineOption) {
  expect_clean_failure(vqx("-r " + kRef + " -d " + kDist + " --frobnicate -q -o " + out_json()), "frobnicate");
}

// Every numeric option, one rule (issue 11, item 11): a value that is not a
// whole number in range is an error naming the option and its range (before,
// --subsample -1 printed a 309-digit bound, --threads 0x10 was 16, +3 was 3).
TEST_F(CliTest, EveryNumericOptionRefusesWhatIsNotAWholeNumberInRange) {
  struct Option {
    std::string flag;
    std::string name;  // as the message says it
    std::string range;
  };
  const std::vector<Option> options = {
      {"-w", "-w/--width", "from 1 to 16384"},
      {"--width", "-w/--width", "from 1 to 16384"},
      {"-h", "-h/--height", "from 1 to 16384"},
      {"-b", "-b/--bitdepth", "from 8 to 16"},
      {"--threads", "--threads", "from 0 to 4294967295"},
      {"--gpu", "--gpu", "from 0 to 4294967295"},
      {"--subsample", "--subsample", "from 1 to 4294967295"},
      {"--frame_cnt", "--frame_cnt", "from 0 to 4294967295"},
      {"--frame_skip_ref", "--frame_skip_ref", "from 0 to 4294967295"},
      {"--frame_skip_dist", "--frame_skip_dist", "from 0 to 4294967295"},
  };
  for (const Option& opt : options) {
    for (const std::string bad : {"-1", "abc", "1e3", "0x10", "+3", "3.5",
                                  "99999999999999999999999", "4294967296", "' 4'", "4,5"}) {
      SCOPED_TRACE(opt.flag + " " + bad);
      const CliRun r =
          vqx("-r " + kRef + " -d " + kDist + " " + opt.flag + " " + bad + " -q -o " + out_json());
      expect_clean_failure(r, "vqx: " + opt.name + " ");
      EXPECT_NE(r.err.find("expected a whole number " + opt.range), std::string::npos) << r.err;
      EXPECT_LT(r.err.size(), 160U) << r.err;  // no 309-digit bound
    }
  }
  // Out of range for the option, in range for the type.
  expect_clean_failure(vqx("-r " + kRef + " -d " + kDist + " --subsample 0 -q -o " + out_json()),
                       "--subsample 0: too small: expected a whole number from 1 to 4294967295");
  expect_clean_failure(
      vqx("-r " + kRef + " -d " + kDist + " -w 64 -h 64 -p 420 -b 17 -q -o " + out_json()),
      "-b/--bitdepth 17: too large: expected a whole number from 8 to 16");
  expect_clean_failure(vqx("-r " + kRef + " -d " + kDist + " --threads 1000 -q -o " + out_json()),
                       "--threads 1000: threads must be at most 256");
  expect_clean_failure(vqx("-r " + kRef + " -d " + kDist + " --precision -1 -q -o " + out_json()),
                       "--precision -1: expected a number from 0 to 17, or max");
}

// A value given empty is an error, never the default (before, -o '' wrote
// nothing and exited 0, --precision '' gave the default precision).
TEST_F(CliTest, EmptyValuesAreErrors) {
  for (const std::string opt : {"-o", "--output", "-p", "--precision", "-m", "--feature",
                                "--threads", "--subsample", "-w"}) {
    SCOPED_TRACE(opt);
    const CliRun r = vqx("-r " + kRef + " -d " + kDist + " -q " + opt + " ''");
    EXPECT_EQ(r.code, 1) << r.err;
    EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
    EXPECT_NE(r.err.find("value is empty"), std::string::npos) << r.err;
    EXPECT_EQ(r.out, "");
  }
  expect_clean_failure(vqx("-r '' -d " + kDist + " -q"), "--reference: the value is empty");
}

TEST_F(CliTest, MalformedModelJson) {
  const std::string m = write_file("bad_model.json", "{\"model_dict\": [1, 2,");
  expect_clean_failure(vqx("-r " + kRef + " -d " + kDist + " -m path=" + m + " -q -o " + out_json()), "bad_model.json");
}

TEST_F(CliTest, TruncatedModelJson) {
  const std::string full = slurp(fs::path(VQX_TEST_DATA_DIR) / ".." / ".." / "models" / "vmaf_v0.6.1.json");
  const std::string m = write_file("truncated_model.json", full.substr(0, full.size() / 2));
  expect_clean_failure(vqx("-r " + kRef + " -d " + kDist + " -m path=" + m + " -q -o " + out_json()),
                       "truncated_model.json");
}

TEST_F(CliTest, HugeDimensionsAreRefusedBeforeAllocation) {
  const std::string y = write_file("huge.y4m", "YUV4MPEG2 W100000 H100000 F25:1 Ip C420jpeg\nFRAME\n0000");
  expect_clean_failure(vqx("-r " + y + " -d " + y + " -q -o " + out_json()), "huge.y4m");
}

}  // namespace
