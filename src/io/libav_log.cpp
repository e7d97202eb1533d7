// The FFmpeg log callback of libav_log.hpp.
#include "io/libav_log.hpp"

#include <cstdarg>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <set>

#include "io/libav_api.hpp"

namespace vqx::libav_log {

namespace {

// The live sinks: the callback writes only to these (an application's own
// contexts may carry any `opaque`).
std::mutex g_sinks_mutex;
std::set<Sink*>& sinks() {
  static std::set<Sink*> s;
  return s;
}

// FFmpeg's functions, set by install() before the callback is.
const libav::Api* g_lib = nullptr;

// The sink of the reader calling FFmpeg on this thread, if any.
thread_local Sink* t_current = nullptr;

// Where a message comes from: the opaque of the format or codec context that
// logged it (or whose child did), and whether that is a decoder.
struct Origin {
  void* opaque = nullptr;
  bool decoder = false;
};

Origin origin_of(void* avcl) {
  for (int depth = 0; avcl != nullptr && depth < 2; ++depth) {
    const AVClass* cls = *static_cast<const AVClass* const*>(avcl);
    if (cls == nullptr) break;
    if (cls == g_lib->avcodec_get_class())
      return {static_cast<AVCodecContext*>(avcl)->opaque, true};
    if (cls == g_lib->avformat_get_class())
      return {static_cast<AVFormatContext*>(avcl)->opaque, false};
    if (cls->parent_log_context_offset == 0) break;
    avcl = *reinterpret_cast<void**>(static_cast<std::uint8_t*>(avcl) +
                                     cls->parent_log_context_offset);
  }
  return {};
}

bool print_ours() {
  static const bool print = [] {
    const char* v = std::getenv("VQX_LIBAV_LOG");
    return v != nullptr && *v != '\0';
  }();
  return print;
}

void callback(void* avcl, int level, const char* fmt, va_list vl) {
  Origin o = origin_of(avcl);
  if (o.opaque == nullptr && t_current != nullptr) {
    // Not a context of the reader's (perhaps none, perhaps one that
    // libavformat made to probe the streams): kept, but never counted as
    // the reader's decoder reporting damage.
    o = {t_current, false};
  }
  std::lock_guard lock(g_sinks_mutex);
  auto it = o.opaque == nullptr ? sinks().end() : sinks().find(static_cast<Sink*>(o.opaque));
  if (it == sinks().end() || print_ours()) {
    va_list copy;
    va_copy(copy, vl);
    g_lib->av_log_default_callback(avcl, level, fmt, copy);
    va_end(copy);
  }
  if (it == sinks().end() || level > AV_LOG_ERROR) return;
  char text[512];
  std::vsnprintf(text, sizeof text, fmt, vl);
  (*it)->add(level, o.decoder, text);
}

}  // namespace

Sink::Sink() {
  std::lock_guard lock(g_sinks_mutex);
  sinks().insert(this);
}

Sink::~Sink() {
  std::lock_guard lock(g_sinks_mutex);
  sinks().erase(this);
}

Sink::OnThisThread::OnThisThread(Sink& sink) : previous_(t_current) { t_current = &sink; }
Sink::OnThisThread::~OnThisThread() { t_current = previous_; }

void Sink::add(int level, bool from_decoder, const char* text) {
  if (level > AV_LOG_ERROR) return;
  std::lock_guard lock(m_);
  if (from_decoder) ++decoder_errors_;
  if (first_error_done_) return;
  // Pieces of the first error line, up to its '\n', kept to 300 characters
  // (a space between pieces: FFmpeg's own pieces do not always have one).
  if (!first_error_.empty() && first_error_.back() != ' ' && *text != ' ') first_error_ += ' ';
  for (const char* c = text; *c != '\0'; ++c) {
    if (*c == '\n') {
      first_error_done_ = true;
      break;
    }
    if (first_error_.size() < 300) first_error_ += (*c == '\r' || *c == '\t') ? ' ' : *c;
  }
}

unsigned Sink::decoder_errors() const {
  std::lock_guard lock(m_);
  return decoder_errors_;
}

std::string Sink::first_error() const {
  std::lock_guard lock(m_);
  std::string s = first_error_;
  while (!s.empty() && s.back() == ' ') s.pop_back();
  return s;
}

void install(const libav::Api& lib) {
  static std::once_flag once;
  std::call_once(once, [&lib] {
    g_lib = &lib;
    lib.av_log_set_callback(callback);
  });
}

}  // namespace vqx::libav_log
