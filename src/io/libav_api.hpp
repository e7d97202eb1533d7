// FFmpeg's libav* functions that VQX calls, loaded with dlopen when a file
// first needs them rather than linked: linking them made every run of the
// command map some 135 shared libraries and resolve ~25000 symbols before
// reading a byte (about 40 ms of CPU and 15 MB, measured on `vqx --version`),
// even for Y4M and raw input, which never use them.
//
// The declarations are those of the FFmpeg headers the build compiles
// against, and the libraries loaded are the ones of the same major versions
// (libavformat.so.<LIBAVFORMAT_VERSION_MAJOR>, ...), so a call through this
// table is the call the headers describe. The only files that include FFmpeg
// headers are this one's users: libav_api.cpp, libav_log.cpp and
// libav_reader.cpp.
#pragma once

extern "C" {
#include <libavcodec/avcodec.h>
#include <libavformat/avformat.h>
#include <libavutil/error.h>
#include <libavutil/log.h>
#include <libavutil/mathematics.h>
#include <libavutil/opt.h>
#include <libavutil/parseutils.h>
#include <libavutil/pixdesc.h>
#include <libswscale/swscale.h>
}

#include "vqx/status.hpp"

namespace vqx::libav {

// Every function VQX calls, by library (X(name) each).
#define VQX_LIBAVUTIL_FUNCTIONS(X)                                                              \
  X(av_dict_get)                                                                                \
  X(av_frame_alloc)                                                                             \
  X(av_frame_free) X(av_frame_unref) X(av_get_pix_fmt) X(av_get_pix_fmt_name)                   \
      X(av_log_default_callback) X(av_log_set_callback) X(av_parse_time) X(av_pix_fmt_desc_get) \
          X(av_opt_set_int) X(av_rescale) X(av_rescale_q) X(av_strerror)
#define VQX_LIBAVCODEC_FUNCTIONS(X)                                                              \
  X(av_packet_alloc)                                                                             \
  X(av_packet_free)                                                                              \
  X(av_packet_unref) X(avcodec_alloc_context3) X(avcodec_find_decoder) X(avcodec_free_context)   \
      X(avcodec_get_class) X(avcodec_get_name) X(avcodec_open2) X(avcodec_parameters_to_context) \
          X(avcodec_receive_frame) X(avcodec_send_packet)
#define VQX_LIBAVFORMAT_FUNCTIONS(X)                                         \
  X(av_read_frame)                                                           \
  X(avformat_alloc_context)                                                  \
  X(avformat_close_input) X(avformat_find_stream_info) X(avformat_get_class) \
      X(avformat_open_input)

// libswscale's, loaded apart (swscale_api()): only --scale needs them.
#define VQX_LIBSWSCALE_FUNCTIONS(X) \
  X(sws_alloc_context) X(sws_init_context) X(sws_scale) X(sws_freeContext)

struct Api {
#define VQX_LIBAV_POINTER(name) decltype(&::name) name = nullptr;
  VQX_LIBAVUTIL_FUNCTIONS(VQX_LIBAV_POINTER)
  VQX_LIBAVCODEC_FUNCTIONS(VQX_LIBAV_POINTER)
  VQX_LIBAVFORMAT_FUNCTIONS(VQX_LIBAV_POINTER)
#undef VQX_LIBAV_POINTER
};

// The functions, loaded on the first call (once per process, thread-safe),
// or why they cannot be: the library that is missing or lacks a function,
// with the loader's message. The libraries stay loaded until the process
// ends.
Expected<const Api*> api();

struct SwscaleApi {
#define VQX_LIBAV_POINTER(name) decltype(&::name) name = nullptr;
  VQX_LIBSWSCALE_FUNCTIONS(VQX_LIBAV_POINTER)
#undef VQX_LIBAV_POINTER
};

// libswscale's functions (api() first, which they need), loaded on the
// first call, or why they cannot be.
Expected<const SwscaleApi*> swscale_api();

}  // namespace vqx::libav
