#include "core/sequential_stages.hpp"

#include <cstring>

namespace vqx {

namespace {

// `to` has `from`'s format: the rows of every plane, padding left out.
void copy_samples(const Picture& from, Picture& to) {
  for (unsigned p = 0; p < from.plane_count(); ++p) {
    const Plane& a = from.plane(p);
    Plane& b = to.plane(p);
    const std::size_t row_bytes = std::size_t{a.width()} * a.bytes_per_sample();
    for (unsigned y = 0; y < a.height(); ++y) {
      std::memcpy(b.row<std::uint8_t>(y), a.row<std::uint8_t>(y), row_bytes);
    }
  }
}

}  // namespace

Status SequentialStages::init(const PictureFormat& fmt, unsigned history) {
  release();
  history_ = history;
  for (unsigned k = 0; k < history; ++k) {
    VQX_ASSIGN_OR_RETURN(Picture r, Picture::make(fmt));
    VQX_ASSIGN_OR_RETURN(Picture d, Picture::make(fmt));
    ref_.push_back(std::move(r));
    dist_.push_back(std::move(d));
  }
  return Status::Ok();
}

void SequentialStages::release() {
  history_ = 0;
  ref_.clear();
  ref_.shrink_to_fit();
  dist_.clear();
  dist_.shrink_to_fit();
}

Status SequentialStages::run(TemporalStages& stages, const Picture& ref, const Picture& dist,
                             unsigned index, FeatureWriter& out) {
  if (ref_.size() != stages.history()) {
    return Error(Errc::kInternal, "extract() of a temporal extractor after reserve()");
  }
  FrameWindow w;
  w.index = index;
  w.ref[0] = &ref;
  w.dist[0] = &dist;
  for (unsigned k = 1; k <= history_ && k <= index; ++k) {
    w.ref[k] = &ref_[(index - k) % history_];
    w.dist[k] = &dist_[(index - k) % history_];
  }
  VQX_RETURN_IF_ERROR(stages.prepare(w, 0));
  VQX_RETURN_IF_ERROR(stages.finish(index, out));
  if (history_ > 0) {
    copy_samples(ref, ref_[index % history_]);
    copy_samples(dist, dist_[index % history_]);
  }
  return Status::Ok();
}

}  // namespace vqx
