// FFmpeg's log, as VQX's libav readers use it (src/io/libav_reader.cpp).
//
// FFmpeg reports some damage only in its log: FFV1 conceals a slice whose
// CRC does not match and logs "slice CRC mismatch", with no return code or
// frame flag saying so; and its messages on stderr would break VQX's
// one-line errors. So each reader gives its format and codec contexts a
// Sink (their `opaque`), and the process's FFmpeg log callback, installed
// once, sends those contexts' messages to their sink instead of stderr. The
// reader turns a decoder's error into a read error and adds FFmpeg's first
// error message to its own. Messages of other contexts (an application's
// own FFmpeg use) go to FFmpeg's default callback as before. With the
// environment variable VQX_LIBAV_LOG set, the readers' messages are printed
// too (for debugging).
#pragma once

#include <mutex>
#include <string>

#include "io/libav_api.hpp"

namespace vqx::libav_log {

class Sink {
 public:
  Sink();  // registered: the callback only writes to live sinks
  ~Sink();
  Sink(const Sink&) = delete;
  Sink& operator=(const Sink&) = delete;

  // While one is alive, messages FFmpeg logs on this thread without a
  // context of its own (some of libavformat's) go to `sink` too.
  class OnThisThread {
   public:
    explicit OnThisThread(Sink& sink);
    ~OnThisThread();
    OnThisThread(const OnThisThread&) = delete;
    OnThisThread& operator=(const OnThisThread&) = delete;

   private:
    Sink* previous_;
  };

  // From the callback, on any of FFmpeg's threads: one piece of a message
  // (FFmpeg writes a line in pieces; a line ends with '\n').
  void add(int level, bool from_decoder, const char* text);

  // Error-level messages of the decoder so far.
  [[nodiscard]] unsigned decoder_errors() const;
  // The first error-level message (decoder or demuxer), one line; empty if
  // there was none.
  [[nodiscard]] std::string first_error() const;

 private:
  mutable std::mutex m_;
  unsigned decoder_errors_ = 0;
  std::string first_error_;
  bool first_error_done_ = false;  // its line has ended
};

// Installs the log callback, once per process; `lib` (libav::api()'s
// table, which lives as long as the process) must be the same every call.
void install(const libav::Api& lib);

}  // namespace vqx::libav_log
