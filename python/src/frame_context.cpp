#include "frame_context.hpp"

#include <utility>

#include "errors.hpp"
#include "frame_input.hpp"
#include "vqx/run_checks.hpp"  // describe(PictureFormat)

namespace py = pybind11;

namespace vqx::python {

namespace {

std::optional<unsigned> checked_bitdepth(std::optional<unsigned> bitdepth) {
  if (bitdepth && (*bitdepth < 8 || *bitdepth > 16)) {
    throw py::value_error("bitdepth " + std::to_string(*bitdepth) + ": expected 8 to 16");
  }
  return bitdepth;
}

}  // namespace

FrameContext::FrameContext(const ContextSettings& settings, const std::vector<std::string>& models,
                           const std::vector<std::string>& features,
                           std::optional<unsigned> bitdepth)
    : bitdepth_(checked_bitdepth(bitdepth)),
      context_(make_context(settings, models, features)),
      subsample_(settings.subsample) {}

void FrameContext::add(py::handle ref, py::handle dist) {
  const FrameView r = view_frame(ref, "reference", bitdepth_);
  const FrameView d = view_frame(dist, "distorted", bitdepth_);
  if (!(r.format == d.format)) {
    throw py::value_error("reference frame is " + describe(r.format) + " but distorted frame is " +
                          describe(d.format));
  }
  py::gil_scoped_release release;
  const std::lock_guard lock(mutex_);
  if (!context_) throw Failure(Error(Errc::kInvalidArgument, "add() after score()"));
  if (format_ && !(*format_ == r.format)) {
    throw py::value_error("frame " + std::to_string(frames_.load()) + " is " + describe(r.format) +
                          " but the first frame was " + describe(*format_));
  }
  Picture rp = take(context_->fetch_picture(r.format));
  Picture dp = take(context_->fetch_picture(d.format));
  copy_frame(r, rp);
  copy_frame(d, dp);
  if (frames_ == 0) start_ = std::chrono::steady_clock::now();
  check(context_->read_pictures(std::move(rp), std::move(dp), frames_.load()));
  format_ = r.format;
  ++frames_;
}

ScoredRun FrameContext::finish() {
  py::gil_scoped_release release;
  const std::lock_guard lock(mutex_);
  if (!context_) throw Failure(Error(Errc::kInvalidArgument, "score() called twice"));
  if (frames_ == 0) throw Failure(Error(Errc::kInvalidArgument, "no frames to score: add() some"));
  std::unique_ptr<Context> ctx = std::move(context_);
  check(ctx->flush());
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
  RunResults results =
      collect_results(*ctx, subsample_, seconds > 0 ? frames_.load() / seconds : 0);
  return {std::move(ctx), std::move(results)};
}

}  // namespace vqx::python
