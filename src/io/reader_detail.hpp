// The readers' shared parts (src/io only; reader_detail.cpp): the plane copy,
// buffers, and the readers' entry points on a file open_video() has already
// opened (input_file.hpp: the file). Reading and skipping the frames
// of Y4M and raw files is PackedFrameReader's (packed_reader.hpp). The public
// API is vqx/video_reader.hpp.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

#include "io/input_file.hpp"
#include "vqx/picture.hpp"
#include "vqx/status.hpp"
#include "vqx/video_reader.hpp"

namespace vqx {

namespace io_detail {

// Copies `rows` rows of `row_samples` samples from `src` (rows `src_stride`
// bytes apart; 16-bit samples little-endian) into `dst`. For 9..15-bit
// pictures returns the OR of every sample copied, so that the caller can
// refuse values above the bit depth (which would otherwise index past
// tables sized for the depth); returns 0 for 8 and 16 bit.
std::uint32_t copy_plane(const std::uint8_t* src, std::ptrdiff_t src_stride, unsigned row_samples,
                         unsigned rows, unsigned bpc, Plane& dst);

// The message for a 9..15-bit frame with a sample above the depth (without
// the file name and frame number): values above the depth would index past
// tables sized for it.
std::string above_depth_message(unsigned bpc);

// "'abc\x01'" for error messages about unexpected bytes.
std::string quote_bytes(std::string_view bytes);

// Ensures that `pic` has format `fmt`, reallocating it when it does not.
Status ensure_format(Picture& pic, const PictureFormat& fmt);

// A buffer for one frame's bytes, or a kLimit error naming the file.
Expected<std::unique_ptr<std::uint8_t[]>> allocate_buffer(const std::string& path,
                                                          std::size_t bytes);

// open_y4m() and open_raw() on a file open_video() has already opened.
Expected<std::unique_ptr<VideoReader>> open_y4m_file(const std::string& path, InputFile file);
Expected<std::unique_ptr<VideoReader>> open_raw_file(const std::string& path,
                                                     const RawVideoParams& params, InputFile file);

}  // namespace io_detail

}  // namespace vqx
