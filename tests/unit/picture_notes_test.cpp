// What VQX's readers note in a picture (core/picture_internals.hpp):
// samples checked, luma alone. Each is cleared by any mutable access to a
// plane: a picture written to after the note no longer holds what the note
// says.
#include <gtest/gtest.h>

#include <utility>

#include "core/picture_internals.hpp"
#include "vqx/picture.hpp"

namespace {

using vqx::detail::PictureInternals;

vqx::Picture noted_picture() {
  auto pic = vqx::Picture::make({64, 48, 8, vqx::ChromaFormat::k420});
  EXPECT_TRUE(pic.ok());
  PictureInternals::mark_samples_checked(*pic);
  PictureInternals::mark_luma_only(*pic);
  return std::move(pic).value();
}

TEST(PictureNotes, ANewPictureHasNone) {
  auto pic = vqx::Picture::make({64, 48, 8, vqx::ChromaFormat::k420});
  ASSERT_TRUE(pic.ok());
  EXPECT_FALSE(PictureInternals::samples_checked(*pic));
  EXPECT_FALSE(PictureInternals::luma_only(*pic));
}

TEST(PictureNotes, ReadingKeepsThemAndMovingCarriesThem) {
  vqx::Picture pic = noted_picture();
  (void)std::as_const(pic).plane(0).data();
  const vqx::Picture moved = std::move(pic);
  EXPECT_TRUE(PictureInternals::samples_checked(moved));
  EXPECT_TRUE(PictureInternals::luma_only(moved));
}

TEST(PictureNotes, AnyWritableAccessToAPlaneClearsEveryNote) {
  for (unsigned p = 0; p < 3; ++p) {
    vqx::Picture pic = noted_picture();
    (void)pic.plane(p);
    EXPECT_FALSE(PictureInternals::samples_checked(pic)) << "plane " << p;
    EXPECT_FALSE(PictureInternals::luma_only(pic)) << "plane " << p;
  }
}

}  // namespace
