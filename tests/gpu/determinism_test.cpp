// (d) Determinism: the same input twice gives the same bits, whatever the
// thread count. (Float sums never use atomics: tests/contract checks that
// atomics appear only in src/gpu/reduce.cuh, whose atomic adds take
// integers only.)
#include "gpu_test_util.hpp"

namespace vqx::gputest {
namespace {

TEST(Determinism, SameInputTwiceGivesTheSameBits) {
  VQX_REQUIRE_GPU();
  for (const PictureFormat& fmt : {PictureFormat{1920, 1080, 10, ChromaFormat::k420},
                                   PictureFormat{3840, 2160, 8, ChromaFormat::k420}}) {
    for (RunOptions o : twin_runs(gpu_backend(), 0, fmt)) {
      const Video v = make_video(fmt, Content::kSmooth, 4, 6, 42);
      o.threads = 0;
      auto a = score(o, v);
      auto b = score(o, v);
      o.threads = 8;
      auto c = score(o, v);
      ASSERT_TRUE(a.ok() && b.ok() && c.ok());
      expect_identical(*a, *b, "twice");
      expect_identical(*a, *c, "threads 0 and 8");
    }
  }
}

}  // namespace
}  // namespace vqx::gputest
