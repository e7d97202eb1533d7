#include "core/extractor.hpp"

#include <string>

namespace vqx {

std::unique_ptr<Extractor> ExtractorSpec::make() const {
  return make_cpu(ExtractorEnv{std::make_shared<OutputFiles>()});
}

Status check_extract_input(const char* family, bool initialised, const PictureFormat& fmt,
                           FormatMatch match, const Picture& ref, const Picture& dist,
                           unsigned index) {
  if (!initialised)
    return Error(Errc::kInternal, std::string(family) + ": extract() before init()");
  for (const Picture* p : {&ref, &dist}) {
    const PictureFormat& f = p->format();
    const bool same = match == FormatMatch::kExact
                          ? f == fmt
                          : f.width == fmt.width && f.height == fmt.height && f.bpc == fmt.bpc;
    if (!same) {
      return Error(Errc::kMismatch,
                   std::string(family) + ": frame " + std::to_string(index) + " differs in " +
                       (match == FormatMatch::kExact ? "size, bit depth or chroma format"
                                                     : "size or bit depth") +
                       " from the format given to init()");
    }
  }
  return Status::Ok();
}

Status check_frame_order(const char* family, unsigned index, unsigned expected) {
  if (index == expected) return Status::Ok();
  return Error(Errc::kInternal, std::string(family) + ": frame " + std::to_string(index) +
                                    " arrived, expected frame " + std::to_string(expected) +
                                    " (a temporal extractor needs frames in order)");
}

}  // namespace vqx
