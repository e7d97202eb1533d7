// Promises the reader fuzz targets (y4m, raw, libav) check besides "no
// crash, leak or sanitizer report": an error is one line naming the file,
// an opened stream has a valid format, and every picture read has it.
#pragma once

#include <memory>
#include <string>

#include "fuzz_util.hpp"
#include "vqx/video_reader.hpp"

namespace vqx::fuzz {

inline void check_reader_error(const Status& s, const std::string& path) {
  if (s.ok() || s.message().rfind(path, 0) != 0) broken_promise("error does not name the file");
  if (s.message().find('\n') != std::string::npos) broken_promise("multi-line error");
}

// The opened reader, or null after checking the error.
inline VideoReader* opened(const Expected<std::unique_ptr<VideoReader>>& reader,
                           const std::string& path) {
  if (!reader.ok()) {
    check_reader_error(reader.status(), path);
    return nullptr;
  }
  if (!validate((*reader)->format()).ok()) broken_promise("opened with an invalid format");
  return reader->get();
}

// Reads up to `max_frames` frames, to the end or the first error.
inline void read_frames(VideoReader& r, const std::string& path, unsigned max_frames) {
  Picture pic;
  for (unsigned i = 0; i < max_frames; ++i) {
    auto got = r.read(pic);
    if (!got.ok()) {
      check_reader_error(got.status(), path);
      return;
    }
    if (!*got) return;
    if (!(pic.format() == r.format())) broken_promise("picture of another format");
  }
}

}  // namespace vqx::fuzz
