// A context whose set-up failed stays failed (docs/reliability.md): every
// later call gets the first error, never a score from a half-set-up context.
// Here float_ssim is set up for the first pictures before float_ms_ssim
// refuses them as too small; a retry with pictures of another size must not
// reuse that set-up (it would score them with buffers sized for the first).
#include <gtest/gtest.h>

#include <cstdint>
#include <string>

#include "vqx/vqx.hpp"

namespace vqx {
namespace {

Picture grey(const PictureFormat& fmt, std::uint8_t value) {
  Picture p = Picture::make(fmt).value();
  for (unsigned c = 0; c < p.plane_count(); ++c) {
    Plane& pl = p.plane(c);
    for (unsigned y = 0; y < pl.height(); ++y) {
      for (unsigned x = 0; x < pl.width(); ++x) pl.row<std::uint8_t>(y)[x] = value;
    }
  }
  return p;
}

TEST(FailedContext, EveryLaterCallGetsTheFirstError) {
  for (unsigned threads : {0U, 2U}) {
    auto ctx = Context::create({.threads = threads, .backend = Backend::kCpu});
    ASSERT_TRUE(ctx.ok());
    ASSERT_TRUE((*ctx)->use_feature("float_ssim").ok());
    ASSERT_TRUE((*ctx)->use_feature("float_ms_ssim").ok());
    const PictureFormat small{64, 48, 8, ChromaFormat::k420};
    const Status first = (*ctx)->read_pictures(grey(small, 10), grey(small, 20), 0);
    ASSERT_FALSE(first.ok());
    EXPECT_NE(first.message().find("too small"), std::string::npos) << first.message();

    const PictureFormat large{320, 240, 8, ChromaFormat::k420};
    const Status retry = (*ctx)->read_pictures(grey(large, 10), grey(large, 20), 0);
    EXPECT_EQ(retry.code(), first.code()) << retry.message();
    EXPECT_EQ(retry.message(), first.message());
    EXPECT_EQ((*ctx)->read_pictures(grey(large, 10), grey(large, 20), 1).message(),
              first.message());
    EXPECT_EQ((*ctx)->flush().message(), first.message());
    EXPECT_FALSE((*ctx)->score_at_index("float_ssim", 0).ok());
  }
}

}  // namespace
}  // namespace vqx
